// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-5.1.c - teo@5.1: the timer events oriented (TEO) cpuidle governor as merged for
 * Linux v5.1 (commit b26bf6ab716f, "cpuidle: New timer events oriented governor for
 * tickless systems"), drivers/cpuidle/governors/teo.c. Functions in the kernel file's order.
 *
 * What it models. TEO starts from the deepest state whose target residency fits the sleep
 * length (time to the next timer) and asks whether something else is likely to wake the CPU
 * earlier. Microsecond arithmetic (unsigned int, ktime_to_us() truncation); per-state
 * early_hits, hits and misses, each growing by PULSE per event and losing x >> DECAY_SHIFT
 * per update; a ring of the INTERVALS (8) latest non-timer idle durations.
 *   teo_update(): a select-to-reflect span reaching the sleep length is a timer wakeup
 *     (measured = sleep length), else measured = span - exit latency / 2 (halved when below
 *     the exit latency). idx_timer (deepest state fitting the sleep length) gets a hit if the
 *     measured time fits it too, else a miss and an early hit on idx_hit (deepest state
 *     fitting the measured time). early_hits decay everywhere; hits/misses at idx_timer only.
 *   teo_select(): walk the states up to the sleep length, remember the largest early_hits
 *     (max_early_idx; not a state below TICK_USEC once the tick is stopped; a disabled
 *     state's early_hits only raise the maximum); if the candidate's hits <= misses take
 *     max_early_idx. A state over the latency limit ends the walk ("goto refine") and skips
 *     that test. Then more than INTERVALS/2 recent durations below the chosen state's target
 *     residency select a shallower state by their average ("pattern"). Keep the tick for a
 *     polling state or an expected duration below TICK_USEC, capping the state by delta_tick.
 * The v5.1 text was rebuilt from the v5.2 file with the later stable fixes undone (history
 * in git); not confirmed: whether v5.1's teo_reflect() cleared dev->poll_time_limit (modelled
 * as not clearing it).
 *
 * Quirks reproduced (real kernel behaviour, kept on purpose):
 *  - x -= x >> DECAY_SHIFT leaves a metric below 8 (shift 3) for ever.
 *  - The ring wraps with `if (interval_idx > INTERVALS)`: the kernel writes one past the array
 *    and never reads it, so every ninth sample is lost. intervals[] has that extra slot here.
 *  - teo_enable_device() memsets its data, so last_state is 0, not -1: the first select runs
 *    teo_update() on nothing, counts a timer wakeup (span == sleep length == 0), hits[0] +=
 *    PULSE when state 0 has a target residency of 0, and UINT_MAX goes into intervals[0].
 *  - Its own last_state and time_span_ns are measured; dev->last_residency_ns (v5.5) is not.
 *  - ktime_to_us() of the sleep length is truncated to unsigned int (KTIME_MAX becomes
 *    2783138807 us); the PM QoS limit is the int microseconds of v5.1's
 *    cpuidle_governor_latency_req(), compared with the unsigned exit latency.
 *  - dev->poll_time_limit is not cleared: after a POLL time-limit wakeup it stays set until
 *    the next POLL entry clears it, so a later non-polling wakeup also counts as a timer one.
 *  - A latency break skips the hits/misses test, and the pattern check compares with the
 *    state selected so far (both changed in v5.3 by cab09f3d2d2a).
 *
 * Deviations: PULSE and DECAY_SHIFT are tunables (teo-common.h, kernel values by default);
 * states[idx].hits is read only when
 * idx >= 0 (the kernel reads states[-1] with every state disabled, harmlessly); only
 * dev->states_usage[i].disable is checked (drv->states[i].disabled does not exist here); the
 * engine's POLL time limit is the >= v5.11 rule; "no timer" (KTIME_MAX) exists only in the
 * simulator; teo_find_shallower_state_us() is our helper for the kernel's inline walk.
 *
 * Decision log (--explain), emitted once by teo_trace_select() on the way out:
 * sleep_length_ns, candidate, rule, tick_rule, expected_us,
 * duration_us, hits and misses of the candidate, max_early_idx, early_hits (the maximum as
 * the loop left it), pattern_count, pattern_avg_us. It has no kernel counterpart.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/teo-common.h"

/* v5.1: size of the ring of recent non-timer idle durations searched for a pattern. */
#define INTERVALS 8

/*
 * struct teo_cpu - per-CPU data of v5.1 (its struct teo_cpu). time_span_ns holds the select
 * timestamp, then the select-to-reflect span; sleep_length_ns is the sleep length seen at
 * select; states[] has the per-state metrics; last_state is the state entered last (-1 once
 * accounted); intervals[] is the ring of recent idle durations and interval_idx its next slot.
 * The kernel array has INTERVALS entries and v5.1 writes one past its end (see the quirks in
 * the DOC); the extra slot here receives that write and is never read.
 */
struct teo_cpu {
	u64 time_span_ns;
	u64 sleep_length_ns;
	struct teo_idle_state states[CPUIDLE_STATE_MAX];
	int last_state;
	int interval_idx;
	unsigned int intervals[INTERVALS + 1];
};

static DEFINE_PER_CPU(struct teo_cpu, teo_cpus);

/* v5.1 cpuidle_governor_latency_req() returned int microseconds. */
static int teo_latency_req_us(const struct cpuidle_device *dev)
{
	s64 req_us = cpuidle_governor_latency_req(dev->cpu) / NSEC_PER_USEC;

	return req_us > INT_MAX ? INT_MAX : (int)req_us;
}

/* teo_update - account the last wakeup in the v5.1 metrics (us). */
static void teo_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	unsigned int sleep_length_us =
		(unsigned int)ktime_to_us((ktime_t)cpu_data->sleep_length_ns);
	int i, idx_hit = -1, idx_timer = -1;
	unsigned int measured_us;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		/*
		 * The span reached the sleep length (or reflect set it to that): treat it as a
		 * timer wakeup.
		 */
		measured_us = sleep_length_us;
	} else {
		unsigned int lat = drv->states[cpu_data->last_state].exit_latency;

		measured_us = (unsigned int)ktime_to_us((ktime_t)cpu_data->time_span_ns);
		/*
		 * Take off half the exit latency: the full value is a worst case and the real
		 * delay before the CPU runs again is usually shorter. A measured time below the
		 * exit latency is halved instead.
		 */
		if (measured_us >= lat)
			measured_us -= lat / 2;
		else
			measured_us /= 2;
	}

	/*
	 * Age every state's early_hits, and find idx_timer, the deepest state fitting the sleep
	 * length, and idx_hit, the deepest one fitting the measured time as well.
	 */
	for (i = 0; i < drv->state_count; i++) {
		unsigned int early_hits = cpu_data->states[i].early_hits;

		cpu_data->states[i].early_hits -= early_hits >> DECAY_SHIFT;

		if (drv->states[i].target_residency <= sleep_length_us) {
			idx_timer = i;
			if (drv->states[i].target_residency <= measured_us)
				idx_hit = i;
		}
	}

	/* a hit or a miss for idx_timer, an early hit for idx_hit (teo-common.c) */
	teo_account_wakeup(dev, cpu_data->states, idx_timer, idx_hit);

	/*
	 * A timer wakeup says nothing about other wakeup sources: store UINT_MAX for it, which
	 * the pattern search never counts.
	 */
	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns)
		measured_us = UINT_MAX;

	/*
	 * Write the sample into the ring. v5.1 wraps only after index INTERVALS (`>`), the
	 * off-by-one fixed in v5.5.
	 */
	cpu_data->intervals[cpu_data->interval_idx++] = measured_us;
	if (cpu_data->interval_idx > INTERVALS)
		cpu_data->interval_idx = 0;
}

