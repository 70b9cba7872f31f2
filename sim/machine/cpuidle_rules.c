// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuidle_rules.c - cpuidle_enter_state()'s usage/time/above/below accounting (see the
 * header), in one place for the engine and the importer.
 */
#include "sim/machine/cpuidle_rules.h"

enum cpuidle_verdict cpuidle_classify(const struct cpuidle_driver *drv,
				      const struct cpuidle_state_usage *su, int idx, int64_t diff)
{
	const struct cpuidle_state *st = drv->states;
	int64_t delay = st[idx].exit_latency_ns;
	int i;

	if (diff < st[idx].target_residency_ns) {
		for (i = idx - 1; i >= 0; i--) {
			if (su[i].disable)
				continue;
			return CPUIDLE_ABOVE;
		}
	} else if (diff > delay) {
		for (i = idx + 1; i < drv->state_count; i++) {
			if (su[i].disable)
				continue;
			if (diff - delay >= st[i].target_residency_ns)
				return CPUIDLE_BELOW;
			break;
		}
	}
	return CPUIDLE_HIT;
}

enum cpuidle_verdict cpuidle_account(const struct cpuidle_driver *drv, struct cpuidle_state_usage *su,
				     int idx, int64_t diff)
{
	enum cpuidle_verdict v = cpuidle_classify(drv, su, idx, diff);

	su[idx].usage++;
	su[idx].time_ns += (u64)diff;
	if (v == CPUIDLE_ABOVE)
		su[idx].above++;
	else if (v == CPUIDLE_BELOW)
		su[idx].below++;
	return v;
}
