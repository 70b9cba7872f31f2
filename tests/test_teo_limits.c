// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_teo_limits.c - what limits the TEO governor's choice, in its versions (teo@5.1,
 * teo@5.10, teo@5.14, teo@6.19): when 6.19 skips the sleep length, and its tick wakeups; the
 * PM QoS latency constraint; the tick, kept or already stopped, and delta_tick; POLL's time
 * limit; disabled states. Every expectation is computed by hand, as in tests/test_teo.c,
 * whose header gives the machine (skl, HZ 250), the bins and the defaults.
 */
#include "tests/teotest.h"

static struct harness hB;

/* ======================================================================================
 * teo@6.19: the sleep length skipped, and tick wakeups
 * ====================================================================================== */

/*
 * teo@6.19 (harness): when the sleep length is read, and tick wakeups.
 * (a) Only POLL and C1 enabled, candidate C1 (2 us < RESIDENCY_THRESHOLD_NS 15 us). The
 *     first select skips the sleep length (2 * 0 >= 0). Then C1 is left after 5 us
 *     (residency 5 us; measured 5 - 2/2 = 4 us < 15 us -> short_idles 1024; the wakeup is
 *     classified against sleep_length_ns KTIME_MAX: intercept in the C1 bin; total 1024):
 *     2 * 1024 >= 1024 -> skipped again. After 100 us instead (measured 99 us, not short):
 *     2 * 0 >= 1024 fails and the QoS limit is none -> the sleep length is read (timer at
 *     10 ms: 9.8 ms at the select at 200 us). With a 5 us QoS limit (< LATENCY_THRESHOLD_NS
 *     7.5 us; C1's 2 us exit still meets it) it is skipped again.
 * (b) All states enabled, timer 10 ms away: C10. Woken by the tick at 4 ms (residency 4 ms
 *     + 890 us, got_tick): total_tick = 1024, total = 0 + 1024, 3 * 1024 > 2 * 1024 -> a hit
 *     on the deepest bin, nothing else: idx_intercept_sum 0, idx_hit_sum 0 (bins 0..7),
 *     tick_intercepts 0. The same wakeup without got_tick: measured 4.89 ms - 445 us =
 *     4.445 ms -> C8 bin, timer bin C10: an intercept (idx_intercept_sum 1024), not a tick
 *     intercept (4.445 ms > TICK_NSEC).
 */
static void test_6_19_sleep_length_skip_and_tick_wakeups(void **state)
{
	const uint32_t mask = 0x1ff & ~((1u << POLL) | (1u << C1));
	bool stop;
	int i, v;

	(void)state;
	for (v = 0; v < 3; v++) {
		h_init(&hA, gov_find("teo@6.19"));
		for (i = 0; i < 9; i++)
			if (mask & (1u << i))
				hA.dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
		if (v == 2)
			hA.dev.env.latency_req_ns = 5 * US;
		assert_int_equal(h_select(&hA, 0, 10 * MS, false, &stop), C1);
		assert_false(stop);
		assert_string_equal(exs(&hA.ex, "sleep_length_ns"), "skipped");
		h_reflect(&hA, v == 0 ? 5 * US : 100 * US, C1, v == 0 ? 5 * US : 100 * US, false,
			  false);
		assert_int_equal(h_select(&hA, 200 * US, 10 * MS, false, &stop), C1);
		assert_false(stop);
		assert_int_equal(exv(&hA.ex, "total"), 1024);
		assert_int_equal(exv(&hA.ex, "short_idles"), v == 0 ? 1024 : 0);
		if (v == 1)
			assert_int_equal(exv(&hA.ex, "sleep_length_ns"), 9800 * US);
		else
			assert_string_equal(exs(&hA.ex, "sleep_length_ns"), "skipped");
	}

	for (v = 0; v < 2; v++) {
		h_init(&hA, gov_find("teo@6.19"));
		assert_int_equal(h_select(&hA, 0, 10 * MS, false, &stop), C10);
		h_reflect(&hA, 4890 * US, C10, 4890 * US, false, v == 0);
		h_select(&hA, 5 * MS, 15 * MS, false, &stop);
		assert_int_equal(exv(&hA.ex, "total"), 1024);
		assert_int_equal(exv(&hA.ex, "idx_hit_sum"), 0);
		assert_int_equal(exv(&hA.ex, "idx_intercept_sum"), v == 0 ? 0 : 1024);
	}
	/* (b) with got_tick: nothing but the deepest bin's hit -> C10 with the tick stopped. */
	h_init(&hA, gov_find("teo@6.19"));
	h_select(&hA, 0, 10 * MS, false, &stop);
	h_reflect(&hA, 4890 * US, C10, 4890 * US, false, true);
	assert_int_equal(h_select(&hA, 5 * MS, 15 * MS, false, &stop), C10);
	assert_true(stop);
	assert_int_equal(exv(&hA.ex, "tick_intercepts"), 0);
}

