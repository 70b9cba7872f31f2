/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * engine.h - the discrete-event engine: the kernel's idle loop on every CPU of a machine.
 *
 * The engine consumes two primitives per idle period of the workload, fed in the order of
 * the trace (see sim/engine/replay.c, which derives them from trace records):
 *
 *	sim_idle(S, cpu, start, next_timer, iowait, load)  the CPU runs out of work at start
 *	sim_wake(S, cpu, wake, cause, no_resched)           and is woken at wake by cause
 *
 * (no_resched: the wakeup's handler wakes no task, so the CPU stays in the idle loop and
 * its next period starts at that wakeup)
 *
 * and emulates cpuidle_idle_call() / cpuidle_enter_state() for each CPU: governor select
 * with stop_tick, tick stop or retain, enter, wakeup at the earliest of the real wakeup,
 * the tick and the POLL time limit, the kernel's usage/time/above/below accounting, reflect,
 * and re-entry after wakeups that bring no work. traces/FORMAT.md states the rules.
 *
 * Lookahead. The oracle needs to know each CPU's real wakeup in advance. The feeder must
 * therefore deliver every primitive whose time is at most t + sim_lookahead_ns() before
 * calling sim_run_until(S, t); the lookahead exceeds every target residency, exit latency
 * and the tick period, so the oracle's choices never depend on what lies beyond it. Memory
 * is bounded by the number of idle periods inside that window.
 *
 * All state hangs off struct sim: many simulations can run at once in one process.
 */
#ifndef IDLESIM_ENGINE_H
#define IDLESIM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "governors/governor.h"
#include "sim/base/error.h"
#include "sim/base/eventq.h"
#include "sim/machine/machine.h"
#include "sim/engine/stats.h"
#include "sim/trace/trace.h"
#include "sim/engine/wheel.h"

/*
 * Lockstep shadows (idlesim diff, sim/run/diff.h): governors asked at every decision of the
 * run with the driving governor's inputs, whose choices are reported but never entered.
 * Each keeps its own per-CPU data, fed the run's outcomes: before each of its calls its
 * device is the driver's (history, statistics, the tick, the timers), and reflect() gets
 * the index the driver entered.
 */
#define SIM_MAX_SHADOWS 2

struct sim_shadow {
	const struct cpuidle_governor *gov;
	const long long *gov_params; /* NULL = its defaults */
};

/* A shadow's answer to one decision; ex is the engine's, valid during the callback only. */
struct sim_shadow_choice {
	int state;
	bool stop_tick;
	const struct cpuidle_explain *ex;
};

/* One completed decision, for --explain: what the governor saw, chose, and what happened. */
struct sim_decision {
	int64_t time_ns; /* select time */
	int cpu;
	int64_t sleep_length_ns; /* tick_nohz_get_sleep_length(), KTIME_MAX if no timer */
	int64_t wheel_length_ns; /* to the earliest timer-wheel timer (the tick-stop rule reads
				  * only these); > sleep_length_ns: the next timer is an hrtimer */
	int64_t delta_tick_ns;
	int64_t next_tick_ns;	/* the next jiffy edge after time_ns (the tick, while it runs) */
	int64_t latency_req_ns;
	int64_t oracle_idle_ns; /* true time to the wakeup, KTIME_MAX beyond lookahead */
	bool tick_stopped_before;
	bool got_tick;		/* tick_nohz_idle_got_tick() would have returned */
	unsigned long nr_iowait;
	unsigned long load;	/* get_iowait_load()'s load (FIXED_1), if load_read */
	bool load_read;		/* the governor read it (menu@4.18) */
	int state;		/* returned by select() */
	bool stop_tick;		/* what the governor asked */
	bool tick_stopped_after; /* what the idle loop did */
	/* outcome */
	int64_t wake_ns;
	enum wake_cause cause;
	int64_t residency_ns; /* measured, as cpuidle_enter_state() computes it */
	int verdict;	      /* 0 hit, 1 above (too deep), 2 below (too shallow) */
	/* what reflect() saw, at the end of cpuidle_enter_state() */
	int64_t reflect_ns;    /* local_clock(): the wakeup plus the exit latency */
	bool reflect_got_tick; /* tick_nohz_idle_got_tick(), ticks during the exit included */
	bool poll_time_limit;  /* dev->poll_time_limit: the POLL time limit ended the entry */
	const struct cpuidle_explain *gov; /* the governor's own variables */
	bool first;	/* the first decision of an idle period (counted in idle_periods) */
	bool truncated;	/* the entry was still in progress at the end (explain_truncated):
			 * wake_ns = reflect_ns = the end, residency_ns = its truncated time */
	struct sim_shadow_choice shadow[SIM_MAX_SHADOWS]; /* sim_config.shadows' answers */
};

