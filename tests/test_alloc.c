// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_alloc.c - out of memory everywhere: for every loader and writer, fail its Nth
 * allocation (sim_alloc_fail_after, sim/base/alloc.h; jansson's allocations go through the same
 * hook, sim/base/init.c) for N = 0, 1, 2, ... until the operation succeeds, and check that
 *
 *  - each failure is reported cleanly: the operation returns its error value with
 *    err.code == SIM_ERR_NOMEM (the command line: exit status 1, "out of memory" on stderr,
 *    and no output file, final or temporary);
 *  - nothing leaks, on failure or success: the thread's count of live blocks
 *    (sim_alloc_live) is back where it was, and in the sanitizer build LeakSanitizer fails
 *    the test for any leak that count cannot see (valgrind too, see tests/CMakeLists.txt);
 *  - the run that succeeds produces exactly the output of a run without injected failures.
 *
 * Loaders: native traces (text and JSON, from a string and a file), JSON machines (string,
 * file, built-ins), kernel trace import (each fixture dialect, both ways), replay_run,
 * run_grid with report_write (text, JSON, CSV), gen_write, loop_run and loop_write_ideal,
 * check_parse, and the command line (run, import and gen with -o).
 *
 * Each operation is a function that does everything a user of the API does (open, read all,
 * write, release) and writes what it produced to a stream, so the outputs can be compared.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "governors/governor.h"
#include "sim/base/alloc.h"
#include "sim/study/check.h"
#include "sim/cli/cli.h"
#include "sim/base/common.h"
#include "sim/workload/gen.h"
#include "sim/report/html.h"
#include "sim/import/import.h"
#include "sim/base/init.h"
#include "sim/sched/loop.h"
#include "sim/machine/machine.h"
#include "sim/engine/replay.h"
#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/trace/trace.h"


typedef int op_fn(const void *arg, FILE *out, struct sim_error *err);

/* Run op once into a memory stream; returns its rc, the output in *text (malloc'ed). */
static int run_op(op_fn *op, const void *arg, char **text, struct sim_error *err)
{
	size_t len = 0;
	FILE *f;
	int rc;

	*text = NULL;
	f = open_memstream(text, &len);
	assert_non_null(f);
	rc = op(arg, f, err);
	assert_int_equal(fclose(f), 0);
	return rc;
}

/* The loop. Returns the number of allocations the operation makes when nothing fails. */
static long exercise(const char *name, op_fn *op, const void *arg)
{
	struct sim_error err = {0};
	long live = sim_alloc_live(), allocs, n;
	char *want, *got;

	sim_alloc_fail_after(-1);
	if (run_op(op, arg, &want, &err)) {
		fprintf(stderr, "%s: fails without injected failures: ", name);
		sim_error_print(stderr, &err);
		fail();
	}
	allocs = sim_alloc_fail_after(-1);
	if (sim_alloc_live() != live) {
		fprintf(stderr, "%s: leaks %ld blocks when nothing fails\n", name,
			sim_alloc_live() - live);
		fail();
	}
	for (n = 0;; n++) {
		int rc;

		sim_error_clear(&err);
		sim_alloc_fail_after(n);
		rc = run_op(op, arg, &got, &err);
		sim_alloc_fail_after(-1);
		if (sim_alloc_live() != live) {
			fprintf(stderr, "%s: allocation %ld failing leaks %ld blocks (rc %d): ",
				name, n, sim_alloc_live() - live, rc);
			sim_error_print(stderr, &err);
			fail();
		}
		if (!rc) {
			if (strcmp(got, want)) {
				fprintf(stderr, "%s: allocation %ld failing: it succeeds, but with "
						"other output:\n--- want\n%s--- got\n%s",
					name, n, want, got);
				fail();
			}
			free(got);
			break;
		}
		free(got);
		if (err.code != SIM_ERR_NOMEM) {
			fprintf(stderr, "%s: allocation %ld failing gives error code %d, not "
					"out of memory: ",
				name, n, err.code);
			sim_error_print(stderr, &err);
			fail();
		}
		if (n > allocs) {
			fprintf(stderr, "%s: still fails with %ld allocations allowed, needs %ld\n",
				name, n, allocs);
			fail();
		}
	}
	free(want);
	printf("  %-40s %5ld allocations, each failure clean\n", name, allocs);
	return allocs;
}

