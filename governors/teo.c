// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo.c - the timer events oriented (TEO) cpuidle governor, in four kernel versions.
 *
 * Models drivers/cpuidle/governors/teo.c (Rafael J. Wysocki, Intel) as it was in four
 * releases, so that one trace can be replayed through each of them and through menu.
 */

/**
 * DOC: teo-description
 *
 * The algorithm
 * -------------
 * On most systems timer interrupts are far more frequent than any other wakeup source, and
 * the time till the next timer (the "sleep length", tick_nohz_get_sleep_length()) is known
 * at idle state selection time. TEO therefore starts from the deepest idle state whose
 * target residency fits the sleep length and only asks whether the CPU is likely to be
 * woken up *earlier* by something else. To answer that it keeps metrics that are updated
 * once per wakeup, lazily, at the start of the next teo_select() (teo_update()), using the
 * measured idle duration (minus half the exit latency, or halved when shorter than the exit
 * latency) and the sleep length saved at the previous selection. Every metric is an
 * unsigned int that grows by PULSE (1024) per event and decays by x >> DECAY_SHIFT (3),
 * i.e. to 7/8, at every update; the shift truncates, so up to v6.18 a metric below 8 never
 * decays at all (v6.19's teo_decay() clears it instead).
 *
 * Versions modelled (each is a table entry at the end of this file plus the functions that
 * differ; the versions share code only where the kernel text is the same)
 * --------------------------------------------------------------------------------------
 * teo@5.1 (T-A, commit b26bf6ab716f "cpuidle: New timer events oriented governor for
 *   tickless systems", merged for v5.1). Microsecond arithmetic (unsigned int, ktime_to_us()
 *   truncation), per-state "early_hits"/"hits"/"misses", and the INTERVALS (8) most recent
 *   idle durations of non-timer wakeups for pattern detection.
 *     update: a wakeup whose time span (select -> reflect, overhead included) reaches the
 *       sleep length counts as a timer wakeup (measured = sleep length); otherwise measured
 *       = time span - exit latency / 2. The deepest state fitting the sleep length
 *       (idx_timer) gets a "hit" if the measured duration fits it too, else a "miss" plus
 *       an "early hit" on the deepest state fitting the measured duration (idx_hit). Only
 *       early_hits decays for every state; hits and misses decay for idx_timer only.
 *     select: walk the enabled states up to the sleep length; remember the one with the
 *       largest early_hits (max_early_idx, not a state < TICK_USEC once the tick is
 *       stopped); a disabled state's early_hits only raise the running maximum. If the
 *       candidate's hits <= misses, take max_early_idx. A state over the latency limit
 *       ends the walk and skips that test ("goto refine"). Then, if more than INTERVALS/2
 *       recent durations are below the chosen state's target residency, their average
 *       selects a shallower state ("pattern"). Finally keep the tick for a polling state
 *       or an expected duration below TICK_USEC, capping the state by delta_tick.
 *   Source: no copy of the v5.1 file itself was found. The model is the v5.2 text
 *   (WindRiver-Labs/linux-yocto-5.2@6099b38a, which carries later stable fixes) with those
 *   fixes undone from their own patch pre-images, each read in the stored mails:
 *   cab09f3d2d2a "Allow tick to be stopped if PM QoS is used" (AUTOSEL 5.2 mail: the
 *   pre-image breaks the loop on latency, "goto refine", and compares the intervals with
 *   the target residency of the state selected so far); 4f690bb8ce4c "Rename local
 *   variable in teo_select()" (5.4-stable mail, "Cc: 5.1+": the pre-image's `count`, the
 *   disabled-state branch that only raises the maximum, the final
 *   `states[idx].hits <= states[idx].misses && max_early_idx >= 0` test); "Get rid of
 *   redundant check in teo_update()" (July 2019 mail: measured_us = sleep_length_us, and
 *   UINT_MAX stored in intervals[] only afterwards); Ikjoon Jang's "intervals[] array
 *   index out" (Jan 2020, applied for 5.5 and stable: the `> INTERVALS` wrap); Marcelo
 *   Tosatti's "governors: unify last_state_idx" (July 2019: the pre-image keeps
 *   `last_state` in struct teo_cpu). A full v5.3-era teo_select() with the post-cab09f3d
 *   text was read as a cross-check. The RFC version (with SPIKE and teo_idle_duration())
 *   was also read and is NOT what was merged.
 *   Not confirmed: whether v5.1's teo_reflect() cleared dev->poll_time_limit. The v5.2
 *   stable copy does; no patch adding it was found, and the RFC does not. This model
 *   follows the RFC and the reference and does NOT clear it (see the quirks below).
 *
 * teo@5.14 (T-B, the bins rework: commits 77577558f25d and c410a9a142f1 per the
 *   reference, ids not checked here; v5.14..v6.2). Nanoseconds; per-bin "hits",
 *   "intercepts" and "recent", bin i spanning [target_residency(i),
 *   target_residency(i+1)); NR_RECENT (9) recent intercepts. Select compares the
 *   intercepts below the timer candidate with the hits+intercepts at or above it
 *   (alt_intercepts) and the recent intercepts below it with NR_RECENT/2 (alt_recent); if
 *   either says "early", it walks down to the deepest state whose bins collected more than
 *   half of them (first_suitable_idx when that state is disabled or its span is too short
 *   for a stopped tick), with teo_middle_of_bin() as the new expected duration;
 *   constraint_idx (deepest state within the latency limit) caps the result.
 *   Source: 0day-ci/linux@030757af, drivers/cpuidle/governors/teo.c, read in full: the
 *   v5.14-era algorithm plus MODULE_* lines that change nothing. Not compared with the
 *   v5.14 tag itself.
 *
 * teo@6.12 (the teo.c of Debian's linux-source-6.12, 6.12.118). Per-bin "hits"/"intercepts"
 *   plus a hits-only "tick_hits" bin beyond the deepest state when that state is shallower
 *   than a tick; teo_update() measures last_residency_ns (half the exit latency off)
 *   unless the select-to-reflect span reached the sleep length; the candidate is the
 *   deepest enabled state; if the intercepts below it outweigh everything at or above it,
 *   the lookup walks down to the deepest state whose bins hold more than half of them,
 *   honouring teo_state_ok() (a state below a tick is no good with the tick stopped);
 *   state 0 then still reads the sleep length; constraint_idx caps; state 0, or a candidate
 *   below RESIDENCY_THRESHOLD_NS after a polling state 0, skips the sleep length; otherwise
 *   a state beyond the sleep length is lowered; tick intercepts above 5/8 of the total keep
 *   the tick. reflect() counts a POLL time-limit or tick wakeup (sleep length beyond a
 *   tick) as a full sleep length; got_tick is not read when poll_time_limit is set.
 *   Source: the packaged file; checked against it decision by decision
 *   (tests/test_kgov.c, README "Kernel governor files").
 *
 * teo@6.19 (T-F, the pm-6.19-rc1 changes). Per-bin "hits"/"intercepts"; the candidate is
 *   the deepest enabled state (the sleep length is not known yet); if the intercepts below
 *   it outweigh everything at or above it, the simplified lookup walks down and stops at
 *   the first enabled state whose bins (from it up to the candidate) hold more than half of
 *   those intercepts, never below the first state with a target residency >= TICK_NSEC
 *   when the tick is already stopped; constraint_idx caps it. The sleep length is read
 *   lazily: it is skipped when the result is state 0 or shallower than
 *   RESIDENCY_THRESHOLD_NS *and* either short idles (< RESIDENCY_THRESHOLD_NS) are at least
 *   half of the events or the QoS limit is below LATENCY_THRESHOLD_NS; then the kernel's
 *   defaults stand (sleep_length_ns = KTIME_MAX, delta_tick = TICK_NSEC/2) and the tick
 *   is kept. Otherwise a state deeper than the sleep length is lowered with
 *   teo_find_shallower_state(). teo_decay() clears metrics below 1 << DECAY_SHIFT; total is
 *   recomputed as the sum of the decayed bins plus PULSE; tick wakeups are counted in
 *   total_tick and, above 2/3 of total, counted as a hit on the deepest bin and nothing
 *   else; tick_intercepts counts intercepts with measured_ns <= TICK_NSEC (the fixed
 *   condition) and keeps the tick when above total/2 + total/8.
 *   Source: a stored full copy of the v6.19 teo.c (read in full: teo_decay(), total_tick,
 *   tick_wakeup, S64_MAX for the poll timeout, the min_idx lookup, no teo_state_ok(), no
 *   no_poll argument), cross-checked against the posted patches that add teo_decay()
 *   ("Decay metrics below DECAY_SHIFT threshold") and total_tick/tick_wakeup (the tick
 *   wakeup rework, which also moves the poll_time_limit check into teo_update()). The
 *   v6.14..v6.18 file was not read here beyond the reference's summary.
 *
 * Known consequence, not a modelling error: on a 1 ms periodic timer with HZ=250,
 *   teo@6.19 settles on C6 rather than C8 (skl). Its candidate is the deepest state, so hits
 *   in the C8 bin count as "below the candidate" and drop out of the comparison, which then
 *   holds as soon as any intercept exists; the tick, kept because 1 ms < TICK_NSEC, splits
 *   one period in four and produces those intercepts. v7.0-rc1's 60836533b4c7 ("Avoid fake
 *   intercepts produced by tick") targets this. teo@5.1 and teo@5.14 stay in C8.
 *
 * Decision log (idlesim run --explain), keys per version
 * ------------------------------------------------------
 *  all: sleep_length_ns (number; "none" = no timer, KTIME_MAX; "skipped" = not read, 6.19),
 *       candidate, rule (what moved the choice last: timer, early-hits, intercepts, recent,
 *       intercepts+recent, pattern, latency-constraint, tick, single-state,
 *       no-state-enabled), tick_rule (why the tick is kept: polling-state, short-duration,
 *       tick-intercepts, sleep-length-skipped, state-0, ...; 6.19 also stop and
 *       already-stopped), expected_us / expected_ns (the expected idle duration used for the
 *       tick decision; -1 for KTIME_MAX).
 *  5.1: duration_us, hits and misses of the candidate, max_early_idx, early_hits (the
 *       maximum, as the loop left it), pattern_count and pattern_avg_us.
 *  5.14: constraint_idx, idx_intercept_sum, idx_hit_sum, idx_recent_sum, total,
 *       alt_intercepts, alt_recent, alt_idx.
 *  6.19: constraint_idx, idx_intercept_sum, idx_hit_sum, total, intercepts_idx,
 *       short_idles, timer_idx, tick_intercepts.
 *
 * Quirks reproduced (real kernel behaviour, kept on purpose)
 * ----------------------------------------------------------
 *  - Truncating decay: x -= x >> DECAY_SHIFT leaves a metric below 8 (with shift 3) for
 *    ever in teo@5.1 and teo@5.14 (v6.19's teo_decay() zeroes it).
 *  - teo@5.1 wraps the interval index with `if (interval_idx > INTERVALS)`, so it writes
 *    intervals[INTERVALS], one past the array (past the end of struct teo_cpu, into the
 *    next per-CPU variable in the kernel), and never reads it: every ninth sample is
 *    lost. The model gives the array that one extra slot (never read), so the ring has 9
 *    write slots and 8 read ones, exactly as the kernel behaves, without corrupting
 *    memory.
 *  - teo@5.1's teo_enable_device() memsets its data, so `last_state` is 0, not -1: the
 *    first select after enable runs teo_update() on nothing. With time_span_ns ==
 *    sleep_length_ns == 0 it counts a timer wakeup: hits[0] += PULSE when state 0 has a
 *    target residency of 0 (POLL), and UINT_MAX goes into intervals[0].
 *  - teo@5.1 keeps its own `last_state`; the entered index and `time_span_ns` (select to
 *    reflect, so the exit latency and, in the kernel, the cpuidle overhead included) are
 *    what it measures; dev->last_residency_ns is not used (that came in v5.5).
 *  - teo@5.1: ktime_to_us() of the sleep length is truncated to unsigned int (KTIME_MAX,
 *    "no timer", becomes 2783138807 us); the PM QoS limit is the int microseconds of the
 *    v5.1 cpuidle_governor_latency_req() and compared with the unsigned exit latency.
 *  - teo@5.1: dev->poll_time_limit is not cleared by the governor (see "Not confirmed"
 *    above): after a POLL time-limit wakeup it stays set until the next POLL entry clears
 *    it, so a later wakeup from a non-polling state also counts as a timer wakeup.
 *  - teo@5.1: a latency break ("goto refine") skips the hits/misses test, and the
 *    pattern check compares with the target residency of the state selected so far (both
 *    changed in v5.3 by cab09f3d2d2a).
 *  - teo@5.14: constraint_idx starts at 0, so with every state >= 1 over the latency limit
 *    state 0 is returned even if it is disabled; alt_* sums include disabled states' bins.
 *  - teo@5.14 and teo@6.19: `total - idx_hit_sum` is unsigned arithmetic.
 *  - teo@6.19: with the sleep length skipped, the wakeup is classified against
 *    sleep_length_ns = KTIME_MAX, so it is a hit only if it reaches the deepest bin.
 *  - teo@6.19: the first select after enable has total == short_idles == 0, so
 *    `2 * short_idles >= total` holds and a shallow candidate skips the sleep length.
 *  - teo@6.19: a tick-wakeup hit goes to the deepest bin even if that state is disabled.
 *
 * Deviations (what the model does differently from the kernel, all unavoidable or
 * deliberate)
 * ------------------------------------------------------------------------------
 *  - PULSE, DECAY_SHIFT and (6.19) RESIDENCY_THRESHOLD_NS / LATENCY_THRESHOLD_NS are
 *    tunables (kernel constants by default); the macros read them from dev->gov_params,
 *    so teo_decay() and the helpers that use them take the device. INTERVALS and
 *    NR_RECENT are array sizes and stay fixed.
 *  - Form only, same results: teo_decay()'s if/else is one masked subtraction (the
 *    branch mispredicted about once per wakeup in the simulator), and 6.19's "tick_rule"
 *    explanation string is chosen with a flag, not strcmp().
 *  - Function names carry a version suffix (teo_select_5_14 ...) because the three
 *    versions live in one file; per-CPU data is dev->governor_data (a union sized for the
 *    largest version) instead of DEFINE_PER_CPU.
 *  - teo@5.14 and teo@6.19 rely on dev->last_state_idx, which the engine sets to -1 before
 *    enable(). In the kernel the device is zero-initialised (0) at registration, so the
 *    very first select after boot may run one teo_update() on state 0; not verified, not
 *    modelled (teo@5.1 keeps its own field, see the quirk above).
 *  - teo@5.1 reads states[idx].hits only when idx >= 0: with every state disabled the
 *    kernel reads states[-1] (harmless, as max_early_idx is -1 then); same result.
 *  - drv->states[i].disabled (the driver-wide flag of <= v5.4) does not exist here; only
 *    dev->states_usage[i].disable is checked, which is equivalent for the engine.
 *  - The engine's POLL time limit is the >= v5.11 rule for every version (right for
 *    5.14 and 6.19; v5.1's rule was not verified: TICK_NSEC/16 up to v4.20, the first
 *    enabled state's target residency from about v5.4); an engine matter.
 *  - "No timer" is KTIME_MAX here; the kernel always has some timer within the maximum
 *    deferment, so the "no timer" cases only exist in the simulator.
 *  - The decision log (gov_explain) has no kernel counterpart.
 */
