// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_menu_limits.c - what limits or overrides the menu governor's prediction, three kernel
 * versions (governors/menu-*.c): the tick (kept, capped by delta_tick, already stopped), a
 * negative sleep length, the performance multiplier, the polling override, a latency limit
 * of 0, every state disabled, no timer. Every expectation is computed by hand, as in
 * tests/test_menu.c, whose header gives the machine (skl, HZ 250), the defaults and how an
 * idle duration is measured.
 */
#include "tests/menutest.h"

/* ---- the decision log and the harness, as these tests use them ---- */

static bool has(const struct rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->nitems; i++)
		if (!strcmp(r->items[i].key, key))
			return true;
	return false;
}

static void hx_poll_entry(struct hx *h, s64 len_ns)
{
	hx_entry(h, POLL, len_ns);
}

/* Eight 100 us entries with no timer pending: intervals[] = 100 us x 8. */
static void hx_prime_100us(struct hx *h)
{
	bool stop;
	int k;

	for (k = 0; k < 8; k++) {
		hx_select(h, (k + 1) * 4 * MS + 500 * US, KTIME_MAX, false, &stop);
		hx_poll_entry(h, 100 * US);
	}
}

/* ---- tick ---- */

/*
 * Eight 1 ms periods give a typical interval of 1000 us (8 samples); the probe starts at
 * 35.5 ms, 0.5 ms before the tick at 36 ms.
 * Prediction 1000 us -> the loop picks C8 (800 <= 1000 < 5000); 1 ms < TICK, so the tick is
 * kept, and C8's 800 us does not fit delta_tick = 500 us: walking down, C7s (800) does not
 * fit either, C6 (200) does. Every version: C6, tick kept, rule tick-retained-cap.
 */
static void test_tick_retained_capped_by_delta_tick(void **state)
{
	static const long long len[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;
	int v;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		hx_init(h, gov_find(versions[v]));
		/* the eighth period, 28.5 .. 29.5 ms, in the state the seven before lead to */
		hx_entry(h, hx_periods(h, len, 7, 0, 0, &stop), 1000 * US);
		assert_int_equal(hx_select(h, 35500000, KTIME_MAX, false, &stop), C6);
		assert_false(stop);
		assert_int_equal(val(&h->r, "typical_interval_us"), 1000);
		assert_int_equal(val(&h->r, "delta_tick_ns"), 500000);
		assert_string_equal(str(&h->r, "rule"), "tick-retained-cap");
		free(h->priv);
	}
	free(h);
}

/*
 * History: 8 intervals of 100 us (typical 100 us). Select at 40.5 ms with the next timer
 * 10 ms away and the tick already stopped (delta_tick = the timer, 10 ms):
 *  - 6.6 / 6.19: predicted 100,000 ns > 15 us, so the sleep length is read: bucket 4
 *    (10 ms < 100 ms), factor 8192 (untouched: the history used bucket 5), timer_us =
 *    (4,096,000 + 10^7 * 8192) / 8,192,000 = 10000; predicted = min(10^7, 10^5) = 10^5 <
 *    TICK_NSEC with the tick stopped -> predicted = next_timer_ns = 10^7: every state fits,
 *    C10; 10 ms >= TICK so stop_tick stays true. Rule tick-stopped.
 *  - 4.18 (87c9fe6ee495): predicted_us = min(10000, 100) = 100 < TICK_USEC -> predicted =
 *    min_t(unsigned int, TICK_USEC, delta_next_us) = min(4000, 10000) = 4000: C8 (800 <=
 *    4000 < 5000 of C9); expected_interval 4000 is not < TICK_USEC, stop_tick stays true.
 * With the tick running instead (control), every version keeps the short prediction:
 * C3 (target residency 100 us <= 100 us, C6's 200 us too long; 4.18 and 6.6: latency
 * limit 100 us / 1 >= C3's 70 us), tick kept.
 */
