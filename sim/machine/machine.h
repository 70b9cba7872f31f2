/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * machine.h - a machine: CPU topology plus the cpuidle driver's state table and the
 * energy parameters of each state.
 *
 * State 0 of the built-in Intel machines is the cpuidle core's POLL state (0/0 us,
 * CPUIDLE_FLAG_POLLING); the intel_idle table follows from index 1, exactly as
 * intel_idle_cpuidle_driver_init() builds it. A machine loaded from JSON may have any table
 * that passes machine_validate().
 *
 * CPU numbering follows Linux on Intel: logical CPU n has thread n / (packages * cores),
 * and within a thread rank, package (n % (packages * cores)) / cores and core n % cores.
 * So on a 2x12x2 Haswell-EP, CPUs 0-11 are the first threads of package 0, 12-23 of
 * package 1, and 24-47 their SMT siblings.
 *
 * Energy model (all values are documented assumptions; see sim/machine/cstates_intel.c):
 *  - a core draws core_power_w of the state of its shallowest thread (active_core_power_w
 *    when any thread runs work, or is waking up);
 *  - a package draws package_power_w of the state of its shallowest core
 *    (active_package_power_w when any core is active): a package reaches its deep state
 *    only while every core in it sits in that state or deeper;
 *  - each entry into a state costs entry_exit_energy_j once (the entry plus the exit).
 */
#ifndef IDLESIM_MACHINE_H
#define IDLESIM_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "governors/governor.h"
#include "sim/base/error.h"

#define MACHINE_NAME_LEN 32
#define MACHINE_DESC_LEN 128
#define MACHINE_ASSUMED_LEN 192
#define MACHINE_MAX_CPUS 4096

/*
 * The hardware's actual wake-up latency of a state, kept apart from the advertised
 * exit_latency_ns that governors see (docs/wake-latency.md). The advertised value is the
 * table's worst case; the actual one delays the work, is part of the residency measured by
 * cpuidle_enter_state() and is spent at active power.
 *  - kind WORST: no information: the actual latency is the advertised one;
 *  - kind TYPICAL: typical_ns is used whenever the model is `typical` or `measured`;
 *  - kind DIST: a distribution as quantiles (q_p[0] = 0 < ... < q_p[n-1] = 1, q_ns
 *    non-decreasing), sampled by the inverse CDF, linear between the points, under the
 *    `measured` model; typical_ns (its median unless given) under `typical`.
 */
#define MACHINE_WAKE_MAX_QUANTILES 16

/*
 * The largest power (W) and entry+exit energy (J) a machine may have, given or derived: a
 * whole server package draws a few hundred W and a state change costs microjoules, so these
 * only reject absurd values (1e308 W would make every energy total infinite).
 */
#define MACHINE_POWER_MAX_W 10000.0
#define MACHINE_ENERGY_MAX_J 1.0
enum machine_wake_kind { MACHINE_WAKE_WORST = 0, MACHINE_WAKE_TYPICAL, MACHINE_WAKE_DIST };

struct machine_wake {
	enum machine_wake_kind kind;
	int64_t typical_ns;
	int nr_quantiles;
	double q_p[MACHINE_WAKE_MAX_QUANTILES];
	int64_t q_ns[MACHINE_WAKE_MAX_QUANTILES];
};

struct machine_state {
	char name[CPUIDLE_NAME_LEN];
	char desc[CPUIDLE_DESC_LEN];
	unsigned int flags; /* CPUIDLE_FLAG_* */
	int64_t exit_latency_ns;
	int64_t target_residency_ns;
	bool default_off;	    /* disabled by default (CPUIDLE_FLAG_OFF, sysfs default_status) */
	double core_power_w;	    /* power of a core whose shallowest thread is in this state */
	double entry_exit_energy_j; /* energy of one entry plus exit by one CPU */
	double package_power_w;	    /* power of a package whose shallowest core is in this state */
	struct machine_wake wake;   /* the hardware's actual wake latency (above) */
};

/*
 * A hybrid machine's kinds of core (Alder Lake: 8 P-cores with SMT, 8 E-cores without), in
 * the order Linux numbers their CPUs: core by core, a core's SMT siblings adjacent, kind by
 * kind (the ACPI MADT order of hybrid clients: CPUs 0-15 are the P-cores' threads, 16-23 the
 * E-cores). Names are the kernel's hybrid PMU names ("cpu_core", "cpu_atom").
 */
#define MACHINE_MAX_CORE_TYPES 4
#define MACHINE_CORE_TYPE_LEN 16

