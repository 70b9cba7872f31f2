// SPDX-License-Identifier: GPL-2.0-only
/*
 * ladder.c - the ladder cpuidle governor (drivers/cpuidle/governors/ladder.c).
 *
 * DOC: The algorithm
 *
 * ladder climbs one state at a time. It remembers the state it last chose (in
 * dev->last_state_idx) and, at each select, looks at how long the CPU stayed there
 * (last_residency_ns less that state's exit latency): longer than the state's promotion
 * time (the exit latency of the state itself) PROMOTION_COUNT (4) times in a row moves it
 * one state deeper, if that state is enabled and meets the PM QoS limit; shorter than its
 * demotion time (its exit latency again) DEMOTION_COUNT (1) time moves it one state
 * shallower. A state that became disabled or too slow for the latency limit is left at
 * once for the deepest shallower one within the limit. A polling state 0 is never climbed
 * down to (first_idx is 1), except for a PM QoS limit of 0, which selects state 0 at once.
 * ladder never asks to keep the tick (*stop_tick stays true): it was written for periodic
 * tick kernels (its rating is 25 instead of 10 when NO_HZ is off, which idlesim does not
 * model: the tick can always stop).
 *
 * DOC: Version modelled
 *
 * ladder@6.12 - the ladder.c of Debian's linux-source-6.12 (6.12.118); the file of
 *	linux-source-6.1 (6.1.192) has the same code (a doc comment differs). ns units
 *	(since v5.5), dev->last_state_idx shared with the core, reflect() recording the state
 *	entered only when it is above 0. Read: the packaged files; checked decision by decision
 *	against both (tests/test_kgov.c, README "Kernel governor files").
 *
 * DOC: Decision log (idlesim run --explain)
 *
 * last_idx (the state ladder chose last), last_residency_ns (less its exit latency),
 * promotion_count and demotion_count (of last_idx, after this select), rule: latency-zero,
 * promote, demote-latency (last_idx disabled or over the limit), demote, stay.
 *
 * DOC: Quirks reproduced
 *
 *  - last_residency is s64 and the thresholds are u64, so the kernel compares in u64: a stay
 *    shorter than the state's exit latency (a negative last_residency, e.g. the first
 *    select, with last_residency_ns 0) counts as a long one, for promotion, and never as a
 *    short one. The casts here make that explicit.
 *
 * DOC: Deviations
 *
 *  - PROMOTION_COUNT and DEMOTION_COUNT are tunables (the kernel constants by default).
 *  - The engine also sets dev->last_state_idx to the state entered at each wakeup (before
 *    reflect()); the kernel core does not, and ladder_reflect() leaves it alone after state
 *    0. They differ only if the engine entered another state than ladder chose, which it
 *    does not; the kernel file sees the same engine, so the comparison is unaffected.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

enum { LADDER_PARAM_PROMOTION_COUNT, LADDER_PARAM_DEMOTION_COUNT };

#define PROMOTION_COUNT ((u32)idlesim_tunable(dev, LADDER_PARAM_PROMOTION_COUNT))
#define DEMOTION_COUNT ((u32)idlesim_tunable(dev, LADDER_PARAM_DEMOTION_COUNT))

static const struct gov_param ladder_params[] = {
	{"promotion_count", 4, 1, 1000, "PROMOTION_COUNT: long stays in a row before going deeper"},
	{"demotion_count", 1, 1, 1000, "DEMOTION_COUNT: short stays in a row before going shallower"},
};

/* struct ladder_device_state - the thresholds of one state, and its counts in a row. */
struct ladder_device_state {
	struct {
		u32 promotion_count;
		u32 demotion_count;
		u64 promotion_time_ns;
		u64 demotion_time_ns;
	} threshold;
	struct {
		int promotion_count;
		int demotion_count;
	} stats;
};

struct ladder_device {
	struct ladder_device_state states[CPUIDLE_STATE_MAX];
};

static DEFINE_PER_CPU(struct ladder_device, ladder_devices);

/* Move from old_idx to new_idx: the counts of the state left start again. */
static void ladder_do_selection(struct cpuidle_device *dev, struct ladder_device *ldev, int old_idx,
				int new_idx)
{
	ldev->states[old_idx].stats.promotion_count = 0;
	ldev->states[old_idx].stats.demotion_count = 0;
	dev->last_state_idx = new_idx;
}

/* The decision log: one call on every way out of ladder_select_state(). */
static int ladder_explain(struct cpuidle_device *dev, const struct ladder_device_state *last_state,
			  int last_idx, s64 last_residency, const char *rule, int idx)
{
	if (!dev->explain)
		return idx;
	gov_explain(dev, "last_idx", last_idx);
	gov_explain(dev, "last_residency_ns", last_residency);
	if (last_state) {
		gov_explain(dev, "promotion_count", last_state->stats.promotion_count);
		gov_explain(dev, "demotion_count", last_state->stats.demotion_count);
	}
	gov_explain_str(dev, "rule", rule);
	return idx;
}

