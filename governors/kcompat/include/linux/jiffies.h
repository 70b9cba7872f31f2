/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: HZ and the tick length. They are the run's (--hz), so
 * they are expressions on the current device, not compile-time constants: TICK_NSEC is
 * (NSEC_PER_SEC + HZ/2) / HZ as the engine computed it, and HZ is recovered from it
 * (exact for every HZ the kernel offers: 100, 250, 300, 1000).
 */
#ifndef _IDLESIM_LINUX_JIFFIES_H
#define _IDLESIM_LINUX_JIFFIES_H

#include <linux/smp.h>
#include <linux/types.h>

#define TICK_NSEC ((long)idlesim_current_device()->env.tick_nsec)
#define TICK_USEC ((long)(TICK_NSEC / NSEC_PER_USEC))
#define HZ ((long)((NSEC_PER_SEC + TICK_NSEC / 2) / TICK_NSEC))

#endif
