// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_teo.c - the TEO governor in its versions (teo@5.1, teo@5.10, teo@5.14, teo@6.19; teo@6.12
 * in test_kgov's lockstep): its first decision, hits and intercepts, their decay, its tunables,
 * 5.14's recent intercepts and 5.1's interval ring. What limits its choice (latency, the tick,
 * POLL's time limit, disabled states): tests/test_teo_limits.c; its behaviour on generated
 * workloads: tests/test_teo_behaviour.c.
 *
 * Every expectation is computed by hand from the kernel rules (governors/teo-*.c essays, reference
 * §3); the arithmetic is in the comments. Machine skl (intel_idle skl_cstates), HZ 250, so
 * TICK_NSEC = 4,000,000 ns (ticks at multiples of 4 ms) and TICK_USEC = 4000. skl states,
 * exit latency / target residency in us:
 *   0 POLL 0/0, 1 C1 2/2, 2 C1E 10/20, 3 C3 70/100, 4 C6 85/200, 5 C7s 124/800,
 *   6 C8 200/800, 7 C9 480/5000, 8 C10 890/5000.
 * Bins (5.14, 6.19): bin i = [target_residency(i), target_residency(i+1)); the timer
 * candidate for a sleep length in [800 us, 5 ms) is C8 (6), for >= 5 ms C10 (8).
 * Defaults: PULSE 1024, DECAY_SHIFT 3 (x -= x >> 3), no PM QoS limit.
 *
 * Two ways in: traces replayed through the engine (the decisions and the governor's own
 * decision log, gov_explain), and a small harness that calls select()/reflect() directly
 * for the situations a trace cannot produce with teo alone (the tick already stopped at
 * select time: with teo it is never stopped while a polling state is chosen, so no select
 * ever runs with it stopped in the engine).
 */
#include "tests/teotest.h"

/* ======================================================================================
 * First decision after enable
 * ====================================================================================== */

/*
 * Trace: a 10 ms timer period at 1 ms (woken at 11 ms; C10's exit 890 us, ready 11.89 ms),
 * then a timer period recorded 12 ms -> 12.891 ms. Work is conserved: the CPU runs 890 us
 * behind the trace after C10, so P2 is entered at 12.89 ms with a sleep length of 1 us (a
 * recorded 1 us period would be absorbed: its wakeup at 12.001 ms precedes the entry).
 *
 * teo@5.1: enable() memsets the data, so last_state == 0 and the first select() runs
 * teo_update() on nothing: time_span_ns (0) >= sleep_length_ns (0) -> measured_us =
 * sleep_length_us = 0; idx_timer = idx_hit = 0 (only POLL has target residency <= 0) ->
 * hits[0] = 0 - 0 + 1024 = 1024; intervals[0] = UINT_MAX.
 *   D1: duration 10000 us -> candidate C10 (5000 <= 10000); no early hits, max_early_idx
 *       -1; pattern: every interval is UINT_MAX -> count 0; 10000 >= TICK_USEC: stop tick.
 *   D2: update of D1: time_span = 11.89 ms - 1 ms = 10,890,000 >= 10,000,000 -> a timer
 *       wakeup on C10 (hits[8] = 1024; hits[0] is not touched, hits only decay at
 *       idx_timer). Select: duration 1 us -> candidate POLL (C1's 2 us > 1 us), whose
 *       hits == 1024 come from the phantom update alone.
 * teo@5.14: dev->last_state_idx is -1: no update; total 0 so alt_intercepts is 0 > 0 - 0,
 *       false -> C10 with the tick stopped.
 * teo@6.19: total == short_idles == 0: the intercepts test 2*0 > 0 - 0 fails; candidate
 *       C10 is not shallow, so the sleep length is read -> C10, tick stopped.
 */
static void test_first_decision_after_enable(void **state)
{
	static const char *trace =
		HDR "idle 0 1000000 10000000 timer timer=hrtimer\nidle 0 12000000 891000 timer timer=hrtimer\n";
	struct topts o = {0};

	(void)state;
	o.gov = gov_find("teo@5.1");
	run_release(trace, &o);
	assert_int_equal(rlog.n, 2);
	assert_int_equal(D(1)->state, C10);
	assert_true(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "candidate"), C10);
	assert_int_equal(exv(X(1), "hits"), 0);
	assert_int_equal(exv(X(1), "max_early_idx"), -1);
	assert_int_equal(exv(X(1), "pattern_count"), 0);
	assert_string_equal(exs(X(1), "rule"), "timer");
	assert_int_equal(D(2)->state, POLL);
	assert_false(D(2)->stop_tick); /* polling state, 1 us < TICK_USEC */
	assert_int_equal(exv(X(2), "candidate"), POLL);
	assert_int_equal(exv(X(2), "hits"), 1024); /* the phantom first update */
	assert_int_equal(exv(X(2), "misses"), 0);

	/* 12.891 ms - 12.89 ms */
	assert_int_equal(exv(X(2), "duration_us"), 1);

	o.gov = gov_find("teo@5.14");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C10);
	assert_true(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "total"), 0);
	assert_int_equal(exv(X(1), "alt_intercepts"), 0);
	assert_int_equal(exv(X(1), "sleep_length_ns"), 10 * MS);
	/* D2: 1 us < C1's 2 us with POLL enabled: POLL at once, tick kept. */
	assert_int_equal(exv(X(2), "sleep_length_ns"), 1000);
	assert_int_equal(D(2)->state, POLL);
	assert_false(D(2)->stop_tick);

	o.gov = gov_find("teo@6.19");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C10);
	assert_true(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "candidate"), C10);
	assert_int_equal(exv(X(1), "total"), 0);
	assert_int_equal(exv(X(1), "short_idles"), 0);
	assert_int_equal(exv(X(1), "sleep_length_ns"), 10 * MS);
}

