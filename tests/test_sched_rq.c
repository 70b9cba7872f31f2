// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sched_rq.c - a run queue of the fair class (sim/sched/rq.c), each case worked out
 * by hand from v6.12.118's kernel/sched/fair.c rules:
 *  - V (avg_vruntime) is the mean vruntime of the runnable tasks, curr included (all are
 *    nice 0 here, so the weights cancel); a task is eligible iff vruntime <= V.
 *  - place_entity: vruntime = V - lag * (W + w) / W (W: the load before it joins; lag 0 when
 *    the queue is empty), deadline = vruntime + slice.
 *  - update_curr: vruntime += ran; once vruntime >= deadline, deadline = vruntime + slice
 *    and, if another task is runnable, resched.
 *  - pick_eevdf: curr if it is eligible and still has the deadline it was picked with
 *    (RUN_TO_PARITY); else the eligible task with the earliest deadline (the first queued
 *    on a tie), curr only if strictly earlier.
 *  - dequeue of a sleeper: lag = V - vruntime if eligible, else 0 (the model's stand-in for
 *    delayed dequeue, whose DELAY_ZERO ends at lag 0).
 * The machine has 8 CPUs (slice 0.70 ms x 4 = 2.8 ms) and HZ 250 (ticks every 4 ms).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/sched/rq.h"

#define MS 1000000LL
#define US 1000LL
#define TICK_NS (4 * MS)

/* A run queue of the 8-CPU, HZ 250 machine, and nice-0 tasks that never ran (NULL ends). */
static void setup(struct sched_rq *rq, struct sched_entity *const *se)
{
	sched_rq_init(rq, 8, TICK_NS);
	for (; *se; se++)
		sched_entity_init(*se);
}

/*
 * (a) Three always-runnable tasks A, B, C woken at 0 on an empty run queue: each is placed
 * at V = 0 (lag ignored on an empty queue, then 0), deadline 2.8 ms. The pick at 0 takes
 * A (all eligible, equal deadlines: the first queued). At each tick the runner has run
 * 4 ms >= its 2.8 ms slice: a new deadline (vruntime 4 + 2.8 = 6.8 ms at the first round)
 * and resched, since 3 are runnable. At 4 ms A (v 4) is above V = 4/3: B (v 0, deadline
 * 2.8) is picked; at 8 ms C (deadline 2.8, before A's 6.8); at 12 ms all have v 4 = V,
 * A and B have deadline 6.8, C 6.8 too but is curr (not strictly earlier): A, queued
 * first. So A B C A B C ... one per 4 ms tick, never an empty queue; after 48 ms (12 picks)
 * each has run 16 ms.
 */
static void test_a_three_tasks_round_robin_on_ticks(void **state)
{
	struct sched_rq rq;
	struct sched_entity t[3];
	const char *name = "ABC";

	(void)state;
	setup(&rq, (struct sched_entity *const[]){ &t[0], &t[1], &t[2], NULL });
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sched_rq_enqueue(&rq, &t[i], ENQUEUE_WAKEUP, 0), 0);
		assert_int_equal(t[i].vruntime_ns, 0);
		assert_int_equal(t[i].deadline_ns, 2800 * US);
	}
	assert_ptr_equal(sched_rq_pick_next(&rq, 0), &t[0]);
	for (int k = 1; k <= 12; k++) {
		assert_true(sched_rq_tick(&rq, k * TICK_NS));
		if (k == 1) {
			assert_int_equal(t[0].vruntime_ns, 4 * MS);
			assert_int_equal(t[0].deadline_ns, 6800 * US);
		}
		assert_false(sched_rq_idle(&rq));
		assert_int_equal(rq.nr_running, 3);
		if (k < 12) {
			struct sched_entity *next = sched_rq_pick_next(&rq, k * TICK_NS);

			assert_non_null(next);
			if (next != &t[k % 3])
				fail_msg("tick %d: ran %c, expected %c", k, name[next - t],
					 name[k % 3]);
		}
	}
	for (int i = 0; i < 3; i++)
		assert_int_equal(t[i].sum_exec_runtime_ns, 16 * MS);
	sched_rq_release(&rq);
}

