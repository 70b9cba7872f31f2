// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-common.h - what the teo ports (teo-5.1.c, teo-5.10.c, teo-5.14.c, teo-6.12.c,
 * teo-6.19.c) share: the tunables PULSE and DECAY_SHIFT (and the 6.12/6.19 thresholds), read with
 * idlesim_tunable() (idlesim/gov.h), and the helpers whose logic is the same in every release that has them.
 */
#ifndef IDLESIM_GOVERNORS_TEO_COMMON_H
#define IDLESIM_GOVERNORS_TEO_COMMON_H

#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <idlesim/gov.h>

/* ---- tunables: the kernel constants, read with idlesim_tunable() (the one place) ---- */

enum {
	TEO_PARAM_DECAY_SHIFT,
	TEO_PARAM_PULSE,
	TEO_PARAM_RESIDENCY_THRESHOLD_NS, /* teo@6.12 and teo@6.19 */
	TEO_PARAM_LATENCY_THRESHOLD_NS,	  /* teo@6.19 only */
};

/*
 * PULSE is what one counted event adds to a metric, and at every update each metric loses
 * x >> DECAY_SHIFT of its value x. (Limits: pulse << decay_shift <= 2^26 keeps every sum of
 * bins, times 3, inside 32 bits.)
 */
#define PULSE ((unsigned int)idlesim_tunable(dev, TEO_PARAM_PULSE))
#define DECAY_SHIFT ((unsigned int)idlesim_tunable(dev, TEO_PARAM_DECAY_SHIFT))

/* drivers/cpuidle/governors/gov.h (v6.19): 15 us. */
#define RESIDENCY_THRESHOLD_NS ((s64)idlesim_tunable(dev, TEO_PARAM_RESIDENCY_THRESHOLD_NS))
/* teo.c (>= v6.14): RESIDENCY_THRESHOLD_NS / 2. */
#define LATENCY_THRESHOLD_NS ((s64)idlesim_tunable(dev, TEO_PARAM_LATENCY_THRESHOLD_NS))

/* The tunables of teo@5.1 and teo@5.14: decay_shift and pulse. */
#define TEO_NR_PARAMS_5 2
extern const struct gov_param teo_params_5[TEO_NR_PARAMS_5];

/*
 * struct teo_idle_state - the per-state metrics of the early-hits teo (v5.1 .. v5.13, teo@5.1
 * and teo@5.10). hits: the sleep length and the measured idle time both pointed at this
 * state. misses: the sleep length pointed at this state but the CPU woke up earlier.
 * early_hits: this state fitted the measured idle time of such an earlier wakeup.
 */
struct teo_idle_state {
	unsigned int early_hits;
	unsigned int hits;
	unsigned int misses;
};

/*
 * The end of teo_update() in the early-hits teo (the same text from v5.1 to v5.13): only
 * idx_timer's hits and misses are aged and updated, a hit if the measured time reached that
 * state too (idx_hit == idx_timer), else a miss plus an early hit for idx_hit (if any).
 */
void teo_account_wakeup(struct cpuidle_device *dev, struct teo_idle_state *states, int idx_timer,
			int idx_hit);

static inline bool teo_polling(const struct cpuidle_driver *drv, int idx)
{
	return drv->states[idx].flags & CPUIDLE_FLAG_POLLING;
}

/* The decision log wants "no timer" spelled out rather than KTIME_MAX. */
void teo_explain_sleep_length(struct cpuidle_device *dev, s64 sleep_length_ns);

/*
 * teo_find_shallower_state - walk down from state_idx to the first enabled state whose target
 * residency fits duration_ns, or else the shallowest enabled one (state_idx itself if none is
 * enabled below it). The same logic in v5.14, 6.12 and v6.19 (ns); teo@5.1 has its own in us.
 */
int teo_find_shallower_state(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			     int state_idx, s64 duration_ns);

#endif
