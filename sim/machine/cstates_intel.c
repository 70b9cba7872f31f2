// SPDX-License-Identifier: GPL-2.0-only
/*
 * cstates_intel.c - the built-in machines: intel_idle C-state tables on real topologies.
 *
 * The state tables come from the Linux driver drivers/idle/intel_idle.c, with the values as
 * of about v6.4 to v6.16 (torvalds/linux@00433eae1771, re-checked against a v6.16 copy; the
 * hsw, bdw, skl and skx rows did not change in between). Older kernels (4.x) named the same
 * states with a model suffix, such as C1-HSW, C1E-SKL or C6-SKX, with the same numbers, and
 * lacked the ALWAYS_ENABLE, IBRS and IRQ_ENABLE flags.
 *
 * Each machine is laid out as intel_idle_cpuidle_driver_init() builds the driver: state 0 is
 * the cpuidle core's POLL state (drivers/cpuidle/poll_state.c), and the model's table follows
 * from index 1. The kernel gives latencies in us and converts them to ns; so do the rows
 * below. desc is the kernel's "MWAIT 0xNN" text. The MWAIT hint that the kernel keeps in
 * flags[31:24] is left out of .flags: no governor reads it.
 *
 * The server parts (hsx, bdx, skx) set use_acpi in the kernel: a table state that the ACPI
 * _CST does not list is registered with CPUIDLE_FLAG_OFF (disabled until the user enables
 * it), unless it carries CPUIDLE_FLAG_ALWAYS_ENABLE. On the Haswell-EP and Broadwell-EP
 * systems this models, _CST lists C1, C1E and C6 but not C3, so C3 is present but off; the
 * client-only states C7s to C10 are not enumerated by CPUID on these parts and are left out.
 *
 * Active powers are documented assumptions anchored on the few published measurements
 * (energy-and-statistics reference, sections 2.1 and 2.6):
 *  - a core at work draws 4.0 W on every machine; a pause-loop core costs about 3.5 W more
 *    than a core in C6 on a Skylake-SP (anchor P2), and the default energy rule gives POLL
 *    0.875 of the active core power for that reason;
 *  - a package with any core awake costs 30 W above its deepest state on Haswell-EP and
 *    Broadwell-EP (anchor P1: about 26 W per socket between deep and shallow idle), 55 W on
 *    Skylake-SP (anchor P2: about 48 W per socket when the first core leaves C6), and 5 W on
 *    the client parts (anchor P5: package C-states save about 3 W at the wall, 5 W to 2 W
 *    by the vendor's package estimate).
 *
 * Each row also carries the state's typical actual wake latency, which the engine uses under
 * --wake-latency typical (the default) while governors keep reading the table's worst-case
 * exit latency: published measurements where they exist (Skylake-SP C6 92 us with the
 * package in PC0; a Haswell server's deep idle 25 us and shallow 2 us; wult's sample of a
 * client part, C6 5.05 us and C1E 1.9 us), else half the advertised latency (teo.c's own
 * estimate of an average wake-up), never below a shallower state's typical value.
 * docs/wake-latency.md gives the source of every value.
 *
 * The per-state power fields are 0 here: machine_load() fills them with the default energy
 * rule of machine.c, which interpolates in log10 and so cannot run at compile time.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/base/common.h"

/* intel_idle flag shorthands, as in the kernel reference tables. */
#define TLB CPUIDLE_FLAG_TLB_FLUSHED
#define AE CPUIDLE_FLAG_ALWAYS_ENABLE
#define IBRS CPUIDLE_FLAG_IBRS
#define IRQ_ENABLE CPUIDLE_FLAG_IRQ_ENABLE

/* cpuidle_poll_state_init(): the kernel always puts it at index 0. */
#define POLL_STATE                                                                                 \
	{                                                                                          \
		.name = "POLL", .desc = "CPUIDLE CORE POLL IDLE", .flags = CPUIDLE_FLAG_POLLING,   \
		.exit_latency_ns = 0, .target_residency_ns = 0,                                    \
	}

/*
 * One row of an intel_idle table; exit latency and target residency in us, as the kernel,
 * then the typical actual wake latency in ns (docs/wake-latency.md gives the source of
 * each: a published measurement, or the rule for states without one).
 */
#define CSTATE(n, hint, fl, lat_us, res_us, typ_ns)                                                \
	{                                                                                          \
		.name = n, .desc = "MWAIT " hint, .flags = (fl),                                   \
		.exit_latency_ns = SIM_NS_PER_US * (lat_us),                                       \
		.target_residency_ns = SIM_NS_PER_US * (res_us),                                   \
		.wake = { .kind = MACHINE_WAKE_TYPICAL, .typical_ns = (typ_ns) },                  \
	}

/* A row that use_acpi turns off because _CST lacks it (intel_idle adds CPUIDLE_FLAG_OFF). */
#define CSTATE_ACPI_OFF(n, hint, fl, lat_us, res_us, typ_ns)                                       \
	{                                                                                          \
		.name = n, .desc = "MWAIT " hint, .flags = (fl) | CPUIDLE_FLAG_OFF,                \
		.exit_latency_ns = SIM_NS_PER_US * (lat_us),                                       \
		.target_residency_ns = SIM_NS_PER_US * (res_us), .default_off = true,              \
		.wake = { .kind = MACHINE_WAKE_TYPICAL, .typical_ns = (typ_ns) },                  \
	}

