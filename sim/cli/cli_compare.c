// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_compare.c - idlesim compare: governors against a baseline on a closed-loop workload
 * (sim/run/compare.h), as MMTests-style tables, JSON, CSV or HTML. The workload decides
 * which options exist (its parameters, --clients 1,2,4); the run knobs are those of run.
 */
#include "sim/cli/cli_int.h"
#include "sim/base/cpulist.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/common.h"
#include "sim/base/outfile.h"
#include "sim/base/version.h"
#include "sim/report/compare_report.h"
#include "sim/report/html.h"
#include "sim/run/compare.h"
#include "sim/run/kgov.h"
#include "sim/workload/workloads.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/*
 * --housekeeping NAME sets the model's timer parameters to the preset; a list NAME,NAME,...
 * runs every cell in each of them (compare_request.worlds), and the reports name the
 * differences that flip between them.
 */
static void housekeeping_list(struct args *a, struct compare_request *req, const char *v)
{
	int64_t scratch[WL_MAX_PARAMS];
	int i;

	if (!strchr(v, ',')) {
		if (!workload_preset(req->wl, v, req->params, a->err))
			snprintf(req->preset, sizeof(req->preset), "%s", v);
		return;
	}
	if (housekeeping_names(a, v, req->worlds, &req->nr_worlds))
		return;
	for (i = 0; i < req->nr_worlds; i++) {
		memcpy(scratch, req->params, sizeof(scratch));
		if (workload_preset(req->wl, req->worlds[i], scratch, a->err))
			return;
	}
}

/* --NAME VALUE for a parameter of the workload; VALUE may be a comma-separated list. */
static bool wl_param_opt(struct args *a, struct compare_request *req)
{
	const char *v;
	char name[WL_OPT_NAME];
	int k;
	size_t n;

	if (opt(a, "--housekeeping", NULL, &v)) {
		if (v)
			housekeeping_list(a, req, v);
		return true;
	}
	k = wl_param_take(a, req->wl, name, &v);
	if (k < 0)
		return false;
	if (!v)
		return true;
	if (!strcmp(v, "mmtests")) { /* resolved with the machines: mmtests_values() */
		if (!req->wl->mmtests_param || strcmp(req->wl->mmtests_param, name + 2)) {
			workload_mmtests_sweep(req->wl, 1, req->values, 1, a->err);
			return true;
		}
		req->vary = k;
		req->mmtests_sweep = true;
		return true;
	}
	if (!strchr(v, ',')) {
		wl_param_arg(a, req->wl, k, name, v, &req->params[k]);
		return true;
	}
	if (req->vary >= 0 && req->vary != k) {
		sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
			      "compare: only one parameter may take a list (--%s has one already)",
			      req->wl->params[req->vary].name);
		return true;
	}
	req->vary = k;
	req->nr_values = 0;
	for (;;) {
		const char *comma = strchr(v, ',');
		char item[32];

		if (req->nr_values >= COMPARE_MAX_VALUES) {
			sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				      "compare %s: at most %d values", name, COMPARE_MAX_VALUES);
			return true;
		}
		n = comma ? (size_t)(comma - v) : strlen(v);
		if (n >= sizeof(item))
			n = sizeof(item) - 1;
		snprintf(item, sizeof(item), "%.*s", (int)n, v);
		if (wl_param_arg(a, req->wl, k, name, item, &req->values[req->nr_values++]))
			return true;
		if (!comma)
			return true;
		v = comma + 1;
	}
}

/*
 * --clients mmtests: MMTests' sweep for the machines' CPU count (the CPUs the tasks may
 * use: --cpus N with the scheduler). Machines of different sizes sweep differently, so
 * they are compared one at a time.
 */
static int mmtests_values(struct compare_request *req, struct sim_error *err)
{
	struct machine m;
	int i, cpus = 0, n;

	for (i = 0; i < req->nr_machines; i++) {
		if (run_load_machine(&req->knobs, req->machines[i], &m, err))
			return -1;
		n = workload_nr_cpus(req->wl, req->params, &m);
		if (!workload_sched(req->wl, req->params) || !req->wl->unbound)
			n = machine_nr_cpus(&m);
		if (i && n != cpus)
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "compare --%s mmtests: machines %s and %s sweep %d and %d "
					     "CPUs; compare them one at a time",
					     req->wl->mmtests_param, req->machines[0], m.name, cpus, n);
		cpus = n;
	}
	n = workload_mmtests_sweep(req->wl, cpus, req->values, COMPARE_MAX_VALUES, err);
	if (n < 0)
		return -1;
	req->nr_values = n;
	return 0;
}

/* --affinity LIST against every machine: the CPUs the model's tasks may use there. */
static int check_affinity(struct compare_request *req, struct sim_error *err)
{
	struct machine m;
	int i;

	for (i = 0; i < req->nr_machines; i++)
		if (run_load_machine(&req->knobs, req->machines[i], &m, err) ||
		    workload_check_affinity(req->wl, req->params, &m, req->affinity_top, err))
			return -1;
	return 0;
}

/*
 * --per-cpu and --per-task add the scheduler's detail to the text report (either style).
 * JSON always has it (its "sched" array), so there they change nothing; CSV (a row per
 * cell and governor) and HTML have no place for it: an error, as any option a format makes
 * no use of. Without the scheduler (--placement pinned, or a model without tasks) there is
 * no detail to show: an error too, before anything runs.
 */
