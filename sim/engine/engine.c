// SPDX-License-Identifier: GPL-2.0-only
/*
 * engine.c - the kernel's idle loop, for every CPU of a machine, as a discrete-event
 * simulation in int64 nanoseconds.
 *
 * Each CPU is a small state machine, and has at most one pending event: the next thing
 * that happens to it.
 *
 *   BUSY      runs work (or finishes waking up) until ready_ns; when its next idle period
 *             is known, EV_ENTER fires at its start plus the delay the CPU runs behind
 *             the trace (work conservation: an exit latency delays the work, which keeps
 *             its length, and so everything after it on that CPU).
 *   IDLE      sits in `state` since entry_ns; EV_WAKEUP fires at the earliest of the
 *             period's real wakeup, the next tick (if the tick runs and the state is not
 *             POLL) and the POLL time limit (in a polling state).
 *   EXITING   leaves a state after a wakeup that brought no work (tick, POLL limit);
 *             EV_REENTER fires when the exit latency has passed and the governor is asked
 *             again, as the kernel's do_idle() loop does.
 *
 * The kernel code this follows: kernel/sched/idle.c cpuidle_idle_call() (select with
 * stop_tick preset to true; stop the tick if asked or already stopped, else retain it),
 * drivers/cpuidle/cpuidle.c cpuidle_enter_state() (residency, usage, time, above, below,
 * reflect only after a completed entry), cpuidle_poll_time() (>= v5.11),
 * drivers/cpuidle/poll_state.c (poll_time_limit), kernel/time/tick-sched.c
 * (tick_nohz_next_event() keeps the tick when a timer-wheel timer is due within the next tick;
 * got_idle_tick; a tick during the exit is handled before reflect), poll_idle() (only
 * need_resched() or the time limit end a POLL entry). The end of the run is a snapshot: an
 * entry whose exit is not over by then is truncated, whatever the governor. Known
 * simplifications, all documented in traces/FORMAT.md: no driver
 * rejections (rejected stays 0), no TIMER_STOP broadcast fallback, no entry overhead, the
 * POLL limit is checked exactly rather than every 200 cpu_relax() iterations, ticks of all
 * CPUs are aligned (skew_tick=0).
 *
 * Two ways to run the events (sim_config.global_order chooses, tests compare them):
 *
 *   global    one event queue (sim/base/eventq.c) for all CPUs and the agent's timers: events
 *             run in one total order. Needed with an agent (closed loop: its callbacks
 *             feed other CPUs) and with the decision log (printed in time order).
 *   lanes     (replays otherwise) CPUs only meet in the energy accounting, so each runs
 *             its own events up to the time asked, one CPU after the other, with no queue;
 *             the energy accounting takes their idle spans and intersects them once all
 *             CPUs have run up to the same time. Same statistics and energy to the last
 *             bit; 1.6 times as fast as the global queue with the oracle on an 8-CPU
 *             replay (bench/bench_engine --queue).
 *
 * Energy: every change of a CPU's level goes to sim/machine/energy.c (a core is as deep as its
 * shallowest thread, a package as its shallowest core; time per level in integer ns, in
 * time order or by idle spans); sim_finish() has it priced at the levels' powers, and adds
 * each entry begun at its state's entry+exit energy (sim/machine/machine.h).
 */
#include "sim/engine/engine.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/engine/govguard.h"
#include "sim/machine/cpuidle_rules.h"
#include "sim/machine/energy.h"

#include <string.h>

enum cpu_phase { CPU_BUSY, CPU_IDLE, CPU_EXITING };

/* Event kinds double as priorities at equal times: wakeups first, entries last. */
enum ev_kind { EV_NONE = -1, EV_WAKEUP = 0, EV_REENTER = 1, EV_READY = 2, EV_ENTER = 3 };

/* Queue items: one per CPU, then the agent's timers, which sort after CPU events. */
#define PRIO_AGENT 4

/* An idle period of the workload, as fed by sim_idle()/sim_wake(). */
struct opp {
	int64_t start_ns;
	int64_t wake_ns; /* SIM_TIME_NEVER until sim_wake() */
	int64_t next_timer_ns;
	int64_t next_wheel_ns; /* earliest timer-wheel timer (>= next_timer_ns) */
	unsigned long load;
	unsigned int iowait;
	enum wake_cause cause;
	bool no_resched; /* the wakeup wakes no task: the idle loop goes on */
};

struct sim_cpu {
	struct cpuidle_device dev; /* the kernel's view, statistics included */
	int id;
	enum cpu_phase phase;
	enum ev_kind ev;
	bool scheduled;		  /* an event was (re)scheduled while handling one */
	int state;		  /* entered state while IDLE */
	int64_t entry_ns;	  /* when `state` was entered */
	int64_t first_tick_ns;	  /* first tick after entry_ns; NEVER with the tick stopped */
	int64_t poll_deadline_ns; /* POLL time limit of this entry */
	int64_t real_wake_ns;	  /* when this entry ends for the period's real wakeup */
	int64_t ready_ns;	  /* when the CPU runs again after its last real wakeup */
	int64_t busy_from_ns;	  /* start of the current busy stretch */
	/* How far the CPU runs behind the trace: the exit latency (and the queueing it causes)
	 * delays the work, which keeps its length, so the next period starts this much later
	 * than recorded (replays only; an agent feeds periods in the CPU's own time). */
	int64_t delay_ns;
	int64_t trace_pos_ns;	  /* with cut: the trace time the CPU had reached */
	bool cut;		  /* its exit runs past the end: the entry is truncated */
	int64_t last_start_ns;	  /* start of the last period fed, for order checks */
	struct opp *ring;	  /* fed periods, head = current; bounded by the lookahead */
	uint32_t head, count, cap;
	struct cpu_stats st;	  /* counters not kept in dev.states_usage */
	uint64_t exit_lat_count[CPUIDLE_STATE_MAX]; /* irq/ipi wakeups that paid a full exit
						     * of a state with a fixed actual latency */
	uint64_t wake_rng;	  /* splitmix64 state: measured wake latencies */
	uint64_t fed;		  /* periods fed, for the conservation check */
	uint64_t entered[CPUIDLE_STATE_MAX]; /* entries begun, per state: transition energy */
	int64_t ev_ns;		  /* lanes: time of `ev` */
	struct explain_buf *xb;	  /* with the decision log on: its pending decision */
	struct energy_cpu *energy; /* its way into the energy accounting */
};

/* Kept out of struct sim_cpu, whose hot fields then share fewer cache lines. */
struct explain_buf {
	struct sim_decision dec;
	struct cpuidle_explain ex;
};