/* ---- native traces ---- */

static int op_trace_string(const void *arg, FILE *out, struct sim_error *err)
{
	struct trace_reader *r = trace_open_string("<alloc>", arg, err);
	struct trace_record rec;
	int rc;

	if (!r)
		return -1;
	if (trace_write_header(out, trace_header(r)))
		abort();
	while ((rc = trace_next(r, &rec, err)) > 0)
		trace_write_record(out, &rec);
	trace_close(r);
	return rc;
}

static int op_trace_file(const void *arg, FILE *out, struct sim_error *err)
{
	struct trace_reader *r = trace_open(arg, err);
	struct trace_record rec;
	int rc;

	if (!r)
		return -1;
	trace_write_header(out, trace_header(r));
	while ((rc = trace_next(r, &rec, err)) > 0)
		trace_write_record(out, &rec);
	trace_close(r);
	return rc;
}

static void each_file(const char *dir, const char *suffix, const char *leaf,
		      void (*fn)(const char *path, const char *name))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[1024], name[300];
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len < strlen(suffix) ||
		    strcmp(e->d_name + len - strlen(suffix), suffix))
			continue;
		snprintf(path, sizeof(path), "%s/%s%s", dir, e->d_name, leaf);
		snprintf(name, sizeof(name), "%s", e->d_name);
		fn(path, name);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

static void trace_case(const char *path, const char *name)
{
	char *text = slurp(path), label[400];

	assert_non_null(text);
	snprintf(label, sizeof(label), "trace_open_string %s", name);
	exercise(label, op_trace_string, text);
	snprintf(label, sizeof(label), "trace_open %s", name);
	exercise(label, op_trace_file, path);
	free(text);
}

/* Every valid trace of tests/traces/valid and traces/scenarios (text and JSON). */
static void test_traces(void **state)
{
	(void)state;
	each_file(SRC "/tests/traces/valid", "", "/input", trace_case);
	each_file(SRC "/traces/scenarios", "", "", trace_case);
}

/* ---- machines ---- */

static int op_machine_string(const void *arg, FILE *out, struct sim_error *err)
{
	struct machine m;

	if (machine_load_json_string(arg, "<alloc>", &m, err))
		return -1;
	return machine_write_json(out, &m) ? sim_error_nomem(err, "<write>") : 0;
}

static int op_machine_load(const void *arg, FILE *out, struct sim_error *err)
{
	struct machine m;

	if (machine_load(arg, &m, err))
		return -1;
	return machine_write_json(out, &m) ? sim_error_nomem(err, "<write>") : 0;
}

