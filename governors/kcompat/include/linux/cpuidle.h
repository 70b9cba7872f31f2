/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: include/linux/cpuidle.h.
 *
 * The structures are the engine's own (idlesim/cpuidle_abi.h: the kernel's field names and
 * types, ns fields as in >= v5.5). The PM QoS limit and the other per-CPU services answer
 * for the current device, which is the `cpu` every governor passes (dev->cpu).
 */
#ifndef _IDLESIM_LINUX_CPUIDLE_H
#define _IDLESIM_LINUX_CPUIDLE_H

#include <idlesim/cpuidle_abi.h>
#include <linux/kernel.h>
#include <linux/ktime.h>

#define CPUIDLE_POLL_MIN 10000
#define CPUIDLE_POLL_MAX (TICK_NSEC / 16)

#ifdef IDLESIM_KAPI_US
/* drivers/cpuidle/governor.c before v5.7: the PM QoS limit in us, an int (no request:
 * 2000 s, PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE). sim/run/kgov.c defines IDLESIM_KAPI_US for a file
 * of that era (docs/kernel-governor-files.md, "Older kernels"). */
#define cpuidle_governor_latency_req(cpu)                                                         \
	((void)(cpu), (int)(idlesim_current_device()->env.latency_req_ns / NSEC_PER_USEC))
#else
/* drivers/cpuidle/governor.c (>= v5.7): the PM QoS limit in ns. */
#define cpuidle_governor_latency_req(cpu) ((void)(cpu), (s64)idlesim_current_device()->env.latency_req_ns)
#endif

#ifdef IDLESIM_BUILTIN
/* A port: into idlesim's built-in table, with the size of its one per-CPU variable. */
#define cpuidle_register_governor(gov) idlesim_builtin_register((gov), idlesim_builtin_percpu_size)
#else
/* Records the file's governor (kmod.c); idlesim registers it under the file's name. */
int cpuidle_register_governor(struct cpuidle_governor *gov) __attribute__((visibility("hidden")));
#endif

#endif
