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

/* ---- small hand traces ---- */

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
	};

	if (argc == 2 && (!strcmp(argv[1], "real") || !strcmp(argv[1], "tracedat")))
		return run_real(argv[1]);
	return cmocka_run_group_tests(tests, setup, teardown);
}