/* ======================================================================================
 * Latency constraint
 * ====================================================================================== */

/*
 * One 10 ms timer period at 1 ms (next tick 4 ms), PM QoS limit 100 us: C6 (85 us) is the
 * deepest state that meets it, C7s (124 us) is the first that does not.
 * teo@5.1: the walk reaches C7s (800 <= 10000) with exit 124 > 100: duration = C6's 200 us,
 *   "goto refine" (no hits/misses test); no pattern -> C6; 200 < TICK_USEC: tick kept.
 * teo@5.10: the walk goes on to C10 (every target residency <= 10,000,000 ns); C7s is the
 *   first state with exit latency 124,000 > 100,000 ns, so constraint_idx = C7s (5), not
 *   raised by C8 (200 us) since constraint_idx > i fails. Candidate C10 (idx 8) with hits 0
 *   <= misses 0, but no early hits anywhere (max_early_idx -1): no change, duration 10 ms.
 *   constraint_idx 5 < 8 -> C7s: the first state OVER the limit (up to v5.13).
 *   Pattern: all 8 intervals U64_MAX >= 10 ms: count 0. C7s does not poll and 10 ms >=
 *   TICK_NSEC: the tick may be stopped.
 * teo@5.14: candidate C10, constraint_idx C6 -> C6; duration stays the sleep length
 *   (10 ms): the tick may be stopped (cab09f3d2d2a's point).
 * teo@6.19: candidate C10, constraint_idx C6 -> C6; 200 us is not shallow: sleep length
 *   read; 10 ms >= TICK -> tick may be stopped.
 */
static void test_latency_constraint(void **state)
{
	static const char *trace = HDR "idle 0 1000000 10000000 timer timer=hrtimer\n";
	struct topts o = {0};

	(void)state;
	o.latency_req_ns = 100 * US;
	o.gov = gov_find("teo@5.1");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C6);
	assert_false(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "candidate"), C6);
	assert_int_equal(exv(X(1), "expected_us"), 200);
	assert_string_equal(exs(X(1), "rule"), "latency-constraint");

	o.gov = gov_find("teo@5.10");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C7S);
	assert_true(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "candidate"), C10);
	assert_int_equal(exv(X(1), "constraint_idx"), C7S);
	assert_int_equal(exv(X(1), "max_early_idx"), -1);
	assert_int_equal(exv(X(1), "expected_ns"), 10 * MS);
	assert_string_equal(exs(X(1), "rule"), "latency-constraint");

	o.gov = gov_find("teo@5.14");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C6);
	assert_true(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "candidate"), C10);
	assert_int_equal(exv(X(1), "constraint_idx"), C6);
	assert_string_equal(exs(X(1), "rule"), "latency-constraint");

	o.gov = gov_find("teo@6.19");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C6);
	assert_true(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "constraint_idx"), C6);
	assert_string_equal(exs(X(1), "rule"), "latency-constraint");
}

