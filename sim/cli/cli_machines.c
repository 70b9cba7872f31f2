// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_machines.c - idlesim machines: the built-in machines, one machine's idle states as
 * text or JSON, `machines calibrate`, a machine with the wake latencies of a wult run, and
 * `machines import`, a machine from a sysfs snapshot.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/outfile.h"
#include "sim/machine/machine.h"
#include "sim/machine/snapshot.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* "2x18x2"; a hybrid package kind by kind: "1x8x2+8x1" (8 cores of 2 threads, 8 of 1). */
static void topology_text(const struct machine *m, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%d", m->packages);

	if (!m->nr_core_types) {
		snprintf(buf + used, len - used, "x%dx%d", m->cores, m->threads);
		return;
	}
	for (int k = 0; k < m->nr_core_types && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%dx%d", k ? "+" : "x",
					 m->core_types[k].cores, m->core_types[k].threads);
}

static void list_machines(void)
{
	unsigned int i;
	int k;

	printf("%-6s %5s  %-13s  %-40s %s\n", "name", "CPUs", "topology", "idle states",
	       "description");
	for (i = 0; i < machine_builtin_count(); i++) {
		struct machine m;
		struct sim_error err = { 0 };
		char states[128] = "";
		char topo[32];
		size_t used = 0;

		if (machine_load(machine_builtin(i)->name, &m, &err))
			continue;
		for (k = 0; k < m.state_count && used < sizeof(states); k++)
			used += (size_t)snprintf(states + used, sizeof(states) - used, "%s%s%s",
						 k ? " " : "", m.states[k].name,
						 m.states[k].default_off ? "(off)" : "");
		topology_text(&m, topo, sizeof(topo));
		printf("%-6s %5d  %-13s  %-40s %s\n", m.name, machine_nr_cpus(&m), topo, states,
		       m.desc);
	}
}

/* The JSON of m into output, written atomically. */
static void write_machine(const char *output, const struct machine *m, struct sim_error *err)
{
	struct outfile out;

	if (outfile_open(&out, output, err))
		return;
	if (machine_write_json(out.f, m))
		outfile_fail(&out, err);
	else
		outfile_commit(&out, err);
}

/*
 * idlesim machines calibrate --wult datapoints.csv --machine M -o OUT.json: M with the
 * measured wake-latency distributions of a wult run (sim/machine/machine_calibrate.c), written
 * atomically; what matched goes to stderr.
 */
static int cmd_machines_calibrate(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 2, "machines calibrate", &err, false, 0 };
	const char *v, *csv = NULL, *name = NULL, *output = NULL;
	struct machine m;

	while (more(&a)) {
		if (opt(&a, "--wult", NULL, &v))
			csv = v;
		else if (opt(&a, "--machine", "-m", &v))
			name = v;
		else if (opt(&a, "--output", "-o", &v))
			output = v;
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && (!csv || !name || !output))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "machines calibrate needs --wult datapoints.csv, --machine M and -o "
			      "FILE.json");
	if (err.code != SIM_OK || machine_load(name, &m, &err) ||
	    machine_calibrate_wult(&m, csv, stderr, &err) || machine_validate(&m, name, &err))
		return finish(&err);
	write_machine(output, &m, &err);
	return finish(&err);
}

/*
 * idlesim machines import SNAPSHOT -o OUT.json [--name NAME]: the machine of a sysfs snapshot
 * (sim/machine/snapshot.h) as JSON, written atomically; what was assumed goes to stderr.
 */
static int cmd_machines_import(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 2, "machines import", &err, false, 0 };
	const char *v, *snapshot = NULL, *name = NULL, *output = NULL;
	struct machine m;

	while (more(&a)) {
		if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (opt(&a, "--name", NULL, &v))
			name = v;
		else if (operand(&a) && !snapshot)
			snapshot = argv[a.i++];
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && (!snapshot || !output))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "machines import needs a snapshot (a directory, .tar or .tar.gz: "
			      "scripts/snapshot.sh makes one) and -o FILE.json");
	if (err.code == SIM_OK && name && (!name[0] || strlen(name) >= MACHINE_NAME_LEN))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0, "--name: 1 to %d characters",
			      MACHINE_NAME_LEN - 1);
	if (err.code != SIM_OK ||
	    machine_load_snapshot(snapshot, name, &m, stderr, &err))
		return finish(&err);
	write_machine(output, &m, &err);
	return finish(&err);
}

int cmd_machines(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "machines", &err, false, 0 };
	const char *name = NULL;
	bool json = false;
	struct machine m;

	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return cmd_machines_calibrate(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "import"))
		return cmd_machines_import(argc, argv);
	while (more(&a)) {
		if (opt(&a, "--json", NULL, NULL))
			json = true;
		else if (operand(&a) && !name)
			name = argv[a.i++];
		else
			bad_option(&a);
	}
	if (err.code != SIM_OK)
		return finish(&err);
	if (!name) {
		if (json) {
			sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
				      "machines --json needs a machine name, e.g. idlesim machines skl --json");
			return finish(&err);
		}
		list_machines();
		return 0;
	}
	if (machine_load(name, &m, &err))
		return finish(&err);
	if (json)
		machine_write_json(stdout, &m);
	else
		machine_print_idle_info(stdout, &m);
	if (fflush(stdout))
		sim_error_set(&err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
	return finish(&err);
}
