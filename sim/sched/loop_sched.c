// SPDX-License-Identifier: GPL-2.0-only
/*
 * loop_sched.c - the closed loop with a scheduler (--placement sched): the model's threads
 * are tasks that wake, queue, share CPUs and move, as Linux v6.12.118 runs them
 * (kernel/sched/core.c try_to_wake_up, fair.c; docs/scheduler.md has every rule, its
 * kernel function, and what is simplified).
 *
 *  - A task's item that arrives is a wakeup: a blocked task is placed by
 *    select_task_rq_fair (sim/sched/place.c) with the waker's CPU and flags, enqueued on
 *    that CPU's EEVDF run queue (sim/sched/rq.c), and checked for wakeup preemption; a
 *    runnable task just gets the work queued behind what it has (a message on the socket
 *    of a task that is awake). An ipi item sent now is a wakeup by the task that runs on
 *    the CPU whose work the model is reacting to; any other item is an interrupt on its
 *    .cpu (waking that CPU if idle: an IRQ, a timer), whose handler wakes the task there.
 *  - A wakeup placed on an idle CPU ends its idle period: by an IPI from the waker's CPU
 *    (or, on the interrupted CPU itself, by that interrupt). One placed on a CPU that runs
 *    or has queued tasks causes no idle exit.
 *  - A CPU runs its kernel items first (item tid 0: interrupt and timer work), in order of
 *    arrival, interrupting the task that runs; then the task its run queue picked. A task
 *    works through its items in order; when it has none left it blocks (dequeue, sleep).
 *    At each jiffy edge while other tasks wait the tick runs update_curr: a task whose
 *    slice is used up is preempted, its unfinished work kept.
 *  - A CPU whose run queue picks nothing runs sched_balance_newidle (balance_newidle()
 *    below) before it idles: when some run queue has two tasks and its avg_idle is at
 *    least the domains' cost, it pulls the least recently run waiting task that is not
 *    cache-hot from the busiest queue, domain by domain (SMT siblings, the LLC, the
 *    machine). Otherwise it idles: the engine's governor chooses the state.
 *  - Periodic balance (sched_balance_domains()): at a jiffy edge where some queue has two
 *    tasks, every CPU whose tick runs and whose next_balance is due balances its domains
 *    at the busy or idle interval; an idle CPU that pulls leaves idle at that tick.
 *  - NOHZ idle balance: a busy CPU at a tick with two or more tasks kicks the lowest
 *    numbered idle CPU whose tick is stopped (an IPI) once per balance interval; it
 *    balances every due tickless idle CPU on its behalf, then itself.
 *  - SIS_UTIL: each CPU's PELT utilisation (pelt.c) follows whether a task's work runs on
 *    it, updated when that changes and when read; a periodic balance of the LLC domain
 *    that passes should_we_balance() sets the LLC's nr_idle_scan from their sum
 *    (update_idle_cpu_scan()), and so does the first wakeup after the LLC domain's
 *    min_interval (LLC size ms) has passed since the last update, standing for the idle
 *    CPUs' balances at ticks the loop does not visit.
 * Kernel items, timers and the timer-migration pool are loop.c's as without the
 * scheduler; only how a CPU chooses its work and when it idles differ.
 */
#include "sim/sched/loop_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/engine/wheel.h"

#include <string.h>

/* ---- FIFOs ---- */

static int fifo_push(struct loop_item **q, size_t *head, size_t *n, size_t *cap,
		     const struct loop_item *it)
{
	if (*head && *head + *n == *cap) { /* reuse the consumed front */
		memmove(*q, *q + *head, *n * sizeof(**q));
		*head = 0;
	}
	if (sim_grow((void **)q, cap, *head + *n + 1, sizeof(**q)))
		return -1;
	(*q)[*head + (*n)++] = *it;
	return 0;
}

static struct loop_item fifo_pop(struct loop_item *q, size_t *head, size_t *n)
{
	struct loop_item it = q[*head];

	(*n)--;
	*head = *n ? *head + 1 : 0;
	return it;
}

/* ---- state ---- */

/* A task moved to another CPU: its work there pays the cache refill (loop_world). */
static void moved(struct loop *L, struct ltask *t)
{
	if (t->left_ns > 0)
		t->left_ns += L->world.refill_ns; /* preempted mid-item, then pulled */
	else
		t->refill_ns = L->world.refill_ns;
}

static struct ltask *task_of(struct sched_entity *se)
{
	return (struct ltask *)se; /* se is the first member */
}

static void set_nr_running(struct lsched *s, int cpu)
{
	unsigned int was = sched_place_nr_running(s->sp, cpu), now = s->cpu[cpu].rq.nr_running;

	s->nr_overloaded += (now >= 2) - (was >= 2);
	sched_place_set_nr_running(s->sp, cpu, now);
}

/* A topology for a machine-less run: one package of single-thread cores. */
static struct sched_place *place_for(const struct machine *m, int nr_cpus)
{
	struct machine flat;

	if (m && machine_nr_cpus(m) == nr_cpus)
		return sched_place_new(m);
	memset(&flat, 0, sizeof(flat));
	flat.packages = flat.threads = 1;
	flat.cores = nr_cpus;
	return sched_place_new(&flat);
}

/*
 * The scheduling domains of each CPU: SMT siblings, the LLC (MC), the machine (PKG, or
 * NUMA across packages; on two packages of several LLCs each, an EPYC pair, the kernel's
 * PKG level between MC and NUMA is left out); a level whose span is one CPU or equals the level below is
 * degenerate (sd_degenerate()), weight 0. Every CPU has the same but a hybrid part's
 * E-cores, which have no SMT level.
 */
