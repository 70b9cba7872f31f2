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
 * The newer tables (icx, spr and emr, gnr, srf, grr, adl, adl-l, adl-n, mtl) are taken from
 * Debian's linux-source-6.12 (6.12.118, drivers/idle/intel_idle.c), which
 * tests/test_intel_tables.c compares field by field with every table here at test time.
 * In 6.12, EMERALDRAPIDS_X uses spr_cstates; Raptor Lake, Lunar Lake and Arrow Lake are not
 * in the driver's model list (they get the firmware's _CST states, which idlesim does not
 * model), and gmt_cstates (ATOM_GRACEMONT, Alder Lake-N) is the newest client table.
 * adl_cstates, adl_l_cstates and gmt_cstates mark C1 CPUIDLE_FLAG_UNUSABLE: the kernel
 * skips it, so the registered table starts with C1E (intel_idle.preferred_cstates=2
 * registers C1 instead of C1E; sim/machine/intel_idle_params.c).
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
 * For the newer use_acpi parts (icx, spr, emr, gnr, srf, grr) the assumed _CST lists the FFH
 * hints of C1 (0x00), C1E (0x01) and C6 (0x20; srf and grr: C6S, 0x22), what their BIOSes
 * report with C1E and C6 enabled; with it, no table state is off by default (gnr's C6P and
 * srf's C6SP match through CPUIDLE_FLAG_PARTIAL_HINT_MATCH).
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

#include <string.h>

/* intel_idle flag shorthands, as in the kernel reference tables. */
#define TLB CPUIDLE_FLAG_TLB_FLUSHED
#define AE CPUIDLE_FLAG_ALWAYS_ENABLE
#define IBRS CPUIDLE_FLAG_IBRS
#define IRQ_ENABLE CPUIDLE_FLAG_IRQ_ENABLE
#define XSTATE CPUIDLE_FLAG_INIT_XSTATE
#define PARTIAL CPUIDLE_FLAG_PARTIAL_HINT_MATCH

/* Active power of an E-core and of a low-power E-core (assumed, docs/machines.md). */
#define ECORE_W 1.6
#define LPECORE_W 1.0

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

/* spr_cstates: one table for Sapphire Rapids and Emerald Rapids, as in the kernel. */
#define SPR_STATES                                                                                 \
	{                                                                                          \
		POLL_STATE, CSTATE("C1", "0x00", 0, 1, 1, 500),                                    \
			CSTATE("C1E", "0x01", AE, 2, 4, 1000),                                     \
			CSTATE("C6", "0x20", TLB | XSTATE, 290, 800, 145000),                      \
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
	{
		/*
		 * icx_cstates (ICELAKE_X, ICELAKE_D; use_acpi, disable_promotion_to_c1e). The
		 * assumed _CST lists C1, C1E and C6, so no state is off. 2x Xeon Platinum 8380.
		 */
		.name = "icx",
		.desc = "Ice Lake-SP (ICELAKE_X, ICELAKE_D), intel_idle icx_cstates, 2x Xeon Platinum 8380",
		.driver = "intel_idle",
		.packages = 2,
		.cores = 40,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 55.0,
		.state_count = 4,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", IRQ_ENABLE, 1, 1, 500),
				CSTATE("C1E", "0x01", AE, 4, 4, 2000),
				CSTATE("C6", "0x20", TLB, 170, 600, 41000),
			},
	},
	{
		/*
		 * spr_cstates (SAPPHIRERAPIDS_X; use_acpi, disable_promotion_to_c1e). C6 keeps its
		 * PC6 values; the kernel lowers them to 190/600 us only when the BIOS limits
		 * package C-states. 2x Xeon Platinum 8480+.
		 */
		.name = "spr",
		.desc = "Sapphire Rapids (SAPPHIRERAPIDS_X), intel_idle spr_cstates, 2x Xeon Platinum 8480+",
		.driver = "intel_idle",
		.packages = 2,
		.cores = 56,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 55.0,
		.state_count = 4,
		.states = SPR_STATES,
	},
	{
		/* spr_cstates through idle_cpu_spr (EMERALDRAPIDS_X). 2x Xeon Platinum 8592+. */
		.name = "emr",
		.desc = "Emerald Rapids (EMERALDRAPIDS_X), intel_idle spr_cstates (SPR's), 2x Xeon Platinum 8592+",
		.driver = "intel_idle",
		.packages = 2,
		.cores = 64,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 55.0,
		.state_count = 4,
		.states = SPR_STATES,
	},
	{
		/*
		 * gnr_cstates (GRANITERAPIDS_X; use_acpi, disable_promotion_to_c1e). C6 and C6P
		 * match the _CST's C6 entry by PARTIAL_HINT_MATCH. 2x Xeon 6980P.
		 */
		.name = "gnr",
		.desc = "Granite Rapids (GRANITERAPIDS_X), intel_idle gnr_cstates, 2x Xeon 6980P",
		.driver = "intel_idle",
		.packages = 2,
		.cores = 128,
		.threads = 2,
		.active_core_power_w = 4.0,
		.active_package_power_w = 55.0,
		.state_count = 5,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", 0, 1, 1, 500),
				CSTATE("C1E", "0x01", AE, 4, 4, 2000),
				CSTATE("C6", "0x20", TLB | XSTATE | PARTIAL, 170, 650, 85000),
				CSTATE("C6P", "0x21", TLB | XSTATE | PARTIAL, 210, 1000, 105000),
			},
	},
	{
		/*
		 * srf_cstates (ATOM_CRESTMONT_X; use_acpi, disable_promotion_to_c1e). E-cores
		 * only, no SMT. 1x Xeon 6780E.
		 */
		.name = "srf",
		.desc = "Sierra Forest (ATOM_CRESTMONT_X), intel_idle srf_cstates, Xeon 6780E",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 144,
		.threads = 1,
		.active_core_power_w = ECORE_W,
		.active_package_power_w = 55.0,
		.state_count = 5,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", AE, 1, 1, 500),
				CSTATE("C1E", "0x01", AE, 2, 10, 1000),
				CSTATE("C6S", "0x22", TLB | PARTIAL, 270, 700, 135000),
				CSTATE("C6SP", "0x23", TLB | PARTIAL, 310, 900, 155000),
			},
	},
	{
		/*
		 * grr_cstates (ATOM_CRESTMONT; use_acpi, disable_promotion_to_c1e). A 24-core
		 * Grand Ridge SoC, no SMT.
		 */
		.name = "grr",
		.desc = "Grand Ridge (ATOM_CRESTMONT), intel_idle grr_cstates, 24-core SoC",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 24,
		.threads = 1,
		.active_core_power_w = ECORE_W,
		.active_package_power_w = 10.0,
		.state_count = 4,
		.states =
			{
				POLL_STATE,
				CSTATE("C1", "0x00", AE, 1, 1, 500),
				CSTATE("C1E", "0x01", AE, 2, 10, 1000),
				CSTATE("C6S", "0x22", TLB, 140, 500, 70000),
			},
	},
	{
		/*
		 * adl_cstates (ALDERLAKE). C1 is UNUSABLE by default (C1E promotion on) and not
		 * registered; intel_idle.preferred_cstates=2 swaps C1 and C1E. Raptor Lake is
		 * not in 6.12's model list: it gets the _CST states, not this table (header).
		 * i9-12900K: 8 P-cores with SMT, 8 E-cores.
		 */
		.name = "adl",
		.desc = "Alder Lake (ALDERLAKE), intel_idle adl_cstates, i9-12900K 8P+8E",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 16,
		.threads = 2,
		.nr_core_types = 2,
		.core_types = { { "cpu_core", 8, 2, 0.0 }, { "cpu_atom", 8, 1, ECORE_W } },
		.active_core_power_w = 4.0,
		.active_package_power_w = 5.0,
		.state_count = 5,
		.states =
			{
				POLL_STATE,
				CSTATE("C1E", "0x01", AE, 2, 4, 1000),
				CSTATE("C6", "0x20", TLB, 220, 600, 110000),
				CSTATE("C8", "0x40", TLB, 280, 800, 140000),
				CSTATE("C10", "0x60", TLB, 680, 2000, 340000),
			},
	},
	{
		/* adl_l_cstates (ALDERLAKE_L), C1 as in adl. i7-1260P: 4 P-cores, 8 E-cores. */
		.name = "adl-l",
		.desc = "Alder Lake-L (ALDERLAKE_L), intel_idle adl_l_cstates, i7-1260P 4P+8E",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 12,
		.threads = 2,
		.nr_core_types = 2,
		.core_types = { { "cpu_core", 4, 2, 0.0 }, { "cpu_atom", 8, 1, ECORE_W } },
		.active_core_power_w = 4.0,
		.active_package_power_w = 5.0,
		.state_count = 5,
		.states =
			{
				POLL_STATE,
				CSTATE("C1E", "0x01", AE, 2, 4, 1000),
				CSTATE("C6", "0x20", TLB, 170, 500, 85000),
				CSTATE("C8", "0x40", TLB, 200, 600, 100000),
				CSTATE("C10", "0x60", TLB, 230, 700, 115000),
			},
	},
	{
		/* gmt_cstates (ATOM_GRACEMONT), C1 as in adl. Core i3-N305: 8 E-cores, no SMT. */
		.name = "adl-n",
		.desc = "Alder Lake-N (ATOM_GRACEMONT), intel_idle gmt_cstates, i3-N305 8 E-cores",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 8,
		.threads = 1,
		.active_core_power_w = ECORE_W,
		.active_package_power_w = 5.0,
		.state_count = 5,
		.states =
			{
				POLL_STATE,
				CSTATE("C1E", "0x01", AE, 2, 4, 1000),
				CSTATE("C6", "0x20", TLB, 195, 585, 97500),
				CSTATE("C8", "0x40", TLB, 260, 1040, 130000),
				CSTATE("C10", "0x60", TLB, 660, 1980, 330000),
			},
	},
	{
		/*
		 * mtl_l_cstates (METEORLAKE_L): no C1 in the table. Core Ultra 7 155H: 6 P-cores
		 * with SMT, 8 E-cores and 2 low-power E-cores (both cpu_atom to the kernel).
		 */
		.name = "mtl",
		.desc = "Meteor Lake-L (METEORLAKE_L), intel_idle mtl_l_cstates, Core Ultra 7 155H 6P+8E+2LPE",
		.driver = "intel_idle",
		.packages = 1,
		.cores = 16,
		.threads = 2,
		.nr_core_types = 3,
		.core_types = { { "cpu_core", 6, 2, 0.0 },
				{ "cpu_atom", 8, 1, ECORE_W },
				{ "cpu_atom", 2, 1, LPECORE_W } },
		.active_core_power_w = 4.0,
		.active_package_power_w = 5.0,
		.state_count = 4,
		.states =
			{
				POLL_STATE,
				CSTATE("C1E", "0x01", AE, 1, 1, 500),
				CSTATE("C6", "0x20", TLB, 140, 420, 70000),
				CSTATE("C10", "0x60", TLB, 310, 930, 155000),
			},
	},
};