static void test_machines(void **state)
{
	struct sim_error err = {0};
	char *text = NULL, path[128];
	size_t len = 0;
	struct machine m;
	FILE *f;

	(void)state;
	exercise("machine_load skl (built-in)", op_machine_load, "skl");
	exercise("machine_load hsx (built-in)", op_machine_load, "hsx");
	/* the JSON of a built-in, as a string and as a file */
	assert_int_equal(machine_load("skx", &m, &err), 0);
	f = open_memstream(&text, &len);
	assert_int_equal(machine_write_json(f, &m), 0);
	fclose(f);
	exercise("machine_load_json_string skx", op_machine_string, text);
	snprintf(path, sizeof(path), "%s/skx.json", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	exercise("machine_load skx.json (file)", op_machine_load, path);
	free(text);
	exercise("machine_load fuzz_machine/full.json", op_machine_load,
		 SRC "/tests/fuzz/fuzz_machine/full.json");
}

/* ---- kernel trace import ---- */

struct import_case {
	const char *path;
	bool two_pass; /* import_open + import_next, else import_open_convert + import_convert */
	bool skip_bad_lines;
	bool machine;
};

static int op_import(const void *arg, FILE *out, struct sim_error *err)
{
	const struct import_case *c = arg;
	struct import_options o = {0};
	struct importer *im;
	struct machine skl;
	struct trace_record rec;
	int rc = 0, i;

	if (machine_load("skl", &skl, err))
		return -1;
	o.machine = c->machine ? &skl : NULL;
	o.skip_bad_lines = c->skip_bad_lines;
	o.command = "idlesim import (test_alloc)";
	im = c->two_pass ? import_open(c->path, &o, err) : import_open_convert(c->path, &o, err);
	if (!im)
		return -1;
	if (c->two_pass) {
		trace_write_header(out, import_header(im));
		while ((rc = import_next(im, &rec, err)) > 0)
			trace_write_record(out, &rec);
	} else {
		rc = import_convert(im, out, err);
	}
	if (!rc) {
		for (i = 0; import_warning(im, i); i++)
			fprintf(out, "warning: %s\n", import_warning(im, i));
		if (import_write_summary(out, im, false) || import_write_summary(out, im, true))
			rc = sim_error_nomem(err, "<summary>");
	}
	import_close(im);
	return rc;
}

static void import_case(const char *path, const char *name)
{
	char label[400];
	struct import_case c = {.path = path, .machine = true};

	snprintf(label, sizeof(label), "import convert %s", name);
	exercise(label, op_import, &c);
	c.two_pass = true;
	snprintf(label, sizeof(label), "import two passes %s", name);
	exercise(label, op_import, &c);
}

/* Every fixture dialect of tests/import, both ways; bad lines skipped with warnings. */
static void test_import(void **state)
{
	struct import_case bad = {.path = SRC "/tests/import/with-bad-line.txt",
				  .skip_bad_lines = true};

	(void)state;
	each_file(SRC "/tests/import", ".ftrace", "", import_case);
	each_file(SRC "/tests/import", ".report", "", import_case);
	each_file(SRC "/tests/import", ".perf", "", import_case);
	each_file(SRC "/tests/import", ".html", "", import_case);
	exercise("import --skip-bad-lines with-bad-line.txt", op_import, &bad);
}

/* ---- replay, run grid, reports ---- */

struct replay_case {
	const char *trace; /* text */
	const char *gov;
	const char *machine;
};

static int op_replay(const void *arg, FILE *out, struct sim_error *err)
{
	const struct replay_case *c = arg;
	struct sim_config cfg = {0};
	struct record_source src;
	struct trace_reader *r;
	struct run_stats rs;
	struct machine m;
	int rc;

	if (machine_load(c->machine, &m, err))
		return -1;
	r = trace_open_string("<alloc>", c->trace, err);
	if (!r)
		return -1;
	cfg.machine = &m;
	cfg.gov = gov_find(c->gov);
	assert_non_null(cfg.gov);
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	record_source_from_trace(&src, r);
	rc = replay_run(&src, &cfg, &rs, err);
	trace_close(r);
	if (rc)
		return -1;
	fprintf(out, "%s: cpus %d, energy %.9g J, busy %lld ns, periods %llu\n", c->gov,
		rs.nr_cpus, rs.energy_j, (long long)rs.total.busy_ns,
		(unsigned long long)rs.total.idle_periods);
	run_stats_release(&rs);
	return 0;
}

/*
 * A trace that ends with CPU 0 busy and a wakeup pending: C1E (exit 10 us) ends at 40 us the
 * 30 us period; the 70 us of work recorded until 100 us run until 110 us, so the irq at
 * 101 us is absorbed but its work has not started by the end (101.5 us). sim_finish() then
 * completes the latency histograms and hands them to the run's statistics: every
 * allocation it makes is failed in turn.
 */
static const char busy_at_end[] = "idlesim-trace v1\ncpus 2\nend 101500\n"
				   "idle 0 0 30000 timer\n"
				   "idle 1 0 20000 ipi\n"
				   "idle 1 50000 40000 timer\n"
				   "idle 0 100000 1000 irq\n";

static void test_replay(void **state)
{
	static const char *const govs[] = {"oracle", "menu", "teo"};
	char *events = slurp(SRC "/tests/traces/valid/events/input");
	char *idle = slurp(SRC "/traces/scenarios/periodic-timer.trace");
	char label[200];
	size_t i;

	(void)state;
	assert_non_null(events);
	assert_non_null(idle);
	for (i = 0; i < SIM_ARRAY_SIZE(govs); i++) {
		struct replay_case a = {events, govs[i], "skl"}, b = {idle, govs[i], "hsx"};

		snprintf(label, sizeof(label), "replay_run events %s", govs[i]);
		exercise(label, op_replay, &a);
		snprintf(label, sizeof(label), "replay_run periodic-timer %s", govs[i]);
		exercise(label, op_replay, &b);
		snprintf(label, sizeof(label), "replay_run busy at the end %s", govs[i]);
		exercise(label, op_replay, &(struct replay_case){busy_at_end, govs[i], "skl"});
	}
	free(events);
	free(idle);
}

/* run_grid with a built-in and a JSON machine (and the oracle for regret); all formats. */
static int op_grid(const void *arg, FILE *out, struct sim_error *err)
{
	static const enum report_format formats[] = {REPORT_TEXT, REPORT_JSON, REPORT_CSV};
	struct run_request req;
	struct run_results res;
	size_t i;
	int rc = 0;

	(void)arg;
	run_request_defaults(&req);
	req.traces[0] = SRC "/traces/scenarios/periodic-timer.trace";
	req.nr_traces = 1;
	req.machines[0] = "skl";
	req.machines[1] = SRC "/tests/fuzz/fuzz_machine/minimal.json";
	req.nr_machines = 2;
	req.governors[0] = "teo";
	req.nr_governors = 1;
	req.explain_limit = 3;
	if (run_grid(&req, &res, err))
		return -1;
	for (i = 0; i < SIM_ARRAY_SIZE(formats) && !rc; i++) {
		struct report_opts o = {.format = formats[i], .per_cpu = true};

		/* out is a memory stream: a failure can only be out of memory */
		rc = report_write(out, &res, &o);
		if (rc && rc != REPORT_ERR_NOMEM)
			rc = sim_error_set(err, SIM_ERR_INTERNAL, "<report>", 0, 0,
					   "report_write: %d, not REPORT_ERR_NOMEM", rc);
		else if (rc)
			rc = sim_error_nomem(err, "<report>");
	}
	run_results_free(&res);
	return rc;
}

static void test_grid_and_reports(void **state)
{
	(void)state;
	exercise("run_grid + report_write (text, json, csv)", op_grid, NULL);
}

/* run_grid keeping timelines, then the ftrace and perfetto exports and the HTML report. */
static int op_timeline(const void *arg, FILE *out, struct sim_error *err)
{
	static const enum report_format formats[] = { REPORT_FTRACE, REPORT_PERFETTO };
	struct html_opts ho = { "idlesim report", "test", 0, -1, 5 };
	struct run_request req;
	struct run_results res;
	size_t i;
	int rc = 0;

	(void)arg;
	run_request_defaults(&req);
	req.traces[0] = SRC "/traces/scenarios/periodic-timer.trace";
	req.nr_traces = 1;
	req.machines[0] = "skl";
	req.nr_machines = 1;
	req.governors[0] = "teo";
	req.nr_governors = 1;
	req.explain_limit = 5;
	req.timeline = true;
	if (run_grid(&req, &res, err))
		return -1;
	for (i = 0; i < SIM_ARRAY_SIZE(formats) && !rc; i++) {
		struct report_opts o = { .format = formats[i], .command = "idlesim run" };

		if (report_write(out, &res, &o))
			rc = sim_error_nomem(err, "<report>");
	}
	if (!rc)
		rc = html_report(out, &res, &ho, err);
	run_results_free(&res);
	return rc;
}

static void test_timeline_exports(void **state)
{
	(void)state;
	exercise("run_grid with timelines + ftrace, perfetto, html", op_timeline, NULL);
}

/* ---- generators ---- */

static int op_gen(const void *arg, FILE *out, struct sim_error *err)
{
	struct gen_config c;

	gen_config_defaults(&c, *(const enum gen_workload *)arg);
	c.cpus = 3;
	c.duration_ns = 20 * 1000000LL;
	c.busy_ns = 20000;
	c.timer_period_ns = 4000000;
	return gen_write(&c, out, err);
}

static void test_gen(void **state)
{
	enum gen_workload w;
	char label[100];

	(void)state;
	for (w = 0; w < GEN_NR_WORKLOADS; w++) {
		snprintf(label, sizeof(label), "gen_write %s", gen_workload_name(w));
		exercise(label, op_gen, &w);
	}
}

/* A closed loop: a client on CPU 0 and a server on CPU 1 ping-pong requests. */
static int pp_start(void *model, struct loop *L, struct sim_error *err)
{
	struct loop_item it = {.cpu = 0, .arrival_ns = 0, .work_ns = 5000, .cause = WAKE_IPI};

	(void)model;
	return loop_send(L, &it, err);
}

static int pp_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
		   struct sim_error *err)
{
	struct loop_item it = {.cause = WAKE_IPI, .arrival_ns = t + 2000 + loop_exp(L, 0, 30000)};

