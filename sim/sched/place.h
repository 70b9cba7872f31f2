/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * place.h - wakeup placement of the fair class: which CPU a waking task is queued on
 * (kernel/sched/fair.c, v6.12.118: select_task_rq_fair's fast path, wake_wide, wake_affine,
 * select_idle_sibling). place.c opens with the rules and every simplification.
 *
 * A struct sched_place holds the machine's topology (SMT siblings; the LLC is the package)
 * and the per-CPU state placement reads: each run queue's nr_running (a CPU is idle, the
 * kernel's available_idle_cpu(), when it is 0) and, per LLC, the has_idle_cores hint and
 * nr_idle_scan. The caller keeps that state current: placement itself only changes the
 * wakee's recent_used_cpu, the waker's wakee flips and the has_idle_cores hint, as the
 * kernel does. Nothing is global: two contexts never share anything.
 */
#ifndef IDLESIM_SCHED_PLACE_H
#define IDLESIM_SCHED_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/machine/machine.h"

/* Wake flags, kernel/sched/sched.h (v6.12). Only these two are read. */
#define WF_SYNC 0x10	    /* the waker goes to sleep after the wakeup */
#define WF_CURRENT_CPU 0x40 /* prefer the waking CPU, if the task may run there */

/* What the kernel keeps in a task_struct for placement. */
struct sched_task {
	int cpu;	     /* task_cpu(p): where it last ran, the wakeup's prev_cpu */
	int recent_used_cpu; /* p->recent_used_cpu; -1: none yet (never a candidate) */
	/* record_wakee()/wake_wide() bookkeeping, of this task as a waker */
	unsigned int wakee_flips;
	int64_t wakee_flip_decay_ns; /* wakee_flip_decay_ts, in ns */
	const struct sched_task *last_wakee;
	/* p->cpus_ptr: nr_cpus flags, or NULL for every CPU (the usual case) */
	const bool *cpus_allowed;
};

/* Who wakes: the CPU the wakeup runs on and the task running there ("current"). */
struct sched_waker {
	int cpu;		 /* smp_processor_id() */
	struct sched_task *task; /* current; NULL: an interrupt on an idle CPU (no task) */
	bool per_cpu_kthread;	 /* is_per_cpu_kthread(current) && in_task() */
};

struct sched_place;

/* A context for m's topology, every CPU idle (nr_running 0) and every LLC's has_idle_cores
 * set, as after each CPU went idle; nr_idle_scan is the LLC's size (a full scan). NULL if
 * memory is exhausted. */
struct sched_place *sched_place_new(const struct machine *m);
void sched_place_free(struct sched_place *sp);

int sched_place_nr_cpus(const struct sched_place *sp);
/* The topology placement uses: a CPU's LLC (its package), its core (numbered over the
 * machine), and whether cores have SMT siblings. */
int sched_place_llc_of(const struct sched_place *sp, int cpu);
int sched_place_core_of(const struct sched_place *sp, int cpu);
bool sched_place_smt(const struct sched_place *sp);
/* The CPUs of cpu's LLC (sd_llc's span) and of its core (cpu_smt_mask()), in ascending
 * order, *nr of them: the arrays live as long as sp. */
const int *sched_place_llc_cpus(const struct sched_place *sp, int cpu, int *nr);
const int *sched_place_smt_cpus(const struct sched_place *sp, int cpu, int *nr);

/* Set a run queue's nr_running. When a CPU becomes idle (n drops to 0), the kernel's
 * update_idle_core() runs: has_idle_cores is set if every SMT sibling is idle too. */
void sched_place_set_nr_running(struct sched_place *sp, int cpu, unsigned int n);
unsigned int sched_place_nr_running(const struct sched_place *sp, int cpu);

/* available_idle_cpu(): nothing runs or is queued on cpu. */
bool sched_place_cpu_idle(const struct sched_place *sp, int cpu);

/* The LLC of cpu's sd_llc_shared fields: has_idle_cores, and nr_idle_scan, the number of
 * CPUs select_idle_cpu() may look at (SIS_UTIL), set directly or by
 * sched_update_idle_cpu_scan(). */
bool sched_place_has_idle_cores(const struct sched_place *sp, int cpu);
void sched_place_set_nr_idle_scan(struct sched_place *sp, int cpu, int nr_idle_scan);
int sched_place_nr_idle_scan(const struct sched_place *sp, int cpu);
/* update_idle_cpu_scan(): nr_idle_scan of dst_cpu's LLC from sum_util, the sum of its CPUs'
 * cpu_util_cfs() (0..1024 each), as a periodic balance of the LLC domain sets it. */
void sched_update_idle_cpu_scan(struct sched_place *sp, int dst_cpu, unsigned long sum_util);

/* A task with prev_cpu p->cpu, where it may run everywhere. */
void sched_task_init(struct sched_task *p, int prev_cpu);

/*
 * select_task_rq_fair(p, p->cpu, wake_flags | WF_TTWU) for a wakeup by w at now_ns: the CPU
 * p is to be queued on. Updates p->recent_used_cpu, w->task's wakee flips and the
 * has_idle_cores hint as the kernel does; does not move p (the caller sets p->cpu and
 * nr_running when it enqueues). p->cpu must be a CPU p may run on, as in the kernel, which
 * moves a task off the CPUs its new mask excludes; then the result is allowed too, and
 * select_task_rq()'s select_fallback_rq() is never needed.
 */
int sched_select_cpu(struct sched_place *sp, struct sched_task *p, const struct sched_waker *w,
		     int wake_flags, int64_t now_ns);

#endif
