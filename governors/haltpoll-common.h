/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * haltpoll-common.h - what the haltpoll ports (haltpoll-6.1.c, haltpoll-6.12.c) share: the
 * module parameters as tunables, and select(), enable() and the decision log, whose logic is
 * the same in both releases (they differ only in how adjust_poll_limit() shrinks).
 *
 * DOC: The algorithm
 *
 * haltpoll is the governor of KVM guests that run the cpuidle-haltpoll driver (state 0 POLL,
 * state 1 "haltpoll idle", the architecture's default idle: HLT, which exits to the host).
 * Polling in the guest costs host CPU time but spares the VM exit and entry of a HLT and the
 * host's own idle and wakeup; so it polls only as long as recent idle periods suggest a
 * wakeup will come. Its one piece of state is the device's poll window, dev->poll_limit_ns,
 * which the cpuidle core's POLL state also reads as its time limit (cpuidle_poll_time()
 * returns it whenever it is not 0):
 *
 *  - select(): no states, or a PM QoS limit of 0: POLL with the tick kept. A window of 0:
 *    HLT, and the tick may stop. After a POLL entry: HLT if the window ran out
 *    (dev->poll_time_limit), else POLL again with the tick kept. After a HLT: POLL with the
 *    tick kept. So an idle period with a window is POLL for up to the window, then HLT.
 *  - reflect(): records the state entered in dev->last_state_idx; after a HLT it adjusts the
 *    window with block_ns = the HLT's measured residency: grow (window * grow, at least
 *    grow_start, at most guest_halt_poll_ns) when window < block_ns <= guest_halt_poll_ns;
 *    shrink (window / shrink, or 0 when shrink is 0) when block_ns > guest_halt_poll_ns and
 *    shrinking is allowed; else leave it.
 *  - enable(): the window starts at 0 (HLT until a short HLT grows it).
 *
 * DOC: Tunables
 *
 * The kernel's five module parameters (/sys/module/haltpoll/parameters/, all read on every
 * call, as the kernel reads them), with its defaults and the ranges of their types: uint for
 * the four numbers (0 .. 4294967295), bool (0 or 1) for guest_halt_poll_allow_shrink.
 */
#ifndef IDLESIM_GOVERNORS_HALTPOLL_COMMON_H
#define IDLESIM_GOVERNORS_HALTPOLL_COMMON_H

#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <idlesim/gov.h>

/* ---- tunables: the module parameters, read with idlesim_tunable() (the one place) ---- */

enum {
	HALTPOLL_PARAM_NS,
	HALTPOLL_PARAM_SHRINK,
	HALTPOLL_PARAM_GROW,
	HALTPOLL_PARAM_GROW_START,
	HALTPOLL_PARAM_ALLOW_SHRINK,
	HALTPOLL_NR_PARAMS
};

#define guest_halt_poll_ns ((unsigned int)idlesim_tunable(dev, HALTPOLL_PARAM_NS))
#define guest_halt_poll_shrink ((unsigned int)idlesim_tunable(dev, HALTPOLL_PARAM_SHRINK))
#define guest_halt_poll_grow ((unsigned int)idlesim_tunable(dev, HALTPOLL_PARAM_GROW))
#define guest_halt_poll_grow_start ((unsigned int)idlesim_tunable(dev, HALTPOLL_PARAM_GROW_START))
#define guest_halt_poll_allow_shrink ((bool)idlesim_tunable(dev, HALTPOLL_PARAM_ALLOW_SHRINK))

extern const struct gov_param haltpoll_params[HALTPOLL_NR_PARAMS];

/* ---- the logic both releases share (haltpoll-common.c) ---- */

/* select(): POLL or HLT, from the window and the last entry (above). */
int haltpoll_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);

/* enable(): the window starts at 0. */
int haltpoll_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev);

#endif
