// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sched_util.c - PELT utilisation (sim/sched/pelt.c) and SIS_UTIL's scan depth
 * (place.c's sched_update_idle_cpu_scan()), each value worked out by hand from Linux
 * v6.12.118's kernel/sched/pelt.c and fair.c (update_idle_cpu_scan) in the test's
 * comment.
 *
 * PELT's arithmetic, as used below: time goes in units of 1024 ns (delta >>= 10, the
 * remainder of ns left for the next update), periods of 1024 units. An update that
 * crosses p >= 1 boundaries with period_contrib c before and r units into the current
 * period after, running all along, does
 *   util_sum = decay_load(util_sum, p) + (contrib << 10), where
 *   contrib = decay_load(1024 - c, p) + LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, p) - 1024 + r
 * and then util_avg = util_sum / (LOAD_AVG_MAX - 1024 + r) = util_sum / (46718 + r).
 * decay_load(v, n) = (v >> (n / 32)) * runnable_avg_yN_inv[n % 32] >> 32, with
 * inv[0] = 0xffffffff, inv[1] = 0xfa83b2da (0.978572...), inv[30] = 0x85aac367
 * (0.522137...), inv[31] = 0x82cd8698 (0.510949...).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/machine/machine.h"
#include "sim/sched/pelt.h"
#include "sim/sched/place.h"

#define MS_ (1000000LL)
#define PERIOD_NS (1024LL * 1024) /* one PELT period: 1024 units of 1024 ns */

/*
 * decay_load(): y^32 = 1/2 exactly in the shift; y^n < 1 truncates.
 *  - decay_load(1024, 32) = (1024 >> 1) * 0xffffffff >> 32 = 512 * (2^32 - 1) / 2^32
 *    = 511.99... -> 511 (inv[0] is 2^32 - 1, not 2^32: one unit lost);
 *  - decay_load(47742, 1) = 47742 * 0xfa83b2da >> 32 = 47742 * 0.978572 = 46718.99 -> 46718
 *    = LOAD_AVG_MAX - 1024, the identity behind get_pelt_divider();
 *  - decay_load(v, 32 * 63 + 1) = 0 (beyond 63 half-lives), and decay_load(1, 2000) = 0
 *    (1 >> 62).
 */
static void test_decay_load(void **state)
{
	(void)state;
	assert_int_equal(pelt_decay_load(1024, 32), 511);
	assert_int_equal(pelt_decay_load(LOAD_AVG_MAX, 1), LOAD_AVG_MAX - 1024);
	assert_int_equal(pelt_decay_load(UINT32_MAX, 32 * 63 + 1), 0);
	assert_int_equal(pelt_decay_load(1, 2000), 0);
	assert_int_equal(pelt_decay_load(1024, 0), 1023); /* 1024 * (2^32 - 1) >> 32 */
}

/* The state after an update: util_sum, period_contrib, util_avg. */
static void expect_avg(const struct sched_avg *a, uint32_t util_sum, uint32_t period_contrib,
		       unsigned long util_avg)
{
	assert_int_equal(a->util_sum, util_sum);
	assert_int_equal(a->period_contrib, period_contrib);
	assert_int_equal(a->util_avg, util_avg);
}

/*
 * A CPU that ran from 0, read once:
 *  - after exactly 32 periods (33,554,432 ns = 32768 units: p = 32, c = 0, r = 0):
 *    contrib = decay_load(1024, 32) + 47742 - decay_load(47742, 32) - 1024 + 0
 *            = 511 + 47742 - 23870 - 1024 = 23359 (decay_load(47742, 32) = 23871 * inv[0]
 *            >> 32 = 23870); util_sum = 23359 << 10 = 23,919,616 and util_avg =
 *            23,919,616 / 46718 = 512 exactly (46718 * 512 = 23,919,616): one half-life of
 *            running from nothing is half the capacity;
 *  - after 32 ms (32,000,000 ns = 31250 units: p = 30, r = 530): contrib =
 *    decay_load(1024, 30) + 47742 - decay_load(47742, 30) - 1024 + 530
 *    = 534 (1024 * 0.522137 = 534.67) + 47742 - 24927 (47742 * 0.522137 = 24927.9) - 1024
 *    + 530 = 22855; util_avg = 22855 * 1024 / (46718 + 530) = 23,403,520 / 47248 = 495.3
 *    -> 495 (32 ms is 30.5 periods, short of one half-life).
 */
static void test_running_from_zero(void **state)
{
	struct sched_avg a = { 0 }, b = { 0 };

	(void)state;
	assert_int_equal(pelt_update_util(&a, 32 * PERIOD_NS, true), 1);
	expect_avg(&a, 23919616, 0, 512);
	assert_int_equal(pelt_update_util(&b, 32 * MS_, true), 1);
	expect_avg(&b, 23403520, 530, 495);
}

