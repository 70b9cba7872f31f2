// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_run.c - idlesim run and idlesim report: the two commands that replay traces
 * through run_grid() (sim/run/run.h), one to a text, JSON, CSV or timeline report, the
 * other to one HTML page. They share what to run, the knobs and the window (--from, --to),
 * and the warnings about what was run.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/common.h"
#include "sim/base/outfile.h"
#include "sim/base/textwrap.h"
#include "sim/base/version.h"
#include "sim/report/html.h"
#include "sim/report/report.h"
#include "sim/run/kgov.h"
#include "sim/run/run.h"
#include "sim/workload/workloads.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* ---- run ---- */

/* The length of a --workload run without --duration-s: a short stretch, for a timeline. */
#define WL_RUN_DEFAULT_NS (50 * SIM_NS_PER_MS)

/* --workload W, its parameters (one value each: lists are compare's), length and seed. */
struct wl_opts {
	const struct workload *w; /* NULL: traces are replayed */
	int64_t params[WL_MAX_PARAMS];
	char preset[32];	  /* --housekeeping NAME, "" if not given */
	int64_t duration_ns;	  /* < 0: not given */
	int64_t seed;		  /* < 0: not given */
};

/* Find --workload before the walk (its parameters are options); 0, or -1 with the error. */
static int wl_opts_init(struct wl_opts *wo, const char *cmd, int argc, char **argv,
			struct sim_error *err)
{
	const char *name = find_workload_arg(argc, argv);

	memset(wo, 0, sizeof(*wo));
	wo->duration_ns = wo->seed = -1;
	if (!name)
		return 0;
	wo->w = workload_find(name);
	if (!wo->w)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "%s: unknown workload '%s' (see idlesim help gen)", cmd, name);
	workload_defaults(wo->w, wo->params);
	return 0;
}

/* --workload's own options and its model's parameters: whether argv[a->i] was one. */
static bool wl_opt(struct args *a, struct wl_opts *wo)
{
	char name[WL_OPT_NAME];
	const char *v;
	int k;

	if (opt(a, "--workload", NULL, &v))
		return true;
	if (opt(a, "--duration-s", NULL, &v)) {
		num_arg(a, "--duration-s", v, 9, 1, 3600 * SIM_NS_PER_S, &wo->duration_ns);
		return true;
	}
	if (opt(a, "--seed", NULL, &v)) {
		num_arg(a, "--seed", v, 0, 0, INT64_MAX / 1000, &wo->seed);
		return true;
	}
	if (!wo->w)
		return false;
	if (opt(a, "--housekeeping", NULL, &v)) {
		if (v && strchr(v, ','))
			sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				      "%s --housekeeping '%s': one preset (a list is compare's)",
				      a->cmd, v);
		else if (v && !workload_preset(wo->w, v, wo->params, a->err))
			snprintf(wo->preset, sizeof(wo->preset), "%s", v);
		return true;
	}
	k = wl_param_take(a, wo->w, name, &v);
	if (k < 0)
		return false;
	if (v && (strchr(v, ',') || !strcmp(v, "mmtests")))
		sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
			      "%s %s '%s': one value (lists and sweeps are compare's)", a->cmd,
			      name, v);
	else if (v)
		wl_param_arg(a, wo->w, k, name, v, &wo->params[k]);
	return true;
}

/*
 * With --workload: no trace, one machine (default skl), --duration-s and --seed only with
 * it, and a --housekeeping tick preset at its HZ. Errors go to a->err.
 */
static void wl_check(struct args *a, const struct wl_opts *wo, struct run_request *req)
{
	if (a->err->code != SIM_OK)
		return;
	if (!wo->w) {
		option_unused(a, wo->duration_ns >= 0, "--duration-s",
			      "the length of a --workload run; a trace has its own");
		option_unused(a, wo->seed >= 0, "--seed",
			      "the seed of a --workload run; a trace is replayed as it is");
		return;
	}
	if (req->nr_traces)
		sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
			      "%s: --trace and --workload: give one of them (a trace is replayed, "
			      "a workload runs in closed loop)", a->cmd);
	else if (req->nr_machines > 1)
		sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
			      "%s --workload: one --machine (compare runs several)", a->cmd);
	else
		workload_preset_run_hz(a->cmd, wo->preset, req->hz, &req->hz, a->err);
	req->wake_seed = wo->seed >= 0 ? (uint64_t)wo->seed : 1;
}

/* Run the grid: the traces, or the workload (wl_check()'s). */
static int run_what(const struct wl_opts *wo, const struct run_request *req,
		    struct run_results *res, struct sim_error *err)
{
	if (!wo->w)
		return run_grid(req, res, err);
	return run_workload(req, wo->w, wo->params,
			    wo->duration_ns >= 0 ? wo->duration_ns : WL_RUN_DEFAULT_NS,
			    wo->seed >= 0 ? (uint64_t)wo->seed : 1, res, err);
}

