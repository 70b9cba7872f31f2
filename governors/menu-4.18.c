// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-4.18.c - menu@4.18: the menu cpuidle governor of Linux v4.18 (Aug 2018),
 * drivers/cpuidle/governors/menu.c, in the kernel file's function order. The algorithm and
 * the decision log are described in menu-common.h.
 *
 * What it models: microsecond units; 12 buckets split by iowait; performance_multiplier() =
 * 1 + LOAD_FACTOR * get_loadavg(load) + IOWAIT_FACTOR * nr_iowaiters, applied as a latency
 * limit only while the tick runs; get_typical_interval() without the predicted-value early
 * exit (thresh = UINT_MAX); the tick-aware selection of v4.17 (stop_tick, tick_wakeup and
 * the 9 * MAX_INTERESTING / 10 rule, 45f1ff59e27c / 296bb1e51a48 / 87c9fe6ee495); the
 * first_idx / polling threshold rule (max(20 us, C1 target residency)); menu_update() with
 * the "> 2 * exit_latency, else halve" rule and the tick-wakeup rule. No pristine v4.18 file
 * was available: it was rebuilt from the v4.17 series and two v4.14/v4.19-based trees
 * (history in git). Later changes NOT included: 5ef499cd571c, "Retain tick when shallow
 * state is selected", 5f26bdceb9c0, the "min >= predicted_us" early exit, a7fe5190c03f.
 *
 * Known deviations:
 *  - latency_req was pm_qos_request(PM_QOS_CPU_DMA_LATENCY) with the device resume latency,
 *    int us; here cpuidle_governor_latency_req(dev->cpu) / NSEC_PER_USEC, truncated and capped at
 *    INT_MAX. last_residency is last_residency_ns / 1000 truncated and capped at INT_MAX, as
 *    cpuidle_enter_state() computed it. drv->states[i].disabled does not exist here (false).
 *  - get_iowait_load()'s load is the trace's load= (FIXED_1 fixed point, the layer's linux/sched/stat.h).
 *  - No timer: next_timer_us = ktime_to_us(KTIME_MAX) would wrap; it saturates at UINT_MAX.
 *  - The POLL time limit is the engine's (>= v5.11 rule); v4.18's was TICK_NSEC / 16, and its
 *    menu_update() does not look at poll_time_limit, so a time-limited POLL entry is recorded
 *    as a short measured interval, as v4.18 did.
 *  - typical_accept() (menu-common.c) computes the variance from a sum of squares, the
 *    same u64 as the kernel's second loop.
 */
#define MENU_V4_18 /* the us era: the ns-era shared helpers of menu-common.h stay hidden */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/sched/loadavg.h>
#include <linux/sched/stat.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/menu-common.h"

/* ktime_to_us() into the unsigned int of v4.18 (UINT_MAX for "no timer"). */
static unsigned int ktime_to_us_uint(ktime_t t)
{
	return t == KTIME_MAX ? UINT_MAX : (unsigned int)ktime_to_us(t);
}

static inline int get_loadavg(unsigned long load)
{
	return LOAD_INT(load) * 10 + LOAD_FRAC(load) / 10;
}

/*
 * The v4.18 performance multiplier. The predicted idle time divided by it gives a second
 * latency limit, so the busier the CPU looks (load average, tasks waiting for I/O) the
 * shallower the states it may enter.
 */
static inline int performance_multiplier(const struct cpuidle_device *dev,
					      unsigned long nr_iowaiters, unsigned long load)
{
	int mult = 1;

	/* load term: LOAD_FACTOR times get_loadavg() (load x 10) */

	mult += LOAD_FACTOR * get_loadavg(load);

	/* I/O term: IOWAIT_FACTOR per task waiting for I/O on this CPU */
	mult += IOWAIT_FACTOR * (int)nr_iowaiters;

	return mult;
}

/*
 * get_typical_interval() of v4.18: look for a repeating pattern in the last INTERVALS idle
 * durations. If they are close enough together their average is the prediction; if not, the
 * largest values are dropped and the test repeated, down to 3/4 of the samples. UINT_MAX means
 * no prediction.
 */
static unsigned int get_typical_interval(const struct cpuidle_device *dev,
					      struct menu_device *data)
{
	int i, divisor;
	unsigned int max, thresh, avg;
	uint64_t sum, sum_sq;

	thresh = UINT_MAX; /* ignore samples above this (none at first) */

again:

	/* mean of the samples kept */
	max = 0;
	sum = 0;
	sum_sq = 0;
	divisor = 0;
	for (i = 0; i < (int)INTERVALS; i++) {
		unsigned int value = data->intervals[i];
		if (value <= thresh) {
			sum += value;
			sum_sq += (u64)value * value;
			divisor++;
			if (value > max)
				max = value;
		}
	}
	if (typical_accept(dev, sum, sum_sq, divisor, &avg)) {
		data->typical_samples = divisor;
		return avg;
	}

	/*
	 * No pattern. While more than 3/4 of the samples are still in, drop the largest value
	 * (thresh = max - 1 excludes every copy of it) and try again; then give up with
	 * UINT_MAX. This handles a run of short idle periods broken up by a few long ones.
	 */
	if ((divisor * 4) <= (int)(INTERVALS * 3)) {
		data->typical_samples = 0;
		return UINT_MAX;
	}

	thresh = max - 1;
	goto again;
}

/* menu_update - fold the last idle period into the v4.18 statistics (us). */
static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);

	menu_update_us(drv, dev, data->last_state_idx, false);
}

