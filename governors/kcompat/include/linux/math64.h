/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/math64.h (div_u64, div64_u64 in the ABI). */
#ifndef _IDLESIM_LINUX_MATH64_H
#define _IDLESIM_LINUX_MATH64_H

#include <linux/types.h>

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

/* asm-generic/div64.h: divides the u64 lvalue n in place, yields the remainder. */
#define do_div(n, base)                                                                            \
	({                                                                                         \
		u32 __base = (base);                                                               \
		u32 __rem = (u32)((n) % __base);                                                   \
		(n) = (n) / __base;                                                                \
		__rem;                                                                             \
	})

#endif