typedef void sim_explain_fn(void *ud, const struct sim_decision *d);

struct sim;

/*
 * An agent drives the workload from inside the engine (closed loop, sim/sched/loop.c) instead of
 * a trace: it is told, at the right moment of simulated time, when a CPU runs again after
 * a wakeup that ended its idle loop, and when one of its timers fires; from there it feeds
 * periods (sim_idle, sim_wake, sim_rewake) and sets timers (sim_agent_timer). Both callbacks
 * return 0, or -1 with err set.
 */
struct sim_agent_ops {
	int (*ready)(void *ctx, struct sim *S, int cpu, int64_t t_ns, struct sim_error *err);
	int (*timer)(void *ctx, struct sim *S, uint32_t id, int64_t t_ns, struct sim_error *err);
};

struct sim_config {
	const struct machine *machine;
	const struct cpuidle_governor *gov;
	const long long *gov_params; /* gov->nr_params values; NULL = the governor's defaults */
	int nr_cpus;		     /* CPUs replayed: 1..machine_nr_cpus(machine) */
	int hz;			     /* tick rate, 1..10000 */
	int64_t latency_req_ns;	     /* PM QoS limit; < 0 = no request (2e12 ns) */
	uint32_t disabled;	     /* bit i set: state i disabled on every CPU */
	enum eventq_impl queue;
	/* Run every CPU's events through the one queue even when they are independent (no
	 * agent, no decision log): the reference the faster per-CPU lanes are tested against. */
	bool global_order;
	sim_explain_fn *explain;     /* NULL = no decision log */
	void *explain_ud;
	long explain_limit;	     /* decisions to report; < 0 = all */
	bool explain_truncated;	     /* also report the entries the end cuts (timelines) */
	/* The hardware's actual wake latency (sim/machine/machine.h): what delays the work, enters the
	 * measured residency and runs at active power. Governors see the advertised one. The
	 * zero value, WAKE_MODEL_WORST, is the advertised latency; `measured` samples each
	 * state's distribution from a per-CPU stream seeded by wake_seed and the CPU number. */
	enum wake_model wake_model;
	uint64_t wake_seed;
	const struct sim_agent_ops *agent; /* NULL for replays of traces */
	void *agent_ctx;
	uint32_t agent_timers;	     /* timer ids 0..agent_timers-1 */
	/* replay_run() calls this every few hundred records with the trace time reached and
	 * the trace's span (end_ns < 0: unknown), for a progress bar. NULL = none. */
	void (*progress)(void *ud, int64_t at_ns, int64_t start_ns, int64_t end_ns);
	void *progress_ud;
	/* A governor file's calls (gov->file) are isolated (sim/engine/govguard.h); one that runs
	 * longer than this, in wall time, ends the run. 0: the default ($IDLESIM_GOVERNOR_TIMEOUT,
	 * else GOVGUARD_TIMEOUT_DEFAULT_NS, 5 s); < 0: no limit. Unused for built-in governors. */
	int64_t gov_timeout_ns;
	/* Lockstep shadows (at most SIM_MAX_SHADOWS): asked at every decision, reported through
	 * explain (which they require; explain_limit < 0), never entered. */
	const struct sim_shadow *shadows;
	int nr_shadows;
};

struct sim *sim_create(const struct sim_config *cfg, int64_t start_ns, struct sim_error *err);
void sim_destroy(struct sim *S);

int64_t sim_lookahead_ns(const struct sim *S);

/*
 * The run's jiffy grid (sim/engine/wheel.h): the tick fires on its edges, timer-wheel timers
 * expire on them. sim_create() puts an edge at start_ns; a trace's tick_phase moves it there
 * (before anything is fed).
 */
const struct jiffy_grid *sim_grid(const struct sim *S);
void sim_set_tick_phase(struct sim *S, int64_t phase_ns);

/*
 * Feed the idle period of `cpu` starting at start_ns (the CPU's periods must not overlap and
 * come in order). next_timer_ns is the absolute expiry of the earliest pending timer of any
 * kind, SIM_TIME_NEVER if none (the governor's sleep length); next_wheel_ns that of the
 * earliest timer-wheel timer (>= next_timer_ns; the tick-stop rule looks only at these,
 * tick_nohz_next_event() in high-resolution mode ignores hrtimers). Then its wakeup, with
 * sim_wake(). Return 0, or -1 with err set.
 */
