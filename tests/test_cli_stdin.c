// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli_stdin.c - "-" as standard input (FORMAT.md), redirected and piped, through the
 * idlesim binary: a trace for run (read once, replayed by every governor) and for import, a
 * machine JSON for run's --machine, check's expectation file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/clitest.h"

/*
 * "-" reads standard input (FORMAT.md), redirected or piped, for every input. run --trace -
 * replays it once per governor (the oracle first, then each of three), so it is read once
 * and kept: the reports equal those of the file, but for the trace's name (<stdin>). Before,
 * the runs after the first met an exhausted standard input. The same for a kernel trace,
 * converted on the fly, and for import.
 */
static void run_stdin(const char *input, const char *args, bool pipe, char **out)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "cd %s && %s%s %s %s %s >%s/out 2>%s/err", SRC,
		 pipe ? "cat " : "", pipe ? input : "", pipe ? "|" : "", BIN, args, tmpdir, tmpdir);
	if (!pipe)
		snprintf(cmd, sizeof(cmd), "cd %s && %s %s <%s >%s/out 2>%s/err", SRC, BIN, args,
			 input, tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 0);
	*out = slurp_tmp("out");
}

static void test_stdin(void **state)
{
	static const char *const inputs[] = { "traces/demo.trace", "tests/import/scenario.ftrace",
					      "tests/import/scenario.perf" };
	const char *run = "--machine skl --governor menu,teo,shallowest --format csv";
	char args[512], *a, *b, *x, *y;
	int i, pipe;

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(args, sizeof(args), "run --trace %s %s", inputs[i], run);
		assert_int_equal(run_idlesim(args), 0);
		a = slurp_tmp("out");
		x = drop_trace_fields(a);
		assert_true(strlen(a) > 500);
		snprintf(args, sizeof(args), "run --trace - %s", run);
		for (pipe = 0; pipe < 2; pipe++) {
			run_stdin(inputs[i], args, pipe, &b);
			assert_non_null(strstr(b, "\n<stdin>,skl,teo@6.19,"));
			y = drop_trace_fields(b);
			assert_string_equal(x, y);
			free(y);
			free(b);
		}
		free(x);
		free(a);
	}
	/* import of text from standard input: the records of the file */
	snprintf(args, sizeof(args), "import - -o %s/in.trace", tmpdir);
	run_stdin("tests/import/scenario.ftrace", args, true, &a);
	free(a);
	a = slurp_tmp("in.trace");
	b = slurp(SRC "/tests/import/scenario.expected");
	assert_non_null(b);
	assert_non_null(strstr(a, b));
	assert_non_null(strstr(a, "from <stdin>"));
	free(a);
	free(b);
}

/*
 * `-` is standard input for every input (FORMAT.md): a machine JSON for run's --machine
 * (loaded once per trace: read once, spooled), and check's expectation file. The machine
 * read from standard input is skl's own table, so the same run on skl gives the same
 * energy; it is named <stdin> (a copy of a built-in named like it would be ambiguous), and
 * messages name <stdin> with line and column. Standard input cannot feed two inputs.
 */
static void test_stdin_machine_and_expectation(void **state)
{
	char args[1024], *a, *b, *e;

	(void)state;
	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n");
	write_tmp("two.trace", "idlesim-trace v1\ncpus 1\nend 900000\nidle 0 0 700000 irq\n");
	snprintf(args, sizeof(args), "%s machines skl --json >%s/skl.json", BIN, tmpdir);
	assert_int_equal(sh(args), 0);
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --trace %s/two.trace --machine - --governor menu "
		 "--format csv -o %s/a.csv <%s/skl.json",
		 tmpdir, tmpdir, tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --trace %s/two.trace --machine skl --governor menu "
		 "--format csv -o %s/b.csv",
		 tmpdir, tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	a = slurp_tmp("a.csv");
	b = slurp_tmp("b.csv");
	assert_non_null(a);
	assert_non_null(b);
	/* two traces, the second one loads the machine again: both runs there */
	assert_non_null(strstr(a, "two.trace,<stdin>,menu@6.19,250,all,total,"));
	/* the same rows but for the machine's name */
	{
		char *p;

		while ((p = strstr(a, "<stdin>")))
			memmove(p + 3, p + 7, strlen(p + 7) + 1), memcpy(p, "skl", 3);
		assert_string_equal(a, b);
	}
	free(a);
	free(b);
	/* a broken machine on standard input: <stdin>:line:column, exit 2, no output */
	write_tmp("bad.json", "{\"name\": 3\n");
	snprintf(args, sizeof(args), "run --trace %s/one.trace --machine - -o %s/c.csv <%s/bad.json",
		 tmpdir, tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	e = slurp_tmp("err");
	assert_non_null(strstr(e, "<stdin>:"));
	free(e);
	assert_null(slurp(tmp_path("c.csv")));
	/* both from standard input */
	snprintf(args, sizeof(args), "run --trace - --machine - <%s/skl.json", tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	e = slurp_tmp("err");
	assert_non_null(strstr(e, "--trace - and --machine - both read standard input"));
	free(e);
	/* check's expectation file: the same verdicts as from the file */
	write_tmp("x.json", "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [\n"
			    " {\"workload\": \"idle\", \"machines\": [\"skl\"], \"governors\": "
			    "[\"oracle\"], \"duration_s\": 0.05, \"iterations\": 1,\n"
			    "  \"expect\": [{\"metric\": \"energy_j\", \"governor\": \"oracle\", "
			    "\"max\": 1000}]}]}\n");
	snprintf(args, sizeof(args), "check - <%s/x.json", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	a = slurp_tmp("out");
	snprintf(args, sizeof(args), "check %s/x.json", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	b = slurp_tmp("out");
	assert_non_null(strstr(a, "0 of 1 checks failed"));
	assert_string_equal(a, b);
	free(a);
	free(b);
	snprintf(args, sizeof(args), "check - <%s/bad.json", tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	e = slurp_tmp("err");
	assert_non_null(strstr(e, "<stdin>:"));
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_stdin_machine_and_expectation),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
