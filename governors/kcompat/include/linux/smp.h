/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: "this CPU".
 *
 * The kernel's services take no device: they act on the CPU the code runs on. Here that is
 * the device of the governor call in progress on this thread, which kmod.c's entry points
 * set for the length of each call (a thread-local, because simulations run side by side in
 * threads; it is NULL outside a governor call).
 *
 * A port built into idlesim (governors/<file>.c, compiled with IDLESIM_BUILTIN defined) needs no
 * thread-local: every function of a port that calls a service has its device in scope as
 * `dev`, as the kernel's governor functions have, so "this CPU" is that argument, passed once
 * per call by the caller and free to read. The services are therefore macros that name
 * idlesim_current_device() where they are used, not in a function of their own.
 */
#ifndef _IDLESIM_LINUX_SMP_H
#define _IDLESIM_LINUX_SMP_H

#include <idlesim/cpuidle_abi.h>

#ifdef IDLESIM_BUILTIN
#define idlesim_current_device() (dev)
#else
extern _Thread_local struct cpuidle_device *idlesim_kmod_current __attribute__((visibility("hidden")));

static inline struct cpuidle_device *idlesim_current_device(void)
{
	return idlesim_kmod_current;
}
#endif

#define smp_processor_id() (idlesim_current_device()->cpu)
#define raw_smp_processor_id() smp_processor_id()
#define get_cpu() smp_processor_id()
#define put_cpu() do { } while (0)

#endif
