// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_loop_sched.c - the closed loop with the scheduler (sim/sched/loop_sched.c): tasks
 * placed by select_task_rq_fair, sharing CPUs under EEVDF, pulled by a newly-idle balance.
 * Every expectation is worked out from the kernel's rules (v6.12 kernel/sched/fair.c) in
 * the test's comment. The machine is skl's first two CPUs as a flat pair (one LLC, no SMT:
 * loop_sched.c gives a loop on fewer CPUs than its machine single-thread cores), HZ 250,
 * the scripted governor choosing C1 (exit latency 2 us), jitter-free scripted tasks.
 */
#include "tests/testutil.h"
#include "sim/base/common.h"
#include "sim/sched/loop.h"

#include <stdlib.h>

#define US_ (1000LL)
#define MAX_T 4

/*
 * Scripted tasks: task i (tid i + 1) starts at 0 with first_ns of work (none: it starts
 * when its partner wakes it) on CPU hint[i]
 * (pinned there if pinned[i]); when an item of it is done it wakes task partner[i] (if
 * >= 0) with reply_ns of work by a WF_SYNC wakeup, and blocks.
 */
struct tasks_model {
	int n;
	int hint[MAX_T];
	bool pinned[MAX_T];
	int64_t first_ns[MAX_T];
	int64_t at_ns[MAX_T]; /* when the first item arrives: 0 at the start (an IPI), else
			       * an interrupt on CPU hint[i] then, whose handler wakes it */
	int partner[MAX_T];
	int64_t reply_ns;
	struct loop_item extra; /* a kernel item sent at the start too (work_ns 0: none) */
	bool keep_tick;		/* the governor keeps the tick (else it stops it) */
	struct loop_world w;
	int last_cpu[MAX_T]; /* where its last item ran */
	int done[MAX_T];
};

static int tm_start(void *model, struct loop *L, struct sim_error *err)
{
	struct tasks_model *m = model;
	int i;

	if (loop_set_world(L, &m->w, err))
		return -1;
	for (i = 0; i < m->n; i++) {
		struct loop_item it = { 0 };

		m->last_cpu[i] = -1;
		if (!m->first_ns[i])
			continue; /* woken by its partner */
		it.cpu = m->hint[i];
		it.work_ns = m->first_ns[i];
		it.arrival_ns = m->at_ns[i];
		it.cause = m->at_ns[i] ? WAKE_IRQ : WAKE_IPI;
		it.tid = i + 1;
		it.pinned = m->pinned[i];
		if (loop_send(L, &it, err))
			return -1;
	}
	return m->extra.work_ns ? loop_send(L, &m->extra, err) : 0;
}

static int tm_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
		   struct sim_error *err)
{
	struct tasks_model *m = model;
	int i = done->tid - 1;
	struct loop_item it = { 0 };

	if (i < 0)
		return 0; /* the kernel item */
	m->last_cpu[i] = done->cpu;
	m->done[i]++;
	if (m->partner[i] < 0)
		return 0;
	it.cpu = m->hint[m->partner[i]];
	it.arrival_ns = t;
	it.work_ns = m->reply_ns;
	it.cause = WAKE_IPI;
	it.tid = m->partner[i] + 1;
	it.sync = true;
	return loop_send(L, &it, err);
}

static const struct loop_model_ops tm_ops = { .start = tm_start, .done = tm_done };

static void tm_init(struct tasks_model *m, int n)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->n = n;
	for (i = 0; i < n; i++)
		m->partner[i] = -1;
	m->w.sched = true;
	m->w.migration_cost_ns = 500 * US_;
	m->w.newidle_cost_ns = 5 * US_;
}

/* Run on two CPUs for duration_ns; every first decision of an idle period goes to l; the
 * segments tl asks for (NULL: none) to r. */
static void tm_run_tl(struct tasks_model *m, int64_t duration_ns, const struct loop_timeline *tl,
		      struct loop_result *r, struct decision_log *l)
{
	struct decision_log *all = calloc(1, sizeof(*all));
	struct sim_config cfg = { 0 };
	struct sim_error err = { 0 };
	struct machine mach;
	int i;

