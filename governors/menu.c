// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu.c - the menu cpuidle governor (drivers/cpuidle/governors/menu.c), five releases.
 *
 * DOC: The algorithm
 *
 * menu predicts how long the CPU will stay idle and picks the deepest enabled state whose
 * target residency fits that prediction and whose exit latency meets the latency limit. Two
 * predictors are combined and the smaller result wins:
 *
 *  - the sleep length (time to the next timer if the tick were stopped) scaled by a
 *    correction factor, a running average of measured/sleep-length ratios kept in
 *    fixed point (RESOLUTION * DECAY means 1.0) in one of BUCKETS buckets chosen by the
 *    order of magnitude of the sleep length (and, up to v6.11, by whether tasks wait for I/O
 *    on this CPU);
 *  - the "typical interval": the average of the last INTERVALS (8) measured idle durations
 *    when their spread is small (stddev <= 20 us or avg > 6 * stddev), after removing
 *    outliers.
 *
 * The statistics are updated lazily: reflect() only records that an entry completed (and
 * whether the tick woke the CPU), and menu_update() runs at the start of the next select(),
 * using dev->last_residency_ns of the entry just completed. On top of the prediction come
 * the tick rules (keep the tick when the prediction is shorter than a tick, and then do not
 * pick a state deeper than the time to the next tick; when the tick is already stopped, do
 * not trust a short prediction) and, up to v6.11, the "performance multiplier" that lowers
 * the latency limit when tasks wait for I/O (and, up to v4.19, with the load average).
 *
 * DOC: Versions modelled, and where each was read
 *
 * menu@4.18 - Linux v4.18 (Aug 2018), "M-0" of the reference: us units, 12 buckets split by
 *	iowait, performance_multiplier() = 1 + 2 * get_loadavg(load) + 10 * nr_iowaiters applied
 *	as a latency limit only while the tick runs, get_typical_interval(data) without the
 *	predicted-value early exit, the tick-aware selection of v4.17, menu_update() with the
 *	tick-wakeup rule. No pristine v4.18 menu.c was available to read, so the file was
 *	reconstructed from:
 *	 - the v4.17 idle-loop series as posted (patch files of 45f1ff59e27c "cpuidle: Return
 *	   nohz hint from cpuidle_select()", which adds stop_tick, tick_wakeup and the
 *	   9 * MAX_INTERESTING / 10 rule; 296bb1e51a48 "cpuidle: menu: Refine idle state
 *	   selection for running tick", whose resulting menu_select() lines 278-428 are quoted
 *	   in a 0-day report on a tree carrying it; and the diff of 87c9fe6ee495 "cpuidle:
 *	   menu: Avoid selecting shallow states with stopped tick", quoted in the linux-pm
 *	   thread "high number of dropped packets/rx_missed_errors from 4.17 kernel", 2020);
 *	 - two vendor trees on the v4.14/v4.19 base (Geeeeeker/android_kernel_xiaomi_sm8150_419
 *	   @60d3f5fd drivers/cpuidle/governors/menu.c, and a HiSilicon vendor copy found by
 *	   content search, repository not named by the index) for the parts the
 *	   series did not touch and both agree on: struct menu_device with predicted_us and
 *	   last_state_idx, get_loadavg(), which_bucket(), get_typical_interval() with
 *	   thresh = UINT_MAX and no early exit, the first_idx / polling_threshold rule
 *	   (max_t(unsigned int, 20, C1 target residency)), and menu_update() with the
 *	   "> 2 * exit_latency, else halve" rule;
 *	 - not included because they are later than v4.18: 5ef499cd571c "Handle stopped tick
 *	   more aggressively" and "Retain tick when shallow state is selected" (August 2018,
 *	   Cc 4.17+ stable, present in the v4.19 vendor tree; that they missed the v4.18 tag
 *	   is from their dates, not confirmed against a tagged tree), 5f26bdceb9c0 "Fix wakeup
 *	   statistics updates for polling state" (its stable mail backports it to 4.19.86, so
 *	   it is not in v4.19), "Avoid computations when result will be discarded" (the
 *	   min >= predicted_us early exit: absent from the v4.19 tree), a7fe5190c03f (removal
 *	   of the load term), and the android "mult += 2 * get_loadavg()" removal (not
 *	   mainline). Issue 3 says "with the early exit on the predicted value": v4.18 did not
 *	   have it, so it is not modelled.
 *
 * menu@6.1 - the menu.c of Debian's linux-source-6.1 (6.1.192), the ns era before v6.6
 *	("M-B" of the reference plus stable backports): the sleep length always read first
 *	and bucketed with the iowait split (12 buckets), the early exit to state 0 before any
 *	prediction, predicted_us = the corrected sleep length, and get_typical_interval(data,
 *	predicted_us) with the "min >= predicted_us" early exit (the one line in which it
 *	differs from v6.6's); then v6.6's tick-stopped rule, performance multiplier, loop and
 *	tick decision (menu_pick_state_6_1(), the same text). The stable branch carries
 *	fa3fa55de0d (UINT_MAX recorded after a rejected entry). Read: the packaged file itself;
 *	checked decision by decision against it (tests/test_kgov.c, README "Kernel governor
 *	files"). Its tunables are menu@6.6's; residency_threshold_us does nothing in it.
 *
 * menu@6.6 - Linux v6.6 release (same code through v6.11), "M-C": ns units, 12 buckets,
 *	get_typical_interval(data) first (5484e31bbbff, Aug 2023), the sleep length read only
 *	when the typical interval exceeds RESIDENCY_THRESHOLD_NS (else next_timer_ns =
 *	KTIME_MAX and delta_tick = TICK_NSEC / 2), the negative sleep length clamp,
 *	performance_multiplier() = 1 + 10 * nr_iowaiters, the poll_time_limit rule in
 *	menu_update(). Read: a full copy of the v6.6-v6.11 file (comments stripped), checked
 *	against the pre-image of 38f83090f515 "cpuidle: menu: Remove iowait influence" in its
 *	patch mails and against the 5484e31bbbff patch. The v6.6.y stable branch later took
 *	AUTOSEL backports (07d815701274, 85975daeaa4d and its revert, ...): they are not part
 *	of the v6.6 release and are not modelled.
 *
 * menu@6.12 - the menu.c of Debian's linux-source-6.12 (6.12.118): the selection of
 *	menu@6.19 (no iowait, 6 buckets, UINT_MAX after a rejected entry, the polling override
 *	with RESIDENCY_THRESHOLD_NS, the loop with the exit latency first:
 *	menu_pick_state_6_12(), the same text), but v6.6's one-sided get_typical_interval(),
 *	and the stable backport of 80606f4eb8d7 ("Always check timers with tick stopped",
 *	mainline 7.0): with the tick stopped the sleep length is read whatever the typical
 *	interval, and a prediction below a tick is replaced by it inside that branch. Read:
 *	the packaged file; checked against it decision by decision (tests/test_kgov.c).
 *
 * menu@6.19 - Linux v6.19, "M-E" plus the v6.19 polling-override threshold: 6 buckets, no
 *	iowait, single-pass get_typical_interval() with two-sided outlier removal, an entry
 *	that was rejected or aborted recorded as UINT_MAX (fa3fa55de0d), the exit latency
 *	checked first in the main loop (779b1a1cb13a). Read: the v6.17 file at
 *	Kingxukai/linux@0291023e (its comments have a "the woke" text substitution; code
 *	unaffected), plus the diffs of 17224c1d2574 "Rearrange main loop in menu_select()"
 *	(6.17.y stable mail), db86f55bf81a "Select polling state in some more cases"
 *	(s->exit_latency_ns <= predicted_ns; 6.12.y stable mail), 10fad4012234 "Revert
 *	'cpuidle: menu: Avoid discarding useful information'" (v6.18-rc3; get_typical_interval()
 *	again returns UINT_MAX, not max, when too few samples remain - the reference's
 *	section 2.8b step 5 predates this revert), and 07d815701274 "Use residency threshold
 *	in polling state override decisions" (s->target_residency_ns <
 *	RESIDENCY_THRESHOLD_NS; AUTOSEL mail with X-stable-base Linux 6.18, so v6.19-rc1).
 *	80606f4eb8d7 "Always check timers with tick stopped" is NOT in v6.19: it is dated
 *	2026-01-20 and came with the pm-cpuidle merge for 6.20/7.0-rc1 of 2026-02-04.
 *	Neither is the Feb 2026 SAFE_TIMER_RANGE_NS change nor the proposed (unmerged) "Predict
 *	longer idle time when in doubt".
 *
 * DOC: Layout
 *
 * Kernel names, constants, integer types and truncation are kept so the logic can be diffed
 * against the kernel. Where versions differ, a function carries a version suffix
 * (menu_select_4_18(), get_typical_interval_6_19(), ...); which_bucket(), menu_update()
 * (ns), menu_update_intervals() and menu_reflect() are shared where the kernel logic is the
 * same. The tuning constants are tunables (dev->gov_params), reached through macros named
 * like the kernel constants (DECAY, RESOLUTION, MAX_INTERESTING, ...), which need a `dev`
 * in scope as TICK_NSEC does. INTERVALS stays a compile-time array size. Per-CPU state is
 * dev->governor_data; there is no global mutable state.
 *
 * DOC: Decision log (idlesim run --explain)
 *
 * sleep_length_ns (after the clamp; -1 = no timer) or sleep_length = "skipped";
 * delta_tick_ns; bucket; correction_factor (of that bucket, as used); typical_interval_us
 * (-1 = UINT_MAX, no prediction) and typical_samples (samples kept, 0 when UINT_MAX);
 * predicted_ns (after every adjustment, as the loop used it); latency_req_ns (after the
 * performance multiplier); nr_iowait, loadavg (get_loadavg(): load x 10) and perf_mult where
 * the version has them; first_idx (4.18); rule, one of:
 *   latency-zero      PM QoS limit of 0: state 0
 *   early-exit-poll   (>= 6.6) state 0 used no matter what (next timer or latency limit
 *                     below state 1, or a single state)
 *   typical-interval  the deepest state fitting a prediction given by the typical interval
 *   timer             ... given by the corrected sleep length
 *   tick-stopped      the tick was already stopped and a short prediction was replaced by
 *                     the time to the next timer (or the stopped-tick return of the loop)
 *   interactivity     the loop stopped at the latency limit set by the performance
 *                     multiplier
 *   latency           the loop stopped at the PM QoS latency limit
 *   polling-override  (>= 6.6) a real state instead of POLL for a short prediction
 *   retain-tick       (>= 6.6) the tick runs and the prediction is beyond a tick, but the
 *                     next state is too deep: the shallow one is kept with the tick running
 *   tick-retained-cap the tick is kept and the state was lowered to fit delta_tick
 *   all-disabled      no state enabled: state 0
 *
 * DOC: Known deviations
 *
 *  - No timer at all: the engine reports a sleep length of KTIME_MAX, which the kernel never
 *    returns (tick_nohz_next_event() is bounded by the clock-event device's maximum
 *    deferment). Where the kernel arithmetic would then wrap - next_timer_us =
 *    ktime_to_us() in 4.18, next_timer_ns * correction_factor and the unsigned int
 *    timer_us in 6.x - the value saturates at UINT_MAX us instead, so that sleep-length term
 *    simply does not constrain the prediction. Finite sleep lengths use the kernel
 *    arithmetic unchanged (with the default tunables, no intermediate overflows below about
 *    26 days).
 *  - 4.18's latency_req was pm_qos_request(PM_QOS_CPU_DMA_LATENCY) combined with the device
 *    resume latency, int us; here it is cpuidle_governor_latency_req(dev) / NSEC_PER_USEC,
 *    truncated and capped at INT_MAX. Its last_residency is last_residency_ns / 1000
 *    truncated and capped at INT_MAX, as cpuidle_enter_state() computed it in v4.18. The
 *    driver-wide drv->states[i].disabled flag of those kernels does not exist here (false).
 *  - 4.18's get_iowait_load() load value is the trace's load= (FIXED_1 fixed point), as
 *    governors/governor.h defines it.
 *  - The variance sums use u64 products: the kernel's s64 diff * diff or value * value,
 *    with the same result modulo 2^64 and without signed-overflow UB in C.
 *  - Form only: the classic get_typical_interval() (4.18, 6.6) sums (value - avg)^2 in a
 *    second loop over the samples; typical_accept() gets the same u64 from the sum of
 *    squares gathered in the first loop (sum_sq - 2 * avg * sum + divisor * avg^2, an
 *    identity modulo 2^64), which made menu 4 % faster; test_menu checks it against the two
 *    loops on random windows.
 *  - With tunables other than the defaults, RESOLUTION * DECAY * NSEC_PER_USEC may exceed
 *    the u32 divisor of the kernel's div_u64(); div64_u64() is used (same result with the
 *    defaults).
 *  - data->typical_samples exists only for the decision log.
 *  - The POLL time limit is the engine's (the >= v5.11 rule, 20 us on skl); v4.18's was
 *    TICK_NSEC / 16. v4.18's menu_update() does not look at poll_time_limit (that came with
 *    5f26bdceb9c0), so a time-limited POLL entry is recorded as a short measured interval,
 *    as v4.18 did.
 *  - What the engine does not produce cannot happen here: no driver rejections or
 *    need_resched aborts, so 6.19's UINT_MAX record is only made at the very first select
 *    after enable (which the kernel does too); the sleep length is never negative. Those
 *    paths are tested by calling select() directly. The tick can already be stopped when
 *    menu selects: after a wakeup that brings no task (resched=0: a timer or interrupt
 *    whose handler wakes nobody) the idle loop goes on with the tick stopped, as in the
 *    kernel; tests/test_replay.c reaches those branches through replays.
 */
