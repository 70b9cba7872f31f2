// SPDX-License-Identifier: GPL-2.0-only
/*
 * haltpoll-6.12.c - haltpoll@6.12: the haltpoll cpuidle governor of KVM guests
 * (drivers/cpuidle/governors/haltpoll.c). The algorithm, the tunables and the decision log
 * are described in haltpoll-common.h and haltpoll-common.c, which hold the select() and
 * enable() both releases share; this file has the v6.12 adjust_poll_limit() and reflect().
 *
 * DOC: Version modelled
 *
 * haltpoll@6.12 - the haltpoll.c of Debian's linux-source-6.12 (6.12.118). Unlike the file of
 *	linux-source-6.1 (6.1.192), modelled as haltpoll@6.1 (haltpoll-6.1.c), a window shrunk
 *	below guest_halt_poll_grow_start is reset to 0 (the only difference in logic between
 *	the two files; upstream made the change between the two releases), so three long halts
 *	in a row take the default 200 us window to 100, 50 and then 0 us (25 < 50), and the
 *	guest stops polling until a short halt grows the window again. Checked decision by decision
 *	against the packaged file on the kvm and skl machines (tests/test_kgov.c, README
 *	"Kernel governor files").
 *
 * DOC: Quirks reproduced
 *
 *  - The window arithmetic is the kernel's: val is an unsigned int, so poll_limit_ns (u64)
 *    times guest_halt_poll_grow is truncated to 32 bits before the clamps, and a window read
 *    for a shrink is truncated the same way.
 *  - The grow clamps apply in the kernel's order: at least grow_start, then at most
 *    guest_halt_poll_ns; with guest_halt_poll_ns below grow_start the window is
 *    guest_halt_poll_ns.
 *  - block_ns is the HLT entry's own residency (dev->last_residency_ns), not the whole idle
 *    period: the POLL time before it does not count, and a wakeup during POLL changes nothing.
 *  - dev->poll_limit_ns is shared with the cpuidle core: a POLL entered with a window of 0
 *    (only with a PM QoS limit of 0) makes cpuidle_poll_time() cache its default there
 *    (TICK_NSEC / 16 on the kvm machine, whose HLT target residency is below 10 us), and
 *    haltpoll then polls for that window although it never set it (the engine runs the
 *    core's cpuidle_poll_time(), as the kernel does).
 *
 * DOC: Deviations
 *
 *  - The module parameters are tunables (--set haltpoll.guest_halt_poll_ns=V, ...), the
 *    kernel's defaults by default, read at every call as the kernel reads its variables.
 *  - The trace_guest_halt_poll_ns_grow/shrink tracepoints are not emitted; --explain shows
 *    the window at each select instead.
 *  - The kernel registers haltpoll only in a KVM guest (kvm_para_available()); idlesim runs
 *    it on any machine it is asked to, where it only ever picks state 0 or 1, and lists it
 *    among the default governors of a run only for a guest machine (docs/governors.md).
 *  - The engine starts dev->last_state_idx at -1 where the kernel's zeroed device has 0;
 *    haltpoll reads it only with a non-zero window, which only an entry (after whose
 *    reflect() it holds the state entered) can give, so no decision depends on it.
 *  - The kernel's POLL checks its time limit every 200 cpu_relax() iterations; the engine
 *    ends it exactly at the window (traces/FORMAT.md), so a window ends a poll a little earlier
 *    than on hardware, and POLL's residency, which haltpoll never reads, is exact.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <idlesim/gov.h>

#include "governors/haltpoll-common.h"

IDLESIM_NO_PER_CPU;

/* After a halt of block_ns: grow the window, shrink it, or leave it. */
static void adjust_poll_limit(struct cpuidle_device *dev, u64 block_ns)
{
	unsigned int val;

	if (block_ns > dev->poll_limit_ns && block_ns <= guest_halt_poll_ns) {
		/* Woken after the window, within the longest one: a longer window would have
		 * caught the wakeup. */
		val = dev->poll_limit_ns * guest_halt_poll_grow;
		if (val < guest_halt_poll_grow_start)
			val = guest_halt_poll_grow_start;
		if (val > guest_halt_poll_ns)
			val = guest_halt_poll_ns;
		dev->poll_limit_ns = val;
	} else if (block_ns > guest_halt_poll_ns && guest_halt_poll_allow_shrink) {
		/* Longer than any window: polling was wasted. */
		unsigned int shrink = guest_halt_poll_shrink;

		val = dev->poll_limit_ns;
		if (shrink == 0) {
			val = 0;
		} else {
			val /= shrink;
			/* v6.12: a window below the starting one is no window. */
			if (val < guest_halt_poll_grow_start)
				val = 0;
		}
		dev->poll_limit_ns = val;
	}
}

/* The state entered becomes the last state; a halt adjusts the window. */
static void haltpoll_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
	if (index != 0)
		adjust_poll_limit(dev, dev->last_residency_ns);
}

static struct cpuidle_governor haltpoll_governor = {
	.name = "haltpoll@6.12",
	.rating = 9,
	.enable = haltpoll_enable_device,
	.select = haltpoll_select,
	.reflect = haltpoll_reflect,
	/* idlesim: the one-line summary, the tunables (idlesim/gov.h), the default list */
	.summary = "haltpoll of Debian's 6.12.118 (KVM guests): as haltpoll@6.1, but a window "
		   "shrunk below grow_start is reset to 0",
	.params = haltpoll_params,
	.nr_params = HALTPOLL_NR_PARAMS,
	.kvm_guest_only = true,
};

static int __init init_haltpoll(void)
{
	return cpuidle_register_governor(&haltpoll_governor);
}

postcore_initcall(init_haltpoll);