struct sim {
	struct sim_config cfg;
	struct cpuidle_driver drv;
	const struct cpuidle_governor *gov;
	long long *params; /* owned copy of the tunables */
	int64_t tick_nsec;
	/* Per state, the actual wake latency under the run's model, or -1: sampled per exit. */
	int64_t wake_fixed_ns[CPUIDLE_STATE_MAX];
	double wake_mean_ns[CPUIDLE_STATE_MAX]; /* its mean (the energy reference's estimate) */
	int64_t lookahead_ns;
	int64_t latency_req_ns;
	int64_t start_ns;
	int64_t end_ns; /* SIM_TIME_NEVER until known (sim_set_end, sim_finish) */
	int64_t now_ns;
	struct eventq *q;
	struct sim_cpu *cpus;
	struct explain_buf *xbufs; /* per CPU, with the decision log on */
	unsigned char *gov_data;
	struct energy *energy;	/* time per level of cores and packages (sim/machine/energy.h) */
	bool lanes;		   /* CPUs run one after the other, not through S->q */
	int64_t lane_min_ns;	   /* lanes: no CPU has an event before this */
	long explained;
	struct sim_error *err; /* the error sink of the current call */
	/* A governor file's calls are made through this (gov->file); NULL for the built-ins. */
	struct govguard *guard;
	bool gov_failed; /* one of its calls went wrong: call it no more */
};

static bool is_polling(const struct sim *S, int idx)
{
	return S->drv.states[idx].flags & CPUIDLE_FLAG_POLLING;
}

/* The first tick boundary strictly after t: ticks fire at multiples of TICK_NSEC. */
static int64_t next_tick_after(const struct sim *S, int64_t t)
{
	return (t / S->tick_nsec + 1) * S->tick_nsec;
}

/* cpuidle_poll_time(): governors/kcompat/include/idlesim/cpuidle_abi.h, shared with the
 * kernel-file governors. */

/*
 * CPU c moves to `level` at t (sim/machine/energy.c): charged at once in the global order; in lanes
 * the idle span that ends is logged, and charged once every CPU has run up to the same time.
 */
static int cpu_level(struct sim *S, struct sim_cpu *c, int level, int64_t t)
{
	if (energy_level(c->energy, level, t))
		return sim_error_nomem(S->err, "");
	return 0;
}

/* ---- per-CPU queue of fed idle periods ---- */

static struct opp *ring_head(struct sim_cpu *c)
{
	return &c->ring[c->head];
}

static struct opp *ring_tail(struct sim_cpu *c)
{
	return &c->ring[(c->head + c->count - 1) & (c->cap - 1)];
}

static __attribute__((noinline)) int ring_grow(struct sim_cpu *c)
{
	uint32_t ncap = c->cap ? 2 * c->cap : 4, i;
	struct opp *n = sim_malloc(ncap * sizeof(*n));

	if (!n)
		return -1;
	for (i = 0; i < c->count; i++)
		n[i] = c->ring[(c->head + i) & (c->cap - 1)];
	sim_free(c->ring);
	c->ring = n;
	c->cap = ncap;
	c->head = 0;
	return 0;
}

static inline int ring_push(struct sim_cpu *c, const struct opp *o)
{
	if (c->count == c->cap && ring_grow(c))
		return -1;
	c->ring[(c->head + c->count) & (c->cap - 1)] = *o;
	c->count++;
	return 0;
}

/* The period after the head, NULL if none is queued. */
static struct opp *ring_second(struct sim_cpu *c)
{
	return c->count > 1 ? &c->ring[(c->head + 1) & (c->cap - 1)] : NULL;
}

static void ring_pop(struct sim_cpu *c)
{
	c->head = (c->head + 1) & (c->cap - 1);
	c->count--;
}

/* ---- scheduling ---- */

static int cpu_id(const struct sim *S, const struct sim_cpu *c)
{
	(void)S;
	return c->id;
}

static inline void schedule(struct sim *S, struct sim_cpu *c, enum ev_kind ev, int64_t t)
{
	c->scheduled = true;
	if (S->lanes) {
		c->ev = t == SIM_TIME_NEVER ? EV_NONE : ev;
		c->ev_ns = t;
		if (t < S->lane_min_ns)
			S->lane_min_ns = t;
		return;
	}
	if (t == SIM_TIME_NEVER) {
		eventq_remove(S->q, (uint32_t)cpu_id(S, c));
		c->ev = EV_NONE;
		return;
	}
	c->ev = ev;
	eventq_set(S->q, (uint32_t)cpu_id(S, c), t, ev);
}

/*
 * A BUSY CPU enters its next idle period, if one is known, once its work is done: the
 * period's recorded start, as late as the CPU runs behind the trace (work conservation).
 */
static inline void plan_enter(struct sim *S, struct sim_cpu *c)
{
	if (!c->count) {
		schedule(S, c, EV_NONE, SIM_TIME_NEVER);
		return;
	}
	schedule(S, c, EV_ENTER, sim_max64(ring_head(c)->start_ns + c->delay_ns, c->ready_ns));
}

/* An IDLE CPU leaves its state at the earliest of: real wakeup, tick, POLL limit. */
static void plan_wakeup(struct sim *S, struct sim_cpu *c)
{
	int64_t w = c->count ? ring_head(c)->wake_ns : SIM_TIME_NEVER;

	c->real_wake_ns = w;
	if (is_polling(S, c->state))
		w = sim_min64(w, c->poll_deadline_ns);
	else
		w = sim_min64(w, c->first_tick_ns);
	schedule(S, c, EV_WAKEUP, w);
}

/* ---- the idle loop ---- */

static int internal_error(struct sim *S, const char *what, int cpu, int64_t t)
{
	return sim_error_set(S->err, SIM_ERR_INTERNAL, "", 0, 0, "%s (CPU %d at %lld ns)", what,
			     cpu, (long long)t);
}

/* The decisions (select() calls) CPU c has made and entered. */
static uint64_t decisions(const struct sim_cpu *c)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < CPUIDLE_STATE_MAX; k++)
		n += c->entered[k];
	return n;
}

/*
 * A governor file's call `fn` went wrong (outcome: the signal that ended it, GOVGUARD_TIMEOUT,
 * or 0 when it returned `bad`, a value out of range): an input error naming the file, the
 * call, the CPU, the CPU's decision (counted from 1; 0 before the first) and the trace time
 * the governor's clock read (docs/kernel-governor-files.md).
 */
