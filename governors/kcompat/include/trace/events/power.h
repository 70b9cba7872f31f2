/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim kernel-compatibility layer: include/trace/events/power.h.
 *
 * The tracepoints a governor fires (haltpoll.c's guest_halt_poll_ns grow and shrink events)
 * record nothing here; the arguments are still evaluated and type-checked. idlesim's own
 * decision log is `idlesim run --explain`.
 */
#ifndef _IDLESIM_TRACE_EVENTS_POWER_H
#define _IDLESIM_TRACE_EVENTS_POWER_H

#include <linux/types.h>

static inline void trace_guest_halt_poll_ns_grow(unsigned int new_ns, unsigned int old_ns)
{
	(void)new_ns;
	(void)old_ns;
}

static inline void trace_guest_halt_poll_ns_shrink(unsigned int new_ns, unsigned int old_ns)
{
	(void)new_ns;
	(void)old_ns;
}

#endif
