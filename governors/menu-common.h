// SPDX-License-Identifier: GPL-2.0-only
/*
 * menu-common.h - what the menu ports (menu-4.18.c, menu-5.4.c, menu-6.1.c, menu-6.6.c,
 * menu-6.12.c, menu-6.19.c) share: struct menu_device, the tunables, and the helpers whose logic two or
 * more releases have in common (the functions themselves are in menu-common.c).
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
 * DOC: Layout
 *
 * One file per modelled release, with the kernel's names, constants, integer types and
 * truncation, compiled against the kernel-compatibility headers (kcompat/include) with the
 * kernel's signatures, and registered by cpuidle_register_governor() in an initcall. Where releases share logic (the ns-era menu_update() and menu_reflect(), the
 * selection loop shared by 6.1 and 6.6 and the one shared by 6.12 and 6.19, the one-sided
 * get_typical_interval() of 6.1/6.6/6.12), it lives once in menu-common.c with a version
 * suffix naming the first release that has it. The tuning constants are tunables
 * (idlesim_tunable(), idlesim/gov.h), read only through the macros below named like the kernel constants
 * (DECAY, RESOLUTION, MAX_INTERESTING, ...), which need a `dev` in scope as TICK_NSEC does.
 * INTERVALS stays a compile-time array size. The per-CPU state is menu_devices, defined here
 * because the shared helpers reach it too (this_cpu_ptr(), as the kernel's menu does).
 *
 *
 * DOC: Decision log (idlesim run --explain)
 *
 * Emitted once per decision, on each way out of menu_select(), like a tracepoint: the logic
 * records what the log needs in a struct menu_trace (menu_trace_prediction() once the
 * prediction is made, the multiplier where it is computed), and menu_trace_select() emits
 * every key, in the order each release's log has always had. menu@4.18 has its own
 * menu_trace_select() with its own keys.
 *
 * sleep_length_ns (after the clamp; -1 = no timer) or sleep_length = "skipped";
 * delta_tick_ns; bucket; correction_factor (of that bucket, as used); typical_interval_us
 * (-1 = UINT_MAX, no prediction) and typical_samples (samples kept, 0 when UINT_MAX);
 * predicted_ns (after every adjustment, as the loop used it); latency_req_ns (after the
 * performance multiplier); nr_iowait, loadavg (get_loadavg(): load x 10) and perf_mult where
 * the version has them; first_idx (4.18); rule, one of:
 *   latency-zero      PM QoS limit of 0: state 0
 *   early-exit-poll   (5.4, >= 6.1) state 0 used no matter what (next timer or latency limit
 *                     below state 1, or a single state)
 *   typical-interval  the deepest state fitting a prediction given by the typical interval
 *   timer             ... given by the corrected sleep length
 *   tick-stopped      the tick was already stopped and a short prediction was replaced by
 *                     the time to the next timer (or the stopped-tick return of the loop)
 *   interactivity     the loop stopped at the latency limit set by the performance
 *                     multiplier
 *   latency           the loop stopped at the PM QoS latency limit
 *   polling-override  (5.4, >= 6.1) a real state instead of POLL for a short prediction
 *   retain-tick       (5.4, >= 6.1) the tick runs and the prediction is beyond a tick, but the
 *                     next state is too deep: the shallow one is kept with the tick running
 *   tick-retained-cap the tick is kept and the state was lowered to fit delta_tick
 *   all-disabled      no state enabled: state 0
 *
 * DOC: Known deviations shared by the ports (each file lists its own)
 *
 *  - No timer at all: the engine reports a sleep length of KTIME_MAX, which the kernel never
 *    returns (tick_nohz_next_event() is bounded by the clock-event device's maximum
 *    deferment). Where the kernel arithmetic would then wrap - next_timer_us =
 *    ktime_to_us() in 4.18, next_timer_ns * correction_factor and the unsigned int
 *    timer_us in 6.x - the value saturates at UINT_MAX us instead, so that sleep-length term
 *    simply does not constrain the prediction (menu@5.4 keeps the kernel's truncated
 *    unsigned int instead, 2783138807 us). Finite sleep lengths use the kernel
 *    arithmetic unchanged (with the default tunables, no intermediate overflows below about
 *    26 days).
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
 *  - The POLL time limit is the engine's (the >= v5.11 rule, 20 us on skl).
 *  - What the engine does not produce cannot happen here: no driver rejections or
 *    need_resched aborts, so 6.19's UINT_MAX record is only made at the very first select
 *    after enable (which the kernel does too); the sleep length is never negative. Those
 *    paths are tested by calling select() directly. The tick can already be stopped when
 *    menu selects: after a wakeup that brings no task (resched=0: a timer or interrupt
 *    whose handler wakes nobody) the idle loop goes on with the tick stopped, as in the
 *    kernel; tests/test_replay.c reaches those branches through replays.
 */