static __attribute__((noinline, cold)) int gov_file_error(struct sim *S, struct sim_error *err,
							   const char *fn, int outcome, int bad,
							   int cpu, uint64_t decision, int64_t t)
{
	char what[96], sig[32], where[96];

	S->gov_failed = true;
	if (outcome == GOVGUARD_TIMEOUT)
		snprintf(what, sizeof(what), "did not return within %g s",
			 (double)govguard_timeout_ns(S->guard) / 1e9);
	else if (outcome)
		snprintf(what, sizeof(what), "crashed (%s)",
			 govguard_signal_name(outcome, sig, sizeof(sig)));
	else
		snprintf(what, sizeof(what), "returned %d", bad);
	snprintf(where, sizeof(where), "at CPU %d, decision %llu, t=%lld.%06lld s", cpu,
		 (unsigned long long)decision, (long long)(t / SIM_NS_PER_S),
		 (long long)(t % SIM_NS_PER_S / 1000));
	if (outcome || strcmp(fn, "select"))
		return sim_error_set(err, SIM_ERR_INPUT, S->gov->file, 0, 0, "%s() %s %s", fn, what,
				     where);
	return sim_error_set(err, SIM_ERR_INPUT, S->gov->file, 0, 0,
			     "%s() %s %s: the driver has %d states (0..%d)", fn, what, where,
			     S->drv.state_count, S->drv.state_count - 1);
}

/*
 * The calls of a governor file, isolated: out of line, so that the built-ins' path through
 * do_select() and do_wakeup() keeps its code but for one test of S->guard.
 */

/* select(): the index in range, or -1 with S->err set. */
static __attribute__((noinline)) int guarded_select(struct sim *S, struct sim_cpu *c,
						    bool *stop_tick)
{
	struct cpuidle_device *dev = &c->dev;
	int64_t t = dev->env.now_ns;
	int idx = -1, outcome = govguard_select(S->guard, S->gov, &S->drv, dev, stop_tick, &idx);

	if (!outcome && idx >= 0 && idx < S->drv.state_count)
		return idx;
	return gov_file_error(S, S->err, "select", outcome, idx, c->id, decisions(c) + 1, t);
}

/* reflect(): 0, or -1 with S->err set. */
static __attribute__((noinline)) int guarded_reflect(struct sim *S, struct sim_cpu *c, int idx)
{
	struct cpuidle_device *dev = &c->dev;
	int outcome = S->gov->reflect ? govguard_reflect(S->guard, S->gov, dev, idx) : 0;

	return outcome ? gov_file_error(S, S->err, "reflect", outcome, 0, c->id, decisions(c),
					dev->env.now_ns)
		       : 0;
}

static int enter_state(struct sim *S, struct sim_cpu *c, int idx, int64_t t)
{
	struct cpuidle_device *dev = &c->dev;

	c->phase = CPU_IDLE;
	c->state = idx;
	c->entry_ns = t;
	/* do_select() just computed the next tick boundary after t. */
	c->first_tick_ns = dev->env.tick_stopped ? SIM_TIME_NEVER : dev->env.next_tick_ns;
	if (is_polling(S, idx)) {
		dev->poll_time_limit = false;
		c->poll_deadline_ns = t + (int64_t)cpuidle_poll_time(&S->drv, dev);
	}
	c->entered[idx]++;
	plan_wakeup(S, c);
	return cpu_level(S, c, idx + 1, t);
}

static void explain_begin(struct sim *S, struct sim_cpu *c, int64_t t)
{
	struct cpuidle_device *dev = &c->dev;
	struct sim_decision *d = &c->xb->dec;
	ktime_t delta_tick;

	memset(d, 0, sizeof(*d));
	d->time_ns = t;
	d->cpu = cpu_id(S, c);
	d->sleep_length_ns = tick_nohz_get_sleep_length(dev, &delta_tick);
	d->wheel_length_ns = dev->env.next_wheel_ns == KTIME_MAX ? KTIME_MAX
								  : dev->env.next_wheel_ns - t;
	d->delta_tick_ns = delta_tick;
	d->latency_req_ns = dev->env.latency_req_ns;
	d->oracle_idle_ns = cpuidle_oracle_idle_ns(dev);
	d->tick_stopped_before = dev->env.tick_stopped;
	d->got_tick = dev->env.got_tick;
	d->nr_iowait = dev->env.nr_iowait;
	d->load = dev->env.load;
	d->state = -1;
	d->first = c->phase == CPU_BUSY;
	c->xb->ex.nr = 0;
	d->gov = &c->xb->ex;
}

/* cpuidle_idle_call(): ask the governor, stop or retain the tick, enter the state. */
static int do_select(struct sim *S, struct sim_cpu *c, int64_t t)
{
	struct cpuidle_device *dev = &c->dev;
	struct cpuidle_env *env = &dev->env;
	struct opp *o = ring_head(c);
	bool stop_tick = true;
	int idx;

	env->now_ns = t;
	env->next_timer_ns = o->next_timer_ns;
	env->next_wheel_ns = o->next_wheel_ns;
	env->load_read = false;
	env->next_tick_ns = next_tick_after(S, t);
	env->oracle_wake_ns = o->wake_ns;
	env->nr_iowait = o->iowait;
	env->load = o->load;
	if (dev->explain)
		explain_begin(S, c, t);

	if (__builtin_expect(S->guard != NULL, 0))
		idx = guarded_select(S, c, &stop_tick); /* checked: -1 with S->err set */
	else
		idx = S->gov->select(&S->drv, dev, &stop_tick);
	if (idx < 0 || idx >= S->drv.state_count)
		return S->guard ? -1
				: internal_error(S, "governor returned a state index out of range",
						 cpu_id(S, c), t);

	/* tick_nohz_idle_stop_tick(): the tick keeps running if a timer-wheel timer is due
	 * within the next tick period (tick_nohz_next_event(); in high-resolution mode
	 * get_next_timer_interrupt() ignores hrtimers); once stopped it stays stopped. */
	if (stop_tick && !env->tick_stopped && o->next_wheel_ns > env->next_tick_ns)
		env->tick_stopped = true;

	if (dev->explain) {
		c->xb->dec.load_read = env->load_read;
		c->xb->dec.state = idx;
		c->xb->dec.stop_tick = stop_tick;
		c->xb->dec.tick_stopped_after = env->tick_stopped;
	}
	return enter_state(S, c, idx, t);
}

/* cpuidle_enter_state() accounting (sim/machine/cpuidle_rules.c); returns the verdict (0 hit, 1 above,
 * 2 below). */
static int account(struct sim *S, struct sim_cpu *c, int idx, int64_t diff)
{
	return (int)cpuidle_account(&S->drv, c->dev.states_usage, idx, diff);
}

static int add_latency(struct sim *S, struct sim_cpu *c, enum wake_cause cause, int64_t lat)
{
	if (cause == WAKE_IRQ || cause == WAKE_IPI) {
		if (lat_hist_add(&c->st.wake_latency, lat, 1))
			return sim_error_nomem(S->err, "");
	}
	return 0;
}

/*
 * The idle loop ends (a wakeup woke a task): the CPU runs work from `ready` on and the tick
 * runs again. `from_ns` is when the trace has that work begin (the wakeup's recorded time):
 * the work keeps its length, so the CPU now runs ready - from_ns behind the trace. The
 * caller has taken the period off the queue.
 */
