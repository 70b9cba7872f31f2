// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - the idlesim binary as a user runs it: exit statuses, usage errors, reports
 * whose numbers are computed here by hand, byte-identical output for identical input, and
 * the bad-input corpus (tests/traces/invalid). Output files: tests/test_cli_output.c;
 * sweep: tests/test_cli_sweep.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/run/cfgrec.h"
#include "sim/base/common.h"
#include "sim/machine/machine.h"
#include "sim/base/progress.h"
#include "sim/study/sweep.h"


#include "tests/clitest.h"

/*
 * One 500 us idle period ended by its timer on skl, in a run that ends at 600 us: the oracle
 * picks C6 (the deepest state whose target residency, 200 us, fits; C7s needs 800 us); the
 * timer wakes it at 500,000 and its exit (85 us) ends at 585,000, before the end, so the
 * entry counts with a measured residency of 500,000 + 85,000 = 585,000 ns: no above
 * (>= 200,000), no below (585,000 - 85,000 < 800,000). Energy regret 0: oracle-energy
 * picks C6 too (under `typical` C6 beats C3 from 200 us and C7s only from 3.2 ms,
 * docs/wake-latency.md); latency regret against itself.
 */
static void test_json_report_by_hand(void **state)
{
	char args[512];
	json_error_t je;
	json_t *root, *run0, *st;
	char *text;

	(void)state;
	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n");
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --machine skl --governor oracle --format json -o %s/r.json",
		 tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("r.json");
	assert_non_null(text);
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "schema")), "idlesim-run/1");
	assert_int_equal(json_array_size(json_object_get(root, "runs")), 1);
	run0 = json_array_get(json_object_get(root, "runs"), 0);
	assert_string_equal(json_string_value(json_object_get(run0, "governor")), "oracle");
	assert_string_equal(json_string_value(json_object_get(run0, "machine")), "skl");
	assert_int_equal(json_integer_value(json_object_get(run0, "hz")), 250);
	st = json_object_get(run0, "totals");
	assert_int_equal(json_integer_value(json_object_get(st, "idle_entries")), 1);
	assert_int_equal(json_integer_value(json_object_get(st, "above")), 0);
	assert_int_equal(json_integer_value(json_object_get(st, "below")), 0);
	assert_int_equal(json_integer_value(json_object_get(st, "hits")), 1);
	assert_non_null(json_object_get(st, "energy_j"));
	assert_non_null(json_object_get(json_object_get(st, "wake_latency_ns"), "p99"));
	st = json_array_get(json_object_get(run0, "states"), 4);
	assert_string_equal(json_string_value(json_object_get(st, "name")), "C6");
	assert_int_equal(json_integer_value(json_object_get(st, "usage")), 1);
	/* 500,000 asleep plus C6's typical wake latency on skl, 5,050 (the default model,
	 * docs/wake-latency.md; the advertised 85,000 under worst) */
	assert_int_equal(json_integer_value(json_object_get(st, "time_ns")), 505050);
	assert_int_equal(json_array_size(json_object_get(run0, "cpus")), 1);
	assert_true(json_real_value(json_object_get(json_object_get(run0, "regret"), "energy_j")) == 0.0);
	json_decref(root);
	free(text);
}

/* Text uses turbostat names; CSV has the hand-computed row. */
static void test_text_and_csv(void **state)
{
	char args[512];
	char *text;

	(void)state;
	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n");
	snprintf(args, sizeof(args), "run --trace %s/one.trace --machine skl --governor oracle",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, "C6%"));
	assert_non_null(strstr(text, "C6+"));
	assert_non_null(strstr(text, "C6-"));
	assert_non_null(strstr(text, "Busy%"));
	free(text);
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --machine skl --governor oracle --format csv", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, "trace,machine,governor,hz,cpu,state,usage,time_ns,above,below"));
	assert_non_null(strstr(text, ",skl,oracle,250,all,C6,1,505050,0,0,"));
	assert_non_null(strstr(text, ",skl,oracle,250,0,C6,1,505050,0,0,"));
	free(text);
	/* worst: the table's 85,000 us exit latency of C6: 500,000 + 85,000 */
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --machine skl --governor oracle --format csv "
		 "--wake-latency worst",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, ",skl,oracle,250,all,C6,1,585000,0,0,"));
	free(text);
}

