// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_recon.c - kernel events -> idle periods -> idle opportunities (traces/FORMAT.md,
 * "Importing kernel traces", states the rules; this file follows them line by line).
 *
 * Events arrive in time order (sim/import/import.c sorts them first when the trace is not). Each
 * CPU is a small state machine:
 *
 *   NONE/RUNNING  no idle period open (RUNNING: a task ran since the last one);
 *   IDLE          between a cpu_idle entry and its exit;
 *   EXITED        after an exit, until the CPU enters idle again (the periods merge into one
 *                 opportunity when no task ran in between) or runs a task (the opportunity
 *                 ends at that exit);
 *   FINAL         its last cpu_idle event was an entry: idle until the end of the trace.
 *
 * What woke each period is the first wake-cause event on the CPU after its entry (while it is
 * still idle, for idle states that take interrupts with IRQs on, or after the exit) and before
 * it runs a task or idles again. The sleep length of an opportunity comes from the timers
 * pending on the CPU at its first entry (a snapshot), so each CPU keeps its pending timers in a
 * list; a hash table finds a timer by kind and address.
 *
 * Opportunities complete out of start order across CPUs, but the native format wants start
 * order: finished ones wait, in a queue per CPU, until no CPU can still produce an earlier one
 * (the earliest start among CPUs with an opportunity open, or the current time). So memory holds
 * the pending timers, one snapshot per CPU, and the opportunities that end while another CPU
 * sits in one long idle opportunity.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <stdlib.h>
#include <string.h>

const char *icause_name(enum icause c)
{
	static const char *const names[IC_NR] = {"tick", "timer", "irq", "ipi", "unknown"};

	return c < IC_NR ? names[c] : "?";
}

const char *unpaired_reason_name(enum unpaired_reason r)
{
	static const char *const names[UNP_NR] = {
		"trace_started_idle",	"exit_without_entry", "entry_followed_by_entry",
		"task_ran_before_exit", "events_lost",	      "trace_ended_idle",
	};

	return r < UNP_NR ? names[r] : "?";
}

bool unpaired_is_entry(enum unpaired_reason r)
{
	return r == UNP_DOUBLE_ENTRY || r == UNP_TASK || r == UNP_LOST || r == UNP_END;
}

/* ---- pending timers ---- */

static uint32_t tm_hash(unsigned kind, uint64_t id)
{
	uint64_t h = (id ^ ((uint64_t)kind << 63)) * 0x9E3779B97F4A7C15ULL;

	return (uint32_t)(h >> 32);
}

static int32_t tm_find(const struct recon *R, unsigned kind, uint64_t id)
{
	int32_t i;

	if (!R->hash_cap)
		return -1;
	for (i = R->hash[tm_hash(kind, id) & (R->hash_cap - 1)]; i >= 0; i = R->tm[i].hnext)
		if (R->tm[i].id == id && R->tm[i].kind == kind)
			return i;
	return -1;
}

static int tm_rehash(struct recon *R, uint32_t cap)
{
	int32_t *h = sim_malloc(cap * sizeof(*h));
	uint32_t i;

	if (!h)
		return -1;
	for (i = 0; i < cap; i++)
		h[i] = -1;
	for (i = 0; i < R->tm_cap; i++) {
		struct rtimer *t = &R->tm[i];
		uint32_t b;

		if (!t->used)
			continue;
		b = tm_hash(t->kind, t->id) & (cap - 1);
		t->hnext = h[b];
		h[b] = (int32_t)i;
	}
	sim_free(R->hash);
	R->hash = h;
	R->hash_cap = cap;
	return 0;
}

static void cpu_link(struct recon *R, int32_t i)
{
	struct rtimer *t = &R->tm[i];
	struct rcpu *c = &R->cpu[t->cpu];

	t->cprev = -1;
	t->cnext = c->timers;
	if (c->timers >= 0)
		R->tm[c->timers].cprev = i;
	c->timers = i;
}

static void cpu_unlink(struct recon *R, int32_t i)
{
	struct rtimer *t = &R->tm[i];

	if (t->cprev >= 0)
		R->tm[t->cprev].cnext = t->cnext;
	else
		R->cpu[t->cpu].timers = t->cnext;
	if (t->cnext >= 0)
		R->tm[t->cnext].cprev = t->cprev;
}

static void tm_del(struct recon *R, int32_t i)
{
	struct rtimer *t = &R->tm[i];
	int32_t *p = &R->hash[tm_hash(t->kind, t->id) & (R->hash_cap - 1)];

	while (*p != i)
		p = &R->tm[*p].hnext;
	*p = t->hnext;
	cpu_unlink(R, i);
	t->used = 0;
	t->hnext = R->tm_free;
	R->tm_free = i;
	R->tm_n--;
}

