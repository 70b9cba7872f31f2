// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sched_util.c - PELT utilisation (sim/sched/pelt.c), each value worked out by hand
 * from Linux v6.12.118's kernel/sched/pelt.c in the test's comment.
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

#include "sim/sched/pelt.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_load),
		cmocka_unit_test(test_running_from_zero),
		cmocka_unit_test(test_burst_then_idle),
		cmocka_unit_test(test_long_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
