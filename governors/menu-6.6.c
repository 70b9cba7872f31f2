// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-6.6.c - menu@6.6: the menu cpuidle governor of Linux v6.6 (the same code through
 * v6.11). The algorithm, the decision log and the deviations shared by the ns-era ports are
 * described in menu-common.h.
 *
 * What it models: ns units, 12 buckets; get_typical_interval(data) first (5484e31bbbff); the
 * sleep length read only when the typical interval exceeds RESIDENCY_THRESHOLD_NS (else
 * next_timer_ns = KTIME_MAX and delta_tick = TICK_NSEC / 2); the negative sleep length
 * clamp; performance_multiplier() = 1 + IOWAIT_FACTOR * nr_iowaiters; the poll_time_limit
 * rule in menu_update(). The loop and tick decision are menu_pick_state_6_1() (menu-common.c,
 * the same text as 6.1). Modelled from a full copy of the v6.6-v6.11 file; later AUTOSEL
 * backports to 6.6.y (07d815701274, 85975daeaa4d and its revert) are not modelled.
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

static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	u64 predicted_ns;
	unsigned int nr_iowaiters, typical_us;
	ktime_t delta = KTIME_MAX, delta_tick;
	struct menu_trace tr = {0};
	const char *rule = "typical-interval";
	bool skipped = false;

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	}

	nr_iowaiters = (unsigned int)nr_iowait_cpu(dev->cpu);
	tr.has_iowait = true;
	tr.nr_iowait = nr_iowaiters;

	/* Typical interval first; the timer is queried only when that is long enough. */
	typical_us = get_typical_interval_6_6(dev, data);
	predicted_ns = typical_us * NSEC_PER_USEC;
	if (predicted_ns > RESIDENCY_THRESHOLD_NS) {
		unsigned int timer_us;

		/* sleep length, and the time to the next tick */
		delta = tick_nohz_get_sleep_length(&delta_tick);
		if (unlikely(delta < 0)) {
			delta = 0;
			delta_tick = 0;
		}

		data->next_timer_ns = (u64)delta;
		data->bucket = which_bucket(data->next_timer_ns, nr_iowaiters);

		/* corrected sleep length, rounded to the nearest us */
		timer_us = menu_timer_us(dev, data);
		/* the smaller estimate wins */
		if (typical_us == UINT_MAX || (u64)timer_us * NSEC_PER_USEC < predicted_ns)
			rule = "timer";
		predicted_ns = min((u64)timer_us * NSEC_PER_USEC, predicted_ns);
	} else {
		/*
		 * The timer was not queried: take the next timer as infinitely far away and the
		 * next tick as half a tick period from now.
		 */
		data->next_timer_ns = KTIME_MAX;
		delta_tick = TICK_NSEC / 2;
		data->bucket = which_bucket(KTIME_MAX, nr_iowaiters);
		skipped = true;
	}
	menu_trace_prediction(&tr, skipped, delta, delta_tick, typical_us);

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/*
		 * Only state 0 is possible here, so return it at once; the tick is stopped
		 * unless state 0 is a polling state.
		 */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		return menu_trace_select(dev, &tr, 0, predicted_ns, latency_req,
					 latency_req == 0 ? "latency-zero" : "early-exit-poll");
	}

	return menu_pick_state_6_1(drv, dev, latency_req, predicted_ns, delta_tick, nr_iowaiters,
				   stop_tick, rule, &tr);
}

static struct cpuidle_governor menu_governor = {
	.name = "menu@6.6",
	.rating = 20,
	.enable = menu_enable_device_6_6,
	.select = menu_select,
	.reflect = menu_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "menu of Linux v6.6-v6.11: ns, typical interval first, iowait multiplier",
	.params = menu_params_6_6,
	.nr_params = ARRAY_SIZE(menu_params_6_6),
};

static int __init init_menu(void)
{
	return cpuidle_register_governor(&menu_governor);
}

postcore_initcall(init_menu);