/*
 * PM QoS limit 1 us with POLL disabled: no state >= 1 meets it (C1 exits in 2 us).
 * teo@5.14 and teo@6.19: constraint_idx starts at 0 and is never raised, so the result is
 * state 0 although it is disabled (the corner case of reference §3.3 step 9); 6.19 then
 * skips the sleep length (!idx, and 1 us < LATENCY_THRESHOLD_NS). Tick kept.
 * teo@5.1: the first enabled state C1 is idx when the walk reaches... C1 itself, whose exit
 * 2 us > 1 us: duration = C1's 2 us, goto refine -> C1 (the first enabled state), tick
 * kept (2 < TICK_USEC).
 */
static void test_latency_constraint_below_every_state(void **state)
{
	static const char *trace = HDR "idle 0 1000000 200000 timer timer=hrtimer\n";
	struct topts o = {0};

	(void)state;
	o.latency_req_ns = 1 * US;
	o.disabled = 1u << POLL;
	o.gov = gov_find("teo@5.14");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, POLL);
	assert_false(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "constraint_idx"), 0);

	o.gov = gov_find("teo@6.19");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, POLL);
	assert_false(D(1)->stop_tick);
	assert_string_equal(exs(X(1), "sleep_length_ns"), "skipped");

	o.gov = gov_find("teo@5.1");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C1);
	assert_false(D(1)->stop_tick);
	assert_string_equal(exs(X(1), "rule"), "latency-constraint");
}

/* ======================================================================================
 * Tick retained for a shallow choice, state capped by delta_tick
 * ====================================================================================== */

/*
 * A 1 ms timer period at 3.5 ms: sleep length 1 ms, next tick at 4 ms (delta_tick 500 us).
 * Every version finds C8 from the timer (5.1/5.14: 800 <= 1000 us; 6.19: C10 -> the timer
 * check walks down to C8); 1 ms < TICK keeps the tick; C8's 800 us > 500 us, so
 * teo_find_shallower_state(C8, 500 us): C7s (800 > 500), C6 (200 <= 500) -> C6.
 * The tick then wakes C6 at 4 ms (residency 500 + 85 us).
 */
static void test_tick_kept_capped_by_delta_tick(void **state)
{
	static const char *trace = HDR "idle 0 3500000 1000000 timer timer=hrtimer\n";
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	struct topts o = {0};
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		o.gov = g[i];
		run_release(trace, &o);
		assert_int_equal(D(1)->state, C6);
		assert_false(D(1)->stop_tick);
		assert_false(D(1)->tick_stopped_after);
		assert_string_equal(exs(X(1), "rule"), "tick");
		assert_string_equal(exs(X(1), "tick_rule"), "short-duration");
		assert_int_equal(D(1)->cause, WAKE_TICK);
		assert_int_equal(D(1)->residency_ns, 585000);
		assert_true(rlog.n >= 2); /* asked again after the tick */
	}
	assert_int_equal(exv(X(1), "timer_idx"), C8); /* 6.19, the last one run */
}

/* ======================================================================================
 * Tick already stopped (harness)
 * ====================================================================================== */