	(void)model;
	if (done->kind == 2 && loop_request_done(L, t - done->stamp_ns, 4096, err))
		return -1;
	it.cpu = done->kind == 1 ? 0 : 1;
	it.kind = done->kind == 1 ? 2 : 1;
	it.work_ns = done->kind == 1 ? 5000 : 10000;
	it.stamp_ns = done->kind == 1 ? done->stamp_ns : t;
	return loop_send(L, &it, err);
}

static const struct loop_model_ops pingpong = {.start = pp_start, .done = pp_done};

struct loop_case {
	const char *gov;
	int64_t duration_ns;
};

static int op_loop(const void *arg, FILE *out, struct sim_error *err)
{
	const struct loop_case *c = arg;
	struct sim_config cfg = {0};
	struct loop_result r;
	struct machine m;

	if (machine_load("skl", &m, err))
		return -1;
	cfg.machine = &m;
	cfg.gov = gov_find(c->gov);
	cfg.nr_cpus = 2;
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	if (loop_run(&cfg, &pingpong, NULL, c->duration_ns, 7, &r, err))
		return -1;
	fprintf(out, "%s: %llu requests, energy %.9g J\n", c->gov,
		(unsigned long long)r.requests, r.stats.energy_j);
	loop_result_release(&r);
	return 0;
}