/* The same input gives byte-identical output, whatever the event queue. */
/* The JSON reports of `idlesim ARGS_A` and `idlesim ARGS_B` are the same text. */
static void assert_same_report(const char *args_a, const char *args_b)
{
	char *a, *b;

	assert_int_equal(run_idlesim(args_a), 0);
	a = slurp_tmp("out");
	assert_int_equal(run_idlesim(args_b), 0);
	b = slurp_tmp("out");
	assert_true(strlen(a) > 1000);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void test_deterministic_output(void **state)
{
	(void)state;
	assert_same_report("run --machine skl,hsx --format json --explain 50",
			   "run --machine skl,hsx --format json --explain 50");
	assert_same_report("run --machine skl,hsx --format json --explain 50",
			   "run --machine skl,hsx --format json --explain 50 --queue naive");
	/* Without the decision log the replay runs in lanes, or, asked to, through the global
	 * queue: the same report, every governor. */
	assert_same_report("run --machine skl,hsx --format json",
			   "run --machine skl,hsx --format json --queue heap");
}

/*
 * --explain N keeps N decisions per run, with the governor's variables. On one.trace (one
 * 500 us idle period from 0, ended by its timer, skl, HZ 250) the oracle's only decision,
 * by hand: sleep length 500,000 (the timer), delta_tick 500,000 (the timer comes before
 * the tick at 4 ms), no PM QoS request (2e9 us = 2e12 ns); its variables: idle_ns 500,000
 * (the wakeup it knows), the same limit, rule "deepest-fit" (C6 is not the shallowest
 * enabled state); the tick kept (the wakeup is before the next tick); C6 entered, woken
 * by the timer at 500,000, residency 500,000 + 85,000 (C6's exit) = 585,000, a hit (as in
 * test_json_report_by_hand; the run ends at 600 us, after the exit). reflect (none for the
 * oracle, but the record says what it would see) at 585,000, no tick (the first is at
 * 4 ms), no POLL limit; the timer is a timer-wheel one (the default), load not read.
 */
static void test_explain(void **state)
{
	char args[512];
	json_error_t je;
	json_t *root, *runs, *d, *g;
	char *text;
	size_t i;

	(void)state;
	assert_int_equal(run_idlesim("run --machine skl --governor oracle,deepest --format json --explain 3"), 0);
	text = slurp_tmp("out");
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	runs = json_object_get(root, "runs");
	assert_int_equal(json_array_size(runs), 2);
	for (i = 0; i < 2; i++)
		assert_int_equal(json_array_size(json_object_get(json_array_get(runs, i), "decisions")), 3);
	json_decref(root);
	free(text);

	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n");
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --machine skl --governor oracle --format json --explain 5 "
		 "--wake-latency worst",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	runs = json_object_get(json_array_get(json_object_get(root, "runs"), 0), "decisions");
	assert_int_equal(json_array_size(runs), 1);
	d = json_array_get(runs, 0);
	assert_int_equal(json_integer_value(json_object_get(d, "time_ns")), 0);
	assert_int_equal(json_integer_value(json_object_get(d, "cpu")), 0);
	assert_int_equal(json_integer_value(json_object_get(d, "sleep_length_ns")), 500000);
	assert_int_equal(json_integer_value(json_object_get(d, "delta_tick_ns")), 500000);
	assert_int_equal(json_integer_value(json_object_get(d, "latency_req_ns")), 2000000000000LL);
	assert_true(json_is_false(json_object_get(d, "stop_tick")));
	assert_true(json_is_false(json_object_get(d, "tick_stopped_after")));
	assert_string_equal(json_string_value(json_object_get(d, "state_name")), "C6");
	assert_string_equal(json_string_value(json_object_get(d, "cause")), "timer");
	assert_int_equal(json_integer_value(json_object_get(d, "wake_ns")), 500000);
	assert_int_equal(json_integer_value(json_object_get(d, "residency_ns")), 585000);
	assert_string_equal(json_string_value(json_object_get(d, "verdict")), "hit");
	assert_int_equal(json_integer_value(json_object_get(d, "reflect_ns")), 585000);
	assert_true(json_is_false(json_object_get(d, "reflect_got_tick")));
	assert_true(json_is_false(json_object_get(d, "poll_time_limit")));
	/* An hrtimer (a timer-wheel timer would fire on the jiffy edge at 4 ms): it programs
	 * the clock-event device, so delta_tick is its 500 us too; no wheel timer pending. */
	assert_string_equal(json_string_value(json_object_get(d, "timer_kind")), "hrtimer");
	assert_true(json_is_null(json_object_get(d, "wheel_length_ns")));
	assert_true(json_is_null(json_object_get(d, "load")));
	g = json_object_get(d, "governor");
	assert_int_equal(json_integer_value(json_object_get(g, "idle_ns")), 500000);
	assert_int_equal(json_integer_value(json_object_get(g, "latency_req_ns")), 2000000000000LL);
	assert_string_equal(json_string_value(json_object_get(g, "rule")), "deepest-fit");
	json_decref(root);
	free(text);
	/* Text: one line per decision. */
	assert_int_equal(run_idlesim("run --machine skl --governor oracle --explain 2"), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, "decisions (2,"));
	assert_non_null(strstr(text, " sleep "));
	free(text);
}

