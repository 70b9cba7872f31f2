/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim/gov.h - the two things an idlesim port needs beyond the kernel's API, and nothing
 * else. A port (governors/<file>.c) includes the kernel headers of this layer like a kernel file
 * does, plus this one:
 *
 *   - Tunables. A port lists the kernel constants it lets `--set FAMILY.NAME=V` change in its
 *     governor's .params (struct gov_param: name, the kernel's value as default, range);
 *     the engine hands their values to every call as dev->gov_params. A port reads them in
 *     one place: one block of macros named like the kernel constants (PULSE, DECAY, ...),
 *     each idlesim_tunable(dev, index), so the logic below reads as the kernel's.
 *   - The decision log (`idlesim run --explain`). A port reports the variables behind a
 *     decision with gov_explain()/gov_explain_str(), from one trace function per exit path
 *     of select() (like a tracepoint), never interleaved with the logic. Each costs one
 *     predictable branch when the log is off.
 *
 * governors/governor.h (the reference policies and the engine) includes this file too.
 */
#ifndef IDLESIM_GOV_H
#define IDLESIM_GOV_H

#include "cpuidle_abi.h"

/* ---- tunables ---- */

/* The value of tunable `i` (an index into the governor's .params) for this run. */
#define idlesim_tunable(dev, i) ((dev)->gov_params[(i)])

/* ---- decision log (idlesim run --explain) ---- */

#define CPUIDLE_EXPLAIN_MAX 40

struct cpuidle_explain_item {
	const char *key; /* a string literal */
	const char *str; /* NULL for a number */
	long long val;
};

struct cpuidle_explain {
	int nr;
	struct cpuidle_explain_item items[CPUIDLE_EXPLAIN_MAX];
};

void cpuidle_explain_add(struct cpuidle_explain *ex, const char *key, const char *str, long long val);

/* Report a variable behind the current decision. Keys are string literals; "rule" names the
 * rule that decided. */
#define gov_explain(dev, key, val)                                                                 \
	do {                                                                                       \
		if ((dev)->explain)                                                                \
			cpuidle_explain_add((dev)->explain, (key), NULL, (long long)(val));         \
	} while (0)
#define gov_explain_str(dev, key, s)                                                               \
	do {                                                                                       \
		if ((dev)->explain)                                                                \
			cpuidle_explain_add((dev)->explain, (key), (s), 0);                        \
	} while (0)

#endif
