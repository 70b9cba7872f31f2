// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sched_place.c - wakeup placement (sim/sched/place.c), each case worked out by hand
 * from v6.12.118's kernel/sched/fair.c: select_task_rq_fair -> wake_affine (wake_affine_idle;
 * wake_affine_weight not modelled: no decision) -> select_idle_sibling in its order:
 * target idle, prev idle and cache affine, per-CPU kthread, recent_used_cpu, then
 * (has_idle_cores false) select_idle_smt(prev), then select_idle_cpu scanning the LLC from
 * target + 1 (select_idle_core when has_idle_cores), else target.
 *
 * skl: 1 package x 4 cores x 2 threads; core c holds CPUs c and c + 4, one LLC of 8 CPUs.
 * hsx: 2 x 12 x 2; package 0 holds CPUs 0-11 and 24-35, package 1 12-23 and 36-47.
 * A new context has every CPU idle and has_idle_cores set (as after each CPU went idle);
 * marking CPUs busy never clears the hint, only a scan that finds no idle core does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/base/error.h"
#include "sim/machine/machine.h"
#include "sim/sched/place.h"

static struct sched_place *load(const char *name)
{
	struct sim_error err = { 0 };
	struct machine m;
	struct sched_place *sp;

	if (machine_load(name, &m, &err))
		fail_msg("machine_load(%s): %s", name, err.text);
	sp = sched_place_new(&m);
	assert_non_null(sp);
	return sp;
}

/* A machine of the given shape: placement reads only the topology. */
static struct sched_place *shape(int packages, int cores, int threads)
{
	struct machine m = { .packages = packages, .cores = cores, .threads = threads };
	struct sched_place *sp = sched_place_new(&m);

	assert_non_null(sp);
	return sp;
}

/* Every CPU busy (one task) but those listed in idle[] (terminated by -1). */
static void busy_except(struct sched_place *sp, const int *idle)
{
	for (int cpu = 0; cpu < sched_place_nr_cpus(sp); cpu++) {
		bool keep_idle = false;

		for (const int *i = idle; *i >= 0; i++)
			keep_idle |= *i == cpu;
		sched_place_set_nr_running(sp, cpu, keep_idle ? 0 : 1);
	}
}

/* Wake a task whose prev_cpu is prev, from a plain task running on waker_cpu. */
static int wake(struct sched_place *sp, int waker_cpu, int prev, int flags)
{
	struct sched_task waker, p;
	struct sched_waker w = { .cpu = waker_cpu, .task = &waker };

	sched_task_init(&waker, waker_cpu);
	sched_task_init(&p, prev);
	return sched_select_cpu(sp, &p, &w, flags, 0);
}

/*
 * (a) skl, CPUs 0-3 busy, 4-7 idle: every core has a busy thread; the waker runs on 0 and
 * the wakee last ran there (prev 0 = waking CPU: no wake_affine, target 0).
 * First wakeup: target 0 busy, no recent CPU; has_idle_cores is still set (stale), so
 * select_idle_cpu looks for cores from 1: core {1,5}: 1 busy, 5 idle -> fallback 5; cores
 * {2,6}, {3,7}, {0,4} (reached at CPU 4) have a busy thread; no idle core: the hint is
 * cleared and the fallback 5 returned.
 * Second wakeup, same state: has_idle_cores is now false and prev 0 shares the LLC, so
 * select_idle_smt(prev 0) finds its idle sibling 4.
 */
static void test_a_idle_smt_sibling_of_waker(void **state)
{
	struct sched_place *sp = load("skl");

	(void)state;
	busy_except(sp, (const int[]){ 4, 5, 6, 7, -1 });
	assert_true(sched_place_has_idle_cores(sp, 0));
	assert_int_equal(wake(sp, 0, 0, 0), 5);
	assert_false(sched_place_has_idle_cores(sp, 0));
	assert_int_equal(wake(sp, 0, 0, 0), 4);
	sched_place_free(sp);
}

/*
 * (b) 1 package x 2 cores x 1 thread (CPUs 0 and 1, one LLC, no SMT). The waker on CPU 0
 * wakes with WF_SYNC a task whose prev is 1.
 *  - CPU 1 busy, waker alone on 0 (nr_running 1): wake_affine_idle: 0 is not idle, but
 *    sync with nr_running == 1 -> this_cpu 0. select_idle_sibling(prev 1, target 0): 0 and
 *    1 busy; select_idle_cpu scans 1, 0 (nr_idle_scan 2 + 1 = 3 allows both): none idle
 *    -> target 0, stacked on the waker that is about to sleep.
 *  - Same with two tasks on 0: the sync rule fails, prev busy: no decision; WA_WEIGHT is
 *    not modelled, so wake_affine returns prev 1; nothing idle -> 1.
 *  - Waker alone on 0, CPU 1 idle: the sync rule comes before "prev idle" -> target 0; but
 *    select_idle_sibling then takes prev 1 (idle, shares the LLC) -> 1.
 */