/*
 * The readable --explain: every line of every governor on the demo trace fits 160 columns,
 * says "none" and never -1; --from/--to keep only decisions selected in the window.
 */
static void test_explain_readable(void **state)
{
	char *text, *p, *line;
	long lines = 0;

	(void)state;
	assert_int_equal(run_idlesim("run --machine skl --explain 400"), 0);
	text = slurp_tmp("out");
	p = strstr(text, "decisions (");
	assert_non_null(p);
	for (line = strtok(p, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "decisions (", 11) || line[0] == '=' || !isdigit((unsigned char)line[0]))
			continue;
		if (strlen(line) > 160)
			fail_msg("%zu columns: %s", strlen(line), line);
		assert_null(strstr(line, "=-1"));
		assert_non_null(strstr(line, " -> "));
		lines++;
	}
	assert_true(lines >= 400 * 6); /* 400 a run, at least six governors */
	free(text);

	/* A window: trace time 0.5 s to 0.5001 s, so every line starts with 0.5000 or 0.5001. */
	assert_int_equal(run_idlesim("run --machine skl --governor teo --explain --from 0.5 --to 0.5001"), 0);
	text = slurp_tmp("out");
	p = strstr(text, "decisions (");
	assert_non_null(p);
	lines = 0;
	for (line = strtok(p, "\n"); line; line = strtok(NULL, "\n")) {
		if (!isdigit((unsigned char)line[0]))
			continue;
		assert_true(!strncmp(line, "0.5000", 6));
		lines++;
	}
	assert_true(lines > 0);
	free(text);
	assert_int_equal(run_idlesim("run --machine skl --explain --from 0.5 --to 0.4"), 2);
	text = slurp_tmp("err");
	assert_non_null(strstr(text, "--to must be after --from"));
	free(text);
}

/* Knobs change what they should. */
static void test_knobs(void **state)
{
	char args[512];
	char *text;

	(void)state;
	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n");
	/* C6 disabled by name: the oracle falls back to C3 (100 us): measured residency
	 * 500,000 + its exit, 70,000 (worst). */
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --machine skl --governor oracle --disable C6 --format csv "
		 "--wake-latency worst",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, ",all,C3,1,570000,"));
	free(text);
	/* Latency limit 50 us: C1E (10 us advertised exit) at most, residency 500,000 + its
	 * typical wake latency, 1,900 (the limit reads the advertised latency only). */
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --machine skl --governor oracle --latency-limit-us 50 "
		 "--format csv",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, ",all,C1E,1,501900,"));
	free(text);
	/* --enable C3 on hsx (off by default there). */
	assert_int_equal(run_idlesim("run --machine hsx --governor oracle --enable C3 --format json"), 0);
	text = slurp_tmp("out");
	assert_null(strstr(text, "\"disabled\": [\n        \"C3\""));
	free(text);
	/* HZ is reported. */
	assert_int_equal(run_idlesim("run --machine skl --governor oracle --hz 1000 --format csv"), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, ",skl,oracle,1000,all,"));
	free(text);
}

/*
 * The configuration record of a real run: every knob as given, menu@6.19's defaults
 * (governors/menu-*.c) but decay, which --set changed, and teo untouched by a menu --set;
 * the machine's table hash and the FNV-1a 64 of the trace file's bytes.
 */
