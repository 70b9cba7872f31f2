// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli_usage.c - the idlesim command line as a user types it: the forms of options and
 * their bundles, a governor listed twice, options used or refused, help run against the
 * user's docs, and what is refused with exit status 2 and a message: usage and range
 * errors, --workload misused, a byte order mark in any input, and the bad-input corpus
 * (tests/traces/invalid), leaving no output file behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"

#include "tests/clitest.h"

static void test_usage_errors(void **state)
{
	(void)state;
	expect_usage_error("run --governor nosuch", "unknown governor 'nosuch'");
	expect_usage_error("run --machine nosuch", "unknown machine 'nosuch'");
	expect_usage_error("run --machine skl --disable C42", "no idle state 'C42'");
	expect_usage_error("run --hz 0", "--hz");
	expect_usage_error("run --hz abc", "--hz");
	expect_usage_error("run --latency-limit-us -5", "--latency-limit-us");
	expect_usage_error("run --format xml", "--format");
	expect_usage_error("run --bogus", "unknown option");
	expect_usage_error("run --set menu.decay", "FAMILY.NAME=VALUE");
	expect_usage_error("run --wake-latency best", "run --wake-latency: 'best' is not worst, "
						      "typical or measured");
	expect_usage_error("compare --workload tbench --governor teo --wake-latency x",
			   "compare --wake-latency: 'x'");
	expect_usage_error("check x.json --wake-latency x", "check --wake-latency: 'x'");
	/* measured needs a machine file with distributions (a built-in has none) */
	expect_usage_error("run --machine skl --wake-latency measured",
			   "machine skl has no measured wake-latency distribution");
	expect_usage_error("compare --workload idle --governor teo --machine hsx "
			   "--wake-latency measured",
			   "machine hsx has no measured wake-latency distribution");
	expect_usage_error("machines calibrate --machine skl -o x.json",
			   "machines calibrate needs --wult datapoints.csv");
	expect_usage_error("machines calibrate --wult /nonexistent.csv --machine skl -o x.json",
			   "/nonexistent.csv: cannot open");
	expect_usage_error("run --set nosuch.x=1", "no governor family 'nosuch'");
	expect_usage_error("run --set oracle.x=1", "has no tunable 'x'");
	/* a --set that changes none of the selected governors: another family, or a tunable
	 * of another version (poll_threshold_us is menu@4.18's only) */
	expect_usage_error("run --governor teo,oracle --set menu.decay=4",
			   "--set menu.decay=4 applies to none of the selected governors "
			   "(teo@6.19, oracle)");
	expect_usage_error("run --governor menu --set menu.poll_threshold_us=20",
			   "--set menu.poll_threshold_us=20 applies to none of the selected "
			   "governors (menu@6.19)");
	/* intel_idle module parameters: a machine's, refused where the kernel would refuse
	 * them or the driver is another (tests/test_intel_tables.c tests their effect) */
	expect_usage_error("run --machine kvm --set intel_idle.states_off=2",
			   "machine kvm does not use the intel_idle driver");
	expect_usage_error("run --machine spr --set intel_idle.states_off=-1",
			   "--set intel_idle.states_off=-1: must be 0..4294967295");
	expect_usage_error("run --machine spr --set intel_idle.max_cstate=0",
			   "0 disables intel_idle");
	expect_usage_error("run --machine spr --set intel_idle.ibrs_off=1", "no such parameter");
	expect_usage_error("run --machine adl --set intel_idle.use_acpi=1",
			   "has no assumed ACPI _CST");
	/* in an expectation file: at the value of the comparison's "set": line 3 is
	 * `  "set": {...`, 2 blanks, "set" in 3-7, ": " in 8-9, the object at 10 */
	write_tmp("e.json", "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [\n"
			    " {\"workload\": \"idle\", \"machines\": [\"skl\"], \"governors\": [\"teo\", \"oracle\"],\n"
			    "  \"set\": {\"menu.decay\": 4},\n"
			    "  \"expect\": [{\"metric\": \"energy_j\", \"governor\": \"oracle\", "
			    "\"max\": 1}]}]}\n");
	{
		char args[256];

		snprintf(args, sizeof(args), "check %s/e.json", tmpdir);
		expect_usage_error(args, "e.json:3:10: --set menu.decay=4 applies to none of the "
					 "selected governors (teo@6.19, oracle)");
	}
	/* line 3 is `  "wake_latency": "best",`: the key in 3-16, ": " in 17-18, the value at 19 */
	write_tmp("w.json", "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [\n"
			    " {\"workload\": \"idle\", \"machines\": [\"skl\"], \"governors\": [\"teo\"],\n"
			    "  \"wake_latency\": \"best\",\n"
			    "  \"expect\": [{\"metric\": \"energy_j\", \"governor\": \"teo\", "
			    "\"max\": 1}]}]}\n");
	{
		char args[256];

		snprintf(args, sizeof(args), "check %s/w.json", tmpdir);
		expect_usage_error(args, "w.json:3:19: comparisons[0].wake_latency: 'best' is not "
					 "worst, typical or measured");
	}
	expect_usage_error("compare --workload tbench --governor teo,oracle --set menu.decay=4",
			   "--set menu.decay=4 applies to none of the selected governors "
			   "(teo@6.19, oracle)");
	expect_usage_error("run --trace /nonexistent/x.trace", "/nonexistent/x.trace");
	expect_usage_error("gen --workload periodic --period-us 0", "--period-us");
	expect_usage_error("gen --workload periodic --period-us -3", "--period-us");
	expect_usage_error("gen --workload nosuch", "unknown workload");
	expect_usage_error("gen --workload periodic --timer-kind soft", "--timer-kind");
	expect_usage_error("gen --cpus 4", "--workload is required");
	expect_usage_error("nosuch", "unknown command");
	expect_usage_error("machines nosuch", "unknown machine");
	/* A trace with more CPUs than the machine. */
	write_tmp("big.trace", "idlesim-trace v1\ncpus 16\nidle 15 0 1000 irq\n");
	{
		char args[256];

		snprintf(args, sizeof(args), "run --trace %s/big.trace --machine skl", tmpdir);
		expect_usage_error(args, "16 CPUs but machine skl has 8");
	}
}

