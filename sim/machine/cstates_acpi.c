// SPDX-License-Identifier: GPL-2.0-only
/*
 * cstates_acpi.c - built-in AMD machines under the acpi_idle driver.
 *
 * AMD parts have no intel_idle table: the kernel's acpi_idle (drivers/acpi/processor_idle.c,
 * v6.12) registers the states the firmware's ACPI _CST lists, after the cpuidle core's POLL
 * (CONFIG_ARCH_HAS_CPU_RELAX on x86). acpi_processor_setup_cstates() names state i of _CST
 * "C<i>", copies _CST's description ("ACPI FFH MWAIT 0x0" for an MWAIT entry, "ACPI IOPORT
 * 0x814" for an I/O-port read), takes exit_latency from _CST's latency and sets
 * target_residency = latency * latency_factor (module parameter, default 2).
 * acpi_processor_setup_cpuidle_cx() adds TIMER_STOP only when the local APIC timer stops
 * in the state (Zen has ARAT: never), and for an ACPI C3-type state TLB_FLUSHED and, with
 * bm_check (set on every AMD family 0x17 or later, arch/x86/kernel/acpi/cstate.c),
 * RCU_IDLE.
 *
 * The _CST values are the firmware's, not the kernel's, and vary with the BIOS; each row
 * below comes from a published sysfs or dmesg dump, cited in docs/machines.md, or is
 * marked there an assumption:
 *  - EPYC: C1 "ACPI FFH MWAIT 0x0" 1 us and C2 "ACPI IOPORT 0x814" 400 us (a Zen 2
 *    Threadripper's sysfs on LKML, and the EPYC 7502 of the Zen 2 paper: ACPI 1 / 400 us).
 *    Genoa and Turin dumps with named SKUs were not found: their rows repeat these values
 *    (assumed). Other firmware shows C2 at 30, 100 or 800 us: --set or a machine JSON.
 *  - Ryzen: C1 FFH MWAIT 0x0 1 us, C2 IOPORT 0x414 18 us (ACPI type C2), C3 IOPORT 0x415
 *    350 us (type C3: Xen's dmesg prints the type) from Ryzen desktop dumps.
 *
 * Topology: each package is split into CCXs that share an L3 (llc_cores), as the
 * scheduler's MC domain is. Typical wake latencies: the Zen 2 paper measured C1 about 1 us
 * and C2 20-25 us on an EPYC 7502 (the advertised 400 us is far above); other states take
 * half the advertised latency, the rule of cstates_intel.c, marked assumed in
 * docs/wake-latency.md. Active powers are assumptions from the same paper's package
 * measurements (anchor P3: about 40 W per socket between all cores in C2 and one in C1).
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/base/common.h"

#define POLL_STATE                                                                                 \
	{                                                                                          \
		.name = "POLL", .desc = "CPUIDLE CORE POLL IDLE", .flags = CPUIDLE_FLAG_POLLING,   \
		.exit_latency_ns = 0, .target_residency_ns = 0,                                    \
	}

/* acpi_idle's row: _CST latency in us, residency = latency * latency_factor (2). */
#define ACPI_CX(n, d, fl, lat_us, typ_ns)                                                          \
	{                                                                                          \
		.name = n, .desc = d, .flags = (fl), .exit_latency_ns = SIM_NS_PER_US * (lat_us),  \
		.target_residency_ns = SIM_NS_PER_US * (lat_us) * 2,                               \
		.wake = { .kind = MACHINE_WAKE_TYPICAL, .typical_ns = (typ_ns) },                  \
	}

/* An ACPI C3-type state on Zen: TLB_FLUSHED, and RCU_IDLE (bm_check). */
#define C3_TYPE (CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_RCU_IDLE)

#define EPYC_STATES                                                                                \
	{                                                                                          \
		POLL_STATE, ACPI_CX("C1", "ACPI FFH MWAIT 0x0", 0, 1, 1000),                       \
			ACPI_CX("C2", "ACPI IOPORT 0x814", 0, 400, 22500),                         \
	}

static const struct machine acpi_machines[] = {
	{
		.name = "rome",
		.desc = "AMD EPYC Rome (Zen 2), acpi_idle, _CST C1 1 us C2 400 us, 2x EPYC 7502",
		.driver = "acpi_idle",
		.packages = 2,
		.cores = 32,
		.threads = 2,
		.llc_cores = 4,
		.active_core_power_w = 4.0,
		.active_package_power_w = 40.0,
		.state_count = 3,
		.states = EPYC_STATES,
	},
	{
		.name = "genoa",
		.desc = "AMD EPYC Genoa (Zen 4), acpi_idle, _CST as Rome's (assumed), 2x EPYC 9654",
		.driver = "acpi_idle",
		.packages = 2,
		.cores = 96,
		.threads = 2,
		.llc_cores = 8,
		.active_core_power_w = 4.0,
		.active_package_power_w = 40.0,
		.state_count = 3,
		.states = EPYC_STATES,
	},
	{
		.name = "turin",
		.desc = "AMD EPYC Turin (Zen 5), acpi_idle, _CST as Rome's (assumed), 2x EPYC 9755",
		.driver = "acpi_idle",
		.packages = 2,
		.cores = 128,
		.threads = 2,
		.llc_cores = 8,
		.active_core_power_w = 4.0,
		.active_package_power_w = 40.0,
		.state_count = 3,
		.states = EPYC_STATES,
	},
	{
		.name = "ryzen",
		.desc = "AMD Ryzen desktop (Zen 4), acpi_idle, _CST C1 C2 C3, Ryzen 9 7950X",
		.driver = "acpi_idle",
		.packages = 1,
		.cores = 16,
		.threads = 2,
		.llc_cores = 8,
		.active_core_power_w = 4.0,
		.active_package_power_w = 5.0,
		.state_count = 4,
		.states =
			{
				POLL_STATE,
				ACPI_CX("C1", "ACPI FFH MWAIT 0x0", 0, 1, 1000),
				ACPI_CX("C2", "ACPI IOPORT 0x414", 0, 18, 9000),
				ACPI_CX("C3", "ACPI IOPORT 0x415", C3_TYPE, 350, 175000),
			},
	},
};

/* The acpi_idle machines, in their fixed order, after the intel_idle ones. */
const struct machine *machine_acpi_builtins(unsigned int *count)
{
	*count = SIM_ARRAY_SIZE(acpi_machines);
	return acpi_machines;
}