static int ladder_select_state(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *dummy)
{
	struct ladder_device *ldev = this_cpu_ptr(&ladder_devices);
	struct ladder_device_state *last_state;
	int last_idx = dev->last_state_idx;
	int first_idx = drv->states[0].flags & CPUIDLE_FLAG_POLLING ? 1 : 0;
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	s64 last_residency;

	(void)dummy;
	/* A PM QoS limit of 0: state 0 at once. */
	if (latency_req == 0) {
		ladder_do_selection(dev, ldev, last_idx, 0);
		return ladder_explain(dev, NULL, last_idx, 0, "latency-zero", 0);
	}

	last_state = &ldev->states[last_idx];

	last_residency = dev->last_residency_ns - drv->states[last_idx].exit_latency_ns;

	/* Promotion: a long stay, and the next state deeper is enabled and fast enough. */
	if (last_idx < drv->state_count - 1 && !dev->states_usage[last_idx + 1].disable &&
	    (u64)last_residency > last_state->threshold.promotion_time_ns &&
	    drv->states[last_idx + 1].exit_latency_ns <= latency_req) {
		last_state->stats.promotion_count++;
		last_state->stats.demotion_count = 0;
		if (last_state->stats.promotion_count >= (int)last_state->threshold.promotion_count) {
			ladder_do_selection(dev, ldev, last_idx, last_idx + 1);
			return ladder_explain(dev, last_state, last_idx, last_residency, "promote",
					      last_idx + 1);
		}
	}

	/* The state is disabled or over the limit now: the deepest shallower one within it. */
	if (last_idx > first_idx &&
	    (dev->states_usage[last_idx].disable ||
	     drv->states[last_idx].exit_latency_ns > latency_req)) {
		int i;

		for (i = last_idx - 1; i > first_idx; i--) {
			if (drv->states[i].exit_latency_ns <= latency_req)
				break;
		}
		ladder_do_selection(dev, ldev, last_idx, i);
		return ladder_explain(dev, last_state, last_idx, last_residency, "demote-latency", i);
	}

	/* Demotion: a short stay. */
	if (last_idx > first_idx && (u64)last_residency < last_state->threshold.demotion_time_ns) {
		last_state->stats.demotion_count++;
		last_state->stats.promotion_count = 0;
		if (last_state->stats.demotion_count >= (int)last_state->threshold.demotion_count) {
			ladder_do_selection(dev, ldev, last_idx, last_idx - 1);
			return ladder_explain(dev, last_state, last_idx, last_residency, "demote",
					      last_idx - 1);
		}
	}

	return ladder_explain(dev, last_state, last_idx, last_residency, "stay", last_idx);
}

/* The thresholds: the state's own exit latency both ways; counts from the tunables. */
static int ladder_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	int i;
	int first_idx = drv->states[0].flags & CPUIDLE_FLAG_POLLING ? 1 : 0;
	struct ladder_device *ldev = this_cpu_ptr(&ladder_devices);
	struct ladder_device_state *lstate;
	struct cpuidle_state *state;

	dev->last_state_idx = first_idx;

	for (i = first_idx; i < drv->state_count; i++) {
		state = &drv->states[i];
		lstate = &ldev->states[i];

		lstate->stats.promotion_count = 0;
		lstate->stats.demotion_count = 0;

		lstate->threshold.promotion_count = PROMOTION_COUNT;
		lstate->threshold.demotion_count = DEMOTION_COUNT;

		if (i < drv->state_count - 1)
			lstate->threshold.promotion_time_ns = (u64)state->exit_latency_ns;
		if (i > first_idx)
			lstate->threshold.demotion_time_ns = (u64)state->exit_latency_ns;
	}

	return 0;
}

/* The state entered becomes ladder's reference, unless it is state 0. */
static void ladder_reflect(struct cpuidle_device *dev, int index)
{
	if (index > 0)
		dev->last_state_idx = index;
}

static struct cpuidle_governor ladder_governor = {
	.name = "ladder@6.12",
	.rating = 10,
	.enable = ladder_enable_device,
	.select = ladder_select_state,
	.reflect = ladder_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "ladder of Debian's 6.12.118 (same as 6.1.192): one state up or down at a time",
	.params = ladder_params,
	.nr_params = ARRAY_SIZE(ladder_params),
};

static int __init init_ladder(void)
{
	return cpuidle_register_governor(&ladder_governor);
}

postcore_initcall(init_ladder);