/*
 * History: select at 0 with the timer at 10 ms -> C10; it was woken by an irq after
 * 300 us: residency 1190 us, reflect at 1.19 ms. Then select at 2 ms, timer at 12 ms,
 * once with the tick running (hA) and once with it already stopped (hB).
 * teo@5.1: the update makes a miss on C10 and early_hits[C6] = 1024 (measured 745 us).
 *   Running: max_early_idx = C6 (hits 0 <= misses 1024) -> C6, expected 200 us, tick
 *   kept. Stopped: C6's 200 us < TICK_USEC is not eligible as max_early_idx while the tick
 *   is stopped -> max_early_idx -1 -> C10, stop_tick stays true.
 * teo@5.14: one intercept in the C6 bin, total 1024: 2048 > 1024 - 0 -> alternative
 *   search. Running: C6 (middle 500 us), tick kept. Stopped: teo_time_ok() needs a span
 *   >= TICK_NSEC: C9 (middle 5 ms) becomes first_suitable_idx, C8 (2.9 ms) and C7s
 *   (800 us) are not ok, and when the C6 bin satisfies the sums its 500 us is not ok
 *   either -> first_suitable_idx C9, duration 5 ms; stop_tick stays true.
 * teo@6.19: same test. Running: walk to C6; sleep 10 ms fits; but tick_intercepts (1024,
 *   745 us <= TICK_NSEC) > total/2 + total/8 = 512 + 128 -> duration TICK_NSEC/2: tick
 *   kept. Stopped: min_idx climbs from 0 while target < TICK_NSEC: C9 (5 ms) is the first ->
 *   the walk only visits C9 -> C9; sleep 10 ms fits -> C9, tick stays stopped.
 * With the tick stopped no version caps by delta_tick or clears stop_tick.
 */
static void tick_history(struct harness *h, const struct cpuidle_governor *g)
{
	bool stop;

	h_init(h, g);
	assert_int_equal(h_select(h, 0, 10 * MS, false, &stop), C10);
	h_reflect(h, 1190 * US, C10, 1190 * US, false, false);
}

static void test_tick_already_stopped(void **state)
{
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	static const int running[] = {C6, C6, C6};
	static const int stopped[] = {C10, C9, C9};
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		bool stop;

		tick_history(&hA, g[i]);
		tick_history(&hB, g[i]);
		assert_int_equal(h_select(&hA, 2 * MS, 12 * MS, false, &stop), running[i]);
		assert_false(stop);
		assert_int_equal(h_select(&hB, 2 * MS, 12 * MS, true, &stop), stopped[i]);
		assert_true(stop);
	}
	/* The 5.14 choice with the tick stopped: first_suitable span 5 ms. */
	tick_history(&hB, gov_find("teo@5.14"));
	{
		bool stop;

		h_select(&hB, 2 * MS, 12 * MS, true, &stop);
		assert_int_equal(exv(&hB.ex, "expected_ns"), 5 * MS);
		assert_int_equal(exv(&hB.ex, "alt_intercepts"), 1);
	}
	/* Without history, a 1 ms sleep length and the tick stopped: C8, tick left stopped
	 * (running, every version would keep the tick: 1 ms < TICK). */
	for (i = 0; i < 3; i++) {
		bool stop;

		h_init(&hA, g[i]);
		assert_int_equal(h_select(&hA, 0, 1 * MS, true, &stop), C8);
		assert_true(stop);
		h_init(&hA, g[i]);
		assert_int_equal(h_select(&hA, 0, 1 * MS, false, &stop), C8);
		assert_false(stop);
	}
}

/* ======================================================================================
 * POLL time-limit wakeups
 * ====================================================================================== */