/*
 * teo@6.19, first decision with a shallow candidate: only POLL and C1 enabled. The
 * candidate is C1 (the deepest enabled state), idx0 = 0; target residency 2 us < 15 us and
 * 2 * short_idles (0) >= total (0): the sleep length is not read ("skipped"), the tick is
 * kept, sleep_length_ns stays KTIME_MAX. teo@5.14 reads it: 10 ms -> C1, tick stopped.
 */
static void test_first_decision_6_19_skips_sleep_length(void **state)
{
	static const char *trace = HDR "idle 0 1000000 2000000 timer timer=hrtimer\n";
	struct topts o = {0};

	(void)state;
	o.disabled = 0x1ff & ~((1u << POLL) | (1u << C1));
	o.gov = gov_find("teo@6.19");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C1);
	assert_false(D(1)->stop_tick);
	assert_string_equal(exs(X(1), "sleep_length_ns"), "skipped");
	assert_string_equal(exs(X(1), "tick_rule"), "sleep-length-skipped");
	assert_int_equal(rlog.n, 1); /* the timer at 3 ms wakes C1 before the tick at 4 ms */

	o.gov = gov_find("teo@5.14");
	run_release(trace, &o);
	/* 2 ms sleep length: candidate C1 (idx0 is POLL); the intercepts test runs on
	 * zeros; duration 2 ms < TICK_NSEC keeps the tick. */
	assert_int_equal(D(1)->state, C1);
	assert_false(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "sleep_length_ns"), 2 * MS);
}

/* ======================================================================================
 * A hit: a timer wakeup in the timer's bin
 * ====================================================================================== */

/*
 * P1: 0.5 ms -> 1.5 ms timer (1 ms sleep length; next tick 4 ms, delta_tick 3.5 ms);
 * P2: 4.5 -> 5.5 ms timer; P3: 8.5 ms, 10 ms timer.
 * D1: candidate C8 (800 <= 1000 us < 5000); 1 ms < TICK: tick kept; 800 us <= 3.5 ms, no
 *     cap -> C8. Woken by the timer: residency 1 ms + 200 us exit = 1.2 ms: a hit for the
 *     engine too (>= 800 us; 1.0 ms < C9's 5 ms).
 * teo@5.1 D2: time_span = 1.7 ms - 0.5 ms = 1.2 ms >= 1 ms: measured = 1000 us, idx_timer
 *     = idx_hit = C8 -> hits[C8] = 1024, misses 0.
 * teo@5.14 D2: time_span 1.2 ms >= sleep 1 ms -> measured U64_MAX -> hit in bin C8;
 *     total = 0 + 1024. With candidate C8 the sums over bins 0..5 are 0 -> C8 again.
 *     D3: H(C8) = 1024 - 128 + 1024 = 1920 = total; candidate C10: idx_hit_sum over bins
 *     0..7 = 1920, no intercepts -> C10.
 * teo@6.19 D2: measured = 1.2 ms - 200/2 us = 1.1 ms; sleep 1 ms: idx_timer = idx_duration
 *     = C8 -> hit; total 1024; candidate C10, idx_hit_sum (bins 0..7) = 1024 -> no
 *     intercepts majority -> sleep 1 ms -> C8. D3: 1920 as for 5.14.
 */