static int tm_arm(struct recon *R, unsigned kind, uint64_t id, int cpu, int64_t expiry, bool tick)
{
	int32_t i = tm_find(R, kind, id);
	uint32_t b;

	if (i >= 0) {
		if (R->tm[i].cpu != cpu) {
			cpu_unlink(R, i);
			R->tm[i].cpu = cpu;
			cpu_link(R, i);
		}
		R->tm[i].expiry_ns = expiry;
		R->tm[i].tick = tick;
		return 0;
	}
	if (R->tm_free < 0) {
		uint32_t cap = R->tm_cap ? 2 * R->tm_cap : 64, k;
		struct rtimer *t;

		if (cap > INT32_MAX / 2)
			return -1;
		t = sim_realloc(R->tm, cap * sizeof(*t));
		if (!t)
			return -1;
		R->tm = t;
		for (k = cap; k > R->tm_cap; k--) {
			t[k - 1].used = 0;
			t[k - 1].hnext = R->tm_free;
			R->tm_free = (int32_t)(k - 1);
		}
		R->tm_cap = cap;
	}
	if (R->tm_n + 1 > R->hash_cap && tm_rehash(R, R->hash_cap ? 2 * R->hash_cap : 64))
		return -1;
	i = R->tm_free;
	R->tm_free = R->tm[i].hnext;
	R->tm[i] = (struct rtimer){.id = id,
				   .expiry_ns = expiry,
				   .cpu = cpu,
				   .kind = (uint8_t)kind,
				   .tick = tick,
				   .used = 1};
	b = tm_hash(kind, id) & (R->hash_cap - 1);
	R->tm[i].hnext = R->hash[b];
	R->hash[b] = i;
	R->tm_n++;
	cpu_link(R, i);
	return 0;
}

static void tm_cancel(struct recon *R, unsigned kind, uint64_t id)
{
	int32_t i = tm_find(R, kind, id);

	if (i >= 0)
		tm_del(R, i);
}

/* The CPU's non-tick pending timers, for the sleep length of the opportunity opening now. */
static int snapshot(struct recon *R, struct rcpu *c)
{
	int32_t i, next;

	c->nsnap = 0;
	for (i = c->timers; i >= 0; i = next) {
		struct rtimer *t = &R->tm[i];

		next = t->cnext;
		if (t->expiry_ns < R->now_ns - IMP_STALE_NS) {
			R->stale_timers++; /* its expiry or cancellation was lost */
			tm_del(R, i);
			continue;
		}
		if (t->tick)
			continue;
		if (sim_grow((void **)&c->snap, &c->capsnap, c->nsnap + 1, sizeof(*c->snap)))
			return -1;
		c->snap[c->nsnap].expiry_ns = t->expiry_ns;
		c->snap[c->nsnap++].wheel = t->kind == TM_WHEEL;
	}
	return 0;
}

/* ---- finished opportunities, in start order ---- */

/*
 * A CPU's opportunities finish in start order, so each CPU's wait in a queue of their own and
 * only the first of each is compared: a winner tree over the CPUs (node k holds the CPU first
 * by (start, cpu) in its subtree; the leaves, leaves + i for CPU i, are implicit). A push onto
 * a CPU's non-empty queue leaves the tree alone; a pop replays one path. The heap this
 * replaces moved records down seven levels per pop at 8 CPUs (docs/speed.md). Not the
 * engine's eventq: that breaks ties by insertion, and records leave by (start, cpu).
 */
static inline bool cpu_first(const struct recon *R, uint32_t a, uint32_t b)
{
	return R->head_ns[a] != R->head_ns[b] ? R->head_ns[a] < R->head_ns[b] : a < b;
}

static void win_update(struct recon *R, uint32_t cpu)
{
	uint32_t k, a, b;

	for (k = (R->leaves + cpu) / 2; k >= 1; k /= 2) {
		a = 2 * k >= R->leaves ? 2 * k - R->leaves : R->win[2 * k];
		b = 2 * k + 1 >= R->leaves ? 2 * k + 1 - R->leaves : R->win[2 * k + 1];
		R->win[k] = cpu_first(R, b, a) ? b : a;
	}
}

static int fifo_grow(struct rfifo *f)
{
	uint32_t cap = f->cap ? 2 * f->cap : 16, i;
	struct out_rec *r = sim_malloc((size_t)cap * sizeof(*r));

	if (!r)
		return -1;
	for (i = 0; i < f->n; i++)
		r[i] = f->r[(f->head + i) & (f->cap - 1)];
	sim_free(f->r);
	f->r = r;
	f->head = 0;
	f->cap = cap;
	return 0;
}

/* r into its CPU's queue, after those starting no later (from the tail: in order, none). */
static int wait_push(struct recon *R, const struct out_rec *r)
{
	struct rfifo *f = &R->fifo[r->cpu];
	uint32_t pos, m;

	if (f->n == f->cap && fifo_grow(f))
		return -1;
	m = f->cap - 1;
	for (pos = f->n; pos > 0 && f->r[(f->head + pos - 1) & m].start_ns > r->start_ns; pos--)
		f->r[(f->head + pos) & m] = f->r[(f->head + pos - 1) & m];
	f->r[(f->head + pos) & m] = *r;
	f->n++;
	if (pos == 0) {
		R->head_ns[r->cpu] = r->start_ns;
		win_update(R, (uint32_t)r->cpu);
	}
	if (++R->nwaiting > R->maxwaiting)
		R->maxwaiting = R->nwaiting;
	return 0;
}