static void domains_init(struct lsched *s)
{
	for (int j = 0; j < s->nr_cpus; j++) {
		int *w = s->cpu[j].dom_weight, w0, w1;

		sched_place_smt_cpus(s->sp, j, &w0);
		sched_place_llc_cpus(s->sp, j, &w1);
		w[0] = w0 > 1 ? w0 : 0;
		w[1] = w1 > 1 && w1 > w0 ? w1 : 0;
		w[2] = s->nr_cpus > w1 && s->nr_cpus > 1 ? s->nr_cpus : 0;
	}
}

int loop_sched_init(struct loop *L, const struct machine *m, struct sim_error *err)
{
	struct lsched *s = sim_calloc(1, sizeof(*s));
	int i;

	L->sched = s;
	if (!s)
		return sim_error_nomem(err, "");
	s->nr_cpus = L->nr_cpus;
	s->cur_cpu = -1;
	s->sp = place_for(m, L->nr_cpus);
	s->cpu = sim_calloc((size_t)L->nr_cpus, sizeof(*s->cpu));
	s->ov = sim_calloc((size_t)L->nr_cpus, sizeof(*s->ov));
	s->sis_next_ns = sim_calloc((size_t)L->nr_cpus, sizeof(*s->sis_next_ns)); /* >= LLCs */
	if (!s->sp || !s->cpu || !s->ov || !s->sis_next_ns)
		return sim_error_nomem(err, "");
	domains_init(s);
	s->last_pass_ns = -1;
	for (i = 0; i < L->nr_cpus; i++) {
		struct lscpu *c = &s->cpu[i];
		int level;

		for (level = 0; level < 3; level++) /* sd_init(): min_interval = sd_weight */
			c->balance_interval_ms[level] = c->dom_weight[level];

		sched_rq_init(&c->rq, L->nr_cpus, sim_grid(L->S)->tick_ns);
		if (L->world.base_slice_ns > 0)
			c->rq.base_slice_ns = L->world.base_slice_ns;
		c->timer_ns = SIM_TIME_NEVER;
		c->avg_idle_ns = 2 * L->world.migration_cost_ns; /* sched_init(): 2 * cost */
	}
	return 0;
}

void loop_sched_free(struct loop *L)
{
	struct lsched *s = L->sched;
	int i;

	if (!s)
		return;
	for (i = 0; s->cpu && i < s->nr_cpus; i++) {
		sched_rq_release(&s->cpu[i].rq);
		sim_free(s->cpu[i].kq);
	}
	for (i = 0; i < s->nr_tasks; i++)
		if (s->task[i]) {
			sim_free(s->task[i]->q);
			sim_free(s->task[i]->mask);
			sim_free(s->task[i]);
		}
	sim_free(s->task);
	sim_free(s->cpu);
	sim_free(s->ov);
	sim_free(s->sis_next_ns);
	sched_place_free(s->sp);
	sim_free(s);
	L->sched = NULL;
}

/* The task of a tid, created at its first item. */
static struct ltask *task_get(struct loop *L, int tid, struct sim_error *err)
{
	struct lsched *s = L->sched;
	struct ltask *t;
	size_t cap = (size_t)s->cap_tasks;

	if (tid < 1 || tid > LOOP_MAX_TASKS) {
		sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
			      "workload sent work to task %d (tasks are 1..%d)", tid,
			      LOOP_MAX_TASKS);
		return NULL;
	}
	if (tid > s->nr_tasks) {
		if (sim_grow((void **)&s->task, &cap, (size_t)tid, sizeof(*s->task))) {
			sim_error_nomem(err, "");
			return NULL;
		}
		s->cap_tasks = (int)cap;
		memset(s->task + s->nr_tasks, 0, (size_t)(tid - s->nr_tasks) * sizeof(*s->task));
		s->nr_tasks = tid;
	}
	if (!s->task[tid - 1]) {
		t = sim_calloc(1, sizeof(*t));
		if (!t) {
			sim_error_nomem(err, "");
			return NULL;
		}
		t->left_ns = -1;
		t->iowait_cpu = -1;
		t->tid = tid;
		t->st.last_cpu = -1;
		s->task[tid - 1] = t;
	}
	return s->task[tid - 1];
}

/* The CPU's agent timer: at t_ns unless it is already set no later (force: exactly). */
static void arm(struct loop *L, int cpu, int64_t t_ns, bool force)
{
	struct lscpu *c = &L->sched->cpu[cpu];

	if (!force && c->timer_ns <= t_ns)
		return;
	c->timer_ns = t_ns;
	sim_agent_timer(L->S, (uint32_t)cpu, t_ns);
}

/* Whether a CPU runs no task and has none queued (the idle task, perhaps in an
 * interrupt): a wakeup placed there is one "on an idle CPU". */
static bool cpu_is_idle(const struct loop *L, int cpu)
{
	const struct lscpu *c = &L->sched->cpu[cpu];

	return c->rq.nr_running == 0 && !c->curr;
}

/* ---- utilisation (PELT) and SIS_UTIL ---- */

/* Whether a task's own work runs on cpu: cfs_rq->curr is set and no interrupt work runs
 * ahead of it (IRQ time is not the task's, as with IRQ_TIME_ACCOUNTING). */
static bool pelt_running(const struct loop *L, int cpu)
{
	return L->sched->cpu[cpu].curr && !L->cpus[cpu].has_cur;
}

/* After cpu's step at t: if a task started or stopped running, its PELT sums take the
 * time since their last update at the state that held until t. O(1). */