int sim_idle(struct sim *S, int cpu, int64_t start_ns, int64_t next_timer_ns, int64_t next_wheel_ns,
	     unsigned int iowait, unsigned long load, struct sim_error *err);
int sim_wake(struct sim *S, int cpu, int64_t wake_ns, enum wake_cause cause, bool no_resched,
	     struct sim_error *err);

/*
 * Both at once, for a period whose wakeup is already known (idle-interval records). The
 * wakeup comes late_ns after the recorded wake_ns (a timer-wheel timer moved up to the jiffy
 * grid); the work it brings then runs that much behind the trace, as after an exit latency.
 */
int sim_period(struct sim *S, int cpu, int64_t start_ns, int64_t wake_ns, int64_t late_ns,
	       enum wake_cause cause, bool no_resched, int64_t next_timer_ns, int64_t next_wheel_ns,
	       unsigned int iowait, unsigned long load, struct sim_error *err);

/*
 * The CPU's last fed period: at every selection before until_ns, tick_nohz_next_event()
 * keeps the next tick (v6.12 tick-sched.c: rcu_needs_cpu(), irq_work_needs_cpu(), a pending
 * TIMER_SOFTIRQ), so the tick is not stopped and the sleep length ends at the next tick
 * boundary at the latest. Call it after sim_idle()/sim_period(), before the period starts.
 */
int sim_keep_tick(struct sim *S, int cpu, int64_t until_ns, struct sim_error *err);

/*
 * The CPU's last fed period ends at an hrtimer with slack_ns of slack (its wakeup is the
 * timer's hard expiry): an hrtimer interrupt from slack_ns before it runs the timer too
 * (v6.12 __hrtimer_run_queues() runs every timer whose soft expiry has passed), so a tick
 * that fires in that window, with the tick running, ends the period with that timer's
 * wakeup, and the work comes that much earlier. Call it before the period's wakeup is
 * fed (sim_period(), or sim_idle() then this then sim_wake()).
 */
int sim_timer_slack(struct sim *S, int cpu, int64_t slack_ns, struct sim_error *err);

/* The CPU is idle (or exiting) with its tick stopped: inactive for timer migration. */
bool sim_tick_stopped(const struct sim *S, int cpu);

/*
 * Move the wakeup of the CPU's last fed period to an earlier time (not before now): an
 * agent learns of an earlier wakeup (a message sent after a timer wakeup was set).
 */
int sim_rewake(struct sim *S, int cpu, int64_t wake_ns, enum wake_cause cause,
	       struct sim_error *err);

/*
 * The CPU's idle period has already ended and it is leaving the idle loop: a tick's (or
 * the POLL limit's) wakeup whose exit latency outlasted the period's own wakeup absorbed
 * it, and the agent hears `ready` when the exit is done. An earlier wakeup then has
 * nothing to move (sim_rewake() would find no open period).
 */
bool sim_exiting(const struct sim *S, int cpu);

/* Set agent timer `id` to fire at t_ns (not before now); SIM_TIME_NEVER cancels it. */
void sim_agent_timer(struct sim *S, uint32_t id, int64_t t_ns);

/* The current simulated time, and the state a CPU is in (-1 if it is not idle). */
int64_t sim_now(const struct sim *S);
int sim_cpu_state(const struct sim *S, int cpu);

/*
 * A hint, no effect on results: what feeding CPU cpu will touch is wanted soon. stage 0:
 * the CPU's own state; stage 1 (later, once that has arrived): the slots of its queue of
 * fed periods that the next sim_idle()/sim_period()/sim_wake() reads and writes.
 */
void sim_prefetch_cpu(const struct sim *S, int cpu, int stage);

/* Process every event due at or before until_ns. Returns 0 or -1 with err set. */
int sim_run_until(struct sim *S, int64_t until_ns, struct sim_error *err);

/*
 * The run ends at end_ns, if known before sim_finish() (the same value): an exit that runs
 * past the end leaves its entry truncated (see sim_finish). Replays need not call it (the
 * feeder never lets the engine near the end before sim_finish); agents do.
 */
void sim_set_end(struct sim *S, int64_t end_ns);

/*
 * Process what is left up to end_ns, close the accounting at end_ns and fill *out (the
 * caller releases it with run_stats_release). Energy is integrated over [start, end].
 */
int sim_finish(struct sim *S, int64_t end_ns, struct run_stats *out, struct sim_error *err);

#endif