#include "governors/governor.h"

#include <string.h>

/* ---- tunables: the kernel constants, read from dev->gov_params ---- */

enum {
	TEO_PARAM_DECAY_SHIFT,
	TEO_PARAM_PULSE,
	TEO_PARAM_RESIDENCY_THRESHOLD_NS, /* teo@6.19 only */
	TEO_PARAM_LATENCY_THRESHOLD_NS,	  /* teo@6.19 only */
};

/*
 * PULSE is what one counted event adds to a metric, and at every update each metric loses
 * x >> DECAY_SHIFT of its value x. (Limits: pulse << decay_shift <= 2^26 keeps every sum of
 * bins, times 3, inside 32 bits.)
 */
#define PULSE ((unsigned int)dev->gov_params[TEO_PARAM_PULSE])
#define DECAY_SHIFT ((unsigned int)dev->gov_params[TEO_PARAM_DECAY_SHIFT])

/* drivers/cpuidle/governors/gov.h (v6.19): 15 us. */
#define RESIDENCY_THRESHOLD_NS ((s64)dev->gov_params[TEO_PARAM_RESIDENCY_THRESHOLD_NS])
/* teo.c (>= v6.14): RESIDENCY_THRESHOLD_NS / 2. */
#define LATENCY_THRESHOLD_NS ((s64)dev->gov_params[TEO_PARAM_LATENCY_THRESHOLD_NS])

