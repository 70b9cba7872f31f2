// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kgov_isolation.c - a governor file that crashes, hangs or returns an index out of
 * range ends its run with a message naming it, exit status 2 and no output file
 * (sim/engine/govguard.c, docs/kernel-governor-files.md).
 *
 * The governors are tests/kgov/misbehave.h under eight names, each going wrong in one way at
 * one call. They pick POLL for 5 us idle periods, one decision per period, so the trace
 * below fixes every decision's time: CPU 0 decides at 100, 200, 300, 400 us, CPU 1 at 150,
 * 250, 350, 450 us.
 *
 * The limit of a call is set through IDLESIM_GOVERNOR_TIMEOUT for the binary, through
 * --governor-timeout (which wins over the variable) in test_timeout_option, and through
 * run_request.gov_timeout_ns in test_timeout_request.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "testbin.h"

#include "governors/governor.h"
#include "sim/engine/govguard.h"
#include "sim/run/kgov.h"
#include "sim/run/run.h"

static const char TRACE[] = "idlesim-trace v1\ncpus 2\nhz 250\nend 1000000\n"
			    "idle 0 100000 5000 irq\nidle 1 150000 5000 irq\n"
			    "idle 0 200000 5000 irq\nidle 1 250000 5000 irq\n"
			    "idle 0 300000 5000 irq\nidle 1 350000 5000 irq\n"
			    "idle 0 400000 5000 irq\nidle 1 450000 5000 irq\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* True if tmpdir holds NAME or a temporary of it (NAME.tmp.*). */
static bool output_left(const char *name)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "ls %s | grep -q '^%s'", tmpdir, name);
	return sh(cmd) == 0;
}

/* run_idlesim() with environment assignments (ENV, may be "") before the command. */
static int run_idlesim_env(const char *env, const char *args)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "cd %s && %s %s %s >%s/out 2>%s/err", SRC, env, BIN, args,
		 tmpdir, tmpdir);
	return sh(cmd);
}

/*
 * `ENV idlesim ARGS -o tmpdir/out.csv`: exit status 2, standard error exactly `want` plus a
 * newline, and neither out.csv nor a temporary of it.
 */
static void expect_failure(const char *env, const char *args, const char *want)
{
	char cmd[2048], line[1024];
	char *err;

	snprintf(cmd, sizeof(cmd), "%s -o %s", args, tmp_path("out.csv"));
	assert_int_equal(run_idlesim_env(env, cmd), 2);
	err = slurp_tmp("err");
	snprintf(line, sizeof(line), "%s\n", want);
	if (strcmp(err, line))
		fprintf(stderr, "%s idlesim %s\nwanted: %sgot:    %s", env, cmd, line, err);
	assert_string_equal(err, line);
	free(err);
	assert_false(output_left("out.csv"));
}

/* run on the trace above with governor file tests/kgov/NAME.c */
static const char *run_args(const char *name)
{
	static char args[512];

	snprintf(args, sizeof(args), "run --trace %s --machine skl --governor tests/kgov/%s.c",
		 tmp_path("t.trace"), name);
	return args;
}

/* One governor file of tests/kgov/ and the one line its run must end with. */
struct misbehaving {
	const char *name;
	const char *message;
};

