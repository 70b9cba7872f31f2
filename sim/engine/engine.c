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
 * CPUs are aligned (skew_tick=0) on one jiffy grid (sim/engine/wheel.h).
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
 *
 * Creating a simulation and finishing a run (the end snapshot, the conservation check) are
 * sim/engine/engine_setup.c; the state both files share is sim/engine/engine_int.h.
 */
#include "sim/engine/engine.h"
#include "sim/engine/engine_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/engine/govguard.h"
#include "sim/machine/cpuidle_rules.h"
#include "sim/machine/energy.h"

#include <string.h>

static bool is_polling(const struct sim *S, int idx)
{
	return S->drv.states[idx].flags & CPUIDLE_FLAG_POLLING;
}

/* The first tick boundary strictly after t: ticks fire on the run's jiffy grid. */
static int64_t next_tick_after(const struct sim *S, int64_t t)
{
	return jiffy_edge_after(&S->grid, t);
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

static __attribute__((noinline)) int ring_grow(struct sim *S, struct sim_cpu *c)
{
	uint32_t ncap = c->cap ? 2 * c->cap : 4, i;
	struct opp *n = sim_alloc_big(ncap * sizeof(*n), 0); /* aligned to its lines */

	if (!n)
		return -1;
	for (i = 0; i < c->count; i++)
		n[i] = c->ring[(c->head + i) & (c->cap - 1)];
	if (!ring_in_slab(S, c))
		sim_free(c->ring);
	c->ring = n;
	c->cap = ncap;
	c->head = 0;
	return 0;
}

static inline int ring_push(struct sim *S, struct sim_cpu *c, const struct opp *o)
{
	if (c->count == c->cap && ring_grow(S, c))
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
	int64_t w = c->count ? sim_time_add(ring_head(c)->wake_ns, ring_head(c)->late_ns)
			     : SIM_TIME_NEVER;

	/* a running tick inside the ending hrtimer's slack runs that timer: the real wakeup */
	if (c->count && ring_head(c)->slack_ns && !is_polling(S, c->state) && c->first_tick_ns < w &&
	    c->first_tick_ns >= w - ring_head(c)->slack_ns)
		w = c->first_tick_ns;
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
__attribute__((noinline, cold)) int gov_file_error(struct sim *S, const struct cpuidle_governor *g,
						    struct sim_error *err, const char *fn,
						    int outcome, int bad, int cpu, uint64_t decision,
						    int64_t t)
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
		return sim_error_set(err, SIM_ERR_INPUT, g->file, 0, 0, "%s() %s %s", fn, what,
				     where);
	return sim_error_set(err, SIM_ERR_INPUT, g->file, 0, 0,
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
	return gov_file_error(S, S->gov, S->err, "select", outcome, idx, c->id, decisions(c) + 1, t);
}

/* reflect(): 0, or -1 with S->err set. */
static __attribute__((noinline)) int guarded_reflect(struct sim *S, struct sim_cpu *c, int idx)
{
	struct cpuidle_device *dev = &c->dev;
	int outcome = S->gov->reflect ? govguard_reflect(S->guard, S->gov, dev, idx) : 0;

	return outcome ? gov_file_error(S, S->gov, S->err, "reflect", outcome, 0, c->id, decisions(c),
					dev->env.now_ns)
		       : 0;
}


/* Lockstep shadows (shadow_sync() in engine_int.h). Out of line: runs without shadows pay
 * one test. */
static __attribute__((noinline)) int shadows_select(struct sim *S, struct sim_cpu *c)
{
	const struct cpuidle_device *dev = &c->dev;
	int k;

	for (k = 0; k < S->nr_shadows; k++) {
		struct sim_shadow_rt *sh = &S->shadow[k];
		struct cpuidle_device *sd = &sh->devs[c->id];
		struct sim_shadow_choice *ch = &c->xb->dec.shadow[k];
		bool stop_tick = true;
		int idx = -1, outcome = 0;

		shadow_sync(sd, dev);
		sd->explain->nr = 0;
		if (sh->gov->file)
			outcome = govguard_select(S->guard, sh->gov, &S->drv, sd, &stop_tick, &idx);
		else
			idx = sh->gov->select(&S->drv, sd, &stop_tick);
		if (outcome || idx < 0 || idx >= S->drv.state_count) {
			if (sh->gov->file)
				return gov_file_error(S, sh->gov, S->err, "select", outcome, idx,
						      c->id, decisions(c) + 1, dev->env.now_ns);
			return internal_error(S, "governor returned a state index out of range",
					      c->id, dev->env.now_ns);
		}
		ch->state = idx;
		ch->stop_tick = stop_tick;
		ch->ex = sd->explain;
	}
	return 0;
}

/* Before the driver's reflect(): each shadow reflects on the entry the driver made. */
static __attribute__((noinline)) int shadows_reflect(struct sim *S, struct sim_cpu *c, int idx)
{
	int k;

	for (k = 0; k < S->nr_shadows; k++) {
		struct sim_shadow_rt *sh = &S->shadow[k];
		struct cpuidle_device *sd = &sh->devs[c->id];
		int outcome = 0;

		if (!sh->gov->reflect)
			continue;
		shadow_sync(sd, &c->dev);
		if (sh->gov->file)
			outcome = govguard_reflect(S->guard, sh->gov, sd, idx);
		else
			sh->gov->reflect(sd, idx);
		if (outcome)
			return gov_file_error(S, sh->gov, S->err, "reflect", outcome, 0, c->id,
					      decisions(c), c->dev.env.now_ns);
	}
	return 0;
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
	d->next_tick_ns = dev->env.next_tick_ns;
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
	/* tick_nohz_next_event(): with RCU callbacks, irq work or a timer softirq pending, the
	 * next event is basemono + TICK_NSEC, the next tick boundary, as if a wheel timer were due
	 * there: the tick is kept and the sleep length is at most delta_next. */
	if (t < o->keep_tick_until_ns && env->next_tick_ns < env->next_wheel_ns) {
		env->next_wheel_ns = env->next_tick_ns;
		env->next_timer_ns = sim_min64(env->next_timer_ns, env->next_tick_ns);
	}
	env->oracle_wake_ns = sim_time_add(o->wake_ns, o->late_ns);
	env->nr_iowait = o->iowait;
	env->load = o->load;
	if (dev->explain)
		explain_begin(S, c, t);
	if (__builtin_expect(S->nr_shadows != 0, 0) && shadows_select(S, c))
		return -1;

	if (__builtin_expect(S->guard != NULL, 0) && S->gov->file)
		idx = guarded_select(S, c, &stop_tick); /* checked: -1 with S->err set */
	else
		idx = S->gov->select(&S->drv, dev, &stop_tick);
	if (idx < 0 || idx >= S->drv.state_count)
		return S->gov->file ? -1
				: internal_error(S, "governor returned a state index out of range",
						 cpu_id(S, c), t);

	/* tick_nohz_idle_stop_tick(): the tick keeps running if a timer-wheel timer is due
	 * within the next tick period (tick_nohz_next_event(); in high-resolution mode
	 * get_next_timer_interrupt() ignores hrtimers); once stopped it stays stopped. */
	if (stop_tick && !env->tick_stopped && env->next_wheel_ns > env->next_tick_ns)
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

_Static_assert(LAT_BUCKETS % 4 == 0, "lat_unstage() tests four counters at a time");

int lat_unstage(struct sim_cpu *c)
{
	int b, k;

	/* four counters a test: most are 0, and every CPU's are walked at the end */
	for (b = 0; c->lat_stage && b < LAT_BUCKETS; b += 4) {
		uint64_t w;

		memcpy(&w, &c->lat_stage[b], sizeof(w));
		for (k = b; w && k < b + 4; k++)
			if (c->lat_stage[k]) {
				if (lat_hist_add_bucket(&c->st.wake_latency, k, c->lat_stage[k]))
					return -1;
				c->lat_stage[k] = 0;
			}
	}
	return 0;
}

/*
 * An irq/ipi wakeup's latency into the CPU's histogram. On large machines a CPU's buckets
 * (4 KB, in chunks) are cold at each visit and each sample missed the caches (docs/speed.md,
 * "Scale with CPUs"): once the exact table is full, bucketed samples are counted in the
 * CPU's lat_stage, one line per power of two, and added at the end (lat_unstage()); their
 * values go to the sum and maximum now. Same histogram: from then on order does not matter.
 */
static int add_latency(struct sim *S, struct sim_cpu *c, enum wake_cause cause, int64_t lat)
{
	struct lat_hist *h = &c->st.wake_latency;
	int b;

	if (cause != WAKE_IRQ && cause != WAKE_IPI)
		return 0;
	if (lat < 0)
		lat = 0;
	if (!c->lat_stage || h->nr_exact < LAT_EXACT || lat_hist_exact_of(h, lat) >= 0) {
		if (lat_hist_add(h, lat, 1))
			return sim_error_nomem(S->err, "");
		return 0;
	}
	b = lat_bucket_of(lat);
	if (++c->lat_stage[b] == UINT16_MAX) {
		if (lat_hist_add_bucket(h, b, UINT16_MAX))
			return sim_error_nomem(S->err, "");
		c->lat_stage[b] = 0;
	}
	h->sum_ns += lat;
	if (lat > h->max_ns)
		h->max_ns = lat;
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
void explain_truncated(struct sim *S, struct sim_cpu *c, int64_t end_ns)
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
bool sim_exiting(const struct sim *S, int cpu)
{
	return S->cpus[cpu].count == 0;
}

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
	c->trace_pos_ns = t == c->real_wake_ns ? ring_head(c)->wake_ns /* t, less any lateness */
						: sim_min64(ring_head(c)->wake_ns, S->end_ns);
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
	if (__builtin_expect(S->nr_shadows != 0, 0) && shadows_reflect(S, c, idx))
		return -1;
	if (__builtin_expect(S->guard != NULL, 0) && S->gov->file) {
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
 * Same results as run_global(), which tests check. The CPUs run core by core, each core's
 * spans charged as soon as its threads are done (energy_charge_core()), while their logs
 * are still in the caches: charged after every CPU, on 512 CPUs the logs had left them
 * (docs/speed.md, "Scale with CPUs").
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
	int nr_cores = energy_nr_cores(S->energy);

	while (S->lane_min_ns <= until_ns) {
		int64_t end = S->lane_min_ns < until_ns - slice_ns ? S->lane_min_ns + slice_ns
								   : until_ns;
		int64_t min_ns = SIM_TIME_NEVER;
		int g, k, n;

		for (g = 0; g < nr_cores; g++) {
			const int *cpus = energy_core_cpus(S->energy, g, &n);

			for (k = 0; k < n; k++) {
				struct sim_cpu *c = &S->cpus[cpus[k]];

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
			if (energy_charge_core(S->energy, g, end))
				return sim_error_nomem(S->err, "");
		}
		energy_charge_done(S->energy, end);
		S->lane_min_ns = min_ns;
	}
	return 0;
}

int sim_run_until(struct sim *S, int64_t until_ns, struct sim_error *err)
{
	S->err = err;
	return S->lanes ? run_lanes(S, until_ns) : run_global(S, until_ns);
}

/* ---- feeding ---- */

/* What a reader or an agent feeds a CPU: an idle period whose wakeup comes later (sim_idle)
 * or is known (sim_period), the wakeup of the open one, or an earlier wakeup of the last one. */
enum feed { FEED_IDLE, FEED_PERIOD, FEED_WAKE, FEED_REWAKE };

/*
 * The checks of everything fed, in one place: the CPU exists, the times are within the
 * engine's range (2^62 ns; the readers reject later ones, so that is the caller's bug, as
 * is any other failure here), and the order holds: a period starts after the last one and
 * not in the past, once the one before it has its wakeup; a wakeup ends the open period; a
 * rewake moves the last period's wakeup earlier, not into the past. For a period, o is it;
 * for a wakeup, o->wake_ns and o->cause are the wakeup's. Returns the CPU, or NULL with err
 * set.
 */
static inline struct sim_cpu *feed_check(struct sim *S, enum feed f, int cpu, const struct opp *o,
					 struct sim_error *err)
{
	static const char *const what[] = { "idle period", "idle period", "wakeup", "rewake" };
	struct sim_cpu *c;
	const struct opp *tail;
	int64_t t;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus) {
		sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "%s %s CPU %d", what[f],
			      f == FEED_REWAKE ? "of" : "for", cpu);
		return NULL;
	}
	c = &S->cpus[cpu];
	tail = c->count ? ring_tail(c) : NULL;
	t = f == FEED_IDLE ? o->start_ns : o->wake_ns;
	if (f != FEED_REWAKE && t > SIM_TIME_MAX_NS && (f != FEED_WAKE || t != SIM_TIME_NEVER)) {
		sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
			      "%s of CPU %d at %lld ns is beyond the engine's limit, 2^62 ns",
			      what[f], cpu, (long long)t);
		return NULL;
	}
	switch (f) {
	case FEED_IDLE: /* its wake_ns is SIM_TIME_NEVER and its cause WAKE_TIMER */
	case FEED_PERIOD:
		if ((tail && tail->wake_ns == SIM_TIME_NEVER) || o->start_ns < c->last_start_ns ||
		    o->start_ns < S->now_ns || o->wake_ns < o->start_ns || o->cause > WAKE_IPI ||
		    o->next_wheel_ns < o->next_timer_ns)
			break;
		return c;
	case FEED_WAKE:
		if (!tail || tail->wake_ns != SIM_TIME_NEVER || o->wake_ns < tail->start_ns ||
		    o->wake_ns == SIM_TIME_NEVER || o->cause > WAKE_IPI)
			break;
		return c;
	case FEED_REWAKE:
		if (!tail || tail->wake_ns <= o->wake_ns || o->wake_ns < S->now_ns ||
		    o->wake_ns < tail->start_ns || o->cause > WAKE_IPI)
			break;
		return c;
	}
	sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "%s of CPU %d at %lld ns %s", what[f], cpu,
		      (long long)(f <= FEED_PERIOD ? o->start_ns : o->wake_ns),
		      f <= FEED_PERIOD ? "fed out of order"
		      : f == FEED_WAKE ? "without an open idle period"
				       : "is not earlier");
	return NULL;
}

/* Queue a checked period on its CPU. */
static inline int feed_period(struct sim *S, enum feed f, int cpu, const struct opp *o,
			      struct sim_error *err)
{
	struct sim_cpu *c = feed_check(S, f, cpu, o, err);

	if (!c)
		return -1;
	if (ring_push(S, c, o))
		return sim_error_nomem(err, "");
	c->fed++;
	c->last_start_ns = o->start_ns;
	if (c->phase == CPU_BUSY && c->count == 1)
		plan_enter(S, c);
	return 0;
}

/* Set the wakeup of the CPU's last period, after the check of f. */
static inline int feed_wakeup(struct sim *S, enum feed f, int cpu, int64_t wake_ns,
			      enum wake_cause cause, bool no_resched, struct sim_error *err)
{
	const struct opp w = { .wake_ns = wake_ns, .cause = (uint8_t)cause };
	struct sim_cpu *c = feed_check(S, f, cpu, &w, err);
	struct opp *o;

	if (!c)
		return -1;
	o = ring_tail(c);
	o->wake_ns = wake_ns;
	o->cause = cause;
	o->no_resched = no_resched;
	if (c->phase == CPU_IDLE && c->count == 1)
		plan_wakeup(S, c);
	return 0;
}

int sim_idle(struct sim *S, int cpu, int64_t start_ns, int64_t next_timer_ns, int64_t next_wheel_ns,
	     unsigned int iowait, unsigned long load, struct sim_error *err)
{
	const struct opp o = { .start_ns = start_ns, .wake_ns = SIM_TIME_NEVER,
			       .next_timer_ns = next_timer_ns, .next_wheel_ns = next_wheel_ns,
			       .load = (uint32_t)load, .iowait = iowait, .cause = WAKE_TIMER };

	if (load > UINT32_MAX)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "idle period of CPU %d: load %lu out of range", cpu, load);
	return feed_period(S, FEED_IDLE, cpu, &o, err);
}

