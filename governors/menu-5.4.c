// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-5.4.c - menu@5.4: the menu cpuidle governor of Linux v5.4 (tag v5.4, Nov 2019; the
 * v5.3 logic, unchanged in v5.4 and in the 5.4 LTS branch), drivers/cpuidle/governors/menu.c,
 * in the kernel file's function order. The algorithm and the decision log are described in
 * menu-common.h.
 *
 * What it models: the last us-era menu. The sleep length is read first, truncated to the
 * unsigned int next_timer_us (ktime_to_us()) and bucketed with the iowait split (12
 * buckets); the early exit to state 0 (one state, a latency limit of 0, or the next timer or
 * the limit below state 1 while state 0 is enabled) keeps the tick running; predicted_us =
 * DIV_ROUND_CLOSEST_ULL(next_timer_us * correction_factor, RESOLUTION * DECAY);
 * get_typical_interval(data, predicted_us) with the "min >= predicted_us" early exit
 * (get_typical_interval_one_sided(), menu-common.c, the same text as 6.1's); with the tick
 * stopped a prediction below TICK_USEC becomes ktime_to_us(delta_next); otherwise the
 * latency limit is lowered to predicted_us / (1 + 10 * nr_iowaiters) (no load term since
 * a7fe5190c03f, v4.20). The state loop: POLL overridden by the next real state that meets
 * the limit and the next timer; a prediction beyond a tick keeps the shallow state with the
 * tick running (retain-tick), or with the tick stopped takes the deeper state if it fits
 * delta_next; a state over the latency limit ends the walk and its predecessor's target
 * residency becomes the expected idle time (v5.3, "break out of the loop for latency
 * reasons"). The tick is kept for POLL or a prediction below a tick, and the state capped by
 * delta_next. menu_update() (menu_update_us(), shared with 4.18) with the POLL time-limit
 * rule; menu_reflect() records the state in dev->last_state_idx (the ns ports' text).
 * Modelled on a v5.3/v5.4 file (docs/kernel-governor-files.md, "Supported range", row (a)).
 *
 * Known deviations:
 *  - int latency_req is cpuidle_governor_latency_req(dev->cpu) / NSEC_PER_USEC, capped at
 *    INT_MAX (the engine's limit is in ns; the value is the same whole us); dev->last_residency
 *    is last_residency_ns / 1000 truncated and capped at INT_MAX, as cpuidle_enter_state()
 *    computed it. drv->states[i].disabled is read, and is always false here.
 *  - No timer: next_timer_us = ktime_to_us(KTIME_MAX) truncated to unsigned int, 2783138807
 *    us, as the kernel's arithmetic gives (the ns ports saturate at UINT_MAX instead); a
 *    running kernel never sees KTIME_MAX.
 *  - The POLL time limit is the engine's (>= v5.11 rule); v5.4's was TICK_NSEC / 16.
 *  - typical_accept() (menu-common.c) computes the variance from a sum of squares, the
 *    same u64 as the kernel's second loop. The tunables (decay .. ratio_sq, iowait_factor)
 *    replace the kernel's constants; their defaults are the kernel's.
 */
#define MENU_V5_4 /* its own us menu_update() and performance_multiplier() */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/menu-common.h"

/* The v5.4 multiplier: 1 + 10 per task waiting for I/O on this CPU (no load term). */
static inline int performance_multiplier(const struct cpuidle_device *dev,
					 unsigned long nr_iowaiters)
{
	return 1 + IOWAIT_FACTOR_5_4 * (int)nr_iowaiters;
}

/* menu_update - fold the last idle period into the statistics (us, POLL time-limit rule). */
static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	menu_update_us(drv, dev, dev->last_state_idx, true);
}

/* menu_select - choose the state for the next idle period (v5.4 logic, us). */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	int latency_req = latency_req_us(dev);
	int i;
	int idx;
	unsigned int interactivity_req;
	unsigned int predicted_us, typical_us;
	unsigned long nr_iowaiters;
	ktime_t sleep_length, delta_next;
	struct menu_trace tr = {.has_iowait = true, .iowait_first = true};
	const char *rule = "timer";
	bool lowered = false;

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	}

	/* the sleep length, truncated to whole us in an unsigned int */
	sleep_length = tick_nohz_get_sleep_length(&delta_next);
	data->next_timer_us = (unsigned int)ktime_to_us(sleep_length);

	nr_iowaiters = nr_iowait_cpu(dev->cpu);
	data->bucket = which_bucket((u64)data->next_timer_us * NSEC_PER_USEC, nr_iowaiters);
	tr.nr_iowait = (unsigned int)nr_iowaiters;

	/* exit_latency is unsigned int, latency_req int: compared as unsigned, as in C. */
	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_us < drv->states[1].target_residency ||
	      (unsigned int)latency_req < drv->states[1].exit_latency) &&
	     !drv->states[0].disabled && !dev->states_usage[0].disable)) {
		/* Only state 0 is possible: return it at once, with the tick kept running. */
		*stop_tick = false;
		menu_trace_prediction(&tr, false, sleep_length, delta_next, UINT_MAX);
		tr.no_predicted_ns = true; /* not predicted yet */
		return menu_trace_select(dev, &tr, 0, 0, (long long)latency_req * NSEC_PER_USEC,
					 latency_req == 0 ? "latency-zero" : "early-exit-poll");
	}

	/*
	 * Corrected sleep length: the product is taken in 64 bits and the quotient rounded to
	 * the nearest us. The smaller of it and the typical interval is the prediction.
	 */
	predicted_us = DIV_ROUND_CLOSEST_ULL((uint64_t)data->next_timer_us *
						     data->correction_factor[data->bucket],
					     RESOLUTION * DECAY);
	typical_us = get_typical_interval_one_sided(dev, data, true, predicted_us);
	if (typical_us < predicted_us)
		rule = "typical-interval";
	predicted_us = min(predicted_us, typical_us);
	menu_trace_prediction(&tr, false, sleep_length, delta_next, typical_us);

	if (tick_nohz_tick_stopped()) {
		/*
		 * With the tick already stopped, a prediction that is too short could leave the
		 * CPU in a shallow state for a long time: below one tick, use the time to the
		 * closest timer event instead.
		 */
		if (predicted_us < TICK_USEC) {
			predicted_us = (unsigned int)ktime_to_us(delta_next);
			rule = "tick-stopped";
		}
	} else {
		int mult = performance_multiplier(dev, nr_iowaiters);

		/*
		 * Second latency limit: the prediction divided by the multiplier; the lower
		 * limit applies.
		 */
		interactivity_req = predicted_us / (unsigned int)mult;
		if ((unsigned int)latency_req > interactivity_req) {
			latency_req = (int)interactivity_req;
			lowered = true;
		}
		tr.has_mult = true;
		tr.perf_mult = mult;
	}

	/*
	 * Walk up the states: keep the deepest enabled one that fits the prediction and the
	 * latency limit.
	 */
	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];
		struct cpuidle_state_usage *su = &dev->states_usage[i];

		if (s->disabled || su->disable)
			continue;

		if (idx == -1)
			idx = i; /* fallback: the shallowest enabled state */

		if (s->target_residency > predicted_us) {
			/*
			 * The prediction is below this state. If only POLL was chosen so far,
			 * take this state instead when it meets the latency limit and the next
			 * timer is not before its target residency.
			 */
			if ((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
			    s->exit_latency <= (unsigned int)latency_req &&
			    s->target_residency <= data->next_timer_us) {
				predicted_us = s->target_residency;
				idx = i;
				rule = "polling-override";
				break;
			}
			if (predicted_us < TICK_USEC)
				break;

			if (!tick_nohz_tick_stopped()) {
				/*
				 * The tick is running and will wake the CPU within a tick
				 * anyway, so a shallow choice costs little: keep it together
				 * with the tick and let the next pass of the idle loop decide
				 * again.
				 */
				predicted_us = drv->states[idx].target_residency;
				rule = "retain-tick";
				break;
			}

			/*
			 * The tick is stopped. If the choice so far is shallower than a tick
			 * and this state still fits before the closest timer event, take this
			 * state, so the CPU does not sit in a shallow state for long.
			 */
			if (drv->states[idx].target_residency < TICK_USEC &&
			    s->target_residency <= ktime_to_us(delta_next))
				idx = i;

			return menu_trace_select(dev, &tr, idx, (long long)predicted_us * NSEC_PER_USEC,
						 (long long)latency_req * NSEC_PER_USEC, "tick-stopped");
		}
		if (s->exit_latency > (unsigned int)latency_req) {
			/*
			 * Stopped by the latency limit (v5.3): take the chosen state's target
			 * residency as the expected idle time, so the tick is stopped only if
			 * that state is deep enough to justify it.
			 */
			predicted_us = drv->states[idx].target_residency;
			rule = lowered ? "interactivity" : "latency";
			break;
		}
		idx = i;
	}

	if (idx == -1) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "all-disabled";
	}

	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) || predicted_us < TICK_USEC) &&
	    !tick_nohz_tick_stopped()) {
		unsigned int delta_next_us = (unsigned int)ktime_to_us(delta_next);

		*stop_tick = false;

		if (menu_fit_delta_next_us(drv, dev, &idx, delta_next_us))
			rule = "tick-retained-cap";
	}

	return menu_trace_select(dev, &tr, idx, (long long)predicted_us * NSEC_PER_USEC,
				 (long long)latency_req * NSEC_PER_USEC, rule);
}

static int menu_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	menu_enable(dev, BUCKETS);
	return 0;
}

/* The us-era five (menu-common.h), then the iowait weight of the performance multiplier. */
static const struct gov_param menu_params[] = {
	MENU_PARAMS_US,
	{"iowait_factor", 10, 0, 100, "performance multiplier: added per iowait task"},
};

static struct cpuidle_governor menu_governor = {
	.name = "menu@5.4",
	.rating = 20,
	.enable = menu_enable_device,
	.select = menu_select,
	.reflect = menu_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "menu of Linux v5.4 LTS: us, iowait buckets and multiplier, latency break",
	.params = menu_params,
	.nr_params = ARRAY_SIZE(menu_params),
};

static int __init init_menu(void)
{
	return cpuidle_register_governor(&menu_governor);
}

postcore_initcall(init_menu);
