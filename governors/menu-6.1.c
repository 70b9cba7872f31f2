// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-6.1.c - menu@6.1: the menu cpuidle governor as in the menu.c of Debian's
 * linux-source-6.1 (6.1.192), the ns era before v6.6. The algorithm, the decision log and
 * the deviations shared by the ns-era ports are described in menu-common.h.
 *
 * What it models: the sleep length always read first and bucketed with the iowait split
 * (12 buckets); the early exit to state 0 before any prediction; predicted_us = the corrected
 * sleep length; get_typical_interval(data, predicted_us) with the "min >= predicted_us"
 * early exit (the one line in which it differs from v6.6's, get_typical_interval_one_sided()
 * in menu-common.c); then v6.6's tick-stopped rule, performance multiplier, loop and tick
 * decision (menu_pick_state_6_1(), the same text, in menu-common.c). The stable branch
 * carries fa3fa55de0d (UINT_MAX recorded after a rejected entry).
 * Checked decision by decision against the packaged file (tests/test_kgov.c, README "Kernel
 * governor files"). Its tunables are menu@6.6's; residency_threshold_us does nothing here.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/sched/loadavg.h>
#include <linux/sched/stat.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/menu-common.h"

/*
 * menu_select - choose the state for the next idle period: the menu.c of Debian's
 * linux-source-6.1 (6.1.192), the ns era before v6.6. The sleep length is always read first
 * and bucketed with the iowait split; the early exit to state 0 comes before any prediction;
 * the prediction is the smaller of the corrected sleep length and the typical interval,
 * which gives up early when no sample is below the former. The stable branch carries
 * fa3fa55de0d (a rejected entry recorded as UINT_MAX).
 */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	unsigned int predicted_us, typical_us, nr_iowaiters;
	u64 predicted_ns;
	ktime_t delta, delta_tick;
	struct menu_trace tr = {.has_iowait = true, .iowait_first = true};
	const char *rule = "timer";

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	} else if (!dev->last_residency_ns) {
		/* A rejected or aborted entry: record UINT_MAX, not a bogus sample. */
		menu_update_intervals(data, UINT_MAX);
	}

	/* the expected residency: the sleep length, rounded up below */
	delta = tick_nohz_get_sleep_length(&delta_tick);
	if (unlikely(delta < 0)) {
		delta = 0;
		delta_tick = 0;
	}
	data->next_timer_ns = (u64)delta;

	nr_iowaiters = (unsigned int)nr_iowait_cpu(dev->cpu);
	data->bucket = which_bucket(data->next_timer_ns, nr_iowaiters);
	tr.nr_iowait = nr_iowaiters;

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/* Only state 0 is possible: the tick stops unless it polls. */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		menu_trace_prediction(&tr, false, delta, delta_tick, UINT_MAX);
		tr.no_predicted_ns = true; /* not predicted yet */
		return menu_trace_select(dev, &tr, 0, 0, latency_req,
					 latency_req == 0 ? "latency-zero" : "early-exit-poll");
	}

	/* corrected sleep length, rounded to the nearest us; the smaller estimate wins */
	predicted_us = menu_timer_us(dev, data);
	typical_us = get_typical_interval_one_sided(dev, data, true, predicted_us);
	if (typical_us < predicted_us)
		rule = "typical-interval";
	predicted_ns = (u64)min(predicted_us, typical_us) * NSEC_PER_USEC;
	menu_trace_prediction(&tr, false, delta, delta_tick, typical_us);

	return menu_pick_state_6_1(drv, dev, latency_req, predicted_ns, delta_tick, nr_iowaiters,
				   stop_tick, rule, &tr);
}

static struct cpuidle_governor menu_governor = {
	.name = "menu@6.1",
	.rating = 20,
	.enable = menu_enable_device_6_6,
	.select = menu_select,
	.reflect = menu_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "menu of Debian's 6.1.192: ns, sleep length first, iowait buckets and multiplier",
	.params = menu_params_6_6, /* residency_threshold_us has no effect in 6.1 */
	.nr_params = ARRAY_SIZE(menu_params_6_6),
};

static int __init init_menu(void)
{
	return cpuidle_register_governor(&menu_governor);
}

postcore_initcall(init_menu);
