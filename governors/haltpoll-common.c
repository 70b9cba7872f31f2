// SPDX-License-Identifier: GPL-2.0-only
/*
 * haltpoll-common.c - the select(), enable() and decision log of the haltpoll ports
 * (haltpoll-common.h describes the algorithm); the same logic in v6.1 and v6.12.
 *
 * DOC: Decision log (idlesim run --explain)
 *
 * poll_limit_ns (the window, after the last reflect), last_state_idx, poll_time_limit (did the
 * window end the last POLL entry), rule: latency-zero (no states or a PM QoS limit of 0: POLL,
 * tick kept), no-window (window 0: HLT), poll-expired (the last POLL ran out: HLT),
 * poll-again (the last POLL was woken: POLL), poll-after-halt (the last entry was HLT: POLL).
 */
#include "governors/haltpoll-common.h"


const struct gov_param haltpoll_params[HALTPOLL_NR_PARAMS] = {
	[HALTPOLL_PARAM_NS] = { "guest_halt_poll_ns", 200000, 0, UINT_MAX,
				"longest poll window, ns; a HLT longer than this shrinks it" },
	[HALTPOLL_PARAM_SHRINK] = { "guest_halt_poll_shrink", 2, 0, UINT_MAX,
				    "the window is divided by this after a long HLT (0: reset to 0)" },
	[HALTPOLL_PARAM_GROW] = { "guest_halt_poll_grow", 2, 0, UINT_MAX,
				  "the window is multiplied by this after a short HLT" },
	[HALTPOLL_PARAM_GROW_START] = { "guest_halt_poll_grow_start", 50000, 0, UINT_MAX,
					"the window grown from 0 (or below this) starts here, ns" },
	[HALTPOLL_PARAM_ALLOW_SHRINK] = { "guest_halt_poll_allow_shrink", 1, 0, 1,
					  "1: long HLTs shrink the window; 0: it never shrinks" },
};

/* The decision log: one call on every way out of haltpoll_select(). */
static int haltpoll_explain(struct cpuidle_device *dev, const char *rule, int idx)
{
	if (!dev->explain)
		return idx;
	gov_explain(dev, "poll_limit_ns", dev->poll_limit_ns);
	gov_explain(dev, "last_state_idx", dev->last_state_idx);
	gov_explain(dev, "poll_time_limit", dev->poll_time_limit);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

int haltpoll_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);

	/* Nothing to choose from, or no idle latency allowed at all: poll, keep the tick. */
	if (drv->state_count == 0 || latency_req == 0) {
		*stop_tick = false;
		return haltpoll_explain(dev, "latency-zero", 0);
	}

	/* No poll window (yet, or shrunk away): halt, and let the tick stop. */
	if (dev->poll_limit_ns == 0)
		return haltpoll_explain(dev, "no-window", 1);

	if (dev->last_state_idx == 0) {
		/* The window ran out with no wakeup: halt now. */
		if (dev->poll_time_limit)
			return haltpoll_explain(dev, "poll-expired", 1);
		/* A wakeup ended the poll: poll again. */
		*stop_tick = false;
		return haltpoll_explain(dev, "poll-again", 0);
	}

	/* The last entry was a halt: start this idle period polling. */
	*stop_tick = false;
	return haltpoll_explain(dev, "poll-after-halt", 0);
}

int haltpoll_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	dev->poll_limit_ns = 0;
	return 0;
}