static void leave_idle(struct sim *S, struct sim_cpu *c, int64_t ready, int64_t from_ns)
{
	c->phase = CPU_BUSY;
	c->ready_ns = ready;
	c->busy_from_ns = ready;
	c->delay_ns = S->cfg.agent ? 0 : ready - from_ns;
	c->dev.env.tick_stopped = false;
	/* An agent decides the work when the CPU runs, at `ready` in simulated time. */
	if (S->cfg.agent)
		schedule(S, c, EV_READY, ready);
	else
		plan_enter(S, c);
}

static int do_ready(struct sim *S, struct sim_cpu *c, int64_t t)
{
	if (S->cfg.agent->ready(S->cfg.agent_ctx, S, cpu_id(S, c), t, S->err))
		return -1;
	if (!c->scheduled)
		plan_enter(S, c);
	return 0;
}

static void explain_end(struct sim *S, struct sim_cpu *c, int64_t t, enum wake_cause cause,
			int64_t diff, int verdict)
{
	struct sim_decision *d = &c->xb->dec;
	int i;

	if (d->state < 0)
		return;
	d->wake_ns = t;
	d->cause = cause;
	d->residency_ns = diff;
	d->verdict = verdict;
	d->reflect_ns = c->dev.env.now_ns;
	d->reflect_got_tick = c->dev.env.got_tick;
	d->poll_time_limit = c->dev.poll_time_limit;
	S->cfg.explain(S->cfg.explain_ud, d);
	d->state = -1;
	if (S->cfg.explain_limit >= 0 && ++S->explained >= S->cfg.explain_limit)
		for (i = 0; i < S->cfg.nr_cpus; i++)
			S->cpus[i].dev.explain = NULL;
}

/* The entry the end cuts, for timelines: it lasts to the end, its time is truncated. */
static void explain_truncated(struct sim *S, struct sim_cpu *c, int64_t end_ns)
{
	struct sim_decision *d;

	if (!S->cfg.explain_truncated || !c->dev.explain || c->xb->dec.state < 0)
		return;
	d = &c->xb->dec;
	d->truncated = true;
	d->wake_ns = end_ns;
	d->reflect_ns = end_ns;
	d->cause = WAKE_NR_CAUSES;
	d->residency_ns = end_ns - c->entry_ns;
	S->cfg.explain(S->cfg.explain_ud, d);
	d->state = -1;
}

/*
 * A wakeup brought no work (the tick, the POLL limit, or a real wakeup with resched=0 at
 * trace time ref_ns, SIM_TIME_NEVER for the first two): the CPU stays in the idle loop, the
 * tick as it was, and asks the governor again once it has left the state at t + lat.
 * Periods whose own wakeup arrives before then end during the exit.
 */
static int continue_idle(struct sim *S, struct sim_cpu *c, int64_t t, int64_t lat, int64_t ref_ns)
{
	int64_t ready = t + lat;
	struct opp *o;

	while (c->count && (o = ring_head(c))->wake_ns <= ready) {
		enum wake_cause cause = o->cause;
		bool resched = !o->no_resched;
		int64_t wake = o->wake_ns;

		c->st.absorbed++;
		ring_pop(c);
		if (add_latency(S, c, cause, ready - wake))
			return -1;
		if (resched) {
			leave_idle(S, c, ready, wake);
			return 0;
		}
		ref_ns = wake;
	}
	/* Nothing to stay idle for: the trace ends here, or work comes first (a period that
	 * starts after the resched=0 wakeup ended the last one). */
	if (!c->count) {
		leave_idle(S, c, ready, ready);
		return 0;
	}
	if (ref_ns != SIM_TIME_NEVER && ring_head(c)->start_ns > ref_ns) {
		leave_idle(S, c, ready, ref_ns);
		return 0;
	}
	if (lat == 0)
		return do_select(S, c, t);
	c->phase = CPU_EXITING;
	schedule(S, c, EV_REENTER, ready);
	return 0;
}

/*
 * An interrupt that wakes no task (resched=0) arrives in a polling state: poll_idle() leaves
 * only on need_resched() or its time limit, so the handler runs inside the loop and the
 * entry goes on, through the next period (queued, and starting at this wakeup), with no new
 * select.
 */
static int poll_through(struct sim *S, struct sim_cpu *c)
{
	enum wake_cause cause = ring_head(c)->cause;

	ring_pop(c);
	c->st.polled++;
	plan_wakeup(S, c);
	return add_latency(S, c, cause, 0);
}

/*
 * The exit from the state ends after the end of the run: a snapshot taken at the end would
 * not count the entry yet (cpuidle_enter_state() has not returned), so, as for an entry still
 * in progress, its time is truncated; the exit itself runs at the active level up to the end.
 * The woken period stays queued (pending) and nothing more happens to the CPU.
 */
static int cut_at_end(struct sim *S, struct sim_cpu *c, int64_t t)
{
	c->cut = true;
	c->trace_pos_ns = t == c->real_wake_ns ? t : sim_min64(ring_head(c)->wake_ns, S->end_ns);
	schedule(S, c, EV_NONE, SIM_TIME_NEVER);
	return cpu_level(S, c, 0, t);
}

/* The hardware's actual latency of an exit from state idx: fixed, or drawn from the CPU's
 * stream (a uniform double in [0, 1) from the top 53 bits) through the inverse CDF. */
static int64_t wake_latency(struct sim *S, struct sim_cpu *c, int idx)
{
	double u;

	if (S->wake_fixed_ns[idx] >= 0)
		return S->wake_fixed_ns[idx];
	u = (double)(sim_splitmix64(&c->wake_rng) >> 11) * 0x1.0p-53;
	return machine_wake_quantile_ns(&S->cfg.machine->states[idx].wake, u);
}

