// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_load.c - machine_load(): a built-in by name (sim/machine/machine_builtin.c), a sysfs
 * snapshot (sim/machine/snapshot.h) or a JSON file by path (sim/machine/machine_json.c), the
 * top of the machine layer.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/machine/snapshot.h"

#include <stdio.h>
#include <string.h>

static bool looks_like_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n >= 5 && !strcmp(s + n - 5, ".json"));
}

int machine_load(const char *name_or_path, struct machine *m, struct sim_error *err)
{
	const struct machine *b = machine_find_builtin(name_or_path);
	char list[128] = "";
	unsigned int i;

	if (b) {
		*m = *b;
		machine_default_energy(m, MACHINE_DEFAULT_ALL);
		return 0;
	}
	if (machine_is_snapshot_path(name_or_path))
		return machine_load_snapshot(name_or_path, NULL, m, NULL, err);
	if (looks_like_path(name_or_path) || !strcmp(name_or_path, "-"))
		return machine_load_json_file(name_or_path, m, err);
	for (i = 0; i < machine_builtin_count(); i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 machine_builtin(i)->name);
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "unknown machine '%s'; built-in machines: %s; or give a path to a "
			     "JSON file (see idlesim machines NAME --json)",
			     name_or_path, list);
}
