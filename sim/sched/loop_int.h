/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loop_int.h - the closed loop's state, shared by loop.c (items, the engine's agent,
 * pinned threads) and loop_sched.c (tasks the scheduler places and queues). Not for use
 * outside sim/sched/loop*.c.
 */
#ifndef IDLESIM_SCHED_LOOP_INT_H
#define IDLESIM_SCHED_LOOP_INT_H

#include "sim/sched/loop.h"
#include "sim/sched/loop_sched.h"

enum lstate { L_RUNNING, L_IDLE };

struct lcpu {
	enum lstate state;
	struct loop_item cur;	  /* the item being run */
	bool has_cur;
	struct loop_item *pending; /* heap by (arrival, seq) */
	size_t nr_pending, cap_pending;
	int iowait;
	/* the current idle period, as fed */
	int64_t idle_start_ns;
	int64_t wake_ns; /* SIM_TIME_NEVER while unknown */
	enum wake_cause wake_cause;
	int64_t next_timer_ns, next_wheel_ns;
	int idle_iowait;
	int64_t rcu_until_ns; /* RCU callbacks pending until this tick (0: none) */
	size_t last_seg;      /* with segments, pinned: its last one + 1 (0: none) */
	unsigned int nr_pooled; /* items of the global pool whose owner it is */
};

/* A period of pass 1, kept for pass 2. */
struct lperiod {
	int64_t start_ns, wake_ns, next_timer_ns, next_wheel_ns, keep_tick_until_ns;
	int cpu;
	enum wake_cause cause;
	int iowait;
};

struct loop {
	struct sim *S;
	const struct loop_model_ops *ops;
	void *model;
	int nr_cpus;
	struct lcpu *cpus;
	uint64_t rng[LOOP_STREAMS];
	uint64_t seq;
	int64_t start_ns, end_ns;
	uint64_t requests, bytes;
	struct lat_hist latency;
	bool record;
	struct lperiod *periods;
	size_t nr_periods, cap_periods;
	struct loop_world world;
	struct lcpu pool;  /* global timer items with world.tmigr (their .cpu: the owner) */
	int last_idle_cpu; /* the CPU that went idle last (-1: none yet) */
	int active_hint;   /* a CPU found active last time one was looked for: asked first */
	const struct machine *machine; /* the run's (its topology), NULL: none */
	struct lsched *sched;	       /* the scheduler, with world.sched */
	/* what ran where, when asked (loop_run_timeline()); tl NULL: nothing is kept */
	const struct loop_timeline *tl;
	struct loop_segment *segs;
	size_t nr_segs, cap_segs;
	bool segs_cut, segs_nomem;
};


/* Items of a CPU's heap, by (arrival, seq). */
bool loop_item_before(const struct loop_item *a, const struct loop_item *b);
int loop_push_item(struct lcpu *c, const struct loop_item *it);
void loop_pop_item(struct lcpu *c, struct loop_item *out);
/* Active for timer migration: running, or idle with its tick still running. */
bool loop_cpu_active(const struct loop *L, int cpu);
/* An item done at t that queued RCU callbacks keeps its CPU's tick (loop_world). */
void loop_rcu_queued(struct loop *L, int cpu, const struct loop_item *done, int64_t t);
/* Wake idle `cpu` at t by `cause` unless it wakes no later (loop_cpu.c). */
int loop_wake_idle(struct loop *L, int cpu, int64_t t, enum wake_cause cause,
		   struct sim_error *err);
/* Keep pass 1's period of `cpu` ending at wake_ns (when recording). */
int loop_record_period(struct loop *L, int cpu, int64_t wake_ns);
/* Keep the segment [start_ns, end_ns) of tid on `cpu` if the timeline wants it (L->tl set;
 * preempted: switched away still runnable); pinned work merges with the CPU's last
 * segment when that ends where this one starts. */
void loop_keep_segment(struct loop *L, int cpu, int tid, int64_t start_ns, int64_t end_ns,
		       bool preempted);
/* Feed the engine an idle period of `cpu` from t, with its wakeup if one is pending. */
int loop_go_idle(struct loop *L, int cpu, int64_t t, struct sim_error *err);

#endif