#include "governors/governor.h"

#include <string.h>

#define BUCKETS 12     /* <= v6.11; also the array size */
#define BUCKETS_6_12 6 /* >= v6.12 (38f83090f515) */
#define INTERVAL_SHIFT 3
#define INTERVALS (1UL << INTERVAL_SHIFT)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define DIV_ROUND_CLOSEST_ULL(x, d) div64_u64((u64)(x) + (u64)(d) / 2, (u64)(d))

/*
 * Tunables: the same first five in every version, then the version's own. The macros read
 * them like the kernel constants (a `dev` must be in scope).
 */
enum {
	P_DECAY,
	P_RESOLUTION,
	P_MAX_INTERESTING,
	P_VARIANCE_MAX,
	P_RATIO_SQ,
	P_VERSION_SPECIFIC,
	/* 4.18 */
	P_POLL_THRESHOLD = P_VERSION_SPECIFIC,
	P_IOWAIT_FACTOR, /* 4.18 and 6.6: index 6 in both */
	P_LOAD_FACTOR,
	/* 6.6 and 6.19 */
	P_RESIDENCY_THRESHOLD = P_VERSION_SPECIFIC,
};

#define PARAM(i) (dev->gov_params[(i)])
#define DECAY ((unsigned int)PARAM(P_DECAY))
#define RESOLUTION ((unsigned int)PARAM(P_RESOLUTION))
#define MAX_INTERESTING ((u64)PARAM(P_MAX_INTERESTING) * NSEC_PER_USEC) /* >= v5.5, ns */
#define MAX_INTERESTING_US ((unsigned int)PARAM(P_MAX_INTERESTING))	/* v4.18, us */
#define VARIANCE_MAX ((u64)PARAM(P_VARIANCE_MAX))			/* 400 us^2 */
#define RATIO_SQ ((u64)PARAM(P_RATIO_SQ))				/* 36 = 6^2 */
#define RESIDENCY_THRESHOLD_NS ((u64)PARAM(P_RESIDENCY_THRESHOLD) * NSEC_PER_USEC)
#define POLLING_THRESHOLD_US ((unsigned int)PARAM(P_POLL_THRESHOLD)) /* v4.18: 20 */
#define IOWAIT_FACTOR ((int)PARAM(P_IOWAIT_FACTOR))		     /* 10 */
#define LOAD_FACTOR ((int)PARAM(P_LOAD_FACTOR))			     /* 2 */