struct machine_core_type {
	char name[MACHINE_CORE_TYPE_LEN];
	int cores;		    /* per package */
	int threads;		    /* per core */
	double active_core_power_w; /* 0: the machine's */
};

struct machine {
	char name[MACHINE_NAME_LEN];
	char desc[MACHINE_DESC_LEN];
	/*
	 * What of this machine is assumed rather than known, for reports to say: "" for the
	 * built-ins and most JSON files; a machine from a sysfs snapshot (sim/machine/snapshot.h)
	 * says where its powers and wake latencies come from. JSON "assumed".
	 */
	char assumed[MACHINE_ASSUMED_LEN];
	char driver[32]; /* cpuidle driver name: "intel_idle" for the built-ins */
	int packages;
	int cores;   /* per package (hybrid: of every kind) */
	int threads; /* per core (hybrid: the most any kind has) */
	/*
	 * 0: every core alike, CPUs numbered thread rank by thread rank (above). Else the
	 * core kinds of a hybrid package, numbered as struct machine_core_type says; cores and
	 * threads then hold the sum and the maximum (machine_validate() checks).
	 */
	int nr_core_types;
	struct machine_core_type core_types[MACHINE_MAX_CORE_TYPES];
	/*
	 * Cores per last-level cache, 0: the whole package (Intel). AMD Zen parts share an L3
	 * per CCX (4 cores on Zen 2, 8 on Zen 3 to 5): an EPYC package holds several LLCs,
	 * consecutive cores each. Must divide cores; uniform machines only.
	 */
	int llc_cores;
	double active_core_power_w;
	double active_package_power_w;
	int state_count;
	struct machine_state states[CPUIDLE_STATE_MAX];
};

/*
 * Built-in machines (sim/machine/machine_builtin.c: the intel_idle tables of
 * sim/machine/cstates_intel.c, then the KVM guest of sim/machine/cstates_guest.c), in a fixed order. These return the raw const
 * tables, whose per-state power fields (core_power_w, package_power_w, entry_exit_energy_j)
 * are all 0: the default energy rule interpolates in log10 and cannot be evaluated at compile
 * time, and a table filled at first use would be mutable global state. machine_load() copies
 * a built-in into the caller's struct and then calls
 * machine_default_energy(m, MACHINE_DEFAULT_ALL); use it whenever the energy fields matter.
 */
unsigned int machine_builtin_count(void);
const struct machine *machine_builtin(unsigned int i);
const struct machine *machine_find_builtin(const char *name); /* case-insensitive */

/*
 * Load a machine: a built-in name, or a sysfs snapshot (a directory, or a path ending in
 * .tar, .tar.gz or .tgz: sim/machine/snapshot.h), or a path to a JSON file (anything else
 * containing '/' or ending in ".json"), or "-": JSON on standard input (named "<stdin>"; read once, so a
 * caller that loads a machine more than once spools it: sim/run/run.c). Returns 0, or -1 with
 * err set (file:line:column for JSON errors).
 */
int machine_load(const char *name_or_path, struct machine *m, struct sim_error *err);
int machine_load_json_file(const char *path, struct machine *m, struct sim_error *err);
/* The same, with messages (and a machine otherwise named like a built-in) naming `source`:
 * a spooled copy of standard input is read from its /proc/self/fd path as "<stdin>". Path
 * "-" reads standard input itself, once. */
int machine_load_json_file_as(const char *path, const char *source, struct machine *m,
			      struct sim_error *err);
/* Parse JSON text; `source` names it in error messages. */
int machine_load_json_string(const char *text, const char *source, struct machine *m,
			     struct sim_error *err);

/*
 * Check a machine: topology within limits, 1..CPUIDLE_STATE_MAX states, unique non-empty
 * names, POLLING only on state 0, exit latency and target residency non-negative and
 * non-decreasing with depth, finite non-negative power values. Returns 0 or -1.
 */
int machine_validate(const struct machine *m, const char *source, struct sim_error *err);

/* Write the JSON form that machine_load_json_* reads back to an equal machine. */
int machine_write_json(FILE *f, const struct machine *m);

/* Print the table the way `cpupower idle-info` does. */
void machine_print_idle_info(FILE *f, const struct machine *m);

static inline int machine_nr_cpus(const struct machine *m)
{
	int per_package = 0;

	if (!m->nr_core_types)
		return m->packages * m->cores * m->threads;
	for (int k = 0; k < m->nr_core_types; k++)
		per_package += m->core_types[k].cores * m->core_types[k].threads;
	return m->packages * per_package;
}