/* v5.1: size of the ring of recent non-timer idle durations searched for a pattern. */
#define INTERVALS 8

/* v5.14: how many of the latest wakeups feed the "recent" counts of the bins. */
#define NR_RECENT 9

static const struct gov_param teo_params_5[] = {
	{"decay_shift", 3, 1, 10, "DECAY_SHIFT: each update a metric x loses x >> decay_shift"},
	{"pulse", 1024, 1, 65536, "PULSE: added to a metric per counted event"},
};

static const struct gov_param teo_params_6_19[] = {
	{"decay_shift", 3, 1, 10, "DECAY_SHIFT: each update a metric x loses x >> decay_shift"},
	{"pulse", 1024, 1, 65536, "PULSE: added to a metric per counted event"},
	{"residency_threshold_ns", 15000, 0, 1000000000,
	 "RESIDENCY_THRESHOLD_NS (gov.h): short idle / shallow state threshold"},
	{"latency_threshold_ns", 7500, 0, 1000000000,
	 "LATENCY_THRESHOLD_NS (RESIDENCY_THRESHOLD_NS/2): skip the timer query below this QoS"},
};

static const struct gov_param teo_params_6_12[] = {
	{"decay_shift", 3, 1, 10, "DECAY_SHIFT: each update a metric x loses x >> decay_shift"},
	{"pulse", 1024, 1, 65536, "PULSE: added to a metric per counted event"},
	{"residency_threshold_ns", 15000, 0, 1000000000,
	 "RESIDENCY_THRESHOLD_NS (gov.h): no timer query for a shallower candidate after POLL"},
};

static bool teo_polling(const struct cpuidle_driver *drv, int idx)
{
	return drv->states[idx].flags & CPUIDLE_FLAG_POLLING;
}

/* The decision log wants "no timer" spelled out rather than KTIME_MAX. */
static void teo_explain_sleep_length(struct cpuidle_device *dev, s64 sleep_length_ns)
{
	if (sleep_length_ns == KTIME_MAX)
		gov_explain_str(dev, "sleep_length_ns", "none");
	else
		gov_explain(dev, "sleep_length_ns", sleep_length_ns);
}

/* ======================================================================================
 * teo@5.1 (T-A)
 * ====================================================================================== */

/*
 * struct teo_idle_state - the v5.1 per-state metrics. hits: the sleep length and the measured
 * idle time both pointed at this state. misses: the sleep length pointed at this state but the
 * CPU woke up earlier. early_hits: this state fitted the measured idle time of such an earlier
 * wakeup.
 */
struct teo_idle_state {
	unsigned int early_hits;
	unsigned int hits;
	unsigned int misses;
};

/*
 * struct teo_cpu_5_1 - per-CPU data of v5.1 (its struct teo_cpu). time_span_ns holds the select
 * timestamp, then the select-to-reflect span; sleep_length_ns is the sleep length seen at
 * select; states[] has the per-state metrics; last_state is the state entered last (-1 once
 * accounted); intervals[] is the ring of recent idle durations and interval_idx its next slot.
 * The kernel array has INTERVALS entries and v5.1 writes one past its end (see the quirks in
 * the DOC); the extra slot here receives that write and is never read.
 */
struct teo_cpu_5_1 {
	u64 time_span_ns;
	u64 sleep_length_ns;
	struct teo_idle_state states[CPUIDLE_STATE_MAX];
	int last_state;
	int interval_idx;
	unsigned int intervals[INTERVALS + 1];
};

/* v5.1 cpuidle_governor_latency_req() returned int microseconds. */
static int teo_latency_req_us(const struct cpuidle_device *dev)
{
	s64 req_us = cpuidle_governor_latency_req(dev) / NSEC_PER_USEC;

	return req_us > INT_MAX ? INT_MAX : (int)req_us;
}

