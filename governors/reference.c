// SPDX-License-Identifier: GPL-2.0-only
/*
 * reference.c - reference policies: oracle, oracle-energy, shallowest, deepest.
 *
 * These are not kernel governors. They bound what any governor can do on a given input, so
 * a real governor's numbers can be read against them.
 *
 * oracle
 *	Knows the true time until the CPU's next real wakeup (a timer or not), which no kernel
 *	governor can know. It picks the deepest enabled state whose target residency fits that
 *	time and whose exit latency meets the PM QoS limit; when no state qualifies, the
 *	shallowest enabled one. It stops the tick exactly when the wakeup comes after the next
 *	tick, so ticks never split its idle periods. It leaves its state when woken and pays
 *	the exit latency like every governor (the work waits for it): only its choices differ,
 *	so a governor that makes the same choices has the same timeline and zero regret.
 *	Consequences (tested): on any input without a latency limit it has zero `above` (the
 *	chosen residency fits the idle time) and zero `below` (the next enabled deeper state
 *	does not fit). The engine's lookahead covers every target residency and one tick;
 *	beyond it the oracle sees KTIME_MAX, which leads to the same choice. It is the baseline
 *	of latency regret (and its hits of the kernel's rule with perfect knowledge), not of
 *	energy regret: its rule is the kernel's (target residency), not a minimum of the energy
 *	model, which charges each exit at active power (docs/regret.md). In closed loops
 *	sim/sched/loop.c runs it without exit latency.
 *
 * oracle-energy
 *	Knows the true idle time like the oracle and stops the tick exactly as it does, but
 *	picks, among the enabled states within the PM QoS limit, the one for which the
 *	engine's model charges the least energy for the period on this CPU:
 *	    E(s) = P_core(s) * idle + E_entry_exit(s) + P_core(active) * L(s)
 *	(L: the state's mean actual wake latency under the run's model), computed by the
 *	engine's own function (cpuidle_reference_energy_j(), sim/machine/energy.c); the shallower
 *	state on a tie. It is the baseline of energy regret. Per CPU and per period it cannot
 *	see what the package and the SMT sibling do, nor how the exit's delay shortens the
 *	next period: docs/regret.md measures what that leaves. The engine looks ahead past
 *	the machine's longest break-even time for it (capped at 2 s).
 *
 * shallowest
 *	Always the shallowest enabled state, with the tick kept running, as the kernel does
 *	whenever it picks a polling or shallow state.
 *
 * deepest
 *	Always the deepest enabled state whose exit latency meets the PM QoS limit (the
 *	shallowest enabled state if none does), with the tick stopped.
 */
#include "governors/governor.h"

static bool state_enabled(const struct cpuidle_device *dev, int i)
{
	return !dev->states_usage[i].disable;
}

static int first_enabled(const struct cpuidle_driver *drv, const struct cpuidle_device *dev)
{
	int i;

	for (i = 0; i < drv->state_count; i++)
		if (state_enabled(dev, i))
			return i;
	return 0; /* all disabled: state 0, as the kernel's governors do */
}

/* Enabled, and its exit latency meets the PM QoS limit. */
static bool usable(const struct cpuidle_driver *drv, const struct cpuidle_device *dev, int i,
		   s64 latency_req)
{
	return state_enabled(dev, i) && drv->states[i].exit_latency_ns <= latency_req;
}

/* Both oracles: stop the tick exactly when the idle period outlasts the next tick, and log
 * what they knew. */
static void oracle_common(struct cpuidle_device *dev, bool *stop_tick, s64 idle_ns, s64 latency_req)
{
	*stop_tick = dev->env.oracle_wake_ns > dev->env.next_tick_ns;
	gov_explain(dev, "idle_ns", idle_ns == KTIME_MAX ? -1 : idle_ns);
	gov_explain(dev, "latency_req_ns", latency_req);
}

static int oracle_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	s64 idle_ns = cpuidle_oracle_idle_ns(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev);
	int idx = -1, i;

	/* States are ordered by depth (machine_validate()), so the first one that does not
	 * fit ends the search. */
	for (i = 0; i < drv->state_count; i++) {
		const struct cpuidle_state *s = &drv->states[i];

		if (s->target_residency_ns > idle_ns || s->exit_latency_ns > latency_req)
			break;
		if (state_enabled(dev, i))
			idx = i;
	}
	if (idx < 0)
		idx = first_enabled(drv, dev);
	oracle_common(dev, stop_tick, idle_ns, latency_req);
	gov_explain_str(dev, "rule", idx == first_enabled(drv, dev) ? "shallowest-fits" : "deepest-fit");
	return idx;
}

static int oracle_energy_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
				bool *stop_tick)
{
	s64 idle_ns = cpuidle_oracle_idle_ns(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev);
	/* Beyond the lookahead (past every break-even time) the cheapest state for an endless
	 * period is the cheapest for this one: 2^62 ns stands for it. */
	double idle = idle_ns == KTIME_MAX ? 0x1p62 : (double)idle_ns;
	double best_j = 0;
	int idx = -1, i;

	for (i = 0; i < drv->state_count; i++) {
		double j;

		if (!usable(drv, dev, i, latency_req))
			continue;
		j = cpuidle_reference_energy_j(dev, i, idle);
		if (idx < 0 || j < best_j) {
			idx = i;
			best_j = j;
		}
	}
	if (idx < 0)
		idx = first_enabled(drv, dev);
	oracle_common(dev, stop_tick, idle_ns, latency_req);
	gov_explain(dev, "energy_nj", (long long)(best_j * 1e9));
	return idx;
}

static int shallowest_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	*stop_tick = false;
	return first_enabled(drv, dev);
}

static int deepest_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	s64 latency_req = cpuidle_governor_latency_req(dev);
	int idx = -1, i;

	for (i = 0; i < drv->state_count; i++)
		if (usable(drv, dev, i, latency_req))
			idx = i;
	if (idx < 0)
		idx = first_enabled(drv, dev);
	*stop_tick = true;
	return idx;
}

const struct cpuidle_governor gov_oracle = {
	.name = "oracle",
	.rating = 0,
	.summary = "knows the real idle time: deepest state that fits, tick stopped iff it must, "
		   "pays its exit like every governor",
	.select = oracle_select,
	.oracle = true,
};

const struct cpuidle_governor gov_oracle_energy = {
	.name = "oracle-energy",
	.rating = 0,
	.summary = "knows the real idle time: the state the energy model charges least for it, "
		   "tick stopped iff it must; the reference of energy regret",
	.select = oracle_energy_select,
	.oracle = true,
	.energy_horizon = true,
};

const struct cpuidle_governor gov_shallowest = {
	.name = "shallowest",
	.rating = 0,
	.summary = "always the shallowest enabled state, tick kept",
	.select = shallowest_select,
};

const struct cpuidle_governor gov_deepest = {
	.name = "deepest",
	.rating = 0,
	.summary = "always the deepest enabled state within the latency limit, tick stopped",
	.select = deepest_select,
};