/*
 * Harness: select at 0 with the timer at 3 ms (every version: C8; 6.19 reads the sleep
 * length since C10 is not shallow), then reflect as after a POLL entry ended by its time
 * limit at 20 us (poll_time_limit set, residency 20 us), then select at 20 us.
 * teo@5.1: reflect sets time_span = sleep_length (3 ms) and leaves poll_time_limit set;
 *   update: 3 ms >= 3 ms -> measured = 3000 us -> a hit on C8 (candidate again at
 *   2980 us): hits 1024, misses 0. Without the flag: time_span 20 us < 3 ms, measured 20
 *   -> idx_hit C1E (20 <= 20): a miss, misses 1024.
 * teo@5.14: reflect clears poll_time_limit, time_span = 3 ms -> U64_MAX -> hit in the C8
 *   bin: total 1024, no intercepts below C8. Without the flag: measured 20 us -> C1E bin:
 *   an intercept, idx_intercept_sum 1024.
 * teo@6.19: reflect only records tick_wakeup; teo_update() clears poll_time_limit and
 *   takes measured = S64_MAX -> hit in the C8 bin (sleep length 3 ms): idx_hit_sum over
 *   bins 0..7 = 1024. Without the flag: measured 20 us: intercept in the C1E bin.
 * teo@5.10: reflect clears poll_time_limit (5.1 does not) and sets time_span = 3 ms;
 *   update: 3 ms >= 3 ms -> measured = U64_MAX, which fits every state up to idx_timer C8:
 *   a hit, hits 1024, misses 0 (candidate C8 again at 2.98 ms, 1024 > 0: kept). Without the
 *   flag: time_span 20 us; measured = last_residency_ns 20,000 - POLL's exit 0 / 2 = 20,000
 *   ns -> idx_hit C1E (20,000 <= 20,000): a miss on C8 and early_hits[C1E] = 1024.
 * Without the flag every version then moves to C1E: 5.1 and 5.10 (hits 0 <= misses 1024,
 * max early hits on C1E; 5.10's pattern check counts no interval below C1E's 20,000 ns:
 * 20,000 is not < 20,000, the rest are U64_MAX), 5.14 (2 * 1024 > 1024 - 0: walk down to the C1E bin, middle
 * (20 + 100) / 2 = 60 us), 6.19 (the same test against candidate C10, walk stops at C1E).
 */
static void test_poll_time_limit_harness(void **state)
{
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19"),
					      gov_find("teo@5.10")};
	int i, flag;

	(void)state;
	for (i = 0; i < 4; i++) {
		for (flag = 1; flag >= 0; flag--) {
			bool stop;

			h_init(&hA, g[i]);
			assert_int_equal(h_select(&hA, 0, 3 * MS, false, &stop), C8);
			h_reflect(&hA, 20 * US, POLL, 20 * US, flag, false);
			if (i == 0)
				assert_true(hA.dev.poll_time_limit ==
					    (bool)flag); /* 5.1 keeps it */
			if (i == 1 || i == 3)
				assert_false(hA.dev.poll_time_limit); /* 5.14, 5.10 clear in reflect */
			if (i == 2)
				assert_true(hA.dev.poll_time_limit == (bool)flag);
			assert_int_equal(h_select(&hA, 20 * US, 3 * MS, false, &stop),
					 flag ? C8 : C1E);
			if (i == 2)
				assert_false(hA.dev.poll_time_limit); /* 6.19 clears in update */
			if (i == 0 || i == 3) {
				assert_int_equal(exv(&hA.ex, "hits"), flag ? 1024 : 0);
				assert_int_equal(exv(&hA.ex, "misses"), flag ? 0 : 1024);
			} else if (i == 1) {
				assert_int_equal(exv(&hA.ex, "total"), 1024);
				assert_int_equal(exv(&hA.ex, "idx_intercept_sum"), flag ? 0 : 1024);
			} else {
				assert_int_equal(exv(&hA.ex, "idx_hit_sum"), flag ? 1024 : 0);
				assert_int_equal(exv(&hA.ex, "idx_intercept_sum"), flag ? 0 : 1024);
			}
		}
	}
}

/*
 * Through the engine: PM QoS limit 1 us makes POLL the choice of 5.14/6.19 (constraint_idx
 * 0). One irq period 1.000 -> 1.050 ms with the timer 3 ms away; POLL's limit is C1E's
 * 20 us, so POLL entries end at 1.020 and 1.040 (limit) and 1.050 (irq).
 * teo@5.14: D2 and D3 count the POLL-limit wakeups as timer wakeups at the sleep length
 *   (3 ms, then 2.98 ms): hits in the C8 bin -> total 1024, then 1024 - 128 + 1024 = 1920;
 *   with candidate C8 no sum below it.
 * teo@6.19: D1 skips the sleep length (constraint -> state 0, 1 us < 7.5 us): sleep_length
 *   stays KTIME_MAX, so D2 classifies measured = S64_MAX against KTIME_MAX: hit in the
 *   deepest bin (C10), outside the sums for candidate C10 -> idx_hit_sum 0, total 1024;
 *   D3 total 1920.
 * teo@5.1: POLL each time (the latency break at C1 sets duration = POLL's 0 us).
 */