static int do_wakeup(struct sim *S, struct sim_cpu *c, int64_t t)
{
	struct cpuidle_device *dev = &c->dev;
	struct opp *o = ring_head(c);
	int idx = c->state;
	int64_t lat, diff;
	enum wake_cause cause;
	int verdict;

	if (t == c->real_wake_ns)
		cause = o->cause;
	else if (is_polling(S, idx) && t == c->poll_deadline_ns)
		cause = WAKE_POLL;
	else
		cause = WAKE_TICK;
	if (cause <= WAKE_IPI && o->no_resched && is_polling(S, idx) && ring_second(c) &&
	    ring_second(c)->start_ns == o->wake_ns)
		return poll_through(S, c);
	/* The actual latency, not the advertised one: the measured residency includes it, as
	 * cpuidle_enter_state() reads the clock only once the CPU runs again. */
	lat = wake_latency(S, c, idx);
	diff = t - c->entry_ns + lat;
	if (t + lat > S->end_ns)
		return cut_at_end(S, c, t);
	/* The tick handler ran while idle, or runs at local_irq_enable() in
	 * cpuidle_enter_state() if it fired while the CPU was leaving the state: either way
	 * before cpuidle_reflect(). */
	if (c->first_tick_ns <= t + lat)
		dev->env.got_tick = true;
	if (cause == WAKE_POLL)
		dev->poll_time_limit = true;

	verdict = account(S, c, idx, diff);
	dev->last_residency_ns = diff;
	dev->last_state_idx = idx;
	c->st.wakeups[cause]++;
	if (cpu_level(S, c, 0, t))
		return -1;
	dev->env.now_ns = t + lat;
	if (dev->explain)
		explain_end(S, c, t, cause, diff, verdict);
	if (__builtin_expect(S->guard != NULL, 0)) {
		if (guarded_reflect(S, c, idx))
			return -1;
	} else if (S->gov->reflect) {
		S->gov->reflect(dev, idx);
	}

	if (cause <= WAKE_IPI) {
		bool resched = !o->no_resched;
		int64_t wake = o->wake_ns;

		ring_pop(c);
		/* The common case, counted per state and folded into the histogram at the end;
		 * sampled latencies go in one by one. */
		if (S->wake_fixed_ns[idx] < 0) {
			if (add_latency(S, c, cause, lat))
				return -1;
		} else if (cause != WAKE_TIMER) {
			c->exit_lat_count[idx]++;
		}
		if (resched) {
			leave_idle(S, c, t + lat, wake);
			return 0;
		}
		/* The handler woke no task (resched=0): the idle loop goes on with the next
		 * period, which starts at this wakeup. */
		return continue_idle(S, c, t, lat, wake);
	}
	return continue_idle(S, c, t, lat, SIM_TIME_NEVER);
}

static int do_enter(struct sim *S, struct sim_cpu *c, int64_t t)
{
	struct opp *o = ring_head(c);

	if (o->wake_ns <= t) {
		/* Woken before it could idle: need_resched() is already set. The work this
		 * wakeup brings waits for the work before it, and starts now. */
		enum wake_cause cause = o->cause;
		int64_t late = t - o->wake_ns;

		c->st.absorbed++;
		ring_pop(c);
		if (S->cfg.agent) {
			/* The agent hands out the work this wakeup brings, now (it arrived while
			 * the CPU was still on its way into the idle loop). */
			schedule(S, c, EV_READY, t);
		} else {
			c->delay_ns = late;
			plan_enter(S, c);
		}
		return add_latency(S, c, cause, late);
	}
	c->st.idle_periods++;
	c->st.busy_ns += sim_max64(0, t - c->busy_from_ns);
	c->dev.env.tick_stopped = false; /* it ran while the CPU was busy */
	return do_select(S, c, t);
}

/* Handle the event of CPU c due at t; the caller has cleared c->ev and c->scheduled. */
static inline int dispatch(struct sim *S, struct sim_cpu *c, enum ev_kind ev, int64_t t)
{
	switch (ev) {
	case EV_ENTER:
		return do_enter(S, c, t);
	case EV_WAKEUP:
		return do_wakeup(S, c, t);
	case EV_REENTER:
		/* The exit is over; a wakeup moved earlier meanwhile (sim_rewake) may have
		 * passed already. */
		return continue_idle(S, c, t, 0, SIM_TIME_NEVER);
	case EV_READY:
		return do_ready(S, c, t);
	default:
		return internal_error(S, "event without a kind", c->id, t);
	}
}

static int run_global(struct sim *S, int64_t until_ns)
{
	uint32_t cpu;
	int64_t t;

	while (eventq_peek(S->q, &cpu, &t) && t <= until_ns) {
		struct sim_cpu *c;
		enum ev_kind ev;
		int rc;

		if (cpu >= (uint32_t)S->cfg.nr_cpus) {
			uint32_t id = cpu - (uint32_t)S->cfg.nr_cpus;

			eventq_remove(S->q, cpu);
			S->now_ns = t;
			if (S->cfg.agent->timer(S->cfg.agent_ctx, S, id, t, S->err))
				return -1;
			continue;
		}
		c = &S->cpus[cpu];
		ev = c->ev;

		/* The CPU's entry stays queued: the handler moves it (one sift instead of a
		 * removal and an insertion), or it is removed below. */
		c->ev = EV_NONE;
		c->scheduled = false;
		S->now_ns = t;
		rc = dispatch(S, c, ev, t);
		if (!c->scheduled)
			eventq_remove(S->q, cpu);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * Without an agent or a decision log, CPUs only meet in the energy accounting: each runs
 * its own events, one CPU after the other, and their idle spans are charged afterwards.
 * Same results as run_global(), which tests check.
 *
 * The logs must stay small whatever the trace: a CPU that keeps the tick (or polls) makes
 * events on its own, without records, so a long stretch between records (an idle machine,
 * a sparse trace) would log them all before one charge. So the CPUs run in slices of at
 * most LANE_SLICE_TICKS ticks, each charged before the next (a slice starts at the earliest
 * pending event, so quiet stretches cost nothing): at most a tick, POLL-limit wakeups (one
 * per 10 us at least) and the records of one replay batch per CPU and slice.
 */
#define LANE_SLICE_TICKS 4

static int run_lanes(struct sim *S, int64_t until_ns)
{
	int64_t slice_ns = LANE_SLICE_TICKS * S->tick_nsec;

	while (S->lane_min_ns <= until_ns) {
		int64_t end = S->lane_min_ns < until_ns - slice_ns ? S->lane_min_ns + slice_ns
								   : until_ns;
		int64_t min_ns = SIM_TIME_NEVER;
		int k;

		for (k = 0; k < S->cfg.nr_cpus; k++) {
			struct sim_cpu *c = &S->cpus[k];

			while (c->ev != EV_NONE && c->ev_ns <= end) {
				enum ev_kind ev = c->ev;
				int64_t t = c->ev_ns;

				c->ev = EV_NONE;
				c->ev_ns = SIM_TIME_NEVER;
				c->scheduled = false;
				if (t > S->now_ns)
					S->now_ns = t;
				if (dispatch(S, c, ev, t))
					return -1;
			}
			if (c->ev != EV_NONE && c->ev_ns < min_ns)
				min_ns = c->ev_ns;
		}
		S->lane_min_ns = min_ns;
		if (energy_charge_spans(S->energy, end))
			return sim_error_nomem(S->err, "");
	}
	return 0;
}

int sim_run_until(struct sim *S, int64_t until_ns, struct sim_error *err)
{
	S->err = err;
	return S->lanes ? run_lanes(S, until_ns) : run_global(S, until_ns);
}

/* ---- feeding ---- */

/* An instant past SIM_TIME_MAX_NS: the readers reject those, so it is the caller's bug. */
static int beyond_limit(struct sim_error *err, const char *what, int cpu, int64_t t)
{
	return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
			     "%s of CPU %d at %lld ns is beyond the engine's limit, 2^62 ns", what,
			     cpu, (long long)t);
}

int sim_idle(struct sim *S, int cpu, int64_t start_ns, int64_t next_timer_ns, int64_t next_wheel_ns,
	     unsigned int iowait, unsigned long load, struct sim_error *err)
{
	struct opp o = { start_ns,  SIM_TIME_NEVER, next_timer_ns, next_wheel_ns,
			 load,	    iowait,	    WAKE_TIMER,	   false };
	struct sim_cpu *c;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "idle period for CPU %d", cpu);
	c = &S->cpus[cpu];
	if (start_ns > SIM_TIME_MAX_NS)
		return beyond_limit(err, "idle period", cpu, start_ns);
	if ((c->count && ring_tail(c)->wake_ns == SIM_TIME_NEVER) || start_ns < c->last_start_ns ||
	    start_ns < S->now_ns || next_wheel_ns < next_timer_ns)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "idle period of CPU %d at %lld ns fed out of order", cpu,
				     (long long)start_ns);
	if (ring_push(c, &o))
		return sim_error_nomem(err, "");
	c->fed++;
	c->last_start_ns = start_ns;
	if (c->phase == CPU_BUSY && c->count == 1)
		plan_enter(S, c);
	return 0;
}

