/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loop.h - closed-loop workloads: the workload runs inside the engine, so the exit latency
 * of the state a CPU chose delays the work it was woken for, and everything that follows.
 *
 * A workload model deals in items: a piece of work that arrives on a CPU at some time, by
 * some cause (an IPI for a message from another CPU, an IRQ for a device completion, a
 * timer), and takes some time to run. Each CPU runs its items one at a time, in order of
 * arrival; an item that arrives while the CPU is idle wakes it, with the cause's kind of
 * wakeup; one that arrives while it works waits. When an item's work is done, the model
 * reacts (sends the next items: a response, the next request, an I/O submission) and may
 * report a completed request with its latency and size. The loop turns this into the
 * engine's idle periods and wakeups as the simulation goes.
 *
 * Throughput and request latency are what a benchmark would report; the idle statistics
 * and energy come from the engine as for any replay.
 *
 * The oracle knows the future only when the future does not depend on its own choices,
 * which a closed loop does not grant. So for the oracle loop_run() simulates the loop on a
 * machine whose states cost no exit latency (pass 1, on a POLL-only copy of the machine):
 * its throughput and request latency bound every governor's. It keeps that run's idle
 * periods and replays them through the oracle on the real machine (pass 2, a work-
 * conserving replay like any other) for the idle statistics and energy: the oracle's
 * choices for that work. Pass 1 keeps its periods in memory: closed-loop runs are meant to
 * be seconds of simulated time.
 */
#ifndef IDLESIM_SCHED_LOOP_H
#define IDLESIM_SCHED_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/engine/engine.h"
#include "sim/engine/stats.h"

struct loop;

struct loop_item {
	int cpu;	       /* where it runs */
	int64_t arrival_ns;    /* when it arrives there */
	int64_t work_ns;       /* CPU time it needs */
	enum wake_cause cause; /* how its arrival wakes an idle CPU: ipi, irq or timer */
	bool hrtimer;	       /* a timer item that is an hrtimer: the governor's sleep length
				* sees it, the tick-stop rule (timer-wheel timers only) does not */
	/* Timer-wheel flags (include/linux/timer.h). deferrable: TIMER_DEFERRABLE, it never
	 * wakes an idle CPU nor counts in its sleep length, and runs when the CPU next runs.
	 * global: not TIMER_PINNED; with loop_world.tmigr (v6.9+ timer migration) an idle
	 * CPU hands it to the hierarchy (sim/sched/loop.c says where it then runs). */
	bool deferrable, global;
	/* Its work queues RCU callbacks: the CPU keeps its tick until they are invoked
	 * (loop_world.rcu_jiffies after the work ends). */
	bool rcu;
	/*
	 * The task the work runs in, for --placement sched (loop_world.sched): 1, 2, ... (the
	 * model's thread number + 1); 0: the CPU's own kernel work (interrupt handlers, timer
	 * callbacks, per-CPU kthreads), which runs on .cpu, ahead of any task. With the
	 * scheduler, .cpu of a task's item is where its wakeup comes from: an ipi item sent at
	 * the current time is a wakeup by the running task (the waker's CPU), anything else an
	 * interrupt on .cpu whose handler wakes the task; the first wakeup of a task starts it
	 * on .cpu. Without the scheduler, tid is ignored and .cpu is where the work runs.
	 */
	int tid;
	bool sync;   /* WF_SYNC: the waker is about to sleep (a socket's sync wakeup) */
	bool pinned; /* the task may run only on .cpu (its affinity: sched_setaffinity) */
	/* the model's own: */
	int kind;
	int task;
	int64_t stamp_ns; /* e.g. when the request it answers was sent */
	/* set by the loop: */
	int64_t start_ns; /* when the CPU started its work */
	uint64_t seq;
};

struct loop_model_ops {
	/* Send the first items (the loop has started; time is the start of the run). */
	int (*start)(void *model, struct loop *L, struct sim_error *err);
	/* The CPU finished an item at t: send what follows. */
	int (*done)(void *model, struct loop *L, const struct loop_item *it, int64_t t,
		    struct sim_error *err);
	/*
	 * Optional: the expiry (a jiffy edge, loop_wheel_expiry()) of the earliest global
	 * timer-wheel timer the model keeps armed on `cpu` at t, which is always re-armed
	 * before it expires (TCP's delayed-ACK and retransmission timers, pushed forward by
	 * every segment), so it never fires; the governor's sleep length sees it as the timer
	 * world says (loop_world.tmigr). SIM_TIME_NEVER if none.
	 */
	int64_t (*armed_timer)(void *model, int cpu, int64_t t);
	/* Optional: task tid's command name, as ps and ftrace's comm-pid show it (a string
	 * that outlives the run, e.g. "tbench_srv"); NULL: every task is "task". */
	const char *(*task_comm)(void *model, int tid);
};

