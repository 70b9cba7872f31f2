/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loop_sched.h - the closed loop with a scheduler (loop_world.sched): what loop.c calls.
 * Not for use outside sim/sched/loop*.c; sim/sched/loop_sched.c says how it works.
 */
#ifndef IDLESIM_SCHED_LOOP_SCHED_H
#define IDLESIM_SCHED_LOOP_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/error.h"
#include "sim/machine/machine.h"
#include "sim/sched/loop.h"
#include "sim/sched/pelt.h"
#include "sim/sched/place.h"
#include "sim/sched/rq.h"

struct loop;

/* A task: what the kernel keeps for it (entity, placement), and the work it has. */
struct ltask {
	struct sched_entity se; /* first: an entity's task is the entity cast */
	struct sched_task pl;
	struct loop_item *q; /* its work that has arrived, in order: a FIFO */
	size_t head, n, cap;
	int64_t left_ns;     /* work left of q[head]; -1: not started */
	int64_t refill_ns;   /* added to its next item's work: it moved (loop_world.refill_ns) */
	bool known;	     /* it has woken once (it exists) */
	bool runnable;	     /* on a run queue, queued or running */
	bool *mask;	     /* its affinity when pinned (pl.cpus_allowed) */
	int iowait_cpu;	     /* the run queue whose nr_iowait it adds to, -1: none */
	int64_t queued_ns;   /* since when it waits to run (runnable, not running) */
	int tid;
	struct loop_task_stats st;
};

/* The scheduler's side of a CPU. */
struct lscpu {
	struct sched_rq rq;
	struct ltask *curr;	/* the task it runs (NULL: none, or only kernel work) */
	int64_t curr_since_ns;	/* since when (its segment, loop_keep_segment()) */
	int64_t seg_start_ns;	/* since when the current work has been running */
	int64_t timer_ns;	/* its agent timer, SIM_TIME_NEVER: none */
	int64_t kleft_ns;	/* work left of the kernel item (lcpu.cur) it runs */
	struct loop_item *kq;	/* kernel work arrived, waiting: a FIFO */
	size_t khead, kn, kcap;
	int64_t avg_idle_ns;	/* rq->avg_idle */
	int64_t idle_stamp_ns;	/* rq->idle_stamp, 0: none */
	bool ilb;		/* kicked to balance for the NOHZ idle CPUs */
	/* periodic balance, per domain level (SMT, LLC, machine): sd->balance_interval (ms),
	 * sd->last_balance, sd->nr_balance_failed; and rq->next_balance */
	int balance_interval_ms[3];
	/* the domains' spans (sd_weight) at levels SMT, LLC, machine; 0: no such domain (one
	 * CPU, or the same span as the level below: the kernel degenerates it). Per CPU: on a
	 * hybrid part an E-core has no SMT domain */
	int dom_weight[3];
	int64_t last_balance_ns[3];
	int nr_balance_failed[3];
	int64_t next_balance_ns;
	/* cfs_rq->avg's utilisation, brought up to date when a task starts or stops running
	 * here and when read; pelt_running: whether one ran since its last update */
	struct sched_avg avg;
	bool pelt_running;
	struct loop_cpu_stats st;
};

struct lsched {
	struct sched_place *sp;
	struct lscpu *cpu;
	struct ltask **task; /* by tid - 1; NULL until it first wakes */
	int nr_tasks, cap_tasks;
	int cur_cpu;		/* the CPU whose work the model is reacting to, -1: none */
	struct ltask *cur_task; /* the task whose item the model is reacting to */
	int64_t next_balance_ns; /* nohz.next_balance */
	int nr_overloaded;	 /* run queues with two tasks or more */
	int nr_cpus;
	int64_t last_pass_ns; /* the jiffy edge of the last periodic balance pass */
	int *ov, nr_ov;	      /* during a pass: the CPUs with two tasks or more */
	/* per LLC: when its nr_idle_scan is next due for an update at a wakeup (SIS_UTIL,
	 * update_idle_cpu_scan(); loop_sched.c) */
	int64_t *sis_next_ns;
};

/* Build the scheduler for L's CPUs on machine m's topology (NULL: single-thread cores of
 * one package). Returns 0 or -1 with err set. */
int loop_sched_init(struct loop *L, const struct machine *m, struct sim_error *err);
void loop_sched_free(struct loop *L);
/* loop_send() of an item with the scheduler (x has its seq). */
int loop_sched_send(struct loop *L, const struct loop_item *x, struct sim_error *err);
/* The engine says `cpu` runs again at t, and its agent timer. */
int loop_sched_ready(struct loop *L, int cpu, int64_t t, struct sim_error *err);
int loop_sched_timer(struct loop *L, int cpu, int64_t t, struct sim_error *err);
/* loop_iowait() with the scheduler: a task's count goes where it slept. */
void loop_sched_iowait(struct loop *L, int cpu, int delta);
/* The segments still open at the end of the run (L->tl set). */
void loop_sched_close_segments(struct loop *L);
/* Move the statistics into out (and zero them in L). Returns 0 or -1 (no memory). */
int loop_sched_result(struct loop *L, struct loop_sched_stats *out);

#endif
