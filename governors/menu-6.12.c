// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-6.12.c - menu@6.12: the menu cpuidle governor as in the menu.c of Debian's
 * linux-source-6.12 (6.12.118). The algorithm, the decision log and the deviations shared by
 * the ns-era ports are described in menu-common.h.
 *
 * What it models: the selection of menu@6.19 (no iowait, 6 buckets, UINT_MAX after a
 * rejected entry, the polling override with RESIDENCY_THRESHOLD_NS, the loop with the exit
 * latency first: menu_pick_state_6_12() in menu-common.c, the same text), but v6.6's
 * one-sided get_typical_interval(), and the stable backport of 80606f4eb8d7 ("Always check
 * timers with tick stopped", mainline 7.0): with the tick stopped the sleep length is read
 * whatever the typical interval, and a prediction below a tick is replaced by it inside that
 * branch. Checked decision by decision against the packaged file (tests/test_kgov.c).
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
 * linux-source-6.12 (6.12.118). Against v6.19: get_typical_interval() is still the one-sided
 * version of v6.6 (get_typical_interval_6_6()), and the stable branch carries 80606f4eb8d7
 * ("Always check timers with tick stopped", which mainline took only for 7.0): with the tick
 * already stopped, the sleep length is read whatever the typical interval, and a prediction
 * below a tick is replaced by it right there.
 */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	u64 predicted_ns;
	unsigned int typical_us;
	ktime_t delta = KTIME_MAX, delta_tick;
	struct menu_trace tr = {0};
	const char *rule = "typical-interval";
	bool skipped = false;

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	} else if (!dev->last_residency_ns) {
		/* A rejected or aborted entry: record UINT_MAX, not a bogus sample. */
		menu_update_intervals(data, UINT_MAX);
	}

	/* Typical interval first; the timer is read when that is long, or the tick stopped. */
	typical_us = get_typical_interval_6_6(dev, data);
	predicted_ns = typical_us * NSEC_PER_USEC;
	if (predicted_ns > RESIDENCY_THRESHOLD_NS || tick_nohz_tick_stopped()) {
		unsigned int timer_us;

		delta = tick_nohz_get_sleep_length(&delta_tick);
		if (unlikely(delta < 0)) {
			delta = 0;
			delta_tick = 0;
		}

		data->next_timer_ns = (u64)delta;
		data->bucket = which_bucket(data->next_timer_ns, 0);

		timer_us = menu_timer_us(dev, data);
		if (typical_us == UINT_MAX || (u64)timer_us * NSEC_PER_USEC < predicted_ns)
			rule = "timer";
		predicted_ns = min((u64)timer_us * NSEC_PER_USEC, predicted_ns);
		/* With the tick stopped, a prediction below a tick gives way to the timer. */
		if (tick_nohz_tick_stopped() && predicted_ns < (u64)TICK_NSEC) {
			predicted_ns = data->next_timer_ns;
			rule = "tick-stopped";
		}
	} else {
		/* Not read: the next timer is taken as far away, the next tick half a period. */
		data->next_timer_ns = KTIME_MAX;
		delta_tick = TICK_NSEC / 2;
		data->bucket = BUCKETS_6_12 - 1;
		skipped = true;
	}
	menu_trace_prediction(&tr, skipped, delta, delta_tick, typical_us);

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/* Only state 0 is possible: the tick stops unless it polls. */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		return menu_trace_select(dev, &tr, 0, predicted_ns, latency_req,
					 latency_req == 0 ? "latency-zero" : "early-exit-poll");
	}

	return menu_pick_state_6_12(drv, dev, latency_req, predicted_ns, delta_tick, stop_tick,
				    rule, &tr);
}

static struct cpuidle_governor menu_governor = {
	.name = "menu@6.12",
	.rating = 20,
	.enable = menu_enable_device_6_19,
	.select = menu_select,
	.reflect = menu_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "menu of Debian's 6.12.118: no iowait, one-sided outliers, timers with tick stopped",
	.params = menu_params_6_19,
	.nr_params = ARRAY_SIZE(menu_params_6_19),
};

static int __init init_menu(void)
{
	return cpuidle_register_governor(&menu_governor);
}

postcore_initcall(init_menu);