static int op_loop_ideal(const void *arg, FILE *out, struct sim_error *err)
{
	struct trace_header h = {0};

	(void)arg;
	h.hz = 250;
	snprintf(h.source, sizeof(h.source), "test_alloc");
	return loop_write_ideal(&pingpong, NULL, 2, 5 * 1000000LL, 7, &h, out, NULL, err);
}

static void test_loop(void **state)
{
	(void)state;
	exercise("loop_run pingpong menu", op_loop, &(struct loop_case){"menu", 5000000});
	exercise("loop_run pingpong oracle (two passes)", op_loop,
		 &(struct loop_case){"oracle", 5000000});
	/* 396 us: the oracle's first pass ends with a CPU idle, its period still open, and
	 * recording it after sim_finish() needs the periods array to grow (found by trying
	 * durations): that allocation failing must release the finished run's statistics. */
	exercise("loop_run pingpong oracle, ends idle", op_loop,
		 &(struct loop_case){"oracle", 396000});
	exercise("loop_write_ideal pingpong", op_loop_ideal, NULL);
}

/* ---- expectation files of idlesim check (parsing; running is test_compare_check's) ---- */

static int op_check_parse(const void *arg, FILE *out, struct sim_error *err)
{
	struct check_file *cf = check_parse(arg, "<alloc>", NULL, err);

	if (!cf)
		return -1;
	fputs("parsed\n", out);
	check_free(cf);
	return 0;
}

