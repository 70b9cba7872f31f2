/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * governor.h - the governor interface as the engine, the registry and the reference policies
 * (reference.c) see it.
 *
 * The kernel ports (menu-*.c, teo-*.c, ladder.c) do not include this file: they include the
 * kernel headers of the compatibility layer (kcompat/include: <linux/cpuidle.h>,
 * <linux/tick.h>, ...) with the kernel's signatures, as a kernel tree's own governor file
 * does, plus idlesim/gov.h for tunables and the decision log. Both kinds share the structures
 * of idlesim/cpuidle_abi.h (the kernel's field names and types; ns fields as in >= v5.5, the
 * us fields of older kernels filled too) and struct cpuidle_governor, the kernel's ops table
 * plus what a simulator needs: the per-CPU data size (allocated and zeroed by the engine
 * before enable(), dev->governor_data) and the tunables.
 *
 * Here the kernel services are functions taking the device, because a reference policy has
 * no "this CPU": tick_nohz_get_sleep_length(dev, &delta_next) is the kernel's
 * tick_nohz_get_sleep_length(&delta_next), and so on. TICK_NSEC and TICK_USEC expand to the
 * run's tick length and need a `dev` in scope.
 *
 * What the engine guarantees (the kernel's contract, drivers/cpuidle/cpuidle.c and
 * kernel/sched/idle.c): select() is called with *stop_tick preset to true; the returned index
 * must be in [0, state_count) (it may name a disabled state, as menu does when all are
 * disabled); reflect() is called after every completed entry with the entered index; the
 * statistics (usage, time_ns, above, below) are updated before reflect(); last_residency_ns
 * and last_state_idx describe the entry just completed.
 */
#ifndef IDLESIM_GOVERNOR_H
#define IDLESIM_GOVERNOR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "governors/kcompat/include/idlesim/cpuidle_abi.h"
#include "governors/kcompat/include/idlesim/gov.h"

/* ---- helpers the kernel has in linux/kernel.h, minmax.h, sched/loadavg.h, pm_qos.h ---- */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The kernel's min()/max() are type-checked; these evaluate their arguments twice. */
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))

/* Unsigned form of the kernel macro (every governor use of it is on unsigned values). */
#define DIV_ROUND_CLOSEST(x, divisor) (((x) + ((divisor) / 2)) / (divisor))

/* Load average fixed point (include/linux/sched/loadavg.h). */
#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)
#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

/* PM QoS defaults (include/linux/pm_qos.h), in us. */
#define PM_QOS_RESUME_LATENCY_NO_CONSTRAINT S32_MAX
#define PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 * USEC_PER_SEC)

/* ---- kernel services ---- */

#define TICK_NSEC ((long)dev->env.tick_nsec)
#define TICK_USEC ((long)(dev->env.tick_nsec / NSEC_PER_USEC))

/*
 * kernel/time/tick-sched.c: the time until the earliest non-tick timer if the tick were
 * stopped (KTIME_MAX when there is none); *delta_next is the time until the next event
 * programmed in the clock-event device: min(next tick, next timer) while the tick runs, the
 * next timer when it is already stopped.
 */
static inline ktime_t tick_nohz_get_sleep_length(struct cpuidle_device *dev, ktime_t *delta_next)
{
	return cpuidle_env_sleep_length(dev, delta_next);
}

static inline bool tick_nohz_tick_stopped(const struct cpuidle_device *dev)
{
	return dev->env.tick_stopped;
}

/* True, once, if the tick handler ran while this CPU was idle since the last call. */
static inline bool tick_nohz_idle_got_tick(struct cpuidle_device *dev)
{
	return cpuidle_env_got_tick(dev);
}

/* drivers/cpuidle/governor.c (>= v5.7): the PM QoS limit in ns. */
static inline s64 cpuidle_governor_latency_req(const struct cpuidle_device *dev)
{
	return dev->env.latency_req_ns;
}

/* kernel/sched/core.c: tasks in iowait on this CPU's runqueue (from the trace). */
static inline unsigned long nr_iowait_cpu(const struct cpuidle_device *dev)
{
	return dev->env.nr_iowait;
}

/* The v4.x get_iowait_load(): iowaiters and the runqueue load (FIXED_1 fixed point). */
static inline void get_iowait_load(struct cpuidle_device *dev, unsigned long *nr_waiters,
				   unsigned long *load)
{
	*nr_waiters = dev->env.nr_iowait;
	*load = dev->env.load;
	dev->env.load_read = true; /* for the decision log */
}

static inline u64 local_clock(const struct cpuidle_device *dev)
{
	return (u64)dev->env.now_ns;
}

/* cpuidle_poll_time(drv, dev): in idlesim/cpuidle_abi.h. */

/*
 * Not a kernel service: the true time until this CPU's next real wakeup (timer or not),
 * for reference policies such as the oracle. KTIME_MAX means "beyond the engine's lookahead
 * window", which is longer than every target residency and than one tick.
 */
static inline s64 cpuidle_oracle_idle_ns(const struct cpuidle_device *dev)
{
	return dev->env.oracle_wake_ns == KTIME_MAX ? KTIME_MAX
						    : dev->env.oracle_wake_ns - dev->env.now_ns;
}

/*
 * Not a kernel service: the energy the engine's model charges one idle period of idle_ns in
 * state idx on this CPU (the state's core power over idle_ns, its entry+exit energy, and its
 * mean actual wake latency under the run's model at active core power), for the energy
 * reference. 0 when the engine offers no model.
 */
static inline double cpuidle_reference_energy_j(const struct cpuidle_device *dev, int idx,
						 double idle_ns)
{
	return dev->env.period_energy_j ? dev->env.period_energy_j(dev->env.period_energy_ctx, idx,
								   idle_ns)
					: 0;
}

/* ---- the registry (governors/registry.c) ---- */

const struct cpuidle_governor *gov_find(const char *name);
/* Add a governor built at run time (sim/run/kgov.c); it must live until exit. 0, or -1 if full. */
int gov_register(const struct cpuidle_governor *g);
unsigned int gov_count(void);
const struct cpuidle_governor *gov_get(unsigned int i);
/* Index of tunable `name` in g->params, or -1. */
int gov_param_index(const struct cpuidle_governor *g, const char *name);
/* Length of the family part of a governor name ("menu" in "menu@6.19"). */
size_t gov_family_len(const char *name);

#endif
