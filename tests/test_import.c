// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_import.c - kernel-trace import (sim/import*.c) against traces/FORMAT.md, "Importing
 * kernel traces": the golden scenario in every dialect (and among perf's Intel PT samples,
 * and with states disabled), the real traces of IDLESIM_SHARED_DIR, and idlesim import
 * through the binary. Small hand traces: tests/test_import_hand.c; bad input:
 * tests/test_import_bad.c; timers: tests/test_import_timers.c.
 *
 * The golden scenario. tests/import/make-dialects.py holds one list of 54 events written by
 * hand (2 CPUs, 100.000000 s to 100.012200 s) and lays it out in every text dialect:
 * scenario.ftrace (5 flag columns, #P:2), scenario.html (systrace: 4 flags, TGID column,
 * inside HTML), scenario.report (trace-cmd report: cpus=2, padded names, plugin-rewritten
 * sched_switch/sched_wakeup/hrtimer_*, us), scenario-ns.report (report -t without flags, ns),
 * scenario-latency.report (report -l), scenario.perf (perf script: no CPU count), the
 * unsorted ftrace copy (three inversions) and the kernel's latency-format with relative us
 * (scenario-latency-us.ftrace). Every one must give the records of scenario.expected,
 * computed by hand as follows (times in us after 100 s; skl: C1 2/2, C1E 10/20, C3 70/100,
 * C8 200/800, C9 480/5000, C10 890/5000 us exit latency/target residency):
 *
 *  CPU 1: exit at 100 first, no task before: idle since the trace began, [0, 100), woken
 *         by irq nvme0q1 (102) -> "idle 1 100000000000 100000 irq" (no timer on CPU 1).
 *  CPU 0: entry C1E at 20 (timers pending: T1 hrtimer_wakeup at 5000, the tick excluded);
 *         exit 4000, tick hrtimer expiry (tick), re-entry C1E at 4020 with no task between
 *         (merged), exit 5000, T1 expires (timer), task -> one opportunity [20, 5000),
 *         4980 us, timer; T1 is an hrtimer and no wheel timer is pending at 20 ->
 *         "idle 0 100000020000 4980000 timer timer=hrtimer".
 *  CPU 1: C1 1010-1500 (no cause event: unknown), merged with C1 1510-2000 (irq) ->
 *         "idle 1 100001010000 990000 irq".
 *  CPU 1: C8 3010-12000, no cause event, but CPU 0 woke a task for CPU 1 at 11990 and
 *         raised an IPI at 11991 -> ipi -> "idle 1 100003010000 8990000 ipi".
 *  CPU 0: C1 6010-7000, irq eth0; timer_start at 5500 with timeout=25 jiffies at HZ 250
 *         (inferred: the tick hrtimer re-armed 4 ms apart) expires at 105500 ->
 *         next_timer 105500 - 6010 = 99490 us -> "idle 0 100006010000 990000 irq
 *         next_timer=99490000".
 *  CPU 0: C10 8010-9000, ipi_entry -> "idle 0 100008010000 990000 ipi next_timer=97490000".
 *  CPU 0: C3 entry at 12110, its last idle event: idle until the end (12200) -> a record
 *         cut by `end`: 12200 + 1 ns - 12110 = 90001 ns, next_timer 105500 - 12110.
 *
 *  Recorded governor on skl, diff = exit - entry: C1E 3980 and 980 us (below: minus 10 >=
 *  C3's 100); C1 990, 490, 490 (below: minus 2 >= C1E's 20); C10 990 (above: < 5000); C8
 *  8990 (below: minus 200 >= C9's 5000). cpu_idle_miss events: below for both C1E, the C1 of
 *  CPU 0 and the first C1 of CPU 1, above for C10 -> 5 agree; the second C1 of CPU 1 and
 *  the C8 have none (kernel: neither) -> 2 disagreements.
 */
#include "tests/importtest.h"

/* ---- the golden scenario in every dialect ---- */

static const struct {
	const char *file, *format, *cpus_from;
} dialects[] = {
	{ "scenario.ftrace", "ftrace", "the trace header" },
	{ "scenario.html", "systrace", "the trace header" },
	{ "scenario.report", "trace-cmd", "the trace header" },
	{ "scenario-ns.report", "trace-cmd", "the trace header" },
	{ "scenario-latency.report", "trace-cmd", "the trace header" },
	{ "scenario.perf", "perf", "the highest CPU seen" },
	{ "scenario-unsorted.ftrace", "ftrace", "the trace header" },
};

static void check_scenario_summary(json_t *j, int64_t base)
{
	json_t *d;

	assert_int_equal(ji(j, "cpus"), 2);
	assert_int_equal(ji(j, "hz"), 250);
	assert_string_equal(js(j, "hz_from"), "the tick's hrtimer");
	/* the tick armed for 100004000000 and 100008000000 (hrtimer clock; both 0 mod 4000000),
	 * its one expiry traced 100004003000 - 100004000500 = 2500 ns after now (-99999997500
	 * with relative times: the same modulo 4000000): phase 0 + 2500 */
	assert_int_equal(ji(j, "tick_phase.ns"), 2500);
	assert_int_equal(ji(j, "tick_phase.agreeing"), 2);
	assert_int_equal(ji(j, "start_ns"), base);
	assert_int_equal(ji(j, "end_ns"), base + 12200000);
	assert_int_equal(ji(j, "events_read"), 54);
	assert_int_equal(ji(j, "events_used"), 52);
	assert_int_equal(ji(j, "events_skipped"), 2);
	assert_int_equal(ji(j, "events.cpu_idle"), 16);
	assert_int_equal(ji(j, "events.cpu_idle_miss"), 5);
	assert_int_equal(ji(j, "events.sched_switch"), 13);
	assert_int_equal(ji(j, "events.hrtimer_start"), 3);
	assert_int_equal(ji(j, "events.timer_start"), 1);
	assert_int_equal(ji(j, "skipped.cpu_frequency"), 1);
	assert_int_equal(ji(j, "skipped.sched_migrate_task"), 1);
	assert_null(jget(j, "skipped.cpu_idle"));
	assert_int_equal(ji(j, "bad_lines"), 0);
	assert_string_equal(js(j, "merging"), "sched_switch");
	assert_int_equal(ji(j, "idle_periods"), 7);
	/* CPU 1's [0, 100) record is idle since the start, not an opportunity (it is in
	 * period_wake_causes, as a wakeup the trace shows, but not in wake_causes) */
	assert_int_equal(ji(j, "opportunities"), 5);
	assert_int_equal(ji(j, "started_idle"), 1);
	assert_int_equal(ji(j, "merged_periods"), 2);
	assert_int_equal(ji(j, "truncated_at_end"), 1);
	assert_int_equal(ji(j, "idle_throughout"), 0);
	assert_int_equal(ji(j, "unpaired.entries"), 1);
	assert_int_equal(ji(j, "unpaired.exits"), 1);
	assert_int_equal(ji(j, "unpaired.reasons.trace_started_idle"), 1);
	assert_int_equal(ji(j, "unpaired.reasons.trace_ended_idle"), 1);
	assert_int_equal(ji(j, "unpaired.reasons.entry_followed_by_entry"), 0);
	assert_int_equal(ji(j, "wake_causes.tick"), 0);
	assert_int_equal(ji(j, "wake_causes.timer"), 1);
	assert_int_equal(ji(j, "wake_causes.irq"), 2);
	assert_int_equal(ji(j, "wake_causes.ipi"), 2);
	assert_int_equal(ji(j, "wake_causes.unknown"), 0);
	assert_int_equal(ji(j, "period_wake_causes.tick"), 1);
	assert_int_equal(ji(j, "period_wake_causes.timer"), 1);
	assert_int_equal(ji(j, "period_wake_causes.irq"), 3);
	assert_int_equal(ji(j, "period_wake_causes.ipi"), 2);
	assert_int_equal(ji(j, "period_wake_causes.unknown"), 1);
	assert_true(json_is_true(jget(j, "sleep_length.known")));
	assert_int_equal(ji(j, "sleep_length.opportunities_with_next_timer"), 2);
	assert_int_equal(ji(j, "tick_stop.success"), 1);
	assert_int_equal(ji(j, "per_cpu.0.idle_periods"), 4);
	assert_int_equal(ji(j, "per_cpu.0.opportunities"), 3);
	assert_int_equal(ji(j, "per_cpu.1.opportunities"), 2);
	assert_int_equal(ji(j, "per_cpu.1.wake_causes.ipi"), 1);
	/* the recording kernel's choices on skl */
	assert_string_equal(js(j, "recorded.machine"), "skl");
	assert_int_equal(json_array_size(jget(j, "recorded.states")), 9);
	assert_string_equal(js(j, "recorded.states.1.name"), "C1");
	assert_int_equal(ji(j, "recorded.states.1.usage"), 3);
	assert_int_equal(ji(j, "recorded.states.1.time_ns"), 1970000);
	assert_int_equal(ji(j, "recorded.states.1.above"), 0);
	assert_int_equal(ji(j, "recorded.states.1.below"), 3);
	assert_int_equal(ji(j, "recorded.states.2.usage"), 2);
	assert_int_equal(ji(j, "recorded.states.2.time_ns"), 4960000);
	assert_int_equal(ji(j, "recorded.states.2.below"), 2);
	assert_int_equal(ji(j, "recorded.states.6.usage"), 1);
	assert_int_equal(ji(j, "recorded.states.6.time_ns"), 8990000);
	assert_int_equal(ji(j, "recorded.states.6.below"), 1);
	assert_int_equal(ji(j, "recorded.states.8.usage"), 1);
	assert_int_equal(ji(j, "recorded.states.8.above"), 1);
	assert_int_equal(ji(j, "recorded.states.8.below"), 0);
	assert_int_equal(ji(j, "recorded.states.0.usage"), 0);
	assert_int_equal(ji(j, "recorded.cpus.1.states.1.usage"), 2);
	assert_int_equal(ji(j, "recorded.cpus.1.states.1.time_ns"), 980000);
	assert_int_equal(ji(j, "recorded.cpus.0.states.1.usage"), 1);
	/* cpu_idle_miss agreement */
	assert_int_equal(ji(j, "miss_check.events"), 5);
	assert_int_equal(ji(j, "miss_check.above"), 1);
	assert_int_equal(ji(j, "miss_check.below"), 4);
	assert_int_equal(ji(j, "miss_check.compared"), 7);
	assert_int_equal(ji(j, "miss_check.agree"), 5);
	assert_int_equal(ji(j, "miss_check.disagree"), 2);
	assert_int_equal(ji(j, "miss_check.unmatched"), 0);
	d = jget(j, "miss_check.disagreements");
	assert_int_equal(json_array_size(d), 2);
	assert_int_equal(ji(d, "0.cpu"), 1);
	assert_int_equal(ji(d, "0.time_ns"), base + 1510000);
	assert_int_equal(ji(d, "0.residency_ns"), 490000);
	assert_string_equal(js(d, "0.state_name"), "C1");
	assert_string_equal(js(d, "0.kernel"), "hit");
	assert_string_equal(js(d, "0.idlesim"), "below");
	assert_int_equal(ji(d, "1.time_ns"), base + 3010000);
	assert_string_equal(js(d, "1.state_name"), "C8");
	assert_int_equal(ji(d, "1.residency_ns"), 8990000);
}

static void test_dialects(void **state)
{
	struct import_options o = { 0 };
	struct machine m;
	struct sim_error err = { 0 };
	char *expected = slurp(FIX "scenario.expected");
	size_t i;

	(void)state;
	assert_non_null(expected);
	assert_int_equal(machine_load("skl", &m, &err), 0);
	o.machine = &m;
	for (i = 0; i < sizeof(dialects) / sizeof(dialects[0]); i++) {
		char path[512];
		struct conv one, two;

		snprintf(path, sizeof(path), FIX "%s", dialects[i].file);
		convert_ok(path, &o, false, &one);
		convert_ok(path, &o, true, &two);
		if (strcmp(one.records, expected))
			fail_msg("%s:\n%s\nwant:\n%s", dialects[i].file, one.records, expected);
		/* one pass and two passes write the same file, header included, and summary */
		assert_string_equal(one.trace, two.trace);
		assert_int_equal(ji(one.json, "passes"), strstr(path, "unsorted") ? 2 : 1);
		assert_int_equal(ji(two.json, "passes"), 2);
		json_object_del(one.json, "passes");
		json_object_del(two.json, "passes");
		json_object_del(one.json, "reread_because");
		json_object_del(two.json, "reread_because");
		assert_true(json_equal(one.json, two.json));
		assert_non_null(strstr(one.trace, "idlesim-trace v1\ncpus 2\nhz 250\nmachine skl\n"
						  "start 100000000000\nend 100012200000\n"));
		assert_non_null(strstr(one.trace, "sleep lengths: the earliest non-tick timer"));
		assert_string_equal(js(one.json, "format"), dialects[i].format);
		assert_string_equal(js(one.json, "cpus_from"), dialects[i].cpus_from);
		check_scenario_summary(one.json, 100000000000LL);
		conv_free(&one);
		conv_free(&two);
	}
	free(expected);
}

/* The kernel's latency-format: relative microseconds, the same events. */
static void test_latency_us(void **state)
{
	struct import_options o = { 0 };
	struct machine m;
	struct sim_error err = { 0 };
	char *expected = slurp(FIX "scenario-latency-us.expected");
	struct conv c;

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	o.machine = &m;
	convert_ok(FIX "scenario-latency-us.ftrace", &o, false, &c);
	assert_string_equal(c.records, expected);
	assert_string_equal(c.records, "idle 1 0 100000 irq\n"
				       "idle 0 20000 4980000 timer timer=hrtimer\n"
				       "idle 1 1010000 990000 irq\n"
				       "idle 1 3010000 8990000 ipi\n"
				       "idle 0 6010000 990000 irq next_timer=99490000\n"
				       "idle 0 8010000 990000 ipi next_timer=97490000\n"
				       "idle 0 12110000 90001 irq next_timer=93390000\n");
	check_scenario_summary(c.json, 0);
	conv_free(&c);
	free(expected);
}

/* Timestamps that go backwards: detected, reordered per CPU, said. */
static void test_out_of_order(void **state)
{
	struct conv c;
	json_t *o;

	(void)state;
	convert_ok(FIX "scenario-unsorted.ftrace", NULL, false, &c);
	assert_int_equal(ji(c.json, "passes"), 2);
	assert_string_equal(js(c.json, "reread_because"), "timestamps go backwards");
	o = jget(c.json, "out_of_order");
	assert_true(json_is_object(o));
	assert_int_equal(ji(o, "events"), 3);
	assert_int_equal(json_array_size(jget(o, "cpus")), 2);
	assert_int_equal(ji(o, "held_in_memory"), 52);
	conv_free(&c);
	convert_ok(FIX "scenario.ftrace", NULL, false, &c);
	assert_true(json_is_null(jget(c.json, "out_of_order")));
	conv_free(&c);
}

/*
 * perf script with Intel PT samples and side-band records mixed in (scenario-pt.perf: the
 * scenario with PERF_RECORD_* lines, with and without a CPU, samples with a period and plain
 * or modified names, an Intel PT decoder error, at the start and among the events): it is
 * perf, and gives the scenario's records. The samples are events of other names (counted
 * and skipped: branches, cbr, instructions, pwre), the records and the error no events.
 */
static void test_perf_mixed(void **state)
{
	char *expected = slurp(FIX "scenario.expected");
	struct import_options o = { 0 };
	struct conv c;
	int two;

	(void)state;
	assert_int_equal(import_probe(FIX "scenario-pt.perf"), IMPORT_PERF);
	for (two = 0; two < 2; two++) {
		convert_ok(FIX "scenario-pt.perf", NULL, two, &c);
		assert_string_equal(c.records, expected);
		assert_string_equal(js(c.json, "format"), "perf");
		assert_int_equal(ji(c.json, "events_read"), 54 + 4);
		assert_int_equal(ji(c.json, "skipped.branches"), 1);
		assert_int_equal(ji(c.json, "skipped.instructions"), 1);
		assert_int_equal(ji(c.json, "skipped.pwre"), 1);
		assert_int_equal(ji(c.json, "skipped.cbr"), 1);
		assert_int_equal(ji(c.json, "bad_lines"), 0);
		conv_free(&c);
	}
	/* a sample period is perf's alone: forced ftrace refuses it */
	o.format = IMPORT_FTRACE;
	convert(FIX "scenario-pt.perf", &o, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	assert_int_equal(c.err.line, 3);
	assert_string_equal(c.err.text,
			    "a sample period before the event name: this is perf script output");
	conv_free(&c);
	/* only samples and records, no cpu_idle: no idle period, an error (both ways) */
	for (two = 0; two < 2; two++) {
		convert(write_tmp("pt-only.perf",
				  "            perf  1234 [000]   1.000000000: PERF_RECORD_COMM: "
				  "perf:1234/1234\n"
				  "              ls  3136 [001]   1.000000100:          1  "
				  "instructions:  ffffffff81234567 f+0x7 ([kernel.kallsyms])\n"),
			NULL, two, &c);
		assert_int_equal(c.err.code, SIM_ERR_INPUT);
		assert_non_null(strstr(c.err.source, "pt-only.perf"));
		assert_string_equal(c.err.text,
				    "no idle period found (1 events read, none of them "
				    "power:cpu_idle): nothing to replay; record the power:cpu_idle "
				    "event (docs/import.md)");
		conv_free(&c);
	}
	free(expected);
}

/* Disabled states change the kernel's rule: a lone enabled state is never above/below. */
static void test_disabled_states(void **state)
{
	struct import_options o = { 0 };
	struct machine m;
	struct sim_error err = { 0 };
	struct conv c;

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	o.machine = &m;
	o.disabled = 0xff; /* only C10 (index 8) enabled */
	convert_ok(FIX "scenario.ftrace", &o, false, &c);
	/* C10 has no enabled shallower state: never above; C8's first enabled deeper state is
	 * C10 (5000 us): 8990 - 200 >= 5000, below; the others' is C10 too: nothing. Only the
	 * second C1 of CPU 1 (no miss event) agrees with the kernel. */
	assert_int_equal(ji(c.json, "recorded.states.8.above"), 0);
	assert_int_equal(ji(c.json, "recorded.states.6.below"), 1);
	assert_int_equal(ji(c.json, "recorded.states.2.below"), 0);
	assert_int_equal(ji(c.json, "miss_check.agree"), 1);
	assert_int_equal(ji(c.json, "miss_check.disagree"), 6);
	conv_free(&c);
}

/*
 * ---- the real traces of IDLESIM_SHARED_DIR/traces/real (../shared by default) ----
 *
 * Run as their own ctest tests (`test_import real`, `test_import tracedat`), which exit
 * with SKIPPED, ctest's SKIP_RETURN_CODE, after saying why when the traces are absent or
 * the build cannot read trace.dat; never a silent pass.
 */
#define SKIPPED 77

/* Convert a real trace twice (the second time through memory), then replay it. */
static void real_trace_ok(const char *name, const struct import_options *o)
{
	char path[512], args[1024];
	struct conv c, d;

	snprintf(path, sizeof(path), REAL "%s", name);
	convert_ok(path, o, false, &c);
	convert_ok(path, o, true, &d);
	assert_string_equal(c.trace, d.trace);
	conv_free(&d);
	conv_free(&c);
	snprintf(args, sizeof(args), "run --trace %s --machine skl --governor oracle", path);
	assert_int_equal(run_idlesim(args), 0);
}

/* Real systrace and trace-cmd text: event counts as the files hold them. */
static void test_real_traces(void **state)
{
	char *a;
	struct import_options o = { 0 };
	struct machine m;
	struct sim_error err = { 0 };
	struct conv c;

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	o.machine = &m;
	real_trace_ok("trappy-trace_idle.report.txt", &o);
	real_trace_ok("trappy-trace_idle_unsorted.txt", &o);
	real_trace_ok("trappy-trace_surfaceflinger.html", &o);
	convert_ok(REAL "trappy-trace_surfaceflinger.html", &o, false, &c);
	assert_string_equal(js(c.json, "format"), "systrace");
	assert_int_equal(ji(c.json, "cpus"), 8);
	assert_int_equal(ji(c.json, "events.cpu_idle"), 621);
	assert_int_equal(ji(c.json, "events.sched_switch"), 715);
	conv_free(&c);
	convert_ok(REAL "trappy-trace_idle_unsorted.txt", &o, false, &c);
	assert_true(json_is_object(jget(c.json, "out_of_order")));
	assert_int_equal(ji(c.json, "cpus"), 8);
	conv_free(&c);
	convert_ok(REAL "trappy-trace_idle.report.txt", &o, false, &c);
	assert_int_equal(ji(c.json, "events.cpu_idle"), 17);
	assert_int_equal(ji(c.json, "events.sched_switch"), 23);
	/* the timer census: this trace has no timer events, and says so */
	assert_int_equal(ji(c.json, "timer_census.timer_events"), 0);
	assert_int_equal(json_array_size(jget(c.json, "timer_census.functions")), 0);
	conv_free(&c);
	assert_int_equal(run_idlesim("import " REAL "trappy-trace_idle.report.txt"), 0);
	a = slurp(tmp_path("out"));
	assert_non_null(strstr(a, "\ntimer census: no timer events"));
	free(a);
}

/*
 * A trace.dat on standard input, redirected and piped: libtracecmd reads files only, so the
 * importer spools it and opens the copy through /proc/self/fd. The same records as the file
 * (`records`); run --trace - replays it for each governor as the file.
 */
static void tracedat_stdin(const char *records)
{
	const char *dat = REAL "trappy-trace_idle.dat";
	char cmd[2048], *a, *b, *x, *y;
	int pipe;

	for (pipe = 0; pipe < 2; pipe++) {
		snprintf(cmd, sizeof(cmd), "%s%s%s %s import - -o %s/dat.trace %s%s 2>%s/err",
			 pipe ? "cat " : "", pipe ? dat : "", pipe ? " |" : "", BIN, tmpdir,
			 pipe ? "" : "<", pipe ? "" : dat, tmpdir);
		assert_int_equal(sh(cmd), 0);
		a = slurp(tmp_path("dat.trace"));
		assert_non_null(strstr(a, "from <stdin> (trace-dat)"));
		/* its idle lines, which come last, are the records of the file */
		b = strstr(a, "\nidle ");
		assert_non_null(b);
		assert_string_equal(b + 1, records);
		free(a);
	}
	snprintf(cmd, sizeof(cmd), "%s run --trace %s --machine skl --format csv >%s/out 2>%s/err",
		 BIN, dat, tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 0);
	a = slurp(tmp_path("out"));
	snprintf(cmd, sizeof(cmd), "%s run --trace - --machine skl --format csv <%s >%s/out 2>%s/err",
		 BIN, dat, tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 0);
	b = slurp(tmp_path("out"));
	x = drop_trace_fields(a);
	y = drop_trace_fields(b);
	assert_true(strlen(x) > 500);
	assert_string_equal(x, y);
	free(x);
	free(y);
	free(a);
	free(b);
}

/* The trace.dat reader: a real trace.dat and its `trace-cmd report -t` text give the same
 * events and the same records. */
static void test_real_tracedat(void **state)
{
	struct import_options o = { 0 };
	struct machine m;
	struct sim_error err = { 0 };
	struct conv c, d;

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	o.machine = &m;
	real_trace_ok("trappy-trace_idle.dat", &o);
	convert_ok(REAL "trappy-trace_idle.report.txt", &o, false, &c);
	convert_ok(REAL "trappy-trace_idle.dat", &o, false, &d);
	assert_string_equal(c.records, d.records);
	assert_string_equal(js(d.json, "format"), "trace-dat");
	assert_int_equal(ji(d.json, "cpus"), 6);
	assert_int_equal(ji(d.json, "idle_periods"), ji(c.json, "idle_periods"));
	assert_int_equal(ji(d.json, "recorded.states.2.usage"), ji(c.json, "recorded.states.2.usage"));
	assert_int_equal(ji(d.json, "timer_census.timer_events"), 0); /* none in this trace */
	tracedat_stdin(d.records);
	conv_free(&d);
	conv_free(&c);
}

/*
 * A trace.dat whose timestamps reach 2^62 ns is refused like a text trace's (FORMAT.md):
 * a message with the file and the record's position, exit status 2, no output file.
 * The real trace.dat keeps each CPU's events in 4096-byte pages, at page-aligned file
 * offsets; a page starts with its base timestamp (u64, little-endian), the events' deltas
 * follow. CPU 0's first page is at byte 3,280,896 (libtracecmd: its first record at byte
 * 3,280,912, after the 16-byte page header) with base 162,534,217,520,800 ns, its first
 * event's own time. Adding 2^62 to that base moves CPU 0's events beyond 2^62; they sort
 * last, so the others are read first, and the first refused record is at byte 3,280,912.
 */
static void test_tracedat_huge_timestamp(void **state)
{
	const uint64_t base = 162534217520800ull, page = 3280896;
	char *dat, cmd[2048], *e;
	size_t len;
	uint64_t v = 0;
	FILE *f;
	int i;

	(void)state;
	f = fopen(REAL "trappy-trace_idle.dat", "rb");
	assert_non_null(f);
	dat = malloc(4 << 20);
	assert_non_null(dat);
	len = fread(dat, 1, 4 << 20, f);
	fclose(f);
	assert_true(len > page + 8);
	for (i = 7; i >= 0; i--)
		v = v << 8 | (unsigned char)dat[page + (size_t)i];
	assert_true(v == base); /* the layout above, or this test would patch something else */
	v += (uint64_t)1 << 62;
	for (i = 0; i < 8; i++)
		dat[page + (size_t)i] = (char)(v >> (8 * i));
	f = fopen(tmp_path("huge.dat"), "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(dat, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(dat);
	snprintf(cmd, sizeof(cmd), "%s import %s/huge.dat -o %s/huge.trace 2>%s/err", BIN, tmpdir,
		 tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 2);
	e = slurp(tmp_path("err"));
	assert_non_null(e);
	/* 162,534,217,520,800 + 4,611,686,018,427,387,904 */
	assert_non_null(strstr(e, "huge.dat: record at byte 3280912 (CPU 0): timestamp "
				  "4611848552644908704 ns is beyond 2^62 ns"));
	free(e);
	assert_null(slurp(tmp_path("huge.trace")));
	/* the same through run (converted on the fly) and on standard input */
	snprintf(cmd, sizeof(cmd), "%s run --trace %s/huge.dat --machine skl -o %s/r.txt 2>%s/err",
		 BIN, tmpdir, tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 2);
	assert_null(slurp(tmp_path("r.txt")));
	snprintf(cmd, sizeof(cmd), "%s import - -o %s/huge.trace <%s/huge.dat 2>%s/err", BIN,
		 tmpdir, tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 2);
	e = slurp(tmp_path("err"));
	assert_non_null(strstr(e, "<stdin>: record at byte 3280912 (CPU 0)"));
	free(e);
	assert_null(slurp(tmp_path("huge.trace")));
}

/* The group `test_import real` or `test_import tracedat`, or SKIPPED with the reason. */
static int run_real(const char *which)
{
	const struct CMUnitTest text[] = { cmocka_unit_test(test_real_traces) };
	const struct CMUnitTest dat[] = { cmocka_unit_test(test_real_tracedat),
					  cmocka_unit_test(test_tracedat_huge_timestamp) };
	bool is_dat = !strcmp(which, "tracedat");

	if (!real_traces()) {
		printf("SKIPPED: %s: " REAL "README.md not found (no shared folder next to the "
		       "clone; cmake -DIDLESIM_SHARED_DIR=DIR points elsewhere)\n",
		       is_dat ? "the trace.dat reader on real traces" : "the real kernel traces");
		return SKIPPED;
	}
	if (is_dat && !import_has_tracedat()) {
		printf("SKIPPED: the trace.dat reader: this build cannot read trace.dat "
		       "(IDLESIM_TRACEDAT is OFF: apt-get install libtracecmd-dev "
		       "libtraceevent-dev libtracefs-dev, then reconfigure)\n");
		return SKIPPED;
	}
	return is_dat ? cmocka_run_group_tests(dat, setup, teardown)
		      : cmocka_run_group_tests(text, setup, teardown);
}

/* ---- the command line ---- */

static void test_cli(void **state)
{
	char args[1024], *a, *b;

	(void)state;
	snprintf(args, sizeof(args),
		 "import tests/import/scenario.ftrace --machine skl -o %s/s.trace --format json",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	a = slurp(tmp_path("out"));
	assert_non_null(strstr(a, "\"schema\": \"idlesim-import/1\""));
	free(a);
	a = slurp(tmp_path("s.trace"));
	assert_non_null(strstr(a, "idle 0 100008010000 990000 ipi next_timer=97490000\n"));
	free(a);
	/* the converted trace and the kernel trace replay the same */
	snprintf(args, sizeof(args), "run --trace %s/s.trace --machine skl --format csv", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	a = slurp(tmp_path("out"));
	assert_int_equal(run_idlesim("run --trace tests/import/scenario.ftrace --machine skl --format csv"),
			 0);
	b = slurp(tmp_path("out"));
	assert_true(strlen(a) > 500);
	{
		char *x = drop_trace_fields(a), *y = drop_trace_fields(b);

		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	free(a);
	free(b);
	assert_int_equal(run_idlesim("run --trace tests/import/scenario.perf --machine skl"), 0);
	/* standard input, and the trace to standard output with the summary on stderr */
	assert_int_equal(run_idlesim("import - -o - < tests/import/scenario.report"), 0);
	a = slurp(tmp_path("out"));
	b = slurp(tmp_path("err"));
	assert_non_null(strstr(a, "idlesim-trace v1\ncpus 2\n"));
	assert_non_null(strstr(b, "idlesim import: <stdin> (trace-cmd)"));
	free(a);
	free(b);
	/* text summary */
	assert_int_equal(run_idlesim("import tests/import/scenario.html --machine skl"), 0);
	a = slurp(tmp_path("out"));
	assert_non_null(strstr(a, "cpu_idle_miss check: 5 events (above 1, below 4); 7 periods "
				  "compared: 5 agree, 2 disagree"));
	assert_non_null(strstr(a, "CPU 1 entry at 100003010000 ns, C8 for 8990000 ns: kernel hit, "
				  "idlesim below"));
	free(a);
	/* usage errors and bad input: exit 2, no output left behind */
	assert_int_equal(run_idlesim("import"), 2);
	assert_int_equal(run_idlesim("import tests/import/scenario.ftrace --input-format bogus"), 2);
	assert_int_equal(run_idlesim("import tests/import/scenario.ftrace --format xml"), 2);
	assert_int_equal(run_idlesim("import tests/import/scenario.ftrace --disable C1"), 2);
	snprintf(args, sizeof(args), "import tests/import/invalid/no-timestamp/input -o %s/x.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	assert_int_equal(access(tmp_path("x.trace"), F_OK), -1);
	a = slurp(tmp_path("err"));
	assert_non_null(
		strstr(a, "tests/import/invalid/no-timestamp/input:5:38: expected a timestamp"));
	free(a);
	assert_int_equal(
		run_idlesim("run --trace tests/import/invalid/cpu-id-mismatch/input --machine skl"), 2);
	a = slurp(tmp_path("err"));
	assert_non_null(
		strstr(a, "input:5:77: cpu_idle: cpu_id=0 but the event was recorded on CPU 1"));
	free(a);
	/* --skip-bad-lines warns on stderr */
	assert_int_equal(
		run_idlesim("import tests/import/with-bad-line.txt --skip-bad-lines"), 0);
	a = slurp(tmp_path("err"));
	assert_non_null(strstr(a, "warning: tests/import/with-bad-line.txt:6:"));
	free(a);
	/* run --trace of a perf trace without cpu_idle: no idle period, exit 2 */
	write_tmp("nocpuidle.perf",
		  "            perf  1234 [000]   1.000000000: PERF_RECORD_COMM: perf:1234/1234\n"
		  "         swapper     0 [000]   1.000000100:          power:cpu_frequency: "
		  "state=1 cpu_id=0\n");
	snprintf(args, sizeof(args), "run --trace %s --machine skl", tmp_path("nocpuidle.perf"));
	assert_int_equal(run_idlesim(args), 2);
	a = slurp(tmp_path("err"));
	assert_non_null(strstr(a, "nocpuidle.perf: no idle period found (1 events read, none of "
				  "them power:cpu_idle)"));
	free(a);
	/* skipping the one event line leaves no idle period: an error, not an empty trace */
	snprintf(args, sizeof(args),
		 "import tests/import/invalid/no-timestamp/input --skip-bad-lines -o %s/x.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	assert_int_equal(access(tmp_path("x.trace"), F_OK), -1);
	a = slurp(tmp_path("err"));
	assert_non_null(
		strstr(a, "warning: tests/import/invalid/no-timestamp/input:5:38: expected"));
	assert_non_null(strstr(a, "tests/import/invalid/no-timestamp/input: no idle period found "
				  "(0 events read, none of them power:cpu_idle)"));
	free(a);
	assert_int_equal(run_idlesim("help import"), 0);
	a = slurp(tmp_path("out"));
	assert_non_null(strstr(a, "--skip-bad-lines"));
	free(a);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dialects),
		cmocka_unit_test(test_latency_us),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_perf_mixed),
		cmocka_unit_test(test_disabled_states),
		cmocka_unit_test(test_cli),
	};

	if (argc == 2 && (!strcmp(argv[1], "real") || !strcmp(argv[1], "tracedat")))
		return run_real(argv[1]);
	return cmocka_run_group_tests(tests, setup, teardown);
}
