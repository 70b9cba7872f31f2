/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: <linux/module.h>, for its include line and module_param()
 * (linux/moduleparam.h); the other services a governor uses are in linux/kernel.h, ktime.h,
 * tick.h and sched/. */
#ifndef _IDLESIM_LINUX_MODULE_H
#define _IDLESIM_LINUX_MODULE_H

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>

#endif