/*
 * The kernel's timer world around a model (docs/workloads.md "Timers"), set by the model's
 * start(); the zero value is the v6.8 push model with no RCU keep-tick.
 *  tmigr        v6.9+ timer migration (kernel/time/timer_migration.c): an idle CPU's
 *               global timer-wheel timers (item .global, the model's armed_timer) are
 *               not in its sleep length, unless due by the next jiffy or the CPU is the
 *               last active one; they run on an active CPU, else on the last to go idle;
 *  rcu_jiffies  an item with .rcu keeps its CPU's tick (rcu_needs_cpu()) until the tick
 *               this many jiffy edges after its work ends (0: never).
 */
struct loop_world {
	bool tmigr;
	int rcu_jiffies;
	/*
	 * The scheduler (sim/sched/loop_sched.c, docs/scheduler.md): items with a tid are
	 * tasks that it places at their wakeup (select_task_rq_fair), queues on the CPUs' run
	 * queues (EEVDF) and balances when a CPU is about to idle (sched_balance_newidle).
	 * false: every item runs on its .cpu in order of arrival (--placement pinned).
	 *  migration_cost_ns  sysctl_sched_migration_cost: a task that ran this recently is
	 *                     cache-hot (not pulled); avg_idle's start and cap derive from it
	 *  base_slice_ns      sysctl_sched_base_slice (0: the kernel's for the CPU count)
	 *  newidle_cost_ns    sd->max_newidle_lb_cost of each domain level (an assumption)
	 */
	bool sched;
	int64_t migration_cost_ns, base_slice_ns, newidle_cost_ns;
	/* refill_ns  CPU time a task's next work needs on top after it moved to another CPU
	 *            (a wakeup placed elsewhere, a pull): its caches refilled there; an
	 *            assumption, 0 by default (docs/scheduler.md) */
	int64_t refill_ns;
	/* The CPUs the model's unpinned tasks may run on (sched_setaffinity(), as taskset -c
	 * runs a benchmark), one flag per CPU of the run; NULL: all. A task whose first item
	 * names a CPU outside starts on the next allowed one. */
	const bool *affinity;
};
/* Set by the model's start(), before it sends anything. Returns 0 or -1 with err set. */
int loop_set_world(struct loop *L, const struct loop_world *w, struct sim_error *err);

/* The most tasks (tids) a run may have. */
#define LOOP_MAX_TASKS 65536

/*
 * The time a timer-wheel timer armed now with `timeout_ns` fires: expires = jiffies +
 * ceil(timeout / TICK_NSEC) (msecs_to_jiffies()), rounded up to its wheel level's bucket
 * (calc_wheel_index()), at that jiffy's edge on the run's grid.
 */
int64_t loop_wheel_expiry(const struct loop *L, int64_t timeout_ns);
/* The run's jiffy grid (sim/engine/wheel.h). */
const struct jiffy_grid *loop_grid(const struct loop *L);
/* The first jiffy edge at or after t (the periodic tick's own times). */
int64_t loop_jiffy_edge(const struct loop *L, int64_t t_ns);

/* Queue an item (arrival_ns >= now). Returns 0 or -1 with err set (out of memory). */
int loop_send(struct loop *L, const struct loop_item *it, struct sim_error *err);
/* A request completed: its latency, and the bytes it moved (0 if not counted). */
int loop_request_done(struct loop *L, int64_t latency_ns, uint64_t bytes, struct sim_error *err);
/* Tasks of `cpu` waiting for I/O: the nr_iowait of its next idle periods. */
void loop_iowait(struct loop *L, int cpu, int delta);
int64_t loop_now(const struct loop *L);
/* A uniform 64-bit random number from the run's seeded stream `stream` (0..LOOP_STREAMS-1). */
#define LOOP_STREAMS 16
uint64_t loop_rand(struct loop *L, int stream);
/* Uniform in [lo, hi] ns, and exponential with the given mean (>= 1 ns), from a stream. */
int64_t loop_uniform(struct loop *L, int stream, int64_t lo, int64_t hi);
int64_t loop_exp(struct loop *L, int stream, int64_t mean_ns);