static void sched_tables_used(struct args *a, const struct compare_request *req,
			      unsigned int tables, bool html, enum compare_format format)
{
	const char *o = tables & COMPARE_SCHED_CPUS ? "--per-cpu" : "--per-task";

	option_unused(a, tables && (html || format == COMPARE_CSV), o,
		      "the scheduler's tables are text (and always in --format json); --format %s "
		      "has no place for them",
		      html ? "html" : "csv");
	if (!tables || a->err->code != SIM_OK)
		return;
	if (workload_param_index(req->wl, "placement") < 0)
		option_unused(a, true, o, "workload %s has no tasks: the scheduler is not in the loop",
			      req->wl->name);
	else if (!compare_request_sched(req))
		option_unused(a, true, o,
			      "the scheduler is not in the loop with --placement pinned; its "
			      "counters exist with --placement sched");
}

int cmd_compare(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "compare", &err, false, 0 };
	enum compare_format format = COMPARE_TEXT;
	bool html = false; /* --format html: sim/report/html.h */
	char cmdline[1024];
	enum compare_style style = COMPARE_STYLE_MMTESTS;
	struct compare_request req;
	struct compare_result res;
	struct outfile out;
	const char *v, *output = NULL, *wl = find_workload_arg(argc, argv);
	bool affinity[CPULIST_MAX]; /* --affinity */
	char why[128];
	unsigned int tables = 0; /* --per-cpu, --per-task */
	int64_t n;

	compare_request_defaults(&req);
	if (!wl) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "compare: --workload is required (see idlesim help compare)");
		return finish(&err);
	}
	req.wl = workload_find(wl);
	if (!req.wl) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "compare: unknown workload '%s' (see idlesim help gen)", wl);
		return finish(&err);
	}
	workload_defaults(req.wl, req.params);
	/* Before the lists are split in place at their commas. */
	command_line(cmdline, sizeof(cmdline), argc, argv);
	while (more(&a)) {
		if (opt(&a, "--workload", NULL, &v))
			continue;
		else if (opt(&a, "--machine", "-m", &v))
			list_add(&a, req.machines, &req.nr_machines, v, "--machine");
		else if (opt(&a, "--governor", "-g", &v))
			list_add(&a, req.governors, &req.nr_governors, v, "--governor");
		else if (opt(&a, "--metric", NULL, &v))
			list_add(&a, req.metrics, &req.nr_metrics, v, "--metric");
		else if (opt(&a, "--iterations", "-n", &v)) {
			if (!num_arg(&a, "--iterations", v, 0, 1, 100000, &n))
				req.iterations = (int)n;
		} else if (opt(&a, "--seed", NULL, &v)) {
			if (!num_arg(&a, "--seed", v, 0, 0, INT64_MAX / 1000, &n))
				req.seed = (uint64_t)n;
		} else if (opt(&a, "--duration-s", NULL, &v))
			num_arg(&a, "--duration-s", v, 9, 1, 3600 * SIM_NS_PER_S, &req.duration_ns);
		else if (opt(&a, "--threads", "-j", &v)) {
			if (!num_arg(&a, "--threads", v, 0, 1, 256, &n))
				req.threads = (int)n;
		} else if (run_knob_opt(&a, &req.knobs)) {
			continue;
		} else if (opt(&a, "--format", "-f", &v)) {
			if (v && !strcmp(v, "json"))
				format = COMPARE_JSON;
			else if (v && !strcmp(v, "csv"))
				format = COMPARE_CSV;
			else if (v && !strcmp(v, "html"))
				html = true;
			else if (v && strcmp(v, "text"))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "compare --format: '%s' is not text, json, csv or html", v);
		} else if (opt(&a, "--style", NULL, &v)) {
			if (v && !strcmp(v, "normalized"))
				style = COMPARE_STYLE_NORMALIZED;
			else if (v && strcmp(v, "mmtests"))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "compare --style: '%s' is not mmtests or normalized",
					      v);
		} else if (opt(&a, "--per-cpu", NULL, NULL)) {
			tables |= COMPARE_SCHED_CPUS;
		} else if (opt(&a, "--per-task", NULL, NULL)) {
			tables |= COMPARE_SCHED_TASKS;
		} else if (opt(&a, "--output", "-o", &v)) {
			output = v;
		} else if (opt(&a, "--affinity", NULL, &v)) {
			if (!v)
				continue;
			req.affinity_top = cpulist_parse(v, affinity, why, sizeof(why));
			req.affinity = affinity;
			if (req.affinity_top < 0)
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "compare --affinity '%s': %s (CPUs and ranges, as "
					      "taskset -c takes them: 0-3,8)",
					      v, why);
		} else if (!wl_param_opt(&a, &req))
			bad_model_option(&a, req.wl);
	}
	option_unused(&a, style != COMPARE_STYLE_MMTESTS && (html || format != COMPARE_TEXT),
		      "--style", "a layout of the text tables; --format %s has its own",
		      html ? "html" : format == COMPARE_JSON ? "json" : "csv");
	sched_tables_used(&a, &req, tables, html, format);
	if (err.code != SIM_OK || kgov_resolve(req.governors, req.nr_governors, stderr, &err))
		return finish(&err);
	if (!req.nr_machines)
		req.machines[req.nr_machines++] = "skl";
	if ((req.affinity && check_affinity(&req, &err)) ||
	    (req.mmtests_sweep && mmtests_values(&req, &err)))
		return finish(&err);
	if (isatty_stderr()) {
		req.progress = compare_progress_bar;
		req.progress_ud = stderr;
	}
	if (compare_run(&req, &res, &err))
		return finish(&err);
	if (!outfile_open(&out, output, &err)) {
		bool text = !html && format == COMPARE_TEXT;

		if (html ? html_compare(out.f, &res, cmdline, IDLESIM_VERSION, &err)
			 : compare_write(out.f, &res, format, style) ||
				   (text && tables && compare_write_sched(out.f, &res, tables))) {
			outfile_fail(&out, &err);
		} else {
			outfile_commit(&out, &err);
		}
	}
	compare_result_free(&res);
	return finish(&err);
}