int sim_period(struct sim *S, int cpu, int64_t start_ns, int64_t wake_ns, int64_t late_ns,
	       enum wake_cause cause, bool no_resched, int64_t next_timer_ns, int64_t next_wheel_ns,
	       unsigned int iowait, unsigned long load, struct sim_error *err)
{
	const struct opp o = { .start_ns = start_ns, .wake_ns = wake_ns,
			       .next_timer_ns = next_timer_ns, .next_wheel_ns = next_wheel_ns,
			       .load = (uint32_t)load, .iowait = iowait,
			       .late_ns = (int32_t)late_ns, .cause = (uint8_t)cause,
			       .no_resched = no_resched };

	if (load > UINT32_MAX || late_ns < 0 || late_ns > INT32_MAX ||
	    (unsigned int)cause > WAKE_IPI)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "idle period of CPU %d: load %lu, lateness %lld ns or cause "
				     "%d out of range", cpu, load, (long long)late_ns, (int)cause);
	return feed_period(S, FEED_PERIOD, cpu, &o, err);
}

int sim_keep_tick(struct sim *S, int cpu, int64_t until_ns, struct sim_error *err)
{
	struct sim_cpu *c;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus || !S->cpus[cpu].count)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "keep-tick of CPU %d without a fed idle period", cpu);
	c = &S->cpus[cpu];
	ring_tail(c)->keep_tick_until_ns = until_ns;
	return 0;
}