/* The first waiting record (nwaiting > 0). */
static const struct out_rec *wait_first(const struct recon *R)
{
	const struct rfifo *f = &R->fifo[R->win[1]];

	return &f->r[f->head];
}

static void wait_pop(struct recon *R)
{
	uint32_t cpu = R->win[1];
	struct rfifo *f = &R->fifo[cpu];

	f->head = (f->head + 1) & (f->cap - 1);
	R->head_ns[cpu] = --f->n ? f->r[f->head].start_ns : INT64_MAX;
	win_update(R, cpu);
	R->nwaiting--;
}

/*
 * A finished opportunity of `cpu`. Its sleep length: the earliest timer pending at its start
 * that is due no earlier than its wakeup (earlier ones expired or were cancelled inside it,
 * waking no task); none when the trace has no timer events. Its kind: that timer's (for
 * cause timer, the kind of the timer that woke the CPU, `hr`; the tick runs the timer
 * wheel); when it is an hrtimer, the earliest timer-wheel timer due no earlier than the
 * wakeup is noted too (a wheel timer due with the hrtimer makes the record a wheel one).
 */
enum emit_kind { EMIT_ENDED, EMIT_STARTED_IDLE, EMIT_TO_END, EMIT_THROUGHOUT };

static int emit(struct recon *R, int cpu, int64_t start, int64_t length, enum icause cause,
		bool hr, enum emit_kind kind)
{
	struct rcpu *c = &R->cpu[cpu];
	struct out_rec r = {start, length, -1, -1, cpu, (uint8_t)cause, false};
	int64_t any = -1, wheel = -1, rel;
	size_t i;

	if (length <= 0) {
		c->s.zero_length++;
		return 0;
	}
	for (i = 0; i < c->nsnap; i++) {
		if (c->snap[i].expiry_ns < start + length)
			continue;
		rel = c->snap[i].expiry_ns - start;
		if (any < 0 || rel < any)
			any = rel;
		if (c->snap[i].wheel && (wheel < 0 || rel < wheel))
			wheel = rel;
	}
	if (cause == IC_TIMER || cause == IC_TICK) {
		r.hr = cause == IC_TIMER && hr && wheel != length;
	} else if (any >= 0) {
		r.next_timer_ns = any;
		r.hr = wheel != any;
	}
	if (r.hr)
		r.next_wheel_ns = wheel;
	if (kind == EMIT_THROUGHOUT) {
		c->s.idle_throughout++;
	} else if (kind == EMIT_STARTED_IDLE) {
		c->s.started_idle++;
	} else if (kind == EMIT_TO_END) {
		c->s.truncated++;
	} else {
		c->s.opportunities++;
		c->s.causes[cause]++;
		if (r.next_timer_ns >= 0)
			c->s.with_next_timer++;
		c->s.hrtimer_first += r.hr;
	}
	if (!R->prologue && start == R->start_ns) {
		/* one pass: records from the trace's start may show up late; they go first */
		if (sim_grow((void **)&R->pro, &R->cappro, R->npro + 1, sizeof(*R->pro)))
			return -1;
		R->pro[R->npro++] = r;
		return 0;
	}
	return wait_push(R, &r);
}

/* ---- per CPU ---- */

static void unpaired(struct rcpu *c, enum unpaired_reason why)
{
	c->s.unpaired[why]++;
}

/* An opportunity opens at t; `snap`: note the CPU's pending timers (no: none are known, for
 * an opportunity that began with the trace, which is a started-idle record). */
static int open_run(struct recon *R, struct rcpu *c, int cpu, int64_t t, bool snap)
{
	c->run_open = true;
	c->run_has_wake = false;
	c->run_started_idle = !snap;
	c->run_start = t;
	c->run_periods = 0;
	c->nsnap = 0;
	eventq_set(R->open, (uint32_t)cpu, t, 0);
	return snap ? snapshot(R, c) : 0;
}

/*
 * Where a record woken by the tick or a timer-wheel timer ends. The kernel fired it at a
 * jiffy edge; the recorded exit comes after it by the hardware's exit and the way to the
 * trace point, and the replay would move a wakeup off the grid up to the next edge, almost
 * a jiffy late. So it ends at the last edge at or before the exit, when that edge is less
 * than half a jiffy back and after `entry`, the start of the idle period the wakeup ended
 * (the record's start unless periods merged: a CPU that idled after an edge was not woken
 * by it). Half a jiffy or more back, the exit is as near the next edge (a CPU's own tick
 * offset by skew_tick=1, an exit slower than half a jiffy): it stays, and the replay moves
 * it forward by at most half a jiffy. Either way it lands on the edge nearest its exit.
 */
