// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_eventq.c - the event queue's total order, and the heap against the naive reference
 * queue on random schedules (in the spirit of ROSS's splay_order_test).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/base/eventq.h"

static void test_order_time_prio_seq(void **state)
{
	struct eventq *q = eventq_new(EVENTQ_HEAP, 8);
	uint32_t item;
	int64_t t;

	(void)state;
	eventq_set(q, 0, 100, 2);
	eventq_set(q, 1, 50, 2);
	eventq_set(q, 2, 100, 0); /* same time as 0, lower priority value: first */
	eventq_set(q, 3, 100, 2); /* same time and priority as 0, scheduled later */
	eventq_set(q, 4, 10, 0);
	eventq_set(q, 4, 200, 0); /* moved later */
	assert_int_equal(eventq_len(q), 5);
	assert_true(eventq_pop(q, &item, &t));
	assert_int_equal(item, 1);
	assert_int_equal(t, 50);
	assert_true(eventq_pop(q, &item, &t));
	assert_int_equal(item, 2);
	assert_true(eventq_pop(q, &item, &t));
	assert_int_equal(item, 0);
	assert_true(eventq_pop(q, &item, &t));
	assert_int_equal(item, 3);
	assert_true(eventq_pop(q, &item, &t));
	assert_int_equal(item, 4);
	assert_int_equal(t, 200);
	assert_false(eventq_pop(q, &item, &t));
	eventq_free(q);
}

static void test_reschedule_takes_new_sequence(void **state)
{
	struct eventq *q = eventq_new(EVENTQ_NAIVE, 4);
	uint32_t item;
	int64_t t;

	(void)state;
	eventq_set(q, 0, 100, 1);
	eventq_set(q, 1, 100, 1);
	eventq_set(q, 0, 100, 1); /* rescheduled: now after item 1 */
	assert_true(eventq_pop(q, &item, &t));
	assert_int_equal(item, 1);
	eventq_remove(q, 0);
	assert_int_equal(eventq_len(q), 0);
	eventq_remove(q, 0); /* removing an absent item does nothing */
	eventq_free(q);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Drive both queues with the same random operations; every answer must agree. */
static void heap_matches_naive(uint32_t n)
{
	struct eventq *h = eventq_new(EVENTQ_HEAP, n), *r = eventq_new(EVENTQ_NAIVE, n);
	uint64_t s = 88172645463325252ull + n;
	int64_t now = 0;
	long pops = 0;
	int i;

	for (i = 0; i < 200000; i++) {
		uint64_t x = rnd(&s);
		uint32_t item = (uint32_t)(x % n);
		int op = (int)((x >> 20) % 10);

		if (op < 6) {
			/* Small time range and two priorities: many ties. */
			int64_t t = now + (int64_t)((x >> 32) % 50);
			int prio = (int)((x >> 40) & 1);

			eventq_set(h, item, t, prio);
			eventq_set(r, item, t, prio);
		} else if (op < 7) {
			eventq_remove(h, item);
			eventq_remove(r, item);
		} else {
			uint32_t a = 0, b = 0; /* read only if popped; cmocka's asserts do not tell */
			int64_t ta = 0, tb = 0;
			int ha = eventq_pop(h, &a, &ta), hb = eventq_pop(r, &b, &tb);

			assert_int_equal(ha, hb);
			if (ha) {
				assert_int_equal(a, b);
				assert_int_equal(ta, tb);
				assert_true(ta >= now); /* never earlier than what was popped */
				now = ta;
				pops++;
			}
		}
		assert_int_equal(eventq_len(h), eventq_len(r));
	}
	assert_true(pops > 10000);
	eventq_free(h);
	eventq_free(r);
}

/* Small queues use the cached-first scan, larger ones the tournament tree, the largest its
 * deep form: test all. */
static void test_heap_matches_naive(void **state)
{
	(void)state;
	heap_matches_naive(1);
	heap_matches_naive(5);
	heap_matches_naive(16);
	heap_matches_naive(17);
	heap_matches_naive(97);
	heap_matches_naive(300);  /* 512 leaves: the deep form (nodes with keys, early stop) */
	heap_matches_naive(1025); /* 2,048 leaves */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_time_prio_seq),
		cmocka_unit_test(test_reschedule_takes_new_sequence),
		cmocka_unit_test(test_heap_matches_naive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
