// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare_cli.c - idlesim compare and idlesim check through the binary: their output,
 * the exit statuses (0; 3 for a bound that does not hold; 2 for usage errors and bad input)
 * and the expectation example shipped in traces/. What they compute is tested in process:
 * tests/test_compare.c and tests/test_compare_check.c.
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
#include <unistd.h>

#include "sim/study/check.h"
#include "sim/base/init.h"
#include "sim/workload/workloads.h"

/* ---- the commands ---- */

static void assert_file_contains(const char *name, const char *what)
{
	char *s = slurp_tmp(name);

	if (!strstr(s, what)) {
		fprintf(stderr, "%s lacks '%s':\n%s", name, what, s);
		fail();
	}
	free(s);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("cmp");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

static const char tbench_expect[] =
	"{\"schema\": \"idlesim-expect/1\", \"comparisons\": [{\n"
	"  \"workload\": \"tbench\", \"params\": {\"clients\": [1, 2]},\n"
	"  \"machines\": [\"skl\"], \"governors\": [\"shallowest\", \"deepest\"],\n"
	"  \"iterations\": 2, \"duration_s\": 0.005,\n"
	"  \"expect\": [{\"metric\": \"throughput\", \"governor\": \"deepest\", \"%s\": %s}]\n"
	"}]}\n";

static void test_commands(void **state)
{
	char text[1024], args[512];

	(void)state;
	/* Both are built with the tests: their absence is a failure, not a reason to skip. */
	assert_int_equal(access(BIN, X_OK), 0);
	assert_non_null(workload_find("tbench"));
	/* compare: the table on stdout, nothing on stderr when it is not a terminal. */
	assert_int_equal(run_idlesim("compare --workload tbench --clients 1,2 -g shallowest,deepest "
				 "-n 2 --duration-s 0.005 --metric throughput"),
			 0);
	assert_file_contains("out", "Hmean     throughput-1");
	assert_file_contains("out", "Gmean     all");
	{
		char *e = slurp_tmp("err");

		assert_string_equal(e, "");
		free(e);
	}
	/* JSON to a file, the same for 1 and 2 threads. */
	snprintf(args, sizeof(args),
		 "compare --workload tbench --clients 1,2 -g menu,teo -n 2 --duration-s 0.005 "
		 "-f json -o %s/j1.json -j 1",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args),
		 "compare --workload tbench --clients 1,2 -g menu,teo -n 2 --duration-s 0.005 "
		 "-f json -o %s/j2.json -j 2",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "cmp -s %s/j1.json %s/j2.json", tmpdir, tmpdir);
	assert_int_equal(system(args), 0);

	/* Usage errors: exit status 2 with a message. */
	assert_int_equal(run_idlesim("compare --workload tbench --clients 1,2 --server-us 1,2 "
				 "-g menu"),
			 2);
	assert_file_contains("err", "only one parameter may take a list");
	assert_int_equal(run_idlesim("compare --workload tbench -g menu --metric nosuch"), 2);
	assert_file_contains("err", "--metric 'nosuch': unknown");
	assert_int_equal(run_idlesim("compare --workload nosuch -g menu"), 2);
	assert_int_equal(run_idlesim("compare --workload tbench"), 2);
	assert_file_contains("err", "--governor is required");

	/* check: 0 when the bounds hold, 3 when one does not, 2 for bad input. */
	snprintf(text, sizeof(text), tbench_expect, "max_pct", "0");
	write_tmp("pass.json", text);
	snprintf(args, sizeof(args), "check %s/pass.json", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	assert_file_contains("out", "ok   tbench clients=2 on skl: throughput of deepest");
	assert_file_contains("out", "check: 0 of 2 checks failed");

	snprintf(text, sizeof(text), tbench_expect, "min_pct", "0");
	write_tmp("fail.json", text);
	snprintf(args, sizeof(args), "check %s/fail.json", tmpdir);
	assert_int_equal(run_idlesim(args), CHECK_EXIT_FAILED);
	assert_file_contains("out", "FAIL tbench clients=1 on skl: throughput of deepest: -");
	assert_file_contains("out", "against shallowest < min_pct +0.00%");
	assert_file_contains("out", "check: 2 of 2 checks failed");
	/* every format exits 3 on a failed bound; -o writes the file, nothing on stdout */
	snprintf(args, sizeof(args), "check %s/fail.json -f tap -o %s/fail.tap", tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), CHECK_EXIT_FAILED);
	assert_file_contains("fail.tap", "TAP version 13\n1..2\n");
	assert_file_contains("fail.tap", "\nnot ok 2 - tbench clients=2 on skl: throughput of "
					 "deepest: -");
	{
		char *o = slurp_tmp("out");

		assert_string_equal(o, "");
		free(o);
	}
	snprintf(args, sizeof(args), "check %s/fail.json --format junit", tmpdir);
	assert_int_equal(run_idlesim(args), CHECK_EXIT_FAILED);
	assert_file_contains("out", "tests=\"2\" failures=\"2\"");
	snprintf(args, sizeof(args), "check %s/fail.json --format xml", tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	assert_file_contains("err", "check --format: 'xml' is not text, json, junit or tap");

	snprintf(text, sizeof(text), tbench_expect, "min_pct", "\"0\"");
	write_tmp("bad.json", text);
	snprintf(args, sizeof(args), "check %s/bad.json", tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	snprintf(text, sizeof(text), "%s/bad.json:5:73: comparisons[0].expect[0].min_pct must be "
				     "a number", tmpdir);
	assert_file_contains("err", text);
	assert_int_equal(run_idlesim("check /nonexistent.json"), 2);
	assert_int_equal(run_idlesim("check"), 2);

	/* The example shipped in traces/ holds on the current models: a user who runs it
	 * first sees every check pass. */
	assert_int_equal(run_idlesim("check traces/expect-example.json"), 0);
	assert_file_contains("out", "check: 0 of 10 checks failed");

	/* The example shipped in traces/ parses. */
	{
		struct sim_error err = { 0 };
		struct check_file *cf = check_load(IDLESIM_SOURCE_DIR "/traces/expect-example.json",
						   NULL, &err);

		if (!cf)
			sim_error_print(stderr, &err);
		assert_non_null(cf);
		check_free(cf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commands, setup, teardown),
	};

	idlesim_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
