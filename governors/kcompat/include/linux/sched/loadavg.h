/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/sched/loadavg.h (fixed point). */
#ifndef _IDLESIM_LINUX_SCHED_LOADAVG_H
#define _IDLESIM_LINUX_SCHED_LOADAVG_H

#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)
#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

#endif
