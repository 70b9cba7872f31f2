// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_import_hand.c - kernel-trace import (sim/import*.c) of small ftrace traces written
 * here by hand, each record computed in its comment (traces/FORMAT.md, "Importing kernel
 * traces"): what ended each opportunity, merging, unpaired entries and exits, timer kinds,
 * idle when the trace began, sleep lengths, line shapes, a late CPU count.
 */
#include "tests/importtest.h"

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

/* The write order: by start, then CPU, whichever CPU's opportunity ends first (each CPU's
 * records wait in a queue of their own, the queues' first records compared). */
static void test_write_order(void **state)
{
	struct conv c;

	(void)state;
	/* three CPUs enter at 100 us, leave in the reverse order; CPU 2 idles again meanwhile */
	conv_text("# tracer: nop\n#\n# entries-in-buffer/entries-written: 9/9   #P:3\n#\n"
		  TO_IDLE(0, 050) ENTRY(2, 100, 1) ENTRY(0, 100, 1) ENTRY(1, 100, 1)
		  EXIT(2, 110) TO_TASK(2, 111) ENTRY(2, 115, 1) EXIT(1, 120) TO_TASK(1, 121)
		  EXIT(2, 125) TO_TASK(2, 126) EXIT(0, 130) TO_TASK(0, 131),
		  NULL, &c);
	assert_int_equal(c.rc, 0);
	assert_string_equal(c.records, "idle 0 1000100000 30000 irq\n"
				       "idle 1 1000100000 20000 irq\n"
				       "idle 2 1000100000 10000 irq\n"
				       "idle 2 1000115000 10000 irq\n");
	/* all four waited for CPU 0's, which ended last */
	assert_int_equal(ji(c.json, "max_waiting_records"), 4);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wake_causes),
		cmocka_unit_test(test_no_merging),
		cmocka_unit_test(test_unpaired),
		cmocka_unit_test(test_sleep_lengths),
		cmocka_unit_test(test_timer_kinds),
		cmocka_unit_test(test_started_idle),
		cmocka_unit_test(test_line_shapes),
		cmocka_unit_test(test_late_cpu_count),
		cmocka_unit_test(test_write_order),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