struct menu_device {
	int needs_update;
	int tick_wakeup;

	u64 next_timer_ns;	    /* >= v5.5 */
	unsigned int next_timer_us; /* v4.18 */
	unsigned int predicted_us;  /* v4.18 */
	int last_state_idx;	    /* v4.18 (later dev->last_state_idx) */
	unsigned int bucket;
	unsigned int correction_factor[BUCKETS];
	unsigned int intervals[INTERVALS];
	int interval_ptr;

	unsigned int typical_samples; /* not in the kernel: for the decision log */
};

/* ---- shared helpers ---- */

static struct menu_device *menu_data(struct cpuidle_device *dev)
{
	return dev->governor_data;
}

static long long us_or_none(unsigned int us)
{
	return us == UINT_MAX ? -1 : (long long)us;
}

static long long ns_or_none(s64 ns)
{
	return ns == KTIME_MAX ? -1 : ns;
}

/*
 * which_bucket() of <= v6.11, in ns (v4.18 passes us * NSEC_PER_USEC: the thresholds are the
 * same numbers of us, so the result is the same). >= v6.12 has no iowait offset; 6.19 calls
 * it with nr_iowaiters = 0, which gives the same result.
 */
static inline int which_bucket(u64 duration_ns, unsigned long nr_iowaiters)
{
	int bucket = 0;

	/*
	 * Up to v6.11 the buckets come in two halves: the upper half is used while tasks wait
	 * for I/O on this CPU, so the two cases keep separate correction factors.
	 */
	if (nr_iowaiters)
		bucket = BUCKETS / 2;

	if (duration_ns < 10ULL * NSEC_PER_USEC)
		return bucket;
	if (duration_ns < 100ULL * NSEC_PER_USEC)
		return bucket + 1;
	if (duration_ns < 1000ULL * NSEC_PER_USEC)
		return bucket + 2;
	if (duration_ns < 10000ULL * NSEC_PER_USEC)
		return bucket + 3;
	if (duration_ns < 100000ULL * NSEC_PER_USEC)
		return bucket + 4;
	return bucket + 5;
}

