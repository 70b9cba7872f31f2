/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * intel_idle.h - the intel_idle module parameters that change a machine's table
 * (`--set intel_idle.NAME=VALUE`), applied with the rules of Linux 6.12's
 * drivers/idle/intel_idle.c (docs/machines.md, "intel_idle module parameters"):
 *
 *  - states_off (uint): bit i turns registered state i off by default (CPUIDLE_FLAG_OFF;
 *    state 0 is POLL); bits past the table do nothing;
 *  - preferred_cstates (uint): on adl, adl-l and adl-n only (adl_idle_state_table_update()),
 *    bit 1 set and bit 2 clear registers C1 instead of C1E; elsewhere no effect (6.12 has no
 *    Sapphire Rapids C1/C1E choice);
 *  - max_cstate (int): table states from index max_cstate on (counting the UNUSABLE C1 of
 *    the adl tables) are not registered; < 0 leaves POLL alone; 0 unloads the driver,
 *    which idlesim refuses (the kernel would fall back to another idle driver);
 *  - no_acpi, use_acpi (bool, 0 or 1): whether the assumed firmware _CST turns off the
 *    table states it lacks (those without ALWAYS_ENABLE) on a use_acpi part, or on any part
 *    with use_acpi=1; use_acpi=1 is refused where no _CST is assumed (the client parts).
 *
 * The built-ins are rebuilt from their kernel table; a JSON machine whose driver is
 * intel_idle takes states_off and max_cstate on its own table (its other parameters need
 * the kernel's table and are refused).
 */
#ifndef IDLESIM_INTEL_IDLE_H
#define IDLESIM_INTEL_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/error.h"
#include "sim/machine/machine.h"

#define INTEL_IDLE_FAMILY "intel_idle"

struct intel_idle_params {
	bool has_states_off, has_preferred, has_max_cstate, has_no_acpi, has_use_acpi;
	uint32_t states_off;
	uint32_t preferred_cstates;
	int max_cstate;
	bool no_acpi, use_acpi;
};

/* Set parameter `name` to `value`; an input error for an unknown name or a value the
 * kernel would reject (or idlesim cannot model: max_cstate=0). */
int intel_idle_param_set(struct intel_idle_params *p, const char *name, long long value,
			 struct sim_error *err);
bool intel_idle_params_any(const struct intel_idle_params *p);

/*
 * Apply p to m, loaded as a built-in (builtin true: m still holds the built-in's table) or
 * from a file. An input error if m's driver is not intel_idle or p needs a table or _CST
 * that m lacks. Energy fields of a rebuilt built-in are refilled by the default rule.
 */
int intel_idle_apply(struct machine *m, bool builtin, const struct intel_idle_params *p,
		     struct sim_error *err);

#endif