static int64_t grid_wake(struct recon *R, int64_t entry, int64_t wake)
{
	struct recon_grid *g = &R->grid;
	int64_t back, edge;

	if (!g->tick_ns)
		return wake;
	back = sim_floor_mod64(wake - g->phase_ns, g->tick_ns);
	edge = wake - back;
	if (!back)
		return wake;
	if (2 * back >= g->tick_ns) {
		g->past_half++;
		return wake;
	}
	if (edge <= entry) {
		g->edge_not_after_start++;
		return wake;
	}
	g->moved++;
	g->max_move_ns = sim_max64(g->max_move_ns, back);
	return edge;
}

static int close_run(struct recon *R, struct rcpu *c, int cpu)
{
	int64_t wake;

	if (!c->run_open)
		return 0;
	c->run_open = false;
	eventq_remove(R->open, (uint32_t)cpu);
	if (!c->run_has_wake)
		return 0;
	wake = c->run_cause_grid ? grid_wake(R, c->run_wake_entry, c->run_wake) : c->run_wake;
	return emit(R, cpu, c->run_start, wake - c->run_start, c->run_cause, c->run_cause_hr,
		    c->run_started_idle ? EMIT_STARTED_IDLE : EMIT_ENDED);
}

/* The cause of the period that ended last, if no event has told it yet. */
static void settle_cause(struct recon *R, struct rcpu *c)
{
	if (!c->cause_final) {
		c->cause = c->timer_irq ? IC_TIMER : c->remote ? IC_IPI : IC_UNKNOWN;
		c->cause_final = true;
	}
	c->s.period_causes[c->cause]++;
	/* the expiry's rows exist already (census_event made them): this cannot fail */
	if ((c->cause == IC_TIMER || c->cause == IC_TICK) && c->cause_fn >= 0)
		(void)census_idle_ended(&R->census, (int)(c - R->cpu), c->cause_kind, c->cause_fn);
	c->run_cause = c->cause;
	c->run_cause_hr = c->cause_hr;
	c->run_cause_grid = c->cause_grid;
}

static void new_window(struct rcpu *c)
{
	c->cause_final = false;
	c->timer_irq = false;
	c->remote = false;
	c->cause_hr = false;
	c->cause_grid = false;
	c->cause_fn = -1;
	c->cause = IC_UNKNOWN;
}

static bool may_wake(const struct rcpu *c)
{
	return (c->st == RS_IDLE || c->st == RS_EXITED || c->st == RS_FRESH) && !c->cause_final;
}

static void cause(struct rcpu *c, enum icause ic)
{
	if (may_wake(c)) {
		c->cause = ic;
		c->cause_final = true;
	}
}

/* An hrtimer (not the tick's) expired: if it decides the cause, the record says hrtimer. */
static void cause_hrtimer(struct rcpu *c)
{
	if (may_wake(c))
		c->cause_hr = true;
	cause(c, IC_TIMER);
}

/* The tick's expiry (IC_TICK) or a timer-wheel timer's (IC_TIMER): fired on a jiffy edge,
 * so a record it ends may end at that edge (grid_wake). */
static void cause_on_grid(struct rcpu *c, enum icause ic)
{
	if (may_wake(c))
		c->cause_grid = true;
	cause(c, ic);
}

/* Idle until the end of the trace: a record past `end`, so the replay cuts it there. */
static int emit_to_end(struct recon *R, struct rcpu *c, int cpu)
{
	int64_t start = c->run_start;

	c->run_open = false;
	eventq_remove(R->open, (uint32_t)cpu);
	return emit(R, cpu, start, R->end_ns + 1 - start, IC_UNKNOWN, false, EMIT_TO_END);
}

/*
 * import_hooks: the last exit of CPU `cpu`, for reflect(). The kernel logs the exit before
 * it enables interrupts, so a tick that ended the entry (or fired during the exit) runs its
 * handler after the exit event; reflect() runs after that and reads got_idle_tick. So the
 * exit is passed on at the CPU's next entry or task switch (or the end), with the tick's
 * expiries seen since its entry.
 */
static void hook_exit(struct recon *R, struct rcpu *c, int cpu)
{
	struct import_idle_exit x;

	if (!c->exit_pending)
		return;
	c->exit_pending = false;
	x.cpu = cpu;
	x.entry_ns = c->pend_entry_ns;
	x.time_ns = c->pend_exit_ns;
	x.state = c->pend_state;
	x.got_tick = c->got_tick;
	R->hooks->exit(R->hooks->ud, &x);
}