/* teo_update_5_1 - account the last wakeup in the v5.1 metrics (us). */
static void teo_update_5_1(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_5_1 *cpu_data = dev->governor_data;
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

	/*
	 * Only idx_timer's hits and misses are aged and updated: a hit if the measured time
	 * reached that state too, else a miss, plus an early hit for idx_hit (if any).
	 */
	if (idx_timer >= 0) {
		unsigned int hits = cpu_data->states[idx_timer].hits;
		unsigned int misses = cpu_data->states[idx_timer].misses;

		hits -= hits >> DECAY_SHIFT;
		misses -= misses >> DECAY_SHIFT;

		if (idx_timer > idx_hit) {
			misses += PULSE;
			if (idx_hit >= 0)
				cpu_data->states[idx_hit].early_hits += PULSE;
		} else {
			hits += PULSE;
		}

		cpu_data->states[idx_timer].misses = misses;
		cpu_data->states[idx_timer].hits = hits;
	}

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
 * teo_find_shallower_state_5_1 - walk down from state_idx to the first enabled state whose
 * target residency fits duration_us, or else the shallowest enabled one (state_idx itself if
 * none is enabled below it).
 */
static int teo_find_shallower_state_5_1(struct cpuidle_driver *drv, struct cpuidle_device *dev,
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

/* teo_select_5_1 - choose the state for the next idle period (v5.1 logic, us). */
static int teo_select_5_1(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu_5_1 *cpu_data = dev->governor_data;
	int latency_req = teo_latency_req_us(dev);
	unsigned int duration_us, count;
	int max_early_idx, idx, i;
	ktime_t delta_tick;
	const char *rule = "timer";

	if (cpu_data->last_state >= 0) {
		teo_update_5_1(drv, dev);
		cpu_data->last_state = -1;
	}

	cpu_data->time_span_ns = local_clock(dev);

	cpu_data->sleep_length_ns = (u64)tick_nohz_get_sleep_length(dev, &delta_tick);
	duration_us = (unsigned int)ktime_to_us((ktime_t)cpu_data->sleep_length_ns);
	teo_explain_sleep_length(dev, (s64)cpu_data->sleep_length_ns);
	gov_explain(dev, "duration_us", duration_us);

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
			gov_explain(dev, "candidate", idx);
			goto refine;
		}

		idx = i;

		if (count < cpu_data->states[i].early_hits &&
		    !(tick_nohz_tick_stopped(dev) && drv->states[i].target_residency < TICK_USEC)) {
			count = cpu_data->states[i].early_hits;
			max_early_idx = i;
		}
	}

	gov_explain(dev, "candidate", idx);
	if (idx >= 0) {
		gov_explain(dev, "hits", cpu_data->states[idx].hits);
		gov_explain(dev, "misses", cpu_data->states[idx].misses);
	}
	gov_explain(dev, "max_early_idx", max_early_idx);
	gov_explain(dev, "early_hits", count);

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
		gov_explain(dev, "pattern_count", count);

		/* Act only if more than half of the ring falls in that range. */
		if (count > INTERVALS / 2) {
			unsigned int avg_us = (unsigned int)div64_u64(sum, count);

			gov_explain(dev, "pattern_avg_us", avg_us);
			/*
			 * With the tick stopped, ignore an average below one tick: acting on it
			 * could keep the CPU in a shallow state for a long time.
			 */
			if (!(tick_nohz_tick_stopped(dev) && avg_us < TICK_USEC)) {
				idx = teo_find_shallower_state_5_1(drv, dev, idx, avg_us);
				duration_us = avg_us;
				rule = "pattern";
			}
		}
	}
	gov_explain(dev, "expected_us", duration_us);

	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if ((teo_polling(drv, idx) || duration_us < TICK_USEC) && !tick_nohz_tick_stopped(dev)) {
		unsigned int delta_tick_us = (unsigned int)ktime_to_us(delta_tick);

		*stop_tick = false;
		gov_explain_str(dev, "tick_rule",
				teo_polling(drv, idx) ? "polling-state" : "short-duration");

		/*
		 * The tick stays on and will wake the CPU within delta_tick at the latest: if
		 * the chosen state's target residency does not fit in that time, step down to a
		 * state that does.
		 */
		if (idx > 0 && drv->states[idx].target_residency > delta_tick_us) {
			idx = teo_find_shallower_state_5_1(drv, dev, idx, delta_tick_us);
			rule = "tick";
		}
	}

	gov_explain_str(dev, "rule", rule);
	return idx;
}

/*
 * teo_reflect_5_1 - remember the state entered and measure the select-to-reflect span for the
 * next update.
 */
static void teo_reflect_5_1(struct cpuidle_device *dev, int state)
{
	struct teo_cpu_5_1 *cpu_data = dev->governor_data;

	cpu_data->last_state = state;
	/*
	 * A POLL time limit, or a tick wakeup with a sleep length beyond one tick, is not a
	 * real wakeup event: count the whole sleep length as idle time. (v5.1, as modelled:
	 * poll_time_limit is not cleared here.)
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick(dev) && cpu_data->sleep_length_ns > (u64)TICK_NSEC))
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	else
		cpu_data->time_span_ns = local_clock(dev) - cpu_data->time_span_ns;
}

/* teo_enable_device_5_1 - zero the metrics and fill the interval ring with UINT_MAX. */
static int teo_enable_device_5_1(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_5_1 *cpu_data = dev->governor_data;
	int i;

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));

	for (i = 0; i < INTERVALS; i++)
		cpu_data->intervals[i] = UINT_MAX;

	return 0;
}

/* ======================================================================================
 * Shared by teo@5.14 and teo@6.19 (the same text in both releases)
 * ====================================================================================== */

/*
 * teo_find_shallower_state - walk down from state_idx to the first enabled state whose target
 * residency fits duration_ns, or else the shallowest enabled one (state_idx itself if none is
 * enabled below it).
 */