static void pelt_sync(struct loop *L, int cpu, int64_t t)
{
	struct lscpu *c = &L->sched->cpu[cpu];
	bool running = pelt_running(L, cpu);

	if (running == c->pelt_running)
		return;
	pelt_update_util(&c->avg, t, c->pelt_running);
	c->pelt_running = running;
}

/* cpu_util_cfs(): cpu's util_avg brought up to now, at most its capacity (1024). */
static unsigned long cpu_util_cfs(struct loop *L, int cpu, int64_t now)
{
	struct lscpu *c = &L->sched->cpu[cpu];

	pelt_update_util(&c->avg, now, c->pelt_running);
	return c->avg.util_avg < SCHED_CAPACITY_SCALE ? c->avg.util_avg : SCHED_CAPACITY_SCALE;
}

/* msecs_to_jiffies(ms) (rounded up), one jiffy less when busy, clamped to
 * [1, max_load_balance_interval = HZ * CPUs / 10], in ns. */
static int64_t balance_jiffies_ns(const struct loop *L, int64_t ms, bool busy)
{
	const struct jiffy_grid *g = sim_grid(L->S);
	int64_t j = (ms * g->hz + 999) / 1000;
	int64_t max = (int64_t)g->hz * L->nr_cpus / 10;

	if (busy)
		j -= 1;
	return sim_max64(1, sim_min64(j, max)) * g->tick_ns;
}

/*
 * update_idle_cpu_scan() of a periodic balance of dst_cpu's LLC domain at now: the sum of
 * the LLC's cpu_util_cfs() sets its nr_idle_scan (place.c). The LLC's next update at a
 * wakeup is due one min_interval (llc_weight ms, in jiffies) after this jiffy's edge.
 */
static void update_idle_cpu_scan(struct loop *L, int dst_cpu, int64_t now)
{
	struct lsched *s = L->sched;
	unsigned long sum_util = 0;
	int k, n;
	const int *llc = sched_place_llc_cpus(s->sp, dst_cpu, &n);
	const struct jiffy_grid *g = sim_grid(L->S);

	for (k = 0; k < n; k++)
		sum_util += cpu_util_cfs(L, llc[k], now);
	sched_update_idle_cpu_scan(s->sp, dst_cpu, sum_util);
	s->sis_next_ns[sched_place_llc_of(s->sp, dst_cpu)] =
		jiffy_edge_ns(g, jiffy_of(g, now)) + balance_jiffies_ns(L, n, false);
}

/*
 * Before a wakeup placed at now whose target may be in cpu's LLC: if that LLC's update
 * is due, run it, standing for the periodic balance of the LLC domain that an idle CPU
 * (its tick kept, or the NOHZ idle balancer on its behalf) runs every min_interval.
 * The loop has no event at every tick, so the update comes at the first wakeup at or
 * after the tick it is due (docs/scheduler.md, "SIS_UTIL").
 */
static void sis_util_due(struct loop *L, int cpu, int64_t now)
{
	struct lsched *s = L->sched;

	if (now >= s->sis_next_ns[sched_place_llc_of(s->sp, cpu)])
		update_idle_cpu_scan(L, cpu, now);
}

/*
 * try_to_wake_up() of task t for item x by the CPU waker_cpu (its running task, if any, is
 * the waker): queue the work; if the task was blocked, place it, enqueue it, and either
 * wake its CPU or check whether it preempts what runs there.
 */
static int wake_task(struct loop *L, const struct loop_item *x, int waker_cpu, int64_t now,
		     struct sim_error *err)
{
	struct lsched *s = L->sched;
	struct ltask *t = task_get(L, x->tid, err);
	struct sched_waker w = { 0 };
	struct loop_item it = *x;
	struct lscpu *c;
	bool first, idle;
	int cpu;

	if (!t)
		return -1;
	it.arrival_ns = now;
	if (fifo_push(&t->q, &t->head, &t->n, &t->cap, &it))
		return sim_error_nomem(err, "");
	if (t->runnable)
		return 0; /* awake: the work waits behind what it has */
	first = !t->known;
	if (first) {
		sched_task_init(&t->pl, x->cpu);
		sched_entity_init(&t->se);
		if (x->pinned) {
			t->mask = sim_calloc((size_t)L->nr_cpus, sizeof(*t->mask));
			if (!t->mask)
				return sim_error_nomem(err, "");
			t->mask[x->cpu] = true;
			t->pl.cpus_allowed = t->mask;
		} else if (L->world.affinity) {
			int k = 0;

			while (k < L->nr_cpus && !L->world.affinity[(x->cpu + k) % L->nr_cpus])
				k++;
			if (k == L->nr_cpus)
				return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
						     "the tasks' affinity has none of the run's "
						     "%d CPUs",
						     L->nr_cpus);
			t->pl.cpu = (x->cpu + k) % L->nr_cpus; /* moved as sched_setaffinity does */
			t->pl.cpus_allowed = L->world.affinity;
		}
		t->known = true;
	}
	w.cpu = waker_cpu;
	w.task = s->cpu[waker_cpu].curr ? &s->cpu[waker_cpu].curr->pl : NULL;
	/* the target is the waker's CPU or prev (wake_affine()): their LLCs' scan depth */
	sis_util_due(L, waker_cpu, now);
	if (sched_place_llc_of(s->sp, t->pl.cpu) != sched_place_llc_of(s->sp, waker_cpu))
		sis_util_due(L, t->pl.cpu, now);
	cpu = sched_select_cpu(s->sp, &t->pl, &w, x->sync ? WF_SYNC : 0, now);
	c = &s->cpu[cpu];
	idle = cpu_is_idle(L, cpu);
	if (!first && cpu != t->pl.cpu) {
		moved(L, t);
		t->st.migrations++;
		c->st.migrations_in++;
	}
	t->pl.cpu = cpu;
	if (sched_rq_enqueue(&c->rq, &t->se, ENQUEUE_WAKEUP | (first ? ENQUEUE_INITIAL : 0), now))
		return sim_error_nomem(err, "");
	set_nr_running(s, cpu);
	t->runnable = true;
	t->queued_ns = now;
	t->st.wakeups++;
	if (c->idle_stamp_ns) { /* ttwu_do_activate(): the idle time just ended */
		int64_t max = 2 * L->world.migration_cost_ns;

		c->avg_idle_ns += (now - c->idle_stamp_ns - c->avg_idle_ns) / 8;
		if (c->avg_idle_ns > max)
			c->avg_idle_ns = max;
		c->idle_stamp_ns = 0;
	}
	if (idle) {
		t->st.wakeups_idle++;
		c->st.wakeups_idle++;
	} else {
		t->st.wakeups_busy++;
		c->st.wakeups_busy++;
	}
	if (L->cpus[cpu].state == L_IDLE) /* its idle period ends */
		return loop_wake_idle(L, cpu, now, cpu == waker_cpu ? x->cause : WAKE_IPI, err);
	if (cpu == s->cur_cpu) {
		sched_rq_wakeup_preempt(&c->rq, &t->se, now); /* it picks when the model returns */
		return 0;
	}
	if (sched_rq_wakeup_preempt(&c->rq, &t->se, now))
		arm(L, cpu, now, false); /* resched_curr(): the CPU reschedules now */
	else /* the tick may end the running task's slice now that another one waits */
		arm(L, cpu, jiffy_edge_after(sim_grid(L->S), now), false);
	return 0;
}