/*
 * 1 ms of running from 0, then idle, read at 2 ms:
 *  - at 1 ms (the CPU stops): delta = 1,000,000 >> 10 = 976 units (999,424 ns; the 576 ns
 *    left count with the next update); no boundary crossed: util_sum = 976 << 10 = 999,424,
 *    period_contrib 976, and util_avg is not recomputed: still 0 (the kernel refreshes
 *    *_avg only when a period ends, pelt_update_util() returns 0);
 *  - at 2 ms, idle since: delta = (2,000,000 - 999,424) >> 10 = 977 units; 976 + 977 = 1953
 *    crosses one boundary (p = 1, r = 929); util_sum = decay_load(999,424, 1) = 999,424 *
 *    0.978572 = 978,008.4 -> 978,008, nothing added (idle); util_avg = 978,008 / (46718 +
 *    929) = 20.5 -> 20: a 1 ms burst weighs about 1/47 of the capacity.
 */
static void test_burst_then_idle(void **state)
{
	struct sched_avg a = { 0 };

	(void)state;
	assert_int_equal(pelt_update_util(&a, 1 * MS_, true), 0);
	expect_avg(&a, 999424, 976, 0);
	assert_int_equal(a.last_update_time_ns, 999424);
	assert_int_equal(pelt_update_util(&a, 2 * MS_, false), 1);
	expect_avg(&a, 978008, 929, 20);
	assert_int_equal(a.last_update_time_ns, 999424 + 977 * 1024);
}

/*
 * A CPU that has run for 2000 periods (> 62 half-lives: decay_load(x, 2000) = x >> 62 ... = 0
 * for the values here): contrib = 0 + 47742 - 0 - 1024 + r. Read at a boundary (r = 0):
 * util_sum = 46718 << 10, util_avg = 46718 * 1024 / 46718 = 1024. Read 512 units into the
 * next period, still running: the sum decays by nothing more (no boundary) and gains 512
 * << 10: util_sum = (46718 + 512) << 10 = 47230 << 10, and no period ends so util_avg stays
 * 1024 (were it recomputed: 47230 * 1024 / (46718 + 512) = 1024, the divider's purpose).
 * The kernel's integer series thus saturates at the full capacity, not at the real series'
 * 1024 * (1 - y^n) just below it; cpu_util_cfs() caps at 1024 anyway.
 * Then 1 period idle: decay_load(47230 << 10, 1) = 48,363,520 * 0xfa83b2da >> 32 =
 * 48,363,520 * 4,202,935,002 / 2^32 = 47,327,189.6 -> 47,327,189 (p = 1, r = 512),
 * util_avg = 47,327,189 / 47230 = 1002.06 -> 1002: the running CPU's first idle period
 * costs 1 - y, about 2 %.
 */
static void test_long_running(void **state)
{
	struct sched_avg a = { 0 };

	(void)state;
	assert_int_equal(pelt_update_util(&a, 2000 * PERIOD_NS, true), 1);
	expect_avg(&a, 46718 << 10, 0, 1024);
	assert_int_equal(pelt_update_util(&a, 2000 * PERIOD_NS + 512 * 1024, true), 0);
	expect_avg(&a, 47230 << 10, 512, 1024);
	assert_int_equal(pelt_update_util(&a, 2001 * PERIOD_NS + 512 * 1024, false), 1);
	expect_avg(&a, 47327189, 512, 1002);
}

static struct sched_place *shape(int packages, int cores, int threads)
{
	struct machine m = { .packages = packages, .cores = cores, .threads = threads };
	struct sched_place *sp = sched_place_new(&m);

	assert_non_null(sp);
	return sp;
}

/*
 * update_idle_cpu_scan() on an 8-CPU LLC (skl's shape, 1 x 4 x 2: the LLC domain is MC,
 * imbalance_pct 117; 117^2 = 13689; 10000 * 1024 = 10,240,000):
 *  - sum 0: x = 0, tmp = 0, y = 1024, nr = 1024 * 8 / 1024 = 8 (a full scan, the start);
 *  - every CPU at 512, sum 4096: x = 512, tmp = 262,144 * 13689 / 10,240,000 = 350.4 ->
 *    350, y = 674, nr = 674 * 8 / 1024 = 5.27 -> 5;
 *  - every CPU at 819, sum 6552: x = 819, tmp = 670,761 * 13689 / 10,240,000 = 896.7 ->
 *    896, y = 128, nr = 1024 / 1024 = 1; sum 6559 still has x = 819 (6559 / 8 = 819.9):
 *    nr 1;
 *  - sum 6560: x = 820, tmp = 672,400 * 13689 / 10,240,000 = 898.9 -> 898, y = 126,
 *    nr = 1008 / 1024 -> 0: no scan (nr_idle_scan + 1 = 1 stops select_idle_cpu at once);
 *  - every CPU at 876 (> 1024 * 100 / 117 = 875.2), sum 7008: tmp = 767,376 * 13689 /
 *    10,240,000 = 1025.8 -> capped at 1024, y = 0, nr 0; and at 1024 (sum 8192): the same.
 * Each update replaces the value, down and back up (sum 0 again: 8).
 */