static void test_config_record(void **state)
{
	static const char trace[] = "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n";
	struct sim_error err = { 0 };
	struct machine skl;
	char args[512], want[17];
	json_error_t je;
	json_t *root, *c;
	char *text;

	(void)state;
	write_tmp("one.trace", trace);
	snprintf(args, sizeof(args),
		 "run --trace %s/one.trace --machine skl --governor menu@6.19,teo --set menu.decay=4 "
		 "--latency-limit-us 50 --disable C6 --hz 1000 --format json",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	c = json_object_get(json_array_get(json_object_get(root, "runs"), 0), "config");
	assert_string_equal(jstr(c, "governor"), "menu@6.19");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(c, "tunables"), "decay")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(c, "tunables"),
							   "resolution")), 1024);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(c, "tunables"),
							   "residency_threshold_us")), 15);
	assert_string_equal(jstr(c, "set.0"), "menu.decay=4");
	assert_int_equal(json_integer_value(json_object_get(c, "latency_limit_ns")), 50000);
	assert_string_equal(jstr(c, "disabled.0"), "C6");
	assert_int_equal(json_integer_value(json_object_get(c, "hz")), 1000);
	assert_string_equal(jstr(c, "wake_latency_model"), "typical"); /* the default */
	assert_string_equal(jstr(c, "idlesim_version"), IDLESIM_VERSION);
	assert_int_equal(machine_load("skl", &skl, &err), 0);
	cfgrec_hex(want, machine_hash(&skl));
	assert_string_equal(jstr(c, "machine.hash"), want);
	assert_string_equal(jstr(c, "machine.name"), "skl");
	cfgrec_hex(want, cfgrec_fnv1a(CFGREC_FNV_OFFSET, trace, strlen(trace)));
	assert_string_equal(jstr(c, "trace.hash"), want);
	assert_true(json_is_null(json_object_get(c, "seed")));
	/* teo: its own defaults, no --set applied */
	c = json_object_get(json_array_get(json_object_get(root, "runs"), 1), "config");
	assert_string_equal(jstr(c, "governor"), jstr(json_array_get(json_object_get(root, "runs"), 1),
						      "governor"));
	assert_int_equal(json_array_size(json_object_get(c, "set")), 0);
	json_decref(root);
	free(text);
}

/* The bytes written to f since the start (f rewound and truncated after). */
static void take_text(FILE *f, char *buf, size_t n)
{
	size_t got;

	fflush(f);
	rewind(f);
	got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	rewind(f);
	assert_int_equal(ftruncate(fileno(f), 0), 0);
}

/*
 * run's and gen's progress bar (sim/base/progress.h): nothing in the first 2 s, then the bar.
 * 5 of 40 runs: 5 * 40 / 40 = 5 '#' and 35 '.'; gen's counts are in ms shown as s:
 * 30500 of 60000 ms is 30500 * 40 / 60000 = 20 '#', "30/60 s". The bar ends its line only
 * if it was drawn.
 */
static void test_progress_bar(void **state)
{
	struct progress p;
	char text[256];
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	progress_bar(f, "x", 5, 40, 1, "runs");
	take_text(f, text, sizeof(text));
	assert_string_equal(text, "\rx [#####...................................] 5/40 runs");
	progress_init(&p, f, "s", 1000);
	progress_update(&p, NULL, 30500, 60000); /* within 2 s: nothing */
	progress_end(&p);
	take_text(f, text, sizeof(text));
	assert_string_equal(text, "");
	p.next_ns = 0; /* as if 2 s had passed */
	progress_update(&p, NULL, 30500, 60000);
	progress_update(&p, NULL, 31000, 60000); /* within 0.1 s of the last: nothing */
	progress_end(&p);
	take_text(f, text, sizeof(text));
	assert_string_equal(text, "\r[####################....................] 30/60 s     \n");
	fclose(f);
}

/*
 * calibrate end to end: a wult CSV with C6 wake-ups of 2, 4 and 6 us (median 4: p = 0.5,
 * h = 2 x 0.5 = 1) gives skl's C6 a distribution; run --wake-latency measured then draws
 * C6's exits from it: the one irq wakeup of the trace waits 2..6 us (a C6 entry: the
 * oracle's choice for 500 us), and the config record says measured.
 */