/*
 * CPU cpu's package, its core within the package (0 .. cores-1; hybrid: kind by kind) and
 * its thread within the core. Any out pointer may be NULL.
 */
void machine_cpu_topology(const struct machine *m, int cpu, int *package, int *core, int *thread);
/* LLCs per package (llc_cores above). */
static inline int machine_llcs_per_package(const struct machine *m)
{
	return m->llc_cores > 0 ? m->cores / m->llc_cores : 1;
}
/* The core kind of CPU cpu (0 when the machine is not hybrid). */
int machine_cpu_core_type(const struct machine *m, int cpu);
/* The number of SMT threads of core `core` (within any package). */
int machine_core_threads(const struct machine *m, int core);
/* The active power of a core of kind k (the machine's unless the kind has its own). */
double machine_core_active_power_w(const struct machine *m, int k);

/* State index from a name (case-insensitive) or a decimal index; -1 if none. */
int machine_state_lookup(const struct machine *m, const char *name_or_index);

/* Flag names as printed and read in JSON ("POLLING", "TLB_FLUSHED", ...). */
const char *machine_flag_name(unsigned int bit);

/*
 * The default energy model (one documented rule for every machine): fill each state's
 * core_power_w and package_power_w from the machine's active powers and the state's target
 * residency, and entry_exit_energy_j so that each target residency is the break-even time
 * against the previous state. `which` selects the fields to fill (MACHINE_DEFAULT_*), so a
 * JSON machine can override some values and default the rest.
 */
#define MACHINE_DEFAULT_CORE_POWER 1u
#define MACHINE_DEFAULT_PACKAGE_POWER 2u
#define MACHINE_DEFAULT_ENTRY_EXIT 4u
#define MACHINE_DEFAULT_ALL 7u
void machine_default_energy(struct machine *m, unsigned int which);

/*
 * The wake-latency model of a run (--wake-latency): `worst` charges every exit the
 * advertised exit latency (the behaviour before the model existed, and the zero value of a
 * sim_config), `typical` each state's typical value, `measured` samples each state's
 * distribution (typical where a state has none).
 */
enum wake_model { WAKE_MODEL_WORST = 0, WAKE_MODEL_TYPICAL, WAKE_MODEL_MEASURED };
#define WAKE_MODEL_DEFAULT WAKE_MODEL_TYPICAL

const char *wake_model_name(enum wake_model w);
/* "worst", "typical" or "measured"; returns 0 or -1 if s is none of them. */
int wake_model_parse(const char *s, enum wake_model *out);
/* Does any state of m have a distribution (the `measured` model needs one)? */
bool machine_has_wake_dist(const struct machine *m);
/* An input error naming the machine when model is `measured` and m has no distribution. */
int machine_check_wake_model(const struct machine *m, enum wake_model model,
			     struct sim_error *err);
/* The fixed actual latency of state s under model, or -1 if it is sampled (measured, DIST). */
int64_t machine_wake_fixed_ns(const struct machine_state *s, enum wake_model model);
/* The mean actual latency of state s under model: the fixed value, or the mean of the
 * distribution (linear between its quantile points). */
double machine_wake_mean_ns(const struct machine_state *s, enum wake_model model);
/* The largest actual latency state s can have under any model. */
int64_t machine_wake_max_ns(const struct machine_state *s);
/* The inverse CDF of a DIST state at u in [0, 1]: linear between the quantile points. */
int64_t machine_wake_quantile_ns(const struct machine_wake *w, double u);

/*
 * Measured distributions from wult's datapoints.csv (sim/machine/machine_calibrate.c): every state
 * whose name some row's ReqCState gives gets the quantiles of those rows' WakeLatency (us)
 * and their median as typical value; other states keep their model. What was matched, and
 * the names that match no state, are reported to note (NULL: nothing). Returns 0, or -1
 * with err set (file:line:column for malformed rows) and m unchanged in that case only if
 * no state had been filled yet: callers discard m on error.
 */
int machine_calibrate_wult(struct machine *m, const char *csv_path, FILE *note,
			   struct sim_error *err);
/* Quantile p of n >= 1 sorted values, linear between order statistics (h = (n - 1) p). */
double machine_sample_quantile(const double *sorted, size_t n, double p);

/* Fill a kernel-view driver from the machine table. */
void machine_to_driver(const struct machine *m, struct cpuidle_driver *drv);

#endif
