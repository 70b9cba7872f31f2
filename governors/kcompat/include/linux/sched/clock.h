/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/sched/clock.h (the simulated clock). */
#ifndef _IDLESIM_LINUX_SCHED_CLOCK_H
#define _IDLESIM_LINUX_SCHED_CLOCK_H

#include <linux/smp.h>

static inline u64 local_clock(void)
{
	return (u64)idlesim_current_device()->env.now_ns;
}
static inline u64 sched_clock(void)
{
	return local_clock();
}
static inline u64 cpu_clock(int cpu)
{
	(void)cpu;
	return local_clock();
}

#endif
