// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_menu.c - the menu governor, three kernel versions (governors/menu-*.c): its prediction
 * (the correction factor, the first select, menu_update(), the typical interval) and its
 * tunables. What limits or overrides the prediction: tests/test_menu_limits.c; its behaviour
 * on generated workloads: tests/test_menu_behaviour.c.
 *
 *
 * Every expectation is computed by hand from the kernel rules; the arithmetic is in the
 * comments. Machine skl (intel_idle skl_cstates) at HZ 250 unless stated: TICK_NSEC =
 * 4,000,000 ns, ticks at multiples of 4 ms. skl exit latency / target residency in us:
 *   POLL 0/0, C1 2/2, C1E 10/20, C3 70/100, C6 85/200, C7s 124/800, C8 200/800,
 *   C9 480/5000, C10 890/5000.
 * Defaults: RESOLUTION 1024, DECAY 8 (1.0 = 8192), MAX_INTERESTING 50 ms,
 * RESIDENCY_THRESHOLD_NS 15 us, performance multiplier 1 + 10 * iowait (+ 2 * loadavg in
 * 4.18), polling threshold 20 us (4.18).
 *
 * Measured idle duration (menu_update): the engine reports diff = wakeup - entry + exit
 * latency of the entered state; menu takes diff - exit when diff > 2 * exit, so an entry
 * that lasts at least its exit latency records exactly its length. The traces below place
 * every idle period away from the 4 ms tick boundaries, so each period is one entry.
 */
#include "tests/menutest.h"

/* ---- correction factor ---- */

/*
 * Periods of 1 ms ended by an irq, with a timer pending 2 ms after the recorded start: 100
 * periods recorded at 4k + 1 ms (the timer at 4k + 3 ms comes before the tick at 4k + 4 ms).
 * Replayed, period k >= 1 is entered late by the exit latency d of the state period k - 1
 * was in (work conservation): sleep length 2 ms - d, measured interval 1 ms - d (exact: an
 * entry that lasts at least its exit latency records its length, see the header).
 *
 * Which states (first select: test_first_select): 4.18 starts in C1 and stays there while
 * zeros from menu_enable_device() fill most of intervals[] (indices 1..7: the samples above
 * 997 us are dropped as outliers and the zeros left have variance 0 <= 400: typical 0 ->
 * C1), so d = 2 us: sleep 1,998,000 ns, measured 998 us. 6.6 and 6.19 pick C8 from the timer
 * every time (their windows with zeros give UINT_MAX: the "!max" check, or the UINT_MAX the
 * first 6.19 select records), so d = 200 us: sleep 1,800,000 ns, measured 800 us. Bucket 3
 * (1000 us <= sleep < 10000 us) throughout. Each menu_update(): f -= f / 8, then
 * f += RESOLUTION * measured / sleep:
 *   period 0 (d = 0): 1024 * 1000 / 2000 = 512;
 *   4.18 (us): 1024 * 998 / 1998 = 511;  6.6, 6.19 (ns): 1024 * 800,000 / 1,800,000 = 455.
 *   4.18: 8192, 7680, 7680 - 960 + 511 = 7231, 7231 - 903 + 511 = 6839, 6839 - 854 + 511 =
 *         6496, 6496 - 812 + 511 = 6195, 6195 - 774 + 511 = 5932, 5932 - 741 + 511 = 5702,
 *         5702 - 712 + 511 = 5501.
 *   6.x:  8192, 7680, 7680 - 960 + 455 = 7175, 7175 - 896 + 455 = 6734, 6734 - 841 + 455 =
 *         6348, 6348 - 793 + 455 = 6010, 6010 - 751 + 455 = 5714, 5714 - 714 + 455 = 5455,
 *         5455 - 681 + 455 = 5229.
 * The lazy update: select k reports the factor after k - 1 updates.
 *
 * Select 9 (index 8) sees the 8 completed intervals:
 *   4.18: 1000, 998 x 7: avg 7986 >> 3 = 998, variance (2^2 + 0) >> 3 = 0 -> 998, 8 samples.
 *     Timer: round(1998 * 5501 / 8192) = 1342 us; min -> 998 us: C8 (800 <= 998 < 5000).
 *   6.6, 6.19: 1000, 800 x 7: avg 6600 / 8 = 825, variance (175^2 + 7 * 25^2) / 8 = 4375 >
 *     400 but 825^2 = 680,625 > 36 * 4375 = 157,500 with 8 samples -> 825 (6.19's sum of
 *     squares: 5,480,000 >> 3 = 685,000 - 825^2 = 4375, the same). Timer: (4,096,000 +
 *     1,800,000 * 5229) / 8,192,000 = 1149 us; min -> 825 us: C8.
 * Rule typical-interval, tick kept (predicted < TICK_NSEC), C8's 800 us fits delta_tick.
 * Then every version stays in C8 (d = 200 us, increment 455): the fixed points of
 * f - f/8 + 455 are 3640..3647 (f/8 = 455), reached from above at least geometrically by
 * 7/8, so after 99 updates the factor is in that band. (At 3640 the timer predicts
 * round(1800 * 3640 / 8192) = 800 us: C8 still qualifies.)
 */
