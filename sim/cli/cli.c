// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - subcommands, exit statuses.
 *
 * Subcommands come from one table, as in perf and cpupower. Each parses its own options
 * with the small re-entrant parser of sim/cli/cli_opt.c, so tests can call idlesim_main()
 * many times in one process. The CLI only parses and calls functions that tests call too
 * (run_grid, report_write, gen_write, machine_*).
 */
#include "sim/cli/cli.h"
#include "sim/cli/cli_help.h"
#include "sim/cli/cli_opt.h"
#include "sim/study/check.h"
#include "sim/base/common.h"
#include "sim/run/compare.h"
#include "sim/report/compare_report.h"
#include "sim/workload/gen.h"
#include "sim/workload/gen_size.h"
#include "sim/report/html.h"
#include "sim/import/import.h"
#include "sim/base/init.h"
#include "sim/run/kgov.h"
#include "sim/machine/machine.h"
#include "sim/base/outfile.h"
#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/workload/workloads.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/base/version.h"
#include "sim/study/sweep.h"
#include "sim/base/alloc.h"

/* ---- run ---- */

/*
 * The options `run` and `report` share: what to run (--trace, --machine, --governor), the
 * knobs, and the window (--from, --to). Returns whether argv[a->i] was one of them.
 */
static bool run_common_opt(struct args *a, struct run_request *req)
{
	const char *v;

	if (opt(a, "--trace", "-t", &v)) {
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

/*
 * A long --explain to a file: say how big it will be before writing it. About 110 bytes a
 * decision in text (the line is at most 120), 900 in JSON (measured on the demo trace).
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

static int cmd_run(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "run", &err, false, 0 };
	struct report_opts ro = { REPORT_TEXT, false, NULL };
	struct run_request req;
	struct run_results res;
	struct outfile out;
	const char *v, *output = NULL;
	char cmdline[1024];
	int64_t n;

	/* Before the lists are split in place at their commas. */
	command_line(cmdline, sizeof(cmdline), argc, argv);
	run_request_defaults(&req);
	while (more(&a)) {
		if (run_common_opt(&a, &req))
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
		else if (opt(&a, "--explain", NULL, NULL)) {
			req.explain_limit = -1;
			if (a.i < argc && argv[a.i][0] >= '0' && argv[a.i][0] <= '9') {
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
		} else
			bad_option(&a);
	}
	check_window(&a, &req);
	if (err.code != SIM_OK || kgov_resolve(req.governors, req.nr_governors, stderr, &err))
		return finish(&err);
	/* The exports write every idle entry: keep the timeline. */
	req.timeline = ro.format == REPORT_FTRACE || ro.format == REPORT_PERFETTO;
	req.progress = isatty_stderr() ? stderr : NULL;
	ro.command = cmdline;
	if (run_grid(&req, &res, &err))
		return finish(&err);
	if (ro.format == REPORT_FTRACE && res.n != 1) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "run --format ftrace writes one run, and this one makes %d: give one "
			      "--trace, one --machine and one --governor",
			      res.n);
		run_results_free(&res);
		return finish(&err);
	}
	warn_only_poll(&res);
	explain_size_note(&res, ro.format, output);
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
static int cmd_report(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "report", &err, false, 0 };
	struct html_opts ho = { NULL, IDLESIM_VERSION, 0, -1, 30 };
	struct run_request req;
	struct run_results res;
	struct outfile out;
	const char *v, *output = NULL;
	char cmdline[1024];
	bool oracle = false;
	int64_t n;
	int i;

	/* Before the lists are split in place at their commas. */
	command_line(cmdline, sizeof(cmdline), argc, argv);
	run_request_defaults(&req);
	while (more(&a)) {
		if (run_common_opt(&a, &req))
			continue;
		if (opt(&a, "--decisions", NULL, &v)) {
			if (!num_arg(&a, "--decisions", v, 0, 0, 100000, &n))
				ho.decisions = (int)n;
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && (req.nr_traces > 1 || req.nr_machines > 1))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "report: one --trace and one --machine (a report draws one run of "
			      "each governor)");
	check_window(&a, &req);
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
	if (run_grid(&req, &res, &err))
		return finish(&err);
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

/* ---- gen ---- */

/* "periodic, irq-fixed, irq-poisson, mixed, netperf-udp, ..., powernightmares" */
static void gen_workload_list(char *buf, size_t n)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < GEN_NR_WORKLOADS + workload_count() && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
					 i < GEN_NR_WORKLOADS
						 ? gen_workload_name((enum gen_workload)i)
						 : workload_get(i - GEN_NR_WORKLOADS)->name);
}

