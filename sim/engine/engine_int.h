/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * engine_int.h - the engine's own state, shared by its two files and nothing else: the idle
 * loop and what is fed to it (sim/engine/engine.c), and a simulation's setup and finish
 * (sim/engine/engine_setup.c). Everyone else sees struct sim through sim/engine/engine.h.
 */
#ifndef IDLESIM_ENGINE_INT_H
#define IDLESIM_ENGINE_INT_H

#include "sim/engine/engine.h"

enum cpu_phase { CPU_BUSY, CPU_IDLE, CPU_EXITING };

/* Event kinds double as priorities at equal times: wakeups first, entries last. */
enum ev_kind { EV_NONE = -1, EV_WAKEUP = 0, EV_REENTER = 1, EV_READY = 2, EV_ENTER = 3 };

/* Queue items: one per CPU, then the agent's timers, which sort after CPU events. */
#define PRIO_AGENT 4

/*
 * An idle period of the workload, as fed by sim_idle()/sim_wake(): one cache line (the
 * feed writes it and a lane reads it back much later; on thousands of CPUs each is a miss,
 * and 80 bytes straddled two lines). The narrow fields are checked when fed (sim_period()).
 */
struct opp {
	int64_t start_ns;
	int64_t wake_ns; /* SIM_TIME_NEVER until sim_wake() */
	int64_t next_timer_ns;
	int64_t next_wheel_ns; /* earliest timer-wheel timer (>= next_timer_ns) */
	/* Before this time tick_nohz_next_event() keeps the next tick whatever the timers
	 * (rcu_needs_cpu(), irq work, a pending timer softirq): at a selection before it, a
	 * wheel event is due at the next tick boundary (sim_keep_tick()). 0: never. */
	int64_t keep_tick_until_ns;
	/* The hrtimer that ends the period may run from this long before wake_ns, at a tick
	 * (sim_timer_slack()). 0: none. */
	int64_t slack_ns;
	uint32_t load; /* FIXED_1 fixed point, below 2^32 (a trace's is below 1000000 * 2048) */
	uint32_t iowait;
	/* The wakeup comes this long after wake_ns, the trace's time (a timer-wheel wakeup of
	 * an idle record, moved up to the jiffy grid, so less than a jiffy): the work it brings
	 * runs behind. */
	int32_t late_ns;
	uint8_t cause; /* enum wake_cause */
	bool no_resched; /* the wakeup wakes no task: the idle loop goes on */
};
/* The rings are aligned to lines (sim_alloc_big()); the struct is not, so that a period
 * built on the stack costs no realignment of the frame. */
_Static_assert(sizeof(struct opp) == 64, "a queued period is one cache line");

struct sim_cpu {
	/* What feeding a period reads and writes (feed_check(), feed_period()), in the first
	 * cache line: on hundreds of CPUs each fed record finds its CPU cold, and one line is
	 * one miss (sim_prefetch_cpu()). */
	_Alignas(64) struct opp *ring; /* fed periods, head = current; bounded by the lookahead */
	uint32_t head, count, cap;
	enum cpu_phase phase;
	int64_t last_start_ns; /* start of the last period fed, for order checks */
	uint64_t fed;	       /* periods fed, for the conservation check */
	struct cpuidle_device dev; /* the kernel's view, statistics included */
	int id;
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
	/* Large machines: its wake latencies held back once its histogram's exact table is
	 * full, a 16-bit count per bucket (add_latency()); NULL otherwise. */
	uint16_t *lat_stage;
	struct cpu_stats st;	  /* counters not kept in dev.states_usage */
	uint64_t exit_lat_count[CPUIDLE_STATE_MAX]; /* irq/ipi wakeups that paid a full exit
						     * of a state with a fixed actual latency */
	uint64_t wake_rng;	  /* splitmix64 state: measured wake latencies */
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

/* A lockstep shadow (sim_config.shadows): its tunables, per-CPU data, devices and logs. */
struct sim_shadow_rt {
	const struct cpuidle_governor *gov;
	long long *params;
	unsigned char *gov_data;
	struct cpuidle_device *devs;   /* per CPU */
	struct cpuidle_explain *ex;    /* per CPU */
};

struct sim {
	struct sim_config cfg;
	struct cpuidle_driver drv;
	const struct cpuidle_governor *gov;
	long long *params; /* owned copy of the tunables */
	int64_t tick_nsec;
	struct jiffy_grid grid; /* where the tick and timer-wheel timers fire */
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
	/* On large machines every CPU's first ring, RING_SLAB_SLOTS slots each, in one block
	 * (init_cpus()); a ring that outgrows its part moves out. NULL below RING_SLAB_CPUS. */
	unsigned char *ring_slab;
	size_t ring_slab_bytes;
	uint16_t *lat_stage; /* the CPUs' lat_stage, LAT_BUCKETS each, in one block */
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
	struct sim_shadow_rt shadow[SIM_MAX_SHADOWS];
	int nr_shadows;
};

/* CPU c's ring is its part of S->ring_slab, freed with it. */
static inline bool ring_in_slab(const struct sim *S, const struct sim_cpu *c)
{
	uintptr_t r = (uintptr_t)c->ring, b = (uintptr_t)S->ring_slab;

	return S->ring_slab && r >= b && r < b + S->ring_slab_bytes;
}

/*
 * A lockstep shadow's device becomes the driver's before each of its calls (the history,
 * statistics, tick and timers the driver's governor sees), keeping its own per-CPU data,
 * tunables and log.
 */
static inline void shadow_sync(struct cpuidle_device *s, const struct cpuidle_device *d)
{
	void *data = s->governor_data;
	const long long *params = s->gov_params;
	struct cpuidle_explain *ex = s->explain;

	*s = *d;
	s->governor_data = data;
	s->gov_params = params;
	s->explain = ex;
}

/*
 * A governor file's call `fn` went wrong (outcome: the signal that ended it,
 * GOVGUARD_TIMEOUT, or 0 when it returned `bad`, out of range): an input error naming the
 * file, the call, the CPU, its decision and the trace time. Returns -1.
 */
int gov_file_error(struct sim *S, const struct cpuidle_governor *g, struct sim_error *err,
		   const char *fn, int outcome, int bad,
		   int cpu, uint64_t decision, int64_t t);

/* Add CPU c's held-back wake latencies (lat_stage) to its histogram: 0, or -1 (no memory). */
int lat_unstage(struct sim_cpu *c);

/* The decision log's entry cut by the end of the run (sim_finish()). */
void explain_truncated(struct sim *S, struct sim_cpu *c, int64_t end_ns);

#endif