int loop_sched_send(struct loop *L, const struct loop_item *x, struct sim_error *err)
{
	struct lsched *s = L->sched;
	int64_t now = sim_now(L->S);
	struct lcpu *c;

	if (x->tid && x->cause == WAKE_IPI && x->arrival_ns == now)
		return wake_task(L, x, s->cur_cpu >= 0 ? s->cur_cpu : x->cpu, now, err);
	/* An interrupt (or kernel work) arriving on x->cpu. */
	c = &L->cpus[x->cpu];
	if (loop_push_item(c, x))
		return sim_error_nomem(err, "");
	if (c->state == L_RUNNING) {
		arm(L, x->cpu, x->arrival_ns, false);
		return 0;
	}
	return x->deferrable ? 0 : loop_wake_idle(L, x->cpu, x->arrival_ns, x->cause, err);
}

void loop_sched_iowait(struct loop *L, int cpu, int delta)
{
	struct ltask *t = L->sched->cur_task;

	if (t && delta > 0)
		t->iowait_cpu = cpu;
	else if (t && delta < 0 && t->iowait_cpu >= 0)
		cpu = t->iowait_cpu; /* ttwu: nr_iowait of the run queue it slept on */
	L->cpus[cpu].iowait += delta;
	if (L->cpus[cpu].iowait < 0)
		L->cpus[cpu].iowait = 0;
}

/* ---- balancing ---- */

/* Whether CPU j is in cpu's domain at level 0 (SMT), 1 (the LLC), 2 (the machine). */
static bool in_domain(const struct loop *L, int cpu, int j, int level)
{
	const struct sched_place *sp = L->sched->sp;

	if (level == 2)
		return true;
	if (level == 1)
		return sched_place_llc_of(sp, j) == sched_place_llc_of(sp, cpu);
	return sched_place_core_of(sp, j) == sched_place_core_of(sp, cpu);
}

/* The CPUs of cpu's domain at level 0 (its core) or 1 (its LLC), ascending, *nr of them;
 * NULL for level 2, the machine (every CPU). */
static const int *domain_cpus(const struct loop *L, int cpu, int level, int *nr)
{
	const struct sched_place *sp = L->sched->sp;

	if (level == 0)
		return sched_place_smt_cpus(sp, cpu, nr);
	if (level == 1)
		return sched_place_llc_cpus(sp, cpu, nr);
	*nr = L->nr_cpus;
	return NULL;
}

/* The pass's list of CPUs whose run queue has two tasks or more (s->ov). */
static void ov_build(struct lsched *s)
{
	int j;

	s->nr_ov = 0;
	for (j = 0; j < s->nr_cpus; j++)
		if (s->cpu[j].rq.nr_running >= 2)
			s->ov[s->nr_ov++] = j;
}

/*
 * sched_balance_rq() for one domain, simplified: the busiest run queue (most runnable
 * tasks, at least min_nr) of the domain's other CPUs gives up its least recently run
 * waiting task that may run here and is not cache-hot (task_hot(): ran within the
 * migration cost; not in an SMT domain; allow_hot: a balance that failed more than
 * cache_nice_tries times). from_ov: the busiest is among s->ov (a periodic pass). *found
 * says whether there was a busiest queue at all. Returns the task pulled, or NULL.
 */
