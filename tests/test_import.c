// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_import.c - kernel-trace import (sim/import*.c) against traces/FORMAT.md, "Importing
 * kernel traces".
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
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/alloc.h"
#include "sim/import/import.h"
#include "sim/machine/machine.h"
#include "sim/trace/trace.h"

#define FIX SRC "/tests/import/"
#define REAL IDLESIM_SHARED_DIR "/traces/real/"

/* ---- helpers ---- */

struct conv {
	int rc;
	struct sim_error err;
	char *trace;   /* the converted file */
	char *records; /* its idle lines */
	char *summary; /* JSON */
	json_t *json;
	unsigned long long bad;
	char warning[320];
};

static void conv_free(struct conv *c)
{
	free(c->trace);
	free(c->records);
	free(c->summary);
	json_decref(c->json);
	memset(c, 0, sizeof(*c));
}

/* Convert `path`: in one pass (import_open_convert) or two (import_open, a record source). */
static void convert(const char *path, const struct import_options *o, bool two, struct conv *c)
{
	struct import_options def = { 0 };
	size_t tn = 0, sn = 0;
	FILE *tf, *sf;
	struct importer *im;
	json_error_t je;
	char *p, *q;

	memset(c, 0, sizeof(*c));
	tf = open_memstream(&c->trace, &tn);
	sf = open_memstream(&c->summary, &sn);
	im = two ? import_open(path, o ? o : &def, &c->err)
		 : import_open_convert(path, o ? o : &def, &c->err);
	c->rc = -1;
	if (im) {
		c->rc = import_convert(im, tf, &c->err);
		if (!c->rc)
			assert_int_equal(import_write_summary(sf, im, true), 0);
		c->bad = import_bad_lines(im);
		if (import_warning(im, 0))
			snprintf(c->warning, sizeof(c->warning), "%s", import_warning(im, 0));
		import_close(im);
	}
	fclose(tf);
	fclose(sf);
	if (!c->rc)
		c->json = json_loads(c->summary, 0, &je);
	c->records = calloc(1, tn + 1);
	for (p = c->trace, q = c->records; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (!strncmp(p, "idle ", 5)) {
			memcpy(q, p, n);
			q += n;
		}
		p += n;
	}
}

static void convert_ok(const char *path, const struct import_options *o, bool two, struct conv *c)
{
	convert(path, o, two, c);
	if (c->rc) {
		sim_error_print(stderr, &c->err);
		fail();
	}
	assert_non_null(c->json);
}

static json_int_t ji(json_t *o, const char *path)
{
	char buf[256], *save = NULL, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	if (!json_is_integer(o))
		fail_msg("%s is not an integer", path);
	return json_integer_value(o);
}

static const char *js(json_t *o, const char *path)
{
	char buf[256], *save = NULL, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	if (!json_is_string(o))
		fail_msg("%s is not a string", path);
	return json_string_value(o);
}

static json_t *jget(json_t *o, const char *path)
{
	char buf[256], *save = NULL, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	return o;
}

