/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/sched/stat.h (iowait from the trace). */
#ifndef _IDLESIM_LINUX_SCHED_STAT_H
#define _IDLESIM_LINUX_SCHED_STAT_H

#include <linux/sched/loadavg.h>
#include <linux/smp.h>

/* Tasks in iowait on this CPU's runqueue (unsigned int before v6.x, unsigned long after). */
#define nr_iowait_cpu(cpu) ((void)(cpu), (unsigned long)idlesim_current_device()->env.nr_iowait)

/* v4.x: the iowaiters and the runqueue load (FIXED_1 fixed point) of this CPU. */
static inline void idlesim_get_iowait_load(struct cpuidle_device *cur, unsigned long *nr_waiters,
					   unsigned long *load)
{
	*nr_waiters = cur->env.nr_iowait;
	*load = cur->env.load;
	cur->env.load_read = true; /* for the decision log */
}
#define get_iowait_load(nr_waiters, load)                                                          \
	idlesim_get_iowait_load(idlesim_current_device(), (nr_waiters), (load))

#endif
