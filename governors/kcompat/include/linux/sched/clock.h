/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/sched/clock.h (the simulated clock). */
#ifndef _IDLESIM_LINUX_SCHED_CLOCK_H
#define _IDLESIM_LINUX_SCHED_CLOCK_H

#include <linux/smp.h>

#define local_clock() ((u64)idlesim_current_device()->env.now_ns)
#define sched_clock() local_clock()
#define cpu_clock(cpu) ((void)(cpu), local_clock())

#endif