static struct ltask *pull_from_domain(struct loop *L, int cpu, int level, int64_t now,
				      unsigned int min_nr, bool allow_hot, bool from_ov,
				      bool *found)
{
	struct lsched *s = L->sched;
	struct sched_rq *src;
	struct ltask *best = NULL;
	const int *span = NULL;
	int k, j, n, busiest = -1;
	size_t i;

	/* the overloaded CPUs of the domain, or the domain's CPUs, both ascending */
	if (from_ov)
		n = s->nr_ov;
	else
		span = domain_cpus(L, cpu, level, &n);
	for (k = 0; k < n; k++) {
		j = from_ov ? s->ov[k] : span ? span[k] : k;
		if (j != cpu && (!from_ov || in_domain(L, cpu, j, level)) &&
		    s->cpu[j].rq.nr_running >= min_nr &&
		    (busiest < 0 || s->cpu[j].rq.nr_running > s->cpu[busiest].rq.nr_running))
			busiest = j;
	}
	*found = busiest >= 0;
	if (busiest < 0)
		return NULL;
	src = &s->cpu[busiest].rq;
	for (i = 0; i < src->nr_queued; i++) {
		struct ltask *t = task_of(src->queued[i]);

		if (t->pl.cpus_allowed && !t->pl.cpus_allowed[cpu])
			continue;
		if (!allow_hot && level > 0 && now - t->se.exec_start_ns < L->world.migration_cost_ns)
			continue;
		if (!best || t->se.exec_start_ns < best->se.exec_start_ns)
			best = t;
	}
	if (!best)
		return NULL;
	sched_rq_dequeue(src, &best->se, now);
	set_nr_running(s, busiest);
	if (sched_rq_enqueue(&s->cpu[cpu].rq, &best->se, 0, now))
		return NULL; /* cannot happen: the queue had room for it */
	set_nr_running(s, cpu);
	best->pl.cpu = cpu;
	moved(L, best);
	best->st.migrations++;
	s->cpu[cpu].st.migrations_in++;
	return best;
}

/* ---- periodic balance (sched_balance_domains) ---- */

/* get_sd_balance_interval(): the domain's interval (x busy_factor 16 when busy), in the
 * run's jiffies (msecs_to_jiffies() rounds up; busy: one less), clamped to
 * [1, max_load_balance_interval = HZ * CPUs / 10]. */
static int64_t sd_interval_ns(const struct loop *L, int cpu, int level, bool busy)
{
	int64_t ms = (int64_t)L->sched->cpu[cpu].balance_interval_ms[level] * (busy ? 16 : 1);

	return balance_jiffies_ns(L, ms, busy);
}

/* Every SMT sibling of j runs nothing (is_core_idle()): O(SMT width). */
static bool core_idle(const struct loop *L, int j)
{
	int k, n;
	const int *smt = sched_place_smt_cpus(L->sched->sp, j, &n);

	for (k = 0; k < n; k++)
		if (!cpu_is_idle(L, smt[k]))
			return false;
	return true;
}

/*
 * should_we_balance() for a periodic balance: one CPU of the local group (the span of the
 * level below) balances the domain: its first idle CPU on an idle core, else its first
 * idle CPU, else its first CPU. The group is the core or the LLC: O(its size).
 */
static bool should_we_balance(const struct loop *L, int cpu, int level)
{
	int child = level - 1, j, k, n, idle_smt = -1, first = -1;
	const int *group;

	while (child >= 0 && !L->sched->cpu[cpu].dom_weight[child])
		child--;
	if (child < 0)
		return true; /* the local group is this CPU */
	group = domain_cpus(L, cpu, child, &n); /* child < 2: never NULL */
	for (k = 0; k < n; k++) {
		j = group[k];
		if (first < 0)
			first = j;
		if (!cpu_is_idle(L, j))
			continue;
		if (!core_idle(L, j)) {
			if (idle_smt < 0)
				idle_smt = j;
			continue;
		}
		return j == cpu;
	}
	return (idle_smt >= 0 ? idle_smt : first) == cpu;
}

/*
 * sched_balance_rq() of a periodic balance at `level`: an idle CPU pulls from a queue with
 * two tasks, a busy one only from a queue with two more than its own (a simplification of
 * calculate_imbalance(): the move must leave the pair closer). cache_nice_tries is 1 for
 * the LLC (MC) and 2 above it (NUMA: the machines with several LLCs have several nodes).
 * The interval goes back to min_interval (sd_weight ms) after a move or a failure, and
 * doubles up to 2 x sd_weight while the domain is balanced.
 */
static struct ltask *balance_rq(struct loop *L, int cpu, int level, int64_t now, bool idle)
{
	struct lscpu *c = &L->sched->cpu[cpu];
	int min = c->dom_weight[level];
	struct ltask *t;
	bool found;

	t = pull_from_domain(L, cpu, level, now, idle ? 2 : c->rq.nr_running + 2,
			     c->nr_balance_failed[level] > level, true, &found);
	if (t || found) {
		c->nr_balance_failed[level] = t ? 0 : c->nr_balance_failed[level] + 1;
		c->balance_interval_ms[level] = min;
	} else {
		c->nr_balance_failed[level] = 0;
		if (c->balance_interval_ms[level] < 2 * min)
			c->balance_interval_ms[level] *= 2;
	}
	if (t) {
		t->st.balance_pulls++;
		c->st.balance_pulls++;
	}
	return t;
}

/* sched_balance_domains() of `cpu` at now, bottom-up; returns the last task pulled (the
 * one a busy CPU checks for preemption), or NULL. Sets rq->next_balance. */
static struct ltask *balance_domains(struct loop *L, int cpu, int64_t now)
{
	struct lsched *s = L->sched;
	struct lscpu *c = &s->cpu[cpu];
	struct ltask *pulled = NULL, *t;
	bool idle = cpu_is_idle(L, cpu);
	int64_t next = SIM_TIME_NEVER, iv;
	int level, llc_weight;

	sched_place_llc_cpus(s->sp, cpu, &llc_weight);

