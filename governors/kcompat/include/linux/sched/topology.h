/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: <linux/sched/topology.h>, for teo.c of v6.3..v6.10
 * (its util-awareness reads the CPU's capacity at enable time).
 *
 * idlesim models no CPU utilisation and no asymmetric capacities: every CPU has the full
 * SCHED_CAPACITY_SCALE, and CONFIG_SMP is not defined, so such a file takes its own
 * !CONFIG_SMP branch (the CPU is never "utilized") and needs no sched_cpu_util().
 */
#ifndef _IDLESIM_LINUX_SCHED_TOPOLOGY_H
#define _IDLESIM_LINUX_SCHED_TOPOLOGY_H

#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)

#define arch_scale_cpu_capacity(cpu) ((void)(cpu), (unsigned long)SCHED_CAPACITY_SCALE)

#endif
