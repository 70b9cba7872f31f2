/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: include/linux/init.h.
 *
 * An initcall (postcore_initcall(fn) and the other levels, module_init(fn)) records fn in the
 * module's "idlesim_initcall" section; kmod.c runs them, in link order, when idlesim loads
 * the module. That is where a governor file calls cpuidle_register_governor().
 */
#ifndef _IDLESIM_LINUX_INIT_H
#define _IDLESIM_LINUX_INIT_H

#define __init
#define __initdata
#define __initconst
#define __exit
#define __ref

typedef int (*idlesim_initcall_t)(void);

#ifdef IDLESIM_BUILTIN
/*
 * A port built into idlesim: its one initcall is idlesim_initcall_<IDLESIM_BUILTIN>, which
 * the built-in table of governors/registry.c lists (IDLESIM_BUILTIN is the file's name,
 * e.g. teo_6_19, given by CMakeLists.txt).
 */
#define IDLESIM_CAT2(a, b) a##b
#define IDLESIM_CAT(a, b) IDLESIM_CAT2(a, b)
#define __idlesim_initcall(fn)                                                                     \
	extern const idlesim_initcall_t IDLESIM_CAT(idlesim_initcall_, IDLESIM_BUILTIN);            \
	const idlesim_initcall_t IDLESIM_CAT(idlesim_initcall_, IDLESIM_BUILTIN) = fn
#else
#define __idlesim_initcall(fn)                                                                     \
	static const idlesim_initcall_t __idlesim_initcall_##fn                                    \
		__attribute__((used, section("idlesim_initcall"))) = fn
#endif

#define early_initcall(fn) __idlesim_initcall(fn)
#define pure_initcall(fn) __idlesim_initcall(fn)
#define core_initcall(fn) __idlesim_initcall(fn)
#define postcore_initcall(fn) __idlesim_initcall(fn)
#define arch_initcall(fn) __idlesim_initcall(fn)
#define subsys_initcall(fn) __idlesim_initcall(fn)
#define fs_initcall(fn) __idlesim_initcall(fn)
#define device_initcall(fn) __idlesim_initcall(fn)
#define late_initcall(fn) __idlesim_initcall(fn)
#define module_init(fn) __idlesim_initcall(fn)
#define module_exit(fn) static void (*const __idlesim_exitcall_##fn)(void) __attribute__((unused)) = fn

#endif
