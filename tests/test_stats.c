// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats.c - latency percentiles (nearest rank), exact and bucketed values, merging,
 * and the derived percentages.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "sim/engine/stats.h"

/* Nearest rank: the p-th percentile is the smallest value whose rank >= ceil(p/100 * n). */
static void test_percentiles_exact(void **state)
{
	struct lat_hist h;

	(void)state;
	lat_hist_init(&h);
	/* 90 samples of 2,000 and 10 of 133,000: p50 = 2,000; p90 = 2,000 (rank 90);
	 * p91 = 133,000 (rank 91); p99 = 133,000. Mean = (180,000 + 1,330,000) / 100. */
	assert_int_equal(lat_hist_add(&h, 133000, 10), 0);
	assert_int_equal(lat_hist_add(&h, 2000, 90), 0);
	assert_int_equal(lat_hist_percentile(&h, 50), 2000);
	assert_int_equal(lat_hist_percentile(&h, 90), 2000);
	assert_int_equal(lat_hist_percentile(&h, 91), 133000);
	assert_int_equal(lat_hist_percentile(&h, 99), 133000);
	assert_int_equal(h.max_ns, 133000);
	assert_true(lat_hist_mean(&h) == 15100.0);
	assert_null(h.chunks);
	lat_hist_release(&h);
}

/* More distinct values than the exact table holds: the rest is bucketed, reported at the
 * bucket's upper end (never above the maximum), within 1/32. */
static void test_buckets(void **state)
{
	struct lat_hist h, m;
	int64_t v, p;
	int i;

	(void)state;
	lat_hist_init(&h);
	lat_hist_reserve(&h, 85000);
	for (i = 1; i <= 100; i++)
		assert_int_equal(lat_hist_add(&h, i * 1000, 1), 0);
	assert_int_equal(lat_hist_add(&h, 85000, 1), 0);
	assert_non_null(h.chunks);
	/* 85,000 and 1,000..15,000 are exact; 16,000..100,000 spill into the powers of two
	 * 2^13..2^16, a chunk each (chunk e - 4: 64 linear buckets, then 32 per power of two) */
	for (i = 0, v = 0; i < LAT_CHUNKS; i++)
		v += h.chunks[i] != NULL;
	assert_int_equal(v, 4);
	for (i = 13; i <= 16; i++)
		assert_non_null(h.chunks[i - 4]);
	assert_int_equal(h.n, 101);
	/* Rank 51 is 50,000 (values 1..50 us, then 50 us again is not duplicated: 1,000..50,000
	 * are ranks 1..50, the reserved 85,000 sits among them in order). */
	p = lat_hist_percentile(&h, 50);
	v = 51000;
	assert_true(p >= v - v / 32 && p <= v + v / 32);
	assert_int_equal(lat_hist_percentile(&h, 100), 100000);
	/* The reserved value stays exact. */
	assert_int_equal(h.exact_val[0], 85000);
	assert_int_equal(h.exact_cnt[0], 2);

	/* Merging keeps counts, sum and max. */
	lat_hist_init(&m);
	assert_int_equal(lat_hist_merge(&m, &h), 0);
	assert_int_equal(lat_hist_merge(&m, &h), 0);
	assert_int_equal(m.n, 202);
	assert_int_equal(m.sum_ns, 2 * h.sum_ns);
	assert_int_equal(m.max_ns, 100000);
	assert_int_equal(lat_hist_percentile(&m, 100), 100000);
	/* bucket by bucket: twice h's, in the same chunks */
	for (i = 0; i < LAT_CHUNKS; i++) {
		int j;

		assert_int_equal(m.chunks[i] != NULL, h.chunks[i] != NULL);
		for (j = 0; h.chunks[i] && j < LAT_CHUNK; j++)
			assert_int_equal(m.chunks[i][j], 2 * h.chunks[i][j]);
	}
	lat_hist_release(&h);
	lat_hist_release(&m);
}

/* The exact table against a plain reference: from a pool of 40 values added in random order,
 * the first 16 distinct ones (reserved values first) are counted exactly, every other
 * sample is bucketed; lookups that collide in the table still find their value. */
static void test_exact_table(void **state)
{
	int64_t pool[40], order[16];
	uint64_t want[16] = { 0 }, x = 12345, bucketed = 0, got_bucketed = 0;
	struct lat_hist h;
	int i, k, nr = 0;

	(void)state;
	for (i = 0; i < 40; i++)
		pool[i] = 1000 + (int64_t)i * 7919 * (i % 3 + 1);
	lat_hist_init(&h);
	lat_hist_reserve(&h, pool[39]);
	order[nr++] = pool[39];
	for (i = 0; i < 2000; i++) {
		int64_t v;
		uint64_t cnt;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = pool[x % 40];
		cnt = 1 + (x >> 32) % 3;
		assert_int_equal(lat_hist_add(&h, v, cnt), 0);
		for (k = 0; k < nr && order[k] != v; k++)
			;
		if (k == nr && nr < 16)
			order[nr++] = v;
		if (k < nr)
			want[k] += cnt;
		else
			bucketed += cnt;
	}
	assert_int_equal(h.nr_exact, 16);
	for (k = 0; k < 16; k++) {
		assert_int_equal(h.exact_val[k], order[k]);
		assert_int_equal(h.exact_cnt[k], want[k]);
	}
	for (i = 0; i < LAT_BUCKETS; i++)
		if (h.chunks && h.chunks[i / LAT_CHUNK])
			got_bucketed += h.chunks[i / LAT_CHUNK][i % LAT_CHUNK];
	assert_int_equal(got_bucketed, bucketed);
	lat_hist_release(&h);
}

static void test_summary(void **state)
{
	struct run_stats rs;
	struct cpu_stats cpus[2];
	struct stats_summary s;

	(void)state;
	memset(&rs, 0, sizeof(rs));
	memset(cpus, 0, sizeof(cpus));
	rs.nr_cpus = 2;
	rs.state_count = 2;
	rs.start_ns = 0;
	rs.end_ns = 1000000;
	rs.cpus = cpus;
	/* CPU 0: 10 entries of state 1 (2 above, 3 below), 400 us in it; busy 100 us.
	 * CPU 1: 6 entries of state 0, 200 us; busy 300 us. */
	cpus[0].states[1].usage = 10;
	cpus[0].states[1].above = 2;
	cpus[0].states[1].below = 3;
	cpus[0].states[1].time_ns = 400000;
	cpus[0].busy_ns = 100000;
	cpus[1].states[0].usage = 6;
	cpus[1].states[0].time_ns = 200000;
	cpus[1].busy_ns = 300000;
	assert_int_equal(run_stats_sum(&rs), 0);
	stats_summarize(&rs, &rs.total, 2, &s);
	assert_int_equal(s.idle_entries, 16);
	assert_int_equal(s.hits, 11);
	assert_true(s.above_pct == 12.5);
	assert_true(s.below_pct == 18.75);
	/* Residency over 2 CPUs x 1 ms: state 1 20 %, state 0 10 %; busy 20 %. */
	assert_true(s.residency_pct[1] == 20.0);
	assert_true(s.residency_pct[0] == 10.0);
	assert_true(s.busy_pct == 20.0);
	lat_hist_release(&rs.total.wake_latency);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_exact),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_exact_table),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