/*
 * (b1) A wakeup that preempts. A runs alone from 0; the 4 ms tick gives it a new deadline
 * (4 + 2.8 = 6.8 ms; alone: no resched), which ends its slice protection. At 5 ms B wakes
 * with a lag of 1 ms kept from an earlier sleep: A's v = 5 = V, W = 1024, so B's lag is
 * inflated to 1 x 2048 / 1024 = 2 ms: v 3 ms, deadline 5.8 ms. Now V = (5 + 3) / 2 = 4:
 * A (v 5) is not eligible, B (v 3, lag still 1 ms) is, and is the pick: it preempts.
 */
static void test_b_wakee_with_earlier_deadline_preempts(void **state)
{
	struct sched_rq rq;
	struct sched_entity a, b;

	(void)state;
	setup(&rq, (struct sched_entity *const[]){ &a, &b, NULL });
	sched_rq_enqueue(&rq, &a, ENQUEUE_WAKEUP, 0);
	assert_ptr_equal(sched_rq_pick_next(&rq, 0), &a);
	assert_false(sched_rq_tick(&rq, 4 * MS));
	assert_int_equal(a.deadline_ns, 6800 * US);
	b.vlag_ns = 1 * MS;
	sched_rq_enqueue(&rq, &b, ENQUEUE_WAKEUP, 5 * MS);
	assert_int_equal(a.vruntime_ns, 5 * MS);
	assert_int_equal(b.vruntime_ns, 3 * MS);
	assert_int_equal(b.deadline_ns, 5800 * US);
	assert_true(sched_rq_wakeup_preempt(&rq, &b, 5 * MS));
	assert_true(rq.need_resched);
	assert_ptr_equal(sched_rq_pick_next(&rq, 5 * MS), &b);
	assert_false(rq.need_resched);
	sched_rq_release(&rq);
}

/*
 * (b2) RUN_TO_PARITY: a wakee with an earlier deadline that does not preempt.
 * C runs alone from 0; at the 4 ms tick, deadline 6.8 ms. A wakes at 6 ms (lag 0): V = C's
 * v = 6, A at v 6, deadline 8.8; C is eligible and its deadline 6.8 is earlier: no
 * preemption. The 8 ms tick: C's v 8 >= 6.8, deadline 10.8, resched; V = 7, C is not
 * eligible, A (v 6) is picked, protected with deadline 8.8. At 8.5 ms A's v = 6.5, V =
 * (6.5 + 8) / 2 = 7.25; B wakes with a lag of 1 ms, inflated by (2048 + 1024) / 2048 to
 * 1.5 ms: v 5.75, deadline 8.55 ms, before A's 8.8. V becomes (6.5 + 8 + 5.75) / 3 = 6.75:
 * A (6.5) is still eligible and still has the deadline it was picked with, so pick_eevdf
 * keeps A: no preemption, though B is eligible with the earliest deadline.
 */
static void test_b_run_to_parity_keeps_curr(void **state)
{
	struct sched_rq rq;
	struct sched_entity a, b, c;

	(void)state;
	setup(&rq, (struct sched_entity *const[]){ &a, &b, &c, NULL });
	sched_rq_enqueue(&rq, &c, ENQUEUE_WAKEUP, 0);
	assert_ptr_equal(sched_rq_pick_next(&rq, 0), &c);
	assert_false(sched_rq_tick(&rq, 4 * MS));
	sched_rq_enqueue(&rq, &a, ENQUEUE_WAKEUP, 6 * MS);
	assert_int_equal(a.vruntime_ns, 6 * MS);
	assert_int_equal(a.deadline_ns, 8800 * US);
	assert_false(sched_rq_wakeup_preempt(&rq, &a, 6 * MS));
	assert_true(sched_rq_tick(&rq, 8 * MS));
	assert_int_equal(c.deadline_ns, 10800 * US);
	assert_ptr_equal(sched_rq_pick_next(&rq, 8 * MS), &a);

	b.vlag_ns = 1 * MS;
	sched_rq_enqueue(&rq, &b, ENQUEUE_WAKEUP, 8500 * US);
	assert_int_equal(a.vruntime_ns, 6500 * US);
	assert_int_equal(b.vruntime_ns, 5750 * US);
	assert_int_equal(b.deadline_ns, 8550 * US);
	assert_true(sched_rq_entity_eligible(&rq, &a));
	assert_true(sched_rq_entity_eligible(&rq, &b));
	assert_false(sched_rq_wakeup_preempt(&rq, &b, 8500 * US));
	assert_false(rq.need_resched);
	assert_ptr_equal(rq.curr, &a);
	sched_rq_release(&rq);
}