/* Whether tmpdir/out contains s (the output of the last run_idlesim). */
static bool out_has(const char *s)
{
	char *out = slurp_tmp("out");
	bool has = out && strstr(out, s);

	free(out);
	return has;
}

/*
 * The option forms getopt_long accepts, for every subcommand through the one parser:
 * -n3, -n 3, --iterations=3, --iterations 3, and "--" that ends the options.
 */
static void test_option_forms(void **state)
{
	static const char *const forms[] = { "-n3", "-n 3", "--iterations=3", "--iterations 3" };
	static const char *const zero[] = { "-n0", "-n 0", "--iterations=0", "--iterations 0" };
	char args[512];
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		/* the value reaches --iterations: 3 is in the JSON, 0 is out of 1..100000 */
		snprintf(args, sizeof(args), "compare --workload idle --governor teo "
			 "--duration-s 0.001 --format json %s", forms[i]);
		assert_int_equal(run_idlesim(args), 0);
		assert_true(out_has("\"iterations\": 3,"));
		snprintf(args, sizeof(args), "compare --workload idle --governor teo %s", zero[i]);
		expect_usage_error(args, "compare --iterations 0: must be 1..100000");
	}
	/* short forms with the value attached: -mskl -gteo -fjson -oFILE */
	snprintf(args, sizeof(args), "run -ttraces/demo.trace -mskl -gteo --hz=100 -fjson -o%s/f.json",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	{
		char *text = slurp_tmp("f.json");

		assert_non_null(text);
		assert_non_null(strstr(text, "\"governor\": \"teo@6.19\""));
		assert_non_null(strstr(text, "\"name\": \"skl\""));
		assert_non_null(strstr(text, "\"hz\": 100,"));
		free(text);
	}
	/* after --, everything is an operand: a file named -x, an option read as a name */
	expect_usage_error("import -- -nosuch.txt", "-nosuch.txt: cannot open");
	expect_usage_error("run -- --hz 3", "unknown option or argument '--hz'");
	expect_usage_error("machines -- --json", "unknown machine '--json'");
	/* -V, --version, help help */
	assert_int_equal(run_idlesim("-V"), 0);
	assert_true(out_has("idlesim "));
	assert_int_equal(run_idlesim("--version"), 0);
	assert_true(out_has("idlesim "));
	assert_int_equal(run_idlesim("help help"), 0);
	assert_true(out_has("usage: idlesim help [COMMAND]"));
}

