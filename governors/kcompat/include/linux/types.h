/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/types.h (the fixed-width kernel types). */
#ifndef _IDLESIM_LINUX_TYPES_H
#define _IDLESIM_LINUX_TYPES_H

#include <idlesim/cpuidle_abi.h> /* u64, s64, u32, s32, ktime_t */

typedef uint8_t u8;
typedef int8_t s8;
typedef uint16_t u16;
typedef int16_t s16;
typedef uint64_t __u64;
typedef uint32_t __u32;
typedef int64_t __s64;
typedef int32_t __s32;

#define U8_MAX UINT8_MAX
#define U16_MAX UINT16_MAX
#define U32_MAX UINT32_MAX
#define S16_MAX INT16_MAX
#define S32_MIN INT32_MIN
#define S64_MIN INT64_MIN

#endif