static void test_correction_factor_convergence(void **state)
{
	static const long long cf[NR_VERSIONS][9] = {
		{8192, 7680, 7231, 6839, 6496, 6195, 5932, 5702, 5501},
		{8192, 7680, 7175, 6734, 6348, 6010, 5714, 5455, 5229},
		{8192, 7680, 7175, 6734, 6348, 6010, 5714, 5455, 5229},
	};
	static const long long d_ns[NR_VERSIONS] = {2000, 200000, 200000};
	static const long long want_typ[NR_VERSIONS] = {998, 825, 825};
	struct dlog *log = new_log();
	struct tbuf *t = calloc(1, sizeof(*t));
	struct run_stats rs;
	int v, k;

	(void)state;
	tb_init(t);
	for (k = 0; k < 100; k++)
		tb_idle(t, k * 4 * MS + 1 * MS, 1 * MS, "irq next_timer=2000000 timer=hrtimer");
	for (v = 0; v < NR_VERSIONS; v++) {
		run_trace(t->s, gov_find(versions[v]), NULL, log, &rs);
		assert_int_equal(log->n, 100);
		for (k = 0; k < 9; k++) {
			long long d = k ? d_ns[v] : 0;

			assert_int_equal(log->r[k].time_ns, k * 4 * MS + 1 * MS + d);
			assert_int_equal(val(&log->r[k], "bucket"), 3);
			assert_int_equal(val(&log->r[k], "correction_factor"), cf[v][k]);
			assert_int_equal(val(&log->r[k], "sleep_length_ns"), 2 * MS - d);
			assert_int_equal(log->r[k].state, k == 8 || v != V4_18 ? C8 : C1);
		}
		assert_int_equal(val(&log->r[8], "typical_interval_us"), want_typ[v]);
		assert_int_equal(val(&log->r[8], "typical_samples"), 8);
		assert_int_equal(val(&log->r[8], "predicted_ns"), want_typ[v] * US);
		assert_string_equal(str(&log->r[8], "rule"), "typical-interval");
		assert_false(log->r[8].stop_tick);
		assert_int_equal(log->r[99].state, C8);
		assert_in_range(val(&log->r[99], "correction_factor"), 3640, 3647);
		run_stats_release(&rs);
	}
	free(t);
	free(log);
}

/*
 * First select of the same trace, per version (nothing recorded yet):
 *  - 4.18: intervals[] are all 0 (menu_enable_device memset): round 1 takes all 8, avg 0,
 *    variance 0 <= 400 -> typical 0 with 8 samples (v4.18 had no "!max" check).
 *    predicted_us = min(round(2000 * 8192 / 8192) = 2000, min(0, 2000)) = 0: rule
 *    typical-interval; first_idx = 1 (next timer 2000 us > max(20, 2) and C1 enabled),
 *    C1's 2 us > 0 ends the loop: C1, tick kept (0 < TICK_USEC).
 *  - 6.6: all 0 -> max == 0 -> UINT_MAX, 0 samples: the timer decides, predicted =
 *    (4,096,000 + 2,000,000 * 8192) / 8,192,000 = 2000 us -> C8, tick kept.
 *  - 6.19: the first select records UINT_MAX (no completed entry: last_residency_ns == 0);
 *    the 7 zeros give max == 0 -> UINT_MAX: same as 6.6, C8.
 */
