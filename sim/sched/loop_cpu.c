// SPDX-License-Identifier: GPL-2.0-only
/*
 * loop_cpu.c - a CPU of the closed loop: its heap of pending items, the timers its sleep
 * length sees (with timer migration, loop.c's header says how), and its entry into idle.
 * Shared by loop.c (pinned threads) and loop_sched.c (the scheduler).
 */
#include "sim/sched/loop_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/engine/wheel.h"

/* ---- pending items ---- */

bool loop_item_before(const struct loop_item *a, const struct loop_item *b)
{
	return a->arrival_ns != b->arrival_ns ? a->arrival_ns < b->arrival_ns : a->seq < b->seq;
}

int loop_push_item(struct lcpu *c, const struct loop_item *it)
{
	size_t i;

	if (sim_grow((void **)&c->pending, &c->cap_pending, c->nr_pending + 1, sizeof(*c->pending)))
		return -1;
	i = c->nr_pending++;
	while (i > 0 && loop_item_before(it, &c->pending[(i - 1) / 2])) {
		c->pending[i] = c->pending[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->pending[i] = *it;
	return 0;
}

void loop_pop_item(struct lcpu *c, struct loop_item *out)
{
	struct loop_item last;
	size_t i = 0;

	*out = c->pending[0];
	last = c->pending[--c->nr_pending];
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= c->nr_pending)
			break;
		if (k + 1 < c->nr_pending && loop_item_before(&c->pending[k + 1], &c->pending[k]))
			k++;
		if (!loop_item_before(&c->pending[k], &last))
			break;
		c->pending[i] = c->pending[k];
		i = k;
	}
	if (c->nr_pending)
		c->pending[i] = last;
}

/* ---- timer migration ---- */

/* Active for timer migration: running, or idle with its tick still running. */
bool loop_cpu_active(const struct loop *L, int cpu)
{
	return L->cpus[cpu].state == L_RUNNING || !sim_tick_stopped(L->S, cpu);
}

/*
 * Every CPU but cpu inactive. Asked at each idle entry: the CPU found active last time is
 * asked first, so on a machine with any work the answer costs one look, not one per CPU.
 */
static bool lonely(struct loop *L, int cpu)
{
	int j, h = L->active_hint;

	if (h >= 0 && h < L->nr_cpus && h != cpu && loop_cpu_active(L, h))
		return false;
	for (j = 0; j < L->nr_cpus; j++)
		if (j != cpu && loop_cpu_active(L, j)) {
			L->active_hint = j;
			return false;
		}
	return true;
}

static int64_t armed_of(const struct loop *L, int cpu, int64_t t)
{
	return L->ops->armed_timer ? L->ops->armed_timer(L->model, cpu, t) : SIM_TIME_NEVER;
}

/* The earliest global timer of `cpu` (cpu < 0: of every CPU), pooled or armed by the model. */
static int64_t global_of(const struct loop *L, int cpu, int64_t t)
{
	int64_t g = SIM_TIME_NEVER;
	size_t i;
	int j;

	/* one CPU's: its pooled items (if it owns any) and its armed timer, not a look at
	 * every CPU's (that made each idle entry O(CPUs), docs/speed.md) */
	if (cpu >= 0) {
		if (L->cpus[cpu].nr_pooled)
			for (i = 0; i < L->pool.nr_pending; i++)
				if (L->pool.pending[i].cpu == cpu)
					g = sim_min64(g, L->pool.pending[i].arrival_ns);
		return sim_min64(g, armed_of(L, cpu, t));
	}
	if (L->pool.nr_pending) /* a heap by arrival: its top is the earliest */
		g = L->pool.pending[0].arrival_ns;
	for (j = 0; j < L->nr_cpus; j++)
		g = sim_min64(g, armed_of(L, j, t));
	return g;
}

/*
 * The earliest pending timer item or armed timer, and the earliest timer-wheel one, as
 * tick_nohz_next_event() sees them (the header comment: deferrable ones never, global ones
 * by the timer migration rule of the world).
 */
static void next_timers_of(struct loop *L, int cpu, int64_t t)
{
	struct lcpu *c = &L->cpus[cpu];
	int64_t wheel = SIM_TIME_NEVER, hr = SIM_TIME_NEVER, own;
	size_t i;

	for (i = 0; i < c->nr_pending; i++) {
		const struct loop_item *it = &c->pending[i];

		if (it->cause != WAKE_TIMER || it->deferrable)
			continue;
		if (it->hrtimer)
			hr = sim_min64(hr, it->arrival_ns);
		else
			wheel = sim_min64(wheel, it->arrival_ns);
	}
	if (!L->world.tmigr) {
		wheel = sim_min64(wheel, armed_of(L, cpu, t));
	} else {
		own = global_of(L, cpu, t);
		if (sim_min64(wheel, own) <= jiffy_edge_after(sim_grid(L->S), t))
			wheel = sim_min64(wheel, own);
		else if (lonely(L, cpu))
			wheel = sim_min64(wheel, global_of(L, -1, t));
	}
	c->next_wheel_ns = wheel;
	c->next_timer_ns = sim_min64(wheel, hr);
}

