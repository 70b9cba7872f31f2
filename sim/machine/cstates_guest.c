// SPDX-License-Identifier: GPL-2.0-only
/*
 * cstates_guest.c - the built-in KVM guest: the cpuidle-haltpoll driver's table on a typical
 * cloud guest topology.
 *
 * The table is drivers/cpuidle/cpuidle-haltpoll.c's haltpoll_driver, the same text in Debian's
 * linux-source-6.1 (6.1.192) and -6.12 (6.12.118): haltpoll_init() calls
 * cpuidle_poll_state_init(), so state 0 is the core's POLL (0/0 us, CPUIDLE_FLAG_POLLING), and
 * state 1 is "haltpoll idle" / "default architecture idle", exit_latency 1 us and
 * target_residency 1 us (values the driver sets so that every governor will use it; the
 * patch series' v5 changelog: "Set target_residency/exit_latency to 1"), no flags, entered
 * with the architecture's default idle (HLT on x86, which exits to the host). The driver
 * loads only in a KVM guest with the KVM_HINTS_REALTIME hint (or force=1), and asks for the
 * haltpoll governor (haltpoll_driver.governor); idlesim has no default governor per machine
 * (docs/governors.md says how a run lists haltpoll).
 *
 * Topology: 8 vCPUs as 1 package of 8 cores, 1 thread each: what QEMU (>= 6.2, which prefers
 * cores to sockets) gives a guest started with -smp 8 and no topology, and a common cloud
 * size. No SMT is exposed, so no two vCPUs share a core in the energy model. An assumption:
 * a guest with SMT (-smp 8,threads=2) is a JSON file away (idlesim machines kvm --json).
 *
 * Power and wake latency are the host's, seen from the guest; all assumed, see
 * docs/machines.md and docs/wake-latency.md for the sources and how results move with them:
 *  - a vCPU at work or polling is a host core at work: active core power 4.0 W as the Intel
 *    machines, POLL at 0.875 of it (the default rule's pause loop);
 *  - a halted vCPU is a host core in the host's own idle: the default rule from HLT's 1 us
 *    target residency, 0.34 of active (what it gives the Intel C1, whose target is 2 us);
 *  - no package power: the guest owns no package and cannot make the host's idle deeper or
 *    shallower (active_package_power_w 0);
 *  - the typical actual wake-up from HLT is 6 us, for a VM exit at the HLT, the host's idle
 *    and scheduler wakeup of the vCPU thread, and the VM entry (host halt polling is off:
 *    the guest's haltpoll driver turns it off through MSR_KVM_POLL_CONTROL). POLL has no exit.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/base/common.h"

static const struct machine guest_machines[] = {
	{
		.name = "kvm",
		.desc = "KVM guest, 8 vCPUs, cpuidle-haltpoll driver (haltpoll_driver): POLL, HLT",
		.driver = "haltpoll",
		.packages = 1,
		.cores = 8,
		.threads = 1,
		.active_core_power_w = 4.0,
		.active_package_power_w = 0.0,
		.state_count = 2,
		.states =
			{
				{
					/* cpuidle_poll_state_init() */
					.name = "POLL",
					.desc = "CPUIDLE CORE POLL IDLE",
					.flags = CPUIDLE_FLAG_POLLING,
					.exit_latency_ns = 0,
					.target_residency_ns = 0,
				},
				{
					.name = "haltpoll idle",
					.desc = "default architecture idle",
					.flags = 0,
					.exit_latency_ns = 1 * SIM_NS_PER_US,
					.target_residency_ns = 1 * SIM_NS_PER_US,
					.wake = { .kind = MACHINE_WAKE_TYPICAL,
						  .typical_ns = 6 * SIM_NS_PER_US },
				},
			},
	},
};

/* The guest machines, in their fixed order: after the intel_idle ones (machine_builtin.c). */
const struct machine *machine_guest_builtins(unsigned int *count)
{
	*count = SIM_ARRAY_SIZE(guest_machines);
	return guest_machines;
}