int sim_timer_slack(struct sim *S, int cpu, int64_t slack_ns, struct sim_error *err)
{
	struct sim_cpu *c;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus || !S->cpus[cpu].count || slack_ns < 0)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "timer slack of CPU %d without a fed idle period", cpu);
	c = &S->cpus[cpu];
	ring_tail(c)->slack_ns = slack_ns;
	return 0;
}

bool sim_tick_stopped(const struct sim *S, int cpu)
{
	const struct sim_cpu *c = &S->cpus[cpu];

	return c->phase != CPU_BUSY && c->dev.env.tick_stopped;
}

int sim_wake(struct sim *S, int cpu, int64_t wake_ns, enum wake_cause cause, bool no_resched,
	     struct sim_error *err)
{
	return feed_wakeup(S, FEED_WAKE, cpu, wake_ns, cause, no_resched, err);
}

int sim_rewake(struct sim *S, int cpu, int64_t wake_ns, enum wake_cause cause,
	       struct sim_error *err)
{
	return feed_wakeup(S, FEED_REWAKE, cpu, wake_ns, cause, false, err);
}

void sim_agent_timer(struct sim *S, uint32_t id, int64_t t_ns)
{
	uint32_t item = (uint32_t)S->cfg.nr_cpus + id;

	if (t_ns == SIM_TIME_NEVER)
		eventq_remove(S->q, item);
	else
		eventq_set(S->q, item, t_ns, PRIO_AGENT);
}

void sim_prefetch_cpu(const struct sim *S, int cpu, int stage)
{
	const struct sim_cpu *c;

	if (cpu < 0 || cpu >= S->cfg.nr_cpus)
		return;
	c = &S->cpus[cpu];
	if (stage == 0) {
		/* the fields feed_check() and feed_period() read: the struct's first line */
		__builtin_prefetch(&c->ring, 1);
	} else if (c->cap) {
		/* the last period (checked, or given its wakeup) and the next free slot */
		__builtin_prefetch(&c->ring[(c->head + c->count - 1) & (c->cap - 1)], 1);
		__builtin_prefetch(&c->ring[(c->head + c->count) & (c->cap - 1)], 1);
	}
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