static bool real_traces(void)
{
	return access(REAL "README.md", R_OK) == 0;
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("import");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

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

/* ---- small hand traces ---- */

#define HDR2 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 9/9   #P:2\n#\n"
#define HDR1 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 9/9   #P:1\n#\n"

static void conv_text(const char *text, const struct import_options *o, struct conv *c)
{
	struct conv two;

	convert_ok(write_tmp("t.ftrace", text), o, false, c);
	convert_ok(tmp_path("t.ftrace"), o, true, &two);
	assert_string_equal(c->trace, two.trace);
	conv_free(&two);
}

/* An event line of the idle task (L) or of a task (T) on CPU `cpu` at 1 s + `us` (3 digits). */
#define L(cpu, us, ev, pay) \
	"          <idle>-0       [00" #cpu "] d..1.   1.000" #us ": " ev ": " pay "\n"
#define T(cpu, us, ev, pay) \
	"           taskA-100     [00" #cpu "] d..2.   1.000" #us ": " ev ": " pay "\n"
#define ENTRY(cpu, us, state) L(cpu, us, "cpu_idle", "state=" #state " cpu_id=" #cpu)
#define EXIT(cpu, us) L(cpu, us, "cpu_idle", "state=4294967295 cpu_id=" #cpu)
#define TO_TASK(cpu, us) \
	L(cpu, us, "sched_switch", "prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R " \
				   "==> next_comm=taskA next_pid=100 next_prio=120")
#define TO_IDLE(cpu, us) \
	L(cpu, us, "sched_switch", "prev_comm=taskA prev_pid=100 prev_prio=120 prev_state=S " \
				   "==> next_comm=swapper next_pid=0 next_prio=120")

/* What ended each opportunity (the first wake-cause event after the entry). */
static void test_wake_causes(void **state)
{
	struct conv c;

	(void)state;
	/* arm64: the timer interrupt, then the tick's hrtimer: tick (replayed as timer) */
	conv_text(HDR2 ENTRY(0, 100, 1)
		  EXIT(0, 200)
		  L(0, 201, "irq_handler_entry", "irq=19 name=arch_timer")
		  L(0, 202, "hrtimer_expire_entry",
		    "hrtimer=00000000aa function=tick_sched_timer now=1000200000")
		  TO_TASK(0, 210),
		  NULL, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 timer\n"
				       "idle 1 1000100000 110001 irq\n");
	assert_int_equal(ji(c.json, "wake_causes.tick"), 1);
	assert_int_equal(ji(c.json, "idle_throughout"), 1); /* CPU 1: no event at all */
	assert_non_null(strstr(c.trace, "sleep length unknown (no timer events)"));
	conv_free(&c);
	/* the timer interrupt alone (no timer events recorded): timer */
	conv_text(HDR1 ENTRY(0, 100, 1)
		  EXIT(0, 200)
		  L(0, 201, "irq_handler_entry", "irq=19 name=arch_timer") TO_TASK(0, 210),
		  NULL, &c);
	assert_int_equal(ji(c.json, "wake_causes.timer"), 1);
	conv_free(&c);
	/* an interrupt taken inside the idle state (before the exit event): irq; x86 vectors */
	conv_text(HDR1 ENTRY(0, 100, 1)
		  L(0, 150, "irq_handler_entry", "irq=30 name=eth0")
		  EXIT(0, 200) TO_TASK(0, 210)
		  ENTRY(0, 300, 1)
		  EXIT(0, 400)
		  L(0, 401, "local_timer_entry", "vector=236")
		  L(0, 402, "hrtimer_expire_entry",
		    "hrtimer=00000000bb function=hrtimer_wakeup now=1000400000")
		  TO_TASK(0, 410) ENTRY(0, 500, 1)
		  EXIT(0, 600)
		  L(0, 601, "reschedule_entry", "vector=253") TO_TASK(0, 610)
		  ENTRY(0, 700, 1)
		  EXIT(0, 800) TO_TASK(0, 810),
		  NULL, &c);
	/* [300, 400) was ended by an hrtimer (hrtimer_wakeup): timer=hrtimer */
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq\n"
				       "idle 0 1000300000 100000 timer timer=hrtimer\n"
				       "idle 0 1000500000 100000 ipi\n"
				       "idle 0 1000700000 100000 irq\n");
	assert_int_equal(ji(c.json, "wake_causes.unknown"), 1);
	assert_non_null(strstr(c.summary, "\"unknown\": 1"));
	conv_free(&c);
	/* a wakeup sent from another CPU while this one idles: ipi */
	conv_text(HDR2 ENTRY(0, 100, 1)
		  T(1, 150, "sched_wakeup", "comm=taskB pid=7 prio=120 target_cpu=000")
		  EXIT(0, 200) TO_TASK(0, 210),
		  NULL, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 ipi\n");
	assert_int_equal(ji(c.json, "per_cpu.1.opportunities"), 0);
	conv_free(&c);
}

/* Without sched_switch nothing says a task ran: periods are not merged. */
static void test_no_merging(void **state)
{
	struct conv c;

	(void)state;
	conv_text(HDR2 ENTRY(0, 100, 1)
		  EXIT(0, 200)
		  ENTRY(0, 300, 1)
		  EXIT(0, 400)
		  ENTRY(1, 500, 1)
		  EXIT(1, 600),
		  NULL, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq\n"
				       "idle 0 1000300000 100000 irq\n"
				       "idle 1 1000500000 100000 irq\n");
	assert_string_equal(js(c.json, "merging"), "off");
	assert_int_equal(ji(c.json, "merged_periods"), 0);
	assert_int_equal(ji(c.json, "recorded.states.1.usage"), 3);
	assert_true(json_is_null(jget(c.json, "recorded.states.1.above")));
	assert_string_equal(js(c.json, "recorded.states.1.name"), "state1");
	assert_true(json_is_null(jget(c.json, "recorded.machine")));
	conv_free(&c);
}

/* Unpaired entries and exits, with their reasons; lost events. */
static void test_unpaired(void **state)
{
	struct conv c;

	(void)state;
	conv_text(HDR2 TO_TASK(1, 050) EXIT(1, 060)
		  ENTRY(0, 100, 1)
		  ENTRY(0, 150, 2)
		  EXIT(0, 200)
		  TO_TASK(0, 210)
		  "CPU:0 [LOST 12 EVENTS]\n"
		  ENTRY(0, 300, 1)
		  TO_TASK(0, 350)
		  ENTRY(0, 400, 1)
		  "CPU:0 [LOST 3 EVENTS]\n"
		  ENTRY(0, 500, 1)
		  L(1, 900, "irq_handler_entry", "irq=1 name=x"),
		  NULL, &c);
	/* CPU 0: 100 entry followed by 150 entry; 150-200 complete; 300 entry then a task; 400
	 * entry then lost events; 500 entry, idle until the end (900). CPU 1: exit at 60 after
	 * a task ran: an exit without entry, not idle since the start. */
	assert_string_equal(c.records, "idle 0 1000150000 50000 irq\n"
				       "idle 0 1000500000 400001 irq\n");
	assert_int_equal(ji(c.json, "unpaired.reasons.entry_followed_by_entry"), 1);
	assert_int_equal(ji(c.json, "unpaired.reasons.task_ran_before_exit"), 1);
	assert_int_equal(ji(c.json, "unpaired.reasons.events_lost"), 1);
	assert_int_equal(ji(c.json, "unpaired.reasons.trace_ended_idle"), 1);
	assert_int_equal(ji(c.json, "unpaired.reasons.exit_without_entry"), 1);
	assert_int_equal(ji(c.json, "unpaired.reasons.trace_started_idle"), 0);
	assert_int_equal(ji(c.json, "unpaired.entries"), 4);
	assert_int_equal(ji(c.json, "unpaired.exits"), 1);
	assert_int_equal(ji(c.json, "lost.lines"), 2);
	conv_free(&c);
	/* a second exit (its entry lost): the opportunity ends at the first, no merging across */
	conv_text(HDR1 TO_IDLE(0, 050)
		  ENTRY(0, 100, 1)
		  EXIT(0, 200)
		  EXIT(0, 250)
		  ENTRY(0, 300, 1)
		  EXIT(0, 400) TO_TASK(0, 410),
		  NULL, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq\n"
				       "idle 0 1000300000 100000 irq\n");
	assert_int_equal(ji(c.json, "unpaired.reasons.exit_without_entry"), 1);
	assert_int_equal(ji(c.json, "merged_periods"), 0);
	conv_free(&c);
	/* the last idle event is an entry, but a task runs after it: not idle until the end */
	conv_text(HDR1 ENTRY(0, 100, 1) EXIT(0, 200) TO_TASK(0, 210) ENTRY(0, 300, 1)
			  TO_TASK(0, 400),
		  NULL, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq\n");
	assert_int_equal(ji(c.json, "unpaired.reasons.task_ran_before_exit"), 1);
	assert_int_equal(ji(c.json, "truncated_at_end"), 0);
	conv_free(&c);
}

/*
 * Timer kinds: hrtimer_* events are hrtimers, timer_* events timer-wheel timers (HZ 1000,
 * times in us after 1 s). A wheel timer W is armed at 0 for 5 jiffies: due at 5000; an
 * hrtimer H1 for 300 (before the first tick expiry the hrtimer clock is trace time).
 *   [100, 300): H1 expires and a task runs: timer, an hrtimer, W behind it at 5000 - 100 ->
 *               "idle 0 1000100000 200000 timer timer=hrtimer next_wheel=4900000".
 *   H2 armed at 320 for 2000. [400, 500): irq; next timer H2, 2000 - 400 = 1600 us, an
 *               hrtimer; W at 5000 - 400 = 4600 us -> "... irq next_timer=1600000
 *               timer=hrtimer next_wheel=4600000".
 *   [700, 900): W's expiry event wakes it: a wheel timer -> "idle 0 1000700000 200000 timer".
 * Two of the three have an hrtimer first. Then an hrtimer and a wheel timer due together
 * (both at 5000): the earliest wheel timer is the next timer, a plain wheel record.
 */
static void test_timer_kinds(void **state)
{
	struct import_options o = { 0 };
	struct conv c;

	(void)state;
	o.hz = 1000;
	conv_text(HDR1 T(0, 000, "timer_start",
		    "timer=ffff01 function=f expires=4294937300 [timeout=5] cpu=0 idx=1 flags=")
		  T(0, 010, "hrtimer_start",
		    "hrtimer=ffff02 function=hrtimer_wakeup expires=1000300000 "
		    "softexpires=1000300000 mode=ABS")
		  TO_IDLE(0, 050)
		  ENTRY(0, 100, 1)
		  EXIT(0, 300)
		  L(0, 301, "hrtimer_expire_entry",
		    "hrtimer=ffff02 function=hrtimer_wakeup now=1000300000")
		  TO_TASK(0, 310)
		  T(0, 320, "hrtimer_start",
		    "hrtimer=ffff03 function=hrtimer_wakeup expires=1002000000 "
		    "softexpires=1002000000 mode=ABS")
		  TO_IDLE(0, 330)
		  ENTRY(0, 400, 1)
		  EXIT(0, 500)
		  L(0, 501, "irq_handler_entry", "irq=5 name=eth0")
		  TO_TASK(0, 510) TO_IDLE(0, 600)
		  ENTRY(0, 700, 1)
		  EXIT(0, 900)
		  L(0, 901, "timer_expire_entry", "timer=ffff01 function=f now=4294937301")
		  TO_TASK(0, 910),
		  &o, &c);
	assert_string_equal(c.records,
			    "idle 0 1000100000 200000 timer timer=hrtimer next_wheel=4900000\n"
			    "idle 0 1000400000 100000 irq next_timer=1600000 timer=hrtimer "
			    "next_wheel=4600000\n"
			    "idle 0 1000700000 200000 timer\n");
	assert_int_equal(ji(c.json, "sleep_length.opportunities_hrtimer_first"), 2);
	assert_int_equal(ji(c.json, "sleep_length.opportunities_with_next_timer"), 1);
	conv_free(&c);

	conv_text(HDR1 T(0, 000, "timer_start",
		    "timer=ffff01 function=f expires=4294937300 [timeout=5] cpu=0 idx=1 flags=")
		  T(0, 010, "hrtimer_start",
		    "hrtimer=ffff02 function=hrtimer_wakeup expires=1005000000 "
		    "softexpires=1005000000 mode=ABS")
		  TO_IDLE(0, 050)
		  ENTRY(0, 100, 1)
		  EXIT(0, 200)
		  L(0, 201, "irq_handler_entry", "irq=5 name=eth0") TO_TASK(0, 210),
		  &o, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq next_timer=4900000\n");
	assert_int_equal(ji(c.json, "sleep_length.opportunities_hrtimer_first"), 0);
	conv_free(&c);
}

/*
 * Idle when the trace began (FORMAT.md): the record runs from the trace's start to the CPU's
 * first exit and is counted as started_idle, not as an opportunity, even when no task runs
 * before the next entry (no merging: its entry is unknown). Start = 100 (the first event,
 * unused); CPU 0's first idle event is the exit at 200, then the tick, re-entry at 210 with
 * no task between, exit 400 by an irq, a task:
 *   "idle 0 1000100000 100000 timer" (the tick: timer), started idle;
 *   "idle 0 1000210000 190000 irq", the one opportunity, nothing merged.
 */
static void test_started_idle(void **state)
{
	struct conv c;

	(void)state;
	conv_text(HDR1 L(0, 100, "cpu_frequency", "state=800000 cpu_id=0")
		  EXIT(0, 200)
		  L(0, 201, "hrtimer_expire_entry",
		    "hrtimer=00000000aa function=tick_sched_timer now=1000200000")
		  ENTRY(0, 210, 1)
		  EXIT(0, 400)
		  L(0, 401, "irq_handler_entry", "irq=30 name=eth0")
		  TO_TASK(0, 410),
		  NULL, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 timer\n"
				       "idle 0 1000210000 190000 irq\n");
	assert_int_equal(ji(c.json, "started_idle"), 1);
	assert_int_equal(ji(c.json, "opportunities"), 1);
	assert_int_equal(ji(c.json, "merged_periods"), 0);
	assert_int_equal(ji(c.json, "idle_periods"), 1);
	assert_int_equal(ji(c.json, "wake_causes.irq"), 1);
	assert_int_equal(ji(c.json, "wake_causes.tick"), 0);
	assert_int_equal(ji(c.json, "unpaired.reasons.trace_started_idle"), 1);
	conv_free(&c);
}

/* Sleep lengths: timer_list from jiffies, hrtimers through the tick's clock offset, timers
 * that expired inside a merged opportunity left out. */
static void test_sleep_lengths(void **state)
{
	struct import_options o = { 0 };
	struct conv c;

	(void)state;
	o.hz = 1000;
	conv_text(HDR2 T(0, 000, "timer_start",
		    "timer=ffff01 function=f expires=4294937300 [timeout=10] cpu=0 idx=1 flags=")
		  T(0, 010, "hrtimer_start",
		    "hrtimer=ffff02 function=hrtimer_wakeup expires=1000300000 "
		    "softexpires=1000300000 mode=ABS")
		  TO_IDLE(0, 050)
		  ENTRY(0, 100, 1)
		  EXIT(0, 300)
		  L(0, 301, "hrtimer_expire_entry",
		    "hrtimer=ffff02 function=hrtimer_wakeup now=1000300000")
		  ENTRY(0, 310, 1)
		  EXIT(0, 400)
		  L(0, 401, "irq_handler_entry", "irq=5 name=eth0") TO_TASK(0, 410)
		  /* the tick's expiry: now= is 50 us behind the trace clock */
		  L(0, 500, "hrtimer_expire_entry",
		    "hrtimer=ffff03 function=tick_sched_timer now=1000450000")
		  T(0, 510, "hrtimer_start",
		    "hrtimer=ffff04 function=it_real_fn expires=1002000000 "
		    "softexpires=1002000000 mode=ABS")
		  ENTRY(0, 600, 1)
		  EXIT(0, 700)
		  L(0, 701, "irq_handler_entry", "irq=5 name=eth0") TO_TASK(0, 710)
		  L(1, 800, "irq_handler_entry", "irq=5 name=eth0"),
		  &o, &c);
	/* [100, 400): hrtimer at 300 fired inside (no task), irq at 400; the timer_list timer
	 * (10 jiffies of 1 ms from 0) is due at 10000 -> next_timer 9900 us. [600, 700): the
	 * hrtimer armed at 510 is due at 2000 + 50 -> 1450 us, an hrtimer first: the earliest
	 * wheel timer is the timer_list one, 10000 - 600 = 9400 us. */
	assert_string_equal(c.records,
			    "idle 0 1000100000 300000 irq next_timer=9900000\n"
			    "idle 0 1000600000 100000 irq next_timer=1450000 timer=hrtimer "
			    "next_wheel=9400000\n");
	assert_int_equal(ji(c.json, "sleep_length.opportunities_hrtimer_first"), 1);
	assert_int_equal(ji(c.json, "hz"), 1000);
	assert_string_equal(js(c.json, "hz_from"), "--hz");
	conv_free(&c);
}

/* Line shapes: PREEMPT_RT flags, task names with blanks, brackets and dashes, the TGID
 * column, trace-cmd's --ts-diff, CRLF, header lines, no flags. */
static void test_line_shapes(void **state)
{
	struct conv c;

	(void)state;
	conv_text("version = 6\r\nCPU 1 is empty\r\ncpus=2\r\n"
		  " rs:main Q:Reg-238   [000] .....13   1.000100: cpu_idle:  state=1 cpu_id=0\r\n"
		  "a [1] b-12 (-----) [000] d..1   1.000200: cpu_idle: state=4294967295 "
		  "cpu_id=0\r\n"
		  "     <...>-7     [000]   1.000300: (+100) sched_switch: a:7 [120] R ==> "
		  "b:9 [120]\r\n"
		  "\r\n",
		  NULL, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq\n"
				       "idle 1 1000100000 200001 irq\n");
	assert_string_equal(js(c.json, "format"), "trace-cmd");
	conv_free(&c);
}

/* A CPU count that comes after events of higher CPUs (found by fuzzing): lines are checked
 * against the count given so far, both ways through the trace agree. */
static void test_late_cpu_count(void **state)
{
	struct import_options o = { 0 };
	struct conv c;

	(void)state;
	o.skip_bad_lines = true;
	conv_text("# tracer: nop\n" ENTRY(5, 100, 1) "cpus=2\n"
		  EXIT(5, 200),
		  &o, &c);
	assert_int_equal(ji(c.json, "cpus"), 6);
	assert_int_equal(ji(c.json, "bad_lines"), 1);
	assert_non_null(strstr(c.records, "idle 5 1000100000 1 irq\n"));
	conv_free(&c);
}

/* --skip-bad-lines: malformed lines become counted warnings; the rest is unchanged. */
static void test_skip_bad_lines(void **state)
{
	struct import_options o = { 0 };
	char *text = slurp(FIX "scenario.ftrace"), *bad, *expected = slurp(FIX "scenario.expected");
	struct conv c;
	size_t n = strlen(text);

	(void)state;
	bad = malloc(n + 512);
	/* three bad lines after the header (line 13 on) */
	snprintf(bad, n + 512, "%.*s%s%s%s%s", (int)(strstr(text, "           taskA") - text), text,
		 "garbage line\n",
		 "          <idle>-0       [000] d..1.   100.000001: cpu_idle: state=x cpu_id=0\n",
		 "          <idle>-0       [000] d..1.   100.000001: sched_switch: nonsense\n",
		 strstr(text, "           taskA"));
	write_tmp("bad.ftrace", bad);
	convert(tmp_path("bad.ftrace"), &o, false, &c);
	assert_int_equal(c.rc, -1);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	assert_int_equal(c.err.line, 13);
	assert_int_equal(c.err.column, 1);
	conv_free(&c);
	o.skip_bad_lines = true;
	convert_ok(tmp_path("bad.ftrace"), &o, false, &c);
	assert_string_equal(c.records, expected);
	assert_int_equal(c.bad, 3);
	assert_int_equal(ji(c.json, "bad_lines"), 3);
	assert_int_equal(json_array_size(jget(c.json, "warnings")), 3);
	assert_non_null(strstr(c.warning, "bad.ftrace:13:1: not an event line"));
	assert_non_null(strstr(js(c.json, "warnings.1"), ":14:68: cpu_idle: state="));
	assert_non_null(strstr(js(c.json, "warnings.2"), ":15:"));
	assert_int_equal(ji(c.json, "events_read"), 54);
	conv_free(&c);
	free(bad);
	free(text);
	free(expected);
}

/* A line longer than the limit: an error naming it, or skipped. */
static void test_long_line(void **state)
{
	struct import_options o = { 0 };
	size_t n = (1 << 20) + 100;
	char *text = malloc(n + 400);
	struct conv c;

	(void)state;
	strcpy(text, HDR2 ENTRY(0, 100, 1) "x");
	memset(text + strlen(text), 'y', n);
	strcpy(text + strlen(HDR2) + strlen(ENTRY(0, 100, 1)) + 1 + n,
	       "\n" EXIT(0, 200));
	write_tmp("long.ftrace", text);
	convert(tmp_path("long.ftrace"), &o, false, &c);
	assert_int_equal(c.rc, -1);
	assert_int_equal(c.err.line, 6);
	assert_string_equal(c.err.text, "line longer than 1 MiB");
	conv_free(&c);
	o.skip_bad_lines = true;
	convert_ok(tmp_path("long.ftrace"), &o, false, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq\n"
				       "idle 1 1000100000 100001 irq\n");
	conv_free(&c);
	free(text);
}

/*
 * Every case of tests/import/invalid: the error of expected-error ("LINE:COLUMN: message"
 * for text traces, the message alone for the trace.dat cases dat-*, whose messages carry a
 * byte offset), in both ways.
 */
static void test_invalid_corpus(void **state)
{
	DIR *d = opendir(FIX "invalid");
	struct dirent *e;
	int n = 0, two;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512], want[512], got[700], *expected, *nl;
		struct conv c;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), FIX "invalid/%s/expected-error", e->d_name);
		expected = slurp(path);
		assert_non_null(expected);
		nl = strchr(expected, '\n');
		if (nl)
			*nl = '\0';
		snprintf(want, sizeof(want), "%s", expected);
		snprintf(path, sizeof(path), FIX "invalid/%s/input", e->d_name);
		for (two = 0; two < 2; two++) {
			convert(path, NULL, two, &c);
			/* a text trace's errors have a line and column; trace.dat's a byte offset */
			if (c.err.line)
				snprintf(got, sizeof(got), "%d:%d: %s", c.err.line, c.err.column,
					 c.err.text);
			else
				snprintf(got, sizeof(got), "%s", c.err.text);
			if (c.rc != -1 || c.err.code != SIM_ERR_INPUT || strcmp(got, want))
				fail_msg("case %s: want %s\n got %s", e->d_name, want, got);
			assert_string_equal(c.err.source, path);
			conv_free(&c);
		}
		free(expected);
		n++;
	}
	closedir(d);
	assert_true(n >= 25);
}

