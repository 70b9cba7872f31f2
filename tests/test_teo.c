// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_teo.c - the TEO governor in its versions (teo@5.1, teo@5.10, teo@5.14, teo@6.19; teo@6.12
 * in test_kgov's lockstep).
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
#include "tests/testutil.h"
#include "sim/workload/gen.h"

#include <stdio.h>
#include <stdlib.h>


/* The run ends well after the last record: its last exit completes, so every entry counts
 * (traces/FORMAT.md, "End of the trace"). */
/* The jiffy grid at multiples of TICK_NSEC from 0, as these tests were written: without
 * tick_phase it would be at the trace's start, the first record's time. */
#define HDR "idlesim-trace v1\ncpus 1\nend 100000000000\ntick_phase 0\n"
#define MS 1000000LL
#define US 1000LL

/* ---- recording decisions with the governor's decision log ---- */

#define REC_MAX 128

struct dec {
	struct sim_decision d;
	struct cpuidle_explain ex;
};

struct reclog {
	int n;
	struct dec v[REC_MAX];
};

static struct reclog rlog; /* single-threaded tests */

static void rec_cb(void *ud, const struct sim_decision *d)
{
	struct reclog *l = ud;

	if (l->n >= REC_MAX)
		return;
	l->v[l->n].d = *d;
	l->v[l->n].ex = *d->gov; /* keys and strings are string literals */
	l->v[l->n].d.gov = NULL;
	l->n++;
}

static const struct cpuidle_explain_item *ex_item(const struct cpuidle_explain *ex, const char *key)
{
	int i;

	for (i = 0; i < ex->nr; i++)
		if (!strcmp(ex->items[i].key, key))
			return &ex->items[i];
	return NULL;
}

/* A numeric decision-log value; fails the test if absent. */
static long long exv(const struct cpuidle_explain *ex, const char *key)
{
	const struct cpuidle_explain_item *it = ex_item(ex, key);

	if (!it || it->str) {
		fprintf(stderr, "decision log has no number \"%s\"\n", key);
		fail();
	}
	return it->val;
}

static const char *exs(const struct cpuidle_explain *ex, const char *key)
{
	const struct cpuidle_explain_item *it = ex_item(ex, key);

	if (!it || !it->str) {
		fprintf(stderr, "decision log has no string \"%s\"\n", key);
		fail();
	}
	return it->str;
}

#define D(k) (&rlog.v[(k)-1].d) /* decision k, 1-based, as in the comments */
#define X(k) (&rlog.v[(k)-1].ex)

struct topts {
	const struct cpuidle_governor *gov;
	uint32_t disabled;
	int64_t latency_req_ns; /* 0: none */
	const char *set_name;	/* one tunable to change, or NULL */
	long long set_val;
	const char *set_name2;
	long long set_val2;
};