static void test_hit(void **state)
{
	static const char *trace = HDR "idle 0 500000 1000000 timer timer=hrtimer\n"
				       "idle 0 4500000 1000000 timer timer=hrtimer\n"
				       "idle 0 8500000 10000000 timer timer=hrtimer\n";
	struct run_stats rs;
	struct topts o = {0};

	(void)state;
	o.gov = gov_find("teo@5.1");
	run_trace(trace, &o, &rs);
	assert_int_equal(D(1)->state, C8);
	assert_false(D(1)->stop_tick);
	assert_int_equal(D(1)->cause, WAKE_TIMER);
	assert_int_equal(D(1)->verdict, 0);
	assert_int_equal(D(2)->state, C8);
	assert_int_equal(exv(X(2), "candidate"), C8);
	assert_int_equal(exv(X(2), "hits"), 1024);
	assert_int_equal(exv(X(2), "misses"), 0);
	assert_int_equal(D(3)->state, C10);
	assert_int_equal(rs.total.states[C8].above + rs.total.states[C8].below, 0);
	run_stats_release(&rs);

	o.gov = gov_find("teo@5.14");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C8);
	assert_false(D(1)->stop_tick);
	assert_int_equal(D(2)->state, C8);
	assert_int_equal(exv(X(2), "total"), 1024);
	assert_int_equal(exv(X(2), "idx_hit_sum"), 0);
	assert_int_equal(exv(X(2), "idx_intercept_sum"), 0);
	assert_int_equal(D(3)->state, C10);
	assert_int_equal(exv(X(3), "total"), 1920);
	assert_int_equal(exv(X(3), "idx_hit_sum"), 1920);

	o.gov = gov_find("teo@6.19");
	run_release(trace, &o);
	assert_int_equal(D(1)->state, C8);
	assert_false(D(1)->stop_tick);
	assert_int_equal(exv(X(1), "timer_idx"), C8);
	assert_int_equal(D(2)->state, C8);
	assert_int_equal(exv(X(2), "total"), 1024);
	assert_int_equal(exv(X(2), "idx_hit_sum"), 1024);
	assert_int_equal(exv(X(2), "idx_intercept_sum"), 0);
	assert_int_equal(D(3)->state, C10);
	assert_int_equal(exv(X(3), "idx_hit_sum"), 1920);
}

/* ======================================================================================
 * Intercepts move the choice shallower
 * ====================================================================================== */

