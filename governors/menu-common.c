// SPDX-License-Identifier: GPL-2.0-only
/* menu-common.c - the logic two or more menu ports share (see menu-common.h). */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/menu-common.h"

/*
 * The rounded sleep-length prediction in us of >= v5.5 (and of 6.6/6.19):
 *	timer_us = div_u64((RESOLUTION * DECAY * NSEC_PER_USEC) / 2 +
 *			   data->next_timer_ns * data->correction_factor[data->bucket],
 *			   RESOLUTION * DECAY * NSEC_PER_USEC);
 * saturated at UINT_MAX where the kernel would wrap (see "Known deviations").
 */
unsigned int menu_timer_us(const struct cpuidle_device *dev, const struct menu_device *data)
{
	u64 cf = data->correction_factor[data->bucket];
	u64 div = (u64)RESOLUTION * DECAY * NSEC_PER_USEC;
	u64 q;

	if (cf && data->next_timer_ns > (U64_MAX - div / 2) / cf)
		return UINT_MAX;
	q = div64_u64(div / 2 + data->next_timer_ns * cf, div);
	return q > UINT_MAX ? UINT_MAX : (unsigned int)q;
}

void menu_enable(struct cpuidle_device *dev, unsigned int buckets)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	unsigned int i;

	memset(data, 0, sizeof(struct menu_device));

	/*
	 * Every bucket starts at a correction factor of exactly 1.0 (RESOLUTION * DECAY in
	 * fixed point), as the kernel's menu_enable_device() sets it up.
	 */
	for (i = 0; i < buckets; i++)
		data->correction_factor[i] = RESOLUTION * DECAY;
}

/* The walk down to a state within delta_tick when the tick is kept (all versions). */
int menu_fit_delta_tick(struct cpuidle_driver *drv, struct cpuidle_device *dev, int idx,
			       s64 delta_tick)
{
	int i;

	if (idx > 0 && drv->states[idx].target_residency_ns > delta_tick) {
		/*
		 * The tick stays on and will wake the CPU within delta_tick at the latest, so a
		 * state with a longer target residency would not pay off: step down to the
		 * first enabled state that fits in that time (or to the shallowest enabled
		 * one).
		 */
		for (i = idx - 1; i >= 0; i--) {
			if (dev->states_usage[i].disable)
				continue;

			idx = i;
			if (drv->states[i].target_residency_ns <= delta_tick)
				break;
		}
	}
	return idx;
}

void menu_update_us(struct cpuidle_driver *drv, struct cpuidle_device *dev, int last_idx,
		    bool v5_4)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	struct cpuidle_state *target = &drv->states[last_idx];
	unsigned int measured_us;
	unsigned int new_factor;

	/*
	 * Estimate when the wakeup event arrived. The measured residency includes the exit
	 * latency: it is subtracted when the residency is more than twice as long, and a
	 * shorter residency is halved instead (the state may not even have been reached).
	 */

	if (data->tick_wakeup && data->next_timer_us > TICK_USEC) {
		/*
		 * The tick woke the CPU although the sleep length was longer than a tick, so
		 * the tick was not stopped after all and the measured time says little about
		 * the prediction. Record a long, but finite, idle period (9/10 of
		 * MAX_INTERESTING) instead, so that tick wakeups do not pull the correction
		 * factor down.
		 */
		measured_us = 9 * MAX_INTERESTING_US / 10;
	} else if (v5_4 && (drv->states[last_idx].flags & CPUIDLE_FLAG_POLLING) &&
		   dev->poll_time_limit) {
		/*
		 * (5.4) POLL ended on its time limit rather than on a wakeup, so the prediction
		 * that chose POLL was too short: assume the CPU would have slept until the
		 * next timer.
		 */
		measured_us = data->next_timer_us;
	} else {
		/* the residency as measured */
		measured_us = (unsigned int)cpuidle_get_last_residency(dev);

		/* remove the exit latency, or halve a short value */
		if (measured_us > 2 * target->exit_latency)
			measured_us -= target->exit_latency;
		else
			measured_us /= 2;
	}

	/* clamp to the sleep length, so a ratio never exceeds 1.0 */
	if (measured_us > data->next_timer_us)
		measured_us = data->next_timer_us;

	/* decay the bucket's factor, then add this period's measured / sleep length ratio */
	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / DECAY;

	if (data->next_timer_us > 0 && measured_us < MAX_INTERESTING_US)
		new_factor += RESOLUTION * measured_us / data->next_timer_us;
	else
		/* no sleep length, or idle for MAX_INTERESTING or longer: a ratio of exactly 1.0 */
		new_factor += RESOLUTION;

	/*
	 * A factor of 0 would turn every later prediction into 0. With DECAY > 1 the decay step
	 * cannot bring a nonzero factor to 0 (the subtracted part is rounded down), so only
	 * DECAY == 1, possible here as a tunable, needs this guard.
	 */
	if (DECAY == 1 && unlikely(new_factor == 0))
		new_factor = 1;

	data->correction_factor[data->bucket] = new_factor;

	menu_update_intervals(data, measured_us);
}