static int teo_find_shallower_state(struct cpuidle_driver *drv, struct cpuidle_device *dev,
				    int state_idx, s64 duration_ns)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (dev->states_usage[i].disable)
			continue;

		state_idx = i;
		if (drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

/* ======================================================================================
 * teo@5.14 (T-B)
 * ====================================================================================== */

/*
 * struct teo_bin_5_14 - one v5.14 bin, from a state's target residency up to the next state's:
 * aged hits and intercepts, and how many of the NR_RECENT latest wakeups were intercepts that
 * landed in it.
 */
struct teo_bin_5_14 {
	unsigned int intercepts;
	unsigned int hits;
	unsigned int recent;
};

/*
 * struct teo_cpu_5_14 - per-CPU data of v5.14 (its struct teo_cpu). time_span_ns and
 * sleep_length_ns as in v5.1; state_bins[] per state; total is the sum of hits and intercepts
 * over all bins; recent_idx[] is the ring of the bins of the NR_RECENT latest wakeups (-1 for a
 * hit) and next_recent_idx its next slot.
 */
struct teo_cpu_5_14 {
	s64 time_span_ns;
	s64 sleep_length_ns;
	struct teo_bin_5_14 state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	int next_recent_idx;
	int recent_idx[NR_RECENT];
};

/* teo_update_5_14 - account the last wakeup in the v5.14 bins. */
static void teo_update_5_14(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_5_14 *cpu_data = dev->governor_data;
	int i, idx_timer = 0, idx_duration = 0;
	u64 measured_ns;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		/*
		 * Treated as a timer wakeup: U64_MAX puts the measured time in the bin of the
		 * sleep length, so it counts as a hit.
		 */
		measured_ns = U64_MAX;
	} else {
		u64 lat_ns = (u64)drv->states[dev->last_state_idx].exit_latency_ns;

		/*
		 * Use the residency measured by the cpuidle core (last_residency_ns) to pick
		 * the bin; time_span_ns would also include the governor and cpuidle overhead.
		 */
		measured_ns = (u64)dev->last_residency_ns;
		/*
		 * Take off half the exit latency: the full value is a worst case and the real
		 * delay before the CPU runs again is usually shorter. A measured time below the
		 * exit latency is halved instead.
		 */
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	cpu_data->total = 0;

	/*
	 * Age hits and intercepts in every bin, recompute total from the aged values, and find
	 * the bins of the sleep length (idx_timer) and of the measured time (idx_duration).
	 */
	for (i = 0; i < drv->state_count; i++) {
		s64 target_residency_ns = drv->states[i].target_residency_ns;
		struct teo_bin_5_14 *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> DECAY_SHIFT;

		cpu_data->total += bin->hits + bin->intercepts;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			/* s64 against u64: compared as u64, as in the kernel. */
			if ((u64)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	i = cpu_data->next_recent_idx++;
	if (cpu_data->next_recent_idx >= NR_RECENT)
		cpu_data->next_recent_idx = 0;

	if (cpu_data->recent_idx[i] >= 0)
		cpu_data->state_bins[cpu_data->recent_idx[i]].recent--;

	/*
	 * Same bin for both: a hit there. Otherwise an intercept in the bin of the measured
	 * time, which is also recorded in the recent ring.
	 */
	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
		cpu_data->recent_idx[i] = -1;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += PULSE;
		cpu_data->state_bins[idx_duration].recent++;
		cpu_data->recent_idx[i] = idx_duration;
	}

	cpu_data->total += PULSE;
}

static bool teo_time_ok(const struct cpuidle_device *dev, u64 interval_ns)
{
	return !tick_nohz_tick_stopped(dev) || interval_ns >= (u64)TICK_NSEC;
}

static s64 teo_middle_of_bin(int idx, struct cpuidle_driver *drv)
{
	return (drv->states[idx].target_residency_ns + drv->states[idx + 1].target_residency_ns) /
	       2;
}

/* teo_select_5_14 - choose the state for the next idle period (v5.14 logic, ns). */
static int teo_select_5_14(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu_5_14 *cpu_data = dev->governor_data;
	s64 latency_req = cpuidle_governor_latency_req(dev);
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_recent_sum = 0;
	unsigned int recent_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	bool alt_intercepts, alt_recent;
	ktime_t delta_tick;
	s64 duration_ns;
	const char *rule = "timer";
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update_5_14(drv, dev);
		dev->last_state_idx = -1;
	}

	cpu_data->time_span_ns = (s64)local_clock(dev);

	duration_ns = tick_nohz_get_sleep_length(dev, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;
	teo_explain_sleep_length(dev, duration_ns);

	/*
	 * Nothing to choose with a single state, or with state 0 enabled and state 1 beyond the
	 * sleep length.
	 */
	if (drv->state_count < 2) {
		idx = 0;
		rule = "single-state";
		goto end;
	}
	if (!dev->states_usage[0].disable) {
		idx = 0;
		if (drv->states[1].target_residency_ns > duration_ns)
			goto end;
	}

	/*
	 * One pass over states 1..N-1: idx becomes the deepest enabled state that fits the
	 * sleep length, constraint_idx the deepest of those within the latency limit, and the
	 * idx_* sums cover the bins below idx.
	 */
	for (i = 1; i < drv->state_count; i++) {
		struct teo_bin_5_14 *prev_bin = &cpu_data->state_bins[i - 1];
		struct cpuidle_state *s = &drv->states[i];

		/* running sums over the bins of the states below state i */
		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;
		recent_sum += prev_bin->recent;

		if (dev->states_usage[i].disable)
			continue;

		if (idx < 0) {
			idx = i; /* fallback: the shallowest enabled state */
			idx0 = i;
		}

		if (s->target_residency_ns > duration_ns)
			break;

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
		idx_recent_sum = recent_sum;
	}

	gov_explain(dev, "candidate", idx);
	gov_explain(dev, "constraint_idx", constraint_idx);

	/* Nothing left to weigh: no state enabled, or the candidate is the first enabled state. */
	if (idx < 0) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "no-state-enabled";
		goto end;
	} else if (idx == idx0) {
		goto end;
	}

	/*
	 * Expect an early wakeup, and look for a shallower state, if the intercepts below the
	 * candidate outweigh the hits and intercepts at or above it (2 * idx_intercept_sum >
	 * total - idx_hit_sum), or if more than NR_RECENT / 2 of the last NR_RECENT wakeups
	 * were intercepts below it.
	 */
	alt_intercepts = 2 * idx_intercept_sum > cpu_data->total - idx_hit_sum;
	alt_recent = idx_recent_sum > NR_RECENT / 2;
	gov_explain(dev, "idx_intercept_sum", idx_intercept_sum);
	gov_explain(dev, "idx_hit_sum", idx_hit_sum);
	gov_explain(dev, "idx_recent_sum", idx_recent_sum);
	gov_explain(dev, "total", cpu_data->total);
	gov_explain(dev, "alt_intercepts", alt_intercepts);
	gov_explain(dev, "alt_recent", alt_recent);
	if (alt_recent || alt_intercepts) {
		s64 first_suitable_span_ns = duration_ns;
		int first_suitable_idx = idx;
		int cand = idx;

		/*
		 * Walk down from the candidate, adding up bins, to the first state where the
		 * bins from it up to the candidate hold more than half of the intercepts (and
		 * of the recent ones) that started the search. That state is used if it is
		 * enabled and its bin middle is long enough for a stopped tick; otherwise the
		 * last suitable deeper state found is.
		 */
		intercept_sum = 0;
		recent_sum = 0;

		for (i = idx - 1; i >= 0; i--) {
			struct teo_bin_5_14 *bin = &cpu_data->state_bins[i];
			s64 span_ns;

			intercept_sum += bin->intercepts;
			recent_sum += bin->recent;

			span_ns = teo_middle_of_bin(i, drv);

			if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
			    (!alt_intercepts || 2 * intercept_sum > idx_intercept_sum)) {
				if (teo_time_ok(dev, (u64)span_ns) &&
				    !dev->states_usage[i].disable) {
					idx = i;
					duration_ns = span_ns;
				} else {
					/*
					 * State i is unusable (disabled, or too short for a
					 * stopped tick): fall back to the last suitable state
					 * found above it.
					 */
					idx = first_suitable_idx;
					duration_ns = first_suitable_span_ns;
				}
				break;
			}

			if (dev->states_usage[i].disable)
				continue;

			if (!teo_time_ok(dev, (u64)span_ns)) {
				/*
				 * Too short for a stopped tick. If a suitable state was already
				 * found above, go on (the sums may still reach their
				 * threshold); otherwise stop here.
				 */
				if (first_suitable_idx != idx)
					continue;

				break;
			}

			first_suitable_span_ns = span_ns;
			first_suitable_idx = i;
		}
		gov_explain(dev, "alt_idx", idx);
		if (idx != cand)
			rule = alt_intercepts ? (alt_recent ? "intercepts+recent" : "intercepts")
					      : "recent";
	}

	/* The latency limit caps the result at constraint_idx. */
	if (idx > constraint_idx) {
		idx = constraint_idx;
		rule = "latency-constraint";
	}

end:
	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if ((teo_polling(drv, idx) || duration_ns < TICK_NSEC) && !tick_nohz_tick_stopped(dev)) {
		*stop_tick = false;
		gov_explain_str(dev, "tick_rule",
				teo_polling(drv, idx) ? "polling-state" : "short-duration");

		/*
		 * The tick stays on and will wake the CPU within delta_tick at the latest: if
		 * the chosen state's target residency does not fit in that time, step down to a
		 * state that does.
		 */
		if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick) {
			idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
			rule = "tick";
		}
	}

	gov_explain(dev, "expected_ns", duration_ns == KTIME_MAX ? -1 : duration_ns);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/*
 * teo_reflect_5_14 - remember the state entered and measure the select-to-reflect span for the
 * next update.
 */
static void teo_reflect_5_14(struct cpuidle_device *dev, int state)
{
	struct teo_cpu_5_14 *cpu_data = dev->governor_data;

	dev->last_state_idx = state;
	/*
	 * A POLL time limit, or a tick wakeup with a sleep length beyond one tick, is not a
	 * real wakeup event: clear the poll flag and count the whole sleep length as idle time.
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick(dev) && cpu_data->sleep_length_ns > TICK_NSEC)) {
		dev->poll_time_limit = false;
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	} else {
		cpu_data->time_span_ns = (s64)(local_clock(dev) - (u64)cpu_data->time_span_ns);
	}
}

/* teo_enable_device_5_14 - zero the metrics and empty the recent ring (-1). */
static int teo_enable_device_5_14(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_5_14 *cpu_data = dev->governor_data;
	int i;

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));

	for (i = 0; i < NR_RECENT; i++)
		cpu_data->recent_idx[i] = -1;

	return 0;
}

/* ======================================================================================
 * teo@6.19 (T-F)
 * ====================================================================================== */

/* struct teo_bin - one v6.19 bin: aged hits and intercepts. */
struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
};

/* ======================================================================================
 * teo@6.12 (the file of Debian's linux-source-6.12, 6.12.118)
 * ====================================================================================== */

/*
 * struct teo_cpu_6_12 - per-CPU data of the 6.12 file. time_span_ns holds the select
 * timestamp, then the select-to-reflect span (or the sleep length after a safety net);
 * sleep_length_ns is the sleep length seen at select (KTIME_MAX if not read); state_bins[]
 * per state (struct teo_bin, as in v6.19); total is the sum of the bins plus tick_hits plus
 * PULSE; tick_hits counts hits beyond TICK_NSEC when the deepest state is shallower than a
 * tick (an extra bin).
 */
