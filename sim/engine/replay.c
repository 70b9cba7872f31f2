// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - from trace records to the engine's idle periods.
 *
 * Idle-interval records map one to one: sim_idle() at START with the absolute next timer,
 * sim_wake() at START+LENGTH.
 *
 * Event records are derived in trace time, independently of any governor (FORMAT.md,
 * "How the engine derives idle periods from events"). Each CPU has a set of pending timers
 * and the end of its current work (busy_until). Two kinds of internal events happen
 * between records: timer expiries, and the start of an idle period once the CPU's work is
 * over. An idle period's start is only final when no record at that time can extend the
 * work any more, and its sleep length needs every timer armed up to then, so it is fed to
 * the engine only when the reader has moved past it. Each CPU keeps one entry in a small
 * event queue: its next internal event.
 *
 * The lookahead invariant: before the engine processes time t, every primitive due at or
 * before t + H (H = sim_lookahead_ns()) has been fed. Records come in time order, so after
 * reading all records before time R the engine may run up to R - H - 1. Primitives derived
 * from a record are never earlier than the record itself.
 *
 * Timer-wheel timers fire as the kernel (v6.12) fires them, on the run's jiffy grid
 * (sim/engine/wheel.h): armed at TIME for EXPIRY, a timer's expires is the arming jiffy plus
 * ceil((EXPIRY - TIME) / TICK_NSEC) jiffies (msecs_to_jiffies() rounds up), queued with the
 * base clock at the arming jiffy (__forward_timer_base()), and fires at its bucket's edge
 * (calc_wheel_index()). A periodic one is re-armed by its callback, which runs at that edge
 * with the clock one ahead of jiffies (__run_timers() increments clk before the callbacks),
 * for its previous expires plus the period rounded up to jiffies: mod_timer(t, t->expires +
 * period), the drift-free form. hrtimers fire at their exact expiry, or, with slack, at the
 * first hrtimer interrupt from their soft expiry on (v6.12 __hrtimer_run_queues() runs
 * every timer whose soft expiry has passed): another timer's expiry on the CPU (in high
 * resolution mode a wheel timer's too: the tick's hrtimer is programmed for it), or a tick
 * while the CPU is busy (the tick always runs then). A tick while it idles depends on the
 * governor's tick decision: the engine applies that one (sim_timer_slack()).
 *
 * Timer migration (global=1 timers, v6.12 __get_next_timer_interrupt() and
 * tmigr_quick_check(); the rule sim/sched/loop.c applies to closed loops): a CPU going
 * idle counts its global timers only when its first wheel timer, global ones included, is
 * due by the next jiffy edge (its tick is then kept, and it expires them itself); otherwise
 * only if every other CPU is idle, the last active CPU, and then the earliest global timer
 * of all. A global timer not counted so runs when due on an active CPU (no wakeup), else on
 * the CPU that went idle last. Here "active" is "not idle" in trace time: the derivation
 * does not know which idle CPUs the governor left the tick running on.
 *
 * Timer bookkeeping is a linear array per CPU: O(n) per arm or cancel, fine for the few
 * dozen timers a CPU has pending in practice.

 *
 * replay_run_multi() feeds several simulations from one read: the derivation above runs
 * once (it depends on the records and the jiffy grid only), each engine call goes to
 * every simulation in turn.
 */
#include "sim/engine/replay.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/base/eventq.h"

#include <string.h>

struct dtimer {
	char id[TRACE_ID_LEN];
	int64_t expiry_ns; /* when it fires: a wheel timer's bucket edge */
	int64_t period_ns;
	int64_t expires_j; /* wheel: timer->expires, in jiffies */
	int64_t bucket_j;  /* wheel: the jiffy of its bucket, whose edge is expiry_ns */
	bool no_resched; /* its expiries wake no task */
	bool hrtimer;	 /* kind=hrtimer: not seen by the tick-stop rule */
	bool deferrable; /* TIMER_DEFERRABLE: never wakes an idle CPU, not in its sleep length */
	int64_t slack_ns; /* hrtimer: may run from expiry_ns - slack_ns (its soft expiry) */
	bool global;	  /* global=1: migrates (the header comment) */
};