static void test_idle_cpu_scan_llc8(void **state)
{
	static const struct {
		unsigned long sum_util;
		int nr;
	} upd[] = { { 4096, 5 }, { 6552, 1 }, { 6559, 1 }, { 6560, 0 },
		    { 7008, 0 }, { 8192, 0 }, { 0, 8 } };
	struct sched_place *sp = shape(1, 4, 2);
	size_t i;

	(void)state;
	assert_int_equal(sched_place_nr_idle_scan(sp, 3), 8);
	for (i = 0; i < sizeof(upd) / sizeof(upd[0]); i++) {
		sched_update_idle_cpu_scan(sp, 3, upd[i].sum_util);
		assert_int_equal(sched_place_nr_idle_scan(sp, (int)i % 8), upd[i].nr);
	}
	sched_place_free(sp);
}

/*
 * Which domain's imbalance_pct, and which LLC:
 *  - two LLCs (2 x 2 x 1, CPUs 0-1 and 2-3): an update by CPU 2 sets LLC 1 only;
 *    sum 1300 on 2 CPUs: x = 650, with 117: tmp = 422,500 * 13689 / 10,240,000 = 564.8 ->
 *    564, y = 460, nr = 920 / 1024 -> 0; LLC 0 keeps 2;
 *  - a package of one SMT core (1 x 1 x 2): the domain spanning the LLC is SMT
 *    (SD_SHARE_CPUCAPACITY, imbalance_pct 110; MC degenerates): x = 650, tmp = 422,500 *
 *    12100 / 10,240,000 = 499.2 -> 499, y = 525, nr = 1050 / 1024 -> 1;
 *  - one CPU per LLC (2 x 1 x 1): no sd_llc_shared, nothing changes (nr stays 1).
 */
static void test_idle_cpu_scan_domains(void **state)
{
	struct sched_place *sp = shape(2, 2, 1);

	(void)state;
	sched_update_idle_cpu_scan(sp, 2, 1300);
	assert_int_equal(sched_place_nr_idle_scan(sp, 3), 0);
	assert_int_equal(sched_place_nr_idle_scan(sp, 0), 2);
	sched_place_free(sp);
	sp = shape(1, 1, 2);
	sched_update_idle_cpu_scan(sp, 0, 1300);
	assert_int_equal(sched_place_nr_idle_scan(sp, 1), 1);
	sched_place_free(sp);
	sp = shape(2, 1, 1);
	sched_update_idle_cpu_scan(sp, 1, 1024);
	assert_int_equal(sched_place_nr_idle_scan(sp, 1), 1);
	sched_place_free(sp);
}

/*
 * The scan depth at work (skl, 8 CPUs, no idle core so has_idle_cores is cleared first):
 * CPUs 0-5 busy, 6 and 7 idle. The first wakeup (prev 0, waker on 0) scans for an idle core
 * (the stale hint): cores {1,5}, {2,6}: 6 idle but 2 busy -> fallback 6 ... no core: the
 * hint is cleared, CPU 6 returned. Then, hint clear, with prev 1 and the waker on 1: target
 * 1 busy, prev = target, no recent CPU; select_idle_smt(1): sibling 5 busy; select_idle_cpu
 * from 2 with nr_idle_scan:
 *  - 8 (the start): 2, 3, 4, 5 busy, 6 idle -> 6;
 *  - 4 (nr = 5: the 4th CPU looked at is the last): 2, 3, 4, 5 busy, then --nr reaches 0
 *    at 6: -1 -> the target, 1;
 *  - 5: 2..5 busy, 6 is the 5th: idle -> 6.
 */
static void test_scan_depth_placement(void **state)
{
	struct sched_place *sp = shape(1, 4, 2);
	struct sched_task waker, p;
	struct sched_waker w = { .cpu = 0, .task = &waker };
	int cpu;

	(void)state;
	for (cpu = 0; cpu < 6; cpu++)
		sched_place_set_nr_running(sp, cpu, 1);
	sched_task_init(&waker, 0);
	sched_task_init(&p, 0);
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 6);
	assert_false(sched_place_has_idle_cores(sp, 0));
	w.cpu = 1;
	sched_task_init(&waker, 1);
	sched_task_init(&p, 1);
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 6);
	sched_place_set_nr_idle_scan(sp, 0, 4);
	sched_task_init(&p, 1);
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 1);
	sched_place_set_nr_idle_scan(sp, 0, 5);
	sched_task_init(&p, 1);
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 6);
	sched_place_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_load),
		cmocka_unit_test(test_running_from_zero),
		cmocka_unit_test(test_burst_then_idle),
		cmocka_unit_test(test_long_running),
		cmocka_unit_test(test_idle_cpu_scan_llc8),
		cmocka_unit_test(test_idle_cpu_scan_domains),
		cmocka_unit_test(test_scan_depth_placement),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