struct teo_cpu_6_12 {
	s64 time_span_ns;
	s64 sleep_length_ns;
	struct teo_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	unsigned int tick_hits;
};

/* teo_update_6_12 - account the last wakeup in the 6.12 bins. */
static void teo_update_6_12(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_6_12 *cpu_data = dev->governor_data;
	int i, idx_timer = 0, idx_duration = 0;
	s64 target_residency_ns = 0;
	u64 measured_ns;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		/* A safety net fired, or the wakeup came close enough to the timer: no
		 * measurement to use, the whole sleep length counts. */
		measured_ns = U64_MAX;
	} else {
		u64 lat_ns = (u64)drv->states[dev->last_state_idx].exit_latency_ns;

		/* The measured residency (not the span, which has the overhead), less half
		 * the exit latency, or halved when shorter than it. */
		measured_ns = (u64)dev->last_residency_ns;
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	cpu_data->total = 0;

	/* Age every bin; find the bins of the sleep length and of the measured duration. */
	for (i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> DECAY_SHIFT;

		cpu_data->total += bin->hits + bin->intercepts;

		target_residency_ns = drv->states[i].target_residency_ns;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if ((u64)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	/*
	 * The deepest state shallower than a tick: one more, hits-only bin beyond it, for the
	 * tick decision of teo_select_6_12().
	 */
	if (target_residency_ns < TICK_NSEC) {
		cpu_data->tick_hits -= cpu_data->tick_hits >> DECAY_SHIFT;

		cpu_data->total += cpu_data->tick_hits;

		if (TICK_NSEC <= cpu_data->sleep_length_ns) {
			idx_timer = drv->state_count;
			if ((u64)TICK_NSEC <= measured_ns) {
				cpu_data->tick_hits += PULSE;
				goto end;
			}
		}
	}

	/* Same bin for the sleep length and the measured time: a hit; else an intercept. */
	if (idx_timer == idx_duration)
		cpu_data->state_bins[idx_timer].hits += PULSE;
	else
		cpu_data->state_bins[idx_duration].intercepts += PULSE;

end:
	cpu_data->total += PULSE;
}

/* A state is usable with the tick stopped only if its target residency reaches a tick. */
static bool teo_state_ok(int i, struct cpuidle_driver *drv, const struct cpuidle_device *dev)
{
	return !tick_nohz_tick_stopped(dev) || drv->states[i].target_residency_ns >= TICK_NSEC;
}

/* The decision log of teo@6.12: one call on every way out of teo_select_6_12(). */
static int teo_explain_6_12(struct cpuidle_device *dev, int idx, const char *rule,
			    int constraint_idx, unsigned int idx_intercept_sum,
			    unsigned int tick_intercept_sum)
{
	struct teo_cpu_6_12 *cpu_data = dev->governor_data;

	if (!dev->explain)
		return idx;
	if (cpu_data->sleep_length_ns == KTIME_MAX)
		gov_explain_str(dev, "sleep_length_ns", "skipped");
	else
		gov_explain(dev, "sleep_length_ns", cpu_data->sleep_length_ns);
	gov_explain(dev, "constraint_idx", constraint_idx);
	gov_explain(dev, "idx_intercept_sum", idx_intercept_sum);
	gov_explain(dev, "tick_intercept_sum", tick_intercept_sum);
	gov_explain(dev, "total", cpu_data->total);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

static int teo_select_6_12(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu_6_12 *cpu_data = dev->governor_data;
	s64 latency_req = cpuidle_governor_latency_req(dev);
	ktime_t delta_tick = TICK_NSEC / 2;
	unsigned int tick_intercept_sum = 0;
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	int prev_intercept_idx;
	const char *rule = "timer";
	s64 duration_ns;
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update_6_12(drv, dev);
		dev->last_state_idx = -1;
	}

	cpu_data->time_span_ns = (s64)local_clock(dev);
	/* KTIME_MAX unless the sleep length is read below. */
	cpu_data->sleep_length_ns = KTIME_MAX;

	if (drv->state_count < 2) {
		idx = 0;
		rule = "single-state";
		goto out_tick;
	}

	if (!dev->states_usage[0].disable)
		idx = 0;

	/* Sums of the bins below each enabled state; the deepest enabled one is the candidate. */
	for (i = 1; i < drv->state_count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		struct cpuidle_state *s = &drv->states[i];

		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;

		if (dev->states_usage[i].disable)
			continue;

		if (idx < 0)
			idx0 = i; /* first enabled state */

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}

	if (idx < 0) {
		idx = 0; /* nothing enabled: state 0 */
		rule = "no-state-enabled";
		goto out_tick;
	}

	if (idx == idx0) {
		/* One enabled state: use it; the tick may stop only if it is deep enough. */
		duration_ns = drv->states[idx].target_residency_ns;
		rule = "single-state";
		goto end;
	}

	tick_intercept_sum = intercept_sum + cpu_data->state_bins[drv->state_count - 1].intercepts;

	/*
	 * Intercepts below the candidate outweigh everything at or above it (unsigned
	 * arithmetic, as in the kernel): look for the deepest state whose bins, from it up to
	 * the candidate, took more than half of those intercepts.
	 */
	prev_intercept_idx = idx;
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		int first_suitable_idx = idx;

		intercept_sum = 0;

		for (i = idx - 1; i >= 0; i--) {
			struct teo_bin *bin = &cpu_data->state_bins[i];

			intercept_sum += bin->intercepts;

			if (2 * intercept_sum > idx_intercept_sum) {
				/* This one, unless too shallow for a stopped tick or disabled:
				 * then the first deep enough enabled one seen so far. */
				if (teo_state_ok(i, drv, dev) && !dev->states_usage[i].disable)
					idx = i;
				else
					idx = first_suitable_idx;
				break;
			}

			if (dev->states_usage[i].disable)
				continue;

			if (!teo_state_ok(i, drv, dev)) {
				/* Too shallow; a candidate already found may still win. */
				if (first_suitable_idx != idx)
					continue;
				break;
			}

			first_suitable_idx = i;
		}
		rule = "intercepts";
	}
	if (!idx && prev_intercept_idx) {
		/* State 0 after the lookup: the sleep length is still read, for teo_update(). */
		duration_ns = tick_nohz_get_sleep_length(dev, &delta_tick);
		cpu_data->sleep_length_ns = duration_ns;
		goto out_tick;
	}

	if (idx > constraint_idx) {
		idx = constraint_idx;
		rule = "latency-constraint";
	}

	/* State 0: an immediate non-timer wakeup is expected, the timers do not matter. */
	if (!idx)
		goto out_tick;

	/* A shallow candidate after a polling state 0: skip the timer query too. */
	if (teo_polling(drv, 0) &&
	    drv->states[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS)
		goto out_tick;

	duration_ns = tick_nohz_get_sleep_length(dev, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/* The closest timer comes before the candidate's target residency: go shallower. */
	if (drv->states[idx].target_residency_ns > duration_ns) {
		idx = teo_find_shallower_state(drv, dev, idx, duration_ns);
		rule = "timer";
	}

	/*
	 * A state shallower than a tick, and intercepts before the tick above 5/8 of all
	 * events: expect a short idle period, so that the tick is kept.
	 */
	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    tick_intercept_sum > cpu_data->total / 2 + cpu_data->total / 8)
		duration_ns = TICK_NSEC / 2;

end:
	/* The tick may stop unless the state polls or the expected time is below a tick. */
	if ((!teo_polling(drv, idx) && duration_ns >= TICK_NSEC) || tick_nohz_tick_stopped(dev))
		return teo_explain_6_12(dev, idx, rule, constraint_idx, idx_intercept_sum,
					tick_intercept_sum);

	/* The tick stays on: fit the state into the time to the next event, tick included. */
	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick) {
		idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
		rule = "tick";
	}

out_tick:
	*stop_tick = false;
	return teo_explain_6_12(dev, idx, rule, constraint_idx, idx_intercept_sum, tick_intercept_sum);
}

/* teo_reflect_6_12 - note the state entered and how long the CPU was away. */
static void teo_reflect_6_12(struct cpuidle_device *dev, int state)
{
	struct teo_cpu_6_12 *cpu_data = dev->governor_data;

	dev->last_state_idx = state;
	/*
	 * A wakeup by a safety net (the POLL time limit, or the tick while the sleep length
	 * was beyond it) says nothing about the idle duration: count the whole sleep length.
	 * tick_nohz_idle_got_tick() is read only when poll_time_limit is not set, as in the
	 * kernel's short-circuit.
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick(dev) && cpu_data->sleep_length_ns > TICK_NSEC)) {
		dev->poll_time_limit = false;
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	} else {
		cpu_data->time_span_ns = (s64)local_clock(dev) - cpu_data->time_span_ns;
	}
}

static int teo_enable_device_6_12(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_6_12 *cpu_data = dev->governor_data;

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));
	return 0;
}

/*
 * struct teo_cpu_6_19 - per-CPU data of v6.19 (its struct teo_cpu). sleep_length_ns is the
 * sleep length seen at select (KTIME_MAX when it was not read); state_bins[] per state; total
 * is the sum of all bins plus PULSE; total_tick counts tick wakeups; tick_intercepts counts
 * intercepts that ended within one tick; short_idles counts idle periods shorter than
 * RESIDENCY_THRESHOLD_NS; tick_wakeup records whether the tick caused the last wakeup.
 */
struct teo_cpu_6_19 {
	s64 sleep_length_ns;
	struct teo_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	unsigned int total_tick;
	unsigned int tick_intercepts;
	unsigned int short_idles;
	bool tick_wakeup;
};

static void teo_decay(const struct cpuidle_device *dev, unsigned int *metric)
{
	unsigned int delta = *metric >> DECAY_SHIFT;

	/* The kernel's "if (delta) *metric -= delta; else *metric = 0;" without a branch:
	 * which way it goes is data, so the branch mispredicted about once per wakeup. */
	*metric = (*metric - delta) & (0u - (unsigned int)(delta != 0));
}

/* teo_update_6_19 - account the last wakeup in the v6.19 bins. */
static void teo_update_6_19(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_6_19 *cpu_data = dev->governor_data;
	int i, idx_timer = 0, idx_duration = 0;
	s64 target_residency_ns, measured_ns;
	unsigned int total = 0;

	teo_decay(dev, &cpu_data->short_idles);

	if (dev->poll_time_limit) {
		dev->poll_time_limit = false;
		/* POLL hit its time limit: count it as if the CPU had slept through (S64_MAX). */
		measured_ns = S64_MAX;
	} else {
		s64 lat_ns = drv->states[dev->last_state_idx].exit_latency_ns;

		measured_ns = dev->last_residency_ns;
		/*
		 * Take off half the exit latency: the full value is a worst case and the real
		 * delay before the CPU runs again is usually shorter. A measured time below the
		 * exit latency is halved instead. A result below RESIDENCY_THRESHOLD_NS, or any
		 * time shorter than the exit latency, counts as a short idle.
		 */
		if (measured_ns >= lat_ns) {
			measured_ns -= lat_ns / 2;
			if (measured_ns < RESIDENCY_THRESHOLD_NS)
				cpu_data->short_idles += PULSE;
		} else {
			measured_ns /= 2;
			cpu_data->short_idles += PULSE;
		}
	}

	/*
	 * Age every bin with teo_decay(), add the aged values into total, and find the bins of
	 * the sleep length (idx_timer) and of the measured time (idx_duration).
	 */
	for (i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];

		teo_decay(dev, &bin->hits);
		total += bin->hits;
		teo_decay(dev, &bin->intercepts);
		total += bin->intercepts;

		target_residency_ns = drv->states[i].target_residency_ns;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if (target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	cpu_data->total = total + PULSE;

	teo_decay(dev, &cpu_data->tick_intercepts);

	teo_decay(dev, &cpu_data->total_tick);
	if (cpu_data->tick_wakeup) {
		cpu_data->total_tick += PULSE;
		/*
		 * When tick wakeups exceed 2/3 of total, record this wakeup only as a hit on
		 * the deepest bin, which makes stopping the tick more likely next time.
		 */
		if (3 * cpu_data->total_tick > 2 * cpu_data->total) {
			cpu_data->state_bins[drv->state_count - 1].hits += PULSE;
			return;
		}
	}

	/*
	 * Same bin for both: a hit there. Otherwise an intercept in the bin of the measured
	 * time, also counted in tick_intercepts when it ended within one tick.
	 */
	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += PULSE;
		if (measured_ns <= TICK_NSEC)
			cpu_data->tick_intercepts += PULSE;
	}
}

/* teo_select_6_19 - choose the state for the next idle period (v6.19 logic, ns). */
static int teo_select_6_19(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu_6_19 *cpu_data = dev->governor_data;
	s64 latency_req = cpuidle_governor_latency_req(dev);
	ktime_t delta_tick = TICK_NSEC / 2;
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	const char *rule = "timer";
	const char *tick_rule = "stop";
	bool tick_intercepts_rule = false;
	s64 duration_ns;
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update_6_19(drv, dev);
		dev->last_state_idx = -1;
	}

	/*
	 * KTIME_MAX stands for "not read" if the query below is skipped. The next update then
	 * cannot recognise a timer wakeup and counts the wakeup as an intercept unless it
	 * reaches the deepest bin; that costs little, except on a CPU woken mostly by timers,
	 * where it can hide chances to use a deeper state.
	 */
	cpu_data->sleep_length_ns = KTIME_MAX;

	/* A single state leaves nothing to decide. */
	if (drv->state_count < 2) {
		idx = 0;
		rule = "single-state";
		tick_rule = "single-state";
		gov_explain_str(dev, "sleep_length_ns", "skipped");
		goto out_tick;
	}

	if (!dev->states_usage[0].disable)
		idx = 0;

	/*
	 * One pass: the candidate (the deepest enabled state), constraint_idx, and the bin sums
	 * below the candidate.
	 */
	for (i = 1; i < drv->state_count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		struct cpuidle_state *s = &drv->states[i];

		/* running sums over the bins of the states below state i */
		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;

		if (dev->states_usage[i].disable)
			continue;

		if (idx < 0)
			idx0 = i; /* remember the first enabled state */

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		/* sums over the bins below the candidate */
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}

	gov_explain(dev, "candidate", idx);
	gov_explain(dev, "constraint_idx", constraint_idx);

	/* Nothing left to weigh if no state is enabled. */
	if (idx < 0) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "no-state-enabled";
		tick_rule = "no-state-enabled";
		gov_explain_str(dev, "sleep_length_ns", "skipped");
		goto out_tick;
	}

	if (idx == idx0) {
		/*
		 * The only enabled state: use it, with its target residency as the expected
		 * duration, so the tick is kept when that is below one tick.
		 */
		duration_ns = drv->states[idx].target_residency_ns;
		rule = "single-state";
		gov_explain_str(dev, "sleep_length_ns", "skipped");
		goto end;
	}

	gov_explain(dev, "idx_intercept_sum", idx_intercept_sum);
	gov_explain(dev, "idx_hit_sum", idx_hit_sum);
	gov_explain(dev, "total", cpu_data->total);

	/*
	 * Look for a shallower state if the intercepts below the candidate outweigh the hits
	 * and intercepts at or above it (2 * idx_intercept_sum > total - idx_hit_sum).
	 */
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		int min_idx = idx0;
		int cand = idx;

		if (tick_nohz_tick_stopped(dev)) {
			/*
			 * The tick is stopped: do not go below the first state with a target
			 * residency of at least TICK_NSEC (or below the candidate itself).
			 */
			while (min_idx < idx &&
			       drv->states[min_idx].target_residency_ns < TICK_NSEC)
				min_idx++;
		}

		/*
		 * Walk down to min_idx and stop at the first enabled state where the bins from
		 * it up to the candidate hold more than half of idx_intercept_sum; without such
		 * a state, the walk ends at the shallowest enabled state it reached.
		 */
		for (i = idx - 1, intercept_sum = 0; i >= min_idx; i--) {
			intercept_sum += cpu_data->state_bins[i].intercepts;

			if (dev->states_usage[i].disable)
				continue;

			idx = i;
			if (2 * intercept_sum > idx_intercept_sum)
				break;
		}
		gov_explain(dev, "intercepts_idx", idx);
		if (idx != cand)
			rule = "intercepts";
	}

	/* The latency limit caps the result at constraint_idx. */
	if (idx > constraint_idx) {
		idx = constraint_idx;
		rule = "latency-constraint";
	}

	/*
	 * Should the sleep length be read? For state 0, or a state with a target residency
	 * below RESIDENCY_THRESHOLD_NS, there is little left to gain, but an unread sleep
	 * length makes the next wakeup count against KTIME_MAX, which on a CPU woken mostly by
	 * timers can hold back deeper states for good.
	 *
	 * So for such a state the read is skipped only in two cases. One: idle periods shorter
	 * than RESIDENCY_THRESHOLD_NS are at least half of the events. Timers that close
	 * together are rare on one CPU (user-space hrtimers get 50 us of slack by default and
	 * few kernel timers are shorter), and a deep state would hardly pay off for them given
	 * the latency, so such wakeups are taken to come from elsewhere. Two: the latency limit
	 * is below LATENCY_THRESHOLD_NS, which forces a shallow state whatever the wakeup
	 * source.
	 */
	gov_explain(dev, "short_idles", cpu_data->short_idles);
	if ((!idx || drv->states[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS) &&
	    (2 * cpu_data->short_idles >= cpu_data->total || latency_req < LATENCY_THRESHOLD_NS)) {
		gov_explain_str(dev, "sleep_length_ns", "skipped");
		tick_rule = "sleep-length-skipped";
		goto out_tick;
	}

	duration_ns = tick_nohz_get_sleep_length(dev, &delta_tick);
	cpu_data->sleep_length_ns = duration_ns;
	teo_explain_sleep_length(dev, duration_ns);

	if (!idx) {
		tick_rule = "state-0";
		goto out_tick;
	}

	/*
	 * The next timer comes before the candidate's target residency: step down to a state
	 * that fits.
	 */
	if (drv->states[idx].target_residency_ns > duration_ns) {
		idx = teo_find_shallower_state(drv, dev, idx, duration_ns);
		rule = "timer";
	}
	gov_explain(dev, "timer_idx", idx);

	/*
	 * Keep the tick for a state below TICK_NSEC when intercepts within one tick exceed 5/8
	 * of total (total / 2 + total / 8); the expected duration then becomes half a tick.
	 */
	gov_explain(dev, "tick_intercepts", cpu_data->tick_intercepts);
	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    cpu_data->tick_intercepts > cpu_data->total / 2 + cpu_data->total / 8) {
		duration_ns = TICK_NSEC / 2;
		tick_rule = "tick-intercepts";
		tick_intercepts_rule = true;
	}

