/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: include/linux/percpu.h, per simulation.
 *
 * Several simulations run side by side in threads, so a per-CPU variable cannot be a global
 * of the module. As in the kernel (whose DEFINE_PER_CPU puts a template in .data..percpu and
 * gives each CPU a copy), DEFINE_PER_CPU places the variable in the module's
 * "idlesim_percpu" section, which is only a template: its size is the per-CPU data size of
 * one CPU, which idlesim asks the engine to allocate per CPU and per simulation
 * (dev->governor_data, one array for all CPUs of a simulation, CPU n at n * size; kmod.c
 * copies the template into it when a CPU is enabled). per_cpu_ptr(&var, cpu) is then var's
 * offset in the template, applied to that CPU's copy in the simulation of the current device
 * (the one the governor call is about: see kmod.c). The variable itself is never used.
 *
 * A port built into idlesim (IDLESIM_BUILTIN) has exactly one per-CPU variable, as every
 * kernel governor has (teo_cpus, menu_devices, ladder_devices): it is the whole of
 * dev->governor_data, so this_cpu_ptr() is dev->governor_data and per_cpu_ptr() steps by the
 * variable's size (rounded up to 16 bytes, as sim/engine/engine.c lays the CPUs out). The variable
 * is then only a type and a size, never read or written (the compiler drops it);
 * DEFINE_PER_CPU also names its size, idlesim_builtin_percpu_size, for the registration, and a
 * second DEFINE_PER_CPU in one file does not compile. A port whose kernel file has none
 * (haltpoll) says IDLESIM_NO_PER_CPU instead: a size of 0.
 */
#ifndef _IDLESIM_LINUX_PERCPU_H
#define _IDLESIM_LINUX_PERCPU_H

#include <linux/smp.h>

#ifdef IDLESIM_BUILTIN

#define IDLESIM_PERCPU_STRIDE(size) (((size) + 15) & ~(size_t)15)

#define DEFINE_PER_CPU(type, name)                                                                 \
	__typeof__(type) name __attribute__((unused));                                             \
	enum { idlesim_builtin_percpu_size = sizeof(__typeof__(type)) }
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) DEFINE_PER_CPU(type, name)
/* A port of a kernel file that has no per-CPU variable (haltpoll.c keeps its state in the
 * device): no per-CPU data to register. */
#define IDLESIM_NO_PER_CPU enum { idlesim_builtin_percpu_size = 0 }

#define this_cpu_ptr(ptr) ((__typeof__(ptr))idlesim_current_device()->governor_data)
#define per_cpu_ptr(ptr, cpu_nr)                                                                   \
	((__typeof__(ptr))((char *)idlesim_current_device()->governor_data +                       \
			   ((long)(cpu_nr) - (long)idlesim_current_device()->cpu) *               \
				   (long)IDLESIM_PERCPU_STRIDE(sizeof(*(ptr)))))

#else /* a kernel file, built into a module by sim/run/kgov.c */

extern char __start_idlesim_percpu[] __attribute__((weak, visibility("hidden")));
extern char __stop_idlesim_percpu[] __attribute__((weak, visibility("hidden")));

/* The per-CPU data of one CPU, rounded up so that every CPU's copy stays aligned. */
static inline size_t idlesim_percpu_size(void)
{
	size_t n = (size_t)(__stop_idlesim_percpu - __start_idlesim_percpu);

	return (n + 15) & ~(size_t)15;
}

static inline void *idlesim_percpu_ptr(const struct cpuidle_device *cur, const void *var,
				       unsigned int cpu)
{
	char *base = (char *)cur->governor_data +
		     ((long)cpu - (long)cur->cpu) * (long)idlesim_percpu_size();

	return base + ((const char *)var - __start_idlesim_percpu);
}

#define DEFINE_PER_CPU(type, name) __attribute__((section("idlesim_percpu"), used)) __typeof__(type) name
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) DEFINE_PER_CPU(type, name)

#define per_cpu_ptr(ptr, cpu) ((__typeof__(ptr))idlesim_percpu_ptr(idlesim_current_device(), (ptr), (cpu)))
#define this_cpu_ptr(ptr) per_cpu_ptr((ptr), smp_processor_id())

#endif

#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), (cpu)))
#define this_cpu_read(var) (*this_cpu_ptr(&(var)))
#define __this_cpu_read(var) this_cpu_read(var)
#define this_cpu_write(var, v) (*this_cpu_ptr(&(var)) = (v))
#define __this_cpu_write(var, v) this_cpu_write(var, v)

#endif
