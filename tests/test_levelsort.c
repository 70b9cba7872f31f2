// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_levelsort.c - the lanes' sort of per-CPU level logs: a small case by hand, the
 * crowded case that must fall back to pairwise merging, and random runs against a plain
 * reference (every output in time order, and the same changes as the input).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/levelsort.h"

#define LC(t, cpu, lvl) ((struct level_change){ (t), (cpu), (lvl) })

static void test_by_hand(void **state)
{
	static const struct level_change r0[] = { LC(10, 0, 5), LC(40, 0, 0), LC(90, 0, 3) };
	static const struct level_change r2[] = { LC(5, 2, 1), LC(40, 2, 0), LC(100, 2, 9) };
	const struct level_change *runs[] = { r0, NULL, r2 };
	const size_t lens[] = { 3, 0, 3 };
	/* Expected by hand: 5 10 40 40 90 100 (the two changes at 40 in either order). */
	static const int64_t want_t[] = { 5, 10, 40, 40, 90, 100 };
	static const int want_cpu[] = { 2, 0, -1, -1, 0, 2 };
	struct level_sort ls = { 0 };
	const struct level_change *out;
	size_t n, i;

	(void)state;
	out = level_sort(&ls, runs, lens, 3, &n);
	assert_non_null(out);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i].t_ns, want_t[i]);
		if (want_cpu[i] >= 0)
			assert_int_equal(out[i].cpu, want_cpu[i]);
	}
	assert_true(out[2].cpu != out[3].cpu);
	assert_int_equal(ls.fallbacks, 0);
	/* Nothing to sort. */
	out = level_sort(&ls, runs, (const size_t[]){ 0, 0, 0 }, 3, &n);
	assert_int_equal(n, 0);
	level_sort_free(&ls);
}

static int64_t rnd(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return (int64_t)(*x >> 33);
}

/* Checks out[0..n) is in time order and holds exactly the input changes. */
static void check_sorted(const struct level_change *out, size_t n,
			 const struct level_change *const *runs, const size_t *lens, int nruns)
{
	size_t i, *seen = calloc((size_t)nruns, sizeof(*seen)), total = 0;
	int k;

	assert_non_null(seen);
	for (k = 0; k < nruns; k++)
		total += lens[k];
	assert_int_equal(n, total);
	for (i = 0; i < n; i++) {
		k = out[i].cpu;
		if (i)
			assert_true(out[i - 1].t_ns <= out[i].t_ns);
		/* Each run's changes come out in their own order (the level is the index). */
		assert_true(k >= 0 && k < nruns);
		assert_int_equal(out[i].level, (int32_t)seen[k]);
		assert_int_equal(out[i].t_ns, runs[k][seen[k]].t_ns);
		seen[k]++;
	}
	for (k = 0; k < nruns; k++)
		assert_int_equal(seen[k], lens[k]);
	free(seen);
}

static void sort_random(int nruns, size_t per_run, int64_t spread_ns, int64_t outlier_ns,
			uint64_t seed, uint64_t want_fallbacks)
{
	struct level_change **buf = calloc((size_t)nruns, sizeof(*buf));
	const struct level_change **runs = calloc((size_t)nruns, sizeof(*runs));
	size_t *lens = calloc((size_t)nruns, sizeof(*lens)), n, i;
	struct level_sort ls = { 0 };
	const struct level_change *out;
	uint64_t x = seed;
	int k;

	assert_true(buf && runs && lens);
	for (k = 0; k < nruns; k++) {
		int64_t t = 0;

		buf[k] = calloc(per_run + 1, sizeof(**buf));
		assert_non_null(buf[k]);
		lens[k] = per_run - (size_t)(rnd(&x) % (int64_t)(per_run / 2 + 1));
		for (i = 0; i < lens[k]; i++) {
			/* Equal times within and across runs happen (spread 0 or a repeat). */
			if (rnd(&x) % 4)
				t += rnd(&x) % (spread_ns + 1);
			buf[k][i] = LC(t, k, (int32_t)i);
		}
		if (outlier_ns && k == 0) {
			buf[k][lens[k]] = LC(t + outlier_ns, k, (int32_t)lens[k]);
			lens[k]++;
		}
		runs[k] = buf[k];
	}
	out = level_sort(&ls, runs, lens, nruns, &n);
	assert_non_null(out);
	check_sorted(out, n, runs, lens, nruns);
	assert_int_equal(ls.fallbacks, want_fallbacks);
	level_sort_free(&ls);
	for (k = 0; k < nruns; k++)
		free(buf[k]);
	free(buf);
	free(runs);
	free(lens);
}

static void test_random_runs(void **state)
{
	(void)state;
	sort_random(8, 64, 50000, 0, 1, 0);
	sort_random(3, 500, 100, 0, 2, 0);
	sort_random(48, 20, 1000000, 0, 3, 0);
	sort_random(1, 100, 10, 0, 4, 0);
	sort_random(5, 40, 0, 0, 5, 0); /* all at time 0 */
}

/* Bursts in a long window: everything in one bucket but the outlier, 10 s later. The
 * insertion pass gives up and pairwise merging sorts the runs, still correctly. */
static void test_crowded_falls_back(void **state)
{
	(void)state;
	sort_random(4, 300, 1000, 10000000000LL, 6, 1);
	sort_random(2, 300, 1000, 10000000000LL, 7, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_random_runs),
		cmocka_unit_test(test_crowded_falls_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