/*
 * gen for a benchmark-like workload model (sim/workload/workloads.h): its timeline on CPUs without
 * exit latency, the one the oracle follows. Its parameters are options (--clients 4).
 */
static int gen_model(struct args *a, const struct workload *w)
{
	struct sim_error *err = a->err;
	struct trace_header hdr = { 0 };
	int64_t params[WL_MAX_PARAMS], duration_ns = SIM_NS_PER_S, n;
	uint64_t seed = 1;
	struct outfile out;
	const char *v, *output = NULL;
	char name[64];
	bool force = false;

	workload_defaults(w, params);
	command_line(hdr.source, sizeof(hdr.source), a->argc, a->argv);
	while (more(a)) {
		const char *s = a->argv[a->i];
		size_t len = strncmp(s, "--", 2) ? 0 : strcspn(s + 2, "=");
		int k = -1;

		if (len && len < sizeof(name) - 2) {
			snprintf(name, sizeof(name), "--%.*s", (int)len, s + 2);
			k = workload_param_index(w, name + 2);
		}
		if (opt(a, "--workload", NULL, &v))
			continue;
		else if (opt(a, "--housekeeping", NULL, &v)) {
			if (v)
				workload_preset(w, v, params, err);
		} else if (k >= 0 && opt(a, name, NULL, &v))
			num_arg(a, name, v, 0, 0, INT64_MAX / 1000, &params[k]);
		else if (opt(a, "--duration-s", NULL, &v))
			num_arg(a, "--duration-s", v, 9, 1, 3600 * SIM_NS_PER_S, &duration_ns);
		else if (opt(a, "--seed", NULL, &v)) {
			if (!num_arg(a, "--seed", v, 0, 0, INT64_MAX / 1000, &n))
				seed = (uint64_t)n;
		} else if (opt(a, "--hz", NULL, &v)) {
			if (!num_arg(a, "--hz", v, 0, 1, 10000, &n))
				hdr.hz = (int)n;
		} else if (opt(a, "--output", "-o", &v))
			output = v;
		else if (opt(a, "--force", NULL, NULL))
			force = true;
		else
			bad_model_option(a, w);
	}
	if (err->code != SIM_OK || workload_check_params(w, params, err) ||
	    gen_size_check_model(w, params, duration_ns, seed, &hdr, force, err))
		return finish(err);
	if (!outfile_open(&out, output, err)) {
		if (workload_write_trace(w, params, duration_ns, seed, &hdr, out.f,
					 isatty_stderr() ? stderr : NULL, err))
			outfile_fail(&out, err);
		else
			outfile_commit(&out, err);
	}
	return finish(err);
}

static int cmd_gen(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "gen", &err, false, 0 };
	const struct workload *model;
	struct gen_config c;
	struct outfile out;
	const char *v, *output = NULL, *workload = NULL;
	char names[512];
	bool force = false;
	int64_t n;
	int i;

	/* The workload sets the defaults, so find it first. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			workload = argv[i + 1];
		else if (!strncmp(argv[i], "--workload=", 11))
			workload = argv[i] + 11;
	}
	gen_workload_list(names, sizeof(names));
	if (!workload) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0, "gen: --workload is required (%s)",
			      names);
		return finish(&err);
	}
	model = workload_find(workload);
	if (model)
		return gen_model(&a, model);
	if (gen_workload_parse(workload, &c.workload)) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0, "gen: unknown workload '%s' (%s)",
			      workload, names);
		return finish(&err);
	}
	gen_config_defaults(&c, c.workload);
	command_line(c.source, sizeof(c.source), argc, argv);
	while (more(&a)) {
		if (opt(&a, "--workload", NULL, &v))
			continue;
		else if (opt(&a, "--cpus", NULL, &v)) {
			if (!num_arg(&a, "--cpus", v, 0, 1, TRACE_MAX_CPUS, &n))
				c.cpus = (int)n;
		} else if (opt(&a, "--duration-s", NULL, &v))
			num_arg(&a, "--duration-s", v, 9, 1, INT64_MAX / 1000, &c.duration_ns);
		else if (opt(&a, "--seed", NULL, &v)) {
			if (!num_arg(&a, "--seed", v, 0, 0, INT64_MAX / 1000, &n))
				c.seed = (uint64_t)n;
		} else if (opt(&a, "--period-us", NULL, &v))
			num_arg(&a, "--period-us", v, 3, 1, INT64_MAX / 1000, &c.period_ns);
		else if (opt(&a, "--interval-us", NULL, &v))
			num_arg(&a, "--interval-us", v, 3, 1, INT64_MAX / 1000, &c.interval_ns);
		else if (opt(&a, "--mean-us", NULL, &v))
			num_arg(&a, "--mean-us", v, 3, 1, INT64_MAX / 1000, &c.mean_ns);
		else if (opt(&a, "--timer-period-us", NULL, &v))
			num_arg(&a, "--timer-period-us", v, 3, 1, INT64_MAX / 1000, &c.timer_period_ns);
		else if (opt(&a, "--busy-us", NULL, &v))
			num_arg(&a, "--busy-us", v, 3, 0, INT64_MAX / 1000, &c.busy_ns);
		else if (opt(&a, "--iowait", NULL, &v)) {
			if (!num_arg(&a, "--iowait", v, 0, 0, 65535, &n))
				c.iowait = (unsigned int)n;
		} else if (opt(&a, "--no-wake-pct", NULL, &v)) {
			if (!num_arg(&a, "--no-wake-pct", v, 0, 0, 100, &n))
				c.no_wake_pct = (unsigned int)n;
		} else if (opt(&a, "--timer-kind", NULL, &v)) {
			if (v && gen_timer_kind_parse(v, &c.timer_kind))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "%s --timer-kind: '%s' is not a valid value (expected "
					      "wheel, hrtimer or mix)",
					      a.cmd, v);
		} else if (opt(&a, "--hz", NULL, &v)) {
			if (!num_arg(&a, "--hz", v, 0, 1, 10000, &n))
				c.hz = (int)n;
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (opt(&a, "--force", NULL, NULL))
			force = true;
		else
			bad_option(&a);
	}
	if (err.code != SIM_OK || gen_validate(&c, &err) || gen_size_check(&c, force, &err))
		return finish(&err);
	c.progress = isatty_stderr() ? stderr : NULL;
	if (!outfile_open(&out, output, &err)) {
		if (gen_write(&c, out.f, &err))
			outfile_fail(&out, &err);
		else
			outfile_commit(&out, &err);
	}
	return finish(&err);
}

/* ---- import ---- */