static const struct machine builtin_machines[] = {
	{
		/* hsw_cstates: HASWELL, HASWELL_L, HASWELL_G (idle_cpu_hsw) */
		.name = "hsw",
		.desc = "Haswell client (HASWELL, HASWELL_L, HASWELL_G), intel_idle hsw_cstates",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 4,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 5.0,
		.state_count = 9,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", 0, 2, 2, 1000),
				CSTATE("C1E", "0x01", AE, 10, 20, 1900),
				CSTATE("C3", "0x10", TLB, 33, 100, 5050),
				CSTATE("C6", "0x20", TLB, 133, 400, 5050),
				CSTATE("C7s", "0x32", TLB, 166, 500, 83000),
				CSTATE("C8", "0x40", TLB, 300, 900, 150000),
				CSTATE("C9", "0x50", TLB, 600, 1800, 300000),
				CSTATE("C10", "0x60", TLB, 2600, 7700, 1300000),
			},
	},
	{
		/* bdw_cstates: BROADWELL, BROADWELL_G (idle_cpu_bdw) */
		.name = "bdw",
		.desc = "Broadwell client (BROADWELL, BROADWELL_G), intel_idle bdw_cstates",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 4,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 5.0,
		.state_count = 9,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", 0, 2, 2, 1000),
				CSTATE("C1E", "0x01", AE, 10, 20, 1900),
				CSTATE("C3", "0x10", TLB, 40, 100, 5050),
				CSTATE("C6", "0x20", TLB, 133, 400, 5050),
				CSTATE("C7s", "0x32", TLB, 166, 500, 83000),
				CSTATE("C8", "0x40", TLB, 300, 900, 150000),
				CSTATE("C9", "0x50", TLB, 600, 1800, 300000),
				CSTATE("C10", "0x60", TLB, 2600, 7700, 1300000),
			},
	},
	{
		/* skl_cstates: SKYLAKE_L, SKYLAKE, KABYLAKE_L, KABYLAKE (idle_cpu_skl) */
		.name = "skl",
		.desc = "Skylake client (SKYLAKE, KABYLAKE), intel_idle skl_cstates",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 4,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 5.0,
		.state_count = 9,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", 0, 2, 2, 1000),
				CSTATE("C1E", "0x01", AE, 10, 20, 1900),
				CSTATE("C3", "0x10", TLB, 70, 100, 5050),
				CSTATE("C6", "0x20", TLB | IBRS, 85, 200, 5050),
				CSTATE("C7s", "0x33", TLB | IBRS, 124, 800, 62000),
				CSTATE("C8", "0x40", TLB | IBRS, 200, 800, 100000),
				CSTATE("C9", "0x50", TLB | IBRS, 480, 5000, 240000),
				CSTATE("C10", "0x60", TLB | IBRS, 890, 5000, 445000),
			},
	},
	{
		/* hsw_cstates through idle_cpu_hsx (HASWELL_X, use_acpi) */
		.name = "hsx",
		.desc = "Haswell-EP (HASWELL_X), intel_idle hsw_cstates, use_acpi, 2 sockets",
		.driver = "intel_idle",
		.packages = 2,
		.cores = 12,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 30.0,
		.state_count = 5,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", 0, 2, 2, 2000),
				CSTATE("C1E", "0x01", AE, 10, 20, 5000),
				CSTATE_ACPI_OFF("C3", "0x10", TLB, 33, 100, 16500),
				CSTATE("C6", "0x20", TLB, 133, 400, 25000),
			},
	},
	{
		/* bdw_cstates through idle_cpu_bdx (BROADWELL_X, BROADWELL_D, use_acpi) */
		.name = "bdx",
		.desc = "Broadwell-EP (BROADWELL_X), intel_idle bdw_cstates, use_acpi, 2 sockets",
		.driver = "intel_idle",
		.packages = 2,
		.cores = 20,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 30.0,
		.state_count = 5,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", 0, 2, 2, 2000),
				CSTATE("C1E", "0x01", AE, 10, 20, 5000),
				CSTATE_ACPI_OFF("C3", "0x10", TLB, 40, 100, 20000),
				CSTATE("C6", "0x20", TLB, 133, 400, 25000),
			},
	},
	{
		/*
		 * skx_cstates (SKYLAKE_X: SKX, CLX, CPX; use_acpi). The topology is the measured
		 * system of anchor P2, 2x Xeon Gold 6154. C6 keeps its PC6-enabled values; the
		 * kernel lowers them to 92/276 us only when the BIOS limits package C-states.
		 */
		.name = "skx",
		.desc = "Skylake-SP (SKYLAKE_X), intel_idle skx_cstates, 2x Xeon Gold 6154",
		.driver = "intel_idle",
		.packages = 2,
		.cores = 18,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 55.0,
		.state_count = 4,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", IRQ_ENABLE, 2, 2, 1000),
				CSTATE("C1E", "0x01", AE, 10, 20, 5000),
				CSTATE("C6", "0x20", TLB | IBRS, 133, 600, 92000),
			},
	},
};

/* The intel_idle machines, in their fixed order: the first built-ins (machine_builtin.c). */
const struct machine *machine_intel_builtins(unsigned int *count)
{
	*count = SIM_ARRAY_SIZE(builtin_machines);
	return builtin_machines;
}