static void test_first_select(void **state)
{
	static const int want_state[NR_VERSIONS] = {C1, C8, C8};
	static const long long want_typical[NR_VERSIONS] = {0, -1, -1};
	static const long long want_samples[NR_VERSIONS] = {8, 0, 0};
	static const long long want_pred[NR_VERSIONS] = {0, 2000000, 2000000};
	static const char *const want_rule[NR_VERSIONS] = {"typical-interval", "timer", "timer"};
	struct dlog *log = new_log();
	struct run_stats rs;
	int v;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		run_trace(HDR "idle 0 1000000 1000000 irq next_timer=2000000 timer=hrtimer\n",
			  gov_find(versions[v]), NULL, log, &rs);
		assert_int_equal(log->n, 1);
		assert_int_equal(log->r[0].state, want_state[v]);
		assert_false(log->r[0].stop_tick);
		assert_int_equal(val(&log->r[0], "typical_interval_us"), want_typical[v]);
		assert_int_equal(val(&log->r[0], "typical_samples"), want_samples[v]);
		assert_int_equal(val(&log->r[0], "predicted_ns"), want_pred[v]);
		assert_string_equal(str(&log->r[0], "rule"), want_rule[v]);
		run_stats_release(&rs);
	}
	free(log);
}

/*
 * menu@5.4, the same first select (docs/kernel-governor-files.md: the first decision where
 * the v5.4 file and menu@4.18 part). No PM QoS request: latency_req = 2,000,000,000 us.
 *  - next_timer_us = 2,000,000 ns / 1000 = 2000; bucket 3 (1000 <= 2000 < 10000), no
 *    iowait. Early exit? 2000 < C1's 2 us: no; latency 2e9 < C1's 2 us: no.
 *  - predicted_us = DIV_ROUND_CLOSEST_ULL(2000 * 8192, 8192) = (16,384,000 + 4096) / 8192 =
 *    2000. get_typical_interval(data, 2000): all 8 zeros kept (thresh INT_MAX), min 0 <
 *    2000 so no early exit; avg 0, variance 0 <= 400 -> 0 (8 samples). predicted = min(2000,
 *    0) = 0: rule typical-interval.
 *  - Tick running: performance multiplier 1 + 10 * 0 = 1, interactivity_req = 0 / 1 = 0 <
 *    2e9, so latency_req = 0.
 *  - Loop from state 0 (v5.4 has no first_idx): POLL 0 > 0? no; exit 0 > 0? no: idx = POLL.
 *    C1: 2 > 0; POLL so far, but C1's exit 2 > latency 0: no override; 0 < TICK_USEC: break.
 *  - POLL -> tick kept, no delta_next cap (idx 0). predicted_ns 0, latency_req_ns 0.
 * menu@4.18 starts at first_idx = 1 and takes C1 (test_first_select).
 */
static void test_first_select_5_4(void **state)
{
	struct dlog *log = new_log();
	struct run_stats rs;

	(void)state;
	run_trace(HDR "idle 0 1000000 1000000 irq next_timer=2000000 timer=hrtimer\n", gov_find("menu@5.4"), NULL,
		  log, &rs);
	/* POLL ends at its time limit, so more selects follow within the period: not checked */
	assert_true(log->n > 1);
	assert_int_equal(log->r[0].state, POLL);
	assert_false(log->r[0].stop_tick);
	assert_int_equal(val(&log->r[0], "bucket"), 3);
	assert_int_equal(val(&log->r[0], "correction_factor"), 8192);
	assert_int_equal(val(&log->r[0], "typical_interval_us"), 0);
	assert_int_equal(val(&log->r[0], "typical_samples"), 8);
	assert_int_equal(val(&log->r[0], "perf_mult"), 1);
	assert_int_equal(val(&log->r[0], "predicted_ns"), 0);
	assert_int_equal(val(&log->r[0], "latency_req_ns"), 0);
	assert_string_equal(str(&log->r[0], "rule"), "typical-interval");
	run_stats_release(&rs);
	free(log);
}

