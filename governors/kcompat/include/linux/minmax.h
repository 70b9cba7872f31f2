/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: <linux/minmax.h>, for its include line; its services a governor
 * uses are in linux/kernel.h, ktime.h, tick.h and sched/. */
#ifndef _IDLESIM_LINUX_MINMAX_H
#define _IDLESIM_LINUX_MINMAX_H

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>

#endif