struct dcpu {
	int64_t busy_until_ns; /* end of the current work */
	int64_t awake_ns;      /* when its last idle period ended (its ticks run from then) */
	bool own_global;       /* idle, counting its own global timers (due by the next jiffy) */
	bool idle_pending;     /* an idle period starts at busy_until_ns, not yet fed */
	bool idle_open;	       /* fed to the engine, waiting for its wakeup */
	int64_t stay_idle_ns;  /* a resched=0 wakeup ended a period then: no work may start */
	unsigned int iowait;
	unsigned long load;
	struct dtimer *timers;
	size_t nr_timers, cap_timers;
};

enum { IEV_EXPIRY = 0, IEV_IDLE = 1 }; /* priorities at equal times */

struct derive {
	struct sim *const *S; /* the simulations fed, nr_sims of them (replay_run_multi()) */
	int nr_sims;
	const struct jiffy_grid *grid;
	struct record_source *src;
	int nr_cpus;
	struct dcpu *cpus;
	struct eventq *q;
	bool any_global;   /* a global=1 timer was armed: timer migration applies */
	int nr_active;	   /* CPUs not idle (idle_open false) */
	int last_idle_cpu; /* the CPU that went idle last */
};

/* ---- idle-interval records ---- */

/*
 * The absolute expiry of a relative time of the record, SIM_TIME_NEVER for none (< 0).
 * START + next_timer may pass 2^63 (a duration up to 2^63 - 1): it saturates at KTIME_MAX,
 * as the kernel's ktime_add_safe() does for a timer's expiry, which reads as no timer.
 */
static int64_t rec_abs(const struct trace_record *rec, int64_t rel_ns)
{
	return rel_ns < 0 ? SIM_TIME_NEVER : sim_time_add(rec->time_ns, rel_ns);
}

/*
 * A timer-wheel timer only fires on a jiffy edge. An idle record does not say when its
 * timers were armed, so a wheel time off the grid (the wakeup of a wheel timer, next_timer
 * of a wheel timer, next_wheel) moves up to the next edge at or after it: the sleep length
 * the governor sees is the grid time, as get_next_timer_interrupt() reports it, and the
 * wakeup comes that much later, its work behind the trace (sim_period()). A resched=0
 * wakeup keeps its time: the next period starts at it. The periods of a closed loop
 * (as_recorded) already hold the times its timers fired at: none moves.
 */
static int feed_interval(struct sim *const *S, int nr_sims, const struct trace_record *rec,
			 bool as_recorded, struct sim_error *err)
{
	const struct jiffy_grid *g = sim_grid(S[0]);
	int64_t wake = rec->time_ns + rec->length_ns, late = 0;
	int64_t next_timer = rec_abs(rec, rec->next_timer_ns);
	int64_t next_wheel;
	int i;

	if (as_recorded) {
		next_wheel = rec->timer_kind == TIMER_HRTIMER ? rec_abs(rec, rec->next_wheel_ns)
							      : next_timer;
	} else if (rec->timer_kind == TIMER_HRTIMER) {
		next_wheel = jiffy_edge_at_or_after(g, rec_abs(rec, rec->next_wheel_ns));
	} else if (rec->cause == WAKE_TIMER && rec->no_resched) {
		next_wheel = next_timer;
	} else {
		/* the earliest timer-wheel timer is the next timer itself */
		next_timer = next_wheel = jiffy_edge_at_or_after(g, next_timer);
		if (rec->cause == WAKE_TIMER) /* the wheel timer that woke it, on the grid */
			late = jiffy_edge_at_or_after(g, wake) - wake;
	}
	for (i = 0; i < nr_sims; i++) {
		if (sim_period(S[i], rec->cpu, rec->time_ns, wake, late, rec->cause,
			       rec->no_resched, next_timer, next_wheel, rec->iowait, rec->load, err))
			return -1;
		if (rec->slack_ns > 0 && !as_recorded &&
		    sim_timer_slack(S[i], rec->cpu, rec->slack_ns, err))
			return -1;
		if (rec->keep_tick_ns > 0 &&
		    sim_keep_tick(S[i], rec->cpu, rec_abs(rec, rec->keep_tick_ns), err))
			return -1;
	}
	return 0;
}

/* ---- event records ---- */