int sim_period(struct sim *S, int cpu, int64_t start_ns, int64_t wake_ns, enum wake_cause cause,
	       bool no_resched, int64_t next_timer_ns, int64_t next_wheel_ns, unsigned int iowait,
	       unsigned long load, struct sim_error *err)
{
	struct opp o = { start_ns, wake_ns, next_timer_ns, next_wheel_ns,
			 load,	   iowait,  cause,	   no_resched };
	struct sim_cpu *c;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "idle period for CPU %d", cpu);
	c = &S->cpus[cpu];
	if (wake_ns > SIM_TIME_MAX_NS)
		return beyond_limit(err, "idle period", cpu, wake_ns);
	if ((c->count && ring_tail(c)->wake_ns == SIM_TIME_NEVER) || start_ns < c->last_start_ns ||
	    start_ns < S->now_ns || wake_ns < start_ns || cause > WAKE_IPI ||
	    next_wheel_ns < next_timer_ns)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "idle period of CPU %d at %lld ns fed out of order", cpu,
				     (long long)start_ns);
	if (ring_push(c, &o))
		return sim_error_nomem(err, "");
	c->fed++;
	c->last_start_ns = start_ns;
	if (c->phase == CPU_BUSY && c->count == 1)
		plan_enter(S, c);
	return 0;
}

int sim_wake(struct sim *S, int cpu, int64_t wake_ns, enum wake_cause cause, bool no_resched,
	     struct sim_error *err)
{
	struct sim_cpu *c;
	struct opp *o;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "wakeup for CPU %d", cpu);
	c = &S->cpus[cpu];
	if (wake_ns > SIM_TIME_MAX_NS && wake_ns != SIM_TIME_NEVER)
		return beyond_limit(err, "wakeup", cpu, wake_ns);
	if (!c->count || (o = ring_tail(c))->wake_ns != SIM_TIME_NEVER || wake_ns < o->start_ns ||
	    wake_ns == SIM_TIME_NEVER || cause > WAKE_IPI)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "wakeup of CPU %d at %lld ns without an open idle period", cpu,
				     (long long)wake_ns);
	o->wake_ns = wake_ns;
	o->cause = cause;
	o->no_resched = no_resched;
	if (c->phase == CPU_IDLE && c->count == 1)
		plan_wakeup(S, c);
	return 0;
}

int sim_rewake(struct sim *S, int cpu, int64_t wake_ns, enum wake_cause cause,
	       struct sim_error *err)
{
	struct sim_cpu *c;
	struct opp *o;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "rewake of CPU %d", cpu);
	c = &S->cpus[cpu];
	if (!c->count || (o = ring_tail(c))->wake_ns <= wake_ns || wake_ns < S->now_ns ||
	    wake_ns < o->start_ns || cause > WAKE_IPI)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "rewake of CPU %d at %lld ns is not earlier", cpu,
				     (long long)wake_ns);
	o->wake_ns = wake_ns;
	o->cause = cause;
	o->no_resched = false;
	if (c->phase == CPU_IDLE && c->count == 1)
		plan_wakeup(S, c);
	return 0;
}

void sim_agent_timer(struct sim *S, uint32_t id, int64_t t_ns)
{
	uint32_t item = (uint32_t)S->cfg.nr_cpus + id;

	if (t_ns == SIM_TIME_NEVER)
		eventq_remove(S->q, item);
	else
		eventq_set(S->q, item, t_ns, PRIO_AGENT);
}

int64_t sim_now(const struct sim *S)
{
	return S->now_ns;
}

int sim_cpu_state(const struct sim *S, int cpu)
{
	const struct sim_cpu *c = &S->cpus[cpu];

	return c->phase == CPU_IDLE ? c->state : -1;
}

/* ---- setup and teardown ---- */

/* cpuidle_reference_energy_j(): an idle period priced by the accounting's own rule, with
 * the state's mean actual latency (a sampled exit is not known before it happens). */
static double period_energy_j(const void *ctx, int idx, double idle_ns)
{
	const struct sim *S = ctx;

	return energy_period_j(S->cfg.machine, idx, idle_ns, S->wake_mean_ns[idx]);
}

/*
 * The energy reference looks as far ahead as the machine's longest break-even time, capped
 * at this (2 s; the built-ins need at most 997 ms, hsw and bdw under `worst`): a longer
 * wait costs memory (the periods in flight), and past the cap it takes the choice that is
 * cheapest for an endless period.
 */
#define ENERGY_HORIZON_MAX_NS (2000 * SIM_NS_PER_MS)