	assert_non_null(all);
	assert_int_equal(machine_load("skl", &mach, &err), 0);
	script_set(C1, !m->keep_tick);
	cfg.machine = &mach;
	cfg.gov = &gov_scripted;
	cfg.hz = 250;
	cfg.nr_cpus = 2;
	cfg.latency_req_ns = -1;
	cfg.explain = decision_log_add;
	cfg.explain_ud = all;
	cfg.explain_limit = -1;
	cfg.explain_truncated = true;
	if (loop_run_timeline(&cfg, &tm_ops, m, duration_ns, 1, tl, r, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	memset(l, 0, sizeof(*l));
	for (i = 0; i < all->n; i++)
		if (all->d[i].first)
			l->d[l->n++] = all->d[i];
	free(all);
}

static void tm_run(struct tasks_model *m, int64_t duration_ns, struct loop_result *r,
		   struct decision_log *l)
{
	tm_run_tl(m, duration_ns, NULL, r, l);
}

/* The idle periods of `cpu` in l: their starts into starts[], their count returned. */
static int periods_of(const struct decision_log *l, int cpu, int64_t *starts, int max)
{
	int i, n = 0;

	for (i = 0; i < l->n; i++)
		if (l->d[i].cpu == cpu && n < max)
			starts[n++] = l->d[i].time_ns;
	return n;
}

/* A (from CPU 0, 10 us) and B (hint CPU 1) wake each other with 10 us of work. */
static void tm_init_pingpong(struct tasks_model *m)
{
	tm_init(m, 2);
	m->hint[0] = 0, m->hint[1] = 1;
	m->first_ns[0] = 10 * US_;
	m->partner[0] = 1, m->partner[1] = 0;
	m->reply_ns = 10 * US_;
}

/*
 * Two tasks ping-ponging with sync wakeups on two idle CPUs. A (tid 1) starts on CPU 0
 * and works 10 us; each item done wakes the other with WF_SYNC and 10 us of work.
 *  - B's first wakeup, by A on CPU 0, prev_cpu 1 (its start hint): want_affine, so
 *    wake_affine(): wake_affine_idle() finds CPU 0 not idle (A runs: nr_running 1) and,
 *    sync with nr_running == 1, answers the waking CPU 0: target 0. select_idle_sibling():
 *    the target is not idle; prev 1 shares the LLC and is idle: CPU 1.
 *  - Every later wakeup is the mirror image: target the waker's CPU (sync), but the
 *    wakee's prev is idle, so it stays there. The pair never stacks: A on CPU 0, B on 1,
 *    no migration, every wakeup on an idle CPU (an IPI).
 *  - Times: A runs [0, 10); B is woken at 10, CPU 1 leaves C1 at 12, B runs [12, 22);
 *    A is woken at 22 and runs [24, 34): a 24 us cycle. CPU 0 idles from 10 + 24k,
 *    CPU 1 from 0, then 22 + 24k. Each wakeup but A's first waits the 2 us exit
 *    latency in the run queue (schedstat's run_delay counts it, as the kernel's does).
 * In 236 us: A is woken at 0, 24, ..., 216 (10 times), B at 10, 34, ..., 226 (10).
 */
static void test_sync_pingpong_two_cpus(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int64_t s[64];
	int n, k;

	(void)state;
	assert_non_null(l);
	tm_init_pingpong(&m);
	tm_run(&m, 236 * US_, &r, l);

	assert_int_equal(r.sched.nr_tasks, 2);
	assert_int_equal(r.sched.task[0].wakeups, 10);
	assert_int_equal(r.sched.task[1].wakeups, 10);
	for (k = 0; k < 2; k++) {
		assert_int_equal(r.sched.task[k].migrations, 0);
		assert_int_equal(r.sched.task[k].wakeups_busy, 0);
		assert_int_equal(r.sched.task[k].wakeups_idle, 10);
		assert_int_equal(r.sched.task[k].last_cpu, k);
	}
	assert_int_equal(r.sched.task[0].run_delay_ns, 9 * 2 * US_);
	assert_int_equal(r.sched.task[1].run_delay_ns, 10 * 2 * US_);
	n = periods_of(l, 0, s, 64);
	assert_int_equal(n, 10);
	for (k = 0; k < n; k++)
		assert_int_equal(s[k], (10 + 24 * k) * US_);
	n = periods_of(l, 1, s, 64);
	assert_int_equal(n, 10);
	assert_int_equal(s[0], 0);
	for (k = 1; k < n; k++)
		assert_int_equal(s[k], (22 + 24 * (k - 1)) * US_);
	loop_result_release(&r);
	free(l);
}

/*
 * The same pair bound to CPU 1 (--affinity 1: loop_world.affinity). A's first item names
 * CPU 0, which its mask excludes: it starts on the next allowed CPU, 1 (as
 * sched_setaffinity() moves a task); the run starts with every CPU running (as in the
 * case above, A's start waits for no exit), so A runs [0, 10) on CPU 1, its start counted
 * as a wakeup on an idle CPU (no task there). From then on every wakeup is placed on CPU 1
 * (select_task_rq_fair() never leaves the mask: no wake_affine to CPU 0, which is not
 * allowed) while the waker still runs there: a busy wakeup, and the wakee runs as the
 * waker blocks: B [10, 20), A [20, 30), ... with no wait and CPU 1 never idle. In 236 us
 * B is woken at 10 + 20j (12 times), A at 0 and 20 + 20j (1 + 11). CPU 0 runs no task: it
 * idles from 0 to the end, one period.
 */
static void test_affinity(void **state)
{
	static const bool cpu1_only[2] = { false, true };
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int64_t s[64];
	int n, k;

	(void)state;
	assert_non_null(l);
	tm_init_pingpong(&m);
	m.w.affinity = cpu1_only;
	tm_run(&m, 236 * US_, &r, l);

	assert_int_equal(r.sched.task[0].wakeups, 12);
	assert_int_equal(r.sched.task[1].wakeups, 12);
	assert_int_equal(r.sched.task[0].wakeups_idle, 1);
	assert_int_equal(r.sched.task[0].wakeups_busy, 11);
	assert_int_equal(r.sched.task[1].wakeups_busy, 12);
	assert_int_equal(r.sched.task[0].run_delay_ns, 0);
	assert_int_equal(r.sched.task[1].run_delay_ns, 0);
	for (k = 0; k < 2; k++) {
		assert_int_equal(r.sched.task[k].last_cpu, 1);
		assert_int_equal(r.sched.task[k].migrations, 0);
	}
	assert_int_equal(r.sched.cpu[0].switches, 0);
	n = periods_of(l, 0, s, 64);
	assert_int_equal(n, 1);
	assert_int_equal(s[0], 0);
	assert_int_equal(periods_of(l, 1, s, 64), 0);
	loop_result_release(&r);
	free(l);
}

/*
 * The same pair with CPU 1 taken by C, a task pinned there that never blocks (a 1 s item).
 * B's first wakeup: target 0 (sync, one task on the waking CPU) as above; prev 1 is not
 * idle; no recent_used_cpu; no SMT; select_idle_cpu() scans from CPU 1: busy, CPU 0:
 * busy: no idle CPU, so the target, CPU 0: B stacks on A's CPU. A blocks, B runs; B's
 * wakeup of A: this CPU 0 is prev, so no wake_affine: target prev 0, not idle, scan finds
 * none: A back on CPU 0. So CPU 0 always has A or B runnable and CPU 1 has C: from the
 * start no CPU ever idles, and each wakeup lands on a busy CPU.
 */
static void test_sync_pingpong_stacks_when_busy(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	tm_init(&m, 3);
	m.hint[0] = 0, m.hint[1] = 1, m.hint[2] = 1;
	m.pinned[2] = true;
	m.first_ns[0] = 10 * US_;
	m.first_ns[2] = 1000000 * US_;
	m.partner[0] = 1, m.partner[1] = 0;
	m.reply_ns = 10 * US_;
	tm_run(&m, 1000 * US_, &r, l);

	assert_int_equal(l->n, 0); /* not one idle period */
	assert_int_equal(r.sched.task[1].last_cpu, 0);
	assert_int_equal(r.sched.task[0].last_cpu, 0);
	assert_int_equal(r.sched.task[0].migrations, 0);
	assert_int_equal(r.sched.task[1].migrations, 0); /* its first wakeup is no move */
	assert_int_equal(r.sched.task[1].wakeups_idle, 0);
	assert_int_equal(r.sched.task[0].wakeups_idle, 1); /* its start, on an empty CPU */
	/* A and B alternate 10 us items on CPU 0: 100 in 1 ms, 50 each */
	assert_int_equal(m.done[0] + m.done[1], 100);
	assert_int_equal(r.sched.task[2].runtime_ns, 1000 * US_);
	loop_result_release(&r);
	free(l);
}

/*
 * Three always-runnable tasks on two CPUs (items of 1 s): A starts on CPU 0, B on 1 (both
 * idle), C's start finds prev 0 busy and no idle CPU: it queues on CPU 0. No CPU ever
 * idles. CPU 0 shares its time between A and C by EEVDF: slices of 1.40 ms (0.70 ms x
 * (1 + ilog2(2))) that end at the 4 ms ticks, so each runs whole jiffies in turn and
 * neither gets more than one tick ahead of the other.
 */
static void test_three_runnable_never_idle(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int64_t a, c;

	(void)state;
	assert_non_null(l);
	tm_init(&m, 3);
	m.hint[0] = 0, m.hint[1] = 1, m.hint[2] = 0;
	m.first_ns[0] = m.first_ns[1] = m.first_ns[2] = 1000000 * US_;
	tm_run(&m, 100000 * US_, &r, l);

	assert_int_equal(l->n, 0);
	a = r.sched.task[0].runtime_ns;
	c = r.sched.task[2].runtime_ns;
	assert_int_equal(r.sched.task[1].runtime_ns, 100000 * US_);
	assert_int_equal(a + c, 100000 * US_);
	assert_true(llabs(a - c) <= 4000 * US_);
	assert_int_equal(a % (4000 * US_), 0); /* switched only at ticks */
	assert_int_equal(r.sched.task[0].last_cpu, 0);
	assert_int_equal(r.sched.task[2].last_cpu, 0);
	assert_int_equal(r.sched.cpu[0].pulls + r.sched.cpu[1].pulls, 0);
	/* busy CPU 1's periodic balance (every 28 ms: below) never pulls: CPU 0's two tasks
	 * are not two more than CPU 1's one */
	assert_int_equal(r.sched.cpu[1].balance_pulls + r.sched.cpu[0].balance_pulls, 0);
	loop_result_release(&r);
	free(l);
}

/* A and C (1 s items) on CPU 0, B (10 ms) on CPU 1: the newly-idle and tick cases. */
static void tm_init_b_leaves(struct tasks_model *m)
{
	tm_init(m, 3);
	m->hint[0] = 0, m->hint[1] = 1, m->hint[2] = 0;
	m->first_ns[0] = m->first_ns[2] = 1000000 * US_;
	m->first_ns[1] = 10000 * US_;
}

/*
 * Newly-idle balance. A and C (1 s items) share CPU 0 as above; B on CPU 1 works 10 ms,
 * then blocks for good. At 10 ms CPU 1's queue picks nothing: sched_balance_newidle()
 * runs (the root domain is overloaded: CPU 0 has two tasks; avg_idle starts at
 * 2 x 500 us = 1 ms >= the 5 us domain cost). The LLC domain's busiest queue is CPU 0;
 * the waiting one of A and C last ran until the 8 ms tick (A [0,4), C [4,8), A from 8),
 * 2 ms ago > 500 us: not cache-hot. So C is pulled and CPU 1 never idles.
 * With sysctl_sched_migration_cost at 5 ms, C is cache-hot (2 ms < 5 ms): nothing is
 * pulled and CPU 1 idles from 10 ms, its tick stopped. Then the NOHZ idle balance
 * (E.3): CPU 0's ticks with two tasks kick CPU 1 (nohz_balancer_kick(), at most every
 * max(2 CPUs x 1 ms, a jiffy) = 4 ms; the ticks at 4 and 8 ms found no idle CPU but
 * moved nohz.next_balance on): at 12, 16 and 20 ms. CPU 1 leaves C1 2 us later, its
 * newly-idle balance finds the waiting task hot (it ran until the tick that just
 * passed), and _nohz_idle_balance() runs sched_balance_domains() for it: one domain (2
 * single-thread cores: the LLC), idle interval sd_weight 2 ms = 1 jiffy, so due every
 * time. sched_balance_rq() fails at 12.002 and 16.002 ms (hot; nr_balance_failed 1,
 * then 2), and at 20.002 ms nr_balance_failed 2 > cache_nice_tries 1 lets it pull the
 * hot task: A, which waits since C took over at the 20 ms tick. So CPU 1 idles three
 * times (from 10, 12.002, 16.002 ms), and in 30 ms A runs [0,4), [8,12), [16,20) on CPU
 * 0 and [20.002, 30) on CPU 1; C runs [4,8), [12,16), [20,30).
 */
static void test_newidle_pull(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int64_t s[8];

	(void)state;
	assert_non_null(l);
	tm_init_b_leaves(&m);
	tm_run(&m, 20000 * US_, &r, l);
	assert_int_equal(l->n, 0);
	assert_int_equal(r.sched.task[2].pulls, 1);
	assert_int_equal(r.sched.task[2].migrations, 1);
	assert_int_equal(r.sched.task[2].last_cpu, 1);
	assert_int_equal(r.sched.cpu[1].pulls, 1);
	assert_int_equal(r.sched.task[2].runtime_ns, 4000 * US_ + 10000 * US_);
	assert_int_equal(r.sched.task[0].runtime_ns, 16000 * US_);
	loop_result_release(&r);

	m.w.migration_cost_ns = 5000 * US_;
	memset(m.done, 0, sizeof(m.done));
	tm_run(&m, 30000 * US_, &r, l);
	assert_int_equal(r.sched.task[2].pulls + r.sched.task[0].pulls, 0);
	assert_int_equal(periods_of(l, 1, s, 8), 3);
	assert_int_equal(s[0], 10000 * US_);
	assert_int_equal(s[1], 12002 * US_);
	assert_int_equal(s[2], 16002 * US_);
	assert_int_equal(periods_of(l, 0, s, 8), 0);
	assert_int_equal(r.sched.task[0].balance_pulls, 1);
	assert_int_equal(r.sched.cpu[1].balance_pulls, 1);
	assert_int_equal(r.sched.task[0].last_cpu, 1);
	assert_int_equal(r.sched.task[0].runtime_ns, 12000 * US_ + 9998 * US_);
	assert_int_equal(r.sched.task[2].runtime_ns, 18000 * US_);
	loop_result_release(&r);
	free(l);
}

/*
 * The cost of a migration (loop_world.refill_ns). As the newly-idle case above, but C has
 * 8 ms of work: it runs [4, 8) on CPU 0, waits, and is pulled by CPU 1 at 10 ms with 4 ms
 * left. On CPU 1 it needs those 4 ms plus the refill: it is done at 14 ms + refill, blocks,
 * and CPU 1 (no queue with two tasks any more: CPU 0 runs A alone) idles from then. Refill
 * 0: from 14 ms; 1 ms: from 15 ms.
 */
static void test_migration_refill(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int64_t s[8], refill;

	(void)state;
	assert_non_null(l);
	for (refill = 0; refill <= 1000 * US_; refill += 1000 * US_) {
		tm_init_b_leaves(&m);
		m.first_ns[2] = 8000 * US_;
		m.w.refill_ns = refill;
		tm_run(&m, 20000 * US_, &r, l);
		assert_int_equal(r.sched.task[2].pulls, 1);
		assert_int_equal(r.sched.task[2].migrations, 1);
		assert_int_equal(periods_of(l, 1, s, 8), 1);
		assert_int_equal(s[0], 14000 * US_ + refill);
		loop_result_release(&r);
	}
	free(l);
}

/*
 * Periodic balance on the tick of an idle CPU (E.2). As the second case above (A and C
 * share CPU 0, B leaves CPU 1 at 10 ms, migration cost 5 ms so the waiting task is always
 * hot), but the governor keeps the tick: CPU 1 is not a NOHZ idle CPU (no kick finds it),
 * its own tick balances it. Its newly-idle balance at 10 ms fails and brings
 * rq->next_balance forward to the LLC domain's idle interval (2 ms = 1 jiffy after its
 * last balance, at 0: due). At CPU 0's ticks at 12 and 16 ms, the tick pass balances CPU
 * 1: the waiting task (C at 12, A at 16) ran until 4 ms before: hot, failed (1, then 2).
 * At 20 ms the waiting C (ran until 16) is hot too, but nr_balance_failed 2 >
 * cache_nice_tries 1: C is pulled and CPU 1's tick ends its idle period; it runs C from
 * 20.002 ms (C1's 2 us exit). One idle period on CPU 1, from 10 ms; in 30 ms C runs
 * [4,8), [12,16) on CPU 0 and [20.002, 30) on CPU 1, A [0,4), [8,12), [16,30).
 */
static void test_tick_balance_pull(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int64_t s[8];

	(void)state;
	assert_non_null(l);
	tm_init_b_leaves(&m);
	m.keep_tick = true;
	m.w.migration_cost_ns = 5000 * US_;
	tm_run(&m, 30000 * US_, &r, l);
	assert_int_equal(periods_of(l, 1, s, 8), 1);
	assert_int_equal(s[0], 10000 * US_);
	assert_int_equal(periods_of(l, 0, s, 8), 0);
	assert_int_equal(r.sched.task[2].balance_pulls, 1);
	assert_int_equal(r.sched.task[2].pulls, 0);
	assert_int_equal(r.sched.cpu[1].balance_pulls, 1);
	assert_int_equal(r.sched.task[2].last_cpu, 1);
	assert_int_equal(r.sched.task[2].runtime_ns, 8000 * US_ + 9998 * US_);
	assert_int_equal(r.sched.task[0].runtime_ns, 22000 * US_);
	loop_result_release(&r);
	free(l);
}

/*
 * Periodic balance of a busy CPU (E.2): A, C and D (1 s items) share CPU 0, B runs on CPU
 * 1. Nothing idles, so only the tick balances. CPU 1 is busy: the LLC domain's interval
 * is sd_weight 2 ms x busy_factor 16 = 32 ms, msecs_to_jiffies() = 8 jiffies at HZ 250,
 * less 1 when busy: 7 jiffies = 28 ms after its last balance (0). CPU 0's queue has three
 * tasks, two more than CPU 1's one: at the 28 ms tick CPU 1 pulls a waiting task, which
 * last ran at least a tick (4 ms > 500 us) before: not hot. So no pull in 27 ms, one in
 * 30 ms, and no CPU ever idles.
 */
static void test_busy_balance_pull(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	tm_init(&m, 4);
	m.hint[0] = 0, m.hint[1] = 1, m.hint[2] = 0, m.hint[3] = 0;
	m.first_ns[0] = m.first_ns[1] = m.first_ns[2] = m.first_ns[3] = 1000000 * US_;
	tm_run(&m, 27000 * US_, &r, l);
	assert_int_equal(r.sched.cpu[1].balance_pulls, 0);
	loop_result_release(&r);

	tm_run(&m, 30000 * US_, &r, l);
	assert_int_equal(l->n, 0);
	assert_int_equal(r.sched.cpu[1].balance_pulls, 1);
	assert_int_equal(r.sched.cpu[0].balance_pulls, 0);
	assert_int_equal(r.sched.cpu[1].pulls + r.sched.cpu[0].pulls, 0);
	assert_int_equal(r.sched.task[2].last_cpu == 1 || r.sched.task[3].last_cpu == 1, 1);
	loop_result_release(&r);
	free(l);
}

/*
 * A wakeup while the CPU already leaves idle. CPU 1 idles from 0 in C1 (exit 2 us) with the
 * tick kept; an interrupt (1 us of kernel work) is due at 4,001,500 ns. The tick at 4 ms
 * wakes it with no work, and its exit ends at 4,002,000, after the interrupt: the idle
 * loop is left then, the interrupt's wakeup absorbed (cpuidle: one exit). A on CPU 0 wakes
 * B at 4,000,500 (B's prev, CPU 1, idle: select_idle_sibling's prev), during that exit:
 * nothing to wake (it used to be an internal error, "rewake ... is not earlier"). CPU 1
 * runs the interrupt's work [4,002,000, 4,003,000), then B: B waited 2,500 ns.
 */
static void test_wakeup_during_exit(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	tm_init(&m, 2);
	m.hint[0] = 0, m.hint[1] = 1;
	m.first_ns[0] = 4000500;
	m.partner[0] = 1;
	m.reply_ns = 10 * US_;
	m.keep_tick = true;
	m.extra.cpu = 1;
	m.extra.arrival_ns = 4001500;
	m.extra.work_ns = 1 * US_;
	m.extra.cause = WAKE_IRQ;
	tm_run(&m, 5000 * US_, &r, l);
	assert_int_equal(r.sched.task[1].last_cpu, 1);
	assert_int_equal(m.last_cpu[1], 1);
	assert_int_equal(r.sched.task[1].run_delay_ns, 2500);
	assert_int_equal(r.sched.task[1].wakeups_idle, 1);
	loop_result_release(&r);
	free(l);
}

static void assert_seg(const struct loop_segment *s, int cpu, int tid, int64_t start_us,
		       int64_t end_us)
{
	assert_int_equal(s->cpu, cpu);
	assert_int_equal(s->tid, tid);
	assert_int_equal(s->start_ns, start_us * US_);
	assert_int_equal(s->end_ns, end_us * US_);
}

/* The ping-pong of test_sync_pingpong_two_cpus (A = tid 1 on CPU 0, B = tid 2 on CPU 1,
 * 10 us items, C1's 2 us exit); with sched 0, the same items pinned to those CPUs. */
static void pingpong(struct tasks_model *m, bool sched)
{
	tm_init(m, 2);
	m->hint[0] = 0, m->hint[1] = 1;
	m->first_ns[0] = 10 * US_;
	m->partner[0] = 1, m->partner[1] = 0;
	m->reply_ns = 10 * US_;
	m->w.sched = sched;
}

/*
 * SIS_UTIL: a wakee misses an idle CPU because its LLC is busy. The pair of CPUs is one
 * LLC of 2 single-thread CPUs (imbalance_pct 117). A (tid 1) runs 300 ms of work from 0
 * on CPU 0, B (tid 2) 200 ms from 0 on CPU 1, then blocks: CPU 1 idles from 200 ms. C's
 * first item arrives at 201 ms as an interrupt on CPU 0, whose handler wakes C there
 * (waker CPU 0 running A, prev_cpu 0 = the waking CPU: no wake_affine; target 0).
 * select_idle_sibling(): 0 runs A; prev = target; no recent CPU; no SMT; so
 * select_idle_cpu() from CPU 1 with nr_idle_scan + 1 CPUs at most.
 * nr_idle_scan: the starts at 0 updated it (sums 0: 2) and made it due again one
 * min_interval later (2 ms -> 1 jiffy at HZ 250: 4 ms); the next wakeup, C's at 201 ms,
 * updates it from the utilisations then (pelt.c's arithmetic, as in test_sched_util.c):
 *  - CPU 0 ran [0, 201 ms), one update: 201,000,000 >> 10 = 196,289 units, p = 191,
 *    r = 705; decay_load(1024, 191) = (1024 >> 5) * inv[31] >> 32 = 32 * 0.510949 -> 16,
 *    decay_load(47742, 191) = 1491 * 0.510949 = 761.8 -> 761; contrib = 16 + 47742 - 761
 *    - 1024 + 705 = 46678; util = 46678 * 1024 / (46718 + 705) = 1007.9 -> 1007;
 *  - CPU 1 ran [0, 200 ms), updated when B blocked: 195,312 units (199,999,488 ns),
 *    p = 190, r = 752; decay_load(1024, 190) = 32 * inv[30] = 16.7 -> 16, decay_load(47742,
 *    190) = 1491 * 0.522137 = 778.5 -> 778; contrib = 16 + 47742 - 778 - 1024 + 752 =
 *    46708, util_sum = 47,828,992; idle to 201 ms: (201,000,000 - 199,999,488) >> 10 = 977
 *    units, 752 + 977 crosses one boundary (r = 705): util_sum = decay_load(47,828,992, 1)
 *    = 47,828,992 * 0.978572 = 46,804,115.x, util = 46,804,115 / 47423 = 986.9 -> 986;
 *  - sum 1993, x = 996, tmp = 996^2 * 117^2 / 10,240,000 = 1326 -> capped 1024, y = 0:
 *    nr_idle_scan 0 (any x >= 620 gives 0 on 2 CPUs: y * 2 / 1024 < 1 needs tmp > 512).
 * So the scan stops at once and C is queued on the busy target, CPU 0 (a busy wakeup),
 * while CPU 1 idles; before SIS_UTIL was modelled (a full scan always) C went to CPU 1.
 * Control: B runs only [0, 20 ms): at 201 ms CPU 1's utilisation has decayed for 181 ms
 * from below 1024 * (1 - 2^(-19/32)) = 349 to below 349 * 2^(-172/32) = 8.5 (172 whole
 * periods), so sum <= 1007 + 8, x <= 507, tmp <= 507^2 * 13689 / 10,240,000 = 343,
 * y >= 681, nr = 681 * 2 / 1024 -> 1 (x = 503 from sum 1007 alone gives 338 -> 686 -> 1
 * too): one CPU is scanned, CPU 1, idle: C wakes it.
 */
static void test_sis_util_busy_llc(void **state)
{
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int64_t b_ms;

	(void)state;
	assert_non_null(l);
	for (b_ms = 200; b_ms >= 20; b_ms -= 180) {
		tm_init(&m, 3);
		m.hint[0] = 0, m.hint[1] = 1, m.hint[2] = 0;
		m.first_ns[0] = 300000 * US_;
		m.first_ns[1] = b_ms * 1000 * US_;
		m.first_ns[2] = 10 * US_;
		m.at_ns[2] = 201000 * US_;
		tm_run(&m, 202000 * US_, &r, l);
		assert_int_equal(r.sched.task[2].wakeups, 1);
		if (b_ms == 200) { /* busy LLC: no scan */
			assert_int_equal(r.sched.task[2].wakeups_busy, 1);
			assert_int_equal(r.sched.cpu[0].wakeups_busy, 1);
			assert_int_equal(r.sched.cpu[1].wakeups_idle, 1); /* B's start only */
		} else { /* one CPU scanned: CPU 1, idle */
			assert_int_equal(r.sched.task[2].wakeups_idle, 1);
			assert_int_equal(r.sched.cpu[1].wakeups_idle, 2);
			assert_int_equal(r.sched.task[2].last_cpu, 1);
		}
		loop_result_release(&r);
	}
	free(l);
}

/*
 * What ran where, for the ping-pong: A runs [0, 10) on CPU 0 and blocks (switch to idle at
 * 10); B, woken at 10 on idle CPU 1, runs once C1's exit is over: [12, 22); A, woken at 22,
 * [24, 34); so A [24k, 24k + 10) and B [12 + 24k, 22 + 24k). A segment is kept when it
 * ends: A's, B's, A's, ... In 236 us A runs 10 times (the last [216, 226)); B's 10th run,
 * woken at 226, starts at 228 and is cut by the end at 236: kept last, 20 in all.
 */
static void test_segments_pingpong(void **state)
{
	struct loop_timeline tl = { 0, -1, 0 };
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));
	int k;

