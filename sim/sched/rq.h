/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rq.h - a CPU's run queue of the fair class, EEVDF as in kernel/sched/fair.c v6.12.118:
 * update_curr, update_deadline, avg_vruntime, entity_eligible, place_entity, pick_eevdf
 * (RUN_TO_PARITY), check_preempt_wakeup_fair (PREEMPT_SHORT). rq.c opens with the rules
 * and every simplification.
 *
 * The caller owns the entities (one per task) and drives the run queue as the kernel's core
 * scheduler does: enqueue on wakeup, then ask whether the wakee preempts; dequeue on block;
 * a tick at each jiffy while a task runs; and, whenever need_resched is set, a pick (the
 * kernel's schedule()). A pick returning NULL means the CPU idles. Times are ns; virtual
 * times (vruntime, deadline, lag) are ns of a NICE_0 task's runtime. Nothing is global.
 */
#ifndef IDLESIM_SCHED_RQ_H
#define IDLESIM_SCHED_RQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* scale_load_down(NICE_0_LOAD): the weight of a nice-0 task. */
#define NICE_0_LOAD 1024L

/* sysctl_sched_base_slice before scaling (normalized_sysctl_sched_base_slice), v6.12.118. */
#define SCHED_BASE_SLICE_NORMALIZED_NS 700000LL

/* enqueue_entity() flags that placement reads (kernel/sched/sched.h). */
#define ENQUEUE_WAKEUP 0x01
#define ENQUEUE_INITIAL 0x80 /* a new task: half a slice to its first deadline */

/* What the kernel keeps in a sched_entity for EEVDF. */
struct sched_entity {
	long weight;		      /* scale_load_down(se->load.weight) */
	int64_t vruntime_ns;	      /* se->vruntime */
	int64_t deadline_ns;	      /* se->deadline (virtual) */
	int64_t slice_ns;	      /* se->slice (real time) */
	int64_t custom_slice_ns;      /* sched_attr.sched_runtime; 0: the base slice */
	int64_t vlag_ns;	      /* se->vlag; while curr, the deadline stashed at pick */
	int64_t exec_start_ns;	      /* when it last started running or was accounted */
	int64_t sum_exec_runtime_ns;  /* total time it ran */
	bool on_rq;		      /* runnable (queued or running) */
};

struct sched_rq {
	struct sched_entity **queued; /* the runnable entities but curr (the kernel's tree) */
	size_t nr_queued, cap;
	struct sched_entity *curr;    /* cfs_rq->curr: set by a pick, may be off the rq */
	unsigned int nr_running;      /* cfs_rq->nr_running: queued + curr if on_rq */
	int64_t zero_vruntime_ns;     /* cfs_rq->zero_vruntime: v0 of the sums below */
	int64_t avg_vruntime;	      /* sum over queued of (vruntime - v0) * weight */
	long avg_load;		      /* sum over queued of weight */
	int64_t base_slice_ns;	      /* sysctl_sched_base_slice, scaled */
	int64_t tick_ns;	      /* TICK_NSEC, the floor of the lag limit */
	bool need_resched;	      /* TIF_NEED_RESCHED of the running task */
};

/* sysctl_sched_base_slice on nr_cpus online CPUs: the normalised 0.70 ms times
 * get_update_sysctl_factor() (SCHED_TUNABLESCALING_LOG): 1 + ilog2(min(nr_cpus, 8)). */
int64_t sched_base_slice_ns(int nr_cpus);

/* An empty run queue of a machine with nr_cpus online CPUs and a tick of tick_ns. */
void sched_rq_init(struct sched_rq *rq, int nr_cpus, int64_t tick_ns);
void sched_rq_release(struct sched_rq *rq);

/* A nice-0 task that has never run: no lag, the base slice. */
void sched_entity_init(struct sched_entity *se);

/* update_curr(): account curr's runtime up to now_ns; sets need_resched once its vruntime
 * reaches its deadline (a new deadline is set) if another task is runnable. */
void sched_rq_update_curr(struct sched_rq *rq, int64_t now_ns);

/* enqueue_entity(): a waking (ENQUEUE_WAKEUP) or new (| ENQUEUE_INITIAL) task is placed
 * with its lag and queued. Returns 0, or -1 if memory is exhausted (nothing changed). */
int sched_rq_enqueue(struct sched_rq *rq, struct sched_entity *se, int flags, int64_t now_ns);

/* check_preempt_wakeup_fair() after se's enqueue: whether se preempts curr (need_resched is
 * then set). With no task running (the idle task is curr) a wakeup always preempts. If
 * need_resched is already set it returns false at once: the pick to come decides. */
bool sched_rq_wakeup_preempt(struct sched_rq *rq, struct sched_entity *se, int64_t now_ns);

/* dequeue_entity(DEQUEUE_SLEEP): se blocks. If it is curr it stays curr, off the rq, until
 * the next pick (need_resched is set). */
void sched_rq_dequeue(struct sched_rq *rq, struct sched_entity *se, int64_t now_ns);

/* task_tick_fair() -> entity_tick(): update_curr at a tick. Returns need_resched. */
bool sched_rq_tick(struct sched_rq *rq, int64_t now_ns);

/* schedule()'s pick_next_task_fair(): pick_eevdf with curr still in place, then curr goes
 * back to the queue (if runnable) and the pick becomes curr, its slice protected. Clears
 * need_resched. NULL (curr NULL too): nothing is runnable, the CPU goes idle. */
struct sched_entity *sched_rq_pick_next(struct sched_rq *rq, int64_t now_ns);

/* Nothing runnable: at the next pick this CPU goes idle (rq->nr_running == 0). */
bool sched_rq_idle(const struct sched_rq *rq);

/* entity_eligible(): se's vruntime is at most the load-weighted average (lag >= 0). */
bool sched_rq_entity_eligible(const struct sched_rq *rq, const struct sched_entity *se);

#endif