bool menu_fit_delta_next_us(struct cpuidle_driver *drv, struct cpuidle_device *dev, int *idx,
			    unsigned int delta_next_us)
{
	int i;

	if (*idx <= 0 || drv->states[*idx].target_residency <= delta_next_us)
		return false;

	/*
	 * The tick stays on and will wake the CPU within delta_next at the latest, so a state
	 * with a longer target residency would not pay off: step down to the first enabled
	 * state that fits in that time (or to the shallowest enabled one). drv->states[i].
	 * disabled (<= v5.4) is always false here.
	 */
	for (i = *idx - 1; i >= 0; i--) {
		if (drv->states[i].disabled || dev->states_usage[i].disable)
			continue;

		*idx = i;
		if (drv->states[i].target_residency <= delta_next_us)
			break;
	}
	return true;
}

/*
 * The test both classic get_typical_interval() versions (v4.18, v6.6) apply to the samples
 * kept (those <= thresh: `divisor` of them, summing to `sum`, their squares to `sum_sq`):
 * their average, and whether they are grouped tightly enough for it to be the prediction.
 *
 * The kernel sums (value - avg)^2 over the kept samples in a second loop. Expanded, that is
 * sum_sq - 2 * avg * sum + divisor * avg^2, an identity that holds modulo 2^64 too, so it
 * gives the kernel's u64 to the bit without the second pass over the samples (a known
 * deviation in form; test_menu checks it against the two loops on random samples).
 */
bool typical_accept(const struct cpuidle_device *dev, uint64_t sum, uint64_t sum_sq,
			   int divisor, unsigned int *avg_out)
{
	unsigned int avg;
	uint64_t variance;

	if (divisor == (int)INTERVALS)
		avg = sum >> INTERVAL_SHIFT;
	else
		avg = div_u64(sum, divisor);

	/* and their variance around it: the sum over kept samples of (value - avg)^2 */
	variance = sum_sq - 2 * (u64)avg * sum + (u64)divisor * avg * avg;
	if (divisor == (int)INTERVALS)
		variance >>= INTERVAL_SHIFT;
	else
		variance = div_u64(variance, divisor);

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
		if ((((u64)avg * avg > variance * RATIO_SQ) &&
		     (divisor * 4 >= (int)(INTERVALS * 3))) ||
		    variance <= VARIANCE_MAX) {
			*avg_out = avg;
			return true;
		}
	}
	return false;
}

/*
 * menu_update - fold the last idle period into the statistics (ns), as the kernel's
 * menu_update() does. v6.6 and v6.19 share this logic; 6.19 only moved the intervals update
 * into menu_update_intervals().
 */