#ifndef IDLESIM_GOVERNORS_MENU_COMMON_H
#define IDLESIM_GOVERNORS_MENU_COMMON_H

#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <idlesim/gov.h>

#define BUCKETS 12     /* <= v6.11; also the array size */
#define BUCKETS_6_12 6 /* >= v6.12 (38f83090f515) */
#define INTERVAL_SHIFT 3
#define INTERVALS (1UL << INTERVAL_SHIFT)

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
	/* 5.4 */
	P_IOWAIT_FACTOR_5_4 = P_VERSION_SPECIFIC,
};

#define PARAM(i) idlesim_tunable(dev, (i))
#define DECAY ((unsigned int)PARAM(P_DECAY))
#define RESOLUTION ((unsigned int)PARAM(P_RESOLUTION))
#define MAX_INTERESTING ((u64)PARAM(P_MAX_INTERESTING) * NSEC_PER_USEC) /* >= v5.5, ns */
#define MAX_INTERESTING_US ((unsigned int)PARAM(P_MAX_INTERESTING))	/* v4.18, us */
#define VARIANCE_MAX ((u64)PARAM(P_VARIANCE_MAX))			/* 400 us^2 */
#define RATIO_SQ ((u64)PARAM(P_RATIO_SQ))				/* 36 = 6^2 */
#define RESIDENCY_THRESHOLD_NS ((u64)PARAM(P_RESIDENCY_THRESHOLD) * NSEC_PER_USEC)
#define POLLING_THRESHOLD_US ((unsigned int)PARAM(P_POLL_THRESHOLD)) /* v4.18: 20 */
#define IOWAIT_FACTOR ((int)PARAM(P_IOWAIT_FACTOR))		     /* 10 */
#define IOWAIT_FACTOR_5_4 ((int)PARAM(P_IOWAIT_FACTOR_5_4))	     /* 10 */

/*
 * The first five tunables of the us-era ports (4.18, 5.4), with safe ranges: decay >= 1 and
 * resolution >= 1 (divisors), RESOLUTION * DECAY <= 2^26 so the factors and their products
 * stay in u32/u64, resolution * max_interesting_us < 2^32 (the unsigned int arithmetic of
 * menu_update_us()), ratio_sq >= 1 (U64_MAX / ratio_sq).
 */
#define MENU_PARAMS_US                                                                             \
	{"decay", 8, 1, 1024, "DECAY: correction factors keep (decay - 1) / decay of their value"}, \
	{"resolution", 1024, 1, 4096, "RESOLUTION: fixed-point unit of correction factors"},      \
	{"max_interesting_us", 50000, 1, 1000000,                                                  \
	 "MAX_INTERESTING: idle at least this long counts as a perfect prediction"},               \
	{"variance_max", 400, 0, 1000000000000LL,                                                  \
	 "typical interval accepted if its variance (us^2) is at most this"},                      \
	{"ratio_sq", 36, 1, 1000000,                                                               \
	 "typical interval accepted if avg^2 > ratio_sq * variance (with >= 6 samples)"}
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

/* Each menu port's per-CPU data (a built-in port has exactly one per-CPU variable). */
static DEFINE_PER_CPU(struct menu_device, menu_devices);

static inline long long us_or_none(unsigned int us)
{
	return us == UINT_MAX ? -1 : (long long)us;
}

static inline long long ns_or_none(s64 ns)
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

static inline void menu_update_intervals(struct menu_device *data, unsigned int interval_us)
{
	/* Store the sample in the ring of the last INTERVALS idle durations. */
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= (int)INTERVALS)
		data->interval_ptr = 0;
}

/* ---- the us era (4.18, 5.4): what the cpuidle core of the time gave a governor ---- */

/* cpuidle_enter_state() of the us era: dev->last_residency, int us (truncated, capped). */
static inline int cpuidle_get_last_residency(const struct cpuidle_device *dev)
{
	s64 us = ktime_to_us(dev->last_residency_ns);

	return us > INT_MAX ? INT_MAX : (int)us;
}

/* The PM QoS limit as the int latency_req of the us era (cpuidle_governor_latency_req()). */
static inline int latency_req_us(const struct cpuidle_device *dev)
{
	s64 us = cpuidle_governor_latency_req(dev->cpu) / NSEC_PER_USEC;

	return us > INT_MAX ? INT_MAX : (int)us;
}