/*
 * Slots 11 ms apart: P1 (1 ms) and P2 (12 ms) are 10 ms timer periods; P3 (23 ms) and P4
 * (34 ms) are woken by an irq 1190 us after their recorded start, with the timer 10 ms
 * away; P5 (45 ms) is a 10 ms timer period. Every entry until D5 is C10 with the tick
 * stopped (no tick wakeups), and work is conserved: each C10 exit (890 us) delays the work
 * and so the next entry, so P2..P5 are entered 890 us after their recorded start and see a
 * sleep length of 10 ms - 890 us = 9.11 ms (still >= 5 ms: the timer's bin is C10).
 * An irq period thus idles 1190 - 890 = 300 us in C10 (a recorded 300 us would be absorbed,
 * its wakeup coming before the delayed entry): residency 300 + 890 = 1190 us (5.1's time
 * span is the same 1190 us < 9110 us); measured 1190 - 890/2 = 745 us -> the C6 bin
 * [200, 800). A timer period: 5.1 and 5.14 see a time span (select -> reflect) of
 * 10.89 ms for P1 and 9.11 ms + 890 us = 10 ms for P2, >= the sleep length: a timer
 * wakeup; 6.19 measures 10.89 ms (P1) or 10 ms (P2) - 445 us, in the C10 bin: a hit.
 * D5 at 45.89 ms: next tick 48 ms, delta_tick 2.11 ms.
 *
 * teo@5.14 (total == sum of the bins after each update):
 *   D2: H10 = 1024. D3: H10 = 1024 - 128 + 1024 = 1920.
 *   D4: H10 = 1920 - 240 = 1680; I6 = 1024 (recent 1); total 2704. alt_intercepts:
 *       2 * 1024 = 2048 > 2704 - 0? no. alt_recent: 1 > 4? no -> C10.
 *   D5: H10 = 1680 - 210 = 1470; I6 = 1024 - 128 + 1024 = 1920; total 3390.
 *       alt_intercepts: 3840 > 3390 -> walk down from C9: bins 7, 6, 5 hold no
 *       intercepts; at C6 the sum is 1920, 2 * 1920 > 1920 -> C6, duration = middle of the
 *       C6 bin = (200 + 800) / 2 = 500 us < TICK -> tick kept; 200 us <= 2.11 ms.
 * teo@5.1:
 *   D4: P3 is a miss on C10: hits 1920 - 240 = 1680, misses 1024, early_hits[C6] 1024
 *       (745 us >= 200); hits > misses -> C10.
 *   D5: hits 1680 - 210 = 1470, misses 1024 - 128 + 1024 = 1920, early_hits[C6] 1920 ->
 *       hits <= misses: take max_early_idx C6, duration 200 us < TICK_USEC: tick kept
 *       (200 us <= delta_tick 2110 us). The ring holds two 745 us, not < 200: no pattern.
 * teo@6.19 (candidate always C10, idx_hit_sum over bins 0..7 = 0 here):
 *   D4: total = 1680 + 1024 = 2704; 2048 > 2704? no -> C10.
 *   D5: total = 1470 + 1920 = 3390; 3840 > 3390 -> walk from C9 down, stop at C6 where
 *       2 * 1920 > 1920. Not shallow (200 us >= 15 us): sleep length 9.11 ms read; C6
 *       fits; tick_intercepts = 1920 (both measured 745 us <= TICK_NSEC) > 3390/2 +
 *       3390/8 = 1695 + 423 = 2118? no; duration 9.11 ms >= TICK -> the tick may be
 *       stopped.
 */
static const char *intercept_trace = HDR "idle 0 1000000 10000000 timer timer=hrtimer\n"
					 "idle 0 12000000 10000000 timer timer=hrtimer\n"
					 "idle 0 23000000 1190000 irq next_timer=10000000 timer=hrtimer\n"
					 "idle 0 34000000 1190000 irq next_timer=10000000 timer=hrtimer\n"
					 "idle 0 45000000 10000000 timer timer=hrtimer\n";