/*
 * A UTF-8 byte order mark gives the same message at 1:1 for every input kind: native
 * trace (text and JSON), machine JSON, expectation file, sweep spec, kernel trace.
 */
static void test_bom_every_input(void **state)
{
	static const struct {
		const char *file, *body, *cmd, *tail;
	} cases[] = {
		{ "t.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n",
		  "run --trace", "" },
		{ "j.trace", "{\"format\": \"idlesim-trace\"}\n", "run --trace", "" },
		{ "m.json", "{\"name\": \"x\"}\n", "run --machine", "" },
		{ "e.json", "{\"schema\": \"idlesim-expect/1\", \"comparisons\": []}\n",
		  "check", "" },
		{ "s.json", "{\"traces\": [\"x\"], \"machines\": [\"skl\"]}\n",
		  "sweep", " -o out.jsonl" },
		{ "k.txt", "# tracer: nop\n", "import", "" },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(cases); i++) {
		char body[256], args[512], msg[128];

		snprintf(body, sizeof(body), "\xef\xbb\xbf%s", cases[i].body);
		write_tmp(cases[i].file, body);
		snprintf(args, sizeof(args), "%s %s/%s%s", cases[i].cmd, tmpdir, cases[i].file,
			 cases[i].tail);
		snprintf(msg, sizeof(msg), "%s:1:1: the file starts with a UTF-8 byte order mark; "
			 "save it without one", cases[i].file);
		expect_usage_error(args, msg);
	}
}

/*
 * A governor listed twice runs once: menu, menu@6.19 (the same table entry: menu is the
 * newest version, 6.19) and menu again are one run, teo another, so 2 runs in this order.
 */
static void test_governor_listed_twice(void **state)
{
	json_error_t je;
	json_t *root, *runs;
	char *text;

	(void)state;
	assert_int_equal(run_idlesim("run -mskl -gmenu,menu@6.19,teo -gmenu --format json"), 0);
	text = slurp_tmp("out");
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	runs = json_object_get(root, "runs");
	assert_int_equal(json_array_size(runs), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 0), "governor")),
			    "menu@6.19");
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 1), "governor")),
			    "teo@6.19");
	json_decref(root);
	free(text);
}

/*
 * Bundled short options, as getopt bundles them: after a flag (check's -v is the only one),
 * the next letter is another option, and an option with a value takes the rest of the
 * cluster or the next argument. -vj1 = -v -j1; -vvo FILE = -v -v -o FILE; -jv gives -j the
 * value "v"; -vx names the unknown letter.
 */