/*
 * The earliest pending timer; wheel_only: of the timer-wheel timers (the tick-stop rule's).
 * Deferrable timers are in neither (v6.12: BASE_DEF is left out of the next event).
 */
static int64_t earliest_timer(const struct dcpu *c, bool wheel_only)
{
	int64_t t = SIM_TIME_NEVER;
	size_t i;

	for (i = 0; i < c->nr_timers; i++)
		if (!c->timers[i].deferrable && (!wheel_only || !c->timers[i].hrtimer))
			t = sim_min64(t, c->timers[i].expiry_ns);
	return t;
}

static int64_t global_of_cpu(const struct dcpu *c)
{
	int64_t t = SIM_TIME_NEVER;
	size_t i;

	for (i = 0; i < c->nr_timers; i++)
		if (c->timers[i].global)
			t = sim_min64(t, c->timers[i].expiry_ns);
	return t;
}

/*
 * The earliest global timer of CPU cpu, or (all) of every idle CPU and cpu. Only a lonely
 * CPU asks for all, so the look at every CPU is paid when every other one is idle.
 */
static int64_t global_of(const struct derive *d, int cpu, bool all)
{
	int64_t t;
	int j;

	if (!all)
		return global_of_cpu(&d->cpus[cpu]);
	t = SIM_TIME_NEVER;
	for (j = 0; j < d->nr_cpus; j++)
		if (j == cpu || d->cpus[j].idle_open)
			t = sim_min64(t, global_of_cpu(&d->cpus[j]));
	return t;
}

/* Every CPU but cpu is idle: cpu, going idle, is the last active one (a count, not a look). */
static bool lonely(const struct derive *d, int cpu)
{
	return d->nr_active - !d->cpus[cpu].idle_open == 0;
}

/*
 * The sleep length's timers of a CPU going idle at t: the earliest of any kind and the
 * earliest wheel timer, with global timers counted by the migration rule (header comment).
 */
static void sleep_timers(struct derive *d, int cpu, int64_t t, int64_t *next, int64_t *wheel)
{
	struct dcpu *c = &d->cpus[cpu];
	int64_t local = SIM_TIME_NEVER, hr = SIM_TIME_NEVER, own;
	size_t i;

	if (!d->any_global) {
		*next = earliest_timer(c, false);
		*wheel = earliest_timer(c, true);
		return;
	}
	for (i = 0; i < c->nr_timers; i++) {
		const struct dtimer *tm = &c->timers[i];

		if (tm->deferrable || tm->global)
			continue;
		if (tm->hrtimer)
			hr = sim_min64(hr, tm->expiry_ns);
		else
			local = sim_min64(local, tm->expiry_ns);
	}
	own = global_of(d, cpu, false);
	c->own_global = own != SIM_TIME_NEVER &&
			sim_min64(local, own) <= jiffy_edge_after(d->grid, t);
	if (c->own_global)
		local = sim_min64(local, own);
	else if (lonely(d, cpu))
		local = sim_min64(local, global_of(d, cpu, true));
	*wheel = local;
	*next = sim_min64(local, hr);
}

/*
 * Where a due global timer of idle CPU cpu runs: on cpu itself if it counted it (its tick
 * kept), else on an active CPU (-1: no wakeup), else on the CPU that went idle last.
 */
static int global_runs_on(const struct derive *d, int cpu)
{
	if (d->cpus[cpu].own_global)
		return cpu;
	return d->nr_active ? -1 : d->last_idle_cpu;
}

/*
 * When tm runs on its own: at its expiry, or, an hrtimer with slack, at the first tick from
 * its soft expiry on while the CPU is still busy then (an expiry at the end of the work
 * comes before the idle period: IEV_EXPIRY); a soft expiry passed while the CPU idled waits
 * for the first tick after its wakeup (an interrupt runs no hrtimer). A deferrable timer
 * waits while the CPU idles.
 */
static int64_t fire_time(const struct derive *d, const struct dcpu *c, const struct dtimer *tm)
{
	int64_t edge;

	if (tm->deferrable && c->idle_open)
		return SIM_TIME_NEVER;
	if (!tm->slack_ns || c->idle_open)
		return tm->expiry_ns;
	edge = jiffy_edge_at_or_after(d->grid, sim_max64(tm->expiry_ns - tm->slack_ns, c->awake_ns));
	return edge < tm->expiry_ns && edge <= c->busy_until_ns ? edge : tm->expiry_ns;
}