void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	int last_idx = dev->last_state_idx;
	struct cpuidle_state *target = &drv->states[last_idx];
	u64 measured_ns;
	unsigned int new_factor;

	/*
	 * Estimate when the wakeup event arrived. The measured residency includes the exit
	 * latency: it is subtracted when the residency is more than twice as long, and a
	 * shorter residency is halved instead (the state may not even have been reached).
	 */

	if (data->tick_wakeup && data->next_timer_ns > (u64)TICK_NSEC) {
		/*
		 * The tick woke the CPU although the sleep length was longer than a tick, so
		 * the tick was not stopped after all and the measured time says little about
		 * the prediction. Record a long, but finite, idle period (9/10 of
		 * MAX_INTERESTING) instead, so that tick wakeups do not pull the correction
		 * factor down.
		 */
		measured_ns = 9 * MAX_INTERESTING / 10;
	} else if ((drv->states[last_idx].flags & CPUIDLE_FLAG_POLLING) && dev->poll_time_limit) {
		/*
		 * POLL ended on its time limit rather than on a wakeup, so the prediction that
		 * chose POLL was too short. Assume the CPU would have slept until the next
		 * timer.
		 */
		measured_ns = data->next_timer_ns;
	} else {
		/* the residency as measured */
		measured_ns = (u64)dev->last_residency_ns;

		/* remove the exit latency, or halve a short value */
		if (measured_ns > (u64)(2 * target->exit_latency_ns))
			measured_ns -= (u64)target->exit_latency_ns;
		else
			measured_ns /= 2;
	}

	/* clamp to the sleep length, so a ratio never exceeds 1.0 */
	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	/* decay the bucket's factor, then add this period's measured / sleep length ratio */
	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / DECAY;

	if (data->next_timer_ns > 0 && measured_ns < MAX_INTERESTING)
		new_factor +=
			(unsigned int)div64_u64(RESOLUTION * measured_ns, data->next_timer_ns);
	else
		/* no sleep length, or idle for MAX_INTERESTING or longer: a ratio of exactly 1.0 */
		new_factor += RESOLUTION;

	/*
	 * A factor of 0 would turn every later prediction into 0. With DECAY > 1 the decay step
	 * cannot bring a nonzero factor to 0 (the subtracted part is rounded down), so only
	 * DECAY == 1, possible here as a tunable, needs this guard.
	 */
	if (DECAY == 1 && unlikely(new_factor == 0))
		new_factor = 1;

	data->correction_factor[data->bucket] = new_factor;

	menu_update_intervals(data, (unsigned int)ktime_to_us((ktime_t)measured_ns));
}

/*
 * menu_reflect - note the state entered and whether the tick woke the CPU. The statistics wait
 * for the next select, which keeps this step (part of the exit path) short.
 */
void menu_reflect(struct cpuidle_device *dev, int index)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);

	dev->last_state_idx = index;
	data->needs_update = 1;
	data->tick_wakeup = tick_nohz_idle_got_tick();
}

void menu_explain_inputs(struct cpuidle_device *dev, const struct menu_device *data,
			 ktime_t delta_tick, unsigned int typical_us)
{
	gov_explain(dev, "delta_tick_ns", ns_or_none(delta_tick));
	gov_explain(dev, "bucket", data->bucket);
	gov_explain(dev, "correction_factor", data->correction_factor[data->bucket]);
	gov_explain(dev, "typical_interval_us", us_or_none(typical_us));
	gov_explain(dev, "typical_samples", data->typical_samples);
}

/*
 * menu_trace_select - the decision log of a 6.x menu_select(), emitted once on each of its
 * ways out (like a tracepoint): [nr_iowait (6.1)], the prediction's inputs,
 * [nr_iowait (6.6)], [perf_mult], predicted_ns (as the selection used it), latency_req_ns
 * (after the multiplier) and the rule that decided. Returns idx.
 */