static const struct misbehaving misbehaving[] = {
	{ "segv", "idlesim: tests/kgov/segv.c: select() crashed (SIGSEGV) at CPU 1, decision 3, "
		  "t=0.000350 s" },
	{ "abort", "idlesim: tests/kgov/abort.c: select() crashed (SIGABRT) at CPU 0, decision 2, "
		   "t=0.000200 s" },
	/* reflect() runs when the entry is over: at the wakeup, 205 us (POLL has no exit
	 * latency) */
	{ "fpe_reflect", "idlesim: tests/kgov/fpe_reflect.c: reflect() crashed (SIGFPE) at CPU 0, "
			 "decision 2, t=0.000205 s" },
	/* enable() runs at the start of the trace (its first record), before any decision */
	{ "bug_enable", "idlesim: tests/kgov/bug_enable.c: enable() crashed (SIGILL) at CPU 1, "
			"decision 0, t=0.000100 s" },
	/* a stack overflow is caught too: the handler runs on an alternate stack */
	{ "overflow", "idlesim: tests/kgov/overflow.c: select() crashed (SIGSEGV) at CPU 0, "
		      "decision 1, t=0.000100 s" },
	{ "init_segv", "idlesim: tests/kgov/init_segv.c: its initcalls crashed (SIGSEGV) while "
		       "loading" },
	/* out of range: the file, the value and the driver's states; an input error, not 1 */
	{ "index99", "idlesim: tests/kgov/index99.c: select() returned 99 at CPU 0, decision 1, "
		     "t=0.000100 s: the driver has 9 states (0..8)" },
};

/* The run of one of them (the test's state). */
static void test_misbehaving(void **state)
{
	const struct misbehaving *m = *state;

	expect_failure("", run_args(m->name), m->message);
}

static void test_hang(void **state)
{
	const struct cpuidle_governor *g = NULL;
	struct sim_error err = { 0 };
	double t0, took;

	(void)state;
	/* compiled into the cache here, so that the time below is the run's */
	assert_int_equal(kgov_load(SRC "/tests/kgov/hang.c", stderr, &g, NULL, &err), 0);
	t0 = now_s();
	expect_failure("IDLESIM_GOVERNOR_TIMEOUT=0.5", run_args("hang"),
		       "idlesim: tests/kgov/hang.c: select() did not return within 0.5 s at CPU 0, "
		       "decision 2, t=0.000200 s");
	took = now_s() - t0;
	/* the limit, plus the watchdog's period (25 ms) and a loaded machine: not the 5 s
	 * default */
	assert_true(took >= 0.5);
	assert_true(took < 4.5);
}

/* `ENV idlesim ARGS -o tmpdir/OUT`: exit status 2, a message that starts with `want`, and
 * neither OUT nor a temporary of it. */
static void expect_failure_prefix(const char *env, const char *args, const char *out,
				  const char *want)
{
	char cmd[2048];
	char *err;

	snprintf(cmd, sizeof(cmd), "%s -o %s", args, tmp_path(out));
	assert_int_equal(run_idlesim_env(env, cmd), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, want));
	free(err);
	assert_false(output_left(out));
}

/* compare, check: the same message (the workload fixes the times), exit 2, no output; a
 * crash in one of compare's threads does not keep the others waiting. */
static void test_compare_check(void **state)
{
	char args[1024];

	(void)state;
	expect_failure_prefix("",
			      "compare --workload idle --machine skl --governor "
			      "deepest,tests/kgov/segv.c -n 4 --threads 2 --duration-s 0.1",
			      "out.csv",
			      "idlesim: tests/kgov/segv.c: select() crashed (SIGSEGV) at CPU 1, "
			      "decision 3, t=");
	/* two threads, each stuck in its own run: each ends at its limit */
	expect_failure_prefix("IDLESIM_GOVERNOR_TIMEOUT=0.3",
			      "compare --workload idle --machine skl --governor tests/kgov/hang.c "
			      "-n 2 --threads 2 --duration-s 0.1",
			      "out.csv",
			      "idlesim: tests/kgov/hang.c: select() did not return within 0.3 s at "
			      "CPU 0, decision 2, t=");
	/* check writes to its output as it goes: the temporary is removed */
	write_tmp("expect.json",
		  "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [{\"name\": \"bad\",\n"
		  " \"workload\": \"idle\", \"machines\": [\"skl\"], \"iterations\": 1,\n"
		  " \"duration_s\": 0.1, \"governors\": [\"deepest\", \"tests/kgov/abort.c\"],\n"
		  " \"expect\": [{\"metric\": \"idle_power_w\", \"governor\": \"deepest\","
		  " \"max\": 1000}]}]}\n");
	snprintf(args, sizeof(args), "check %s", tmp_path("expect.json"));
	expect_failure_prefix("", args, "out.txt",
			      "idlesim: tests/kgov/abort.c: select() crashed (SIGABRT) at CPU 0, "
			      "decision 2, t=");
}

