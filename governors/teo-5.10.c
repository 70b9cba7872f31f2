// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-5.10.c - teo@5.10: the TEO cpuidle governor of Linux v5.10 LTS (tag v5.10, Dec 2020;
 * the "early hits" teo of v5.8 to v5.11, before the idx0 changes and the v5.14 bins rework),
 * drivers/cpuidle/governors/teo.c. Functions in the kernel file's order.
 *
 * What it models. The v5.1 algorithm (teo-5.1.c) in nanoseconds, with the changes of v5.3
 * to v5.8: u64 time_span_ns, sleep_length_ns and intervals[] (filled with U64_MAX, wrapped
 * with `>=`); per-state early_hits, hits and misses (PULSE, DECAY_SHIFT).
 *   teo_update(): a select-to-reflect span reaching the sleep length is a timer wakeup
 *     (measured = U64_MAX); otherwise measured = dev->last_residency_ns minus half the exit
 *     latency of dev->last_state_idx (halved when below the exit latency). idx_timer (deepest
 *     state fitting the sleep length) gets a hit if the measured time fits it too, else a
 *     miss and an early hit on idx_hit; every measured value goes into the ring.
 *   teo_select(): walk the enabled states up to the sleep length; a state over the latency
 *     limit sets constraint_idx (the walk goes on); max_early_idx / prev_max_early_idx track
 *     the largest early_hits (not a state below TICK_NSEC once the tick is stopped); a
 *     disabled state below the sleep length lends its hits/misses and early_hits to the
 *     candidate. If the candidate's hits <= misses take max_early_idx (prev_max_early_idx if
 *     that is the candidate) and its target residency as the duration; then cap by
 *     constraint_idx; then more than INTERVALS/2 recent durations below the expected duration
 *     give their average as the new duration (ignored below a tick once the tick is
 *     stopped), picking a shallower state if needed. The tick is kept for a polling state or
 *     a duration below TICK_NSEC, the state capped by delta_tick.
 *   teo_reflect(): dev->last_state_idx = state; a POLL time limit, or a tick wakeup with a
 *     sleep length beyond a tick, counts the whole sleep length and clears
 *     dev->poll_time_limit.
 * Modelled on a v5.8..v5.11 file (docs/kernel-governor-files.md, "Supported range", row (d)).
 *
 * Quirks reproduced: the truncating decay leaves a metric below 8 (shift 3) for ever; a
 * disabled state below the sleep length overwrites the candidate's hits and misses, so the
 * hits <= misses test may weigh a state that cannot be chosen; the latency limit does not end
 * the walk (constraint_idx caps the result after the early-hits step), and constraint_idx is
 * the first state whose exit latency EXCEEDS the limit, so the cap can choose a state over
 * the PM QoS limit (up to v5.13; the v5.14 rework takes the deepest state within it); a
 * timer wakeup's U64_MAX sample is never counted by the pattern check.
 *
 * Deviations: PULSE and DECAY_SHIFT are tunables (teo-common.h, kernel values by default);
 * only dev->states_usage[i].disable is read, as in the kernel (v5.5 dropped
 * drv->states[i].disabled); states[idx].hits is read only when idx >= 0; the engine's POLL
 * time limit is the >= v5.11 rule; dev->last_state_idx is -1 before enable() (the kernel's
 * zeroed device may run one teo_update() on state 0 at boot: not modelled); "no timer"
 * (KTIME_MAX) exists only in the simulator; teo_find_shallower_state() is the shared one
 * (teo-common.c, s64 duration: the same comparisons for the non-negative values here).
 *
 * Decision log (--explain), emitted once by teo_trace_select() on the way out:
 * sleep_length_ns, candidate, hits, misses, max_early_idx, early_hits, constraint_idx,
 * pattern_count, pattern_avg_ns, expected_ns, tick_rule, rule. It has no kernel counterpart.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/teo-common.h"

/* Number of the latest idle durations searched for a pattern. */
#define INTERVALS 8

/*
 * struct teo_cpu - per-CPU data of v5.10. time_span_ns holds the select timestamp, then the
 * select-to-reflect span; sleep_length_ns is the sleep length seen at select; intervals[] is
 * the ring of the latest measured idle durations (U64_MAX for a timer wakeup) and
 * interval_idx its next slot.
 */
struct teo_cpu {
	u64 time_span_ns;
	u64 sleep_length_ns;
	struct teo_idle_state states[CPUIDLE_STATE_MAX];
	int interval_idx;
	u64 intervals[INTERVALS];
};

static DEFINE_PER_CPU(struct teo_cpu, teo_cpus);

