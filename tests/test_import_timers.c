// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_import_timers.c - what the import makes of a trace's timers: the timer census
 * (docs/import.md "Timer census"), the jiffy grid of the converted trace (its tick_phase,
 * tick and wheel-timer wakeups ended at their edge) and the periodic timers that
 * gen --timers-from takes (import_periodic_timers). Fixtures in tests/import/.
 */
#include "tests/importtest.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_census_json),
		cmocka_unit_test(test_census_text),
		cmocka_unit_test(test_census_bounds),
		cmocka_unit_test(test_tick_phase),
		cmocka_unit_test(test_tick_phase_replay),
		cmocka_unit_test(test_tick_phase_moves),
		cmocka_unit_test(test_periodic_timers),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
