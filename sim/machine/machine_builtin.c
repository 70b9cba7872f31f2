// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_builtin.c - the list of built-in machines: the intel_idle tables of
 * sim/machine/cstates_intel.c, then the KVM guest of sim/machine/cstates_guest.c, in that
 * fixed order.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"

#include <strings.h>

unsigned int machine_builtin_count(void)
{
	unsigned int nintel, nguest;

	machine_intel_builtins(&nintel);
	machine_guest_builtins(&nguest);
	return nintel + nguest;
}

const struct machine *machine_builtin(unsigned int i)
{
	unsigned int nintel, nguest;
	const struct machine *intel = machine_intel_builtins(&nintel);
	const struct machine *guest = machine_guest_builtins(&nguest);

	if (i < nintel)
		return &intel[i];
	return i - nintel < nguest ? &guest[i - nintel] : NULL;
}

const struct machine *machine_find_builtin(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < machine_builtin_count(); i++)
		if (!strcasecmp(machine_builtin(i)->name, name))
			return machine_builtin(i);
	return NULL;
}