static void test_intercepts_move_shallower(void **state)
{
	struct topts o = {0};
	int k;

	(void)state;
	o.gov = gov_find("teo@5.14");
	run_release(intercept_trace, &o);
	for (k = 1; k <= 4; k++)
		assert_int_equal(D(k)->state, C10);
	assert_int_equal(D(3)->time_ns, 23890 * US); /* 890 us behind the trace */
	assert_int_equal(D(3)->residency_ns, 1190000);
	assert_int_equal(exv(X(4), "total"), 2704);
	assert_int_equal(exv(X(4), "idx_intercept_sum"), 1024);
	assert_int_equal(exv(X(4), "idx_recent_sum"), 1);
	assert_int_equal(exv(X(4), "alt_intercepts"), 0);
	assert_int_equal(D(5)->state, C6);
	assert_false(D(5)->stop_tick);
	assert_int_equal(exv(X(5), "total"), 3390);
	assert_int_equal(exv(X(5), "idx_intercept_sum"), 1920);
	assert_int_equal(exv(X(5), "idx_hit_sum"), 0);
	assert_int_equal(exv(X(5), "alt_intercepts"), 1);
	assert_int_equal(exv(X(5), "alt_recent"), 0);
	assert_int_equal(exv(X(5), "expected_ns"), 500000);
	assert_int_equal(exv(X(5), "sleep_length_ns"), 9110 * US);
	assert_string_equal(exs(X(5), "rule"), "intercepts");

	o.gov = gov_find("teo@5.1");
	run_release(intercept_trace, &o);
	for (k = 1; k <= 4; k++)
		assert_int_equal(D(k)->state, C10);
	assert_int_equal(exv(X(4), "hits"), 1680);
	assert_int_equal(exv(X(4), "misses"), 1024);
	assert_int_equal(exv(X(4), "max_early_idx"), C6);
	assert_int_equal(exv(X(4), "early_hits"), 1024);
	assert_int_equal(D(5)->state, C6);
	assert_false(D(5)->stop_tick);
	assert_int_equal(exv(X(5), "hits"), 1470);
	assert_int_equal(exv(X(5), "misses"), 1920);
	assert_int_equal(exv(X(5), "early_hits"), 1920);
	assert_int_equal(exv(X(5), "expected_us"), 200);
	assert_string_equal(exs(X(5), "rule"), "early-hits");

	o.gov = gov_find("teo@6.19");
	run_release(intercept_trace, &o);
	for (k = 1; k <= 4; k++)
		assert_int_equal(D(k)->state, C10);
	assert_int_equal(exv(X(4), "total"), 2704);
	assert_int_equal(exv(X(4), "idx_intercept_sum"), 1024);
	assert_int_equal(D(5)->state, C6);
	assert_true(D(5)->stop_tick);
	assert_int_equal(exv(X(5), "total"), 3390);
	assert_int_equal(exv(X(5), "idx_intercept_sum"), 1920);
	assert_int_equal(exv(X(5), "intercepts_idx"), C6);
	assert_int_equal(exv(X(5), "tick_intercepts"), 1920);
	assert_int_equal(exv(X(5), "sleep_length_ns"), 9110 * US);
	assert_string_equal(exs(X(5), "rule"), "intercepts");
}

/* ======================================================================================
 * Decay arithmetic
 * ====================================================================================== */

/*
 * 50 slots 11 ms apart, each a 10 ms timer period except P4, an irq 1190 us after its
 * recorded start (timer 10 ms away; entered 890 us late after C10, so 300 us idle, as in
 * the intercept trace above): one intercept/miss in the C6 bin (measured 745 us), then
 * timer hits on C10 only (sleep length 9.11 ms from D2 on, time span 10 ms). The C6
 * metric is 1024 at D5 and decays once per update after that:
 *   x -= x >> 3: 1024 896 784 686 601 526 461 404 354 310 272 238 209 183 161 141 124 109
 *                96 84 74 65 57 50 44 39 35 31 28 25 22 20 18 16 14 13 12 11 10 9 8 7 7 7
 *   (8 - (8 >> 3) = 7, and 7 >> 3 = 0: below 8 it never decays, v5.1 .. v6.18)
 *   teo_decay(): the same down to 8, 7, then 7 >> 3 == 0 -> 0 (v6.19).
 * Observed through the decision log with candidate C10 at every decision:
 *   5.1:  early_hits (max over the states, here C6's) and misses of C10 (the miss of P4,
 *         decayed at every later update because C10 is idx_timer each time);
 *   5.14: idx_intercept_sum (the C6 bin's intercepts);
 *   6.19: idx_intercept_sum and tick_intercepts (745 us <= TICK_NSEC).
 * None of this changes the choice: hits of C10 keep growing (5.1: 2366 > 1024 at D5),
 * and 2 * 1024 <= total (3390 at D5) for the bins versions.
 */
static const int decay_5[] = {1024, 896, 784, 686, 601, 526, 461, 404, 354, 310, 272, 238,
			      209,  183, 161, 141, 124, 109, 96,  84,  74,  65,	 57,  50,
			      44,   39,	 35,  31,  28,	25,  22,  20,  18,  16,	 14,  13,
			      12,   11,	 10,  9,   8,	7,   7,	  7,   7,   7};

static char *decay_trace(void)
{
	size_t cap = 8192, len = 0;
	char *t = malloc(cap);
	int k;

	assert_non_null(t);
	len += (size_t)snprintf(t + len, cap - len, HDR);
	for (k = 1; k <= 50; k++) {
		long long start = 1 * MS + 11 * MS * (k - 1);

		if (k == 4)
			len += (size_t)snprintf(t + len, cap - len,
						"idle 0 %lld 1190000 irq next_timer=10000000 timer=hrtimer\n",
						start);
		else
			len += (size_t)snprintf(t + len, cap - len, "idle 0 %lld 10000000 timer timer=hrtimer\n",
						start);
		assert_true(len < cap);
	}
	return t;
}

