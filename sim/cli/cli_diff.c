// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_diff.c - idlesim diff: which decisions two governors, or one governor with two
 * tunable sets, make differently on the same traces (sim/run/diff.h, docs/diff.md).
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/common.h"
#include "sim/base/outfile.h"
#include "sim/report/diff_report.h"
#include "sim/report/report.h"
#include "sim/run/diff.h"
#include "sim/run/kgov.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The exit status when a trace's divergent share is over --max-divergence. */
#define DIFF_EXIT_EXCEEDED 3

/* --max-divergence PCT: a percentage, 0 to 100. */
static void max_arg(struct args *a, const char *v, double *out)
{
	int64_t n;

	if (!num_arg(a, "--max-divergence", v, 6, 0, 100 * 1000000LL, &n))
		*out = (double)n / 1e6;
}

int cmd_diff(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "diff", &err, false, 0 };
	struct diff_report_opts ro = { DIFF_TEXT, -1, NULL };
	struct diff_request req;
	struct diff_results res;
	struct outfile out;
	const char *v, *output = NULL, *govs[RUN_MAX_ITEMS];
	char cmdline[1024];
	int nr_govs = 0, rc, i;
	bool keep_given = false;
	int64_t n;

	command_line(cmdline, sizeof(cmdline), argc, argv);
	memset(&req, 0, sizeof(req));
	run_request_defaults(&req.run);
	req.run.nr_governors = 0;
	req.keep = DIFF_KEEP_DEFAULT;
	while (more(&a)) {
		if (opt(&a, "--trace", "-t", &v))
			list_add(&a, req.run.traces, &req.run.nr_traces, v, "--trace");
		else if (opt(&a, "--machine", "-m", &v))
			list_add(&a, req.run.machines, &req.run.nr_machines, v, "--machine");
		else if (opt(&a, "--governor", "-g", &v))
			list_add(&a, govs, &nr_govs, v, "--governor");
		else if (opt(&a, "--set-a", NULL, &v))
			set_arg(&a, "--set-a", v, req.side[0].sets, &req.side[0].nr_sets);
		else if (opt(&a, "--set-b", NULL, &v))
			set_arg(&a, "--set-b", v, req.side[1].sets, &req.side[1].nr_sets);
		else if (run_knob_opt(&a, &req.run))
			continue;
		else if (opt(&a, "--drive", NULL, &v)) {
			if (v && !strcmp(v, "A"))
				req.drive = DIFF_DRIVE_A;
			else if (v && !strcmp(v, "B"))
				req.drive = DIFF_DRIVE_B;
			else if (v && !strcmp(v, "oracle"))
				req.drive = DIFF_DRIVE_ORACLE;
			else if (v)
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "diff --drive: '%s' is not A, B or oracle", v);
		} else if (opt(&a, "--free", NULL, NULL))
			req.free = true;
		else if (opt(&a, "--divergences", NULL, &v)) {
			if (!num_arg(&a, "--divergences", v, 0, 0, 100000, &n))
				req.keep = (long)n;
			keep_given = true;
		} else if (opt(&a, "--max-divergence", NULL, &v))
			max_arg(&a, v, &ro.max_pct);
		else if (opt(&a, "--format", "-f", &v)) {
			if (v && diff_format_parse(v, &ro.format))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "diff --format: '%s' is not one of text, json, csv, "
					      "junit, tap, html", v);
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else
			bad_option(&a);
	}
	option_unused(&a, keep_given && ro.format != DIFF_TEXT && ro.format != DIFF_JSON &&
			      ro.format != DIFF_HTML,
		      "--divergences", "the divergences shown go to the text, json and html formats");
	/* Two governors; one with --set-a/--set-b compares it with itself. */
	if (err.code == SIM_OK && nr_govs == 1 && (req.side[0].nr_sets || req.side[1].nr_sets))
		govs[nr_govs++] = govs[0];
	if (err.code == SIM_OK && nr_govs != 2)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "diff: give two governors (--governor A --governor B, or one with "
			      "--set-a/--set-b), not %d", nr_govs);
	if (err.code != SIM_OK || kgov_resolve(govs, nr_govs, stderr, &err))
		return finish(&err);
	for (i = 0; i < 2; i++)
		req.side[i].governor = govs[i];
	ro.command = cmdline;
	/* csv, junit and tap show no divergence: keep none */
	if (ro.format != DIFF_TEXT && ro.format != DIFF_JSON && ro.format != DIFF_HTML)
		req.keep = 0;
	if (diff_run(&req, &res, &err))
		return finish(&err);
	rc = 0;
	if (!outfile_open(&out, output, &err)) {
		int w = diff_report_write(out.f, &res, &ro);

		if (w == REPORT_ERR_NOMEM)
			sim_error_nomem(&err, "");
		if (w)
			outfile_fail(&out, &err);
		else
			outfile_commit(&out, &err);
	}
	for (i = 0; i < res.n && err.code == SIM_OK; i++)
		if (diff_cell_exceeds(&res.cells[i], ro.max_pct)) {
			fprintf(stderr, "idlesim: diff: %s on %s: %.3f %% of %llu decisions diverge, "
					"more than --max-divergence %g %%\n",
				res.cells[i].trace, res.cells[i].mach.name,
				diff_pct(res.cells[i].divergent, res.cells[i].decisions),
				(unsigned long long)res.cells[i].decisions, ro.max_pct);
			rc = DIFF_EXIT_EXCEEDED;
		}
	diff_results_free(&res);
	return err.code != SIM_OK ? finish(&err) : rc;
}
