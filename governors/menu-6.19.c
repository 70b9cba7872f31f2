// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-6.19.c - menu@6.19: the menu cpuidle governor of Linux v6.19. The algorithm, the
 * decision log and the deviations shared by the ns-era ports are described in menu-common.h.
 *
 * What it models: 6 buckets, no iowait (38f83090f515); single-pass get_typical_interval()
 * with two-sided outlier removal, returning UINT_MAX again when too few samples remain
 * (10fad4012234); an entry that was rejected or aborted recorded as UINT_MAX (fa3fa55de0d);
 * the exit latency checked first in the main loop (779b1a1cb13a, 17224c1d2574); the polling
 * override of db86f55bf81a with the RESIDENCY_THRESHOLD_NS test of 07d815701274. Not in
 * v6.19, so not modelled: 80606f4eb8d7 "Always check timers with tick stopped" (7.0-rc1),
 * the SAFE_TIMER_RANGE_NS change, "Predict longer idle time when in doubt" (unmerged).
 * Modelled from the v6.17 file plus the diffs of the patches above (history in git).
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
 * get_typical_interval() of v6.19: one pass gives the mean and variance of the samples strictly
 * between min_thresh and max_thresh. When the spread is too wide, the side farther from the
 * mean is cut off and the pass repeated, down to 3/4 of the samples.
 */
static unsigned int get_typical_interval(const struct cpuidle_device *dev,
					      struct menu_device *data)
{
	s64 value, min_thresh = -1, max_thresh = UINT_MAX;
	unsigned int max, min, divisor;
	u64 avg, variance, avg_sq;
	int i;

again:
	/* one pass: sum and sum of squares of the kept samples */
	max = 0;
	min = UINT_MAX;
	avg = 0;
	variance = 0;
	divisor = 0;
	for (i = 0; i < (int)INTERVALS; i++) {
		value = data->intervals[i];
		/* skip samples at or beyond either threshold */
		if (value <= min_thresh || value >= max_thresh)
			continue;

		divisor++;

		avg += (u64)value;
		variance += (u64)value * (u64)value;

		if (value > max)
			max = (unsigned int)value;

		if (value < min)
			min = (unsigned int)value;
	}

	if (!max) {
		data->typical_samples = 0;
		return UINT_MAX;
	}

	if (divisor == (int)INTERVALS) {
		avg >>= INTERVAL_SHIFT;
		variance >>= INTERVAL_SHIFT;
	} else {
		avg = div_u64(avg, divisor);
		variance = div_u64(variance, divisor);
	}

	avg_sq = avg * avg;
	variance -= avg_sq;

	/*
	 * Accept the average when the samples are tightly grouped: a variance of at most
	 * VARIANCE_MAX (400 us^2, i.e. a standard deviation of 20 us), or, with at least 3/4 of
	 * the samples kept, avg^2 > RATIO_SQ * variance (the average above 6 standard
	 * deviations). avg fits in 32 bits, so its square fits in a u64; the outer test only
	 * keeps variance * RATIO_SQ from overflowing, and a variance that large (standard
	 * deviation beyond about 715 s) just means no pattern.
	 *
	 * The caller still takes the smaller of this and the timer-based prediction.
	 */
	if (likely(variance <= U64_MAX / RATIO_SQ)) {
		if ((avg_sq > variance * RATIO_SQ && divisor * 4 >= INTERVALS * 3) ||
		    variance <= VARIANCE_MAX) {
			data->typical_samples = divisor;
			return (unsigned int)avg;
		}
	}

	/*
	 * No pattern. While more than 3/4 of the samples are still in, cut off the outliers on
	 * the side farther from the average and try again. Otherwise return UINT_MAX: with no
	 * prediction only the timer limits the choice, so deep states stay reachable, which
	 * matters where the time CPUs spend in deep idle states affects the highest frequency
	 * they can reach (the behaviour 10fad4012234 restored).
	 */
	if (divisor * 4 <= INTERVALS * 3) {
		data->typical_samples = 0;
		return UINT_MAX;
	}

	/* move the threshold on the side farther from the average */
	if (avg - min > max - avg)
		min_thresh = min;
	else
		max_thresh = max;

	goto again;
}

/* menu_select - choose the state for the next idle period (v6.19 logic, ns). */
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
		/*
		 * No update pending and a last residency of 0: the previous entry was rejected
		 * by the driver (or aborted). Record UINT_MAX so that no bogus sample enters
		 * the intervals.
		 */
		menu_update_intervals(data, UINT_MAX);
	}

	/* Typical interval first; the timer is queried only when that is long enough. */
	typical_us = get_typical_interval(dev, data);
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
		data->bucket = which_bucket(data->next_timer_ns, 0);

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
		data->bucket = BUCKETS_6_12 - 1;
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

	/*
	 * With the tick already stopped, a prediction that is too short could leave the CPU in
	 * a shallow state for a long time. Below one tick, trust the time to the next timer
	 * event instead.
	 */
	if (tick_nohz_tick_stopped() && predicted_ns < (u64)TICK_NSEC) {
		predicted_ns = data->next_timer_ns;
		rule = "tick-stopped";
	}

	return menu_pick_state_6_12(drv, dev, latency_req, predicted_ns, delta_tick, stop_tick,
				    rule, &tr);
}

static struct cpuidle_governor menu_governor = {
	.name = "menu@6.19",
	.rating = 20,
	.enable = menu_enable_device_6_19,
	.select = menu_select,
	.reflect = menu_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "menu of Linux v6.19: no iowait, two-sided outliers, polling threshold",
	.params = menu_params_6_19,
	.nr_params = ARRAY_SIZE(menu_params_6_19),
};

static int __init init_menu(void)
{
	return cpuidle_register_governor(&menu_governor);
}

postcore_initcall(init_menu);