static void test_tick_already_stopped(void **state)
{
	static const int want_stopped[NR_VERSIONS] = {C8, C10, C10};
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;
	int v, idx;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		hx_init(h, gov_find(versions[v]));
		hx_prime_100us(h);
		idx = hx_select(h, 40 * MS + 500 * US, 50 * MS + 500 * US, true, &stop);
		assert_int_equal(idx, want_stopped[v]);
		assert_true(stop);
		assert_int_equal(val(&h->r, "typical_interval_us"), 100);
		assert_string_equal(str(&h->r, "rule"), "tick-stopped");
		assert_int_equal(val(&h->r, "predicted_ns"), v == V4_18 ? 4000000 : 10000000);
		free(h->priv);

		hx_init(h, gov_find(versions[v]));
		hx_prime_100us(h);
		idx = hx_select(h, 40 * MS + 500 * US, 50 * MS + 500 * US, false, &stop);
		assert_int_equal(idx, C3);
		assert_false(stop);
		free(h->priv);
	}
	free(h);
}

/*
 * Negative sleep length: now 1,000,000 ns, the timer at 995,000 ns (-5000 ns), first select.
 *  - 6.6 / 6.19: no history -> typical UINT_MAX -> the sleep length is read and clamped:
 *    delta = delta_tick = 0, next_timer_ns 0, bucket 0, timer_us = 4,096,000 / 8,192,000 =
 *    0 -> predicted 0; next_timer_ns 0 < C1's 2000 ns: early exit with state 0 (POLL), tick
 *    kept (POLL is polling). Rule early-exit-poll, sleep_length_ns 0.
 *  - 4.18 has no clamp: next_timer_us = (unsigned int)ktime_to_us(-5000) = (unsigned int)-5
 *    = 4294967291 -> bucket 5; typical 0 (cold) -> predicted 0 -> C1 via first_idx = 1,
 *    tick kept. The log shows the raw sleep length.
 */
static void test_negative_sleep_length(void **state)
{
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;
	int v, idx;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		hx_init(h, gov_find(versions[v]));
		idx = hx_select(h, 1 * MS, 995 * US, false, &stop);
		assert_false(stop);
		if (v == V4_18) {
			assert_int_equal(idx, C1);
			assert_int_equal(val(&h->r, "bucket"), 5);
			assert_int_equal(val(&h->r, "sleep_length_ns"), -5000);
		} else {
			assert_int_equal(idx, POLL);
			assert_int_equal(val(&h->r, "bucket"), 0);
			assert_int_equal(val(&h->r, "sleep_length_ns"), 0);
			assert_int_equal(val(&h->r, "delta_tick_ns"), 0);
			assert_string_equal(str(&h->r, "rule"), "early-exit-poll");
		}
		free(h->priv);
	}
	free(h);
}

/* ---- performance multiplier ---- */

/*
 * Eight 1 ms periods and a 1 ms probe, each with iowait=N or load=X (typical 1000 us at the
 * probe; predicted 1000 us in every version):
 *  - no iowait: latency limit 1000 us / 1 -> C8.
 *  - iowait=1 (4.18, 6.6): multiplier 1 + 10 = 11, limit 1,000,000 / 11 = 90,909 ns (4.18:
 *    1000 / 11 = 90 us): C6 (85 us) passes, C7s (124 us) stops the loop -> C6, rule
 *    interactivity. 6.19 has no iowait term: C8.
 *  - load=1 (4.18 only): get_loadavg(2048) = 1 * 10 + 0 = 10, multiplier 1 + 2 * 10 = 21,
 *    limit 1000 / 21 = 47 us: C1E (10 us) passes, C3 (70 us) stops -> C1E. 6.6 and 6.19
 *    ignore the load: C8.
 */
static void test_performance_multiplier(void **state)
{
	static const long long len[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
	static const int want_io[NR_VERSIONS] = {C6, C6, C8};
	static const int want_load[NR_VERSIONS] = {C1E, C8, C8};
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;
	int v;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		hx_init(h, gov_find(versions[v]));
		assert_int_equal(hx_periods(h, len, 8, 0, 0, &stop), C8);
		free(h->priv);

		hx_init(h, gov_find(versions[v]));
		assert_int_equal(hx_periods(h, len, 8, 1, 0, &stop), want_io[v]);
		assert_int_equal(val(&h->r, "typical_interval_us"), 1000);
		assert_false(stop);
		if (v != V6_19) {
			assert_int_equal(val(&h->r, "nr_iowait"), 1);
			assert_int_equal(val(&h->r, "perf_mult"), 11);
			assert_int_equal(val(&h->r, "latency_req_ns"), v == V4_18 ? 90000 : 90909);
			assert_string_equal(str(&h->r, "rule"), "interactivity");
		} else {
			assert_false(has(&h->r, "nr_iowait"));
			assert_false(has(&h->r, "perf_mult"));
		}
		free(h->priv);

		hx_init(h, gov_find(versions[v]));
		assert_int_equal(hx_periods(h, len, 8, 0, 2048, &stop), want_load[v]);
		if (v == V4_18) {
			assert_int_equal(val(&h->r, "loadavg"), 10);
			assert_int_equal(val(&h->r, "perf_mult"), 21);
			assert_int_equal(val(&h->r, "latency_req_ns"), 47000);
		}
		free(h->priv);
	}
	free(h);
}