/* import_hooks: what the recording governor saw at this entry (validate). */
static void hook_entry(struct recon *R, struct rcpu *c, const struct kevent *ev)
{
	struct import_idle_entry e = { 0 };
	int32_t i;

	hook_exit(R, c, ev->cpu);
	e.cpu = ev->cpu;
	e.time_ns = ev->time_ns;
	e.state = (int)ev->v;
	e.first = !c->hooked || c->ran_task;
	e.switches_known = R->merge;
	e.timers_known = R->timers_known;
	e.tick_stop_known = R->tick_stop_known;
	e.next_timer_ns = e.next_wheel_ns = e.tick_expiry_ns = INT64_MAX;
	for (i = c->timers; i >= 0; i = R->tm[i].cnext) {
		const struct rtimer *t = &R->tm[i];

		if (t->expiry_ns < ev->time_ns)
			continue;
		if (t->tick) {
			e.tick_expiry_ns = sim_min64(e.tick_expiry_ns, t->expiry_ns);
			continue;
		}
		e.next_timer_ns = sim_min64(e.next_timer_ns, t->expiry_ns);
		if (t->kind == TM_WHEEL)
			e.next_wheel_ns = sim_min64(e.next_wheel_ns, t->expiry_ns);
	}
	/* the tick as the CPU's last selection left it: this selection's own tick_stop is
	 * logged before its cpu_idle event (tick_nohz_idle_stop_tick() runs first) */
	e.tick_stopped = !e.first && c->stopped_after_last;
	c->stopped_after_last = c->tick_stop_seen;
	e.tick_ns = R->grid.tick_ns;
	e.tick_phase_ns = R->grid.phase_ns;
	c->ran_task = false;
	c->got_tick = false;
	c->hooked = true;
	R->hooks->entry(R->hooks->ud, &e);
}

static int on_entry(struct recon *R, struct rcpu *c, const struct kevent *ev)
{
	int cpu = ev->cpu;

	switch (c->st) {
	case RS_FINAL:
		return 0;
	case RS_FRESH:
		new_window(c);
		break;
	case RS_IDLE:
		unpaired(c, UNP_DOUBLE_ENTRY);
		if (close_run(R, c, cpu))
			return -1;
		break;
	case RS_EXITED:
		settle_cause(R, c);
		stats_settle(R, c, cpu);
		/* idle since the trace began: that record ends at its first exit, whatever
		 * follows (its entry, and so its state and timers, are unknown) */
		if (R->merge && !c->run_started_idle)
			c->s.merged++;
		else if (close_run(R, c, cpu))
			return -1;
		break;
	default:
		break;
	}
	if (!c->run_open && open_run(R, c, cpu, ev->time_ns, true))
		return -1;
	c->st = RS_IDLE;
	c->state = ev->v;
	c->entry_ns = ev->time_ns;
	new_window(c);
	if (R->hooks)
		hook_entry(R, c, ev);
	return 0;
}

static int on_exit(struct recon *R, struct rcpu *c, const struct kevent *ev)
{
	if (c->st == RS_FINAL)
		return 0;
	if (c->st == RS_FRESH) {
		/* its first idle event, and no task switch before: idle since the trace began */
		unpaired(c, UNP_START);
		c->st = RS_IDLE;
		c->entry_ns = R->start_ns;
		if (open_run(R, c, ev->cpu, R->start_ns, false))
			return -1;
	}
	if (c->st != RS_IDLE) {
		unpaired(c, UNP_EXIT_NO_ENTRY);
		if (c->st != RS_EXITED)
			return 0;
		/* a second exit: the entry between was lost; the opportunity ends at the first */
		settle_cause(R, c);
		stats_settle(R, c, ev->cpu);
		c->st = RS_NONE;
		return close_run(R, c, ev->cpu);
	}
	if (c->state >= 0) {
		c->s.periods++;
		c->run_periods++;
		stats_period(R, c, ev->cpu, c->entry_ns, ev->time_ns - c->entry_ns);
		if (R->hooks && c->hooked) {
			c->exit_pending = true;
			c->pend_entry_ns = c->entry_ns;
			c->pend_exit_ns = ev->time_ns;
			c->pend_state = c->state;
		}
	}
	c->run_wake = ev->time_ns;
	c->run_wake_entry = c->entry_ns;
	c->run_has_wake = true;
	c->exit_ns = ev->time_ns;
	c->st = RS_EXITED;
	return 0;
}

static int on_switch(struct recon *R, struct rcpu *c, const struct kevent *ev)
{
	int cpu = ev->cpu;

	if (c->st == RS_FRESH) {
		c->st = ev->flags & KF_NEXT_IDLE ? RS_NONE : RS_RUNNING;
		return 0;
	}
	if (ev->flags & KF_NEXT_IDLE)
		return 0;
	c->ran_task = true;
	c->tick_stop_seen = false; /* tick_nohz_idle_exit() restarts the tick */
	if (R->hooks)
		hook_exit(R, c, cpu);
	switch (c->st) {
	case RS_IDLE:
		unpaired(c, UNP_TASK);
		if (close_run(R, c, cpu))
			return -1;
		break;
	case RS_EXITED:
		settle_cause(R, c);
		stats_settle(R, c, cpu);
		if (close_run(R, c, cpu))
			return -1;
		break;
	case RS_FINAL:
		return 0;
	default:
		break;
	}
	c->st = RS_RUNNING;
	return 0;
}