/*
 * The options `run` and `report` share: what to run (--trace or --workload, --machine,
 * --governor), the knobs, and the window (--from, --to). Returns whether argv[a->i] was one
 * of them.
 */
static bool run_common_opt(struct args *a, struct run_request *req, struct wl_opts *wo)
{
	const char *v;

	if (wl_opt(a, wo)) {
		return true;
	} else if (opt(a, "--trace", "-t", &v)) {
		list_add(a, req->traces, &req->nr_traces, v, "--trace");
	} else if (opt(a, "--machine", "-m", &v)) {
		list_add(a, req->machines, &req->nr_machines, v, "--machine");
	} else if (opt(a, "--governor", "-g", &v)) {
		list_add(a, req->governors, &req->nr_governors, v, "--governor");
	} else if (run_knob_opt(a, req)) {
		return true;
	} else if (opt(a, "--from", NULL, &v)) {
		num_arg(a, "--from", v, 9, 0, INT64_MAX / 1000, &req->window_from_ns);
	} else if (opt(a, "--to", NULL, &v)) {
		num_arg(a, "--to", v, 9, 0, INT64_MAX / 1000, &req->window_to_ns);
	} else {
		return false;
	}
	return true;
}

/* --to after --from, if both are given. */
static void check_window(struct args *a, const struct run_request *req)
{
	if (a->err->code == SIM_OK && req->window_to_ns >= 0 &&
	    req->window_to_ns <= req->window_from_ns)
		sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s: --to must be after --from", a->cmd);
}

/* An argument that is an option (-x, --name), not a value such as 12, -3 or x. */
static bool is_option(const char *s)
{
	return s[0] == '-' && (s[1] == '-' ? s[2] != '\0' : (s[1] >= 'a' && s[1] <= 'z') ||
							(s[1] >= 'A' && s[1] <= 'Z'));
}

/*
 * Options that the chosen format makes no use of are errors, never silence: --per-cpu is
 * the text tables', and so is --width; --explain's decisions are in text and JSON; --from and --to select the
 * decisions of --explain or the timeline of ftrace and perfetto. (tests/cli_options.tsv)
 */
static void run_options_used(struct args *a, const struct run_request *req,
			     const struct report_opts *ro)
{
	static const char *const names[] = { [REPORT_TEXT] = "text", [REPORT_JSON] = "json",
					     [REPORT_CSV] = "csv", [REPORT_FTRACE] = "ftrace",
					     [REPORT_PERFETTO] = "perfetto" };
	const char *f = names[ro->format];
	bool text = ro->format == REPORT_TEXT, json = ro->format == REPORT_JSON;
	bool timeline = ro->format == REPORT_FTRACE || ro->format == REPORT_PERFETTO;
	bool window = req->window_from_ns || req->window_to_ns >= 0;

	option_unused(a, ro->per_cpu && !text, "--per-cpu",
		      "one row per CPU in the text tables; --format %s has every CPU already", f);
	option_unused(a, ro->width && !text, "--width",
		      "the text report's width; --format %s has no columns to fit", f);
	option_unused(a, req->explain_limit && !text && !json, "--explain",
		      "the decisions go to the text and json formats, not to %s", f);
	option_unused(a, window && !req->explain_limit && !timeline,
		      req->window_from_ns ? "--from" : "--to",
		      "selects the decisions of --explain or the timeline of --format "
		      "ftrace|perfetto; with neither, nothing uses it");
}

/*
 * A window that starts at or after the end of every trace (or ends before its start)
 * selects nothing: say so, with the traces' span, rather than write an empty report.
 */
static int window_past_end(struct sim_error *err, const char *cmd, const struct run_request *req,
			   const struct run_results *res)
{
	int64_t start = INT64_MAX, end = INT64_MIN;
	char to[32] = "its end";
	bool several = false;
	int i;

	if (!req->window_from_ns && req->window_to_ns < 0)
		return 0;
	for (i = 0; i < res->n; i++) {
		start = sim_min64(start, res->r[i].stats.start_ns);
		end = sim_max64(end, res->r[i].stats.end_ns);
		several |= strcmp(res->r[i].trace, res->r[0].trace) != 0;
	}
	if (!res->n ||
	    (req->window_from_ns < end && (req->window_to_ns < 0 || req->window_to_ns > start)))
		return 0;
	if (req->window_to_ns >= 0)
		snprintf(to, sizeof(to), "%.6f s", (double)req->window_to_ns / 1e9);
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "%s --from/--to: the window from %.6f s to %s holds nothing of the "
			     "trace%s, which span%s %.6f to %.6f s",
			     cmd, (double)req->window_from_ns / 1e9, to, several ? "s" : "",
			     several ? "" : "s", (double)start / 1e9, (double)end / 1e9);
}