/*
 * teo_find_shallower_state_us - walk down from state_idx to the first enabled state whose
 * target residency fits duration_us, or else the shallowest enabled one (state_idx itself if
 * none is enabled below it).
 */
static int teo_find_shallower_state_us(struct cpuidle_driver *drv, struct cpuidle_device *dev,
					int state_idx, unsigned int duration_us)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (dev->states_usage[i].disable)
			continue;

		state_idx = i;
		if (drv->states[i].target_residency <= duration_us)
			break;
	}
	return state_idx;
}

/*
 * What the decision log needs beyond teo_select()'s own locals: how far the selection got
 * (which keys exist) and the values that change after they were decided.
 */
struct teo_trace {
	bool weighed;		 /* the walk ended without a latency break: hits .. early_hits */
	bool pattern;		 /* the pattern check ran: pattern_count (then count) */
	int candidate;		 /* idx where the walk stopped (-1: none enabled) */
	unsigned int early_hits; /* count as the walk left it */
	unsigned int pattern_avg_us; /* 0: fewer than INTERVALS / 2 + 1 short intervals */
	const char *tick_rule;	 /* why the tick is kept; NULL: not kept */
};

/*
 * teo_trace_select - the decision log of one teo_select(), emitted once on its way out (like
 * a tracepoint), in the order the keys have always had.
 */
