/* SPDX-License-Identifier: GPL-2.0-only */
/* idlesim kernel-compatibility layer: include/linux/tick.h, on the engine's tick model. */
#ifndef _IDLESIM_LINUX_TICK_H
#define _IDLESIM_LINUX_TICK_H

#include <linux/jiffies.h>
#include <linux/ktime.h>

/* idlesim models a NO_HZ_IDLE kernel: the tick can always be stopped. */
#define tick_nohz_enabled true

/* The time to the closest timer if the tick were stopped; *delta_next: to the next event. */
static inline ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
	return cpuidle_env_sleep_length(idlesim_current_device(), delta_next);
}

static inline bool tick_nohz_tick_stopped(void)
{
	return idlesim_current_device()->env.tick_stopped;
}

static inline bool tick_nohz_tick_stopped_cpu(int cpu)
{
	(void)cpu;
	return tick_nohz_tick_stopped();
}

/* True, once, if the tick handler ran during the last idle period. */
static inline bool tick_nohz_idle_got_tick(void)
{
	return cpuidle_env_got_tick(idlesim_current_device());
}

#endif