/*
 * menu@5.4's POLL time-limit rule in menu_update() (not in 4.18). select() called directly.
 *  - Select 1 at 0.5 ms, next timer 3 ms ahead: next_timer_us 3000, bucket 3; the zeroed
 *    history gives typical 0, so predicted 0 and latency_req 0 -> POLL (test_first_select_5_4).
 *  - POLL ends on its time limit after 20 us (dev->poll_time_limit set, no tick).
 *  - Select 2 at 1 ms, next timer again 3 ms ahead. menu_update(): not a tick wakeup; POLL
 *    with poll_time_limit -> measured_us = next_timer_us = 3000 (not > 3000: no clamp).
 *    Bucket 3: 8192 - 8192 / 8 + 1024 * 3000 / 3000 = 8192; intervals[0] = 3000.
 *    Typical interval (predicted_us = round(3000 * 8192 / 8192) = 3000): round 1 takes all
 *    8 (sum 3000, avg 375, variance ((3000 - 375)^2 + 7 * 375^2) / 8 = 984,375 > 400 and
 *    375^2 = 140,625 < 36 * 984,375): 32 > 24, thresh 2999; round 2: 7 zeros, min 0 < 3000,
 *    avg 0, variance 0 -> 0 with 7 samples.
 *  Without the rule (4.18's update) the 20 us residency would be recorded: factor 8192 -
 *  1024 + 1024 * 20 / 3000 = 7174, and the 8 samples {20, 0 x 7} (avg 2, variance (18^2 +
 *  7 * 2^2) / 8 = 44 <= 400) would give typical 2 with 8 samples.
 */
static void test_poll_time_limit_update_5_4(void **state)
{
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;

	(void)state;
	hx_init(h, gov_find("menu@5.4"));
	assert_int_equal(hx_select(h, 500 * US, 3500 * US, false, &stop), POLL);
	h->dev.last_residency_ns = 20 * US;
	h->dev.last_state_idx = POLL;
	h->dev.poll_time_limit = true;
	h->dev.env.got_tick = false;
	h->gov->reflect(&h->dev, POLL);
	hx_select(h, 1 * MS, 4 * MS, false, &stop);
	assert_int_equal(val(&h->r, "bucket"), 3);
	assert_int_equal(val(&h->r, "correction_factor"), 8192);
	assert_int_equal(val(&h->r, "typical_interval_us"), 0);
	assert_int_equal(val(&h->r, "typical_samples"), 7);
	free(h->priv);
	free(h);
}

/* ---- typical interval ---- */

/*
 * Noisy intervals with two high outliers: 1000, 1010, 990, 1005, 995, 1000, 2500, 3000 us,
 * then a 1 ms probe period; the probe's select sees exactly these 8 samples.
 *
 * Classic algorithm (4.18, 6.6): round 1 (all 8) has a large variance; 8 * 4 > 24, so
 * thresh = 3000 - 1 drops 3000. Round 2 (7 samples, sum 8500, avg 1214): diffs -214, -204,
 * -224, -209, -219, -214, 1286 -> sum of squares 1,928,822 / 7 = 275,546; avg^2 =
 * 1,473,796 is not > 36 * 275,546; 7 * 4 > 24, thresh = 2499 drops 2500. Round 3 (6 samples,
 * avg 6000 / 6 = 1000, diffs 0, 10, -10, 5, -5, 0 -> 250 / 6 = 41 <= 400): 1000, 6 samples.
 *
 * Two-sided algorithm (6.19): round 1: sum 11500 >> 3 = 1437, sum of squares 21,250,250 >> 3
 * = 2,656,281, variance 2,656,281 - 1437^2 (2,064,969) = 591,312: rejected; avg - min =
 * 447 < max - avg = 1563, so max_thresh = 3000. Round 2 (7 samples): avg 8500 / 7 = 1214,
 * 12,250,250 / 7 = 1,750,035 - 1,473,796 = 276,239: rejected; 224 < 1286, max_thresh = 2500.
 * Round 3 (6): avg 1000, 6,000,250 / 6 = 1,000,041 - 1,000,000 = 41 <= 400: 1000, 6 samples.
 *
 * The probe then predicts 1000 us in every version (the sleep length is KTIME_MAX: no
 * timer) -> C8, tick kept (predicted < TICK), 800 us fits delta_tick (3.5 ms to the tick).
 */