/* The earliest expiry to process. */
static int64_t next_expiry_event(const struct derive *d, const struct dcpu *c)
{
	int64_t t = SIM_TIME_NEVER;
	size_t i;

	for (i = 0; i < c->nr_timers; i++)
		t = sim_min64(t, fire_time(d, c, &c->timers[i]));
	return t;
}

static int64_t next_timer_of(const struct dcpu *c)
{
	return earliest_timer(c, false);
}

/* The CPU's next internal event: earliest timer expiry, or the start of its idle period. */
static void replan(struct derive *d, int cpu)
{
	struct dcpu *c = &d->cpus[cpu];
	int64_t t = next_expiry_event(d, c);
	int prio = IEV_EXPIRY;

	if (c->idle_pending && c->busy_until_ns < t) {
		t = c->busy_until_ns;
		prio = IEV_IDLE;
	}
	if (t == SIM_TIME_NEVER)
		eventq_remove(d->q, (uint32_t)cpu);
	else
		eventq_set(d->q, (uint32_t)cpu, t, prio);
}

/*
 * A wheel timer queued with the base clock at clk for tm->expires_j: it fires at its bucket's
 * edge (never, past 2^63 - 1 ns).
 */
static void wheel_queue(const struct derive *d, struct dtimer *tm, int64_t clk)
{
	tm->bucket_j = wheel_bucket_expiry(d->grid->hz, tm->expires_j, clk);
	tm->expiry_ns = jiffy_edge_ns(d->grid, tm->bucket_j);
}

/* `timer` record: arm tm at time t for the absolute expiry_ns. */
static void arm(const struct derive *d, struct dtimer *tm, int64_t t, int64_t expiry_ns)
{
	int64_t jiffies = jiffy_of(d->grid, t);

	if (tm->hrtimer) {
		tm->expiry_ns = expiry_ns;
		return;
	}
	tm->slack_ns = 0;
	tm->expires_j = jiffies + jiffies_round_up(d->grid, expiry_ns - t);
	wheel_queue(d, tm, jiffies);
}

/*
 * A periodic timer has expired: an hrtimer is forwarded by its period; a wheel timer's
 * callback, run at its bucket's jiffy with the base clock one ahead, re-arms it for its
 * expires plus the period in jiffies (rounded up).
 */
static void rearm(const struct derive *d, struct dtimer *tm)
{
	if (tm->hrtimer) {
		tm->expiry_ns = sim_time_add(tm->expiry_ns, tm->period_ns);
		return;
	}
	tm->expires_j += jiffies_round_up(d->grid, tm->period_ns);
	wheel_queue(d, tm, tm->bucket_j + 1);
}

static struct dtimer *find_timer(struct dcpu *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->nr_timers; i++)
		if (!strcmp(c->timers[i].id, id))
			return &c->timers[i];
	return NULL;
}

/*
 * Deferrable timers that expired while the CPU idled run when it wakes at t: a periodic one
 * is re-armed by its callback from then (v6.12: BASE_DEF runs at the next tick or softirq).
 */
static void run_overdue_deferrable(const struct derive *d, struct dcpu *c, int64_t t)
{
	size_t i;

	for (i = 0; i < c->nr_timers; i++) {
		struct dtimer *tm = &c->timers[i];

		if (!tm->deferrable || tm->expiry_ns > t)
			continue;
		if (tm->period_ns) {
			arm(d, tm, t, sim_time_add(t, tm->period_ns));
		} else {
			*tm = c->timers[--c->nr_timers];
			i--;
		}
	}
}

/*
 * A wakeup at t: ends the fed idle period, or is absorbed by the CPU's work. After a wakeup
 * that wakes no task (no_resched) the CPU is idle again from t, in the same idle loop.
 */
static int wake_cpu(struct derive *d, int cpu, int64_t t, enum wake_cause cause, bool no_resched,
		    struct sim_error *err)
{
	struct dcpu *c = &d->cpus[cpu];
	int i;