/*
 * The converted trace to `output` (atomically through a temporary for a regular file; a
 * device such as /dev/null is written directly, never renamed over), the summary to stdout
 * (stderr when the trace goes to stdout).
 */
static int import_output(struct importer *im, const char *output, bool json, struct sim_error *err)
{
	struct outfile out = { 0 };
	FILE *summary = stdout, *dev = NULL;
	struct stat sb;

	if (output && !strcmp(output, "-")) {
		summary = stderr; /* the converted trace takes standard output */
	} else if (output && stat(output, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		dev = fopen(output, "w");
		if (!dev)
			return sim_error_set(err, SIM_ERR_IO, output, 0, 0,
					     "cannot open for writing: %s", strerror(errno));
	} else if (output && outfile_open(&out, output, err)) {
		return -1;
	}
	if (import_convert(im, !output ? NULL : dev ? dev : out.f ? out.f : stdout, err)) {
		if (out.path)
			return outfile_fail(&out, err);
		if (dev && err->code == SIM_ERR_IO) {
			fflush(dev); /* sets errno again if the device still fails */
			sim_error_clear(err);
			sim_error_set(err, SIM_ERR_IO, output, 0, 0, "write error: %s",
				      strerror(errno));
		}
		if (dev)
			fclose(dev);
		return -1;
	}
	if (dev ? fclose(dev) != 0
		: output && (out.path ? outfile_commit(&out, err) : fflush(stdout) ? -1 : 0)) {
		sim_error_set(err, SIM_ERR_IO, output, 0, 0, "write error: %s", strerror(errno));
		return -1;
	}
	if (import_write_summary(summary, im, json) || fflush(summary))
		return sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
	return 0;
}

static int cmd_import(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "import", &err, false, 0 };
	struct import_options io = { 0 };
	struct run_request req;
	struct importer *im;
	struct machine m;
	const char *v, *trace = NULL, *output = NULL, *machine = NULL;
	char cmd[512];
	bool json = false;
	int64_t n;

	run_request_defaults(&req);
	command_line(cmd, sizeof(cmd), argc, argv);
	while (more(&a)) {
		if (opt(&a, "--machine", "-m", &v))
			machine = v;
		else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (opt(&a, "--format", "-f", &v)) {
			if (v && (strcmp(v, "text") && strcmp(v, "json")))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "import --format: '%s' is not text or json", v);
			json = v && !strcmp(v, "json");
		} else if (opt(&a, "--input-format", NULL, &v)) {
			if (v && import_format_parse(v, &io.format))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "import --input-format: '%s' is not one of auto, "
					      "ftrace, trace-cmd, perf, systrace, trace-dat",
					      v);
		} else if (opt(&a, "--skip-bad-lines", NULL, NULL))
			io.skip_bad_lines = true;
		else if (opt(&a, "--hz", NULL, &v)) {
			if (!num_arg(&a, "--hz", v, 0, 1, 10000, &n))
				io.hz = (int)n;
		} else if (opt(&a, "--cpus", NULL, &v)) {
			if (!num_arg(&a, "--cpus", v, 0, 1, TRACE_MAX_CPUS, &n))
				io.cpus = (int)n;
		} else if (opt(&a, "--disable", NULL, &v))
			list_add(&a, req.disable, &req.nr_disable, v, "--disable");
		else if (opt(&a, "--enable", NULL, &v))
			list_add(&a, req.enable, &req.nr_enable, v, "--enable");
		else if (operand(&a) && !trace)
			trace = argv[a.i++];
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && !trace)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "import: which trace? (idlesim import TRACE [-o OUT.trace])");
	if (err.code == SIM_OK && !machine && (req.nr_disable || req.nr_enable))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "import --disable/--enable need --machine");
	if (err.code == SIM_OK && machine && !strcmp(machine, "-") && !strcmp(trace, "-"))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "import - and --machine - both read standard input; give one of "
			      "them as a file");
	if (err.code == SIM_OK && machine &&
	    !run_load_machine(&req, machine, &m, &err) &&
	    !run_disabled_mask(&req, &m, &io.disabled, &err))
		io.machine = &m;
	if (err.code != SIM_OK)
		return finish(&err);
	io.command = cmd;
	im = import_open_convert(trace, &io, &err);
	if (im) {
		import_output(im, output, json, &err);
		for (n = 0; import_warning(im, (int)n); n++)
			fprintf(stderr, "idlesim: warning: %s (skipped)\n",
				import_warning(im, (int)n));
		if (import_bad_lines(im) > (unsigned long long)n)
			fprintf(stderr,
				"idlesim: warning: ... and %llu more malformed lines skipped\n",
				import_bad_lines(im) - (unsigned long long)n);
		import_close(im);
	}
	return finish(&err);
}

