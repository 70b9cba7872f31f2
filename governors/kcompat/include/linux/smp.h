/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: "this CPU".
 *
 * The kernel's services take no device: they act on the CPU the code runs on. Here that is
 * the device of the governor call in progress on this thread, which kmod.c's entry points
 * set for the length of each call (a thread-local, because simulations run side by side in
 * threads; it is NULL outside a governor call).
 */
#ifndef _IDLESIM_LINUX_SMP_H
#define _IDLESIM_LINUX_SMP_H

#include <idlesim/cpuidle_abi.h>

extern _Thread_local struct cpuidle_device *idlesim_kmod_current __attribute__((visibility("hidden")));

static inline struct cpuidle_device *idlesim_current_device(void)
{
	return idlesim_kmod_current;
}

#define smp_processor_id() (idlesim_current_device()->cpu)
#define raw_smp_processor_id() smp_processor_id()
#define get_cpu() smp_processor_id()
#define put_cpu() do { } while (0)

#endif