	if (!c->idle_open)
		return 0;
	run_overdue_deferrable(d, c, t);
	for (i = 0; i < d->nr_sims; i++)
		if (sim_wake(d->S[i], cpu, t, cause, no_resched, err))
			return -1;
	c->idle_open = false;
	d->nr_active++;
	c->idle_pending = true;
	c->busy_until_ns = t;
	c->awake_ns = t;
	if (no_resched)
		c->stay_idle_ns = t;
	return 0;
}

/*
 * The slack of the hrtimers whose expiry wakes the idle CPU at t, for the engine's tick
 * rule: the widest, so that a tick from the earliest soft expiry on runs one of them.
 */
static int64_t wake_slack(const struct dcpu *c, int64_t t)
{
	int64_t slack = 0;
	size_t i;

	for (i = 0; i < c->nr_timers; i++)
		if (c->timers[i].hrtimer && c->timers[i].expiry_ns == t)
			slack = sim_max64(slack, c->timers[i].slack_ns);
	return slack;
}

/* Process the internal event of `cpu` due at t. */
static int internal_event(struct derive *d, int cpu, int64_t t, struct sim_error *err)
{
	struct dcpu *c = &d->cpus[cpu];
	int64_t slack;
	size_t i;
	int k;

	if (c->idle_pending && c->busy_until_ns == t && next_timer_of(c) > t) {
		int64_t next, wheel;

		sleep_timers(d, cpu, t, &next, &wheel);
		c->idle_pending = false;
		c->idle_open = true;
		d->nr_active--;
		d->last_idle_cpu = cpu;
		for (k = 0; k < d->nr_sims; k++)
			if (sim_idle(d->S[k], cpu, t, next, wheel, c->iowait, c->load, err))
				return -1;
		replan(d, cpu);
		return 0;
	}
	/* the expiry of an idle CPU's timer: the engine may move it to a tick in its slack */
	slack = c->idle_open ? wake_slack(c, t) : 0;
	for (k = 0; slack && k < d->nr_sims; k++)
		if (sim_timer_slack(d->S[k], cpu, slack, err))
			return -1;
	/* every timer due at t runs, and with it every hrtimer whose soft expiry has passed */
	for (i = 0; i < c->nr_timers; i++) {
		struct dtimer *tm = &c->timers[i];
		bool soft_due = tm->hrtimer && tm->expiry_ns - tm->slack_ns <= t;

		if (fire_time(d, c, tm) != t && !soft_due)
			continue; /* a deferrable timer waits for the CPU's next wakeup */
		if (tm->global && c->idle_open) {
			int on = global_runs_on(d, cpu);

			if (on >= 0 && wake_cpu(d, on, t, WAKE_TIMER, tm->no_resched, err))
				return -1;
			if (on >= 0 && on != cpu)
				replan(d, on);
		} else if (wake_cpu(d, cpu, t, WAKE_TIMER, tm->no_resched, err)) {
			return -1;
		}
		if (tm->period_ns) {
			rearm(d, tm);
		} else {
			*tm = c->timers[--c->nr_timers];
			i--;
		}
	}
	replan(d, cpu);
	return 0;
}

/*
 * Process internal events before a record at time r: expiries at or before r (they come
 * before records at equal times), idle starts strictly before r (a record at r may still
 * extend the work).
 */
static int flush_before(struct derive *d, int64_t r, bool inclusive, struct sim_error *err)
{
	uint32_t cpu;
	int64_t t;

	while (eventq_peek(d->q, &cpu, &t)) {
		struct dcpu *c = &d->cpus[cpu];
		bool is_idle = c->idle_pending && c->busy_until_ns == t && next_timer_of(c) > t;

		if (t > r || (t == r && is_idle && !inclusive))
			break;
		if (internal_event(d, (int)cpu, t, err))
			return -1;
	}
	return 0;
}

static void set_sticky(struct dcpu *c, const struct trace_record *rec)
{
	if (rec->has_iowait)
		c->iowait = rec->iowait;
	if (rec->has_load)
		c->load = rec->load;
}