end:
	gov_explain(dev, "expected_ns", duration_ns == KTIME_MAX ? -1 : duration_ns);
	/*
	 * The tick may be stopped unless the state polls or the expected idle time is below one
	 * tick; a tick that is already stopped stays stopped.
	 */
	if ((!teo_polling(drv, idx) && duration_ns >= TICK_NSEC) || tick_nohz_tick_stopped(dev)) {
		if (tick_nohz_tick_stopped(dev))
			tick_rule = "already-stopped";
		goto out;
	}
	if (teo_polling(drv, idx))
		tick_rule = "polling-state";
	else if (!tick_intercepts_rule)
		tick_rule = "short-duration";

	/*
	 * The tick stays on and will wake the CPU within delta_tick at the latest: if the
	 * chosen state's target residency does not fit in that time, step down to a state that
	 * does.
	 */
	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick) {
		idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
		rule = "tick";
	}

out_tick:
	*stop_tick = false;
out:
	gov_explain_str(dev, "tick_rule", tick_rule);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/* teo_reflect_6_19 - remember the state entered and whether the tick woke the CPU. */
static void teo_reflect_6_19(struct cpuidle_device *dev, int state)
{
	struct teo_cpu_6_19 *cpu_data = dev->governor_data;

	cpu_data->tick_wakeup = tick_nohz_idle_got_tick(dev);

	dev->last_state_idx = state;
}