/* teo_update - account the last wakeup in the v5.10 metrics (ns). */
static void teo_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int i, idx_hit = -1, idx_timer = -1;
	u64 measured_ns;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		/*
		 * The span reached the sleep length (or reflect set it to that): a timer wakeup,
		 * or one close enough to it, which tells nothing about other wakeup sources.
		 */
		measured_ns = U64_MAX;
	} else {
		u64 lat_ns = (u64)drv->states[dev->last_state_idx].exit_latency_ns;

		/*
		 * The residency as the cpuidle core measured it (not the span, which includes
		 * the governor's overhead), less half the exit latency: the full value is a
		 * worst case. A measured time below the exit latency is halved instead.
		 */
		measured_ns = (u64)dev->last_residency_ns;
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	/*
	 * Age every state's early_hits, and find idx_timer, the deepest state fitting the sleep
	 * length, and idx_hit, the deepest one fitting the measured time as well.
	 */
	for (i = 0; i < drv->state_count; i++) {
		unsigned int early_hits = cpu_data->states[i].early_hits;

		cpu_data->states[i].early_hits -= early_hits >> DECAY_SHIFT;

		if ((u64)drv->states[i].target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if ((u64)drv->states[i].target_residency_ns <= measured_ns)
				idx_hit = i;
		}
	}

	/* a hit or a miss for idx_timer, an early hit for idx_hit (teo-common.c) */
	teo_account_wakeup(dev, cpu_data->states, idx_timer, idx_hit);

	/* the measured value (U64_MAX for a timer wakeup) into the ring */
	cpu_data->intervals[cpu_data->interval_idx++] = measured_ns;
	if (cpu_data->interval_idx >= INTERVALS)
		cpu_data->interval_idx = 0;
}

/* Not a state shallower than a tick once the tick is stopped (the CPU could stay there). */
static bool teo_time_ok(struct cpuidle_device *dev, u64 interval_ns)
{
	(void)dev; /* TICK_NSEC reads the run's HZ from the device in scope */
	return !tick_nohz_tick_stopped() || interval_ns >= (u64)TICK_NSEC;
}

/*
 * What the decision log needs beyond teo_select()'s own locals: the candidate where the walk
 * stopped and the values that change after they were decided.
 */
struct teo_trace {
	int candidate;		 /* idx after the walk (-1: none enabled) */
	unsigned int hits, misses, early_hits; /* as the walk left them */
	bool pattern;		 /* the pattern check ran */
	unsigned int pattern_count;
	u64 pattern_avg_ns;	 /* valid when pattern_count > INTERVALS / 2 */
	const char *tick_rule;	 /* why the tick is kept; NULL: not kept */
};

