// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - the idlesim binary as a user runs it: reports whose numbers are computed here
 * by hand, byte-identical output for identical input, --explain, the knobs, the
 * configuration record, calibrate, the progress bar, gen and machines. Usage errors and bad
 * input: tests/test_cli_usage.c; standard input: tests/test_cli_stdin.c; output files:
 * tests/test_cli_output.c; sweep: tests/test_cli_sweep.c.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_report_by_hand),
		cmocka_unit_test(test_text_and_csv),
		cmocka_unit_test(test_deterministic_output),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_explain_readable),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_calibrate_and_measured),
		cmocka_unit_test(test_gen_and_machines),
		cmocka_unit_test(test_config_record),
		cmocka_unit_test(test_progress_bar),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
