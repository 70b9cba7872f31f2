/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: the compiler annotations a governor file uses. */
#ifndef _IDLESIM_LINUX_COMPILER_H
#define _IDLESIM_LINUX_COMPILER_H

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define __maybe_unused __attribute__((unused))
#define __read_mostly
#define __cacheline_aligned
#define ____cacheline_aligned
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier() __asm__ __volatile__("" ::: "memory")

#endif