static void test_typical_interval_high_outliers(void **state)
{
	static const long long len[8] = {1000, 1010, 990, 1005, 995, 1000, 2500, 3000};
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;
	int v;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		hx_init(h, gov_find(versions[v]));
		assert_int_equal(hx_periods(h, len, 8, 0, 0, &stop), C8);
		assert_false(stop);
		assert_int_equal(val(&h->r, "typical_interval_us"), 1000);
		assert_int_equal(val(&h->r, "typical_samples"), 6);
		assert_int_equal(val(&h->r, "predicted_ns"), 1000000);
		assert_string_equal(str(&h->r, "rule"), "typical-interval");
		free(h->priv);
	}
	free(h);
}

/*
 * One low outlier: 1000, 1010, 990, 1005, 995, 1000, 1000, 10 us (the 10 us period ends by
 * its timer and runs in C1 or POLL: exact), then the 1 ms probe.
 *
 * Classic (4.18, 6.6): only high outliers are removed. Round 1: avg 7010 >> 3 = 876,
 * squares of 124, 134, 114, 129, 119, 124, 124, -866 sum to 857,838 >> 3 = 107,229:
 * rejected; thresh = 1009. Round 2 (7): avg 6000 / 7 = 857, 837,393 / 7 = 119,627: rejected;
 * thresh = 1004. Round 3 (6): avg 4995 / 6 = 832, 811,889 / 6 = 135,314: rejected, and
 * 6 * 4 <= 24: UINT_MAX, no prediction. The probe's sleep length is KTIME_MAX, so the
 * prediction is "very long": C10 with the tick stopped, rule timer.
 *
 * Two-sided (6.19): round 1: avg 876, 7,000,350 >> 3 = 875,043 - 767,376 = 107,667:
 * rejected; avg - min = 866 > max - avg = 134, so min_thresh = 10 drops the low outlier.
 * Round 2 (7): avg 7000 / 7 = 1000, 7,000,250 / 7 = 1,000,035 - 1,000,000 = 35 <= 400:
 * 1000 with 7 samples -> C8, tick kept.
 */
static void test_typical_interval_low_outlier(void **state)
{
	static const long long len[8] = {1000, 1010, 990, 1005, 995, 1000, 1000, 10};
	static const long long want_typ[NR_VERSIONS] = {-1, -1, 1000};
	static const long long want_samples[NR_VERSIONS] = {0, 0, 7};
	static const int want_state[NR_VERSIONS] = {C10, C10, C8};
	static const char *const want_rule[NR_VERSIONS] = {"timer", "timer", "typical-interval"};
	struct hx *h = calloc(1, sizeof(*h));
	bool stop;
	int v;

	(void)state;
	for (v = 0; v < NR_VERSIONS; v++) {
		hx_init(h, gov_find(versions[v]));
		assert_int_equal(hx_periods(h, len, 8, 0, 0, &stop), want_state[v]);
		assert_int_equal(stop, want_state[v] == C10);
		assert_int_equal(val(&h->r, "typical_interval_us"), want_typ[v]);
		assert_int_equal(val(&h->r, "typical_samples"), want_samples[v]);
		assert_string_equal(str(&h->r, "rule"), want_rule[v]);
		free(h->priv);
	}
	free(h);
}

/*
 * get_typical_interval() of the classic versions, as the kernel writes it (a first loop for
 * the mean, a second for the variance around it): the reference for menu.c, which gets the
 * same variance from a sum of squares (an identity modulo 2^64). 4.18 starts at thresh =
 * UINT_MAX, 6.6 at INT_MAX with the "!max" check. -1 = UINT_MAX.
 */
static void classic_typical_reference(const long long *iv_us, bool v6_6, long long *typical,
				      long long *samples)
{
	unsigned int thresh = v6_6 ? INT_MAX : UINT_MAX, max, avg;
	uint64_t sum, variance;
	int i, divisor;

	for (;;) {
		sum = 0;
		divisor = 0;
		max = 0;
		for (i = 0; i < 8; i++) {
			unsigned int value = (unsigned int)iv_us[i];

			if (value <= thresh) {
				sum += value;
				divisor++;
				if (value > max)
					max = value;
			}
		}
		if (v6_6 && !max)
			break;
		avg = divisor == 8 ? (unsigned int)(sum >> 3) : (unsigned int)(sum / (unsigned int)divisor);
		variance = 0;
		for (i = 0; i < 8; i++) {
			unsigned int value = (unsigned int)iv_us[i];

			if (value <= thresh) {
				int64_t diff = (int64_t)value - avg;

				variance += (uint64_t)diff * (uint64_t)diff;
			}
		}
		variance = divisor == 8 ? variance >> 3 : variance / (unsigned int)divisor;
		if (variance <= UINT64_MAX / 36 &&
		    (((uint64_t)avg * avg > variance * 36 && divisor * 4 >= 24) || variance <= 400)) {
			*typical = avg;
			*samples = divisor;
			return;
		}
		if (divisor * 4 <= 24)
			break;
		thresh = max - 1;
	}
	*typical = -1;
	*samples = 0;
}

