/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/sched/stat.h (iowait from the trace). */
#ifndef _IDLESIM_LINUX_SCHED_STAT_H
#define _IDLESIM_LINUX_SCHED_STAT_H

#include <linux/sched/loadavg.h>
#include <linux/smp.h>

/* Tasks in iowait on this CPU's runqueue (unsigned int before v6.x, unsigned long after). */
static inline unsigned long nr_iowait_cpu(int cpu)
{
	(void)cpu;
	return idlesim_current_device()->env.nr_iowait;
}

/* v4.x: the iowaiters and the runqueue load (FIXED_1 fixed point) of this CPU. */
static inline void get_iowait_load(unsigned long *nr_waiters, unsigned long *load)
{
	struct cpuidle_device *dev = idlesim_current_device();

	*nr_waiters = dev->env.nr_iowait;
	*load = dev->env.load;
	dev->env.load_read = true;
}

#endif