static void test_decay_truncation(void **state)
{
	char *trace = decay_trace();
	struct topts o = {0};
	int k, n = (int)ARRAY_SIZE(decay_5);

	(void)state;
	o.gov = gov_find("teo@5.1");
	run_release(trace, &o);
	assert_int_equal(rlog.n, 50);
	assert_int_equal(exv(X(5), "hits"), 2366); /* 2704 - 338 */
	for (k = 0; k < n; k++) {
		assert_int_equal(D(5 + k)->state, C10);
		assert_int_equal(exv(X(5 + k), "max_early_idx"), C6);
		assert_int_equal(exv(X(5 + k), "early_hits"), decay_5[k]);
		assert_int_equal(exv(X(5 + k), "misses"), decay_5[k]);
	}

	o.gov = gov_find("teo@5.14");
	run_release(trace, &o);
	assert_int_equal(exv(X(5), "total"), 3390);
	for (k = 0; k < n; k++) {
		assert_int_equal(D(5 + k)->state, C10);
		assert_int_equal(exv(X(5 + k), "idx_intercept_sum"), decay_5[k]);
	}

	o.gov = gov_find("teo@6.19");
	run_release(trace, &o);
	assert_int_equal(exv(X(5), "total"), 3390);
	for (k = 0; k < n; k++) {
		/* Identical down to 8, 7; then cleared. */
		int want = k <= 41 ? decay_5[k] : 0;

		assert_int_equal(D(5 + k)->state, C10);
		assert_int_equal(exv(X(5 + k), "idx_intercept_sum"), want);
		assert_int_equal(exv(X(5 + k), "tick_intercepts"), want);
	}
	free(trace);
}

/* Tunables: PULSE 512 and DECAY_SHIFT 2 on the hit trace. D2: 512; D3: 512 - (512 >> 2)
 * + 512 = 896. */
static void test_tunables(void **state)
{
	static const char *trace = HDR "idle 0 500000 1000000 timer timer=hrtimer\n"
				       "idle 0 4500000 1000000 timer timer=hrtimer\n"
				       "idle 0 8500000 10000000 timer timer=hrtimer\n";
	struct topts o = {0};

	(void)state;
	o.set_name = "pulse";
	o.set_val = 512;
	o.set_name2 = "decay_shift";
	o.set_val2 = 2;
	o.gov = gov_find("teo@5.1");
	run_release(trace, &o);
	assert_int_equal(exv(X(2), "hits"), 512);
	o.gov = gov_find("teo@5.14");
	run_release(trace, &o);
	assert_int_equal(exv(X(2), "total"), 512);
	assert_int_equal(exv(X(3), "idx_hit_sum"), 896);
	o.gov = gov_find("teo@6.19");
	run_release(trace, &o);
	assert_int_equal(exv(X(2), "idx_hit_sum"), 512);
	assert_int_equal(exv(X(3), "idx_hit_sum"), 896);

	/* The parameter tables: kernel defaults, names as in --set teo.NAME=V. */
	assert_int_equal(gov_find("teo@5.1")->params[gov_param_index(gov_find("teo@5.1"), "decay_shift")].def, 3);
	assert_int_equal(gov_find("teo@5.14")->params[gov_param_index(gov_find("teo@5.14"), "pulse")].def, 1024);
	assert_int_equal(
		gov_find("teo@6.19")->params[gov_param_index(gov_find("teo@6.19"), "residency_threshold_ns")].def,
		15000);
	assert_int_equal(
		gov_find("teo@6.19")->params[gov_param_index(gov_find("teo@6.19"), "latency_threshold_ns")].def,
		7500);
	assert_int_equal(gov_param_index(gov_find("teo@5.14"), "residency_threshold_ns"), -1);
	assert_int_equal(gov_find("teo@5.1")->rating, 19);
	assert_string_equal(gov_find("teo@6.19")->name, "teo@6.19");
}