/*
 * Random windows of 8 samples (tight groups with outliers on either side, and scattered
 * ones), each followed by a probe: the typical interval and samples kept that 4.18 and 6.6
 * log must be the reference's. The samples are exact (hx_periods(); 900 us and more, so
 * each lasts at least the exit latency of any state).
 */
static void test_typical_interval_random_vs_kernel_loops(void **state)
{
	struct hx *h = calloc(1, sizeof(*h));
	uint64_t x = 88172645463325252ULL;
	long long len[8], want_typ, want_n;
	bool stop;
	int c, k, v, accepted = 0;

	(void)state;
	assert_non_null(h);
	for (c = 0; c < 150; c++) {
		long long base = 900 + (long long)(x % 1700), spread = c % 3 == 0 ? 1700 : c % 3 == 1 ? 40 : 8;

		for (k = 0; k < 8; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			len[k] = base + (long long)(x % (uint64_t)(2 * spread + 1)) - spread;
			if (x % 7 == 0) /* an outlier */
				len[k] = 900 + (long long)((x >> 8) % 1700);
			len[k] = len[k] < 900 ? 900 : len[k] > 2599 ? 2599 : len[k];
		}
		for (v = V4_18; v <= V6_6; v++) {
			classic_typical_reference(len, v == V6_6, &want_typ, &want_n);
			hx_init(h, gov_find(versions[v]));
			hx_periods(h, len, 8, 0, 0, &stop);
			assert_int_equal(val(&h->r, "typical_interval_us"), want_typ);
			assert_int_equal(val(&h->r, "typical_samples"), want_n);
			accepted += want_typ >= 0;
			free(h->priv);
		}
	}
	/* both outcomes were exercised */
	assert_true(accepted > 30 && accepted < 270);
	free(h);
}

/* ---- tunables ---- */

static void test_tunables_table(void **state)
{
	static const char *const common[] = {"decay", "resolution", "max_interesting_us",
					     "variance_max", "ratio_sq"};
	static const long long common_def[] = {8, 1024, 50000, 400, 36};
	unsigned int i;
	int v;

	(void)state;
	assert_int_equal(gov_find("menu@4.18")->nr_params, 8);
	assert_int_equal(gov_find("menu@6.6")->nr_params, 7);
	assert_int_equal(gov_find("menu@6.19")->nr_params, 6);
	for (v = 0; v < NR_VERSIONS; v++) {
		const struct cpuidle_governor *g = gov_find(versions[v]);

		assert_int_equal(g->rating, 20);
		for (i = 0; i < 5; i++) {
			assert_int_equal(gov_param_index(g, common[i]), (int)i);
			assert_int_equal(g->params[i].def, common_def[i]);
		}
		for (i = 0; i < g->nr_params; i++) {
			assert_true(g->params[i].min <= g->params[i].def);
			assert_true(g->params[i].def <= g->params[i].max);
			assert_non_null(g->params[i].help);
		}
	}
	assert_string_equal(gov_find("menu@4.18")->name, "menu@4.18");
	assert_string_equal(gov_find("menu@6.6")->name, "menu@6.6");
	assert_string_equal(gov_find("menu@6.19")->name, "menu@6.19");
	assert_int_equal(gov_find("menu@4.18")->params[gov_param_index(gov_find("menu@4.18"), "iowait_factor")].def,
			 10);
	assert_int_equal(gov_find("menu@4.18")->params[gov_param_index(gov_find("menu@4.18"), "load_factor")].def,
			 2);
	assert_int_equal(
		gov_find("menu@4.18")->params[gov_param_index(gov_find("menu@4.18"), "poll_threshold_us")].def, 20);
	assert_int_equal(gov_find("menu@6.6")->params[gov_param_index(gov_find("menu@6.6"), "iowait_factor")].def,
			 10);
	assert_int_equal(
		gov_find("menu@6.6")->params[gov_param_index(gov_find("menu@6.6"), "residency_threshold_us")].def,
		15);
	assert_int_equal(
		gov_find("menu@6.19")->params[gov_param_index(gov_find("menu@6.19"), "residency_threshold_us")].def,
		15);
	/* A version without iowait has no iowait factor; only 4.18 has the load term. */
	assert_int_equal(gov_param_index(gov_find("menu@6.19"), "iowait_factor"), -1);
	assert_int_equal(gov_param_index(gov_find("menu@6.6"), "load_factor"), -1);
	assert_int_equal(gov_param_index(gov_find("menu@6.6"), "poll_threshold_us"), -1);
	assert_int_equal(gov_param_index(gov_find("menu@4.18"), "residency_threshold_us"), -1);
}