static int feed_event(struct derive *d, const struct trace_record *rec, struct sim_error *err)
{
	struct dcpu *c = &d->cpus[rec->cpu];
	struct dtimer *tm;

	switch (rec->kind) {
	case TRACE_TIMER:
		tm = find_timer(c, rec->id);
		if (!tm) {
			if (sim_grow((void **)&c->timers, &c->cap_timers, c->nr_timers + 1,
				     sizeof(*c->timers)))
				return sim_error_nomem(err, "");
			tm = &c->timers[c->nr_timers++];
			memcpy(tm->id, rec->id, sizeof(tm->id));
		}
		tm->period_ns = rec->period_ns;
		tm->no_resched = rec->no_resched;
		tm->hrtimer = rec->timer_kind == TIMER_HRTIMER;
		tm->deferrable = rec->deferrable;
		tm->slack_ns = rec->slack_ns;
		tm->global = rec->global;
		d->any_global |= rec->global;
		arm(d, tm, rec->time_ns, rec->expiry_ns);
		break;
	case TRACE_CANCEL:
		tm = find_timer(c, rec->id);
		if (tm)
			*tm = c->timers[--c->nr_timers];
		break;
	case TRACE_WAKE:
		set_sticky(c, rec);
		if (wake_cpu(d, rec->cpu, rec->time_ns, rec->cause, rec->no_resched, err))
			return -1;
		break;
	case TRACE_BUSY:
		set_sticky(c, rec);
		if (c->idle_open)
			return d->src->error_at(d->src->ctx, rec, err,
						"busy period starts while the CPU is idle and nothing "
						"wakes it at this time; add a wake record before it");
		if (c->stay_idle_ns == rec->time_ns)
			return d->src->error_at(d->src->ctx, rec, err,
						"busy period starts at a wakeup with resched=0, which "
						"wakes no task; drop resched=0 from that wakeup");
		c->busy_until_ns = sim_max64(c->busy_until_ns, rec->time_ns + rec->length_ns);
		c->idle_pending = true;
		break;
	default:
		return d->src->error_at(d->src->ctx, rec, err, "idle-interval record among events");
	}
	replan(d, rec->cpu);
	return 0;
}

static int derive_init(struct derive *d, struct sim *const *S, int nr_sims,
		       struct record_source *src, int64_t start)
{
	int i;

	memset(d, 0, sizeof(*d));
	d->S = S;
	d->nr_sims = nr_sims;
	d->grid = sim_grid(S[0]);
	d->src = src;
	d->nr_cpus = src->hdr->cpus;
	d->cpus = sim_calloc((size_t)d->nr_cpus, sizeof(*d->cpus));
	d->q = eventq_new(EVENTQ_HEAP, (uint32_t)d->nr_cpus);
	if (!d->cpus || !d->q)
		return -1;
	d->nr_active = d->nr_cpus;
	for (i = 0; i < d->nr_cpus; i++) {
		d->cpus[i].busy_until_ns = start;
		d->cpus[i].idle_pending = true;
		d->cpus[i].stay_idle_ns = -1;
		replan(d, i);
	}
	return 0;
}

static void derive_release(struct derive *d)
{
	int i;

	if (d->cpus)
		for (i = 0; i < d->nr_cpus; i++)
			sim_free(d->cpus[i].timers);
	sim_free(d->cpus);
	eventq_free(d->q);
}

/* ---- the driver ---- */

/*
 * Records read between two runs of the engine: RUN_BATCH_PER_CPU per CPU, at least
 * RUN_BATCH_MIN. Each run walks every CPU's lane, and a lane's state is only warm in the
 * caches while it runs several records in a row: with a fixed batch of 512 records, a
 * 512-CPU replay ran each lane for one record (docs/speed.md, "Scale with CPUs"). Memory:
 * each CPU's pending periods, about RUN_BATCH_PER_CPU of them.
 */
#define RUN_BATCH_MIN 512
#define RUN_BATCH_PER_CPU 64

static unsigned int run_batch_of(int cpus)
{
	unsigned int n = (unsigned int)cpus * RUN_BATCH_PER_CPU;

	return n > RUN_BATCH_MIN ? n : RUN_BATCH_MIN;
}

/*
 * Read-ahead on large machines. Records of many CPUs come in time order, so each touches
 * a different CPU's state, which on hundreds of CPUs has left the caches: the replay then
 * waits on memory at every record. Reading records in advance lets their CPUs' state be
 * fetched while earlier records are fed (sim_prefetch_cpu(): the CPU's state when a record
 * is read, its queue's slots a block before its turn). Records are read in blocks of
 * AHEAD_BLOCK, three blocks in turn: the one being fed, the next (its queues' slots asked
 * for), the one after (just read, its CPUs asked for); a block at a time, the bookkeeping
 * is a fraction of a record-at-a-time window's. Records are fed in the same order, at the
 * same points between engine runs: only the timing changes. A read error is kept until the
 * records before it are fed, as without read-ahead. Below AHEAD_MIN_CPUS every CPU's state
 * stays cached and reading ahead would only cost.
 */