static void test_bundled_short_options(void **state)
{
	char args[512], *separate, *bundled, *quiet, *file;

	(void)state;
	write_tmp("b.json", "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [\n"
			    " {\"workload\": \"idle\", \"machines\": [\"skl\"], \"governors\": [\"teo\"],\n"
			    "  \"iterations\": 1, \"duration_s\": 0.01,\n"
			    "  \"expect\": [{\"metric\": \"energy_j\", \"governor\": \"teo\", "
			    "\"max\": 1}]}]}\n");
	snprintf(args, sizeof(args), "check -v -j 1 %s/b.json", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	separate = slurp_tmp("out");
	snprintf(args, sizeof(args), "check -vj1 %s/b.json", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	bundled = slurp_tmp("out");
	snprintf(args, sizeof(args), "check -j1 %s/b.json", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	quiet = slurp_tmp("out");
	assert_string_equal(bundled, separate);
	assert_true(strlen(bundled) > strlen(quiet)); /* -v took effect: the table is there */
	snprintf(args, sizeof(args), "check -vvo %s/v.txt -j1 %s/b.json", tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	file = slurp_tmp("v.txt");
	assert_non_null(file);
	assert_string_equal(file, separate);
	snprintf(args, sizeof(args), "check -jv %s/b.json", tmpdir);
	expect_usage_error(args, "check --threads 'v': must be an integer");
	snprintf(args, sizeof(args), "check -vx %s/b.json", tmpdir);
	expect_usage_error(args, "check: unknown option '-x' in '-vx'");
	free(separate);
	free(bundled);
	free(quiet);
	free(file);
}

/*
 * compare as run: -g menu,menu@6.19,teo -g menu names two governors (menu is menu@6.19, the
 * newest menu), so every cell compares 2, the baseline menu@6.19 first, then teo@6.19.
 */
static void test_compare_governor_listed_twice(void **state)
{
	json_error_t je;
	json_t *root, *cells, *govs;
	size_t i;
	char *text;

	(void)state;
	assert_int_equal(run_idlesim("compare --workload idle -gmenu,menu@6.19,teo -gmenu -n1 "
				     "--duration-s 0.01 --metric energy_j -fjson"),
			 0);
	text = slurp_tmp("out");
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "baseline")), "menu@6.19");
	cells = json_object_get(root, "cells");
	assert_true(json_array_size(cells) > 0);
	for (i = 0; i < json_array_size(cells); i++) {
		govs = json_object_get(json_array_get(cells, i), "governors");
		assert_int_equal(json_array_size(govs), 2);
		assert_string_equal(json_string_value(json_object_get(json_array_get(govs, 0),
								      "governor")),
				    "menu@6.19");
		assert_string_equal(json_string_value(json_object_get(json_array_get(govs, 1),
								      "governor")),
				    "teo@6.19");
	}
	json_decref(root);
	free(text);
}

/*
 * skl has 9 states, POLL and 8 others (C1 C1E C3 C6 C7s C8 C9 C10, indexes 1-8): disabling
 * 1-8 leaves POLL alone, and the run warns (once, for its one machine); 1-7 leaves C10.
 */
static void test_only_poll_warns(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(run_idlesim("run -mskl -gteo,menu --disable 1,2,3,4,5,6,7,8"), 0);
	err = slurp_tmp("err");
	assert_string_equal(err, "idlesim: warning: every idle state of skl but POLL is "
				 "disabled: only POLL is left\n");
	free(err);
	assert_int_equal(run_idlesim("run -mskl -gteo --disable 1,2,3,4,5,6,7"), 0);
	err = slurp_tmp("err");
	assert_string_equal(err, "");
	free(err);
}

/* Range errors state the range; "greater than zero" for a positive value is gone. */
static void test_range_errors(void **state)
{
	(void)state;
	expect_usage_error("run --hz 100000", "run --hz 100000: must be 1..10000");
	expect_usage_error("run --hz 0", "run --hz 0: must be 1..10000");
	expect_usage_error("run --hz abc", "run --hz 'abc': must be an integer, 1..10000");
	expect_usage_error("run --latency-limit-us -5",
			   "run --latency-limit-us '-5': must be an integer, 0..2000000000");
	/* 3600 s = 3600000000000 ns at 9 decimals; the least value is 1 ns, "more than 0" */
	expect_usage_error("gen --workload tbench --duration-s 3600.5",
			   "gen --duration-s 3600.5: must be more than 0 and at most 3600");
	expect_usage_error("gen --workload periodic --duration-s 0",
			   "gen --duration-s 0: must be more than 0");
	expect_usage_error("gen --workload periodic --seed x", "gen --seed 'x': must be an "
							       "integer, 0 or more");
	expect_usage_error("report --decisions 100001", "report --decisions 100001: must be "
							"0..100000");
	expect_usage_error("compare --workload idle --governor teo -j 257",
			   "compare --threads 257: must be 1..256");
}

/* README.md and every docs/NAME.md of the source tree, concatenated (the user's docs). */
static char *slurp_user_docs(void)
{
	static const char *const docs[] = {"README.md",	     "docs/cli.md",	 "docs/engine.md",
					   "docs/scores.md",  "docs/speed.md",	 "docs/import.md",
					   "docs/html-report.md", "docs/workloads.md"};
	size_t len = 0, i;
	char *all = NULL;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char path[4096], *text, *grown;
		size_t n;

		snprintf(path, sizeof(path), "%s/%s", SRC, docs[i]);
		text = slurp(path);
		assert_non_null(text);
		n = strlen(text);
		grown = realloc(all, len + n + 2);
		assert_non_null(grown);
		all = grown;
		memcpy(all + len, text, n);
		all[len + n] = '\n';
		all[len + n + 1] = '\0';
		len += n + 1;
		free(text);
	}
	return all;
}