	for (level = 0; level < 3; level++) {
		if (!c->dom_weight[level])
			continue;
		iv = sd_interval_ns(L, cpu, level, !idle);
		if (now >= c->last_balance_ns[level] + iv) {
			bool go = should_we_balance(L, cpu, level);

			if (!go) { /* out_balanced: another CPU balances this domain */
				c->nr_balance_failed[level] = 0;
				if (c->balance_interval_ms[level] < 2 * c->dom_weight[level])
					c->balance_interval_ms[level] *= 2;
			} else {
				/* update_sd_lb_stats(): the LLC domain's SIS_UTIL update */
				if (c->dom_weight[level] == llc_weight)
					update_idle_cpu_scan(L, cpu, now);
				if ((t = balance_rq(L, cpu, level, now, idle))) {
					pulled = t;
					idle = false;
				}
			}
			c->last_balance_ns[level] = now;
			iv = sd_interval_ns(L, cpu, level, !idle);
			next = sim_min64(next, now + iv);
			if (!go)
				break; /* continue_balancing = 0 */
			continue;
		}
		next = sim_min64(next, c->last_balance_ns[level] + iv);
	}
	c->next_balance_ns = next;
	return pulled;
}

/* A task a balance pulled to `cpu` (not the CPU whose step runs): an idle CPU is woken
 * by `cause` (its tick, or the ILB's IPI), a busy one checks for preemption
 * (attach_task(): wakeup_preempt()). */
static int after_pull(struct loop *L, int cpu, struct ltask *t, int64_t now,
		      enum wake_cause cause, struct sim_error *err)
{
	struct lscpu *c = &L->sched->cpu[cpu];

	if (L->cpus[cpu].state == L_IDLE)
		return loop_wake_idle(L, cpu, now, cause, err);
	if (sched_rq_wakeup_preempt(&c->rq, &t->se, now))
		arm(L, cpu, now, false);
	else
		arm(L, cpu, jiffy_edge_after(sim_grid(L->S), now), false);
	return 0;
}

/*
 * The periodic balance of the jiffy edge `now` (sched_tick() -> sched_balance_trigger()),
 * run once per edge at which some run queue has two tasks or more (at other edges there is
 * nothing to pull; the kernel's balance would find the domains balanced). Every CPU whose
 * tick runs (busy, or idle with the tick retained) and whose rq->next_balance is due
 * balances its domains; tickless idle CPUs are balanced by the NOHZ idle balancer.
 */
static int balance_pass(struct loop *L, int cpu_now, int64_t now, struct sim_error *err)
{
	struct lsched *s = L->sched;
	struct ltask *t;
	int j;

	if (s->last_pass_ns == now)
		return 0;
	s->last_pass_ns = now;
	ov_build(s);
	for (j = 0; j < L->nr_cpus; j++) {
		if (now < s->cpu[j].next_balance_ns ||
		    (L->cpus[j].state == L_IDLE && sim_tick_stopped(L->S, j)))
			continue;
		t = balance_domains(L, j, now);
		if (t && j != cpu_now && after_pull(L, j, t, now, WAKE_TIMER, err))
			return -1;
		if (t)
			ov_build(s);
	}
	return 0;
}

/*
 * _nohz_idle_balance() on the kicked CPU `cpu`: for every other tickless idle CPU that is
 * due, sched_balance_domains() on its behalf (a pull wakes it by IPI), then its own.
 * Returns 1 if it pulled a task for itself, 0 if not, -1 on error.
 */
static int nohz_idle_balance(struct loop *L, int cpu, int64_t now, struct sim_error *err)
{
	struct lsched *s = L->sched;
	struct ltask *t;
	int k, j;

	ov_build(s);
	for (k = 1; k < L->nr_cpus && s->nr_ov; k++) {
		j = (cpu + k) % L->nr_cpus;
		if (L->cpus[j].state != L_IDLE || !sim_tick_stopped(L->S, j) ||
		    !cpu_is_idle(L, j) || now < s->cpu[j].next_balance_ns)
			continue;
		t = balance_domains(L, j, now);
		if (t && after_pull(L, j, t, now, WAKE_IPI, err))
			return -1;
		if (t)
			ov_build(s);
	}
	return s->nr_ov && now >= s->cpu[cpu].next_balance_ns && balance_domains(L, cpu, now);
}

/* The root domain's overload flag: some run queue has two tasks or more. */
static bool overloaded(const struct loop *L)
{
	return L->sched->nr_overloaded > 0;
}

/*
 * update_next_balance() of sched_balance_newidle(): rq->next_balance comes forward to the
 * idle interval of the domains from level `from` (the first that exists) to below `to`,
 * which a CPU about to idle balances at (a busy one's was 16 times longer).
 */
static void next_balance_idle(struct loop *L, int cpu, int from, int to)
{
	struct lscpu *c = &L->sched->cpu[cpu];
	int level;

	for (level = from; level < 3; level++) {
		if (!c->dom_weight[level])
			continue;
		c->next_balance_ns = sim_min64(c->next_balance_ns,
					       c->last_balance_ns[level] +
						       sd_interval_ns(L, cpu, level, false));
		if (level + 1 >= to)
			break;
	}
}

/* sched_balance_newidle(): before `cpu` idles. Returns whether a task was pulled. */
static bool balance_newidle(struct loop *L, int cpu, int64_t now)
{
	struct lscpu *c = &L->sched->cpu[cpu];
	int64_t cost = L->world.newidle_cost_ns, curr_cost = 0;
	struct ltask *t;
	bool found;
	int level;

	c->idle_stamp_ns = now > 0 ? now : 1;
	if (!overloaded(L) || c->avg_idle_ns < cost) {
		next_balance_idle(L, cpu, 0, 1);
		return false;
	}
	c->st.newidle_tries++;
	for (level = 0; level < 3; level++) {
		if (level == 0 && !c->dom_weight[0])
			continue; /* no SMT domain */
		next_balance_idle(L, cpu, level, level + 1);
		if (c->avg_idle_ns < curr_cost + cost)
			break;
		curr_cost += cost;
		t = pull_from_domain(L, cpu, level, now, 2, false, false, &found);
		if (t) {
			t->st.pulls++;
			c->st.pulls++;
			c->idle_stamp_ns = 0;
			return true;
		}
	}
	return false;
}