/* teo_trace_select - the decision log of one teo_select(), emitted once on its way out. */
static int teo_trace_select(struct cpuidle_device *dev, const struct teo_trace *tr, int idx,
			    int max_early_idx, int constraint_idx, u64 duration_ns,
			    const char *rule)
{
	const struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	if (!dev->explain)
		return idx;
	teo_explain_sleep_length(dev, (s64)cpu_data->sleep_length_ns);
	gov_explain(dev, "candidate", tr->candidate);
	gov_explain(dev, "hits", tr->hits);
	gov_explain(dev, "misses", tr->misses);
	gov_explain(dev, "max_early_idx", max_early_idx);
	gov_explain(dev, "early_hits", tr->early_hits);
	gov_explain(dev, "constraint_idx", constraint_idx);
	if (tr->pattern) {
		gov_explain(dev, "pattern_count", tr->pattern_count);
		if (tr->pattern_count > INTERVALS / 2)
			gov_explain(dev, "pattern_avg_ns", (long long)tr->pattern_avg_ns);
	}
	gov_explain(dev, "expected_ns", duration_ns >= (u64)KTIME_MAX ? -1 : (long long)duration_ns);
	if (tr->tick_rule)
		gov_explain_str(dev, "tick_rule", tr->tick_rule);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/* teo_select - choose the state for the next idle period (v5.10 logic, ns). */
static int teo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	u64 duration_ns;
	unsigned int hits, misses, early_hits;
	int max_early_idx, prev_max_early_idx, constraint_idx, idx, i;
	ktime_t delta_tick;
	const char *rule = "timer";
	struct teo_trace tr = {0};

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev);
		dev->last_state_idx = -1;
	}

	cpu_data->time_span_ns = local_clock();

	duration_ns = (u64)tick_nohz_get_sleep_length(&delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	hits = 0;
	misses = 0;
	early_hits = 0;
	max_early_idx = -1;
	prev_max_early_idx = -1;
	constraint_idx = drv->state_count;
	idx = -1;

	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable) {
			/* A disabled state beyond the sleep length plays no part. */
			if ((u64)s->target_residency_ns > duration_ns)
				continue;

			/*
			 * Its range of durations is covered by the current candidate, but its
			 * hits and misses decide whether that candidate is good enough.
			 */
			hits = cpu_data->states[i].hits;
			misses = cpu_data->states[i].misses;

			if (early_hits >= cpu_data->states[i].early_hits || idx < 0)
				continue;

			/*
			 * If the candidate holds the maximum so far, the disabled state's larger
			 * early_hits replaces the count, so a deeper state with fewer early hits
			 * does not win.
			 */
			if (max_early_idx == idx) {
				early_hits = cpu_data->states[i].early_hits;
				continue;
			}

			/*
			 * Otherwise the candidate, being closer to the disabled state, becomes
			 * the maximum (if it is not too shallow for a stopped tick).
			 */
			if (teo_time_ok(dev, (u64)drv->states[idx].target_residency_ns)) {
				prev_max_early_idx = max_early_idx;
				early_hits = cpu_data->states[i].early_hits;
				max_early_idx = idx;
			}

			continue;
		}

		if (idx < 0) {
			idx = i; /* first enabled state */
			hits = cpu_data->states[i].hits;
			misses = cpu_data->states[i].misses;
		}

		if ((u64)s->target_residency_ns > duration_ns)
			break;

		/* The deepest state allowed by the latency limit, applied after the walk. */
		if (s->exit_latency_ns > latency_req && constraint_idx > i)
			constraint_idx = i;

		idx = i;
		hits = cpu_data->states[i].hits;
		misses = cpu_data->states[i].misses;

		if (early_hits < cpu_data->states[i].early_hits &&
		    teo_time_ok(dev, (u64)drv->states[i].target_residency_ns)) {
			prev_max_early_idx = max_early_idx;
			early_hits = cpu_data->states[i].early_hits;
			max_early_idx = i;
		}
	}

	tr.candidate = idx;
	tr.hits = hits;
	tr.misses = misses;
	tr.early_hits = early_hits;

	/*
	 * Keep the candidate if its hits outnumber its misses; otherwise an earlier wakeup is
	 * more likely, so take the state with the most early hits below it, if there is one.
	 */
	if (hits <= misses) {
		if (idx == max_early_idx)
			max_early_idx = prev_max_early_idx;

		if (max_early_idx >= 0) {
			if (idx != max_early_idx)
				rule = "early-hits";
			idx = max_early_idx;
			duration_ns = (u64)drv->states[idx].target_residency_ns;
		}
	}

	/* The latency limit may call for a shallower state than the one chosen so far. */
	if (constraint_idx < idx) {
		idx = constraint_idx;
		rule = "latency-constraint";
	}

	if (idx < 0) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "no-state-enabled";
	} else if (idx > 0) {
		unsigned int count = 0;
		u64 sum = 0;

		/*
		 * Pattern check: count and add up the recent idle durations shorter than the
		 * expected duration.
		 */
		for (i = 0; i < INTERVALS; i++) {
			u64 val = cpu_data->intervals[i];

			if (val >= duration_ns)
				continue;

			count++;
			sum += val;
		}
		tr.pattern = true;
		tr.pattern_count = count;

		/* Act only if more than half of the ring falls in that range. */
		if (count > INTERVALS / 2) {
			u64 avg_ns = div64_u64(sum, count);

			tr.pattern_avg_ns = avg_ns;
			/* Ignore an average below one tick once the tick is stopped. */
			if (teo_time_ok(dev, avg_ns)) {
				duration_ns = avg_ns;
				if ((u64)drv->states[idx].target_residency_ns > avg_ns)
					idx = teo_find_shallower_state(drv, dev, idx, (s64)avg_ns);
				rule = "pattern";
			}
		}
	}

	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if ((teo_polling(drv, idx) || duration_ns < (u64)TICK_NSEC) && !tick_nohz_tick_stopped()) {
		*stop_tick = false;
		tr.tick_rule = teo_polling(drv, idx) ? "polling-state" : "short-duration";

		/*
		 * The tick stays on and will wake the CPU within delta_tick at the latest: if
		 * the chosen state's target residency does not fit in that time, step down to a
		 * state that does.
		 */
		if (idx > 0 && drv->states[idx].target_residency_ns > delta_tick) {
			idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
			rule = "tick";
		}
	}

	return teo_trace_select(dev, &tr, idx, max_early_idx, constraint_idx, duration_ns, rule);
}

/*
 * teo_reflect - remember the state entered and measure the select-to-reflect span for the
 * next update.
 */
static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	dev->last_state_idx = state;
	/*
	 * A POLL time limit, or a tick wakeup with a sleep length beyond one tick, is not a
	 * real wakeup event: count the whole sleep length as idle time (and clear the flag).
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick() && cpu_data->sleep_length_ns > (u64)TICK_NSEC)) {
		dev->poll_time_limit = false;
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	} else {
		cpu_data->time_span_ns = local_clock() - cpu_data->time_span_ns;
	}
}

/* teo_enable_device - zero the metrics and fill the interval ring with U64_MAX. */
static int teo_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int i;

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));

	for (i = 0; i < INTERVALS; i++)
		cpu_data->intervals[i] = U64_MAX;

	return 0;
}

static struct cpuidle_governor teo_governor = {
	.name = "teo@5.10",
	.rating = 19,
	.enable = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "TEO of Linux v5.10 LTS: early hits/hits/misses, 8 recent intervals (ns)",
	.params = teo_params_5,
	.nr_params = TEO_NR_PARAMS_5,
};

static int __init teo_governor_init(void)
{
	return cpuidle_register_governor(&teo_governor);
}

postcore_initcall(teo_governor_init);