/*
 * (b3) The idle task is current (nothing runnable): any wakeup preempts it.
 */
static void test_b_wakeup_on_idle_cpu_preempts(void **state)
{
	struct sched_rq rq;
	struct sched_entity a;

	(void)state;
	setup(&rq, (struct sched_entity *const[]){ &a, NULL });
	assert_true(sched_rq_idle(&rq));
	assert_null(sched_rq_pick_next(&rq, 0));
	sched_rq_enqueue(&rq, &a, ENQUEUE_WAKEUP, 1 * MS);
	assert_false(sched_rq_idle(&rq));
	assert_true(sched_rq_wakeup_preempt(&rq, &a, 1 * MS));
	assert_ptr_equal(sched_rq_pick_next(&rq, 1 * MS), &a);
	sched_rq_release(&rq);
}

/*
 * (c) The base slice: 0.70 ms x (1 + ilog2(min(CPUs, 8))): factor 1, 2, 2, 3, 4, 4 for 1,
 * 2, 3, 4, 8, 64 CPUs. A task placed on a 1-CPU run queue gets deadline v + 0.70 ms, a new
 * task (ENQUEUE_INITIAL) half of it, 0.35 ms.
 */
static void test_c_slice_scaling(void **state)
{
	struct sched_rq rq;
	struct sched_entity a, b;

	(void)state;
	assert_int_equal(sched_base_slice_ns(1), 700 * US);
	assert_int_equal(sched_base_slice_ns(2), 1400 * US);
	assert_int_equal(sched_base_slice_ns(3), 1400 * US);
	assert_int_equal(sched_base_slice_ns(4), 2100 * US);
	assert_int_equal(sched_base_slice_ns(8), 2800 * US);
	assert_int_equal(sched_base_slice_ns(64), 2800 * US);
	sched_rq_init(&rq, 1, TICK_NS);
	sched_entity_init(&a);
	sched_entity_init(&b);
	sched_rq_enqueue(&rq, &a, ENQUEUE_WAKEUP, 0);
	assert_int_equal(a.slice_ns, 700 * US);
	assert_int_equal(a.deadline_ns, 700 * US);
	sched_rq_enqueue(&rq, &b, ENQUEUE_WAKEUP | ENQUEUE_INITIAL, 0);
	assert_int_equal(b.deadline_ns, 350 * US);
	sched_rq_release(&rq);
}

/*
 * (d) Block and wake. A, B, C woken at 0 (v 0, deadline 2.8 ms); A picked.
 *  - A blocks at 1 ms: v 1 > V = 1/3: not eligible, so its lag is 0 (delayed dequeue's
 *    end). 2 runnable; A stays curr, off the queue, until the pick, which gives B (v 0,
 *    deadline 2.8, queued before C).
 *  - C blocks at 2 ms while waiting: B's v = 1, V = (1 + 0) / 2 = 0.5, C eligible with lag
 *    0.5 ms, kept. 1 runnable, B still runs.
 *  - A wakes at 3 ms: B's v = 2 = V (alone), A at v 2 (lag 0), deadline 4.8; B is eligible
 *    and protected (deadline 2.8 unchanged since its pick): no preemption.
 *  - C wakes at 3 ms: V = 2, lag 0.5 x (2048 + 1024) / 2048 = 0.75: v 1.25, deadline 4.05.
 *    V = (2 + 2 + 1.25) / 3 = 1.75: B and A are not eligible, C is: it preempts.
 *  - C blocks at 4 ms (v 2.25, V = 2.0833: not eligible, lag 0): A and B have v 2 = V, B's
 *    deadline 2.8 is before A's 4.8: B. B then A block at 5 ms: nothing runnable, the pick
 *    returns NULL and the CPU idles.
 */