/* nohz_balancer_kick() at a busy tick of `cpu` that has tasks waiting. */
static int nohz_kick(struct loop *L, int cpu, int64_t now, struct sim_error *err)
{
	struct lsched *s = L->sched;
	int j;

	if (now < s->next_balance_ns)
		return 0;
	/* the next balance of the idle CPUs: the top domain's idle interval, nr_cpus ms
	 * (at least a jiffy) */
	s->next_balance_ns = now + sim_max64((int64_t)L->nr_cpus * SIM_NS_PER_MS,
					     sim_grid(L->S)->tick_ns);
	for (j = 0; j < L->nr_cpus; j++)
		if (j != cpu && L->cpus[j].state == L_IDLE && s->cpu[j].rq.nr_running == 0 &&
		    sim_tick_stopped(L->S, j)) {
			s->cpu[j].ilb = true;
			return loop_wake_idle(L, j, now, WAKE_IPI, err);
		}
	return 0;
}

/* ---- a CPU's work ---- */

/* Charge the time since the segment began to what ran. */
static void charge(struct loop *L, int cpu, int64_t t)
{
	struct lscpu *c = &L->sched->cpu[cpu];
	int64_t d = t - c->seg_start_ns;

	c->seg_start_ns = t;
	if (d <= 0)
		return;
	if (L->cpus[cpu].has_cur) {
		c->kleft_ns = sim_max64(0, c->kleft_ns - d);
	} else if (c->curr && c->curr->left_ns > 0) {
		d = sim_min64(d, c->curr->left_ns);
		c->curr->left_ns -= d;
		c->curr->st.runtime_ns += d;
	}
}

/* The model reacts to a finished item, with the scheduler's context set. */
static int item_done(struct loop *L, int cpu, struct ltask *t, const struct loop_item *it,
		     int64_t now, struct sim_error *err)
{
	struct lsched *s = L->sched;
	int rc;

	s->cur_cpu = cpu;
	s->cur_task = t;
	rc = L->ops->done(L->model, L, it, now, err);
	s->cur_cpu = -1;
	s->cur_task = NULL;
	return rc;
}

/* Finish what is done at t: the kernel item, or the running task's item. */
static int finish_work(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	struct lsched *s = L->sched;
	struct lscpu *c = &s->cpu[cpu];
	struct lcpu *lc = &L->cpus[cpu];
	struct ltask *cur = c->curr;
	struct loop_item it;

	if (lc->has_cur) {
		if (c->kleft_ns > 0)
			return 0;
		it = lc->cur;
		lc->has_cur = false;
		if (L->tl)
			loop_keep_segment(L, cpu, 0, it.start_ns, t, false);
		loop_rcu_queued(L, cpu, &it, t);
		return item_done(L, cpu, NULL, &it, t, err);
	}
	if (!cur || cur->left_ns != 0 || !cur->n)
		return 0;
	it = fifo_pop(cur->q, &cur->head, &cur->n);
	cur->left_ns = -1;
	it.cpu = cpu;
	loop_rcu_queued(L, cpu, &it, t);
	if (item_done(L, cpu, cur, &it, t, err))
		return -1;
	if (!cur->n) { /* nothing more to do: it sleeps */
		sched_rq_dequeue(&c->rq, &cur->se, t);
		set_nr_running(s, cpu);
		cur->runnable = false;
	}
	return 0;
}

/* Interrupts and timers that have arrived: tasks they wake, kernel work they bring. */
static int take_arrivals(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	struct lcpu *lc = &L->cpus[cpu];
	struct lscpu *c = &L->sched->cpu[cpu];
	struct loop_item it;

	while (lc->nr_pending && lc->pending[0].arrival_ns <= t) {
		loop_pop_item(lc, &it);
		if (it.tid) {
			if (wake_task(L, &it, cpu, t, err))
				return -1;
		} else if (fifo_push(&c->kq, &c->khead, &c->kn, &c->kcap, &it)) {
			return sim_error_nomem(err, "");
		}
	}
	return 0;
}

/* The next time `cpu` must look again: its work's end, an arrival, a tick that may
 * preempt. */
static void arm_next(struct loop *L, int cpu, int64_t t)
{
	struct lscpu *c = &L->sched->cpu[cpu];
	struct lcpu *lc = &L->cpus[cpu];
	int64_t next = SIM_TIME_NEVER;

	if (lc->has_cur)
		next = t + c->kleft_ns;
	else if (c->curr)
		next = t + c->curr->left_ns;
	if (lc->nr_pending)
		next = sim_min64(next, lc->pending[0].arrival_ns);
	if (c->curr && !lc->has_cur && c->rq.nr_running > 1)
		next = sim_min64(next, jiffy_edge_after(sim_grid(L->S), t));
	arm(L, cpu, next, true);
}