static int teo_trace_select(struct cpuidle_device *dev, const struct teo_trace *tr, int idx,
			    int max_early_idx, unsigned int count, unsigned int duration_us,
			    const char *rule)
{
	const struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	if (!dev->explain)
		return idx;
	teo_explain_sleep_length(dev, (s64)cpu_data->sleep_length_ns);
	gov_explain(dev, "duration_us", (unsigned int)ktime_to_us((ktime_t)cpu_data->sleep_length_ns));
	gov_explain(dev, "candidate", tr->candidate);
	if (tr->weighed) {
		if (tr->candidate >= 0) {
			gov_explain(dev, "hits", cpu_data->states[tr->candidate].hits);
			gov_explain(dev, "misses", cpu_data->states[tr->candidate].misses);
		}
		gov_explain(dev, "max_early_idx", max_early_idx);
		gov_explain(dev, "early_hits", tr->early_hits);
	}
	if (tr->pattern) {
		gov_explain(dev, "pattern_count", count);
		if (count > INTERVALS / 2)
			gov_explain(dev, "pattern_avg_us", tr->pattern_avg_us);
	}
	gov_explain(dev, "expected_us", duration_us);
	if (tr->tick_rule)
		gov_explain_str(dev, "tick_rule", tr->tick_rule);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/* teo_select - choose the state for the next idle period (v5.1 logic, us). */
static int teo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int latency_req = teo_latency_req_us(dev);
	unsigned int duration_us, count;
	int max_early_idx, idx, i;
	ktime_t delta_tick;
	const char *rule = "timer";
	struct teo_trace tr = {0};

	if (cpu_data->last_state >= 0) {
		teo_update(drv, dev);
		cpu_data->last_state = -1;
	}

	cpu_data->time_span_ns = local_clock();

	cpu_data->sleep_length_ns = (u64)tick_nohz_get_sleep_length(&delta_tick);
	duration_us = (unsigned int)ktime_to_us((ktime_t)cpu_data->sleep_length_ns);

	count = 0;
	max_early_idx = -1;
	idx = -1;

	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];
		struct cpuidle_state_usage *su = &dev->states_usage[i];

		if (su->disable) {
			/*
			 * A disabled state cannot be chosen, but its early_hits still raise the
			 * running maximum, so that a deeper state with fewer early hits does
			 * not win; max_early_idx keeps pointing at a shallower enabled state.
			 */
			if (max_early_idx >= 0 && count < cpu_data->states[i].early_hits)
				count = cpu_data->states[i].early_hits;

			continue;
		}

		if (idx < 0)
			idx = i; /* fallback: the shallowest enabled state */

		if (s->target_residency > duration_us)
			break;

		/* exit_latency is unsigned int, latency_req int: compared as unsigned. */
		if (s->exit_latency > (unsigned int)latency_req) {
			/*
			 * Stopped by the latency limit: take the chosen state's target
			 * residency as the expected idle time, so the tick is stopped only if
			 * that state is deep enough to justify it.
			 */
			duration_us = drv->states[idx].target_residency;
			rule = "latency-constraint";
			tr.candidate = idx;
			goto refine;
		}

		idx = i;

		if (count < cpu_data->states[i].early_hits &&
		    !(tick_nohz_tick_stopped() && drv->states[i].target_residency < TICK_USEC)) {
			count = cpu_data->states[i].early_hits;
			max_early_idx = i;
		}
	}

	tr.candidate = idx;
	tr.weighed = true;
	tr.early_hits = count;

	/*
	 * The candidate fits the sleep length. Keep it if its hits outnumber its misses;
	 * otherwise an earlier wakeup is more likely, so take the state with the most early
	 * hits, if one was found. (The kernel reads states[-1] when no state is enabled;
	 * max_early_idx is -1 then, so the result is the same.)
	 */
	if (idx >= 0 && cpu_data->states[idx].hits <= cpu_data->states[idx].misses &&
	    max_early_idx >= 0) {
		if (idx != max_early_idx)
			rule = "early-hits";
		idx = max_early_idx;
		duration_us = drv->states[idx].target_residency;
	}