/* ---- the CPU's life ---- */

int loop_record_period(struct loop *L, int cpu, int64_t wake_ns)
{
	struct lcpu *c = &L->cpus[cpu];
	struct lperiod *p;

	if (!L->record)
		return 0;
	if (sim_grow((void **)&L->periods, &L->cap_periods, L->nr_periods + 1, sizeof(*L->periods)))
		return -1;
	p = &L->periods[L->nr_periods++];
	p->cpu = cpu;
	p->start_ns = c->idle_start_ns;
	p->wake_ns = wake_ns;
	p->cause = c->wake_cause;
	p->next_timer_ns = c->next_timer_ns;
	p->next_wheel_ns = c->next_wheel_ns;
	p->keep_tick_until_ns = c->rcu_until_ns > c->idle_start_ns ? c->rcu_until_ns : 0;
	p->iowait = c->idle_iowait;
	return 0;
}

void loop_keep_segment(struct loop *L, int cpu, int tid, int64_t start_ns, int64_t end_ns,
		       bool preempted)
{
	const struct loop_timeline *tl = L->tl;
	struct lcpu *c = &L->cpus[cpu];
	struct loop_segment *s;

	if (end_ns <= start_ns || end_ns <= tl->from_ns ||
	    (tl->to_ns >= 0 && start_ns >= tl->to_ns))
		return;
	if (tid == LOOP_SEG_WORK && c->last_seg && L->segs[c->last_seg - 1].end_ns == start_ns) {
		L->segs[c->last_seg - 1].end_ns = end_ns;
		return;
	}
	if (tl->cap && (long)L->nr_segs >= tl->cap) {
		L->segs_cut = true;
		return;
	}
	if (sim_grow((void **)&L->segs, &L->cap_segs, L->nr_segs + 1, sizeof(*L->segs))) {
		L->segs_nomem = true;
		return;
	}
	s = &L->segs[L->nr_segs++];
	*s = (struct loop_segment){ start_ns, end_ns, cpu, tid, preempted };
	if (tid == LOOP_SEG_WORK)
		c->last_seg = L->nr_segs;
}

/* The earliest pending item that wakes an idle CPU (not a deferrable timer), or NULL. */
static const struct loop_item *first_waking(const struct lcpu *c)
{
	const struct loop_item *w = NULL;
	size_t i;

	if (c->nr_pending && !c->pending[0].deferrable)
		return &c->pending[0];
	for (i = 0; i < c->nr_pending; i++)
		if (!c->pending[i].deferrable && (!w || loop_item_before(&c->pending[i], w)))
			w = &c->pending[i];
	return w;
}

int loop_go_idle(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	struct lcpu *c = &L->cpus[cpu];
	const struct loop_item *w;

	c->state = L_IDLE;
	c->has_cur = false;
	c->idle_start_ns = t;
	next_timers_of(L, cpu, t);
	c->idle_iowait = c->iowait;
	c->wake_ns = SIM_TIME_NEVER;
	L->last_idle_cpu = cpu;
	if (sim_idle(L->S, cpu, t, c->next_timer_ns, c->next_wheel_ns, (unsigned int)c->iowait, 0,
		     err))
		return -1;
	if (c->rcu_until_ns > t && sim_keep_tick(L->S, cpu, c->rcu_until_ns, err))
		return -1;
	w = first_waking(c);
	if (!w)
		return 0;
	c->wake_ns = w->arrival_ns;
	c->wake_cause = w->cause;
	return sim_wake(L->S, cpu, c->wake_ns, c->wake_cause, false, err);
}


void loop_rcu_queued(struct loop *L, int cpu, const struct loop_item *done, int64_t t)
{
	struct lcpu *c = &L->cpus[cpu];

	if (done->rcu && L->world.rcu_jiffies > 0) /* invoked at the tick rcu_jiffies edges on */
		c->rcu_until_ns = sim_max64(
			c->rcu_until_ns,
			jiffy_edge_ns(sim_grid(L->S),
				      jiffy_of(sim_grid(L->S), t) + L->world.rcu_jiffies));
}

/* An idle CPU is woken at t by `cause`, unless it wakes no later already; if it leaves the
 * idle loop already (sim_exiting()), the wakeup is kept for the record and the exit runs. */
int loop_wake_idle(struct loop *L, int cpu, int64_t t, enum wake_cause cause,
		   struct sim_error *err)
{
	struct lcpu *c = &L->cpus[cpu];

	if (c->wake_ns != SIM_TIME_NEVER && c->wake_ns <= t)
		return 0;
	c->wake_ns = t;
	c->wake_cause = cause;
	if (sim_exiting(L->S, cpu))
		return 0;
	return sim_rewake(L->S, cpu, t, cause, err);
}
