/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/tick.h, on the engine's tick model. */
#ifndef _IDLESIM_LINUX_TICK_H
#define _IDLESIM_LINUX_TICK_H

#include <linux/jiffies.h>
#include <linux/ktime.h>

/* idlesim models a NO_HZ_IDLE kernel: the tick can always be stopped. */
#define tick_nohz_enabled true

/* The time to the closest timer if the tick were stopped; *delta_next: to the next event. */
#define tick_nohz_get_sleep_length(delta_next)                                                    \
	cpuidle_env_sleep_length(idlesim_current_device(), (delta_next))

#define tick_nohz_tick_stopped() ((bool)idlesim_current_device()->env.tick_stopped)
#define tick_nohz_tick_stopped_cpu(cpu) ((void)(cpu), tick_nohz_tick_stopped())

/* True, once, if the tick handler ran during the last idle period. */
#define tick_nohz_idle_got_tick() cpuidle_env_got_tick(idlesim_current_device())

#endif