/*
 * What the decision log needs beyond menu_trace_select()'s arguments: whether the prediction
 * was made (the latency-zero exit comes first) and the values of the way there.
 */
struct menu_trace {
	bool predicted;
	bool has_mult; /* the performance multiplier was computed (tick running) */
	int perf_mult;
	int first_idx;
	ktime_t sleep_length, delta_next;
	unsigned int typical_us;
	unsigned long nr_iowaiters, cpu_load;
};

/*
 * menu_trace_select - the decision log of one menu_select(), emitted once on each way out
 * (like a tracepoint): [perf_mult], the prediction's inputs, predicted_ns, latency_req_ns
 * (after the multiplier), nr_iowait, loadavg, first_idx, rule. Returns idx.
 */
static int menu_trace_select(struct cpuidle_device *dev, const struct menu_trace *tr, int idx,
			     int latency_req, const char *rule)
{
	const struct menu_device *data = this_cpu_ptr(&menu_devices);

	if (!dev->explain)
		return idx;
	if (tr->has_mult)
		gov_explain(dev, "perf_mult", tr->perf_mult);
	if (tr->predicted) {
		gov_explain(dev, "sleep_length_ns", ns_or_none(tr->sleep_length));
		menu_explain_inputs(dev, data, tr->delta_next, tr->typical_us);
		gov_explain(dev, "predicted_ns", (long long)data->predicted_us * NSEC_PER_USEC);
	}
	gov_explain(dev, "latency_req_ns", (long long)latency_req * NSEC_PER_USEC);
	if (tr->predicted) {
		gov_explain(dev, "nr_iowait", tr->nr_iowaiters);
		gov_explain(dev, "loadavg", get_loadavg(tr->cpu_load));
		gov_explain(dev, "first_idx", tr->first_idx);
	}
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/* menu_select - choose the state for the next idle period (v4.18 logic, us). */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	int latency_req = latency_req_us(dev);
	int i;
	int first_idx;
	int idx;
	unsigned int interactivity_req;
	unsigned int expected_interval, typical_us, timer_us;
	unsigned long nr_iowaiters, cpu_load;
	ktime_t delta_next, sleep_length;
	const char *rule;
	bool lowered = false;
	struct menu_trace tr = {0};

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	}

	/* A PM QoS limit of 0 allows only state 0, with the tick kept running. */
	if (unlikely(latency_req == 0)) {
		*stop_tick = false;
		return menu_trace_select(dev, &tr, 0, latency_req, "latency-zero");
	}

	/* sleep length in us, and the bucket it selects */
	sleep_length = tick_nohz_get_sleep_length(&delta_next);
	data->next_timer_us = ktime_to_us_uint(sleep_length);

	get_iowait_load(&nr_iowaiters, &cpu_load);
	data->bucket = which_bucket((u64)data->next_timer_us * NSEC_PER_USEC, nr_iowaiters);

	/*
	 * Corrected sleep length: the product is taken in 64 bits and the quotient rounded to
	 * the nearest us.
	 */
	data->predicted_us = DIV_ROUND_CLOSEST_ULL((uint64_t)data->next_timer_us *
							   data->correction_factor[data->bucket],
						   RESOLUTION * DECAY);
	timer_us = data->predicted_us;

	expected_interval = typical_us = get_typical_interval(dev, data);
	expected_interval = min(expected_interval, data->next_timer_us);

	first_idx = 0;
	if (drv->states[0].flags & CPUIDLE_FLAG_POLLING) {
		struct cpuidle_state *s = &drv->states[1];
		unsigned int polling_threshold;

		/*
		 * Start the search at state 1 instead of POLL, unless the next timer is within
		 * the polling threshold, state 1 does not meet the latency limit, or state 1 is
		 * disabled.
		 */
		polling_threshold = max_t(unsigned int, POLLING_THRESHOLD_US, s->target_residency);
		if (data->next_timer_us > polling_threshold &&
		    (unsigned int)latency_req > s->exit_latency && !dev->states_usage[1].disable)
			first_idx = 1;
	}

	/* The prediction is the smaller of the two estimates. */
	data->predicted_us = min(data->predicted_us, expected_interval);
	rule = data->predicted_us < timer_us && typical_us <= data->next_timer_us
		       ? "typical-interval"
		       : "timer";

	if (tick_nohz_tick_stopped()) {
		/*
		 * With the tick already stopped, a prediction that is too short could leave the
		 * CPU in a shallow state for a long time. Raise a prediction below one tick to
		 * TICK_USEC, or to the time to the next timer event if that comes sooner.
		 */
		if (data->predicted_us < TICK_USEC) {
			data->predicted_us =
				min_t(unsigned int, TICK_USEC, ktime_to_us_uint(delta_next));
			rule = "tick-stopped";
		}
	} else {
		int mult = performance_multiplier(dev, nr_iowaiters, cpu_load);

		/*
		 * Second latency limit: the prediction divided by the multiplier; the lower
		 * limit applies.
		 */
		interactivity_req = data->predicted_us / (unsigned int)mult;
		if ((unsigned int)latency_req > interactivity_req) {
			latency_req = (int)interactivity_req;
			lowered = true;
		}
		tr.has_mult = true;
		tr.perf_mult = mult;
	}

	expected_interval = data->predicted_us;
	/*
	 * Walk up the states: keep the deepest enabled one that fits the prediction and the
	 * latency limit.
	 */
	idx = -1;
	for (i = first_idx; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];
		struct cpuidle_state_usage *su = &dev->states_usage[i];

		if (su->disable)
			continue;
		if (idx == -1)
			idx = i; /* fallback: the shallowest enabled state */
		if (s->target_residency > data->predicted_us)
			break;
		if (s->exit_latency > (unsigned int)latency_req) {
			/*
			 * Stopped by the latency limit: take the chosen state's target
			 * residency as the expected idle time, so the tick is stopped only if
			 * that state is deep enough to justify it.
			 */
			expected_interval = drv->states[idx].target_residency;
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
	if ((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) || expected_interval < TICK_USEC) {
		unsigned int delta_next_us = ktime_to_us_uint(delta_next);

		*stop_tick = false;

		if (!tick_nohz_tick_stopped() && menu_fit_delta_next_us(drv, dev, &idx, delta_next_us))
			rule = "tick-retained-cap";
	}

	data->last_state_idx = idx;

	tr.predicted = true;
	tr.first_idx = first_idx;
	tr.sleep_length = sleep_length;
	tr.delta_next = delta_next;
	tr.typical_us = typical_us;
	tr.nr_iowaiters = nr_iowaiters;
	tr.cpu_load = cpu_load;
	return menu_trace_select(dev, &tr, data->last_state_idx, latency_req, rule);
}