/* ---- machines, governors ---- */

static void list_machines(void)
{
	unsigned int i;
	int k;

	printf("%-6s %5s  %-9s  %-40s %s\n", "name", "CPUs", "topology", "idle states", "description");
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
		snprintf(topo, sizeof(topo), "%dx%dx%d", m.packages, m.cores, m.threads);
		printf("%-6s %5d  %-9s  %-40s %s\n", m.name, machine_nr_cpus(&m), topo, states, m.desc);
	}
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
	struct outfile out;
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
	if (!outfile_open(&out, output, &err)) {
		if (machine_write_json(out.f, &m))
			outfile_fail(&out, &err);
		else
			outfile_commit(&out, &err);
	}
	return finish(&err);
}

static int cmd_machines(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "machines", &err, false, 0 };
	const char *name = NULL;
	bool json = false;
	struct machine m;

	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return cmd_machines_calibrate(argc, argv);
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

static int cmd_governors(int argc, char **argv)
{
	unsigned int i, k;

	if (argc > 1) {
		fprintf(stderr, "idlesim: governors takes no arguments\n");
		return SIM_EXIT_INPUT;
	}
	(void)argv;
	printf("%-12s %6s  %s\n", "name", "rating", "summary");
	for (i = 0; i < gov_count(); i++) {
		const struct cpuidle_governor *g = gov_get(i);

		printf("%-12s %6u  %s\n", g->name, g->rating, g->summary);
		for (k = 0; k < g->nr_params; k++)
			printf("%-12s %6s    --set %.*s.%s=%lld  (%s)\n", "", "",
			       (int)gov_family_len(g->name), g->name, g->params[k].name,
			       g->params[k].def, g->params[k].help);
	}
	return 0;
}

/* ---- compare, check ---- */

/* --NAME VALUE for a parameter of the workload; VALUE may be a comma-separated list. */
static bool wl_param_opt(struct args *a, struct compare_request *req)
{
	const char *s = a->argv[a->i], *v;
	char name[64];
	int k;
	size_t n;

	if (strncmp(s, "--", 2))
		return false;
	if (opt(a, "--housekeeping", NULL, &v)) {
		if (v)
			workload_preset(req->wl, v, req->params, a->err);
		return true;
	}
	n = strcspn(s + 2, "=");
	if (n >= sizeof(name) - 2)
		return false;
	snprintf(name, sizeof(name), "--%.*s", (int)n, s + 2);
	k = workload_param_index(req->wl, name + 2);
	if (k < 0 || !opt(a, name, NULL, &v))
		return false;
	if (!v)
		return true;
	if (!strchr(v, ',')) {
		num_arg(a, name, v, 0, 0, INT64_MAX / 1000, &req->params[k]);
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
		if (num_arg(a, name, item, 0, 0, INT64_MAX / 1000, &req->values[req->nr_values++]))
			return true;
		if (!comma)
			return true;
		v = comma + 1;
	}
}