int menu_trace_select(struct cpuidle_device *dev, const struct menu_trace *tr, int idx,
		      long long predicted_ns, long long latency_req_ns, const char *rule)
{
	const struct menu_device *data = this_cpu_ptr(&menu_devices);

	if (!dev->explain)
		return idx;
	if (tr->has_iowait && tr->iowait_first)
		gov_explain(dev, "nr_iowait", tr->nr_iowait);
	if (tr->predicted) {
		if (tr->skipped)
			gov_explain_str(dev, "sleep_length", "skipped");
		else
			gov_explain(dev, "sleep_length_ns", ns_or_none(tr->delta));
		menu_explain_inputs(dev, data, tr->delta_tick, tr->typical_us);
	}
	if (tr->has_iowait && !tr->iowait_first)
		gov_explain(dev, "nr_iowait", tr->nr_iowait);
	if (tr->has_mult)
		gov_explain(dev, "perf_mult", tr->perf_mult);
	if (!tr->no_predicted_ns)
		gov_explain(dev, "predicted_ns", predicted_ns);
	gov_explain(dev, "latency_req_ns", latency_req_ns);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/*
 * The v6.6 performance multiplier: 1 + IOWAIT_FACTOR per task waiting for I/O on this CPU. The
 * predicted idle time divided by it is an extra latency limit.
 */
int performance_multiplier(const struct cpuidle_device *dev,
					 unsigned int nr_iowaiters)
{
	/* IOWAIT_FACTOR per task waiting for I/O here; the load term went in a7fe5190c03f */
	return 1 + IOWAIT_FACTOR * (int)nr_iowaiters;
}

/*
 * get_typical_interval() of v6.1 (with the predicted_us early exit) and of v6.6 through the
 * 6.12.118 file: the v4.18 search, except that thresh starts at INT_MAX. The two differ only
 * in the first test after the mean (see there).
 */
unsigned int get_typical_interval_one_sided(const struct cpuidle_device *dev,
						   struct menu_device *data, bool v6_1,
						   unsigned int predicted_us)
{
	int i, divisor;
	unsigned int min, max, thresh, avg;
	uint64_t sum, sum_sq;

	thresh = INT_MAX; /* ignore samples above this */

again:

	/* mean of the samples kept */
	min = UINT_MAX;
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

			if (value < min)
				min = value;
		}
	}

	/*
	 * v6.1: nothing below the timer-based prediction (predicted_us), so the result would
	 * be discarded anyway. v6.6 and later read the timer only after this function, and
	 * give no prediction when every kept sample is 0 (or none is kept).
	 */
	if (v6_1 ? min >= predicted_us : !max) {
		data->typical_samples = 0;
		return UINT_MAX;
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

unsigned int get_typical_interval_6_6(const struct cpuidle_device *dev,
					     struct menu_device *data)
{
	return get_typical_interval_one_sided(dev, data, false, 0);
}

/* menu_select_6_6 - choose the state for the next idle period (v6.6-v6.11 logic, ns). */
/*
 * The tick-stopped rule, the performance multiplier, the state walk and the tick decision of
 * menu_select(): the same text from v5.x (ns) through v6.11, so shared by menu@6.1 and
 * menu@6.6. `rule` is the prediction's, for the log.
 */
int menu_pick_state_6_1(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			       s64 latency_req, u64 predicted_ns, ktime_t delta_tick,
			       unsigned int nr_iowaiters, bool *stop_tick, const char *rule,
			       struct menu_trace *tr)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	u64 interactivity_req;
	bool lowered = false;
	int i, idx;

	if (tick_nohz_tick_stopped()) {
		/*
		 * With the tick already stopped, a prediction that is too short could leave the
		 * CPU in a shallow state for a long time. Below one tick, trust the time to the
		 * next timer event instead.
		 */
		if (predicted_ns < (u64)TICK_NSEC) {
			predicted_ns = data->next_timer_ns;
			rule = "tick-stopped";
		}
	} else {
		int mult = performance_multiplier(dev, nr_iowaiters);

		/*
		 * Second latency limit: the prediction divided by the multiplier; the lower
		 * limit applies.
		 */
		interactivity_req = div64_u64(predicted_ns, (u64)mult);
		if ((u64)latency_req > interactivity_req) {
			latency_req = (s64)interactivity_req;
			lowered = true;
		}
		tr->has_mult = true;
		tr->perf_mult = mult;
	}

	/*
	 * Walk up the states: keep the deepest enabled one that fits the prediction and the
	 * latency limit.
	 */
	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable)
			continue;

		if (idx == -1)
			idx = i; /* fallback: the shallowest enabled state */

		if ((u64)s->target_residency_ns > predicted_ns) {
			/*
			 * The prediction is below this state. If only POLL was chosen so far,
			 * take this state instead when it meets the latency limit and the next
			 * timer is not before its target residency.
			 */
			if ((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
			    s->exit_latency_ns <= latency_req &&
			    (u64)s->target_residency_ns <= data->next_timer_ns) {
				predicted_ns = (u64)s->target_residency_ns;
				idx = i;
				rule = "polling-override";
				break;
			}
			if (predicted_ns < (u64)TICK_NSEC)
				break;

			if (!tick_nohz_tick_stopped()) {
				/*
				 * The tick is running and will wake the CPU within a tick
				 * anyway, so a shallow choice costs little: keep it together
				 * with the tick and let the next pass of the idle loop decide
				 * again.
				 */
				predicted_ns = (u64)drv->states[idx].target_residency_ns;
				rule = "retain-tick";
				break;
			}

			/*
			 * The tick is stopped. If the choice so far is shallower than a tick
			 * and this state still fits before the next timer event (delta_tick),
			 * take this state, so the CPU does not sit in a shallow state for long.
			 */
			if (drv->states[idx].target_residency_ns < TICK_NSEC &&
			    s->target_residency_ns <= delta_tick)
				idx = i;

			return menu_trace_select(dev, tr, idx, predicted_ns, latency_req, "tick-stopped");
		}
		if (s->exit_latency_ns > latency_req) {
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
	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) || predicted_ns < (u64)TICK_NSEC) &&
	    !tick_nohz_tick_stopped()) {
		int capped;

		*stop_tick = false;

		capped = menu_fit_delta_tick(drv, dev, idx, delta_tick);
		if (capped != idx)
			rule = "tick-retained-cap";
		idx = capped;
	}

	return menu_trace_select(dev, tr, idx, predicted_ns, latency_req, rule);
}