static void test_calibrate_and_measured(void **state)
{
	char args[512];
	json_error_t je;
	json_t *root, *run0, *lat;
	char *text;
	long long mean;

	(void)state;
	write_tmp("dp.csv", "WakeLatency,ReqCState,CC6%\n2,C6,1\n6,C6,1\n4,C6,1\n");
	write_tmp("one-irq.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 irq\n");
	snprintf(args, sizeof(args), "machines calibrate --wult %s/dp.csv --machine skl -o %s/m.json",
		 tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("err");
	assert_non_null(strstr(text, "calibrate: C6: 3 wake-ups, median 4.000 us"));
	free(text);
	snprintf(args, sizeof(args),
		 "run --trace %s/one-irq.trace --machine %s/m.json --governor oracle "
		 "--wake-latency measured --format json",
		 tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("out");
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	run0 = json_array_get(json_object_get(root, "runs"), 0);
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(run0, "config"), "wake_latency_model")),
		"measured");
	lat = json_object_get(json_object_get(run0, "totals"), "wake_latency_ns");
	assert_int_equal(json_integer_value(json_object_get(lat, "samples")), 1);
	mean = (long long)json_number_value(json_object_get(lat, "mean"));
	assert_true(mean >= 2000 && mean <= 6000);
	json_decref(root);
	free(text);
}

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

/* gen writes a trace that run accepts; machines --json loads back. */
static void test_gen_and_machines(void **state)
{
	char args[512], *text;
	struct machine a, b;
	struct sim_error err = { 0 };

	(void)state;
	snprintf(args, sizeof(args),
		 "gen --workload irq-fixed --cpus 2 --duration-s 0.01 --timer-period-us 100000 "
		 "-o %s/g.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("g.trace");
	assert_non_null(strstr(text, "idlesim-trace v1\ncpus 2\n"));
	assert_non_null(strstr(text, "source idlesim gen --workload irq-fixed"));
	free(text);
	snprintf(args, sizeof(args), "run --trace %s/g.trace --machine skl --governor oracle", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	/* --timer-kind hrtimer: every timer record says so, with the task's 50 us of slack
	 * (--timer-slack-us), and there is no wheel timer */
	snprintf(args, sizeof(args),
		 "gen --workload periodic --duration-s 0.01 --timer-kind hrtimer -o %s/h.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("h.trace");
	assert_non_null(strstr(text, " timer timer=hrtimer slack=50000\n"));
	assert_null(strstr(text, "next_wheel"));
	free(text);
	snprintf(args, sizeof(args), "run --trace %s/h.trace --machine skl --governor menu", tmpdir);
	assert_int_equal(run_idlesim(args), 0);

	assert_int_equal(run_idlesim("machines skx --json"), 0);
	text = slurp_tmp("out");
	assert_int_equal(machine_load_json_string(text, "<out>", &a, &err), 0);
	assert_int_equal(machine_load("skx", &b, &err), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	free(text);
	assert_int_equal(run_idlesim("machines"), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, "bdx"));
	free(text);
	assert_int_equal(run_idlesim("machines hsx"), 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, "C3 (DISABLED) :"));
	free(text);
	assert_int_equal(run_idlesim("governors"), 0);
	assert_int_equal(run_idlesim("help run"), 0);
	assert_int_equal(run_idlesim("--version"), 0);
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
		cmocka_unit_test(test_json_report_by_hand),
		cmocka_unit_test(test_text_and_csv),
		cmocka_unit_test(test_deterministic_output),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_explain_readable),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_option_forms),
		cmocka_unit_test(test_range_errors),
		cmocka_unit_test(test_bom_every_input),
		cmocka_unit_test(test_governor_listed_twice),
		cmocka_unit_test(test_compare_governor_listed_twice),
		cmocka_unit_test(test_bundled_short_options),
		cmocka_unit_test(test_only_poll_warns),
		cmocka_unit_test(test_help_run_lists_readme_options),
		cmocka_unit_test(test_calibrate_and_measured),
		cmocka_unit_test(test_bad_input_corpus),
		cmocka_unit_test(test_workload_run_report),
		cmocka_unit_test(test_options_used),
		cmocka_unit_test(test_gen_and_machines),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_config_record),
		cmocka_unit_test(test_stdin_machine_and_expectation),
		cmocka_unit_test(test_progress_bar),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
