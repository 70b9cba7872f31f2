// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_idlespan.c - intersections of idle spans (the lanes' energy accounting): a case by
 * hand, the degenerate ones (no member idle, one member, empty and zero-length spans), and
 * random lists against the definition nanosecond by nanosecond, folded at once and one list
 * at a time (idle_span_stack, up to 128 lists): a unit is at the smallest
 * level of its members, 0 where any member runs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/base/idlespan.h"

#define SP(s, e, l) ((struct idle_span){ (s), (e), (l) })

static void assert_span(const struct idle_span *got, int64_t s, int64_t e, int32_t l)
{
	assert_int_equal(got->start_ns, s);
	assert_int_equal(got->end_ns, e);
	assert_int_equal(got->level, l);
}

static void test_by_hand(void **state)
{
	static const struct idle_span x[] = { SP(10, 50, 3), SP(60, 100, 5) };
	static const struct idle_span y[] = { SP(0, 20, 6), SP(30, 70, 2), SP(80, 90, 4),
					      SP(100, 120, 1) };
	struct idle_span out[6];
	int64_t level_ns[8] = { 0 };
	size_t n;

	(void)state;
	n = idle_span_intersect(x, 2, y, 4, out);
	/* [100, 120) only touches x's last span: nothing shared there */
	assert_int_equal(n, 4);
	assert_span(&out[0], 10, 20, 3);
	assert_span(&out[1], 30, 50, 2);
	assert_span(&out[2], 60, 70, 2);
	assert_span(&out[3], 80, 90, 4);
	/* over [0, 130): 10 at level 3, 20 + 10 at level 2, 10 at level 4, the rest running */
	idle_span_charge(out, n, 0, 130, level_ns);
	assert_int_equal(level_ns[0], 130 - 50);
	assert_int_equal(level_ns[2], 30);
	assert_int_equal(level_ns[3], 10);
	assert_int_equal(level_ns[4], 10);
	/* the intersection is symmetric */
	assert_int_equal(idle_span_intersect(y, 4, x, 2, out), 4);
	assert_span(&out[1], 30, 50, 2);
}

static void test_degenerate(void **state)
{
	static const struct idle_span x[] = { SP(5, 5, 3), SP(5, 40, 7), SP(40, 40, 1) };
	const struct idle_span *lists[3] = { x, NULL, x };
	size_t lens[3] = { 3, 0, 3 }, n;
	const struct idle_span *res;
	struct idle_span_fold f = { 0 };
	struct idle_span out[6];

	(void)state;
	/* one member: the unit's spans are its own, not copied */
	assert_int_equal(idle_span_fold(&f, lists, lens, 1, out, &res, &n), 0);
	assert_ptr_equal(res, x);
	assert_int_equal(n, 3);
	/* a member that never idles: nothing */
	assert_int_equal(idle_span_fold(&f, lists, lens, 2, out, &res, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(idle_span_fold(&f, lists, lens, 3, out, &res, &n), 0);
	assert_int_equal(n, 0);
	/* zero-length spans give nothing, even against themselves */
	assert_int_equal(idle_span_intersect(x, 3, x, 3, out), 1);
	assert_span(&out[0], 5, 40, 7);
	idle_span_fold_free(&f);
}

static int64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (int64_t)(*x >> 1);
}

#define WINDOW 300
#define LEVELS 11

/* m random lists in [0, WINDOW): touching, zero-length and window-wide spans included. */
static void fold_random(int m, uint64_t seed, struct idle_span_stack *stack)
{
	struct idle_span **buf = calloc((size_t)m, sizeof(*buf));
	const struct idle_span **lists = calloc((size_t)m, sizeof(*lists));
	size_t *lens = calloc((size_t)m, sizeof(*lens)), room = 0, n, i;
	int level_at[WINDOW];
	int64_t want[LEVELS] = { 0 }, got[LEVELS] = { 0 };
	struct idle_span_fold f = { 0 };
	const struct idle_span *res;
	struct idle_span *out;
	uint64_t x = seed;
	int k, t;

	assert_true(buf && lists && lens);
	for (t = 0; t < WINDOW; t++)
		level_at[t] = LEVELS - 1;
	for (k = 0; k < m; k++) {
		int64_t at = rnd(&x) % 3 ? rnd(&x) % 20 : 0;
		int covered[WINDOW] = { 0 };

		buf[k] = calloc(WINDOW + 1, sizeof(**buf));
		assert_non_null(buf[k]);
		while (at < WINDOW) {
			int64_t len = rnd(&x) % 8 ? rnd(&x) % 40 : 0, end;
			int32_t lvl = (int32_t)(1 + rnd(&x) % (LEVELS - 1));

			end = at + len > WINDOW ? WINDOW : at + len;
			buf[k][lens[k]++] = SP(at, end, lvl);
			for (t = (int)at; t < end; t++) {
				covered[t] = 1;
				if (lvl < level_at[t])
					level_at[t] = lvl;
			}
			at = end + (rnd(&x) % 3 ? rnd(&x) % 30 : 0);
		}
		for (t = 0; t < WINDOW; t++)
			if (!covered[t])
				level_at[t] = 0;
		lists[k] = buf[k];
		room += lens[k];
	}
	for (t = 0; t < WINDOW; t++)
		want[level_at[t]]++;
	out = calloc(room + 1, sizeof(*out));
	assert_non_null(out);
	assert_int_equal(idle_span_fold(&f, lists, lens, m, out, &res, &n), 0);
	/* in time order, none overlapping, none empty (one member: its own list) */
	for (i = 0; i < n; i++) {
		assert_true(res[i].start_ns < res[i].end_ns || (m == 1 && res[i].start_ns == res[i].end_ns));
		assert_true(i + 1 == n || res[i].end_ns <= res[i + 1].start_ns);
	}
	idle_span_charge(res, n, 0, WINDOW, got);
	assert_memory_equal(got, want, sizeof(want));
	/* the same lists one at a time (the stack reused from the calls before: reset) */
	idle_span_stack_reset(stack);
	for (k = 0; k < m; k++)
		assert_int_equal(idle_span_stack_push(stack, lists[k], lens[k]), 0);
	assert_int_equal(idle_span_stack_result(stack, &res, &n), 0);
	for (i = 0; i < n; i++) {
		assert_true(res[i].start_ns < res[i].end_ns || (m == 1 && res[i].start_ns == res[i].end_ns));
		assert_true(i + 1 == n || res[i].end_ns <= res[i + 1].start_ns);
	}
	memset(got, 0, sizeof(got));
	idle_span_charge(res, n, 0, WINDOW, got);
	assert_memory_equal(got, want, sizeof(want));
	idle_span_fold_free(&f);
	for (k = 0; k < m; k++)
		free(buf[k]);
	free(buf);
	free(lists);
	free(lens);
	free(out);
}

static void test_random_against_definition(void **state)
{
	struct idle_span_stack stack = { 0 };
	uint64_t seed;
	int m;

	(void)state;
	for (m = 1; m <= 13; m++)
		for (seed = 1; seed <= 40; seed++)
			fold_random(m, seed * 7919 + (uint64_t)m, &stack);
	/* 128 lists, a package of cores: seven carries deep */
	for (seed = 1; seed <= 5; seed++)
		fold_random(128, seed, &stack);
	idle_span_stack_free(&stack);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_random_against_definition),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