int menu_enable_device_6_6(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	menu_enable(dev, BUCKETS);
	return 0;
}

/*
 * The state walk and the tick decision of menu_select(), the same text in the 6.12.118 file
 * and in v6.19 (the loop with the exit latency checked first, 17224c1d2574, and the polling
 * override of db86f55bf81a and 07d815701274). `rule` is the prediction's, for the log.
 */
int menu_pick_state_6_12(struct cpuidle_driver *drv, struct cpuidle_device *dev,
				s64 latency_req, u64 predicted_ns, ktime_t delta_tick,
				bool *stop_tick, const char *rule, const struct menu_trace *tr)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	int i, idx;

	/*
	 * Walk up the states: keep the deepest enabled one that fits the prediction and the
	 * latency limit.
	 */
	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable)
			continue;

		if (idx == -1)
			idx = i; /* fallback: the shallowest enabled state */

		if (s->exit_latency_ns > latency_req) {
			rule = "latency";
			break;
		}

		if ((u64)s->target_residency_ns <= predicted_ns) {
			idx = i;
			continue;
		}

		/*
		 * Polling override (conditions from db86f55bf81a and 07d815701274): if only
		 * POLL was chosen so far, take this state instead when its target residency is
		 * below RESIDENCY_THRESHOLD_NS and not beyond the next timer, and its exit
		 * latency is within the prediction.
		 */
		if ((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
		    (u64)s->target_residency_ns < RESIDENCY_THRESHOLD_NS &&
		    (u64)s->target_residency_ns <= data->next_timer_ns &&
		    (u64)s->exit_latency_ns <= predicted_ns) {
			predicted_ns = (u64)s->target_residency_ns;
			idx = i;
			rule = "polling-override";
			break;
		}

		if (predicted_ns < (u64)TICK_NSEC)
			break;

		if (!tick_nohz_tick_stopped()) {
			/*
			 * The tick is running and will wake the CPU within a tick anyway, so a
			 * shallow choice costs little: keep it together with the tick and let
			 * the next pass of the idle loop decide again.
			 */
			predicted_ns = (u64)drv->states[idx].target_residency_ns;
			rule = "retain-tick";
			break;
		}

		/*
		 * The tick is stopped. If the choice so far is shallower than a tick and this
		 * state still fits before the next timer event (delta_tick), take this state,
		 * so the CPU does not sit in a shallow state for long.
		 */
		if (drv->states[idx].target_residency_ns < TICK_NSEC &&
		    s->target_residency_ns <= delta_tick)
			idx = i;

		return menu_trace_select(dev, tr, idx, predicted_ns, latency_req, "tick-stopped");
	}

	if (idx == -1) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "all-disabled";
	}

	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) || predicted_ns < (u64)TICK_NSEC) &&
	    !tick_nohz_tick_stopped()) {
		int capped;

		*stop_tick = false;

		capped = menu_fit_delta_tick(drv, dev, idx, delta_tick);
		if (capped != idx)
			rule = "tick-retained-cap";
		idx = capped;
	}

	return menu_trace_select(dev, tr, idx, predicted_ns, latency_req, rule);
}