/* teo_enable_device_6_19 - zero the metrics. */
static int teo_enable_device_6_19(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu_6_19 *cpu_data = dev->governor_data;

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));

	return 0;
}

/* ======================================================================================
 * The versions
 * ====================================================================================== */

/* Per-CPU data: one allocation fits every version. */
union teo_priv {
	struct teo_cpu_5_1 v5_1;
	struct teo_cpu_5_14 v5_14;
	struct teo_cpu_6_12 v6_12;
	struct teo_cpu_6_19 v6_19;
};

const struct cpuidle_governor gov_teo_5_1 = {
	.name = "teo@5.1",
	.rating = 19,
	.summary = "TEO as merged: per-state early hits/hits/misses, 8 recent intervals (us)",
	.priv_size = sizeof(union teo_priv),
	.params = teo_params_5,
	.nr_params = ARRAY_SIZE(teo_params_5),
	.enable = teo_enable_device_5_1,
	.select = teo_select_5_1,
	.reflect = teo_reflect_5_1,
};

const struct cpuidle_governor gov_teo_5_14 = {
	.name = "teo@5.14",
	.rating = 19,
	.summary = "TEO bins: hits/intercepts/recent per bin, alt_intercepts/alt_recent lookup",
	.priv_size = sizeof(union teo_priv),
	.params = teo_params_5,
	.nr_params = ARRAY_SIZE(teo_params_5),
	.enable = teo_enable_device_5_14,
	.select = teo_select_5_14,
	.reflect = teo_reflect_5_14,
};

const struct cpuidle_governor gov_teo_6_12 = {
	.name = "teo@6.12",
	.rating = 19,
	.summary = "TEO 6.12 (Debian 6.12.118): hits/intercepts bins, tick_hits bin, teo_state_ok",
	.priv_size = sizeof(union teo_priv),
	.params = teo_params_6_12,
	.nr_params = ARRAY_SIZE(teo_params_6_12),
	.enable = teo_enable_device_6_12,
	.select = teo_select_6_12,
	.reflect = teo_reflect_6_12,
};

const struct cpuidle_governor gov_teo_6_19 = {
	.name = "teo@6.19",
	.rating = 19,
	.summary = "TEO v6.19: teo_decay, tick-wakeup accounting, sleep length read lazily",
	.priv_size = sizeof(union teo_priv),
	.params = teo_params_6_19,
	.nr_params = ARRAY_SIZE(teo_params_6_19),
	.enable = teo_enable_device_6_19,
	.select = teo_select_6_19,
	.reflect = teo_reflect_6_19,
};
