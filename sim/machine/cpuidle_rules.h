/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuidle_rules.h - the kernel's per-state accounting of one completed idle entry, shared by
 * the engine (simulated entries) and the trace importer (entries a real kernel recorded).
 *
 * drivers/cpuidle/cpuidle.c cpuidle_enter_state(), for an entry of state `idx` whose
 * measured residency is `diff` ns:
 *
 *   usage++, time_ns += diff;
 *   above: diff < target_residency(idx) and some shallower state is enabled (the first one
 *          found scanning down from idx - 1 counts, once);
 *   below: otherwise, if diff > exit_latency(idx), the first enabled deeper state i has
 *          diff - exit_latency(idx) >= target_residency(i) (only that first one is tried).
 *
 * A state is enabled when su[i].disable is zero. traces/FORMAT.md and
 * ../shared/reference/kernel-governors.md section 1.8 state the same rule.
 */
#ifndef IDLESIM_CPUIDLE_RULES_H
#define IDLESIM_CPUIDLE_RULES_H

#include <stdint.h>

#include "governors/governor.h"

enum cpuidle_verdict {
	CPUIDLE_HIT = 0,
	CPUIDLE_ABOVE = 1, /* too deep: cpu_idle_miss type=above */
	CPUIDLE_BELOW = 2, /* too shallow: cpu_idle_miss type=below */
};

/* The verdict alone, counting nothing. */
enum cpuidle_verdict cpuidle_classify(const struct cpuidle_driver *drv,
				      const struct cpuidle_state_usage *su, int idx, int64_t diff);

/* Count the entry in su[idx] (usage, time_ns, above, below) and return its verdict. */
enum cpuidle_verdict cpuidle_account(const struct cpuidle_driver *drv, struct cpuidle_state_usage *su,
				     int idx, int64_t diff);

#endif
