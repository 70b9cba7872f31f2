/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/ktime.h (ktime_t is s64 ns). */
#ifndef _IDLESIM_LINUX_KTIME_H
#define _IDLESIM_LINUX_KTIME_H

#include <linux/smp.h>
#include <linux/types.h>

static inline ktime_t ns_to_ktime(u64 ns)
{
	return (ktime_t)ns;
}
static inline ktime_t ktime_add(ktime_t a, ktime_t b)
{
	return a + b;
}
static inline ktime_t ktime_add_ns(ktime_t a, u64 ns)
{
	return a + (ktime_t)ns;
}
static inline bool ktime_before(ktime_t a, ktime_t b)
{
	return a < b;
}
static inline bool ktime_after(ktime_t a, ktime_t b)
{
	return a > b;
}
static inline s64 ktime_us_delta(ktime_t later, ktime_t earlier)
{
	return ktime_to_us(later - earlier);
}
static inline ktime_t ktime_set(s64 secs, unsigned long nsecs)
{
	return secs * NSEC_PER_SEC + (s64)nsecs;
}

/* The simulated clock of the current CPU (the engine's time of the call). */
#define ktime_get() ((ktime_t)idlesim_current_device()->env.now_ns)

#endif