static void test_d_block_and_wake(void **state)
{
	struct sched_rq rq;
	struct sched_entity a, b, c;

	(void)state;
	setup(&rq, (struct sched_entity *const[]){ &a, &b, &c, NULL });
	sched_rq_enqueue(&rq, &a, ENQUEUE_WAKEUP, 0);
	sched_rq_enqueue(&rq, &b, ENQUEUE_WAKEUP, 0);
	sched_rq_enqueue(&rq, &c, ENQUEUE_WAKEUP, 0);
	assert_ptr_equal(sched_rq_pick_next(&rq, 0), &a);

	sched_rq_dequeue(&rq, &a, 1 * MS);
	assert_false(a.on_rq);
	assert_int_equal(a.vruntime_ns, 1 * MS);
	assert_int_equal(a.vlag_ns, 0);
	assert_int_equal(rq.nr_running, 2);
	assert_ptr_equal(rq.curr, &a);
	assert_true(rq.need_resched);
	assert_ptr_equal(sched_rq_pick_next(&rq, 1 * MS), &b);

	sched_rq_dequeue(&rq, &c, 2 * MS);
	assert_int_equal(c.vlag_ns, 500 * US);
	assert_int_equal(rq.nr_running, 1);
	assert_ptr_equal(rq.curr, &b);
	assert_false(rq.need_resched);

	sched_rq_enqueue(&rq, &a, ENQUEUE_WAKEUP, 3 * MS);
	assert_int_equal(b.vruntime_ns, 2 * MS);
	assert_int_equal(a.vruntime_ns, 2 * MS);
	assert_int_equal(a.deadline_ns, 4800 * US);
	assert_false(sched_rq_wakeup_preempt(&rq, &a, 3 * MS));

	sched_rq_enqueue(&rq, &c, ENQUEUE_WAKEUP, 3 * MS);
	assert_int_equal(c.vruntime_ns, 1250 * US);
	assert_int_equal(c.deadline_ns, 4050 * US);
	assert_true(sched_rq_wakeup_preempt(&rq, &c, 3 * MS));
	assert_ptr_equal(sched_rq_pick_next(&rq, 3 * MS), &c);
	assert_int_equal(rq.nr_running, 3);

	sched_rq_dequeue(&rq, &c, 4 * MS);
	assert_int_equal(c.vlag_ns, 0);
	assert_ptr_equal(sched_rq_pick_next(&rq, 4 * MS), &b);
	sched_rq_dequeue(&rq, &b, 5 * MS);
	sched_rq_dequeue(&rq, &a, 5 * MS);
	assert_true(sched_rq_idle(&rq));
	assert_null(sched_rq_pick_next(&rq, 5 * MS));
	assert_null(rq.curr);
	assert_int_equal(b.sum_exec_runtime_ns, 3 * MS);
	assert_int_equal(c.sum_exec_runtime_ns, 1 * MS);
	sched_rq_release(&rq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_three_tasks_round_robin_on_ticks),
		cmocka_unit_test(test_b_wakee_with_earlier_deadline_preempts),
		cmocka_unit_test(test_b_run_to_parity_keeps_curr),
		cmocka_unit_test(test_b_wakeup_on_idle_cpu_preempts),
		cmocka_unit_test(test_c_slice_scaling),
		cmocka_unit_test(test_d_block_and_wake),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