/*
 * help run names every option the user's documentation (README and docs/) shows with run:
 * each "--name" after "idlesim run" or "`run" up to the end of that line or code span. They
 * show at least --trace, --machine, --governor, --format, --explain, --from, --to and
 * --queue (counted by hand: 8).
 */
static void test_help_run_lists_readme_options(void **state)
{
	char *readme = slurp_user_docs(), *help, *p;
	int found = 0;

	(void)state;
	assert_non_null(readme);
	assert_int_equal(run_idlesim("help run"), 0);
	help = slurp_tmp("out");
	for (p = readme; (p = strstr(p, "run ")); p += 4) {
		char *end = p + strcspn(p, "`\n");

		if (!((p - readme >= 8 && !strncmp(p - 8, "idlesim ", 8)) ||
		      (p > readme && p[-1] == '`')))
			continue;
		for (char *q = p; q < end; q++) {
			char name[64];
			size_t n = strspn(q + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
			char *h;

			if (strncmp(q, "--", 2) || (q[-1] != ' ' && q[-1] != '[') || !n ||
			    n >= sizeof(name) - 2)
				continue;
			snprintf(name, sizeof(name), "--%.*s", (int)n, q + 2);
			for (h = help; (h = strstr(h, name)); h++)
				if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-", h[strlen(name)]))
					break;
			if (!h) {
				fprintf(stderr, "the docs show run %s, help run does not\n", name);
				fail();
			}
			found++;
		}
	}
	assert_true(found >= 8);
	free(help);
	free(readme);
}

/*
 * Every case of the bad-input corpus through `run -o FILE`: exit status 2, the message of
 * expected-error at FILE:LINE:COLUMN on stderr, and no output file, temporary or final.
 */
static void test_bad_input_corpus(void **state)
{
	const char *dir = SRC "/tests/traces/invalid";
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512], args[1024], want[1024];
		char *expected, *err, *nl;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/expected-error", dir, e->d_name);
		expected = slurp(path);
		assert_non_null(expected);
		nl = strchr(expected, '\n');
		if (nl)
			*nl = '\0';
		snprintf(args, sizeof(args),
			 "run --trace %s/%s/input --machine skl --governor oracle -o %s/report.txt", dir,
			 e->d_name, tmpdir);
		if (run_idlesim(args) != 2) {
			fprintf(stderr, "case %s: exit status is not 2\n", e->d_name);
			fail();
		}
		snprintf(want, sizeof(want), "%s/%s/input:%s", dir, e->d_name, expected);
		err = slurp_tmp("err");
		if (!strstr(err, want)) {
			fprintf(stderr, "case %s:\n want: %s\n got:  %s", e->d_name, want, err);
			fail();
		}
		assert_false(exists("report.txt"));
		assert_no_tmp_files();
		free(err);
		free(expected);
		n++;
	}
	closedir(d);
	assert_true(n >= 40);
}