/*
 * The text report's width without --width: to a terminal, its width (TIOCGWINSZ on
 * standard output, else $COLUMNS), clamped to TEXTWRAP_MIN..TEXTWRAP_MAX; to a file or a
 * pipe, TEXTWRAP_DEFAULT (160), so the output does not depend on where it was made.
 */
static int default_width(const char *output)
{
	struct winsize ws;
	const char *env;
	long w = 0;

	if ((output && strcmp(output, "-")) || !isatty(STDOUT_FILENO))
		return TEXTWRAP_DEFAULT;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		w = ws.ws_col;
	else if ((env = getenv("COLUMNS")) && *env)
		w = strtol(env, NULL, 10);
	if (w <= 0)
		return TEXTWRAP_DEFAULT;
	return w < TEXTWRAP_MIN ? TEXTWRAP_MIN : w > TEXTWRAP_MAX ? TEXTWRAP_MAX : (int)w;
}

/*
 * A long --explain to a file: say how big it will be before writing it. About 110 bytes a
 * decision in text (the line is at most --width), 900 in JSON (measured on the demo trace).
 */
static void explain_size_note(const struct run_results *res, enum report_format fmt,
			      const char *output)
{
	double bytes = 0;
	size_t n = 0;
	int i;

	if (!output || !strcmp(output, "-") || (fmt != REPORT_TEXT && fmt != REPORT_JSON))
		return;
	for (i = 0; i < res->n; i++)
		n += res->r[i].nr_decisions;
	bytes = (double)n * (fmt == REPORT_TEXT ? 110 : 900);
	if (bytes > 100e6)
		fprintf(stderr, "idlesim: --explain: about %.0f MB (%zu decisions) go to %s\n",
			bytes / 1e6, n, output);
}

/*
 * --disable that leaves only POLL (the CPU spins: no idle state saves power) is legal, but
 * rarely what was meant: warn once per machine.
 */
static void warn_only_poll(const struct run_results *res)
{
	int i, j, k;

	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];
		bool other = false;

		for (k = 0; k < r->mach.state_count; k++)
			other |= !(r->mach.states[k].flags & CPUIDLE_FLAG_POLLING) &&
				 !(r->disabled & (1u << k));
		for (j = 0; j < i && strcmp(res->r[j].mach.name, r->mach.name); j++)
			;
		if (!other && j == i)
			fprintf(stderr, "idlesim: warning: every idle state of %s but POLL is "
					"disabled: only POLL is left\n", r->mach.name);
	}
}

int cmd_run(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "run", &err, false, 0 };
	struct report_opts ro = { REPORT_TEXT, false, NULL, 0 };
	struct run_request req;
	struct run_results res;
	struct outfile out;
	struct wl_opts wo;
	const char *v, *output = NULL;
	char cmdline[1024];
	int64_t n;

	/* Before the lists are split in place at their commas. */
	command_line(cmdline, sizeof(cmdline), argc, argv);
	run_request_defaults(&req);
	if (wl_opts_init(&wo, a.cmd, argc, argv, &err))
		return finish(&err);
	while (more(&a)) {
		if (run_common_opt(&a, &req, &wo))
			continue;
		if (opt(&a, "--format", "-f", &v)) {
			if (v && report_format_parse(v, &ro.format))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "run --format: '%s' is not one of text, json, csv, "
					      "ftrace, perfetto", v);
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (opt(&a, "--per-cpu", NULL, NULL))
			ro.per_cpu = true;
		else if (opt(&a, "--width", NULL, &v)) {
			if (!num_arg(&a, "--width", v, 0, TEXTWRAP_MIN, TEXTWRAP_MAX, &n))
				ro.width = (int)n;
		} else if (opt(&a, "--explain", NULL, NULL)) {
			/* The next argument is its count unless it is another option: so
			 * --explain -3 or --explain x is a bad count, not an unknown option. */
			req.explain_limit = -1;
			if (a.i < argc && !is_option(argv[a.i])) {
				if (!num_arg(&a, "--explain", argv[a.i], 0, 1, INT64_MAX / 1000, &n))
					req.explain_limit = (long)n;
				a.i++;
			}
		} else if (opt(&a, "--explain", NULL, &v)) {
			if (!num_arg(&a, "--explain", v, 0, 1, INT64_MAX / 1000, &n))
				req.explain_limit = (long)n;
		} else if (opt(&a, "--queue", NULL, &v)) {
			/* lanes (default where possible), or one global queue: heap or naive */
			if (v && !strcmp(v, "naive")) {
				req.queue = EVENTQ_NAIVE;
				req.global_order = true;
			} else if (v && !strcmp(v, "heap")) {
				req.global_order = true;
			} else if (!v || strcmp(v, "lanes")) {
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "run --queue: '%s' is not lanes, heap or naive",
					      v ? v : "");
			}
		} else if (wo.w)
			bad_model_option(&a, wo.w);
		else
			bad_option(&a);
	}
	check_window(&a, &req);
	wl_check(&a, &wo, &req);
	run_options_used(&a, &req, &ro);
	if (err.code != SIM_OK || kgov_resolve(req.governors, req.nr_governors, stderr, &err))
		return finish(&err);
	/* The exports write every idle entry: keep the timeline. */
	req.timeline = ro.format == REPORT_FTRACE || ro.format == REPORT_PERFETTO;
	req.progress = isatty_stderr() ? stderr : NULL;
	ro.command = cmdline;
	if (run_what(&wo, &req, &res, &err))
		return finish(&err);
	if (window_past_end(&err, "run", &req, &res)) {
		run_results_free(&res);
		return finish(&err);
	}
	if (ro.format == REPORT_FTRACE && res.n != 1) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "run --format ftrace writes one run, and this one makes %d: give one "
			      "%s, one --machine and one --governor",
			      res.n, wo.w ? "--workload" : "--trace");
		run_results_free(&res);
		return finish(&err);
	}
	warn_only_poll(&res);
	explain_size_note(&res, ro.format, output);
	if (!ro.width)
		ro.width = default_width(output);
	if (!outfile_open(&out, output, &err)) {
		int rc = report_write(out.f, &res, &ro);

		if (rc == REPORT_ERR_NOMEM)
			sim_error_nomem(&err, "");
		if (rc)
			outfile_fail(&out, &err);
		else
			outfile_commit(&out, &err);
	}
	run_results_free(&res);
	return finish(&err);
}