/* A wakeup sent from CPU `from` to an idle CPU `to`: evidence of an IPI. */
static void remote(struct recon *R, int from, int to)
{
	struct rcpu *d;

	if (to < 0 || to >= R->cpus || to == from)
		return;
	d = &R->cpu[to];
	if ((d->st == RS_IDLE || d->st == RS_FRESH) && !d->cause_final && !d->remote) {
		d->remote = true;
		R->remote_wakes++;
	}
}

static int64_t hr_to_trace(const struct recon *R, int64_t expires)
{
	if (!R->have_offset)
		return expires;
	if (R->clock_offset >= 0)
		return sim_time_add(expires, R->clock_offset);
	return expires + R->clock_offset < 0 ? 0 : expires + R->clock_offset;
}

/* A timer event into the census; the expiry's callback, if it decides what woke the CPU. */
static int census(struct recon *R, struct rcpu *c, const struct kevent *ev, unsigned kind)
{
	int64_t timeout = -1;
	int32_t fn;

	if (ev->type == KEV_HRTIMER_START)
		timeout = sim_max64(hr_to_trace(R, ev->a) - ev->time_ns, 0);
	else if (ev->type == KEV_TIMER_START)
		timeout = ev->timeout_ns;
	if (census_event(&R->census, ev, kind, timeout, &fn))
		return -1;
	if ((ev->type == KEV_HRTIMER_EXPIRE || ev->type == KEV_TIMER_EXPIRE) && may_wake(c)) {
		c->cause_fn = fn;
		c->cause_kind = (uint8_t)kind;
	}
	return 0;
}

int recon_event(struct recon *R, const struct kevent *ev)
{
	struct rcpu *c;

	if (ev->cpu < 0 || ev->cpu >= R->cpus)
		return 0;
	c = &R->cpu[ev->cpu];
	recon_seen(R, ev->cpu, ev->time_ns);
	switch (ev->type) {
	case KEV_CPU_IDLE:
		R->idle_events = true;
		return ev->v >= 0 ? on_entry(R, c, ev) : on_exit(R, c, ev);
	case KEV_CPU_IDLE_MISS:
		stats_miss_event(R, c, ev);
		return 0;
	case KEV_SCHED_SWITCH:
		return on_switch(R, c, ev);
	case KEV_HRTIMER_START:
		if (census(R, c, ev, TM_HRTIMER))
			return -1;
		return tm_arm(R, TM_HRTIMER, ev->id, ev->cpu, hr_to_trace(R, ev->a),
			      ev->flags & KF_TICK);
	case KEV_TIMER_START:
		if (census(R, c, ev, TM_WHEEL))
			return -1;
		return tm_arm(R, TM_WHEEL, ev->id, ev->v >= 0 && ev->v < R->cpus ? ev->v : ev->cpu,
			      ev->a, false);
	case KEV_HRTIMER_CANCEL:
	case KEV_TIMER_CANCEL:
		tm_cancel(R, ev->type == KEV_TIMER_CANCEL ? TM_WHEEL : TM_HRTIMER, ev->id);
		return census(R, c, ev, ev->type == KEV_TIMER_CANCEL ? TM_WHEEL : TM_HRTIMER);
	case KEV_HRTIMER_EXPIRE:
		if (census(R, c, ev, TM_HRTIMER))
			return -1;
		/* The tick's hrtimer runs on CLOCK_MONOTONIC: now= ties that clock to trace time.
		 */
		if ((ev->flags & KF_TICK) && ev->a >= 0) {
			R->clock_offset = ev->time_ns - ev->a;
			R->have_offset = true;
		}
		tm_cancel(R, TM_HRTIMER, ev->id);
		if ((ev->flags & KF_TICK) && (c->st == RS_IDLE || c->st == RS_EXITED))
			c->got_tick = true;
		if (ev->flags & KF_TICK)
			cause_on_grid(c, IC_TICK);
		else
			cause_hrtimer(c);
		return 0;
	case KEV_TIMER_EXPIRE:
		if (census(R, c, ev, TM_WHEEL))
			return -1;
		tm_cancel(R, TM_WHEEL, ev->id);
		cause_on_grid(c, IC_TIMER);
		return 0;
	case KEV_TICK_STOP:
		if (ev->v)
			c->tick_stop_seen = true;
		if (ev->v)
			c->s.tick_stop_ok++;
		else
			c->s.tick_stop_fail++;
		return 0;
	case KEV_IRQ:
	case KEV_TIMER_IRQ:
		/* The clock-event interrupt: the timer expiry it runs tells tick from timer. */
		if (ev->type == KEV_TIMER_IRQ || (ev->flags & KF_TIMER_IRQ)) {
			if (may_wake(c))
				c->timer_irq = true;
		} else {
			cause(c, IC_IRQ);
		}
		return 0;
	case KEV_SOFTIRQ:
		if (!c->timer_irq)
			cause(c, IC_IRQ);
		return 0;
	case KEV_IPI_ENTRY:
		cause(c, IC_IPI);
		return 0;
	case KEV_IPI_RAISE:
	case KEV_SCHED_WAKEUP:
		remote(R, ev->cpu, ev->v);
		return 0;
	default:
		return 0;
	}
}

