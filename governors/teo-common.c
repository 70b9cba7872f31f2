// SPDX-License-Identifier: GPL-2.0-only
/* teo-common.c - the helpers the teo ports share (see teo-common.h). */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <idlesim/gov.h>

#include "governors/teo-common.h"

const struct gov_param teo_params_5[TEO_NR_PARAMS_5] = {
	{"decay_shift", 3, 1, 10, "DECAY_SHIFT: each update a metric x loses x >> decay_shift"},
	{"pulse", 1024, 1, 65536, "PULSE: added to a metric per counted event"},
};

void teo_explain_sleep_length(struct cpuidle_device *dev, s64 sleep_length_ns)
{
	if (sleep_length_ns == KTIME_MAX)
		gov_explain_str(dev, "sleep_length_ns", "none");
	else
		gov_explain(dev, "sleep_length_ns", sleep_length_ns);
}

int teo_find_shallower_state(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			     int state_idx, s64 duration_ns)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (dev->states_usage[i].disable)
			continue;

		state_idx = i;
		if (drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

void teo_account_wakeup(struct cpuidle_device *dev, struct teo_idle_state *states, int idx_timer,
			int idx_hit)
{
	if (idx_timer >= 0) {
		unsigned int hits = states[idx_timer].hits;
		unsigned int misses = states[idx_timer].misses;

		hits -= hits >> DECAY_SHIFT;
		misses -= misses >> DECAY_SHIFT;

		if (idx_timer > idx_hit) {
			misses += PULSE;
			if (idx_hit >= 0)
				states[idx_hit].early_hits += PULSE;
		} else {
			hits += PULSE;
		}

		states[idx_timer].misses = misses;
		states[idx_timer].hits = hits;
	}
}
