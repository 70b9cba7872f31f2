// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_builtin.c - the list of built-in machines: the intel_idle tables of
 * sim/machine/cstates_intel.c, the AMD acpi_idle ones of sim/machine/cstates_acpi.c, then the
 * KVM guest of sim/machine/cstates_guest.c, in that fixed order.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"

#include <strings.h>

/* The drivers' lists, in order. */
static const struct machine *(*const lists[])(unsigned int *count) = {
	machine_intel_builtins,
	machine_acpi_builtins,
	machine_guest_builtins,
};

unsigned int machine_builtin_count(void)
{
	unsigned int total = 0, n;

	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		lists[l](&n);
		total += n;
	}
	return total;
}

const struct machine *machine_builtin(unsigned int i)
{
	unsigned int n;

	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		const struct machine *list = lists[l](&n);

		if (i < n)
			return &list[i];
		i -= n;
	}
	return NULL;
}

const struct machine *machine_find_builtin(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < machine_builtin_count(); i++)
		if (!strcasecmp(machine_builtin(i)->name, name))
			return machine_builtin(i);
	return NULL;
}