static void test_not_traces(void **state)
{
	struct import_options o = { 0 };
	struct conv c;

	(void)state;
	convert(write_tmp("empty", ""), NULL, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(c.err.text, "not a kernel trace"));
	conv_free(&c);
	convert(write_tmp("native.trace", "idlesim-trace v1\ncpus 1\n"), NULL, false, &c);
	assert_non_null(strstr(c.err.text, "idlesim trace already"));
	conv_free(&c);
	convert(write_tmp("page.html", "<!DOCTYPE html>\n<html><body>hi</body></html>\n"), NULL,
		false, &c);
	assert_non_null(strstr(c.err.text, "trace-data"));
	conv_free(&c);
	convert(tmp_path("nothing"), NULL, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_IO);
	conv_free(&c);
	/* forcing a format that does not fit */
	o.format = IMPORT_PERF;
	convert(FIX "scenario.ftrace", &o, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	assert_string_equal(c.err.text, "perf script event names are SYSTEM:EVENT:");
	conv_free(&c);
	o.format = IMPORT_TRACE_DAT;
	convert(FIX "scenario.ftrace", &o, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	conv_free(&c);
	o.format = IMPORT_SYSTRACE;
	convert_ok(FIX "scenario.html", &o, false, &c);
	conv_free(&c);
	assert_int_equal(import_probe(FIX "scenario.perf"), IMPORT_PERF);
	assert_int_equal(import_probe(SRC "/traces/demo.trace"), IMPORT_NATIVE);
	assert_int_equal(import_probe(tmp_path("nothing")), IMPORT_AUTO);
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

/* Out of memory anywhere: a clean NOMEM error, nothing leaked (valgrind, ASan). */
static void test_out_of_memory(void **state)
{
	long n;
	int ok = 0;

	(void)state;
	for (n = 0; n < 200 && !ok; n++) {
		struct conv c;

		sim_alloc_fail_after(n);
		convert(FIX "scenario.report", NULL, n % 2, &c);
		sim_alloc_fail_after(-1);
		if (c.rc == 0)
			ok = 1;
		else
			assert_int_equal(c.err.code, SIM_ERR_NOMEM);
		conv_free(&c);
	}
	assert_true(ok);
}

/* Mutated scenarios never crash: each is imported or rejected with a position. */
static void test_mutations(void **state)
{
	char *text = slurp(FIX "scenario.report");
	size_t n = strlen(text), i;
	unsigned long long seed = 42;
	int k, accepted = 0;

	(void)state;
	for (k = 0; k < 300; k++) {
		char *m = malloc(n + 64);
		struct conv c;
		struct import_options o = { 0 };

		memcpy(m, text, n + 1);
		for (i = 0; i < 1 + (size_t)k % 8; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			m[(seed >> 33) % n] = "0123456789 :[]=.-\nx\t\xff"[(seed >> 20) % 22];
		}
		write_tmp("mut.report", m);
		o.skip_bad_lines = k % 2;
		convert(tmp_path("mut.report"), &o, k % 3 == 0, &c);
		if (c.rc == 0)
			accepted++;
		else
			assert_true(c.err.code == SIM_ERR_INPUT);
		conv_free(&c);
		free(m);
	}
	assert_true(accepted > 30);
	free(text);
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

/* ---- the timer census ---- */

/*
 * tests/import/census.ftrace, 48 events on 2 CPUs from 10.000000 s (times below in us after
 * 10 s; hrtimer now= equals the event time, so hrtimer expiries need no clock offset; HZ 250
 * given, so a jiffy is 4 ms). Timers: A tick_sched_timer (CPU 0, mode ABS_PINNED_HARD), B
 * delayed_work_timer_fn (CPU 0, wheel, flags=D|P), C hrtimer_wakeup (CPU 1, mode ABS), D
 * tcp_delack_timer (CPU 1, wheel), E process_timeout (CPU 1, wheel), F an hrtimer never
 * armed in the trace. Each expiry is preceded by a cancel of the same timer at the same
 * instant, as the kernel traces it; those cancels count as nothing.
 *
 *  CPU 0: 0 A armed for 4000 (timeout 4.000 ms); 10 B armed, timeout=250 jiffies (1000 ms);
 *         idle 20-4001, 4010-8001 (merged), 8310-12001, 12002-16001: 4 periods, each ended by
 *         A's expiry at 4000, 8000, 12000, 16000 -> A: expired 4, idle ended 4, period
 *         (4000, 4000, 4000) = 4.000 ms. At 8100 B is cancelled and armed again at once: a
 *         re-arm (rearmed 1, armed 2, cancelled 0), arm gap 8100 - 10 = 8.090 ms, timeout
 *         1000 ms both times. At 8200 A the same: rearmed 1, armed 2, arm gap 8200 - 0 =
 *         8.200 ms, timeouts 4.000 and 12000 - 8200 = 3.800 -> lower median 3.800 ms. At
 *         16100 F is cancelled, nothing follows: cancelled 1 under "(unknown)" (hrtimer).
 *  CPU 1: 1000 C armed for 6000 (5.000 ms); 1010 D armed, timeout=10 (40 ms); 1020 E armed,
 *         timeout=1 (4 ms). Idle 1040-5001 ended by E's expiry at 5000; 5002-6001 ended by
 *         C's at 6000; 6100 D cancelled, and the next timer event of CPU 1 is E's start at
 *         6200 (timeout=2, 8 ms; arm gap 6200 - 1020 = 5.180 ms): a cancel; idle 6310-14001
 *         ended by E's expiry at 14000 (period 14000 - 5000 = 9.000 ms). So E: armed 2,
 *         expired 2, idle ended 2, timeout lower median of (4, 8) = 4.000 ms; C: armed 1,
 *         expired 1, idle ended 1; D: armed 1, cancelled 1.
 *  Timer events: CPU 0 2 + 5 + 4 (A) + 3 (B) + 1 (F) = 15, CPU 1 4 (C) + 2 (D) + 5 (E) = 11.
 *  Machine-wide rows: the same numbers per callback (each on one CPU), sorted by idle
 *  periods ended: tick_sched_timer 4, process_timeout 2, hrtimer_wakeup 1, then by expiries
 *  and arms: delayed_work_timer_fn (0, 2), tcp_delack_timer (0, 1), (unknown) (0, 0).
 */
static const struct census_want {
	int cpu; /* -1: machine-wide */
	const char *fn, *kind, *flags;
	long armed, expired, cancelled, rearmed, idle;
	long long period_ns, arm_ns, timeout_ns; /* -1: none */
} census_want[] = {
	{ -1, "tick_sched_timer", "hrtimer", "P", 2, 4, 0, 1, 4, 4000000, 8200000, 3800000 },
	{ -1, "process_timeout", "wheel", "-", 2, 2, 0, 0, 2, 9000000, 5180000, 4000000 },
	{ -1, "hrtimer_wakeup", "hrtimer", "-", 1, 1, 0, 0, 1, -1, -1, 5000000 },
	{ -1, "delayed_work_timer_fn", "wheel", "DP", 2, 0, 0, 1, 0, -1, 8090000, 1000000000 },
	{ -1, "tcp_delack_timer", "wheel", "-", 1, 0, 1, 0, 0, -1, -1, 40000000 },
	{ -1, "(unknown)", "hrtimer", "-", 0, 0, 1, 0, 0, -1, -1, -1 },
	{ 0, "tick_sched_timer", "hrtimer", "P", 2, 4, 0, 1, 4, 4000000, 8200000, 3800000 },
	{ 0, "delayed_work_timer_fn", "wheel", "DP", 2, 0, 0, 1, 0, -1, 8090000, 1000000000 },
	{ 0, "(unknown)", "hrtimer", "-", 0, 0, 1, 0, 0, -1, -1, -1 },
	{ 1, "process_timeout", "wheel", "-", 2, 2, 0, 0, 2, 9000000, 5180000, 4000000 },
	{ 1, "hrtimer_wakeup", "hrtimer", "-", 1, 1, 0, 0, 1, -1, -1, 5000000 },
	{ 1, "tcp_delack_timer", "wheel", "-", 1, 0, 1, 0, 0, -1, -1, 40000000 },
};

static void census_median(json_t *e, const char *key, long long want)
{
	json_t *v = json_object_get(e, key);

	if (want < 0)
		assert_true(json_is_null(v));
	else
		assert_int_equal(json_integer_value(v), want);
}

static void test_census_json(void **state)
{
	struct import_options o = { 0 };
	size_t i, nf = 0, nc = 0;
	int two;

	(void)state;
	o.hz = 250;
	for (two = 0; two < 2; two++) {
		struct conv c;

		convert_ok(FIX "census.ftrace", &o, two, &c);
		assert_int_equal(ji(c.json, "timer_census.timer_events"), 26);
		assert_int_equal(ji(c.json, "timer_census.median_of_at_most"), 64);
		assert_int_equal(ji(c.json, "period_wake_causes.tick"), 4);
		assert_int_equal(ji(c.json, "period_wake_causes.timer"), 3);
		nf = nc = 0;
		for (i = 0; i < sizeof(census_want) / sizeof(census_want[0]); i++) {
			const struct census_want *w = &census_want[i];
			json_t *e = jget(c.json, w->cpu < 0 ? "timer_census.functions"
							    : "timer_census.per_cpu");
			char flags[4];

			e = json_array_get(e, w->cpu < 0 ? nf++ : nc++);
			assert_non_null(e);
			if (w->cpu >= 0)
				assert_int_equal(ji(e, "cpu"), w->cpu);
			else
				assert_null(json_object_get(e, "cpu"));
			assert_string_equal(js(e, "function"), w->fn);
			assert_string_equal(js(e, "kind"), w->kind);
			snprintf(flags, sizeof(flags), "%s%s",
				 json_is_true(json_object_get(e, "deferrable")) ? "D" : "",
				 json_is_true(json_object_get(e, "pinned")) ? "P" : "");
			assert_string_equal(flags[0] ? flags : "-", w->flags);
			assert_int_equal(ji(e, "armed"), w->armed);
			assert_int_equal(ji(e, "expired"), w->expired);
			assert_int_equal(ji(e, "cancelled"), w->cancelled);
			assert_int_equal(ji(e, "rearmed"), w->rearmed);
			assert_int_equal(ji(e, "idle_periods_ended"), w->idle);
			census_median(e, "period_ns", w->period_ns);
			census_median(e, "arm_interval_ns", w->arm_ns);
			census_median(e, "timeout_ns", w->timeout_ns);
		}
		assert_int_equal(json_array_size(jget(c.json, "timer_census.functions")), nf);
		assert_int_equal(json_array_size(jget(c.json, "timer_census.per_cpu")), nc);
		conv_free(&c);
	}
}

/* The same numbers as text, each row a line of at most 160 columns. */
static void test_census_text(void **state)
{
	char *out, *p, line[256];
	size_t i;

	(void)state;
	assert_int_equal(run_idlesim("import tests/import/census.ftrace --hz 250"), 0);
	out = slurp(tmp_path("out"));
	assert_non_null(out);
	assert_non_null(strstr(out, "timer census: 26 timer events, 6 callbacks, 6 (CPU, "
				    "callback) pairs; sorted by idle periods ended"));
	p = strstr(out, "  CPU  callback ");
	assert_non_null(p);
	for (i = 0; i < sizeof(census_want) / sizeof(census_want[0]); i++) {
		const struct census_want *w = &census_want[i];
		char cpu[8], ms[3][16];
		long long v[3] = { w->period_ns, w->arm_ns, w->timeout_ns };
		int k;

		snprintf(cpu, sizeof(cpu), w->cpu < 0 ? "all" : "%d", w->cpu);
		for (k = 0; k < 3; k++)
			if (v[k] < 0)
				snprintf(ms[k], sizeof(ms[k]), "%11s", "-");
			else
				snprintf(ms[k], sizeof(ms[k]), "%11.3f", (double)v[k] / 1e6);
		snprintf(line, sizeof(line),
			 "\n  %-4s %-32s %-7s %-5s %8ld %8ld %10ld %9ld %11ld %s %s %s\n", cpu, w->fn,
			 w->kind, w->flags, w->armed, w->expired, w->cancelled, w->rearmed, w->idle,
			 ms[0], ms[1], ms[2]);
		p = strstr(p, line);
		if (!p)
			fail_msg("row %zu not found, or not in order:%s", i, line);
		p++;
	}
	for (p = out; *p;) {
		char *nl = strchr(p, '\n');

		assert_true((nl ? nl - p : (long)strlen(p)) <= 160);
		p = nl ? nl + 1 : p + strlen(p);
	}
	free(out);
}

/* A trace without timer events says so; a periodic timer's median stays exact past the 64
 * values kept (every interval is 1 s), and every interval is counted. */
static void test_census_bounds(void **state)
{
	struct import_options o = { 0 };
	char *text = malloc(1 << 20), *p = text;
	struct conv c;
	int i;

	(void)state;
	write_tmp("n.ftrace", "# tracer: nop\n#P:1\n" ENTRY(0, 100, 1) EXIT(0, 200));
	convert_ok(tmp_path("n.ftrace"), &o, false, &c);
	assert_int_equal(ji(c.json, "timer_census.timer_events"), 0);
	assert_int_equal(json_array_size(jget(c.json, "timer_census.functions")), 0);
	assert_int_equal(json_array_size(jget(c.json, "timer_census.per_cpu")), 0);
	conv_free(&c);
	snprintf(p, 1 << 20, "import %s", tmp_path("n.ftrace"));
	assert_int_equal(run_idlesim(p), 0);
	p = slurp(tmp_path("out"));
	assert_non_null(strstr(p, "\ntimer census: no timer events (timer:hrtimer_*, "
				  "timer:timer_*) in the trace\n"));
	free(p);
	p = text;
	p += sprintf(p, "# tracer: nop\n#P:1\n");
	for (i = 0; i < 1000; i++) {
		long long t = 1000000LL * (i + 1); /* us after 10 s */

		p += sprintf(p,
			     "          <idle>-0       [000] d..1.   %lld.%06lld: cpu_idle: state=1 "
			     "cpu_id=0\n",
			     10 + (t - 990) / 1000000, (t - 990) % 1000000);
		p += sprintf(p,
			     "          <idle>-0       [000] d.h1.   %lld.%06lld: hrtimer_expire_entry: "
			     "hrtimer=ffff00000000aa00 function=watchdog_timer_fn now=%lld000\n",
			     10 + t / 1000000, t % 1000000, 10000000 + t);
		p += sprintf(p,
			     "          <idle>-0       [000] d..1.   %lld.%06lld: cpu_idle: "
			     "state=4294967295 cpu_id=0\n",
			     10 + (t + 1) / 1000000, (t + 1) % 1000000);
	}
	convert_ok(write_tmp("w.ftrace", text), &o, false, &c);
	assert_string_equal(js(c.json, "timer_census.functions.0.function"), "watchdog_timer_fn");
	assert_int_equal(ji(c.json, "timer_census.functions.0.expired"), 1000);
	assert_int_equal(ji(c.json, "timer_census.functions.0.idle_periods_ended"), 1000);
	assert_int_equal(ji(c.json, "timer_census.functions.0.period_intervals"), 999);
	assert_int_equal(ji(c.json, "timer_census.functions.0.period_ns"), 1000000000);
	assert_int_equal(ji(c.json, "timer_census.per_cpu.0.period_ns"), 1000000000);
	assert_true(json_is_null(jget(c.json, "timer_census.functions.0.timeout_ns")));
	conv_free(&c);
	free(text);
}

/* ---- the jiffy grid: the header's tick_phase, tick and wheel wakeups ended at their edge ---- */

/* The tick_phase counts of the records ended at their edge (JSON), and those left. */
static void assert_grid_moves(json_t *j, json_int_t moved, json_int_t max_move_ns,
			      json_int_t past_half, json_int_t edge_not_after_start)
{
	assert_int_equal(ji(j, "tick_phase.records_moved"), moved);
	assert_int_equal(ji(j, "tick_phase.max_move_ns"), max_move_ns);
	assert_int_equal(ji(j, "tick_phase.records_past_half_jiffy"), past_half);
	assert_int_equal(ji(j, "tick_phase.records_edge_not_after_start"), edge_not_after_start);
}

/*
 * tests/import/periodic.ftrace (2 CPUs, HZ 250 inferred: CPU 0's tick re-armed 4 ms apart, so
 * TICK_NSEC = (10^9 + 125) / 250 = 4000000 ns). Its trace clock is not the hrtimer clock
 * (CLOCK_MONOTONIC, ~20 s): the tick's hrtimer_start events arm CPU 0's tick for 20004000000,
 * 20008000000, 20012000000 (each = 0 mod 4000000: 3 votes for phase 0) and CPU 1's, skewed
 * by half a tick, for 20006000000, 20010000000 (2 votes for 2000000): phase 0 wins, 3 of 5.
 * The tick's expiries, time - now: CPU 0 10005502000 - 20004000700 = -9998498700,
 * 10009501000 - 20008000400 = -9998499400, 10013503000 - 20012000900 = -9998497900; CPU 1
 * 10007501000 - 20006000200 = -9998499200. Sorted -9998499400, -9998499200, -9998498700,
 * -9998497900: the lower median (the 2nd of 4) is -9998499200. Phase in trace time: 0 +
 * (-9998499200 mod 4000000) = -9998499200 + 2500 x 4000000 = 1500800 (the edge 20004000000
 * is 10005500800 in trace time, 2501 x 4000000 + 1500800).
 *
 * Its two records (no sched_switch: each period is an opportunity), both from the entries at
 * 10000600000, both woken by a wheel timer's timer_expire_entry:
 *  CPU 0: tcp_delack_timer (armed at 10.000200 for timeout=1 jiffy), exit 10001511000.
 *         10001511000 - 1500800 = 10000010200 = 2500 x 4000000 + 10200: the last edge is
 *         10001500800, 10200 ns back (< 2000000, half a jiffy), after the start: the record
 *         ends there, length 10001500800 - 10000600000 = 900800 (not 911000).
 *  CPU 1: process_timeout, exit 10003511000: 10003511000 - 1500800 = 2500 x 4000000 +
 *         2010200: 2010200 >= 2000000 back, nearer the next edge (CPU 1's tick, and so its
 *         wheel, runs 2 ms off CPU 0's, as with skew_tick=1): left at 2911000.
 * One moved (by 10200 ns), one left half a jiffy or more past its edge.
 */
static void test_tick_phase(void **state)
{
	struct import_options o = { 0 };
	struct conv c, two;
	char *out, *p;

	(void)state;
	convert_ok(FIX "periodic.ftrace", &o, false, &c);
	convert_ok(FIX "periodic.ftrace", &o, true, &two);
	assert_string_equal(c.trace, two.trace);
	assert_non_null(strstr(c.trace, "\nend 10069510000\ntick_phase 1500800\nsource "));
	assert_string_equal(c.records, "idle 0 10000600000 900800 timer\n"
				       "idle 1 10000600000 2911000 timer\n");
	assert_int_equal(ji(c.json, "hz"), 250);
	assert_int_equal(ji(c.json, "tick_phase.ns"), 1500800);
	assert_string_equal(js(c.json, "tick_phase.from"), "hrtimer_start expires");
	assert_int_equal(ji(c.json, "tick_phase.tick_expiries"), 5);
	assert_int_equal(ji(c.json, "tick_phase.agreeing"), 3);
	assert_int_equal(ji(c.json, "tick_phase.clock_offset_ns"), -9998499200LL);
	assert_grid_moves(c.json, 1, 10200, 1, 0);
	conv_free(&c);
	conv_free(&two);
	assert_int_equal(run_idlesim("import tests/import/periodic.ftrace"), 0);
	out = slurp(tmp_path("out"));
	assert_non_null(strstr(out, "\ntick_phase 1500800 ns written (edges at 1500800 + k x "
				    "4000000 ns): 3 of 5 tick expiries agree (hrtimer_start "
				    "expires);"));
	assert_non_null(
		strstr(out, "hrtimer clock -9998499200 ns = trace time (median time - now);"));
	assert_non_null(strstr(out, "tick and wheel wakeups ended at their edge: 1, moved back by "
				    "at most 10200 ns;"));
	assert_non_null(strstr(out, "left as recorded: 1 half a jiffy or more past it, 0 with the "
				    "edge not after their idle period's entry"));
	for (p = out; *p;) {
		char *nl = strchr(p, '\n');

		assert_true((nl ? nl - p : (long)strlen(p)) <= 160);
		p = nl ? nl + 1 : p + strlen(p);
	}
	free(out);

	/* census.ftrace: CPU 0's tick armed for 10004000000 and 10012000000 (8 ms apart: no HZ
	 * inferred), its expiries with now = the event's time (offset 0). Without --hz there is
	 * no TICK_NSEC to reduce by: nothing written, nothing moved. With --hz 250: 0 mod
	 * 4000000 = 0, 2 of 2; edges at k x 4000000. CPU 0's two records end with the tick
	 * (expiries at 10.008000 and 10.016000, exits 1000 ns later): each ends at its edge,
	 * 10008000000 - 10000020000 = 7980000 and 10016000000 - 10008310000 = 7690000. CPU 1's
	 * process_timeout exit at 10014001000 is 2001000 past the edge 10012000000 (>= half of
	 * 4000000): left, 10014001000 - 10006310000 = 7691000. Its hrtimer wakeup stays. */
	convert_ok(FIX "census.ftrace", &o, false, &c);
	assert_null(strstr(c.trace, "tick_phase"));
	assert_true(json_is_null(jget(c.json, "tick_phase.ns")));
	assert_string_equal(js(c.json, "tick_phase.from"), "HZ unknown");
	assert_grid_moves(c.json, 0, 0, 0, 0);
	assert_string_equal(c.records, "idle 0 10000020000 7981000 timer\n"
				       "idle 1 10001040000 4961000 timer timer=hrtimer "
				       "next_wheel=39970000\n"
				       "idle 1 10006310000 7691000 timer\n"
				       "idle 0 10008310000 7691000 timer\n");
	conv_free(&c);
	o.hz = 250;
	convert_ok(FIX "census.ftrace", &o, false, &c);
	assert_non_null(strstr(c.trace, "\ntick_phase 0\n"));
	assert_string_equal(c.records, "idle 0 10000020000 7980000 timer\n"
				       "idle 1 10001040000 4961000 timer timer=hrtimer "
				       "next_wheel=39970000\n"
				       "idle 1 10006310000 7691000 timer\n"
				       "idle 0 10008310000 7690000 timer\n");
	assert_grid_moves(c.json, 2, 1000, 1, 0);
	assert_int_equal(ji(c.json, "tick_phase.ns"), 0);
	assert_int_equal(ji(c.json, "tick_phase.agreeing"), 2);
	assert_int_equal(ji(c.json, "tick_phase.clock_offset_ns"), 0);
	conv_free(&c);

	/* No hrtimer_start of the tick, only its expiries (now=), HZ 250 given: each votes for
	 * now mod 4000000: CPU 0 2004000300 -> 300, 2008000900 -> 900; CPU 1 2006000100 ->
	 * 2000100. One vote each: the tie goes to the lowest CPU's earliest, 300. Offsets
	 * time - now: 2004001000 - 2004000300 = 700, 2008002000 - 2008000900 = 1100,
	 * 2006001000 - 2006000100 = 900; lower median 900. Phase 300 + 900 = 1200. CPU 0's one
	 * record, from 2000100000, ended by the tick: its exit 2004002000 is 2004000800 = 501 x
	 * 4000000 + 800 past 1200, so it ends at the edge 2004001200, 3901200 long. */
	conv_text("# tracer: nop\n#P:2\n"
		  "  <idle>-0 [000] d..1. 2.000100: cpu_idle: state=1 cpu_id=0\n"
		  "  <idle>-0 [000] d..1. 2.004001: hrtimer_expire_entry: hrtimer=ffff0000000000a0 "
		  "function=tick_sched_timer now=2004000300\n"
		  "  <idle>-0 [000] d..1. 2.004002: cpu_idle: state=4294967295 cpu_id=0\n"
		  "  <idle>-0 [001] d..1. 2.006001: hrtimer_expire_entry: hrtimer=ffff0000000000b0 "
		  "function=tick_nohz_highres_handler now=2006000100\n"
		  "  <idle>-0 [000] d..1. 2.008002: hrtimer_expire_entry: hrtimer=ffff0000000000a0 "
		  "function=tick_sched_timer now=2008000900\n",
		  &o, &c);
	assert_int_equal(ji(c.json, "tick_phase.ns"), 1200);
	assert_string_equal(js(c.json, "tick_phase.from"), "hrtimer_expire_entry now");
	assert_int_equal(ji(c.json, "tick_phase.tick_expiries"), 3);
	assert_int_equal(ji(c.json, "tick_phase.agreeing"), 1);
	assert_int_equal(ji(c.json, "tick_phase.clock_offset_ns"), 900);
	assert_non_null(strstr(c.trace, "\ntick_phase 1200\n"));
	assert_string_equal(c.records, "idle 0 2000100000 3901200 timer\n");
	assert_grid_moves(c.json, 1, 800, 0, 0);
	conv_free(&c);

	/* No tick recorded (a wheel timer's expiry is no tick): no tick_phase, as before. */
	conv_text("# tracer: nop\n#P:1\n" ENTRY(0, 100, 1)
		  L(0, 200, "timer_expire_entry", "timer=ffff0000000000c0 function=process_timeout "
						  "now=4294937296 baseclk=4294937296")
		  EXIT(0, 201),
		  &o, &c);
	assert_null(strstr(c.trace, "tick_phase"));
	assert_true(json_is_null(jget(c.json, "tick_phase.ns")));
	assert_string_equal(js(c.json, "tick_phase.from"), "no tick expiry recorded");
	assert_true(json_is_null(jget(c.json, "tick_phase.clock_offset_ns")));
	assert_grid_moves(c.json, 0, 0, 0, 0);
	assert_string_equal(c.records, "idle 0 1000100000 101000 timer\n");
	conv_free(&c);
	assert_int_equal(run_idlesim("import tests/import/census.ftrace"), 0);
	out = slurp(tmp_path("out"));
	assert_non_null(strstr(out, "\ntick_phase not written (HZ unknown): the replay puts a jiffy "
				    "edge at the trace's start\n"));
	free(out);
}

/*
 * Replayed, periodic.ftrace's converted CPU 0 record (ended at the edge 10001500800) wakes
 * at that edge: on a grid edge already, the engine leaves the wheel wakeup where it is. On
 * skl with only C1E enabled (exit latency 10 us under --wake-latency worst) under deepest,
 * its exit event is at 10001500800 + 10000 = 10.001510800. CPU 1's (left at 10003511000,
 * 2010200 past its edge) is moved up by the replay to the next edge, 10005500800: exit at
 * 10.005510800. Had CPU 0's record kept its recorded exit 10001511000, it too would have
 * gone up to 10005500800, 4 ms later.
 */
static void test_tick_phase_replay(void **state)
{
	char args[1024], *text;

	(void)state;
	snprintf(args, sizeof(args), "import tests/import/periodic.ftrace -o %s",
		 tmp_path("periodic.trace"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args),
		 "run --trace %s --machine skl --disable C3,C6,C7s,C8,C9,C10 --governor deepest "
		 "--wake-latency worst --format ftrace -o %s",
		 tmp_path("periodic.trace"), tmp_path("periodic.out"));
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("periodic.out");
	assert_non_null(strstr(text, " 10.001510800: cpu_idle: state=4294967295 cpu_id=0\n"));
	assert_null(strstr(text, " 10.005510800: cpu_idle: state=4294967295 cpu_id=0\n"));
	assert_non_null(strstr(text, " 10.005510800: cpu_idle: state=4294967295 cpu_id=1\n"));
	free(text);
}

/* An event line of the idle task (LT) or of a task (TT) on CPU `cpu` at time `ts` (text). */
#define LT(cpu, ts, ev, pay) \
	"          <idle>-0       [00" #cpu "] d..1.   " ts ": " ev ": " pay "\n"
#define TT(cpu, ts, ev, pay) \
	"           taskA-100     [00" #cpu "] d..2.   " ts ": " ev ": " pay "\n"
#define ENTRY_AT(cpu, ts) LT(cpu, ts, "cpu_idle", "state=1 cpu_id=" #cpu)
#define EXIT_AT(cpu, ts) LT(cpu, ts, "cpu_idle", "state=4294967295 cpu_id=" #cpu)
#define TASK_AT(cpu, ts) \
	LT(cpu, ts, "sched_switch", "prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R " \
				   "==> next_comm=taskA next_pid=100 next_prio=120")
#define WHEEL_AT(cpu, ts, id) \
	LT(cpu, ts, "timer_expire_entry", \
	   "timer=" id " function=process_timeout now=251 baseclk=251")

/*
 * Which records end at their edge. --hz 250 (TICK_NSEC 4000000); CPU 0's tick armed for
 * 1001000000: phase 1001000000 mod 4000000 = 1000000 (one vote), clock offset 1005003000 -
 * 1005003000 = 0 (its one expiry, now = its time). Edges at 1.001, 1.005, 1.009, 1.013 s.
 * A task runs after every exit: each period is one record. Half a jiffy is 2000000.
 *  CPU 0 [1.002000, 1.005002) the tick: 2000 past the edge 1.005 (after the start): ends
 *        there, 1005000000 - 1002000000 = 3000000.
 *  CPU 1 [1.003000, 1.006999) a wheel timer: 1999000 past 1.005, just under half a jiffy:
 *        ends there, 2000000.
 *  CPU 0 [1.005100, 1.005900) a wheel timer: its edge 1.005 is before its start: left,
 *        800000 (the replay moves it up to 1.009; rare: the CPU idled just after an edge).
 *  CPU 0 [1.006000, 1.006500) an hrtimer (hrtimer_wakeup): not on the grid, left, 500000.
 *  CPU 0 [1.007100, 1.008500) the timer interrupt, no expiry recorded: not known to be the
 *        tick or a wheel timer, left, 1400000.
 *  CPU 1 [1.008000, 1.011000) a wheel timer: 2000000 past 1.009, exactly half a jiffy: left,
 *        3000000 (the next edge, 1.013, is as near: the replay moves it there). A CPU whose
 *        tick is skewed (skew_tick=1) runs its wheel that far off the grid.
 *  CPU 0 [1.012000, 1.013002) the tick, no task, then [1.013100, 1.013900) a wheel timer:
 *        one record (merged), ended by the wheel timer; its edge 1.013 is after the record's
 *        start but not after the entry of the period it woke (1.013100): left, 1900000.
 * Moved 2, the largest by 1999000; 1 past half a jiffy, 2 with the edge not after the entry.
 * Written in start order (CPU on ties); the converted trace reads back with tick_phase.
 */
static void test_tick_phase_moves(void **state)
{
	struct import_options o = { 0 };
	struct trace_record rec;
	struct trace_reader *r;
	struct sim_error err = { 0 };
	struct conv c;
	int n = 0, rc;

	(void)state;
	o.hz = 250;
	conv_text(HDR2 TT(0, "1.000000", "hrtimer_start",
			  "hrtimer=ffff0000000000a0 function=tick_sched_timer expires=1001000000 "
			  "softexpires=1001000000 mode=ABS_PINNED_HARD")
		  ENTRY_AT(0, "1.002000") ENTRY_AT(1, "1.003000") EXIT_AT(0, "1.005002")
		  LT(0, "1.005003", "hrtimer_expire_entry",
		     "hrtimer=ffff0000000000a0 function=tick_sched_timer now=1005003000")
		  TASK_AT(0, "1.005010") ENTRY_AT(0, "1.005100") EXIT_AT(0, "1.005900")
		  WHEEL_AT(0, "1.005901", "ffff0000000000b0") TASK_AT(0, "1.005910")
		  ENTRY_AT(0, "1.006000") EXIT_AT(0, "1.006500")
		  LT(0, "1.006501", "hrtimer_expire_entry",
		     "hrtimer=ffff0000000000c0 function=hrtimer_wakeup now=1006501000")
		  TASK_AT(0, "1.006510") EXIT_AT(1, "1.006999")
		  WHEEL_AT(1, "1.007000", "ffff0000000000d0") TASK_AT(1, "1.007010")
		  ENTRY_AT(0, "1.007100") ENTRY_AT(1, "1.008000") EXIT_AT(0, "1.008500")
		  LT(0, "1.008501", "irq_handler_entry", "irq=19 name=arch_timer")
		  TASK_AT(0, "1.008510") EXIT_AT(1, "1.011000")
		  WHEEL_AT(1, "1.011001", "ffff0000000000d0") TASK_AT(1, "1.011010")
		  ENTRY_AT(0, "1.012000") EXIT_AT(0, "1.013002")
		  LT(0, "1.013003", "hrtimer_expire_entry",
		     "hrtimer=ffff0000000000a0 function=tick_sched_timer now=1013003000")
		  ENTRY_AT(0, "1.013100") EXIT_AT(0, "1.013900")
		  WHEEL_AT(0, "1.013901", "ffff0000000000b0") TASK_AT(0, "1.013910"),
		  &o, &c);
	assert_int_equal(ji(c.json, "tick_phase.ns"), 1000000);
	assert_string_equal(c.records, "idle 0 1002000000 3000000 timer\n"
				       "idle 1 1003000000 2000000 timer\n"
				       "idle 0 1005100000 800000 timer\n"
				       "idle 0 1006000000 500000 timer timer=hrtimer\n"
				       "idle 0 1007100000 1400000 timer\n"
				       "idle 1 1008000000 3000000 timer\n"
				       "idle 0 1012000000 1900000 timer\n");
	assert_grid_moves(c.json, 2, 1999000, 1, 2);
	r = trace_open_string("moves.trace", c.trace, &err);
	assert_non_null(r);
	assert_true(trace_header(r)->has_tick_phase);
	assert_int_equal(trace_header(r)->tick_phase_ns, 1000000);
	while ((rc = trace_next(r, &rec, &err)) == 1)
		n++;
	assert_int_equal(rc, 0);
	assert_int_equal(n, 7);
	trace_close(r);
	conv_free(&c);
}

/* ---- the periodic timers of a trace (import_periodic_timers) ---- */

/*
 * The rule: a (CPU, kind, callback) row with at least 3 expiries, a median interval > 0, at
 * least half of its intervals within a tenth of the median (|d - median| <= median / 10),
 * not the tick's hrtimer. Lower medians (the (n+1)/2-th smallest).
 *
 * tests/import/census.ftrace: tick_sched_timer (CPU 0, 4 expiries) is the tick; every other
 * row has fewer than 3 expiries (process_timeout 2, hrtimer_wakeup 1, the rest 0): none.
 *
 * tests/import/periodic.ftrace (expiry times in us after 10 s):
 *  CPU 0 mce_timer_fn, wheel, flags=P: 5510, 25508, 45515, 65510 -> intervals 19998000,
 *        20007000, 19995000 ns; median 19998000 (the 2nd of 3); all 3 within 1999800: in.
 *  CPU 0 tcp_delack_timer, wheel: 1510, 5510, 17510, 37510, 69510 -> 4, 12, 20, 32 ms;
 *        median 12 ms; only 12 within 1.2 ms, 1 of 4 < half: irregular, out.
 *  CPU 0 tick_sched_timer: 3 expiries 4 ms apart, but the tick: out.
 *  CPU 1 delayed_work_timer_fn, wheel, flags=D: 7510, 19510, 31510 -> 12 ms twice; median
 *        12000000 (the 1st of 2): in.
 *  CPU 1 it_real_fn, hrtimer, mode=ABS: 10005, 20003, 30010, 40004 -> 9998000, 10007000,
 *        9994000; median 9998000, all within 999800: in.
 *  CPU 1 process_timeout (2 expiries), tick_sched_timer (1, and the tick): out.
 * Sorted by CPU, then name: delayed_work_timer_fn before it_real_fn.
 */
static void test_periodic_timers(void **state)
{
	static const struct import_periodic_timer want[] = {
		{ 0, "mce_timer_fn", false, true, false, 19998000, 4 },
		{ 1, "delayed_work_timer_fn", false, false, true, 12000000, 3 },
		{ 1, "it_real_fn", true, false, false, 9998000, 4 },
	};
	struct import_options o = { 0 };
	struct import_timer_list l;
	struct sim_error err = { 0 };
	size_t i;

	(void)state;
	assert_int_equal(import_periodic_timers(FIX "census.ftrace", &o, &l, &err), 0);
	assert_int_equal(l.n, 0);
	import_timer_list_release(&l);
	assert_int_equal(import_periodic_timers(FIX "periodic.ftrace", &o, &l, &err), 0);
	assert_int_equal(l.n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < l.n; i++) {
		assert_int_equal(l.t[i].cpu, want[i].cpu);
		assert_string_equal(l.t[i].function, want[i].function);
		assert_int_equal(l.t[i].hrtimer, want[i].hrtimer);
		assert_int_equal(l.t[i].pinned, want[i].pinned);
		assert_int_equal(l.t[i].deferrable, want[i].deferrable);
		assert_int_equal(l.t[i].period_ns, want[i].period_ns);
		assert_int_equal(l.t[i].expired, want[i].expired);
	}
	import_timer_list_release(&l);
	assert_null(l.t);
	assert_int_equal(l.n, 0);

	/* The rule's edges, one CPU (times in us after 1 s). A: hrtimer expiries at 0, 10000,
	 * 21000, 30000 -> 10, 11, 9 ms; median 10 ms; 11 and 9 are exactly a tenth off: all
	 * within, in. B: 0, 10000, 20000, 35000, 65000 -> 10, 10, 15, 30 ms; median 10 ms (the
	 * 2nd of 4); 2 of 4 within, exactly half: in. C: 0, 10000, 25000, 55000 -> 10, 15, 30 ms;
	 * median 15 ms; only 15 within 1.5 ms, 1 of 3: out. D: 3 expiries at the same instant:
	 * median 0: out. */
	write_tmp("rule.ftrace",
		  "# tracer: nop\n#P:1\n"
		  "  <idle>-0 [000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0\n"
		  "  <idle>-0 [000] d..1. 1.000000: hrtimer_expire_entry: hrtimer=a function=fa now=1\n"
		  "  <idle>-0 [000] d..1. 1.000000: hrtimer_expire_entry: hrtimer=b function=fb now=1\n"
		  "  <idle>-0 [000] d..1. 1.000000: hrtimer_expire_entry: hrtimer=c function=fc now=1\n"
		  "  <idle>-0 [000] d..1. 1.000000: hrtimer_expire_entry: hrtimer=d function=fd now=1\n"
		  "  <idle>-0 [000] d..1. 1.000000: hrtimer_expire_entry: hrtimer=d function=fd now=1\n"
		  "  <idle>-0 [000] d..1. 1.000000: hrtimer_expire_entry: hrtimer=d function=fd now=1\n"
		  "  <idle>-0 [000] d..1. 1.000001: cpu_idle: state=4294967295 cpu_id=0\n"
		  "  <idle>-0 [000] d..1. 1.010000: hrtimer_expire_entry: hrtimer=a function=fa now=1\n"
		  "  <idle>-0 [000] d..1. 1.010000: hrtimer_expire_entry: hrtimer=b function=fb now=1\n"
		  "  <idle>-0 [000] d..1. 1.010000: hrtimer_expire_entry: hrtimer=c function=fc now=1\n"
		  "  <idle>-0 [000] d..1. 1.020000: hrtimer_expire_entry: hrtimer=b function=fb now=1\n"
		  "  <idle>-0 [000] d..1. 1.021000: hrtimer_expire_entry: hrtimer=a function=fa now=1\n"
		  "  <idle>-0 [000] d..1. 1.025000: hrtimer_expire_entry: hrtimer=c function=fc now=1\n"
		  "  <idle>-0 [000] d..1. 1.030000: hrtimer_expire_entry: hrtimer=a function=fa now=1\n"
		  "  <idle>-0 [000] d..1. 1.035000: hrtimer_expire_entry: hrtimer=b function=fb now=1\n"
		  "  <idle>-0 [000] d..1. 1.055000: hrtimer_expire_entry: hrtimer=c function=fc now=1\n"
		  "  <idle>-0 [000] d..1. 1.065000: hrtimer_expire_entry: hrtimer=b function=fb now=1\n");
	assert_int_equal(import_periodic_timers(tmp_path("rule.ftrace"), &o, &l, &err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.t[0].function, "fa");
	assert_int_equal(l.t[0].period_ns, 10000000);
	assert_int_equal(l.t[0].expired, 4);
	assert_true(l.t[0].hrtimer);
	assert_string_equal(l.t[1].function, "fb");
	assert_int_equal(l.t[1].period_ns, 10000000);
	assert_int_equal(l.t[1].expired, 5);
	import_timer_list_release(&l);

	/* Errors are the import's, and leave the list empty. */
	assert_int_equal(import_periodic_timers(FIX "no-such-file", &o, &l, &err), -1);
	assert_int_equal(err.code, SIM_ERR_IO);
	assert_null(l.t);
	assert_int_equal(l.n, 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(
		import_periodic_timers(FIX "invalid/no-timestamp/input", &o, &l, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_int_equal(err.line, 5);
	assert_int_equal(err.column, 38);
	assert_int_equal(l.n, 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(import_periodic_timers(SRC "/traces/demo.trace", &o, &l, &err), -1);
	assert_non_null(strstr(err.text, "this is an idlesim trace already"));
	assert_int_equal(l.n, 0);
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
		cmocka_unit_test(test_wake_causes),
		cmocka_unit_test(test_no_merging),
		cmocka_unit_test(test_unpaired),
		cmocka_unit_test(test_sleep_lengths),
		cmocka_unit_test(test_timer_kinds),
		cmocka_unit_test(test_started_idle),
		cmocka_unit_test(test_perf_mixed),
		cmocka_unit_test(test_line_shapes),
		cmocka_unit_test(test_late_cpu_count),
		cmocka_unit_test(test_skip_bad_lines),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_invalid_corpus),
		cmocka_unit_test(test_not_traces),
		cmocka_unit_test(test_disabled_states),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_census_json),
		cmocka_unit_test(test_census_text),
		cmocka_unit_test(test_census_bounds),
		cmocka_unit_test(test_tick_phase),
		cmocka_unit_test(test_tick_phase_replay),
		cmocka_unit_test(test_tick_phase_moves),
		cmocka_unit_test(test_periodic_timers),
	};

	if (argc == 2 && (!strcmp(argv[1], "real") || !strcmp(argv[1], "tracedat")))
		return run_real(argv[1]);
	return cmocka_run_group_tests(tests, setup, teardown);
}