/*
 * teo@5.14, alt_recent alone: 20 timer periods (10 ms, hits in the C10 bin), then nine
 * periods alternating irq (1190 us recorded, entered 890 us late after C10, so 300 us in
 * C10: measured 745 us, an intercept in the C6 bin, as in the intercept trace) and timer
 * (entered 890 us late: sleep length 9.11 ms, time span 10 ms: a hit in the C10 bin):
 * I H I H I H I H I, then D30. Metric arithmetic (x -= x >> 3, then + 1024; total = sum
 * of the bins after the update; an independent step-by-step computation of these rules):
 *   H10 = 4804, I6 = 3222, total = 8026, recent intercepts in the last 9 events = 5.
 * alt_intercepts: 2 * 3222 = 6444 > 8026 - 0? no. alt_recent: 5 > NR_RECENT / 2 = 4: yes.
 * Before D30 at most 4 recent intercepts and 2 * I6 < total: every entry is C10.
 * The walk checks only the recent sums: bins 7, 6, 5 hold none; at C6 2 * 5 > 5 -> C6,
 * duration = middle of its bin, 500 us -> tick kept (D30 at 320.89 ms, next tick 324 ms:
 * 200 us <= delta_tick 3.11 ms); rule "recent".
 */
static void test_5_14_alt_recent(void **state)
{
	size_t cap = 8192, len = 0;
	char *t = malloc(cap);
	struct topts o = {0};
	int k;

	(void)state;
	assert_non_null(t);
	len += (size_t)snprintf(t + len, cap - len, HDR);
	for (k = 1; k <= 30; k++) {
		long long start = 1 * MS + 11 * MS * (k - 1);
		bool irq = k > 20 && k < 30 && (k - 21) % 2 == 0;

		len += (size_t)snprintf(t + len, cap - len,
					irq ? "idle 0 %lld 1190000 irq next_timer=10000000 timer=hrtimer\n"
					    : "idle 0 %lld 10000000 timer timer=hrtimer\n",
					start);
		assert_true(len < cap);
	}
	o.gov = gov_find("teo@5.14");
	run_release(t, &o);
	free(t);
	assert_true(rlog.n >= 30); /* D30 keeps the tick: later ticks split its period */
	for (k = 1; k <= 29; k++)
		assert_int_equal(D(k)->state, C10);
	assert_int_equal(exv(X(30), "total"), 8026);
	assert_int_equal(exv(X(30), "idx_intercept_sum"), 3222);
	assert_int_equal(exv(X(30), "idx_recent_sum"), 5);
	assert_int_equal(exv(X(30), "alt_intercepts"), 0);
	assert_int_equal(exv(X(30), "alt_recent"), 1);
	assert_int_equal(D(30)->state, C6);
	assert_false(D(30)->stop_tick);
	assert_string_equal(exs(X(30), "rule"), "recent");
}

/*
 * teo@5.1's interval ring (harness). Only POLL and C10 enabled, so no early-hits
 * alternative exists (early hits land on disabled states and max_early_idx stays -1) and
 * the candidate for a 10 ms sleep length is always C10: pattern_count is the number of
 * intervals below C10's 5000 us. Every step selects with the timer 10 ms away and
 * reflects 100 us later: measured 100 / 2 = 50 us after C10 (100 < 890 exit latency),
 * 100 us after POLL; both count.
 * The phantom first update wrote UINT_MAX to intervals[0]; step k then writes slot
 * k mod 9 (the "> INTERVALS" wrap: slots 0..8), and only slots 0..7 are read:
 *   step:          1 2 3 4 5 6 7 8 9 10
 *   pattern_count: 1 2 3 4 5 6 7 7 8 8
 * (step 8 writes slot 8, which is never read; step 9 overwrites the UINT_MAX in slot 0).
 * From step 5 (count > 4, average 50 us) the pattern picks POLL.
 */