refine:
	if (idx < 0) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "no-state-enabled";
	} else if (idx > 0) {
		u64 sum = 0;

		count = 0;

		/*
		 * Pattern check: count and add up the recent idle durations shorter than the
		 * chosen state's target residency.
		 */
		for (i = 0; i < INTERVALS; i++) {
			unsigned int val = cpu_data->intervals[i];

			if (val >= drv->states[idx].target_residency)
				continue;

			count++;
			sum += val;
		}
		tr.pattern = true;

		/* Act only if more than half of the ring falls in that range. */
		if (count > INTERVALS / 2) {
			unsigned int avg_us = (unsigned int)div64_u64(sum, count);

			tr.pattern_avg_us = avg_us;
			/*
			 * With the tick stopped, ignore an average below one tick: acting on it
			 * could keep the CPU in a shallow state for a long time.
			 */
			if (!(tick_nohz_tick_stopped() && avg_us < TICK_USEC)) {
				idx = teo_find_shallower_state_us(drv, dev, idx, avg_us);
				duration_us = avg_us;
				rule = "pattern";
			}
		}
	}

	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if ((teo_polling(drv, idx) || duration_us < TICK_USEC) && !tick_nohz_tick_stopped()) {
		unsigned int delta_tick_us = (unsigned int)ktime_to_us(delta_tick);

		*stop_tick = false;
		tr.tick_rule = teo_polling(drv, idx) ? "polling-state" : "short-duration";

		/*
		 * The tick stays on and will wake the CPU within delta_tick at the latest: if
		 * the chosen state's target residency does not fit in that time, step down to a
		 * state that does.
		 */
		if (idx > 0 && drv->states[idx].target_residency > delta_tick_us) {
			idx = teo_find_shallower_state_us(drv, dev, idx, delta_tick_us);
			rule = "tick";
		}
	}

	return teo_trace_select(dev, &tr, idx, max_early_idx, count, duration_us, rule);
}

/*
 * teo_reflect - remember the state entered and measure the select-to-reflect span for the
 * next update.
 */
static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	cpu_data->last_state = state;
	/*
	 * A POLL time limit, or a tick wakeup with a sleep length beyond one tick, is not a
	 * real wakeup event: count the whole sleep length as idle time. (v5.1, as modelled:
	 * poll_time_limit is not cleared here.)
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick() && cpu_data->sleep_length_ns > (u64)TICK_NSEC))
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	else
		cpu_data->time_span_ns = local_clock() - cpu_data->time_span_ns;
}

/* teo_enable_device - zero the metrics and fill the interval ring with UINT_MAX. */
static int teo_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int i;

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));

	for (i = 0; i < INTERVALS; i++)
		cpu_data->intervals[i] = UINT_MAX;

	return 0;
}

static struct cpuidle_governor teo_governor = {
	.name = "teo@5.1",
	.rating = 19,
	.enable = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "TEO as merged: per-state early hits/hits/misses, 8 recent intervals (us)",
	.params = teo_params_5,
	.nr_params = TEO_NR_PARAMS_5,
};

static int __init teo_governor_init(void)
{
	return cpuidle_register_governor(&teo_governor);
}

postcore_initcall(teo_governor_init);