/*
 * Options are used or refused, never ignored (tests/cli_options.tsv has the whole table,
 * cli_options_test.sh checks it): --from without --explain or a timeline format; a window
 * past the end of the trace (irq-fixed.trace spans 0 to 50 ms), for run and report, says
 * the trace's span; --explain takes its value whatever it looks like.
 */
static void test_options_used(void **state)
{
	char args[512];

	(void)state;
	expect_usage_error("run -t traces/scenarios/irq-fixed.trace -m skl -g oracle --from 0.01",
			   "idlesim: run --from: selects the decisions of --explain or the timeline");
	expect_usage_error("run -t traces/scenarios/irq-fixed.trace -m skl -g oracle --explain "
			   "--from 5",
			   "idlesim: run --from/--to: the window from 5.000000 s to its end holds "
			   "nothing of the trace, which spans 0.000000 to 0.050000 s");
	snprintf(args, sizeof(args),
		 "report -t traces/scenarios/irq-fixed.trace -m skl -g menu --from 5 --to 6 -o %s",
		 tmp_path("report.html"));
	expect_usage_error(args, "idlesim: report --from/--to: the window from 5.000000 s to "
				 "6.000000 s holds nothing of the trace, which spans 0.000000 to "
				 "0.050000 s");
	assert_false(exists("report.html"));
	expect_usage_error("run --explain -3", "idlesim: run --explain '-3': must be an integer");
	expect_usage_error("run --explain x", "idlesim: run --explain 'x': must be an integer");
	/* A window inside the trace is used. */
	assert_int_equal(run_idlesim("run -t traces/scenarios/irq-fixed.trace -m skl -g oracle "
				     "--explain --from 0.01 --to 0.02"),
			 0);
}

/*
 * run and report --workload: a closed-loop model instead of a trace. Both --trace and
 * --workload, a list where one value is taken, or --duration-s without a workload: exit 2,
 * the message, and no output file (final or temporary). A short run writes its report.
 */
static void test_workload_run_report(void **state)
{
	static const char *const cmds[] = { "run", "report" };
	char args[512];
	char *out;
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(cmds); i++) {
		snprintf(args, sizeof(args),
			 "%s --workload tbench --trace traces/demo.trace -m skl -g menu "
			 "-o %s/w.out",
			 cmds[i], tmpdir);
		expect_usage_error(args, "--trace and --workload: give one of them");
		snprintf(args, sizeof(args), "%s --workload tbench --clients 1,2 -o %s/w.out",
			 cmds[i], tmpdir);
		expect_usage_error(args, "--clients '1,2': one value");
		snprintf(args, sizeof(args), "%s --duration-s 0.01 -m skl -g menu -o %s/w.out",
			 cmds[i], tmpdir);
		expect_usage_error(args, "--duration-s: the length of a --workload run");
		snprintf(args, sizeof(args), "%s --workload nosuch -o %s/w.out", cmds[i], tmpdir);
		expect_usage_error(args, "unknown workload 'nosuch'");
		assert_false(exists("w.out"));
		assert_no_tmp_files();
	}
	expect_usage_error("run --workload tbench --bogus 1", "workload tbench takes --clients");
	expect_usage_error("run --workload tbench -m skl,hsx", "one --machine");
	snprintf(args, sizeof(args),
		 "run --workload tbench --clients 2 --placement pinned -m skl -g menu "
		 "--duration-s 0.002 -f json -o %s/w.json",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	out = slurp_tmp("w.json");
	assert_non_null(out);
	assert_non_null(strstr(out, "tbench --clients 2 --placement pinned (seed 1, 0.002 s)"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_option_forms),
		cmocka_unit_test(test_range_errors),
		cmocka_unit_test(test_bom_every_input),
		cmocka_unit_test(test_governor_listed_twice),
		cmocka_unit_test(test_compare_governor_listed_twice),
		cmocka_unit_test(test_bundled_short_options),
		cmocka_unit_test(test_only_poll_warns),
		cmocka_unit_test(test_help_run_lists_readme_options),
		cmocka_unit_test(test_bad_input_corpus),
		cmocka_unit_test(test_workload_run_report),
		cmocka_unit_test(test_options_used),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