static int init_cpus(struct sim *S, struct sim_error *err)
{
	const struct machine *m = S->cfg.machine;
	size_t priv = (S->gov->priv_size + 15) & ~(size_t)15;
	int i, k;

	S->cpus = sim_calloc((size_t)S->cfg.nr_cpus, sizeof(*S->cpus));
	if (priv)
		S->gov_data = sim_calloc((size_t)S->cfg.nr_cpus, priv);
	if (S->cfg.explain)
		S->xbufs = sim_calloc((size_t)S->cfg.nr_cpus, sizeof(*S->xbufs));
	if (!S->cpus || (priv && !S->gov_data) || (S->cfg.explain && !S->xbufs))
		return sim_error_nomem(err, "");
	for (i = 0; i < S->cfg.nr_cpus; i++) {
		struct sim_cpu *c = &S->cpus[i];
		struct cpuidle_device *dev = &c->dev;

		c->id = i;
		c->energy = energy_cpu(S->energy, i);
		c->phase = CPU_BUSY;
		c->ev = EV_NONE;
		c->ev_ns = SIM_TIME_NEVER;
		c->ready_ns = c->busy_from_ns = c->last_start_ns = S->start_ns;
		if (S->xbufs) {
			c->xb = &S->xbufs[i];
			c->xb->dec.state = -1;
		}
		machine_cpu_topology(m, i, &c->st.package, &c->st.core, &c->st.thread);
		c->st.cpu = i;
		lat_hist_init(&c->st.wake_latency);
		/* The common latencies, counted apart and added by sim_finish(): 0 and each
		 * state's full exit. */
		lat_hist_reserve(&c->st.wake_latency, 0);
		for (k = 0; k < S->drv.state_count; k++)
			if (S->wake_fixed_ns[k] >= 0)
				lat_hist_reserve(&c->st.wake_latency, S->wake_fixed_ns[k]);
		c->wake_rng = S->cfg.wake_seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(i + 1));
		dev->cpu = (unsigned int)i;
		dev->last_state_idx = -1;
		for (k = 0; k < S->drv.state_count; k++)
			if (S->cfg.disabled & (1u << k))
				dev->states_usage[k].disable = CPUIDLE_STATE_DISABLED_BY_USER;
		dev->governor_data = priv ? S->gov_data + (size_t)i * priv : NULL;
		dev->gov_params = S->params;
		dev->env.tick_nsec = S->tick_nsec;
		dev->env.latency_req_ns = S->latency_req_ns;
		dev->env.next_timer_ns = KTIME_MAX;
		dev->env.next_wheel_ns = KTIME_MAX;
		dev->env.oracle_wake_ns = KTIME_MAX;
		dev->env.now_ns = S->start_ns;
		dev->env.period_energy_j = period_energy_j;
		dev->env.period_energy_ctx = S;
		dev->explain = S->cfg.explain && S->cfg.explain_limit != 0 ? &c->xb->ex : NULL;
		if (S->guard && S->gov->enable) {
			int ret = 0, outcome = govguard_enable(S->guard, S->gov, &S->drv, dev, &ret);

			if (outcome || ret)
				return gov_file_error(S, err, "enable", outcome, ret, i, 0,
						      dev->env.now_ns);
		} else if (S->gov->enable && S->gov->enable(&S->drv, dev)) {
			return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
					     "governor %s failed to enable CPU %d", S->gov->name, i);
		}
	}
	return 0;
}

struct sim *sim_create(const struct sim_config *cfg, int64_t start_ns, struct sim_error *err)
{
	const struct machine *m = cfg->machine;
	struct sim *S;
	unsigned int i;
	int k;

	if (cfg->nr_cpus < 1 || cfg->nr_cpus > machine_nr_cpus(m)) {
		sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			      "the trace has %d CPUs but machine %s has %d; pick a larger machine",
			      cfg->nr_cpus, m->name, machine_nr_cpus(m));
		return NULL;
	}
	if (start_ns < 0 || start_ns > SIM_TIME_MAX_NS) {
		sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
			      "start %lld ns is outside the engine's range, 0 to 2^62 ns",
			      (long long)start_ns);
		return NULL;
	}
	if (machine_check_wake_model(m, cfg->wake_model, err))
		return NULL;
	if (cfg->hz < 1 || cfg->hz > 10000) {
		sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "tick rate %d Hz out of range (1..10000)",
			      cfg->hz);
		return NULL;
	}
	S = sim_calloc(1, sizeof(*S));
	if (!S) {
		sim_error_nomem(err, "");
		return NULL;
	}
	S->cfg = *cfg;
	S->gov = cfg->gov;
	S->lanes = !cfg->agent && !cfg->explain && !cfg->global_order;
	S->lane_min_ns = SIM_TIME_NEVER;
	S->start_ns = S->now_ns = start_ns;
	S->end_ns = SIM_TIME_NEVER;
	machine_to_driver(m, &S->drv);
	S->tick_nsec = (SIM_NS_PER_S + cfg->hz / 2) / cfg->hz;
	S->latency_req_ns = cfg->latency_req_ns < 0
				    ? (int64_t)PM_QOS_CPU_LATENCY_DEFAULT_VALUE * NSEC_PER_USEC
				    : cfg->latency_req_ns;
	S->lookahead_ns = S->tick_nsec;
	for (k = 0; k < m->state_count; k++) {
		S->lookahead_ns = sim_max64(S->lookahead_ns, m->states[k].target_residency_ns);
		S->lookahead_ns = sim_max64(S->lookahead_ns, machine_wake_max_ns(&m->states[k]));
		S->wake_fixed_ns[k] = machine_wake_fixed_ns(&m->states[k], cfg->wake_model);
		S->wake_mean_ns[k] = machine_wake_mean_ns(&m->states[k], cfg->wake_model);
	}
	if (S->gov->energy_horizon)
		S->lookahead_ns = sim_max64(S->lookahead_ns,
					    energy_period_horizon_ns(m, S->wake_mean_ns,
								     ENERGY_HORIZON_MAX_NS));
	S->lookahead_ns += 1;
	if (S->gov->nr_params) {
		S->params = sim_calloc(S->gov->nr_params, sizeof(*S->params));
		if (!S->params)
			goto nomem;
		for (i = 0; i < S->gov->nr_params; i++)
			S->params[i] = cfg->gov_params ? cfg->gov_params[i] : S->gov->params[i].def;
	}
	S->q = eventq_new(cfg->queue, (uint32_t)cfg->nr_cpus + (cfg->agent ? cfg->agent_timers : 0));
	S->energy = energy_new(m, cfg->nr_cpus, start_ns, S->lanes);
	if (!S->q || !S->energy)
		goto nomem;
	if (S->gov->file && !(S->guard = govguard_create(cfg->gov_timeout_ns, err))) {
		sim_destroy(S);
		return NULL;
	}
	if (init_cpus(S, err)) {
		sim_destroy(S);
		return NULL;
	}
	return S;
nomem:
	sim_destroy(S);
	sim_error_nomem(err, "");
	return NULL;
}

void sim_destroy(struct sim *S)
{
	int i;

	if (!S)
		return;
	if (S->cpus) {
		for (i = 0; i < S->cfg.nr_cpus; i++) {
			/* A governor file's: isolated, and not after one of its calls went wrong
			 * (its state is garbage then); a fault here is ignored, the run is over. */
			if (S->gov->disable && S->guard && !S->gov_failed)
				S->gov_failed = govguard_disable(S->guard, S->gov, &S->drv,
								 &S->cpus[i].dev) != 0;
			else if (S->gov->disable && !S->guard)
				S->gov->disable(&S->drv, &S->cpus[i].dev);
			sim_free(S->cpus[i].ring);
			lat_hist_release(&S->cpus[i].st.wake_latency);
		}
	}
	sim_free(S->cpus);
	sim_free(S->xbufs);
	sim_free(S->gov_data);
	sim_free(S->params);
	eventq_free(S->q);
	energy_free(S->energy);
	govguard_destroy(S->guard);
	sim_free(S);
}

int64_t sim_lookahead_ns(const struct sim *S)
{
	return S->lookahead_ns;
}