int menu_enable_device_6_19(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	menu_enable(dev, BUCKETS_6_12);
	return 0;
}

/* The first five tunables are the same in every version; see menu-4.18.c for the ranges. */
const struct gov_param menu_params_6_6[7] = {
	{"decay", 8, 1, 1024, "DECAY: correction factors keep (decay - 1) / decay of their value"},
	{"resolution", 1024, 1, 65536, "RESOLUTION: fixed-point unit of correction factors"},
	{"max_interesting_us", 50000, 1, 100000000,
	 "MAX_INTERESTING: idle at least this long counts as a perfect prediction"},
	{"variance_max", 400, 0, 1000000000000LL,
	 "typical interval accepted if its variance (us^2) is at most this"},
	{"ratio_sq", 36, 1, 1000000,
	 "typical interval accepted if avg^2 > ratio_sq * variance (with >= 6 samples)"},
	{"residency_threshold_us", 15, 0, 1000000,
	 "RESIDENCY_THRESHOLD_NS: read the sleep length only above this typical interval"},
	{"iowait_factor", 10, 0, 100, "performance multiplier: added per iowait task"},
};

const struct gov_param menu_params_6_19[6] = {
	{"decay", 8, 1, 1024, "DECAY: correction factors keep (decay - 1) / decay of their value"},
	{"resolution", 1024, 1, 65536, "RESOLUTION: fixed-point unit of correction factors"},
	{"max_interesting_us", 50000, 1, 100000000,
	 "MAX_INTERESTING: idle at least this long counts as a perfect prediction"},
	{"variance_max", 400, 0, 1000000000000LL,
	 "typical interval accepted if its variance (us^2) is at most this"},
	{"ratio_sq", 36, 1, 1000000,
	 "typical interval accepted if avg^2 > ratio_sq * variance (with >= 6 samples)"},
	{"residency_threshold_us", 15, 0, 1000000,
	 "RESIDENCY_THRESHOLD_NS: sleep length and polling-override threshold"},
};