static void test_5_1_interval_ring(void **state)
{
	static const int want[] = {1, 2, 3, 4, 5, 6, 7, 7, 8, 8};
	bool stop;
	int k, idx, i;

	(void)state;
	h_init(&hA, gov_find("teo@5.1"));
	for (i = 1; i <= 7; i++)
		hA.dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	idx = h_select(&hA, 0, 10 * MS, false, &stop);
	assert_int_equal(idx, C10);
	assert_int_equal(exv(&hA.ex, "pattern_count"), 0);
	for (k = 1; k <= 10; k++) {
		int64_t now = k * MS;

		h_reflect(&hA, now - MS + 100 * US, idx, 100 * US, false, false);
		idx = h_select(&hA, now, now + 10 * MS, false, &stop);
		assert_int_equal(exv(&hA.ex, "candidate"), C10);
		assert_int_equal(exv(&hA.ex, "max_early_idx"), -1);
		assert_int_equal(exv(&hA.ex, "pattern_count"), want[k - 1]);
		assert_int_equal(idx, k >= 5 ? POLL : C10);
	}

	/* Half the exit latency: C10 left after a 1500 us time span (>= 890 us): measured
	 * 1500 - 890 / 2 = 1055 us -> idx_hit C8 (800 <= 1055), a miss on C10 and an early
	 * hit on C8 -> hits 0 <= misses 1024: C8 (800 us < TICK_USEC, tick kept; delta_tick
	 * 2 ms). Subtracting the whole exit latency would give 610 us and C6. */
	h_init(&hA, gov_find("teo@5.1"));
	assert_int_equal(h_select(&hA, 0, 10 * MS, false, &stop), C10);
	h_reflect(&hA, 1500 * US, C10, 1500 * US, false, false);
	assert_int_equal(h_select(&hA, 2 * MS, 12 * MS, false, &stop), C8);
	assert_int_equal(exv(&hA.ex, "max_early_idx"), C8);
	assert_false(stop);
}

/* ======================================================================================
 * Intercepts in the bin of a disabled state
 * ====================================================================================== */

/*
 * The intercepts of the intercept trace land in the bin of a disabled state: C6 disabled.
 * teo@5.14 D5: alt_intercepts as before (3840 > 3390); walking down, C9, C8 and C7s become
 *   first_suitable_idx in turn (tick running: every span is ok); at the C6 bin the sums
 *   qualify but C6 is disabled -> first_suitable_idx C7s with its middle (800+800)/2 =
 *   800 us < TICK: tick kept; C7s's 800 us <= delta_tick 2.11 ms (D5 entered at 45.89 ms,
 *   890 us behind the trace, next tick 48 ms): no cap.
 * teo@6.19 D5: the simplified walk adds the C6 bin's intercepts, skips C6 and stops at the
 *   next enabled state below, C3 (2 * 1920 > 1920); sleep 9.11 ms -> C3, tick stoppable
 *   (tick_intercepts 1920 <= 2118).
 * teo@5.1 D5: hits 1470 <= misses 1920, but early_hits of a disabled state only raise the
 *   running maximum once max_early_idx >= 0, which it never is (no enabled state below C10
 *   has early hits) -> C10 stays, rule "timer".
 */
static void test_intercepts_in_disabled_bin(void **state)
{
	struct topts o = {0};

	(void)state;
	o.disabled = 1u << C6;
	o.gov = gov_find("teo@5.14");
	run_release(intercept_trace, &o);
	assert_int_equal(D(4)->state, C10);
	assert_int_equal(exv(X(5), "idx_intercept_sum"), 1920);
	assert_int_equal(D(5)->state, C7S);
	assert_false(D(5)->stop_tick);
	assert_int_equal(exv(X(5), "expected_ns"), 800000);

	o.gov = gov_find("teo@6.19");
	run_release(intercept_trace, &o);
	assert_int_equal(D(5)->state, C3);
	assert_true(D(5)->stop_tick);
	assert_int_equal(exv(X(5), "intercepts_idx"), C3);

	o.gov = gov_find("teo@5.1");
	run_release(intercept_trace, &o);
	assert_int_equal(D(5)->state, C10);
	assert_int_equal(exv(X(5), "hits"), 1470);
	assert_int_equal(exv(X(5), "misses"), 1920);
	assert_int_equal(exv(X(5), "max_early_idx"), -1);
	assert_int_equal(exv(X(5), "early_hits"), 0);
	assert_string_equal(exs(X(5), "rule"), "timer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_decision_after_enable),
		cmocka_unit_test(test_first_decision_6_19_skips_sleep_length),
		cmocka_unit_test(test_hit),
		cmocka_unit_test(test_intercepts_move_shallower),
		cmocka_unit_test(test_decay_truncation),
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_5_14_alt_recent),
		cmocka_unit_test(test_5_1_interval_ring),
		cmocka_unit_test(test_intercepts_in_disabled_bin),
	};

	(void)gov_scripted;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