static void menu_update_intervals(struct menu_device *data, unsigned int interval_us)
{
	/* Store the sample in the ring of the last INTERVALS idle durations. */
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= (int)INTERVALS)
		data->interval_ptr = 0;
}

/*
 * The rounded sleep-length prediction in us of >= v5.5 (and of 6.6/6.19):
 *	timer_us = div_u64((RESOLUTION * DECAY * NSEC_PER_USEC) / 2 +
 *			   data->next_timer_ns * data->correction_factor[data->bucket],
 *			   RESOLUTION * DECAY * NSEC_PER_USEC);
 * saturated at UINT_MAX where the kernel would wrap (see "Known deviations").
 */
static unsigned int menu_timer_us(const struct cpuidle_device *dev, const struct menu_device *data)
{
	u64 cf = data->correction_factor[data->bucket];
	u64 div = (u64)RESOLUTION * DECAY * NSEC_PER_USEC;
	u64 q;

	if (cf && data->next_timer_ns > (U64_MAX - div / 2) / cf)
		return UINT_MAX;
	q = div64_u64(div / 2 + data->next_timer_ns * cf, div);
	return q > UINT_MAX ? UINT_MAX : (unsigned int)q;
}

static void menu_enable(struct cpuidle_device *dev, unsigned int buckets)
{
	struct menu_device *data = menu_data(dev);
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
static int menu_fit_delta_tick(struct cpuidle_driver *drv, struct cpuidle_device *dev, int idx,
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

/* ==== menu@4.18 ==== */

/* cpuidle_enter_state() of v4.18: dev->last_residency, int us. */
static int cpuidle_get_last_residency(const struct cpuidle_device *dev)
{
	s64 us = ktime_to_us(dev->last_residency_ns);

	return us > INT_MAX ? INT_MAX : (int)us;
}

/* ktime_to_us() into the unsigned int of v4.18 (UINT_MAX for "no timer"). */
static unsigned int ktime_to_us_uint(ktime_t t)
{
	return t == KTIME_MAX ? UINT_MAX : (unsigned int)ktime_to_us(t);
}

/* PM QoS limit as v4.18's int latency_req, in us. */
static int latency_req_us(const struct cpuidle_device *dev)
{
	s64 us = cpuidle_governor_latency_req(dev) / NSEC_PER_USEC;

	return us > INT_MAX ? INT_MAX : (int)us;
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
static inline int performance_multiplier_4_18(const struct cpuidle_device *dev,
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
 * The test both classic get_typical_interval() versions (v4.18, v6.6) apply to the samples
 * kept (those <= thresh: `divisor` of them, summing to `sum`, their squares to `sum_sq`):
 * their average, and whether they are grouped tightly enough for it to be the prediction.
 *
 * The kernel sums (value - avg)^2 over the kept samples in a second loop. Expanded, that is
 * sum_sq - 2 * avg * sum + divisor * avg^2, an identity that holds modulo 2^64 too, so it
 * gives the kernel's u64 to the bit without the second pass over the samples (a known
 * deviation in form; test_menu checks it against the two loops on random samples).
 */
static bool typical_accept(const struct cpuidle_device *dev, uint64_t sum, uint64_t sum_sq,
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
 * get_typical_interval() of v4.18: look for a repeating pattern in the last INTERVALS idle
 * durations. If they are close enough together their average is the prediction; if not, the
 * largest values are dropped and the test repeated, down to 3/4 of the samples. UINT_MAX means
 * no prediction.
 */
static unsigned int get_typical_interval_4_18(const struct cpuidle_device *dev,
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

/* menu_update_4_18 - fold the last idle period into the v4.18 statistics (us). */
static void menu_update_4_18(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *data = menu_data(dev);
	int last_idx = data->last_state_idx;
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

	/* store the sample in the intervals ring */
	data->intervals[data->interval_ptr++] = measured_us;
	if (data->interval_ptr >= (int)INTERVALS)
		data->interval_ptr = 0;
}

/* menu_select_4_18 - choose the state for the next idle period (v4.18 logic, us). */
static int menu_select_4_18(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = menu_data(dev);
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

	if (data->needs_update) {
		menu_update_4_18(drv, dev);
		data->needs_update = 0;
	}

	/* A PM QoS limit of 0 allows only state 0, with the tick kept running. */
	if (unlikely(latency_req == 0)) {
		*stop_tick = false;
		gov_explain(dev, "latency_req_ns", 0);
		gov_explain_str(dev, "rule", "latency-zero");
		return 0;
	}

	/* sleep length in us, and the bucket it selects */
	sleep_length = tick_nohz_get_sleep_length(dev, &delta_next);
	data->next_timer_us = ktime_to_us_uint(sleep_length);

	get_iowait_load(dev, &nr_iowaiters, &cpu_load);
	data->bucket = which_bucket((u64)data->next_timer_us * NSEC_PER_USEC, nr_iowaiters);

	/*
	 * Corrected sleep length: the product is taken in 64 bits and the quotient rounded to
	 * the nearest us.
	 */
	data->predicted_us = DIV_ROUND_CLOSEST_ULL((uint64_t)data->next_timer_us *
							   data->correction_factor[data->bucket],
						   RESOLUTION * DECAY);
	timer_us = data->predicted_us;

	expected_interval = typical_us = get_typical_interval_4_18(dev, data);
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

	if (tick_nohz_tick_stopped(dev)) {
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
		int mult = performance_multiplier_4_18(dev, nr_iowaiters, cpu_load);

		/*
		 * Second latency limit: the prediction divided by the multiplier; the lower
		 * limit applies.
		 */
		interactivity_req = data->predicted_us / (unsigned int)mult;
		if ((unsigned int)latency_req > interactivity_req) {
			latency_req = (int)interactivity_req;
			lowered = true;
		}
		gov_explain(dev, "perf_mult", mult);
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

		if (!tick_nohz_tick_stopped(dev) && idx > 0 &&
		    drv->states[idx].target_residency > delta_next_us) {
			/*
			 * The tick stays on and will wake the CPU within delta_next at the
			 * latest, so a state with a longer target residency would not pay off:
			 * step down to the first enabled state that fits in that time (or to
			 * the shallowest enabled one).
			 */
			for (i = idx - 1; i >= 0; i--) {
				if (dev->states_usage[i].disable)
					continue;

				idx = i;
				if (drv->states[i].target_residency <= delta_next_us)
					break;
			}
			rule = "tick-retained-cap";
		}
	}

	data->last_state_idx = idx;

	gov_explain(dev, "sleep_length_ns", ns_or_none(sleep_length));
	gov_explain(dev, "delta_tick_ns", ns_or_none(delta_next));
	gov_explain(dev, "bucket", data->bucket);
	gov_explain(dev, "correction_factor", data->correction_factor[data->bucket]);
	gov_explain(dev, "typical_interval_us", us_or_none(typical_us));
	gov_explain(dev, "typical_samples", data->typical_samples);
	gov_explain(dev, "predicted_ns", (long long)data->predicted_us * NSEC_PER_USEC);
	gov_explain(dev, "latency_req_ns", (long long)latency_req * NSEC_PER_USEC);
	gov_explain(dev, "nr_iowait", nr_iowaiters);
	gov_explain(dev, "loadavg", get_loadavg(cpu_load));
	gov_explain(dev, "first_idx", first_idx);
	gov_explain_str(dev, "rule", rule);

	return data->last_state_idx;
}

/*
 * menu_reflect_4_18 - note the state entered and whether the tick woke the CPU; the statistics
 * are updated at the next select.
 */
static void menu_reflect_4_18(struct cpuidle_device *dev, int index)
{
	struct menu_device *data = menu_data(dev);

	data->last_state_idx = index;
	data->needs_update = 1;
	data->tick_wakeup = tick_nohz_idle_got_tick(dev);
}

static int menu_enable_device_4_18(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	menu_enable(dev, BUCKETS);
	return 0;
}

/* ==== ns era: shared by menu@6.6 and menu@6.19 ==== */

/*
 * menu_update - fold the last idle period into the statistics (ns), as the kernel's
 * menu_update() does. v6.6 and v6.19 share this logic; 6.19 only moved the intervals update
 * into menu_update_intervals().
 */
static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *data = menu_data(dev);
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
static void menu_reflect(struct cpuidle_device *dev, int index)
{
	struct menu_device *data = menu_data(dev);

	dev->last_state_idx = index;
	data->needs_update = 1;
	data->tick_wakeup = tick_nohz_idle_got_tick(dev);
}

/* Explain the prediction inputs of 6.6 / 6.19 (after the sleep length step). */
static void menu_explain_prediction(struct cpuidle_device *dev, const struct menu_device *data,
				    bool skipped, ktime_t delta, ktime_t delta_tick,
				    unsigned int typical_us)
{
	if (skipped)
		gov_explain_str(dev, "sleep_length", "skipped");
	else
		gov_explain(dev, "sleep_length_ns", ns_or_none(delta));
	gov_explain(dev, "delta_tick_ns", ns_or_none(delta_tick));
	gov_explain(dev, "bucket", data->bucket);
	gov_explain(dev, "correction_factor", data->correction_factor[data->bucket]);
	gov_explain(dev, "typical_interval_us", us_or_none(typical_us));
	gov_explain(dev, "typical_samples", data->typical_samples);
}

/* ==== menu@6.6 ==== */

/*
 * The v6.6 performance multiplier: 1 + IOWAIT_FACTOR per task waiting for I/O on this CPU. The
 * predicted idle time divided by it is an extra latency limit.
 */
static inline int performance_multiplier(const struct cpuidle_device *dev,
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
static unsigned int get_typical_interval_one_sided(const struct cpuidle_device *dev,
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

static unsigned int get_typical_interval_6_6(const struct cpuidle_device *dev,
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
static int menu_pick_state_6_1(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			       s64 latency_req, u64 predicted_ns, ktime_t delta_tick,
			       unsigned int nr_iowaiters, bool *stop_tick, const char *rule)
{
	struct menu_device *data = menu_data(dev);
	u64 interactivity_req;
	bool lowered = false;
	int i, idx;

	if (tick_nohz_tick_stopped(dev)) {
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
		gov_explain(dev, "perf_mult", mult);
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

			if (!tick_nohz_tick_stopped(dev)) {
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

			gov_explain(dev, "predicted_ns", predicted_ns);
			gov_explain(dev, "latency_req_ns", latency_req);
			gov_explain_str(dev, "rule", "tick-stopped");
			return idx;
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
	    !tick_nohz_tick_stopped(dev)) {
		int capped;

		*stop_tick = false;

		capped = menu_fit_delta_tick(drv, dev, idx, delta_tick);
		if (capped != idx)
			rule = "tick-retained-cap";
		idx = capped;
	}

	gov_explain(dev, "predicted_ns", predicted_ns);
	gov_explain(dev, "latency_req_ns", latency_req);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

static int menu_select_6_6(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = menu_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev);
	u64 predicted_ns;
	unsigned int nr_iowaiters, typical_us;
	ktime_t delta = KTIME_MAX, delta_tick;
	const char *rule = "typical-interval";
	bool skipped = false;

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	}

	nr_iowaiters = (unsigned int)nr_iowait_cpu(dev);

	/* Typical interval first; the timer is queried only when that is long enough. */
	typical_us = get_typical_interval_6_6(dev, data);
	predicted_ns = typical_us * NSEC_PER_USEC;
	if (predicted_ns > RESIDENCY_THRESHOLD_NS) {
		unsigned int timer_us;

		/* sleep length, and the time to the next tick */
		delta = tick_nohz_get_sleep_length(dev, &delta_tick);
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
	menu_explain_prediction(dev, data, skipped, delta, delta_tick, typical_us);
	gov_explain(dev, "nr_iowait", nr_iowaiters);

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/*
		 * Only state 0 is possible here, so return it at once; the tick is stopped
		 * unless state 0 is a polling state.
		 */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		gov_explain(dev, "predicted_ns", predicted_ns);
		gov_explain(dev, "latency_req_ns", latency_req);
		gov_explain_str(dev, "rule", latency_req == 0 ? "latency-zero" : "early-exit-poll");
		return 0;
	}

	return menu_pick_state_6_1(drv, dev, latency_req, predicted_ns, delta_tick, nr_iowaiters,
				   stop_tick, rule);
}

/*
 * menu_select_6_1 - choose the state for the next idle period: the menu.c of Debian's
 * linux-source-6.1 (6.1.192), the ns era before v6.6. The sleep length is always read first
 * and bucketed with the iowait split; the early exit to state 0 comes before any prediction;
 * the prediction is the smaller of the corrected sleep length and the typical interval,
 * which gives up early when no sample is below the former. The stable branch carries
 * fa3fa55de0d (a rejected entry recorded as UINT_MAX).
 */
static int menu_select_6_1(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = menu_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev);
	unsigned int predicted_us, typical_us, nr_iowaiters;
	u64 predicted_ns;
	ktime_t delta, delta_tick;
	const char *rule = "timer";

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	} else if (!dev->last_residency_ns) {
		/* A rejected or aborted entry: record UINT_MAX, not a bogus sample. */
		menu_update_intervals(data, UINT_MAX);
	}

	/* the expected residency: the sleep length, rounded up below */
	delta = tick_nohz_get_sleep_length(dev, &delta_tick);
	if (unlikely(delta < 0)) {
		delta = 0;
		delta_tick = 0;
	}
	data->next_timer_ns = (u64)delta;

	nr_iowaiters = (unsigned int)nr_iowait_cpu(dev);
	data->bucket = which_bucket(data->next_timer_ns, nr_iowaiters);
	gov_explain(dev, "nr_iowait", nr_iowaiters);

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/* Only state 0 is possible: the tick stops unless it polls. */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		menu_explain_prediction(dev, data, false, delta, delta_tick, UINT_MAX);
		gov_explain(dev, "latency_req_ns", latency_req);
		gov_explain_str(dev, "rule", latency_req == 0 ? "latency-zero" : "early-exit-poll");
		return 0;
	}

	/* corrected sleep length, rounded to the nearest us; the smaller estimate wins */
	predicted_us = menu_timer_us(dev, data);
	typical_us = get_typical_interval_one_sided(dev, data, true, predicted_us);
	if (typical_us < predicted_us)
		rule = "typical-interval";
	predicted_ns = (u64)min(predicted_us, typical_us) * NSEC_PER_USEC;
	menu_explain_prediction(dev, data, false, delta, delta_tick, typical_us);

	return menu_pick_state_6_1(drv, dev, latency_req, predicted_ns, delta_tick, nr_iowaiters,
				   stop_tick, rule);
}

static int menu_enable_device_6_6(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	menu_enable(dev, BUCKETS);
	return 0;
}

/* ==== menu@6.19 ==== */

/*
 * get_typical_interval() of v6.19: one pass gives the mean and variance of the samples strictly
 * between min_thresh and max_thresh. When the spread is too wide, the side farther from the
 * mean is cut off and the pass repeated, down to 3/4 of the samples.
 */
static unsigned int get_typical_interval_6_19(const struct cpuidle_device *dev,
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

/*
 * The state walk and the tick decision of menu_select(), the same text in the 6.12.118 file
 * and in v6.19 (the loop with the exit latency checked first, 17224c1d2574, and the polling
 * override of db86f55bf81a and 07d815701274). `rule` is the prediction's, for the log.
 */
static int menu_pick_state_6_12(struct cpuidle_driver *drv, struct cpuidle_device *dev,
				s64 latency_req, u64 predicted_ns, ktime_t delta_tick,
				bool *stop_tick, const char *rule)
{
	struct menu_device *data = menu_data(dev);
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

		if (!tick_nohz_tick_stopped(dev)) {
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

		gov_explain(dev, "predicted_ns", predicted_ns);
		gov_explain(dev, "latency_req_ns", latency_req);
		gov_explain_str(dev, "rule", "tick-stopped");
		return idx;
	}

	if (idx == -1) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "all-disabled";
	}

	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) || predicted_ns < (u64)TICK_NSEC) &&
	    !tick_nohz_tick_stopped(dev)) {
		int capped;

		*stop_tick = false;

		capped = menu_fit_delta_tick(drv, dev, idx, delta_tick);
		if (capped != idx)
			rule = "tick-retained-cap";
		idx = capped;
	}

	gov_explain(dev, "predicted_ns", predicted_ns);
	gov_explain(dev, "latency_req_ns", latency_req);
	gov_explain_str(dev, "rule", rule);
	return idx;
}


/* menu_select_6_19 - choose the state for the next idle period (v6.19 logic, ns). */
static int menu_select_6_19(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = menu_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev);
	u64 predicted_ns;
	unsigned int typical_us;
	ktime_t delta = KTIME_MAX, delta_tick;
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
	typical_us = get_typical_interval_6_19(dev, data);
	predicted_ns = typical_us * NSEC_PER_USEC;
	if (predicted_ns > RESIDENCY_THRESHOLD_NS) {
		unsigned int timer_us;

		/* sleep length, and the time to the next tick */
		delta = tick_nohz_get_sleep_length(dev, &delta_tick);
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
	menu_explain_prediction(dev, data, skipped, delta, delta_tick, typical_us);

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/*
		 * Only state 0 is possible here, so return it at once; the tick is stopped
		 * unless state 0 is a polling state.
		 */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		gov_explain(dev, "predicted_ns", predicted_ns);
		gov_explain(dev, "latency_req_ns", latency_req);
		gov_explain_str(dev, "rule", latency_req == 0 ? "latency-zero" : "early-exit-poll");
		return 0;
	}

	/*
	 * With the tick already stopped, a prediction that is too short could leave the CPU in
	 * a shallow state for a long time. Below one tick, trust the time to the next timer
	 * event instead.
	 */
	if (tick_nohz_tick_stopped(dev) && predicted_ns < (u64)TICK_NSEC) {
		predicted_ns = data->next_timer_ns;
		rule = "tick-stopped";
	}

	return menu_pick_state_6_12(drv, dev, latency_req, predicted_ns, delta_tick, stop_tick,
				    rule);
}

/*
 * menu_select_6_12 - choose the state for the next idle period: the menu.c of Debian's
 * linux-source-6.12 (6.12.118). Against v6.19: get_typical_interval() is still the one-sided
 * version of v6.6 (get_typical_interval_6_6()), and the stable branch carries 80606f4eb8d7
 * ("Always check timers with tick stopped", which mainline took only for 7.0): with the tick
 * already stopped, the sleep length is read whatever the typical interval, and a prediction
 * below a tick is replaced by it right there.
 */
static int menu_select_6_12(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct menu_device *data = menu_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev);
	u64 predicted_ns;
	unsigned int typical_us;
	ktime_t delta = KTIME_MAX, delta_tick;
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
	if (predicted_ns > RESIDENCY_THRESHOLD_NS || tick_nohz_tick_stopped(dev)) {
		unsigned int timer_us;

		delta = tick_nohz_get_sleep_length(dev, &delta_tick);
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
		if (tick_nohz_tick_stopped(dev) && predicted_ns < (u64)TICK_NSEC) {
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
	menu_explain_prediction(dev, data, skipped, delta, delta_tick, typical_us);

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/* Only state 0 is possible: the tick stops unless it polls. */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		gov_explain(dev, "predicted_ns", predicted_ns);
		gov_explain(dev, "latency_req_ns", latency_req);
		gov_explain_str(dev, "rule", latency_req == 0 ? "latency-zero" : "early-exit-poll");
		return 0;
	}

	return menu_pick_state_6_12(drv, dev, latency_req, predicted_ns, delta_tick, stop_tick,
				    rule);
}

static int menu_enable_device_6_19(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	menu_enable(dev, BUCKETS_6_12);
	return 0;
}

/* ==== tunables and the governor objects ==== */

/*
 * The first five tunables are the same in every version (P_DECAY .. P_RATIO_SQ), with safe
 * ranges: decay >= 1 and resolution >= 1 (divisors), RESOLUTION * DECAY <= 2^26 so the
 * factors and their products stay in u32/u64, ratio_sq >= 1 (U64_MAX / ratio_sq).
 */
static const struct gov_param menu_params_4_18[] = {
	/* resolution * max_interesting_us < 2^32: the unsigned int arithmetic of v4.18 */
	{"decay", 8, 1, 1024, "DECAY: correction factors keep (decay - 1) / decay of their value"},
	{"resolution", 1024, 1, 4096, "RESOLUTION: fixed-point unit of correction factors"},
	{"max_interesting_us", 50000, 1, 1000000,
	 "MAX_INTERESTING: idle at least this long counts as a perfect prediction"},
	{"variance_max", 400, 0, 1000000000000LL,
	 "typical interval accepted if its variance (us^2) is at most this"},
	{"ratio_sq", 36, 1, 1000000,
	 "typical interval accepted if avg^2 > ratio_sq * variance (with >= 6 samples)"},
	{"poll_threshold_us", 20, 0, 1000000,
	 "skip POLL when the next timer is beyond max(this, C1 target residency)"},
	{"iowait_factor", 10, 0, 100, "performance multiplier: added per iowait task"},
	{"load_factor", 2, 0, 100, "performance multiplier: times get_loadavg() (load x 10)"},
};

static const struct gov_param menu_params_6_6[] = {
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

static const struct gov_param menu_params_6_19[] = {
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

const struct cpuidle_governor gov_menu_4_18 = {
	.name = "menu@4.18",
	.rating = 20,
	.summary = "menu of Linux v4.18: us, iowait buckets, load+iowait multiplier",
	.priv_size = sizeof(struct menu_device),
	.params = menu_params_4_18,
	.nr_params = ARRAY_SIZE(menu_params_4_18),
	.enable = menu_enable_device_4_18,
	.select = menu_select_4_18,
	.reflect = menu_reflect_4_18,
};

const struct cpuidle_governor gov_menu_6_1 = {
	.name = "menu@6.1",
	.rating = 20,
	.summary = "menu of Debian's 6.1.192: ns, sleep length first, iowait buckets and multiplier",
	.priv_size = sizeof(struct menu_device),
	.params = menu_params_6_6, /* residency_threshold_us has no effect in 6.1 */
	.nr_params = ARRAY_SIZE(menu_params_6_6),
	.enable = menu_enable_device_6_6,
	.select = menu_select_6_1,
	.reflect = menu_reflect,
};

const struct cpuidle_governor gov_menu_6_6 = {
	.name = "menu@6.6",
	.rating = 20,
	.summary = "menu of Linux v6.6-v6.11: ns, typical interval first, iowait multiplier",
	.priv_size = sizeof(struct menu_device),
	.params = menu_params_6_6,
	.nr_params = ARRAY_SIZE(menu_params_6_6),
	.enable = menu_enable_device_6_6,
	.select = menu_select_6_6,
	.reflect = menu_reflect,
};

const struct cpuidle_governor gov_menu_6_12 = {
	.name = "menu@6.12",
	.rating = 20,
	.summary = "menu of Debian's 6.12.118: no iowait, one-sided outliers, timers with tick stopped",
	.priv_size = sizeof(struct menu_device),
	.params = menu_params_6_19,
	.nr_params = ARRAY_SIZE(menu_params_6_19),
	.enable = menu_enable_device_6_19,
	.select = menu_select_6_12,
	.reflect = menu_reflect,
};

const struct cpuidle_governor gov_menu_6_19 = {
	.name = "menu@6.19",
	.rating = 20,
	.summary = "menu of Linux v6.19: no iowait, two-sided outliers, polling threshold",
	.priv_size = sizeof(struct menu_device),
	.params = menu_params_6_19,
	.nr_params = ARRAY_SIZE(menu_params_6_19),
	.enable = menu_enable_device_6_19,
	.select = menu_select_6_19,
	.reflect = menu_reflect,
};