/*
 * menu_reflect - note the state entered and whether the tick woke the CPU; the statistics
 * are updated at the next select.
 */
static void menu_reflect(struct cpuidle_device *dev, int index)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);

	data->last_state_idx = index;
	data->needs_update = 1;
	data->tick_wakeup = tick_nohz_idle_got_tick();
}

static int menu_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	menu_enable(dev, BUCKETS);
	return 0;
}

/* The us-era five (menu-common.h), then 4.18's own. */
static const struct gov_param menu_params[] = {
	MENU_PARAMS_US,
	{"poll_threshold_us", 20, 0, 1000000,
	 "skip POLL when the next timer is beyond max(this, C1 target residency)"},
	{"iowait_factor", 10, 0, 100, "performance multiplier: added per iowait task"},
	{"load_factor", 2, 0, 100, "performance multiplier: times get_loadavg() (load x 10)"},
};

static struct cpuidle_governor menu_governor = {
	.name = "menu@4.18",
	.rating = 20,
	.enable = menu_enable_device,
	.select = menu_select,
	.reflect = menu_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "menu of Linux v4.18: us, iowait buckets, load+iowait multiplier",
	.params = menu_params,
	.nr_params = ARRAY_SIZE(menu_params),
};

static int __init init_menu(void)
{
	return cpuidle_register_governor(&menu_governor);
}

postcore_initcall(init_menu);