static void test_b_sync_wakeup_two_cpus(void **state)
{
	struct sched_place *sp = shape(1, 2, 1);

	(void)state;
	sched_place_set_nr_running(sp, 0, 1);
	sched_place_set_nr_running(sp, 1, 1);
	assert_int_equal(wake(sp, 0, 1, WF_SYNC), 0);
	sched_place_set_nr_running(sp, 0, 2);
	assert_int_equal(wake(sp, 0, 1, WF_SYNC), 1);
	sched_place_set_nr_running(sp, 0, 1);
	sched_place_set_nr_running(sp, 1, 0);
	assert_int_equal(wake(sp, 0, 1, WF_SYNC), 1);
	sched_place_free(sp);
}

/*
 * (c) hsx, only CPU 0 busy (the waker, alone).
 *  - Sync wakeup, prev 1 (package 0, idle): wake_affine_idle's sync rule -> target 0;
 *    select_idle_sibling: 0 busy, prev 1 != 0, same LLC, idle -> 1.
 *  - Plain wakeup, prev 12 (package 1, idle): wake_affine_idle: 0 busy, no sync, prev idle
 *    -> prev 12 (not this_cpu, so wake_affine keeps prev); target 12 idle -> 12.
 */
static void test_c_prev_idle_cache_affine(void **state)
{
	struct sched_place *sp = load("hsx");

	(void)state;
	assert_int_equal(sched_place_nr_cpus(sp), 48);
	sched_place_set_nr_running(sp, 0, 1);
	assert_int_equal(wake(sp, 0, 1, WF_SYNC), 1);
	assert_int_equal(wake(sp, 0, 12, 0), 12);
	sched_place_free(sp);
}

/*
 * (d) skl, CPUs 0, 1, 3 busy; 2, 4, 5, 6, 7 idle; has_idle_cores set. Waker on 0, prev 0
 * -> target 0 busy, no recent CPU. has_idle_cores skips select_idle_smt (which would give
 * 4); select_idle_cpu from 1: core {1,5} not idle (fallback 5), core {2,6} wholly idle ->
 * 2, the idle core, not an idle thread of a busy core.
 */
static void test_d_idle_core_before_idle_thread(void **state)
{
	struct sched_place *sp = load("skl");

	(void)state;
	busy_except(sp, (const int[]){ 2, 4, 5, 6, 7, -1 });
	assert_int_equal(wake(sp, 0, 0, 0), 2);
	assert_true(sched_place_has_idle_cores(sp, 0));
	sched_place_free(sp);
}

/*
 * (e) skl, every CPU busy. Waker on 0, prev 3, no sync: wake_affine_idle has no decision
 * -> prev 3. select_idle_sibling(3, 3): nothing idle; has_idle_cores (stale) -> the core
 * scan finds none, clears the hint -> target 3. Again: hint clear, select_idle_smt(3)
 * ({3,7} busy) and the CPU scan from 4 (9 - 1 = 8 CPUs allowed) find none -> 3.
 */
static void test_e_nothing_idle_target(void **state)
{
	struct sched_place *sp = load("skl");

	(void)state;
	busy_except(sp, (const int[]){ -1 });
	assert_int_equal(wake(sp, 0, 3, 0), 3);
	assert_false(sched_place_has_idle_cores(sp, 0));
	assert_int_equal(wake(sp, 0, 3, 0), 3);
	sched_place_free(sp);
}

/*
 * (f) skl, CPUs 2 and 6 idle, the rest busy. Waker on 0, wakee prev 1, recent_used_cpu 6:
 * wake_affine: 0 and 1 busy, no sync -> prev 1. select_idle_sibling(1, 1): 1 busy; not a
 * kthread; recent 6 differs from prev and target, shares the LLC, is idle and allowed -> 6
 * (the core scan would have given 2), and recent_used_cpu becomes prev, 1.
 */
static void test_f_recent_used_cpu(void **state)
{
	struct sched_place *sp = load("skl");
	struct sched_task waker, p;
	struct sched_waker w = { .cpu = 0, .task = &waker };

	(void)state;
	busy_except(sp, (const int[]){ 2, 6, -1 });
	sched_task_init(&waker, 0);
	sched_task_init(&p, 1);
	p.recent_used_cpu = 6;
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 6);
	assert_int_equal(p.recent_used_cpu, 1);
	sched_place_free(sp);
}