/* What the scheduler did (loop_world.sched), per task and per CPU: schedstat's names. */
struct loop_task_stats {
	uint64_t wakeups;	     /* times it woke (nr_wakeups) */
	uint64_t wakeups_idle;	     /* ... placed on an idle CPU (that wakeup ended its idle) */
	uint64_t wakeups_busy;	     /* ... placed on a CPU that was running or had tasks */
	uint64_t migrations;	     /* nr_migrations: woken or pulled elsewhere than it ran */
	uint64_t pulls;		     /* moved by a newly-idle balance */
	uint64_t balance_pulls;	     /* moved by a periodic or NOHZ idle balance */
	uint64_t pcount;	     /* times it was switched to (schedstat's pcount) */
	int64_t run_delay_ns;	     /* time runnable but waiting (schedstat's run_delay) */
	int64_t runtime_ns;	     /* time it ran (sum_exec_runtime) */
	int last_cpu;
	const char *comm; /* the model's task_comm (static), for reports: comm-tid */
};
struct loop_cpu_stats {
	uint64_t wakeups_idle, wakeups_busy; /* task wakeups placed on this CPU */
	uint64_t migrations_in;		     /* tasks that came here from another CPU */
	uint64_t pulls;			     /* tasks this CPU pulled when newly idle */
	uint64_t balance_pulls;		     /* ... by periodic balance (its tick, or NOHZ) */
	uint64_t newidle_tries;		     /* newly-idle balances that ran (not skipped) */
	uint64_t switches;		     /* a task switched to (nr_switches, tasks only) */
	int64_t run_delay_ns;		     /* waits of the tasks queued here */
};
struct loop_sched_stats {
	int nr_cpus, nr_tasks; /* 0 tasks: no scheduler (pinned) */
	struct loop_cpu_stats *cpu;
	struct loop_task_stats *task; /* by tid - 1 */
};

/*
 * What ran where (loop_run_timeline()): per CPU, a segment per stretch in which one task
 * ran: from the switch to it until the switch away (it blocked, was preempted, went idle
 * with the CPU): what sched_switch shows; the interrupt and timer work (kernel items, tid
 * 0) as segments of their own, nested in the task segment they interrupted. Without the
 * scheduler (placement pinned) there are no tasks: each CPU's work, back-to-back items
 * merged, is a segment of tid LOOP_SEG_WORK.
 */
#define LOOP_SEG_WORK (-1)
struct loop_segment {
	int64_t start_ns, end_ns;
	int cpu;
	int tid;	/* the task (1, 2, ...); 0: kernel work; LOOP_SEG_WORK: pinned work */
	bool preempted; /* the task was still runnable when switched away (prev_state R+) */
};
/* A request for segments: those that overlap [from_ns, to_ns) (to_ns < 0: no end), at
 * most cap of them (0: no limit), as run.c bounds a timeline. */
struct loop_timeline {
	int64_t from_ns, to_ns;
	long cap;
};

struct loop_result {
	struct loop_sched_stats sched;
	/* with a loop_timeline: the segments, in the order they ended; cut: cap reached */
	struct loop_segment *segs;
	size_t nr_segs;
	bool segs_cut;
	struct run_stats stats; /* idle statistics and energy, as for a replay */
	uint64_t requests;
	uint64_t bytes;
	double duration_s;
	struct lat_hist latency; /* request latency */
};

/*
 * Run a model for duration_ns on cfg->nr_cpus CPUs of cfg->machine with cfg->gov (any
 * agent fields of cfg are ignored). Deterministic for a seed. Returns 0 with *out filled
 * (release with loop_result_release), or -1 with err set.
 */
int loop_run(const struct sim_config *cfg, const struct loop_model_ops *ops, void *model,
	     int64_t duration_ns, uint64_t seed, struct loop_result *out, struct sim_error *err);
/*
 * loop_run() that also keeps the segments tl asks for (tl NULL: none, as loop_run()). The
 * oracle's runs keep none: its work is pass 1's, on a machine without exit latency.
 */
int loop_run_timeline(const struct sim_config *cfg, const struct loop_model_ops *ops,
		      void *model, int64_t duration_ns, uint64_t seed,
		      const struct loop_timeline *tl, struct loop_result *out,
		      struct sim_error *err);
void loop_result_release(struct loop_result *r);

/*
 * Write the model's timeline on CPUs without exit latency (the one the oracle follows) as a
 * native idle-interval trace: what `idlesim gen` does for closed-loop workloads. hdr gives
 * hz, machine and source; the rest of the header is filled here. A progress bar goes to
 * `progress` (NULL: none) once it has taken 2 s. Returns 0 or -1.
 */
int loop_write_ideal(const struct loop_model_ops *ops, void *model, int nr_cpus,
		     int64_t duration_ns, uint64_t seed, const struct trace_header *hdr, FILE *f,
		     FILE *progress, struct sim_error *err);

#endif