#define AHEAD_BLOCK 4
#define AHEAD_MIN_CPUS 64

struct ahead {
	struct record_source *src;
	struct sim *const *S; /* the simulations fed, nr_sims of them */
	int nr_sims;
	struct trace_record blk[3][AHEAD_BLOCK];
	unsigned int nb[3]; /* records in each block */
	unsigned int cur, i; /* the block being fed, its next record */
	bool primed;
	int end; /* 0: more to read; 1: the source ended; -1: it failed (err) */
	struct sim_error err;
};

/* Block b read anew (up to AHEAD_BLOCK records, fewer at the end), its CPUs asked for. */
static void ahead_fill(struct ahead *a, unsigned int b)
{
	unsigned int n = 0;
	int k;

	while (n < AHEAD_BLOCK && !a->end) {
		struct trace_record *r = &a->blk[b][n];
		int rc = a->src->next(a->src->ctx, r, &a->err);

		if (rc <= 0) {
			a->end = rc < 0 ? -1 : 1;
			break;
		}
		for (k = 0; k < a->nr_sims; k++)
			sim_prefetch_cpu(a->S[k], r->cpu, 0);
		n++;
	}
	a->nb[b] = n;
}

/* The queues' slots of block b's records asked for (their CPUs were, a block ago). */
static void ahead_slots(struct ahead *a, unsigned int b)
{
	unsigned int j;
	int k;

	for (j = 0; j < a->nb[b]; j++)
		for (k = 0; k < a->nr_sims; k++)
			sim_prefetch_cpu(a->S[k], a->blk[b][j].cpu, 1);
}

/* The next record, read ahead: 1 with *rec pointing into a block (valid until the next
 * call; the replay reads it in place, without a copy), 0 at the end, -1 on error. */
static int ahead_take(struct ahead *a, const struct trace_record **rec, struct sim_error *err)
{
	if (a->i == a->nb[a->cur]) {
		if (!a->primed) {
			a->primed = true;
			ahead_fill(a, 0);
			ahead_fill(a, 1);
			ahead_fill(a, 2);
			ahead_slots(a, 0);
		} else {
			unsigned int used = a->cur;

			a->cur = (a->cur + 1) % 3;
			ahead_fill(a, used); /* the block after the next one */
		}
		a->i = 0;
		ahead_slots(a, (a->cur + 1) % 3);
		if (!a->nb[a->cur]) {
			if (a->end > 0)
				return 0;
			if (err && err->code == SIM_OK)
				*err = a->err;
			return -1;
		}
	}
	*rec = &a->blk[a->cur][a->i++];
	return 1;
}

/* Read src ahead for S[0..n) if the machine is large enough to gain: whether to. The
 * source itself still reports errors at records (error_at), wherever they are kept. */
static bool ahead_start(struct ahead *a, struct record_source *src, struct sim *const *S, int n)
{
	if (src->hdr->cpus < AHEAD_MIN_CPUS)
		return false;
	memset(a, 0, sizeof(*a));
	a->src = src;
	a->S = S;
	a->nr_sims = n;
	return true;
}

static int64_t record_end(const struct trace_record *rec)
{
	if (rec->kind == TRACE_IDLE || rec->kind == TRACE_BUSY)
		return rec->time_ns + rec->length_ns;
	return rec->time_ns;
}

/*
 * The simulations of a multiple replay: one per configuration, all on the trace's CPUs and
 * jiffy grid. The derivation of event records runs on one grid for all of them: every
 * configuration must have the same HZ (an internal error otherwise).
 */