	(void)state;
	assert_non_null(l);
	pingpong(&m, true);
	tm_run_tl(&m, 236 * US_, &tl, &r, l);
	assert_int_equal(r.nr_segs, 20);
	assert_false(r.segs_cut);
	for (k = 0; k < 19; k++)
		if (k % 2 == 0)
			assert_seg(&r.segs[k], 0, 1, 24 * (k / 2), 24 * (k / 2) + 10);
		else
			assert_seg(&r.segs[k], 1, 2, 12 + 24 * (k / 2), 22 + 24 * (k / 2));
	assert_seg(&r.segs[19], 1, 2, 228, 236);
	loop_result_release(&r);

	/* Without a timeline nothing is kept. */
	pingpong(&m, true);
	tm_run(&m, 236 * US_, &r, l);
	assert_null(r.segs);
	assert_int_equal(r.nr_segs, 0);
	loop_result_release(&r);
	free(l);
}

/*
 * The window [30, 60) us overlaps A [24, 34), B [36, 46), A [48, 58) (B [60, 70) starts at
 * its end): with a cap of 2, the first two to end are kept and the cut is said.
 */
static void test_segments_window_cap(void **state)
{
	struct loop_timeline tl = { 30 * US_, 60 * US_, 2 };
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	pingpong(&m, true);
	tm_run_tl(&m, 236 * US_, &tl, &r, l);
	assert_int_equal(r.nr_segs, 2);
	assert_true(r.segs_cut);
	assert_seg(&r.segs[0], 0, 1, 24, 34);
	assert_seg(&r.segs[1], 1, 2, 36, 46);
	loop_result_release(&r);
	free(l);
}