/*
 * --governor-timeout: run, compare and check end a call at the option's limit, which wins
 * over IDLESIM_GOVERNOR_TIMEOUT (set here to a minute: were it used, the test would take
 * one).
 */
static void test_timeout_option(void **state)
{
	char args[1024];
	double t0, took;

	(void)state;
	snprintf(args, sizeof(args), "%s --governor-timeout 0.4", run_args("hang"));
	t0 = now_s();
	expect_failure("IDLESIM_GOVERNOR_TIMEOUT=60", args,
		       "idlesim: tests/kgov/hang.c: select() did not return within 0.4 s at CPU 0, "
		       "decision 2, t=0.000200 s");
	took = now_s() - t0;
	assert_true(took >= 0.4);
	assert_true(took < 30);
	expect_failure_prefix("IDLESIM_GOVERNOR_TIMEOUT=60",
			      "compare --workload idle --machine skl --governor tests/kgov/hang.c "
			      "-n 1 --threads 1 --duration-s 0.1 --governor-timeout 0.3",
			      "out.csv",
			      "idlesim: tests/kgov/hang.c: select() did not return within 0.3 s at "
			      "CPU 0, decision 2, t=");
	write_tmp("expect-hang.json",
		  "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [{\"name\": \"hang\",\n"
		  " \"workload\": \"idle\", \"machines\": [\"skl\"], \"iterations\": 1,\n"
		  " \"duration_s\": 0.1, \"governors\": [\"tests/kgov/hang.c\"],\n"
		  " \"expect\": [{\"metric\": \"idle_power_w\", \"governor\": \"tests/kgov/hang.c\",\n"
		  " \"max\": 1000}]}]}\n");
	snprintf(args, sizeof(args), "check %s --governor-timeout 0.3", tmp_path("expect-hang.json"));
	expect_failure_prefix("IDLESIM_GOVERNOR_TIMEOUT=60", args, "out.txt",
			      "idlesim: tests/kgov/hang.c: select() did not return within 0.3 s at "
			      "CPU 0, decision 2, t=");
}

/* A bad IDLESIM_GOVERNOR_TIMEOUT: an input error, no output. */
static void test_bad_timeout_env(void **state)
{
	(void)state;
	expect_failure("IDLESIM_GOVERNOR_TIMEOUT=soon", run_args("hang"),
		       "idlesim: IDLESIM_GOVERNOR_TIMEOUT: 'soon' is not a number of seconds "
		       "from 0.001 to 86400 (0: no limit)");
}

static void test_parse_timeout(void **state)
{
	int64_t ns = 0;

	(void)state;
	assert_int_equal(govguard_parse_timeout("5", &ns), 0);
	assert_int_equal(ns, 5000000000LL);
	assert_int_equal(govguard_parse_timeout("0.25", &ns), 0);
	assert_int_equal(ns, 250000000LL);
	assert_int_equal(govguard_parse_timeout("0", &ns), 0);
	assert_int_equal(ns, -1); /* no limit */
	assert_int_equal(govguard_parse_timeout("86400", &ns), 0);
	assert_int_equal(govguard_parse_timeout("86401", &ns), -1);
	assert_int_equal(govguard_parse_timeout("0.0001", &ns), -1);
	assert_int_equal(govguard_parse_timeout("-1", &ns), -1);
	assert_int_equal(govguard_parse_timeout("nan", &ns), -1);
	assert_int_equal(govguard_parse_timeout("5s", &ns), -1);
	assert_int_equal(govguard_parse_timeout("", &ns), -1);
}