/* The assumed _CST hints of the use_acpi parts (header): C1, C1E, and C6 or C6S. */
#define CST_C6 .nr_cst = 3, .cst = { 0x00, 0x01, 0x20 }
#define CST_C6S .nr_cst = 3, .cst = { 0x00, 0x01, 0x22 }
/* C1 of adl_cstates, adl_l_cstates and gmt_cstates: UNUSABLE unless preferred. */
#define ADL_C1 .c1_preference = true, .c1 = CSTATE("C1", "0x00", 0, 1, 1, 500)

static const struct machine_intel_model intel_models[] = {
	{ .name = "hsw" },
	{ .name = "bdw" },
	{ .name = "skl" },
	{ .name = "hsx", .use_acpi = true, CST_C6 },
	{ .name = "bdx", .use_acpi = true, CST_C6 },
	{ .name = "skx", .use_acpi = true, CST_C6 },
	{ .name = "icx", .use_acpi = true, CST_C6 },
	{ .name = "spr", .use_acpi = true, CST_C6 },
	{ .name = "emr", .use_acpi = true, CST_C6 },
	{ .name = "gnr", .use_acpi = true, CST_C6 },
	{ .name = "srf", .use_acpi = true, CST_C6S },
	{ .name = "grr", .use_acpi = true, CST_C6S },
	{ .name = "adl", ADL_C1 },
	{ .name = "adl-l", ADL_C1 },
	{ .name = "adl-n", ADL_C1 },
	{ .name = "mtl" },
};

_Static_assert(SIM_ARRAY_SIZE(intel_models) == SIM_ARRAY_SIZE(builtin_machines),
	       "one intel_idle model per intel_idle built-in");

const struct machine_intel_model *machine_intel_model(const char *name)
{
	for (size_t i = 0; i < SIM_ARRAY_SIZE(intel_models); i++)
		if (!strcmp(intel_models[i].name, name))
			return &intel_models[i];
	return NULL;
}

/* The intel_idle machines, in their fixed order: the first built-ins (machine_builtin.c). */
const struct machine *machine_intel_builtins(unsigned int *count)
{
	*count = SIM_ARRAY_SIZE(builtin_machines);
	return builtin_machines;
}