void recon_seen(struct recon *R, int cpu, int64_t t)
{
	if (!R->started) {
		R->started = true;
		R->start_ns = R->now_ns = R->end_ns = t;
	}
	if (t > R->now_ns)
		R->now_ns = t;
	if (t > R->end_ns)
		R->end_ns = t;
	if (cpu >= 0 && cpu < R->cpus)
		R->cpu[cpu].any_event = true;
}

int recon_lost(struct recon *R, int cpu, int64_t t)
{
	struct rcpu *c;

	if (cpu < 0 || cpu >= R->cpus)
		return 0;
	c = &R->cpu[cpu];
	if (t > R->now_ns)
		R->now_ns = t;
	if (c->st == RS_IDLE) {
		unpaired(c, UNP_LOST);
		if (close_run(R, c, cpu))
			return -1;
	} else if (c->st == RS_EXITED) {
		settle_cause(R, c);
		stats_settle(R, c, cpu);
		if (close_run(R, c, cpu))
			return -1;
	} else if (c->st == RS_FINAL) {
		return 0;
	}
	c->st = RS_NONE;
	return 0;
}

int recon_finish(struct recon *R)
{
	int i;

	for (i = 0; i < R->cpus; i++) {
		struct rcpu *c = &R->cpu[i];

		if (R->hooks)
			hook_exit(R, c, i);
		if (c->st == RS_FRESH && !c->any_event && R->idle_events) {
			/* no event at all: idle from the first event of the trace to its end */
			if (emit(R, i, R->start_ns, R->end_ns + 1 - R->start_ns, IC_UNKNOWN, false,
				 EMIT_THROUGHOUT))
				return -1;
		} else if (c->st == RS_IDLE) {
			unpaired(c, UNP_END);
			if (emit_to_end(R, c, i))
				return -1;
		} else if (c->st == RS_EXITED) {
			settle_cause(R, c);
			stats_settle(R, c, i);
			if (close_run(R, c, i))
				return -1;
		}
	}
	R->finished = true;
	return census_finish(&R->census);
}

static void to_record(struct recon *R, const struct out_rec *r, struct trace_record *rec)
{
	static const struct trace_record none;

	*rec = none; /* copied in vector moves; memset's rep stos cost 6 % of an import */
	rec->kind = TRACE_IDLE;
	rec->cpu = r->cpu;
	rec->time_ns = r->start_ns;
	rec->length_ns = r->length_ns;
	/* tick and timer: the timer (or the timer wheel, run by the tick) that brought work;
	 * unknown: replayed as an unpredictable interrupt */
	rec->cause = r->cause == IC_TICK || r->cause == IC_TIMER ? WAKE_TIMER
		     : r->cause == IC_IPI			 ? WAKE_IPI
								 : WAKE_IRQ;
	rec->next_timer_ns = rec->cause == WAKE_TIMER ? r->length_ns : r->next_timer_ns;
	if (r->hr) {
		rec->timer_kind = TIMER_HRTIMER;
		rec->next_wheel_ns = r->next_wheel_ns;
	}
	rec->index = R->written++;
}

int recon_pop(struct recon *R, struct trace_record *rec)
{
	int64_t bound = R->now_ns, t;
	uint32_t cpu;
	const struct out_rec *r;

	if (!R->nwaiting)
		return 0;
	/* strictly before: a record starting at `bound` may still come from a lower CPU, and
	 * records leave in (start, CPU) order; the open opportunities asked only when the
	 * present allows it (most calls) */
	r = wait_first(R);
	if (!R->finished && (r->start_ns >= bound ||
			     (eventq_peek(R->open, &cpu, &t) && r->start_ns >= t)))
		return 0;
	to_record(R, r, rec);
	wait_pop(R);
	return 1;
}

/* ---- setup ---- */