/*
 * (g) skl, only CPU 5 idle; the wakee may run anywhere but 5. Waker on 0 (allowed: want
 * affine), prev 1; wake_affine: no decision -> prev 1.
 *  - First wakeup, has_idle_cores set: select_idle_cpu over {0-4, 6, 7} from 2: cores
 *    {2,6}, {3,7}, {0,4} busy; core {1,5} at CPU 1: 1 busy, 5 idle but not in the scan
 *    mask, so no fallback; hint cleared -> target 1.
 *  - Second, hint clear: recent_used_cpu is 1 = prev (skipped); select_idle_smt(1) skips 5
 *    (not allowed); the scan of 7 allowed CPUs finds none -> 1.
 *  - A task allowed everywhere, prev 1: select_idle_smt(1) -> 5.
 */
static void test_g_affinity_excludes_idle(void **state)
{
	struct sched_place *sp = load("skl");
	const bool allowed[8] = { true, true, true, true, true, false, true, true };
	struct sched_task waker, p;
	struct sched_waker w = { .cpu = 0, .task = &waker };

	(void)state;
	busy_except(sp, (const int[]){ 5, -1 });
	sched_task_init(&waker, 0);
	sched_task_init(&p, 1);
	p.cpus_allowed = allowed;
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 1);
	assert_false(sched_place_has_idle_cores(sp, 0));
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 1);
	assert_int_equal(wake(sp, 0, 1, 0), 5);
	sched_place_free(sp);
}

/*
 * (h) skl, only CPU 6 idle. A per-CPU kthread on CPU 2 (alone: nr_running 1) wakes a task
 * whose prev is 2 (an I/O completion): target 2 busy, prev = target, then the kthread
 * rule: prev is the waking CPU and nr_running <= 1 -> 2. A plain task in its place: the
 * core scan from 3 ({3,7}, {0,4}, {1,5} busy; {2,6}: fallback 6) -> 6.
 */
static void test_h_per_cpu_kthread_stacks(void **state)
{
	struct sched_place *sp = load("skl");
	struct sched_task kworker, p;
	struct sched_waker w = { .cpu = 2, .task = &kworker, .per_cpu_kthread = true };

	(void)state;
	busy_except(sp, (const int[]){ 6, -1 });
	sched_task_init(&kworker, 2);
	sched_task_init(&p, 2);
	assert_int_equal(sched_select_cpu(sp, &p, &w, 0, 0), 2);
	assert_int_equal(wake(sp, 2, 2, 0), 6);
	sched_place_free(sp);
}

/*
 * (i) wake_wide on skl (sd_llc_size 8), every CPU busy, waker alone on 0, wakee prev 3,
 * WF_SYNC. A waker with no flips: record_wakee makes it 1; min(1, 0) = 0 < 8: not wide;
 * the sync rule -> target 0; nothing idle -> 0. A waker with 63 flips (64 after this
 * wakeup of a new task) and a wakee with 8: slave 8 >= 8 and master 64 >= 8 * 8: wide,
 * no wake_affine -> prev 3; nothing idle -> 3.
 */
static void test_i_wake_wide(void **state)
{
	struct sched_place *sp = load("skl");
	struct sched_task waker, p;
	struct sched_waker w = { .cpu = 0, .task = &waker };

	(void)state;
	busy_except(sp, (const int[]){ -1 });
	assert_int_equal(wake(sp, 0, 3, WF_SYNC), 0);
	sched_task_init(&waker, 0);
	waker.wakee_flips = 63;
	sched_task_init(&p, 3);
	p.wakee_flips = 8;
	assert_int_equal(sched_select_cpu(sp, &p, &w, WF_SYNC, 0), 3);
	assert_int_equal(waker.wakee_flips, 64);
	sched_place_free(sp);
}

/*
 * __update_idle_core on skl: clear the hint (a scan with every CPU busy), then CPU 4 goes
 * idle while its sibling 0 is busy: no idle core, the hint stays clear; then 0 goes idle
 * with 4 idle: the core {0,4} is idle and the hint is set.
 */
static void test_update_idle_core(void **state)
{
	struct sched_place *sp = load("skl");

	(void)state;
	busy_except(sp, (const int[]){ -1 });
	assert_int_equal(wake(sp, 1, 1, 0), 1);
	assert_false(sched_place_has_idle_cores(sp, 0));
	sched_place_set_nr_running(sp, 4, 0);
	assert_false(sched_place_has_idle_cores(sp, 0));
	sched_place_set_nr_running(sp, 0, 0);
	assert_true(sched_place_has_idle_cores(sp, 0));
	sched_place_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_idle_smt_sibling_of_waker),
		cmocka_unit_test(test_b_sync_wakeup_two_cpus),
		cmocka_unit_test(test_c_prev_idle_cache_affine),
		cmocka_unit_test(test_d_idle_core_before_idle_thread),
		cmocka_unit_test(test_e_nothing_idle_target),
		cmocka_unit_test(test_f_recent_used_cpu),
		cmocka_unit_test(test_g_affinity_excludes_idle),
		cmocka_unit_test(test_h_per_cpu_kthread_stacks),
		cmocka_unit_test(test_i_wake_wide),
		cmocka_unit_test(test_update_idle_core),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