/*
 * decay = 4 on the correction-factor trace: the factor starts at RESOLUTION * DECAY = 4096
 * and each update is f -= f / 4, plus the increments of test_correction_factor_convergence
 * (512 for period 0; then 511 in 4.18's C1, 455 in 6.x's C8: the states are the same, the
 * timer still predicts more than 800 us: 1800 * 3584 / 4096 = 1575, 1800 * 3143 / 4096 =
 * 1381): 4096 - 1024 + 512 = 3584; 4.18: 3584 - 896 + 511 = 3199, 3199 - 799 + 511 = 2911;
 * 6.x: 3584 - 896 + 455 = 3143, 3143 - 785 + 455 = 2813. iowait_factor = 0 on the iowait trace of
 * test_performance_multiplier (tests/test_menu_limits.c) makes the multiplier 1: C8 again (4.18
 * and 6.6).
 */
static void test_tunables_change_results(void **state)
{
	static const long long len[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
	struct dlog *log = new_log();
	struct tbuf *t = calloc(1, sizeof(*t));
	struct ropt o = {0};
	struct run_stats rs;
	long long params[8];
	unsigned int i;
	int v, k;

	(void)state;
	tb_init(t);
	for (k = 0; k < 4; k++)
		tb_idle(t, k * 4 * MS + 1 * MS, 1 * MS, "irq next_timer=2000000 timer=hrtimer");
	o.params = params;
	for (v = 0; v < NR_VERSIONS; v++) {
		for (i = 0; i < gov_find(versions[v])->nr_params; i++)
			params[i] = gov_find(versions[v])->params[i].def;
		params[gov_param_index(gov_find(versions[v]), "decay")] = 4;
		run_trace(t->s, gov_find(versions[v]), &o, log, &rs);
		assert_int_equal(val(&log->r[0], "correction_factor"), 4096);
		assert_int_equal(val(&log->r[1], "correction_factor"), 3584);
		assert_int_equal(val(&log->r[2], "correction_factor"), v == V4_18 ? 3199 : 3143);
		assert_int_equal(val(&log->r[3], "correction_factor"), v == V4_18 ? 2911 : 2813);
		run_stats_release(&rs);
	}
	for (v = V4_18; v <= V6_6; v++) {
		struct hx *h = calloc(1, sizeof(*h));
		bool stop;

		hx_init(h, gov_find(versions[v]));
		h->params[gov_param_index(gov_find(versions[v]), "iowait_factor")] = 0;
		assert_int_equal(hx_periods(h, len, 8, 1, 0, &stop), C8);
		assert_int_equal(val(&h->r, "perf_mult"), 1);
		free(h->priv);
		free(h);
	}
	free(t);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_correction_factor_convergence),
		cmocka_unit_test(test_first_select),
		cmocka_unit_test(test_first_select_5_4),
		cmocka_unit_test(test_typical_interval_high_outliers),
		cmocka_unit_test(test_typical_interval_low_outlier),
		cmocka_unit_test(test_typical_interval_random_vs_kernel_loops),
		cmocka_unit_test(test_poll_time_limit_update_5_4),
		cmocka_unit_test(test_tunables_table),
		cmocka_unit_test(test_tunables_change_results),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