/* Replay `text` on skl at HZ 250 through o->gov, logging every decision into rlog. */
static void run_trace(const char *text, const struct topts *o, struct run_stats *rs)
{
	struct sim_error err = {0};
	struct sim_config cfg = {0};
	struct machine m;
	struct trace_reader *r;
	struct record_source src;
	long long params[8];
	unsigned int i;

	assert_true(o->gov->nr_params <= 8);
	for (i = 0; i < o->gov->nr_params; i++)
		params[i] = o->gov->params[i].def;
	if (o->set_name) {
		int k = gov_param_index(o->gov, o->set_name);

		assert_true(k >= 0);
		params[k] = o->set_val;
	}
	if (o->set_name2) {
		int k = gov_param_index(o->gov, o->set_name2);

		assert_true(k >= 0);
		params[k] = o->set_val2;
	}
	assert_int_equal(machine_load("skl", &m, &err), 0);
	r = trace_open_string("<test>", text, &err);
	assert_non_null(r);
	cfg.machine = &m;
	cfg.gov = o->gov;
	cfg.gov_params = params;
	cfg.hz = 250;
	cfg.latency_req_ns = o->latency_req_ns ? o->latency_req_ns : -1;
	cfg.disabled = o->disabled;
	cfg.explain = rec_cb;
	cfg.explain_ud = &rlog;
	cfg.explain_limit = -1;
	memset(&rlog, 0, sizeof(rlog));
	record_source_from_trace(&src, r);
	if (replay_run(&src, &cfg, rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	trace_close(r);
}

static void run_release(const char *text, const struct topts *o)
{
	struct run_stats rs;

	run_trace(text, o, &rs);
	run_stats_release(&rs);
}

/* ---- a direct harness: select()/reflect() on a hand-set device ---- */

struct harness {
	const struct cpuidle_governor *gov;
	struct machine m;
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	long long params[8];
	union {
		max_align_t align;
		unsigned char b[1024];
	} priv;
	struct cpuidle_explain ex;
};

static struct harness hA, hB;

static void h_init(struct harness *h, const struct cpuidle_governor *g)
{
	struct sim_error err = {0};
	unsigned int i;

	memset(h, 0, sizeof(*h));
	h->gov = g;
	assert_int_equal(machine_load("skl", &h->m, &err), 0);
	machine_to_driver(&h->m, &h->drv);
	for (i = 0; i < g->nr_params; i++)
		h->params[i] = g->params[i].def;
	assert_true(g->priv_size <= sizeof(h->priv));
	h->dev.last_state_idx = -1;
	h->dev.governor_data = h->priv.b;
	h->dev.gov_params = h->params;
	h->dev.env.tick_nsec = 4 * MS;
	h->dev.env.latency_req_ns = 2000000000000LL;
	h->dev.env.next_timer_ns = KTIME_MAX;
	h->dev.env.oracle_wake_ns = KTIME_MAX;
	h->dev.explain = &h->ex;
	assert_int_equal(g->enable(&h->drv, &h->dev), 0);
}

/* select() at `now` with the earliest timer at absolute `timer`; ticks at 4 ms multiples. */
static int h_select(struct harness *h, int64_t now, int64_t timer, bool tick_stopped,
		    bool *stop_tick)
{
	h->dev.env.now_ns = now;
	h->dev.env.next_timer_ns = timer;
	h->dev.env.next_tick_ns = (now / (4 * MS) + 1) * 4 * MS;
	h->dev.env.tick_stopped = tick_stopped;
	h->ex.nr = 0;
	*stop_tick = true;
	return h->gov->select(&h->drv, &h->dev, stop_tick);
}

/* What cpuidle_enter_state() leaves behind, then reflect() at `now` (wakeup + exit). */
static void h_reflect(struct harness *h, int64_t now, int idx, int64_t residency, bool poll_limit,
		      bool got_tick)
{
	h->dev.env.now_ns = now;
	h->dev.last_residency_ns = residency;
	h->dev.last_state_idx = idx;
	h->dev.poll_time_limit = poll_limit;
	h->dev.env.got_tick = got_tick;
	h->gov->reflect(&h->dev, idx);
}

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

/* ======================================================================================
 * Behaviour on generated workloads (skl, HZ 250, 1 CPU, 1 s)
 * ====================================================================================== */

struct beh {
	double above_below_pct;
	double share[CPUIDLE_STATE_MAX]; /* of the time spent in idle states */
	int top;			 /* state with the most idle time */
};

static void run_gen(struct gen_config *gc, const struct cpuidle_governor *g, struct beh *b)
{
	struct sim_error err = {0};
	struct gen_stream *gs = gen_open(gc, &err);
	struct record_source src;
	struct sim_config cfg = {0};
	struct machine m;
	struct run_stats rs;
	struct stats_summary s;
	double idle = 0;
	int i;

	assert_non_null(gs);
	assert_int_equal(machine_load("skl", &m, &err), 0);
	cfg.machine = &m;
	cfg.gov = g;
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	record_source_from_gen(&src, gs);
	if (replay_run(&src, &cfg, &rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	gen_close(gs);
	stats_summarize(&rs, &rs.total, rs.nr_cpus, &s);
	assert_true(s.idle_entries > 500);
	b->above_below_pct = s.above_pct + s.below_pct;
	for (i = 0; i < rs.state_count; i++)
		idle += (double)rs.total.states[i].time_ns;
	b->top = 0;
	for (i = 0; i < rs.state_count; i++) {
		b->share[i] = (double)rs.total.states[i].time_ns / idle;
		if (b->share[i] > b->share[b->top])
			b->top = i;
	}
	run_stats_release(&rs);
}

/*
 * A 1 ms periodic timer: the deepest state whose target residency fits 1 ms is C8 (800 us;
 * C9 needs 5 ms); the oracle spends its idle time there. teo@5.1 and teo@5.14 find C8 from
 * the timer for the periods without a tick and a shallower state capped by delta_tick for
 * the one period in four that a 4 ms tick splits; the tick wakeup is a miss/intercept
 * (5.1: 1 in 5 events, hits > misses on C8; 5.14: intercepts below C8 ~1/5 of total < the
 * C8 bin's ~4/5, recent below C8 <= 2 of 9) -> C8 stays.
 *
 * teo@6.19 does NOT meet the expectation of issue 4 here, and this is the kernel's
 * behaviour, not a modelling error: its candidate is the deepest state (C10), so the hits
 * in the C8 bin count as "below the candidate" and are subtracted: the test becomes
 * 2 * I > I + (C10 bin), true as soon as one intercept exists. The tick splitting one
 * period in four makes those intercepts (a "fake intercept" produced by the tick), the
 * simplified lookup stops in the C6 bin where they land, so v6.19 settles on C6 and every
 * timer wakeup from C6 is "below" (1000 - 85 us >= 800 us). The v7.0-rc1 commit
 * 60836533b4c7 "cpuidle: governors: teo: Avoid fake intercepts produced by tick" addresses
 * exactly this. The test pins the v6.19 outcome instead (C6, many below).
 */
static void test_behaviour_periodic_1ms(void **state)
{
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	struct gen_config gc;
	struct beh b;
	int i;

	(void)state;
	gen_config_defaults(&gc, GEN_PERIODIC); /* 1 ms period, 1 s, seed 1, no busy time */
	/* A timer every 1 ms at HZ 250 can only be an hrtimer: a timer-wheel timer fires on
	 * jiffy edges, 4 ms apart. */
	gc.timer_kind = GEN_TIMER_HRTIMER;
	run_gen(&gc, gov_find("oracle"), &b);
	assert_int_equal(b.top, C8);
	for (i = 0; i < 3; i++) {
		run_gen(&gc, g[i], &b);
		if (i < 2) {
			assert_true(b.above_below_pct < 5.0);
			assert_int_equal(b.top, C8);
			assert_true(b.share[C8] > 0.5);
		} else {
			assert_int_equal(b.top, C6);
			assert_true(b.share[C6] > 0.9);
			assert_true(b.above_below_pct > 40.0);
		}
	}
}

/*
 * IRQs every 300 us and a 100 ms periodic timer: the oracle's state is C6 (200 us fits
 * 300 us minus the exit, C7s's 800 us does not). Every version learns the intercepts and
 * settles on C6 for most of the idle time, with above + below under 10 %.
 */
static void test_behaviour_irq_fixed(void **state)
{
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	struct gen_config gc;
	struct beh b;
	int i;

	(void)state;
	gen_config_defaults(&gc, GEN_IRQ_FIXED); /* 300 us interval, 1 s, seed 1 */
	gc.timer_period_ns = 100 * MS;
	run_gen(&gc, gov_find("oracle"), &b);
	assert_int_equal(b.top, C6);
	for (i = 0; i < 3; i++) {
		run_gen(&gc, g[i], &b);
		assert_int_equal(b.top, C6);
		assert_true(b.share[C6] > 0.5);
		assert_true(b.above_below_pct < 10.0);
	}
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
		cmocka_unit_test(test_6_19_sleep_length_skip_and_tick_wakeups),
		cmocka_unit_test(test_latency_constraint),
		cmocka_unit_test(test_latency_constraint_below_every_state),
		cmocka_unit_test(test_tick_kept_capped_by_delta_tick),
		cmocka_unit_test(test_tick_already_stopped),
		cmocka_unit_test(test_poll_time_limit_harness),
		cmocka_unit_test(test_poll_time_limit_trace),
		cmocka_unit_test(test_disabled_states),
		cmocka_unit_test(test_intercepts_in_disabled_bin),
		cmocka_unit_test(test_behaviour_periodic_1ms),
		cmocka_unit_test(test_behaviour_irq_fixed),
	};

	(void)gov_scripted;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