/* The workload sets which options exist, so it is found first. */
static const char *find_workload_arg(int argc, char **argv)
{
	const char *w = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			w = argv[++i];
		else if (!strncmp(argv[i], "--workload=", 11))
			w = argv[i] + 11;
	}
	return w;
}

static int cmd_compare(int argc, char **argv)
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
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (!wl_param_opt(&a, &req))
			bad_model_option(&a, req.wl);
	}
	if (err.code != SIM_OK || kgov_resolve(req.governors, req.nr_governors, stderr, &err))
		return finish(&err);
	if (!req.nr_machines)
		req.machines[req.nr_machines++] = "skl";
	if (isatty_stderr()) {
		req.progress = compare_progress_bar;
		req.progress_ud = stderr;
	}
	if (compare_run(&req, &res, &err))
		return finish(&err);
	if (!outfile_open(&out, output, &err)) {
		if (html ? html_compare(out.f, &res, cmdline, IDLESIM_VERSION, &err)
			 : compare_write(out.f, &res, format, style)) {
			outfile_fail(&out, &err);
		} else {
			outfile_commit(&out, &err);
		}
	}
	compare_result_free(&res);
	return finish(&err);
}

static int cmd_check(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "check", &err, false, 0 };
	struct check_opts o = { 0 };
	struct check_file *cf;
	struct outfile out;
	const char *v, *path = NULL, *output = NULL;
	int64_t n;
	int failed;

	while (more(&a)) {
		if (opt(&a, "--threads", "-j", &v)) {
			if (!num_arg(&a, "--threads", v, 0, 1, 256, &n))
				o.threads = (int)n;
		} else if (opt(&a, "--verbose", "-v", NULL))
			o.verbose = true;
		else if (opt(&a, "--wake-latency", NULL, &v))
			o.wake_set = !parse_wake_model(&a, v, &o.wake_model);
		else if (opt(&a, "--format", "-f", &v)) {
			if (v && check_format_parse(v, &o.format))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "check --format: '%s' is not text, json, junit or tap",
					      v);
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (operand(&a) && !path)
			path = argv[a.i++];
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && !path)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "check: which expectation file? (idlesim check EXPECT.json)");
	if (err.code != SIM_OK)
		return finish(&err);
	cf = check_load(path, NULL, &err);
	if (!cf)
		return finish(&err);
	if (isatty_stderr())
		o.progress = stderr;
	failed = -1;
	if (!outfile_open(&out, output, &err)) {
		o.out = out.f;
		failed = check_run(cf, &o, &err);
		if (failed < 0)
			outfile_fail(&out, &err);
		else if (outfile_commit(&out, &err))
			failed = -1;
	}
	check_free(cf);
	if (failed < 0)
		return finish(&err);
	return failed ? CHECK_EXIT_FAILED : SIM_EXIT_OK;
}

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

static int cmd_sweep(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "sweep", &err, false, 0 };
	struct sweep_opts o = { 1, 0, 1, NULL };
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

static int cmd_help(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : NULL;

	if (cli_help(stdout, c)) {
		fprintf(stderr, "idlesim: no help for '%s'\n", c);
		return SIM_EXIT_INPUT;
	}
	return 0;
}

struct command {
	const char *name;
	int (*main)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "run", cmd_run },
	{ "gen", cmd_gen },
	{ "import", cmd_import },
	{ "report", cmd_report },
	{ "machines", cmd_machines },
	{ "governors", cmd_governors },
	{ "compare", cmd_compare },
	{ "check", cmd_check },
	{ "sweep", cmd_sweep },
	{ "help", cmd_help },
};

int idlesim_main(int argc, char **argv)
{
	size_t i;

	idlesim_init();
	if (argc < 2) {
		cli_usage(stderr);
		return SIM_EXIT_INPUT;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("idlesim %s\n", IDLESIM_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage(stdout);
		return 0;
	}
	for (i = 0; i < SIM_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			char *h[2] = { argv[0], argv[1] };

			return cmd_help(2, h);
		}
		return commands[i].main(argc - 1, argv + 1);
	}
	fprintf(stderr, "idlesim: unknown command '%s' (see idlesim help)\n", argv[1]);
	return SIM_EXIT_INPUT;
}
