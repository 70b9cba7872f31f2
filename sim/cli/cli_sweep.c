// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_sweep.c - idlesim sweep: the points of a parameter sweep (sim/study/sweep.h), run
 * whole or one shard of it; `sweep merge` joins the shards' results, `sweep summary`
 * gives the best points and the Pareto frontier.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/alloc.h"
#include "sim/study/sweep.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* idlesim sweep SPEC.json [-j N] [--shard I/N] [--force] -o FILE; sweep merge A B... -o FILE */
static int cmd_sweep_merge(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "sweep merge", &err, false, 0 };
	const char **in = sim_calloc((size_t)argc, sizeof(*in)), *v, *out = NULL;
	int n = 0; /* any number of shards: a Slurm array may have thousands */

	if (!in)
		sim_error_nomem(&err, "");
	while (more(&a)) {
		if (opt(&a, "--output", "-o", &v))
			out = v;
		else if (operand(&a))
			in[n++] = argv[a.i++];
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && (!n || !out))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "sweep merge: usage: idlesim sweep merge A.jsonl B.jsonl ... -o ALL.jsonl");
	if (err.code == SIM_OK)
		sweep_merge(in, n, out, &err);
	sim_free(in);
	return finish(&err);
}

/* idlesim sweep summary RESULTS.jsonl [--objective M1,M2,...] [--format F] [-o FILE] */
static int cmd_sweep_summary(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "sweep summary", &err, false, 0 };
	struct sweep_summary_opts o = { NULL, SWEEP_FMT_TEXT, NULL };
	const char *v, *in = NULL, *out = "-";
	char command[1024];

	while (more(&a)) {
		if (opt(&a, "--objective", NULL, &v)) {
			o.objectives = v;
		} else if (opt(&a, "--format", NULL, &v)) {
			if (!strcmp(v, "text"))
				o.format = SWEEP_FMT_TEXT;
			else if (!strcmp(v, "json"))
				o.format = SWEEP_FMT_JSON;
			else if (!strcmp(v, "html"))
				o.format = SWEEP_FMT_HTML;
			else
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "sweep summary: --format must be text, json or html, "
					      "not '%s'", v);
		} else if (opt(&a, "--output", "-o", &v)) {
			out = v;
		} else if (operand(&a) && !in) {
			in = argv[a.i++];
		} else {
			bad_option(&a);
		}
	}
	if (err.code == SIM_OK && !in)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "sweep summary: usage: idlesim sweep summary RESULTS.jsonl "
			      "[--objective M1,M2] [--format text|json|html] [-o FILE]");
	if (err.code == SIM_OK) {
		size_t used = (size_t)snprintf(command, sizeof(command), "idlesim sweep");
		int i;

		for (i = 0; i < argc && used < sizeof(command); i++)
			used += (size_t)snprintf(command + used, sizeof(command) - used, " %s",
						 argv[i]);
		o.command = command;
		sweep_summary(in, &o, out, &err);
	}
	return finish(&err);
}

int cmd_sweep(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "sweep", &err, false, 0 };
	struct sweep_opts o = { .threads = 1, .shard = 0, .nr_shards = 1 };
	struct sweep_spec *spec;
	const char *v, *path = NULL, *out = NULL;
	bool force = false;
	int64_t n;
	long ran;
	char *end;

	if (argc > 1 && !strcmp(argv[1], "merge"))
		return cmd_sweep_merge(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "summary"))
		return cmd_sweep_summary(argc - 1, argv + 1);
	while (more(&a)) {
		if (opt(&a, "--threads", "-j", &v)) {
			if (!num_arg(&a, "--threads", v, 0, 1, 256, &n))
				o.threads = (int)n;
		} else if (opt(&a, "--shard", NULL, &v)) {
			o.shard = strtol(v, &end, 10);
			if (end == v || *end != '/' ||
			    (o.nr_shards = strtol(end + 1, &end, 10)) < 1 || *end ||
			    o.shard < 0 || o.shard >= o.nr_shards)
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "sweep: --shard I/N needs 0 <= I < N, e.g. 3/100");
		} else if (opt(&a, "--output", "-o", &v)) {
			out = v;
		} else if (opt(&a, "--governor-timeout", NULL, &v)) {
			governor_timeout_arg(&a, v, &o.gov_timeout_ns);
		} else if (opt(&a, "--force", NULL, NULL)) {
			force = true;
		} else if (operand(&a) && !path) {
			path = argv[a.i++];
		} else {
			bad_option(&a);
		}
	}
	if (err.code == SIM_OK && (!path || !out))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "sweep: usage: idlesim sweep SPEC.json [-j N] [--shard I/N] -o RESULTS.jsonl");
	if (err.code != SIM_OK)
		return finish(&err);
	spec = sweep_load(path, force, &err);
	if (!spec)
		return finish(&err);
	if (isatty_stderr())
		o.progress = stderr;
	ran = sweep_run(spec, &o, out, &err);
	if (ran >= 0)
		fprintf(stderr, "idlesim sweep: %ld of %ld points run now\n", ran, sweep_total(spec));
	sweep_free(spec);
	return finish(&err);
}