/* ---- report ---- */

/*
 * idlesim report: one trace on one machine through governors (menu and teo by default)
 * and the oracle, kept as timelines, drawn as one HTML file (sim/report/html.h).
 */
int cmd_report(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "report", &err, false, 0 };
	struct html_opts ho = { NULL, IDLESIM_VERSION, 0, -1, 30 };
	struct run_request req;
	struct run_results res;
	struct outfile out;
	const char *v, *output = NULL;
	char cmdline[1024];
	struct wl_opts wo;
	bool oracle = false;
	int64_t n;
	int i;

	/* Before the lists are split in place at their commas. */
	command_line(cmdline, sizeof(cmdline), argc, argv);
	run_request_defaults(&req);
	if (wl_opts_init(&wo, a.cmd, argc, argv, &err))
		return finish(&err);
	while (more(&a)) {
		if (run_common_opt(&a, &req, &wo))
			continue;
		if (opt(&a, "--decisions", NULL, &v)) {
			if (!num_arg(&a, "--decisions", v, 0, 0, 100000, &n))
				ho.decisions = (int)n;
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (wo.w)
			bad_model_option(&a, wo.w);
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && (req.nr_traces > 1 || req.nr_machines > 1))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "report: one --trace and one --machine (a report draws one run of "
			      "each governor)");
	check_window(&a, &req);
	wl_check(&a, &wo, &req);
	if (err.code != SIM_OK || kgov_resolve(req.governors, req.nr_governors, stderr, &err))
		return finish(&err);
	if (!req.nr_machines)
		req.machines[req.nr_machines++] = "skl";
	if (!req.nr_governors) {
		req.governors[req.nr_governors++] = "menu";
		req.governors[req.nr_governors++] = "teo";
	}
	for (i = 0; i < req.nr_governors; i++)
		oracle |= !strcmp(req.governors[i], "oracle");
	if (!oracle && req.nr_governors < RUN_MAX_ITEMS)
		req.governors[req.nr_governors++] = "oracle"; /* its residency and histogram */
	req.timeline = true;
	/* With the default window, which the timeline decides, keep the first slices and
	 * decisions of the run, and draw those in the window. */
	req.timeline_cap = req.window_to_ns < 0 ? 200000 : 0;
	req.explain_limit = req.window_to_ns < 0 ? 4L * ho.decisions : ho.decisions;
	ho.from_ns = req.window_from_ns;
	ho.to_ns = req.window_to_ns;
	ho.command = cmdline;
	req.progress = isatty_stderr() ? stderr : NULL;
	if (run_what(&wo, &req, &res, &err))
		return finish(&err);
	if (window_past_end(&err, "report", &req, &res)) {
		run_results_free(&res);
		return finish(&err);
	}
	warn_only_poll(&res);
	if (!outfile_open(&out, output, &err)) {
		if (html_report(out.f, &res, &ho, &err)) {
			outfile_fail(&out, &err);
		} else {
			outfile_commit(&out, &err);
		}
	}
	run_results_free(&res);
	return finish(&err);
}