/* ---- polling override ---- */

/*
 * C1 disabled; eight 12 us periods ended by their timer, then a 12 us irq period with no
 * timer. At the probe the typical interval is 12 us (8 samples, variance 0); 12,000 ns <=
 * RESIDENCY_THRESHOLD_NS, so 6.x skip the sleep length (next_timer_ns = KTIME_MAX,
 * delta_tick = TICK_NSEC / 2 = 2 ms).
 *  - 6.6: latency limit 12,000 / 1 = 12,000 ns. POLL is the first enabled state; C1E's
 *    target residency 20,000 > 12,000, but the override holds: state so far is polling,
 *    C1E's exit latency 10,000 <= 12,000 and 20,000 <= KTIME_MAX -> C1E, predicted 20,000;
 *    tick kept (< TICK), 20 us fits delta_tick. Rule polling-override.
 *  - 6.19: C1E's exit 10,000 <= predicted 12,000 and its residency fits the timer, but
 *    20,000 is not < RESIDENCY_THRESHOLD_NS (15,000): no override -> POLL, tick kept.
 *  - 4.18: no override in the loop; first_idx = 0 because state 1 (C1) is disabled; C1E's
 *    20 us > 12 us ends the loop at POLL.
 * The 6.19 override itself needs a state with exit latency <= prediction < target residency
 * < 15 us, which skl does not have (C1 is 2/2 us): see test_polling_override_6_19.
 */
static void test_polling_override(void **state)
{
	static const int want[NR_VERSIONS] = {POLL, C1E, POLL};
	struct dlog *log = new_log();
	struct tbuf *t = calloc(1, sizeof(*t));
	struct ropt o = {0};
	struct run_stats rs;
	int v, k;

	(void)state;
	o.disabled = 1u << C1;
	tb_init(t);
	for (k = 0; k < 8; k++)
		tb_idle(t, k * MS + 500 * US, 12 * US, "timer timer=hrtimer");
	tb_idle(t, 8 * MS + 500 * US, 12 * US, "irq");
	for (v = 0; v < NR_VERSIONS; v++) {
		run_trace(t->s, gov_find(versions[v]), &o, log, &rs);
		assert_int_equal(log->n, 9);
		assert_int_equal(val(&log->r[8], "typical_interval_us"), 12);
		assert_int_equal(log->r[8].state, want[v]);
		assert_false(log->r[8].stop_tick);
		if (v != V4_18)
			assert_string_equal(str(&log->r[8], "sleep_length"), "skipped");
		if (v == V6_6) {
			assert_string_equal(str(&log->r[8], "rule"), "polling-override");
			assert_int_equal(val(&log->r[8], "predicted_ns"), 20000);
		}
		run_stats_release(&rs);
	}
	free(t);
	free(log);
}

/*
 * The v6.19 override taken, on a machine whose state 1 has exit 2 us < target residency
 * 10 us < 15 us (select() called directly on a modified skl table). History: 8 x 5 us
 * (POLL entries) -> typical 5 us -> predicted 5000 ns <= 15 us: sleep length skipped.
 * Loop: POLL fits (0 <= 5000); state 1: exit 2000 <= 2e12, residency 10,000 > 5000; state
 * so far polling, 10,000 < 15,000, 10,000 <= KTIME_MAX, exit 2000 <= 5000 -> state 1 with
 * predicted 10,000; tick kept. With residency_threshold_us = 10 the override is refused
 * (10,000 is not < 10,000): POLL.
 */