/* Switch to the task the run queue picks (or none). */
static void switch_to(struct loop *L, int cpu, int64_t t)
{
	struct lscpu *c = &L->sched->cpu[cpu];
	struct sched_entity *se = sched_rq_pick_next(&c->rq, t);
	struct ltask *prev = c->curr, *next = se ? task_of(se) : NULL;

	if (next == prev)
		return;
	if (prev && prev->runnable)
		prev->queued_ns = t; /* preempted: it waits again */
	if (prev && L->tl)
		loop_keep_segment(L, cpu, prev->tid, c->curr_since_ns, t, prev->runnable);
	c->curr = next;
	c->curr_since_ns = t;
	if (!next)
		return;
	next->st.run_delay_ns += t - next->queued_ns;
	c->st.run_delay_ns += t - next->queued_ns;
	next->st.pcount++;
	next->st.last_cpu = cpu;
	c->st.switches++;
}

/* What `cpu` (running) does from t: the core of the scheduler's side of the loop. */
static int step_work(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	struct lsched *s = L->sched;
	struct lscpu *c = &s->cpu[cpu];
	struct lcpu *lc = &L->cpus[cpu];

	charge(L, cpu, t);
	if (finish_work(L, cpu, t, err) || take_arrivals(L, cpu, t, err))
		return -1;
	if (lc->state != L_RUNNING)
		return 0; /* cannot happen: a running CPU stays running while it works */
	if (c->curr && c->rq.nr_running > 1 && jiffy_edge_at_or_after(sim_grid(L->S), t) == t) {
		sched_rq_tick(&c->rq, t); /* sched_tick(): task_tick_fair() */
		if (balance_pass(L, cpu, t, err) || nohz_kick(L, cpu, t, err))
			return -1;
	}
	if (!lc->has_cur && c->kn) { /* kernel work first */
		lc->cur = fifo_pop(c->kq, &c->khead, &c->kn);
		lc->cur.start_ns = t;
		lc->has_cur = true;
		c->kleft_ns = lc->cur.work_ns;
	}
	if (lc->has_cur) {
		arm_next(L, cpu, t);
		return 0;
	}
	if (!c->curr || c->rq.need_resched || !c->curr->se.on_rq) {
		int got = 0;

		switch_to(L, cpu, t);
		if (!c->curr && !balance_newidle(L, cpu, t) && c->ilb)
			got = nohz_idle_balance(L, cpu, t, err);
		if (got < 0)
			return -1;
		if (!c->curr)
			switch_to(L, cpu, t);
		c->ilb = false;
	}
	if (!c->curr) {
		arm(L, cpu, SIM_TIME_NEVER, true);
		return loop_go_idle(L, cpu, t, err);
	}
	if (c->curr->left_ns < 0) { /* its next item starts */
		struct loop_item *head = &c->curr->q[c->curr->head];

		head->start_ns = t;
		c->curr->left_ns = head->work_ns + c->curr->refill_ns;
		c->curr->refill_ns = 0;
	}
	arm_next(L, cpu, t);
	return 0;
}

/* step_work(), then the CPU's PELT state follows what it now runs. */
static int step(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	int rc = step_work(L, cpu, t, err);

	pelt_sync(L, cpu, t);
	return rc;
}

int loop_sched_ready(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	L->cpus[cpu].state = L_RUNNING;
	L->sched->cpu[cpu].seg_start_ns = t;
	return step(L, cpu, t, err);
}

int loop_sched_timer(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	L->sched->cpu[cpu].timer_ns = SIM_TIME_NEVER;
	if (L->cpus[cpu].state != L_RUNNING)
		return 0;
	/* a zero-length item ends where it starts; run the steps it takes */
	return step(L, cpu, t, err);
}

void loop_sched_close_segments(struct loop *L)
{
	struct lsched *s = L->sched;
	int i;

	for (i = 0; s && i < s->nr_cpus; i++) {
		if (L->cpus[i].has_cur)
			loop_keep_segment(L, i, 0, L->cpus[i].cur.start_ns, L->end_ns, false);
		if (s->cpu[i].curr)
			loop_keep_segment(L, i, s->cpu[i].curr->tid, s->cpu[i].curr_since_ns,
					  L->end_ns, false);
	}
}

int loop_sched_result(struct loop *L, struct loop_sched_stats *out)
{
	struct lsched *s = L->sched;
	int i;

	memset(out, 0, sizeof(*out));
	if (!s)
		return 0;
	/* the end: what ran is charged, what waited has waited until then */
	for (i = 0; i < s->nr_cpus; i++)
		if (L->cpus[i].state == L_RUNNING)
			charge(L, i, L->end_ns);
	for (i = 0; i < s->nr_tasks; i++) {
		struct ltask *t = s->task[i];

		if (t && t->runnable && s->cpu[t->pl.cpu].curr != t && t->queued_ns < L->end_ns) {
			t->st.run_delay_ns += L->end_ns - t->queued_ns;
			s->cpu[t->pl.cpu].st.run_delay_ns += L->end_ns - t->queued_ns;
			t->queued_ns = L->end_ns;
		}
	}
	out->nr_cpus = s->nr_cpus;
	out->nr_tasks = s->nr_tasks;
	out->cpu = sim_calloc((size_t)s->nr_cpus, sizeof(*out->cpu));
	out->task = sim_calloc((size_t)(s->nr_tasks ? s->nr_tasks : 1), sizeof(*out->task));
	if (!out->cpu || !out->task) {
		sim_free(out->cpu);
		sim_free(out->task);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	for (i = 0; i < s->nr_cpus; i++)
		out->cpu[i] = s->cpu[i].st;
	for (i = 0; i < s->nr_tasks; i++) {
		if (s->task[i])
			out->task[i] = s->task[i]->st;
		else
			out->task[i].last_cpu = -1;
		out->task[i].comm =
			L->ops->task_comm ? L->ops->task_comm(L->model, i + 1) : "task";
	}
	return 0;
}