static void test_check(void **state)
{
	char *text = slurp(SRC "/traces/expect-example.json");

	(void)state;
	assert_non_null(text);
	exercise("check_parse expect-example.json", op_check_parse, text);
	free(text);
}

/* ---- the command line: exit status 1, a message, and no output file ---- */

/* Run idlesim_main with stdout and stderr to files; return the exit status. */
static int cli(char **argv, int argc)
{
	char out[128], errp[128];
	int o, e, so, se, st;

	snprintf(out, sizeof(out), "%s/stdout", tmpdir);
	snprintf(errp, sizeof(errp), "%s/stderr", tmpdir);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(so >= 0 && se >= 0 && o >= 0 && e >= 0);
	dup2(o, 1);
	dup2(e, 2);
	st = idlesim_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(o);
	close(e);
	close(so);
	close(se);
	return st;
}

/* Only stdout, stderr (and the source files of a case) may be in tmpdir. */
static bool tmpdir_clean(const char *keep)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	bool ok = true;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "stdout") &&
		    strcmp(e->d_name, "stderr") && strcmp(e->d_name, "skx.json") &&
		    (!keep || strcmp(e->d_name, keep))) {
			fprintf(stderr, "left behind: %s/%s\n", tmpdir, e->d_name);
			ok = false;
		}
	closedir(d);
	return ok;
}

struct cli_case {
	const char *args[24];
	const char *output; /* the -o file's name in tmpdir */
};

static int op_cli(const void *arg, FILE *out, struct sim_error *err)
{
	const struct cli_case *c = arg;
	char *argv[26], path[128], *text;
	int argc = 0, st, i;

	/* writable copies, as a real argv: idlesim splits comma-separated lists in place */
	snprintf(path, sizeof(path), "%s/%s", tmpdir, c->output);
	argv[argc++] = strdup("idlesim");
	for (; c->args[argc - 1]; argc++)
		argv[argc] = strdup(strcmp(c->args[argc - 1], "OUT") ? c->args[argc - 1] : path);
	argv[argc] = NULL;
	st = cli(argv, argc);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	if (st == 0) {
		text = slurp(path);
		assert_non_null(text);
		fputs(text, out);
		free(text);
		unlink(path);
		return 0;
	}
	/* a failure: exit status 1 with the message, and nothing left behind */
	snprintf(path, sizeof(path), "%s/stderr", tmpdir);
	text = slurp(path);
	assert_non_null(text);
	if (st != 1 || !strstr(text, "out of memory")) {
		fprintf(stderr, "exit status %d: %s", st, text);
		free(text);
		return sim_error_set(err, SIM_ERR_INTERNAL, "<cli>", 0, 0, "not a clean failure");
	}
	free(text);
	if (!tmpdir_clean(NULL))
		return sim_error_set(err, SIM_ERR_INTERNAL, "<cli>", 0, 0, "output left behind");
	return sim_error_nomem(err, "<cli>");
}

static void test_cli(void **state)
{
	static const struct cli_case run = {
		{"run", "--trace", SRC "/tests/traces/valid/events/input", "--machine", "skl",
		 "--governor", "menu", "--format", "json", "-o", "OUT", NULL},
		"report.json"};
	static const struct cli_case import = {
		{"import", SRC "/tests/import/scenario.perf", "--machine", "skl", "-o", "OUT",
		 NULL},
		"x.trace"};
	static const struct cli_case gen = {
		{"gen", "--workload", "mixed", "--cpus", "2", "--duration-s", "0.01", "-o", "OUT",
		 NULL},
		"gen.trace"};

	(void)state;
	exercise("idlesim run -o", op_cli, &run);
	exercise("idlesim import -o", op_cli, &import);
	exercise("idlesim gen -o", op_cli, &gen);
}

static int setup(void **state)
{
	(void)state;
	idlesim_init();
	return tmpdir_make("alloc");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_traces),
		cmocka_unit_test(test_machines),
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_grid_and_reports),
		cmocka_unit_test(test_timeline_exports),
		cmocka_unit_test(test_gen),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_cli),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