/*
 * Conservation, per CPU: busy time, the time of its completed entries and the entry cut by
 * the end add up to the run's span exactly; every completed entry has a cause; every period
 * fed was woken out of an idle state, absorbed, polled through, or is still pending. And
 * every core and package accounted the whole span. Checked at the end of every run (its
 * cost is O(CPUs x states)); a violation is an internal error.
 */
static int check_conservation(struct sim *S, const struct run_stats *rs)
{
	int64_t span = rs->end_ns - rs->start_ns;
	int i, k;

	for (i = 0; i < rs->nr_cpus; i++) {
		const struct cpu_stats *cs = &rs->cpus[i];
		int64_t sum = cs->busy_ns + cs->truncated_ns;
		uint64_t usage = 0, causes = 0, ended;

		for (k = 0; k < rs->state_count; k++) {
			sum += (int64_t)cs->states[k].time_ns;
			usage += cs->states[k].usage;
		}
		for (k = 0; k < WAKE_NR_CAUSES; k++)
			causes += cs->wakeups[k];
		ended = cs->wakeups[WAKE_TIMER] + cs->wakeups[WAKE_IRQ] + cs->wakeups[WAKE_IPI] +
			cs->absorbed + cs->polled + S->cpus[i].count;
		if (sum != span || usage != causes || ended != S->cpus[i].fed || cs->spilled_ns < 0)
			return sim_error_set(S->err, SIM_ERR_INTERNAL, "", 0, 0,
					     "conservation broken on CPU %d: %lld ns accounted for a "
					     "%lld ns span, %llu entries for %llu causes, %llu of %llu "
					     "periods ended, %lld ns spilled",
					     i, (long long)sum, (long long)span,
					     (unsigned long long)usage, (unsigned long long)causes,
					     (unsigned long long)ended,
					     (unsigned long long)S->cpus[i].fed,
					     (long long)cs->spilled_ns);
	}
	/* Every core and every package spent the whole span at its levels. */
	return energy_check(S->energy, span, S->err);
}

/*
 * The work the trace does before the end that this CPU had not done by then: it runs
 * behind the trace (busy, by its delay; or leaving a state past the end, from the trace
 * time it had reached), and what the trace does in between, less its idle time, spills.
 */
static int64_t spilled_work(const struct sim *S, const struct sim_cpu *c, int64_t end)
{
	int64_t pos, idle = 0;
	uint32_t i, first;

	if (S->cfg.agent)
		return 0;
	if (c->phase == CPU_BUSY) {
		pos = end - c->delay_ns;
		first = 0;
	} else if (c->cut) {
		pos = c->trace_pos_ns;
		first = 1; /* the period it is leaving */
	} else {
		return 0;
	}
	for (i = first; i < c->count; i++) {
		const struct opp *o = &c->ring[(c->head + i) & (c->cap - 1)];
		int64_t a = sim_max64(o->start_ns, pos), b = sim_min64(o->wake_ns, end);

		if (o->start_ns >= end)
			break;
		if (b > a)
			idle += b - a;
	}
	return sim_max64(0, end - pos) - idle;
}

void sim_set_end(struct sim *S, int64_t end_ns)
{
	S->end_ns = sim_max64(end_ns, S->start_ns);
}

int sim_finish(struct sim *S, int64_t end_ns, struct run_stats *out, struct sim_error *err)
{
	const struct machine *m = S->cfg.machine;
	int i, k;

	memset(out, 0, sizeof(*out));
	/* and the totals over CPUs must fit: (end - start) x CPUs <= 2^62 (FORMAT.md) */
	if (end_ns > SIM_TIME_MAX_NS || end_ns - S->start_ns > SIM_TIME_MAX_NS / S->cfg.nr_cpus)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "end %lld ns is beyond the engine's limit, 2^62 ns, or "
				     "2^62 ns of CPU time from the start",
				     (long long)end_ns);
	sim_set_end(S, end_ns);
	end_ns = S->end_ns;
	if (sim_run_until(S, end_ns, err))
		return -1;
	if (energy_close(S->energy, end_ns))
		return sim_error_nomem(err, "");
	/* Wakeups that arrived while the CPU was busy and whose work had not started by the
	 * end stay pending: their latency is not known yet. The full exits, counted apart,
	 * join each histogram here, before out owns any of them: a failure leaves everything
	 * to sim_destroy() and nothing in out. */
	for (i = 0; i < S->cfg.nr_cpus; i++)
		for (k = 0; k < S->drv.state_count; k++)
			if (S->cpus[i].exit_lat_count[k] &&
			    lat_hist_add(&S->cpus[i].st.wake_latency, S->wake_fixed_ns[k],
					 S->cpus[i].exit_lat_count[k]))
				return sim_error_nomem(err, "");
	out->cpus = sim_calloc((size_t)S->cfg.nr_cpus, sizeof(*out->cpus));
	if (!out->cpus)
		return sim_error_nomem(err, "");
	out->nr_cpus = S->cfg.nr_cpus;
	out->state_count = S->drv.state_count;
	out->start_ns = S->start_ns;
	out->end_ns = end_ns;
	for (i = 0; i < S->drv.state_count; i++)
		memcpy(out->state_names[i], S->drv.states[i].name, CPUIDLE_NAME_LEN);
	for (i = 0; i < S->cfg.nr_cpus; i++) {
		struct sim_cpu *c = &S->cpus[i];

		if (c->phase == CPU_IDLE) {
			c->st.truncated_ns += end_ns - c->entry_ns;
			explain_truncated(S, c, end_ns);
		}
		else if (c->phase == CPU_BUSY)
			c->st.busy_ns += sim_max64(0, end_ns - c->busy_from_ns);
		c->st.spilled_ns = spilled_work(S, c, end_ns);
		memcpy(c->st.states, c->dev.states_usage, sizeof(c->st.states));
		out->cpus[i] = c->st;
		/* The histogram's buckets now belong to out. */
		c->st.wake_latency.buckets = NULL;
	}
	energy_price(S->energy, &out->energy_j, &out->idle_energy_j, &out->package_energy_j);
	/* Summed per state, then over CPUs: the same whatever order the CPUs ran in. */
	for (i = 0; i < S->cfg.nr_cpus; i++)
		for (k = 0; k < S->drv.state_count; k++)
			out->transition_energy_j +=
				(double)S->cpus[i].entered[k] * m->states[k].entry_exit_energy_j;
	out->cpu_energy_j = energy_price_cpus(S->energy) + out->transition_energy_j;
	out->energy_j += out->transition_energy_j;
	out->idle_energy_j += out->transition_energy_j;
	if (run_stats_sum(out)) {
		run_stats_release(out);
		return sim_error_nomem(err, "");
	}
	if (check_conservation(S, out)) {
		run_stats_release(out);
		return -1;
	}
	return 0;
}