/*
 * The request's limit (what --governor-timeout sets), in this process: the run ends with the
 * message, and the process goes on: the next run of a well-behaved file in the same process
 * works, so the jump out of the stuck call left nothing behind.
 */
static void test_timeout_request(void **state)
{
	struct run_request req;
	struct run_results res;
	struct sim_error err = { 0 };
	double t0;

	(void)state;
	unsetenv("IDLESIM_GOVERNOR_TIMEOUT");
	run_request_defaults(&req);
	assert_int_equal(req.gov_timeout_ns, 0); /* the default: 5 s */
	req.traces[req.nr_traces++] = tmp_path("t.trace");
	req.machines[req.nr_machines++] = "skl";
	req.governors[req.nr_governors++] = SRC "/tests/kgov/hang.c";
	req.gov_timeout_ns = 200000000; /* 0.2 s */
	assert_int_equal(kgov_resolve(req.governors, req.nr_governors, stderr, &err), 0);
	t0 = now_s();
	assert_int_equal(run_grid(&req, &res, &err), -1);
	assert_true(now_s() - t0 >= 0.2);
	assert_int_equal(sim_error_exit_status(&err), 2);
	assert_string_equal(err.source, SRC "/tests/kgov/hang.c");
	assert_string_equal(err.text,
			    "select() did not return within 0.2 s at CPU 0, decision 2, t=0.000200 s");

	sim_error_clear(&err);
	req.governors[0] = SRC "/tests/kgov/toy.c";
	assert_int_equal(kgov_resolve(req.governors, req.nr_governors, stderr, &err), 0);
	assert_int_equal(run_grid(&req, &res, &err), 0);
	assert_int_equal(res.n, 1);
	run_results_free(&res);
}

/* Only the files' governors are isolated; the built-ins are called directly. */
static void test_builtins_direct(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < gov_count(); i++)
		if (!strstr(gov_get(i)->name, "@file:"))
			assert_null(gov_get(i)->file);
}

/*
 * Outside a governor call a fault is what it was without the guard: the handler passes it
 * on to the one it replaced, here the default action (a core dump). In a child that sets
 * the default actions back (cmocka and a sanitizer have their own), then installs the
 * guard's handlers by creating a guard.
 */
static void test_fault_outside_call(void **state)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT };
	int status, i;
	size_t k;

	(void)state;
	for (i = 0; i < 2; i++) {
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid) {
			struct sim_error err = { 0 };
			struct govguard *g;
			/* volatile, or the store goes before _exit(); not NULL, which the
			 * sanitizer would report before the fault */
			volatile int *volatile p = (volatile int *)(uintptr_t)16;

			for (k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
				signal(sigs[k], SIG_DFL);
			g = govguard_create(-1, &err);
			if (!g)
				_exit(3);
			if (i == 0)
				*p = 1;
			else
				abort();
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), i == 0 ? SIGSEGV : SIGABRT);
	}
}

static int setup(void **state)
{
	(void)state;
	if (tmpdir_make("isolation"))
		return -1;
	write_tmp("t.trace", TRACE);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(void)
{
#define MISBEHAVING(i) cmocka_unit_test_prestate(test_misbehaving, (void *)&misbehaving[i])
	const struct CMUnitTest tests[] = {
		MISBEHAVING(0), MISBEHAVING(1), MISBEHAVING(2), MISBEHAVING(3),
		MISBEHAVING(4), MISBEHAVING(5), MISBEHAVING(6),
		cmocka_unit_test(test_hang),
		cmocka_unit_test(test_compare_check),
		cmocka_unit_test(test_timeout_option),
		cmocka_unit_test(test_bad_timeout_env),
		cmocka_unit_test(test_parse_timeout),
		cmocka_unit_test(test_timeout_request),
		cmocka_unit_test(test_builtins_direct),
		cmocka_unit_test(test_fault_outside_call),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