static void test_polling_override_6_19(void **state)
{
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;
	int k, pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		hx_init(h, gov_find("menu@6.19"));
		h->drv.states[1].target_residency_ns = 10 * US;
		h->drv.states[1].target_residency = 10;
		if (pass)
			h->params[gov_param_index(gov_find("menu@6.19"), "residency_threshold_us")] = 10;
		for (k = 0; k < 8; k++) {
			hx_select(h, (k + 1) * MS + 500 * US, KTIME_MAX, false, &stop);
			hx_poll_entry(h, 5 * US);
		}
		k = hx_select(h, 20 * MS + 500 * US, KTIME_MAX, false, &stop);
		assert_int_equal(val(&h->r, "typical_interval_us"), 5);
		assert_false(stop);
		if (!pass) {
			assert_int_equal(k, C1);
			assert_string_equal(str(&h->r, "rule"), "polling-override");
			assert_int_equal(val(&h->r, "predicted_ns"), 10000);
		} else {
			assert_int_equal(k, POLL);
		}
		free(h->priv);
	}
	free(h);
}

/* ---- limits ---- */

/*
 * A PM QoS limit of 0 (cpuidle_governor_latency_req() == 0): 4.18 returns state 0 before
 * anything else, 6.x through the early exit; POLL is polling, so the tick is kept. Every
 * select of the 1 ms period (the POLL time limit of 20 us re-enters the loop) is the same.
 */
static void test_latency_req_zero(void **state)
{
	struct dlog *log = new_log();
	struct ropt o = {0};
	struct run_stats rs;
	int v, k;

	(void)state;
	o.latency_set = true;
	o.latency_req_ns = 0;
	for (v = 0; v < NR_VERSIONS; v++) {
		run_trace(HDR "idle 0 500000 1000000 irq\n", gov_find(versions[v]), &o, log, &rs);
		assert_true(log->n > 10);
		for (k = 0; k < log->n; k++) {
			assert_int_equal(log->r[k].state, POLL);
			assert_false(log->r[k].stop_tick);
			assert_string_equal(str(&log->r[k], "rule"), "latency-zero");
		}
		run_stats_release(&rs);
	}
	free(log);
}

/*
 * Every state disabled: 4.18's loop and 6.x's loop (the early exit requires state 0
 * enabled) find no state, idx -1 becomes 0, which is polling: the tick is kept.
 */
static void test_all_states_disabled(void **state)
{
	struct dlog *log = new_log();
	struct ropt o = {0};
	struct run_stats rs;
	int v;

	(void)state;
	o.disabled = 0x1ff;
	for (v = 0; v < NR_VERSIONS; v++) {
		run_trace(HDR "idle 0 500000 1000000 timer timer=hrtimer\n", gov_find(versions[v]), &o, log, &rs);
		assert_true(log->n >= 1);
		assert_int_equal(log->r[0].state, POLL);
		assert_false(log->r[0].stop_tick);
		assert_string_equal(str(&log->r[0], "rule"), "all-disabled");
		run_stats_release(&rs);
	}
	free(log);
}

/*
 * No timer: the sleep length is KTIME_MAX (logged as -1), bucket 5 (>= 100 ms).
 *  - 6.6 / 6.19, first select: typical UINT_MAX, timer term saturated -> predicted
 *    UINT_MAX us = 4,294,967,295,000 ns: deepest state C10, tick stopped, rule timer.
 *  - 4.18, first select: typical 0 (cold start) -> predicted 0 -> C1, tick kept.
 */
static void test_no_timer(void **state)
{
	struct dlog *log = new_log();
	struct run_stats rs;
	int v;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		run_trace(HDR "idle 0 500000 3000000 irq\n", gov_find(versions[v]), NULL, log, &rs);
		assert_int_equal(val(&log->r[0], "sleep_length_ns"), -1);
		assert_int_equal(val(&log->r[0], "bucket"), 5);
		if (v == V4_18) {
			assert_int_equal(log->r[0].state, C1);
			assert_false(log->r[0].stop_tick);
		} else {
			assert_int_equal(log->r[0].state, C10);
			assert_true(log->r[0].stop_tick);
			assert_int_equal(val(&log->r[0], "predicted_ns"), 4294967295000LL);
			assert_string_equal(str(&log->r[0], "rule"), "timer");
		}
		run_stats_release(&rs);
	}
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_retained_capped_by_delta_tick),
		cmocka_unit_test(test_tick_already_stopped),
		cmocka_unit_test(test_negative_sleep_length),
		cmocka_unit_test(test_performance_multiplier),
		cmocka_unit_test(test_polling_override),
		cmocka_unit_test(test_polling_override_6_19),
		cmocka_unit_test(test_latency_req_zero),
		cmocka_unit_test(test_all_states_disabled),
		cmocka_unit_test(test_no_timer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
