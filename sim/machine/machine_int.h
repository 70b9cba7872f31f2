/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * machine_int.h - private to sim/machine/ (machine.c, machine_json.c, the built-in tables of
 * cstates_*.c and machine_builtin.c); not for other modules.
 *
 * What the JSON form of a machine (sim/machine/machine_json.c) shares with the rest of the machine
 * code (sim/machine/machine.c): the flag names, the checks of machine_validate() with errors placed
 * in the JSON text, and the default energy rule.
 */
#ifndef IDLESIM_MACHINE_INT_H
#define IDLESIM_MACHINE_INT_H

#include "sim/base/common.h"
#include "sim/machine/machine.h"
#include "sim/base/jsonpos.h"

#include <limits.h>
#include <stdint.h>

#define FLAG_BITS 32
#define PATH_LEN 96 /* an object path plus a field name and an index */
/* The kernel keeps exit_latency and target_residency in us as unsigned int as well. */
#define STATE_MAX_NS ((int64_t)UINT_MAX * SIM_NS_PER_US)

extern const char *const machine_flag_names[FLAG_BITS];

/* machine_validate(), at w: with positions in the JSON text if w->text is set */
int machine_validate_at(const struct machine *m, const struct json_where *w);
/* The wake-latency model of state i (sim/machine/machine_wake.c). */
int machine_validate_wake(const struct machine *m, int i, const struct json_where *w);
/* The built-in tables of each driver, in order (cstates_intel.c, cstates_acpi.c,
 * cstates_guest.c): the array and its length; machine_builtin() (machine_builtin.c) lists
 * them one after the other. */
const struct machine *machine_intel_builtins(unsigned int *count);
const struct machine *machine_acpi_builtins(unsigned int *count);
const struct machine *machine_guest_builtins(unsigned int *count);
/*
 * What intel_idle knows of a built-in beyond its registered table (cstates_intel.c), for
 * the module parameters (intel_idle_params.c): the idle_cpu's use_acpi, whether
 * adl_idle_state_table_update() lets preferred_cstates choose C1 or C1E (then c1 is the
 * table's state 0, CPUIDLE_FLAG_UNUSABLE by default and left out of the registered table),
 * and the MWAIT hints of the firmware _CST that idlesim assumes (nr_cst 0: none assumed).
 */
#define MACHINE_INTEL_MAX_CST 4
struct machine_intel_model {
	const char *name;
	bool use_acpi;
	bool c1_preference;
	int nr_cst;
	unsigned int cst[MACHINE_INTEL_MAX_CST];
	struct machine_state c1;
};
/* The model of built-in `name` (exact name), or NULL for a machine intel_idle does not drive. */
const struct machine_intel_model *machine_intel_model(const char *name);
/* machine_default_energy(), except for the fields marked in given[i] */
void machine_fill_energy(struct machine *m, const unsigned int *given, unsigned int which);

#endif