static void test_poll_time_limit_trace(void **state)
{
	static const char *trace = HDR "idle 0 1000000 50000 irq next_timer=3000000 timer=hrtimer\n";
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	struct run_stats rs;
	struct topts o = {0};
	int i, k;

	(void)state;
	o.latency_req_ns = 1 * US;
	for (i = 0; i < 3; i++) {
		o.gov = g[i];
		run_trace(trace, &o, &rs);
		assert_int_equal(rlog.n, 3);
		for (k = 1; k <= 3; k++) {
			assert_int_equal(D(k)->state, POLL);
			assert_false(D(k)->stop_tick);
		}
		assert_int_equal(D(1)->cause, WAKE_POLL);
		assert_int_equal(D(2)->cause, WAKE_POLL);
		assert_int_equal(D(3)->cause, WAKE_IRQ);
		assert_int_equal(rs.total.wakeups[WAKE_POLL], 2);
		run_stats_release(&rs);
		if (i == 1) {
			assert_int_equal(exv(X(2), "candidate"), C8);
			assert_int_equal(exv(X(2), "total"), 1024);
			assert_int_equal(exv(X(2), "idx_intercept_sum"), 0);
			assert_int_equal(exv(X(3), "total"), 1920);
		}
		if (i == 2) {
			assert_string_equal(exs(X(1), "sleep_length_ns"), "skipped");
			assert_int_equal(exv(X(2), "total"), 1024);
			assert_int_equal(exv(X(2), "idx_hit_sum"), 0);
			assert_int_equal(exv(X(2), "idx_intercept_sum"), 0);
			assert_int_equal(exv(X(3), "total"), 1920);
		}
	}
}

/* ======================================================================================
 * Disabled states
 * ====================================================================================== */

/*
 * Inside the range: C8 disabled, 1 ms timer at 0.5 ms. 5.1/5.14: the walk stops at C9
 * (5000 > 1000) with C7s (800) as the deepest enabled fitting state; 6.19: the timer check
 * walks C9 -> (C8 disabled) -> C7s. Every version: C7s, tick kept (1 ms < TICK).
 * Below the candidate: POLL and C1 disabled, a 10 us timer: 5.1 and 5.14 take the first
 * enabled state C1E although its 20 us > 10 us (5.14: idx == idx0, "goto end"; 5.1: the
 * first enabled state is idx before the residency break); 6.19's timer check walks down to
 * C1E (no enabled state fits; teo_find_shallower_state returns the shallowest enabled one).
 */
static void test_disabled_states(void **state)
{
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	struct topts o = {0};
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		o.gov = g[i];
		o.disabled = 1u << C8;
		run_release(HDR "idle 0 500000 1000000 timer timer=hrtimer\n", &o);
		assert_int_equal(D(1)->state, C7S);
		assert_false(D(1)->stop_tick);

		o.disabled = (1u << POLL) | (1u << C1);
		run_release(HDR "idle 0 500000 10000 timer timer=hrtimer\n", &o);
		assert_int_equal(D(1)->state, C1E);
		assert_false(D(1)->stop_tick);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_6_19_sleep_length_skip_and_tick_wakeups),
		cmocka_unit_test(test_latency_constraint),
		cmocka_unit_test(test_latency_constraint_below_every_state),
		cmocka_unit_test(test_tick_kept_capped_by_delta_tick),
		cmocka_unit_test(test_tick_already_stopped),
		cmocka_unit_test(test_poll_time_limit_harness),
		cmocka_unit_test(test_poll_time_limit_trace),
		cmocka_unit_test(test_disabled_states),
	};

	(void)gov_scripted;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