/* ---- in menu-common.c: used by every release ---- */

unsigned int menu_timer_us(const struct cpuidle_device *dev, const struct menu_device *data);

void menu_enable(struct cpuidle_device *dev, unsigned int buckets);

int menu_fit_delta_tick(struct cpuidle_driver *drv, struct cpuidle_device *dev, int idx,
			       s64 delta_tick);

bool typical_accept(const struct cpuidle_device *dev, uint64_t sum, uint64_t sum_sq,
			   int divisor, unsigned int *avg_out);

/* The decision log's prediction keys after the sleep length, the same in every release. */
void menu_explain_inputs(struct cpuidle_device *dev, const struct menu_device *data,
			 ktime_t delta_tick, unsigned int typical_us);

/*
 * The us era's walk down to a state within delta_next when the tick is kept (4.18, 5.4):
 * if the target residency of *idx exceeds delta_next_us, step down to the first enabled
 * state that fits (or the shallowest enabled one) and return true.
 */
bool menu_fit_delta_next_us(struct cpuidle_driver *drv, struct cpuidle_device *dev, int *idx,
			    unsigned int delta_next_us);

/*
 * menu_update() of the us era (4.18 and 5.4 share its text): last_idx is the state entered
 * (data->last_state_idx in 4.18, dev->last_state_idx in 5.4); v5_4 adds the POLL time-limit
 * rule, which came between the two.
 */
void menu_update_us(struct cpuidle_driver *drv, struct cpuidle_device *dev, int last_idx,
		    bool v5_4);

#ifndef MENU_V4_18
/* ---- in menu-common.c: the ns era (6.1 and later) ---- */

#ifndef MENU_V5_4 /* 5.4 has its own us menu_update() and performance_multiplier() */
void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev);
#endif

/* Also 5.4's: the text has not changed since v5.3 (dev->last_state_idx). */
void menu_reflect(struct cpuidle_device *dev, int index);

/*
 * What the decision log of a 6.x menu_select() needs beyond the values passed to
 * menu_trace_select(): which keys exist (how far the selection got) and the values decided
 * on the way. Filled by the logic, emitted once on each way out.
 */
struct menu_trace {
	bool predicted;	      /* the prediction was made: its keys exist */
	bool skipped;	      /* the sleep length was not read */
	bool has_iowait;      /* 6.1, 6.6: nr_iowait */
	bool iowait_first;    /* 6.1 logs nr_iowait before the prediction, 6.6 after it */
	bool has_mult;	      /* the performance multiplier was computed (tick running) */
	bool no_predicted_ns; /* 6.1's early exit logs no predicted_ns */
	ktime_t delta, delta_tick;
	unsigned int typical_us;
	unsigned int nr_iowait;
	int perf_mult;
};

/* The prediction's inputs, for the log. */
static inline void menu_trace_prediction(struct menu_trace *tr, bool skipped, ktime_t delta,
					 ktime_t delta_tick, unsigned int typical_us)
{
	tr->predicted = true;
	tr->skipped = skipped;
	tr->delta = delta;
	tr->delta_tick = delta_tick;
	tr->typical_us = typical_us;
}

int menu_trace_select(struct cpuidle_device *dev, const struct menu_trace *tr, int idx,
		      long long predicted_ns, long long latency_req_ns, const char *rule);

#ifndef MENU_V5_4
int performance_multiplier(const struct cpuidle_device *dev,
					 unsigned int nr_iowaiters);
#endif

unsigned int get_typical_interval_one_sided(const struct cpuidle_device *dev,
						   struct menu_device *data, bool v6_1,
						   unsigned int predicted_us);

unsigned int get_typical_interval_6_6(const struct cpuidle_device *dev,
					     struct menu_device *data);

int menu_pick_state_6_1(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			       s64 latency_req, u64 predicted_ns, ktime_t delta_tick,
			       unsigned int nr_iowaiters, bool *stop_tick, const char *rule,
			       struct menu_trace *tr);

int menu_enable_device_6_6(struct cpuidle_driver *drv, struct cpuidle_device *dev);

int menu_pick_state_6_12(struct cpuidle_driver *drv, struct cpuidle_device *dev,
				s64 latency_req, u64 predicted_ns, ktime_t delta_tick,
				bool *stop_tick, const char *rule, const struct menu_trace *tr);

int menu_enable_device_6_19(struct cpuidle_driver *drv, struct cpuidle_device *dev);

/* The tunables of 6.1/6.6 and of 6.12/6.19. */
extern const struct gov_param menu_params_6_6[7];
extern const struct gov_param menu_params_6_19[6];
#endif

#endif