/* The ping-pong with an IRQ on CPU 0 at 5 us that brings 3 us of kernel work. */
static void irq_pingpong(struct tasks_model *m, bool sched)
{
	pingpong(m, sched);
	m->extra.cpu = 0;
	m->extra.arrival_ns = 5 * US_;
	m->extra.work_ns = 3 * US_;
	m->extra.cause = WAKE_IRQ;
}

/*
 * Kernel work: an IRQ on CPU 0 at 5 us with 3 us of work.
 *  - With the scheduler it interrupts A: kernel segment [5, 8) (tid 0), kept first (it ends
 *    first); A resumes with 5 us left and ends at 13, its segment [0, 13) (sched_switch
 *    does not show an interrupt). B is woken at 13, runs [15, 25); A [27, 37).
 *  - Pinned there are no tasks: CPU 0 runs A's item [0, 10) and the IRQ's work after it,
 *    [10, 13): one work segment [0, 13) (tid LOOP_SEG_WORK); B's item is sent at 10 to
 *    CPU 1, which runs it [12, 22); A's next item [24, 34) on CPU 0.
 */
static void test_segments_kernel_work(void **state)
{
	struct loop_timeline tl = { 0, -1, 0 };
	struct tasks_model m;
	struct loop_result r;
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	irq_pingpong(&m, true);
	tm_run_tl(&m, 40 * US_, &tl, &r, l);
	assert_true(r.nr_segs >= 4);
	assert_seg(&r.segs[0], 0, 0, 5, 8);
	assert_seg(&r.segs[1], 0, 1, 0, 13);
	assert_seg(&r.segs[2], 1, 2, 15, 25);
	assert_seg(&r.segs[3], 0, 1, 27, 37);
	loop_result_release(&r);

	irq_pingpong(&m, false);
	tm_run_tl(&m, 40 * US_, &tl, &r, l);
	assert_true(r.nr_segs >= 3);
	assert_seg(&r.segs[0], 0, LOOP_SEG_WORK, 0, 13);
	assert_seg(&r.segs[1], 1, LOOP_SEG_WORK, 12, 22);
	assert_seg(&r.segs[2], 0, LOOP_SEG_WORK, 24, 34);
	loop_result_release(&r);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_pingpong_two_cpus),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_sync_pingpong_stacks_when_busy),
		cmocka_unit_test(test_three_runnable_never_idle),
		cmocka_unit_test(test_newidle_pull),
		cmocka_unit_test(test_migration_refill),
		cmocka_unit_test(test_tick_balance_pull),
		cmocka_unit_test(test_busy_balance_pull),
		cmocka_unit_test(test_wakeup_during_exit),
		cmocka_unit_test(test_sis_util_busy_llc),
		cmocka_unit_test(test_segments_pingpong),
		cmocka_unit_test(test_segments_window_cap),
		cmocka_unit_test(test_segments_kernel_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