static int sims_create(const struct record_source *src, const struct sim_config *cfg, int n,
		       int64_t start, struct sim **S, int64_t *lookahead, struct sim_error *err)
{
	const struct trace_header *hdr = src->hdr;
	int i;

	for (i = 0; i < n; i++) {
		struct sim_config c = cfg[i];

		if (c.hz != cfg[0].hz)
			return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
					     "replay: simulations fed together need one HZ "
					     "(%d and %d)", cfg[0].hz, c.hz);
		c.nr_cpus = hdr->cpus;
		S[i] = sim_create(&c, start, err);
		if (!S[i])
			return -1;
		if (hdr->has_tick_phase)
			sim_set_tick_phase(S[i], hdr->tick_phase_ns);
		lookahead[i] = sim_lookahead_ns(S[i]);
	}
	return 0;
}

int replay_run(struct record_source *src, const struct sim_config *cfg, struct run_stats *out,
	       struct sim_error *err)
{
	return replay_run_multi(src, cfg, 1, out, err);
}

int replay_run_multi(struct record_source *src, const struct sim_config *cfg, int n,
		     struct run_stats *out, struct sim_error *err)
{
	const struct trace_header *hdr = src->hdr;
	struct trace_record rec;
	const struct trace_record *r = &rec; /* the record at hand: rec, or read ahead */
	struct derive d = { 0 };
	struct ahead ahead;
	bool events = false, read_ahead;
	int64_t start, end, last = 0, *lookahead;
	struct sim **S;
	int have, i, done = 0, rc = -1;
	unsigned int batch = 0, run_batch = run_batch_of(hdr->cpus);

	memset(out, 0, (size_t)n * sizeof(*out));
	have = src->next(src->ctx, &rec, err);
	if (have < 0)
		return -1;
	start = hdr->has_start ? hdr->start_ns : have ? rec.time_ns : 0;
	S = sim_calloc((size_t)n, sizeof(*S));
	lookahead = sim_calloc((size_t)n, sizeof(*lookahead));
	if (!S || !lookahead) {
		sim_error_nomem(err, "");
		goto out;
	}
	if (sims_create(src, cfg, n, start, S, lookahead, err))
		goto out;
	read_ahead = ahead_start(&ahead, src, S, n);
	if (have && rec.kind != TRACE_IDLE) {
		events = true;
		if (derive_init(&d, S, n, src, start)) {
			sim_error_nomem(err, "");
			goto out;
		}
	}
	last = start;
	while (have > 0) {
		/* The native reader checks these with the field's position; imports come
		 * here (FORMAT.md: instants and the CPU time a trace covers). */
		if (record_end(r) > SIM_TIME_MAX_NS ||
		    record_end(r) - start > SIM_TIME_MAX_NS / hdr->cpus) {
			src->error_at(src->ctx, r, err,
				      "time beyond 2^62 ns, or beyond 2^62 ns of CPU time from "
				      "the trace's start");
			goto out;
		}
		if (events && flush_before(&d, r->time_ns, false, err))
			goto out;
		/* The engine may run up to this record's time less the lookahead; letting
		 * it do so only every run_batch records changes nothing but the cost. */
		if (++batch == run_batch) {
			batch = 0;
			if (cfg[0].progress)
				cfg[0].progress(cfg[0].progress_ud, r->time_ns, start,
						hdr->has_end ? hdr->end_ns : -1);
			for (i = 0; i < n; i++)
				if (sim_run_until(S[i], r->time_ns - lookahead[i] - 1, err))
					goto out;
		}
		if (events ? feed_event(&d, r, err)
			   : feed_interval(S, n, r, hdr->as_recorded, err))
			goto out;
		last = sim_max64(last, record_end(r));
		if (read_ahead) { /* in place, without a copy */
			have = ahead_take(&ahead, &r, err);
		} else {
			have = src->next(src->ctx, &rec, err);
			r = &rec;
		}
	}
	if (have < 0)
		goto out;
	end = hdr->has_end ? hdr->end_ns : last;
	if (events && flush_before(&d, end, false, err))
		goto out;
	for (done = 0; done < n; done++)
		if (sim_finish(S[done], end, &out[done], err))
			goto out;
	rc = 0;
out:
	if (rc) /* sim_finish() may have filled part of out[done] before it failed */
		for (i = 0; i < done + 1 && i < n; i++)
			run_stats_release(&out[i]);
	if (events)
		derive_release(&d);
	for (i = 0; S && i < n; i++)
		sim_destroy(S[i]);
	sim_free(S);
	sim_free(lookahead);
	return rc;
}