int recon_init(struct recon *R, const struct scan *s, int cpus, const struct import_options *o,
	       bool merge, struct fn_table *fns, const struct tick_phase *phase, int64_t tick_ns)
{
	int i, k;

	memset(R, 0, sizeof(*R));
	if (phase->set && tick_ns > 0) {
		R->grid.phase_ns = phase->ns;
		R->grid.tick_ns = tick_ns;
	}
	R->cpus = cpus;
	R->prologue = s;
	R->merge = merge;
	R->tm_free = -1;
	R->machine = o->machine;
	R->disabled = o->disabled;
	R->hooks = o->hooks;
	if (s) {
		R->timers_known = s->has[KEV_HRTIMER_START] || s->has[KEV_TIMER_START];
		R->tick_stop_known = s->has[KEV_TICK_STOP];
	}
	if (o->machine)
		machine_to_driver(o->machine, &R->drv);
	R->cpu = sim_calloc((size_t)cpus, sizeof(*R->cpu));
	R->open = eventq_new(EVENTQ_HEAP, (uint32_t)cpus);
	for (R->leaves = 2; R->leaves < (uint32_t)cpus; R->leaves *= 2)
		;
	R->fifo = sim_calloc((size_t)cpus, sizeof(*R->fifo));
	R->nfifo = R->fifo ? (uint32_t)cpus : 0;
	R->head_ns = sim_malloc(R->leaves * sizeof(*R->head_ns));
	R->win = sim_calloc(R->leaves, sizeof(*R->win));
	if (!R->cpu || !R->open || !R->fifo || !R->head_ns || !R->win ||
	    census_init(&R->census, fns, cpus))
		return -1;
	for (k = 0; k < (int)R->leaves; k++)
		R->head_ns[k] = INT64_MAX;
	for (k = 0; k < (int)R->leaves; k++)
		win_update(R, (uint32_t)k);
	if (s && s->any) {
		R->started = true;
		R->start_ns = R->now_ns = s->first_ns;
		R->end_ns = s->max_ns;
		R->idle_events = s->has[KEV_CPU_IDLE];
	}
	for (i = 0; i < cpus; i++) {
		struct rcpu *c = &R->cpu[i];

		c->timers = -1;
		c->kernel_v = -1;
		c->state = -1;
		c->st = s ? RS_NONE : RS_FRESH;
		for (k = 0; k < CPUIDLE_STATE_MAX; k++)
			c->s.su[k].disable = (o->disabled >> k) & 1;
		new_window(c);
		if (!s || !s->any || !s->has[KEV_CPU_IDLE])
			continue;
		if (!s->cpu[i].has_events) {
			/* no event at all: idle from the first event of the trace to its end */
			c->run_start = R->start_ns;
			c->st = RS_FINAL;
			if (emit(R, i, R->start_ns, R->end_ns + 1 - R->start_ns, IC_UNKNOWN, false,
				 EMIT_THROUGHOUT))
				return -1;
		} else if (s->cpu[i].starts_idle) {
			/* idle when the trace began: an opportunity from its start to the first
			 * exit */
			unpaired(c, UNP_START);
			c->st = RS_IDLE;
			c->entry_ns = R->start_ns;
			if (open_run(R, c, i, R->start_ns, false))
				return -1;
		}
	}
	return 0;
}

static int pro_cmp(const void *a, const void *b)
{
	const struct out_rec *x = a, *y = b;

	return x->cpu - y->cpu;
}

int recon_prologue(struct recon *R, size_t i, struct trace_record *rec)
{
	if (i == 0 && R->npro)
		qsort(R->pro, R->npro, sizeof(*R->pro), pro_cmp);
	if (i >= R->npro)
		return 0;
	to_record(R, &R->pro[i], rec);
	return 1;
}

void recon_release(struct recon *R)
{
	int i;

	if (R->cpu)
		for (i = 0; i < R->cpus; i++)
			sim_free(R->cpu[i].snap);
	sim_free(R->cpu);
	sim_free(R->tm);
	sim_free(R->hash);
	for (i = 0; i < (int)R->nfifo; i++)
		sim_free(R->fifo[i].r);
	sim_free(R->fifo);
	sim_free(R->head_ns);
	sim_free(R->win);
	sim_free(R->pro);
	eventq_free(R->open);
	census_release(&R->census);
	memset(R, 0, sizeof(*R));
}

void recon_total(const struct recon *R, struct rcpu_stats *sum)
{
	int i, k;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < R->cpus; i++) {
		const struct rcpu_stats *s = &R->cpu[i].s;

		sum->periods += s->periods;
		sum->opportunities += s->opportunities;
		sum->merged += s->merged;
		sum->zero_length += s->zero_length;
		sum->with_next_timer += s->with_next_timer;
		sum->hrtimer_first += s->hrtimer_first;
		sum->truncated += s->truncated;
		sum->started_idle += s->started_idle;
		sum->idle_throughout += s->idle_throughout;
		sum->tick_stop_ok += s->tick_stop_ok;
		sum->tick_stop_fail += s->tick_stop_fail;
		sum->outside += s->outside;
		for (k = 0; k < IC_NR; k++) {
			sum->causes[k] += s->causes[k];
			sum->period_causes[k] += s->period_causes[k];
		}
		for (k = 0; k < UNP_NR; k++)
			sum->unpaired[k] += s->unpaired[k];
		for (k = 0; k < CPUIDLE_STATE_MAX; k++) {
			sum->su[k].usage += s->su[k].usage;
			sum->su[k].time_ns += s->su[k].time_ns;
			sum->su[k].above += s->su[k].above;
			sum->su[k].below += s->su[k].below;
		}
	}
}
