/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: include/linux/kernel.h and what it drags in for a
 * governor file (types, compiler annotations, min()/max(), integer limits, printk, BUG/WARN,
 * memset(), initcalls, per-CPU data), as the kernel's include chain does.
 */
#ifndef _IDLESIM_LINUX_KERNEL_H
#define _IDLESIM_LINUX_KERNEL_H

#include <limits.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
/* The kernel's DIV_ROUND_CLOSEST rounds half away from zero, for signed values too. */
#define DIV_ROUND_CLOSEST(x, divisor)                                                              \
	({                                                                                         \
		__typeof__(x) __x = (x);                                                           \
		__typeof__(divisor) __d = (divisor);                                               \
		(((__typeof__(x))-1) > 0 || ((__typeof__(divisor))-1) > 0 || (((__x) > 0) == ((__d) > 0))) \
			? (((__x) + ((__d) / 2)) / (__d))                                          \
			: (((__x) - ((__d) / 2)) / (__d));                                         \
	})

/* The unsigned 64-bit variant (menu.c of the us era): (x + d / 2) / d, in unsigned long long. */
#define DIV_ROUND_CLOSEST_ULL(x, divisor)                                                          \
	({                                                                                         \
		__typeof__(divisor) __d = (divisor);                                               \
		unsigned long long __t = (x) + (__d) / 2;                                          \
		__t / __d;                                                                         \
	})

/* min()/max(): each argument evaluated once, the comparison in their common type. */
#define min(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a < __b ? __a : __b; })
#define max(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a > __b ? __a : __b; })
#define min_t(type, a, b) ({ type __a = (a); type __b = (b); __a < __b ? __a : __b; })
#define max_t(type, a, b) ({ type __a = (a); type __b = (b); __a > __b ? __a : __b; })
#define clamp(v, lo, hi) min(max((v), (lo)), (hi))
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, (v), (lo)), (hi))

/* printk and friends: a governor's messages are dropped (the format is still checked). */
static inline __attribute__((format(printf, 1, 2))) int idlesim_no_printk(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}
#define printk(...) idlesim_no_printk(__VA_ARGS__)
#define pr_err(...) idlesim_no_printk(__VA_ARGS__)
#define pr_warn(...) idlesim_no_printk(__VA_ARGS__)
#define pr_info(...) idlesim_no_printk(__VA_ARGS__)
#define pr_debug(...) idlesim_no_printk(__VA_ARGS__)
#define pr_warn_once(...) idlesim_no_printk(__VA_ARGS__)

/* A broken kernel invariant stops the simulation, as it would stop the kernel. */
#define BUG() __builtin_trap()
#define BUG_ON(c) do { if (unlikely(c)) BUG(); } while (0)
#define WARN_ON(c) ({ int __c = !!(c); __c; })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define WARN_ONCE(c, ...) WARN_ON(c)

#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#define MODULE_LICENSE(s)
#define MODULE_AUTHOR(s)
#define MODULE_DESCRIPTION(s)

#define EEXIST 17
#define EINVAL 22
#define ENODEV 19
#define EBUSY 16

#endif
