// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_timers.c - the kernel's timer rules in the engine, each worked out by hand: the
 * tick-stop rule's timer kinds, the wheel's rounding and the jiffy grid, keep-tick
 * conditions (keep_tick=), and the closed loop's timer world (deferrable and global timers,
 * timer migration, RCU keeping the tick).
 */
#include "tests/testutil.h"
#include "sim/base/common.h"
#include "sim/sched/loop.h"
#include "sim/engine/wheel.h"

#include <stdlib.h>

/* The jiffy grid at multiples of TICK_NSEC from 0, as these tests were written: without
 * tick_phase it would be at the trace's start, the first record's time. */
#define HDR "idlesim-trace v1\ncpus 1\ntick_phase 0\n"
#define HDR2 "idlesim-trace v1\ncpus 2\ntick_phase 0\n"

/* Every decision of a replay of text with the scripted governor (C1, stop_tick as given). */
static void decisions_tick(const char *text, struct decision_log *l, bool stop_tick)
{
	struct replay_opts o = { 0 };
	struct run_stats rs;

	memset(l, 0, sizeof(*l));
	script_set(C1, stop_tick);
	o.explain = decision_log_add;
	o.explain_ud = l;
	o.explain_limit = -1;
	replay_ok(text, &o, &rs);
	run_stats_release(&rs);
}

/* The same, the governor asking to stop the tick every time. */
static void all_decisions(const char *text, struct decision_log *l)
{
	decisions_tick(text, l, true);
}

/* The first of them. */
static struct sim_decision first_decision(const char *text, struct decision_log *l)
{
	all_decisions(text, l);
	assert_true(l->n >= 1);
	return l->d[0];
}

/*
 * The tick-stop rule reads only timer-wheel timers (FORMAT.md, "Tick"), and those fire on the
 * jiffy grid. At HZ 250 the first select, at 0, has its next tick at TICK_NSEC = (10^9 + 125)
 * / 250 = 4,000,000 ns; the governor asks to stop the tick.
 *  - Idle records: a wheel timer at 3 ms moves up to the edge at 4 ms (sleep length 4 ms),
 *    which is the next tick: kept. An hrtimer at 3 ms stays (sleep 3 ms) and does not keep
 *    it. next_wheel 3.5 ms -> 4 ms and 4 ms (on the grid) keep it; 4,000,001 -> 8 ms does not.
 *  - Event records, armed at 0 (jiffy 0, clk 0): a wheel timer for 6 ms has expires =
 *    0 + ceil(6/4) = 2, level 0 (delta 2 < 63), bucket 2 + 1 = 3: fires at 12 ms; one for
 *    3 ms or 3.9 ms has expires 1, bucket 2: 8 ms. So h (hrtimer, 3 ms) + w (wheel, 6 ms):
 *    sleep 3 ms, wheel 12 ms, stopped; h wheel 3 ms + w wheel 6 ms: sleep = wheel = 8 ms,
 *    beyond the tick at 4 ms: stopped (it was kept when h fired at exactly 3 ms); h hrtimer
 *    + w wheel 3.9 ms: sleep 3 ms, wheel 8 ms, stopped.
 */
static void test_timer_kind_tick_rule(void **state)
{
	static const struct {
		const char *text;
		bool stopped;
		int64_t sleep_ns; /* sleep_length_ns of the decision */
		int64_t wheel_ns; /* wheel_length_ns of the decision */
	} cases[] = {
		{ HDR "end 10000000\nidle 0 0 3000000 timer\n", false, 4000000, 4000000 },
		{ HDR "end 10000000\nidle 0 0 3000000 timer timer=wheel\n", false, 4000000, 4000000 },
		{ HDR "end 10000000\nidle 0 0 3000000 timer timer=hrtimer\n", true, 3000000, KTIME_MAX },
		{ HDR "end 10000000\nidle 0 0 3000000 timer timer=hrtimer next_wheel=3500000\n", false,
		  3000000, 4000000 },
		{ HDR "end 10000000\nidle 0 0 3000000 timer timer=hrtimer next_wheel=4000000\n", false,
		  3000000, 4000000 },
		{ HDR "end 10000000\nidle 0 0 3000000 timer timer=hrtimer next_wheel=4000001\n", true,
		  3000000, 8000000 },
		{ HDR "end 10000000\nidle 0 0 1000000 irq next_timer=3000000 timer=hrtimer\n", true,
		  3000000, KTIME_MAX },
		{ HDR "end 20000000\ntimer 0 0 h 3000000 kind=hrtimer\ntimer 0 0 w 6000000\n", true,
		  3000000, 12000000 },
		{ HDR "end 20000000\ntimer 0 0 h 3000000\ntimer 0 0 w 6000000 kind=wheel\n", true,
		  8000000, 8000000 },
		{ HDR "end 20000000\ntimer 0 0 h 3000000 kind=hrtimer\ntimer 0 0 w 3900000\n", true,
		  3000000, 8000000 },
	};
	struct decision_log *l = calloc(1, sizeof(*l));
	struct sim_decision d;
	size_t i;

	(void)state;
	assert_non_null(l);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d = first_decision(cases[i].text, l);
		assert_int_equal(d.time_ns, 0);
		if (d.sleep_length_ns != cases[i].sleep_ns || d.wheel_length_ns != cases[i].wheel_ns)
			fail_msg("case %zu: sleep %lld wheel %lld", i, (long long)d.sleep_length_ns,
				 (long long)d.wheel_length_ns);
		assert_true(d.stop_tick);
		if (d.tick_stopped_after != cases[i].stopped)
			fail_msg("case %zu: tick %s", i, d.tick_stopped_after ? "stopped" : "kept");
	}
	free(l);
}

/*
 * The wheel's arithmetic (kernel/time/timer.c v6.12 calc_wheel_index, calc_index), by hand.
 * LVL_START(n) = 63 * 8^(n-1): level 0 holds delta 0..62, level 1 63..503, level 2 504..4031.
 *  - clk 0, expires 5: level 0, (5 + 1) = 6; expires 62: 63.
 *  - expires 63: level 1, (63 / 8 + 1) * 8 = 8 * 8 = 64; expires 100: (12 + 1) * 8 = 104.
 *  - expires 504: level 2, (504 / 64 + 1) * 64 = 8 * 64 = 512.
 *  - expires 5 with clk 10 (already due): clk's bucket, 10.
 *  - HZ 250, depth 9: cutoff LVL_START(9) = 63 << 24 = 1,056,964,608; a delta that large is
 *    capped at clk + cutoff - 8^8 = 1,040,187,392, level 8: (62 + 1) * 16,777,216 =
 *    1,056,964,608. HZ 100, depth 8: cutoff 63 << 21 = 132,120,576, capped at 130,023,424,
 *    level 7: (62 + 1) * 2,097,152 = 132,120,576.
 * The grid: phase 9 ms reduced modulo 4 ms is 1 ms; 0 is in jiffy -1, 1 ms starts jiffy 0;
 * the edge at or after 1 ms is 1 ms, after 1 ms + 1 ns it is 5 ms; the tick after 1 ms, 5 ms.
 */
static void test_wheel_arithmetic(void **state)
{
	struct jiffy_grid g;

	(void)state;
	assert_int_equal(wheel_bucket_expiry(250, 5, 0), 6);
	assert_int_equal(wheel_bucket_expiry(250, 62, 0), 63);
	assert_int_equal(wheel_bucket_expiry(250, 63, 0), 64);
	assert_int_equal(wheel_bucket_expiry(250, 100, 0), 104);
	assert_int_equal(wheel_bucket_expiry(250, 504, 0), 512);
	assert_int_equal(wheel_bucket_expiry(250, 5, 10), 10);
	assert_int_equal(wheel_bucket_expiry(250, INT64_C(1) << 40, 0), 1056964608);
	assert_int_equal(wheel_bucket_expiry(100, 132120576, 0), 132120576);
	jiffy_grid_init(&g, 250, 4000000, 9000000);
	assert_int_equal(g.phase_ns, 1000000);
	assert_int_equal(jiffy_of(&g, 0), -1);
	assert_int_equal(jiffy_of(&g, 1000000), 0);
	assert_int_equal(jiffy_edge_at_or_after(&g, 1000000), 1000000);
	assert_int_equal(jiffy_edge_at_or_after(&g, 1000001), 5000000);
	assert_int_equal(jiffy_edge_after(&g, 1000000), 5000000);
	assert_int_equal(jiffy_edge_at_or_after(&g, INT64_MAX), INT64_MAX);
}

/*
 * Wheel timers of event records on a grid with tick_phase 1 ms (edges at 1 + 4k ms), HZ 250;
 * the scripted governor picks C1 (exit 2 us) and asks to stop the tick. Work until 2.5 ms.
 *  - Timer p armed at 2 ms (jiffy 0, clk 0) for 3 ms: expires = 0 + ceil(1 ms / 4 ms) = 1,
 *    level 0, bucket 2: fires at 1 + 2 x 4 = 9 ms. Select 1 at 2.5 ms: sleep length 6.5 ms;
 *    the tick runs at select, so delta_tick is the next tick, at 5 ms: 2.5 ms (not the
 *    wheel timer); the wheel timer is beyond that tick: stopped.
 *  - p has period=1 ms: its callback at jiffy 2 (clk 3) re-arms it for expires 1 + 1 = 2:
 *    already due, clk's bucket 3, 13 ms; then expires 3, clk 4: 17 ms. Select 2 at 9.002 ms
 *    (the tick restarted with the work): sleep 3,998,000 to 13 ms, the next tick is at 13 ms
 *    too, delta_tick 3,998,000; the wheel timer is due at that tick: kept.
 *  - A one-shot timer armed at 2 ms for 402 ms: expires 0 + 100 = 100, level 1 (63 <= 100 <
 *    504): bucket (12 + 1) x 8 = 104: 1 + 416 = 417 ms.
 */
static void test_wheel_timers_on_grid(void **state)
{
	static const char text[] = "idlesim-trace v1\ncpus 1\nstart 0\nend 20000000\ntick_phase 1000000\n"
				       "busy 0 0 2500000\n"
				       "timer 0 2000000 p 3000000 period=1000000\n";
	static const char text2[] = "idlesim-trace v1\ncpus 1\nstart 0\nend 500000000\ntick_phase 1000000\n"
					"busy 0 0 2500000\n"
					"timer 0 2000000 l 402000000\n";
	struct decision_log *l = calloc(1, sizeof(*l));
	struct sim_decision d;

	(void)state;
	assert_non_null(l);
	d = first_decision(text, l);
	assert_int_equal(d.time_ns, 2500000);
	assert_int_equal(d.sleep_length_ns, 6500000);
	assert_int_equal(d.delta_tick_ns, 2500000);
	assert_true(d.tick_stopped_after);
	assert_int_equal(d.wake_ns, 9000000);
	assert_true(l->n >= 3);
	assert_int_equal(l->d[1].time_ns, 9002000);
	assert_int_equal(l->d[1].sleep_length_ns, 3998000);
	assert_int_equal(l->d[1].delta_tick_ns, 3998000);
	assert_false(l->d[1].tick_stopped_after);
	assert_int_equal(l->d[1].wake_ns, 13000000);
	assert_int_equal(l->d[2].wake_ns, 17000000);
	d = first_decision(text2, l);
	assert_int_equal(d.sleep_length_ns, 417000000 - 2500000);
	assert_int_equal(d.wake_ns, 417000000);
	free(l);
}

/*
 * Idle records on the default grid (the trace's start, 1 ms: edges at 1 + 4k ms): a wheel
 * wakeup at 3 ms moves up to 5 ms. The sleep length is 4 ms, the same as delta_tick (the
 * next tick, 5 ms, and the wheel timer at it keeps the tick). With timer=hrtimer the timer
 * stays at 3 ms, programs the device: delta_tick 2 ms too.
 */
/* Records from memory, as loop.c's period source hands a closed loop's periods over. */
struct mem_recs {
	struct trace_header hdr;
	const struct trace_record *r;
	int n, i;
};

static int mem_recs_next(void *ctx, struct trace_record *rec, struct sim_error *err)
{
	struct mem_recs *m = ctx;

	(void)err;
	if (m->i == m->n)
		return 0;
	*rec = m->r[m->i++];
	return 1;
}

static int mem_recs_error(void *ctx, const struct trace_record *rec, struct sim_error *err,
			  const char *msg)
{
	(void)ctx;
	(void)rec;
	return sim_error_set(err, SIM_ERR_INPUT, "mem", 0, 0, "%s", msg);
}

/*
 * A closed loop's periods (trace_header.as_recorded) are replayed where the loop's timers
 * fired: nothing moves to the grid. At HZ 250 (edges every 4 ms from 0), CPU 0:
 *  - idle at 0, woken by a wheel timer at 3 ms (next_timer 3 ms): sleep length 3 ms, the
 *    wakeup at 3 ms (a trace's record would see 4 ms and wake at 4 ms);
 *  - idle at 5 ms (5.002: the work from 3 ms runs 2 us behind, C1's exit latency), next
 *    timer at 6 ms (later cancelled), woken by another timer at 7 ms: sleep length
 *    998 us, the wakeup at 7 ms. Before the fix, 6 ms moved to 8 ms and the wakeup came 1 ms late
 *    (8 ms); had the next timer been earlier than the wakeup by more than an edge, it came
 *    early (late < 0), as in a tbench oracle: 1.13 s early.
 */
static void test_closed_loop_periods_as_recorded(void **state)
{
	static const struct trace_record recs[] = {
		{ .kind = TRACE_IDLE, .cpu = 0, .time_ns = 0, .length_ns = 3000000,
		  .cause = WAKE_TIMER, .next_timer_ns = 3000000 },
		{ .kind = TRACE_IDLE, .cpu = 0, .time_ns = 5000000, .length_ns = 2000000,
		  .cause = WAKE_TIMER, .next_timer_ns = 1000000 },
	};
	struct mem_recs m = { .r = recs, .n = 2 };
	struct record_source src = { &m.hdr, mem_recs_next, mem_recs_error, &m };
	struct sim_config cfg = { 0 };
	struct sim_error err = { 0 };
	struct decision_log *l = calloc(1, sizeof(*l));
	struct run_stats rs;
	struct machine mach;

	(void)state;
	assert_non_null(l);
	m.hdr.version = TRACE_VERSION;
	m.hdr.cpus = 1;
	m.hdr.has_start = m.hdr.has_end = true;
	m.hdr.end_ns = 10000000;
	m.hdr.as_recorded = true;
	assert_int_equal(machine_load("skl", &mach, &err), 0);
	cfg.machine = &mach;
	cfg.gov = &gov_scripted;
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	cfg.explain = decision_log_add;
	cfg.explain_ud = l;
	cfg.explain_limit = -1;
	script_set(C1, true);
	if (replay_run(&src, &cfg, &rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	run_stats_release(&rs);
	assert_int_equal(l->n, 2);
	assert_int_equal(l->d[0].sleep_length_ns, 3000000);
	assert_int_equal(l->d[0].wake_ns, 3000000);
	/* C1's 2 us exit latency: the 2 ms of work from 3 ms end at 5.002 ms */
	assert_int_equal(l->d[1].time_ns, 5002000);
	assert_int_equal(l->d[1].sleep_length_ns, 998000);
	assert_int_equal(l->d[1].wake_ns, 7000000);
	free(l);
}

static void test_idle_record_wheel_on_grid(void **state)
{
	struct decision_log *l = calloc(1, sizeof(*l));
	struct sim_decision d;

	(void)state;
	assert_non_null(l);
	d = first_decision("idlesim-trace v1\ncpus 1\nend 10000000\nidle 0 1000000 2000000 timer\n",
			   l);
	assert_int_equal(d.sleep_length_ns, 4000000);
	assert_int_equal(d.delta_tick_ns, 4000000);
	assert_false(d.tick_stopped_after);
	assert_int_equal(d.wake_ns, 5000000);
	d = first_decision("idlesim-trace v1\ncpus 1\nend 10000000\n"
			   "idle 0 1000000 2000000 timer timer=hrtimer\n",
			   l);
	assert_int_equal(d.sleep_length_ns, 2000000);
	assert_int_equal(d.delta_tick_ns, 2000000);
	assert_int_equal(d.wake_ns, 3000000);
	free(l);
}

/*
 * keep_tick= (tick_nohz_next_event(), v6.12: with rcu_needs_cpu() or irq work pending the
 * next event is basemono + TICK_NSEC). skl, HZ 250 (TICK_NSEC 4 ms), grid at 0; one period
 * of 20 ms ended by a wheel timer at 20 ms (an edge), C1 (exit latency 2 us), the governor
 * asks to stop the tick every time.
 *  - keep_tick=6000000: at 0 the next event is the tick at 4 ms: sleep length 4 ms, the
 *    tick kept. The tick at 4 ms ends the entry; after C1's 2 us exit the governor is asked
 *    at 4,002,000 (< 6 ms): still kept, sleep length 8 ms - 4,002,000 = 3,998,000. The tick
 *    at 8 ms: asked at 8,002,000 >= 6 ms: the callbacks are gone, the sleep length is the
 *    wheel timer, 20 ms - 8,002,000 = 11,998,000, and the tick stops.
 *  - without it: one decision at 0, sleep length 20 ms, stopped.
 */
static void test_keep_tick(void **state)
{
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	all_decisions(HDR "end 30000000\nidle 0 0 20000000 timer keep_tick=6000000\n", l);
	assert_true(l->n >= 3);
	assert_int_equal(l->d[0].time_ns, 0);
	assert_int_equal(l->d[0].sleep_length_ns, 4000000);
	assert_int_equal(l->d[0].delta_tick_ns, 4000000);
	assert_false(l->d[0].tick_stopped_after);
	assert_int_equal(l->d[1].time_ns, 4002000);
	assert_int_equal(l->d[1].sleep_length_ns, 3998000);
	assert_false(l->d[1].tick_stopped_after);
	assert_int_equal(l->d[2].time_ns, 8002000);
	assert_int_equal(l->d[2].sleep_length_ns, 11998000);
	assert_true(l->d[2].tick_stopped_after);
	all_decisions(HDR "end 30000000\nidle 0 0 20000000 timer\n", l);
	assert_int_equal(l->d[0].sleep_length_ns, 20000000);
	assert_true(l->d[0].tick_stopped_after);
	/* JSON carries it too */
	all_decisions("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, "
		      "\"tick_phase\": 0, \"end\": 30000000, \"records\": [{\"type\": "
		      "\"idle\", \"cpu\": 0, \"start\": 0, \"length\": 20000000, "
		      "\"cause\": \"timer\", \"keep_tick\": 6000000}]}",
		      l);
	assert_int_equal(l->d[0].sleep_length_ns, 4000000);
	assert_int_equal(l->d[2].sleep_length_ns, 11998000);
	free(l);
}

/* keep_tick= and slack= are written back as read (and not at all when 0). */
static void test_keep_tick_written(void **state)
{
	static const struct {
		const char *line;
		int64_t keep_tick_ns, slack_ns;
	} c[] = {
		{ "idle 0 5 20 timer keep_tick=6000000\n", 6000000, 0 },
		{ "idle 0 5 20 timer\n", 0, 0 },
		{ "idle 0 5 2000 timer timer=hrtimer slack=50\n", 0, 50 },
		{ "timer 0 5 t 2000 kind=hrtimer slack=50\n", 0, 50 },
		{ "timer 0 5 t 2000 global=1\n", 0, 0 },
	};
	struct trace_record rec;
	struct sim_error err;
	char text[256], out[256];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct trace_reader *r;
		FILE *f = fmemopen(out, sizeof(out), "w");

		snprintf(text, sizeof(text), "idlesim-trace v1\ncpus 1\n%s", c[i].line);
		r = trace_open_string("<test>", text, &err);
		assert_non_null(r);
		assert_int_equal(trace_next(r, &rec, &err), 1);
		assert_int_equal(rec.keep_tick_ns, c[i].keep_tick_ns);
		assert_int_equal(rec.slack_ns, c[i].slack_ns);
		assert_non_null(f);
		assert_int_equal(trace_write_record(f, &rec), 0);
		fclose(f);
		assert_string_equal(out, c[i].line);
		trace_close(r);
	}
}

/*
 * deferrable=1 (TIMER_DEFERRABLE, v6.12: BASE_DEF is left out of the next event and never
 * wakes an idle CPU). Event records, HZ 250, grid at 0, the CPU idle from 0:
 *  - d, wheel, armed at 0 for 2 ms: expires ceil(2/4) = 1 jiffy, level 0, bucket 2: 8 ms;
 *    w, wheel, for 20 ms: expires 5, bucket 6: 24 ms. Deferrable d: the sleep length is w's
 *    24 ms and w wakes the CPU at 24 ms; without the flag d's 8 ms and a wakeup at 8 ms.
 *  - d periodic (period 4 ms), deferrable: overdue at the 24 ms wakeup, it runs then and is
 *    re-armed from there (28 ms: expires 7, bucket 8, 32 ms); the CPU, idle again from
 *    24 ms with only that timer, sees no timer at all (KTIME_MAX) until an irq at 30 ms.
 * An hrtimer has no such flag: deferrable=1 with kind=hrtimer is an error.
 */
static void test_deferrable_timer_record(void **state)
{
	struct decision_log *l = calloc(1, sizeof(*l));
	struct sim_error err = { 0 };
	struct run_stats rs;

	(void)state;
	assert_non_null(l);
	all_decisions(HDR "end 40000000\ntimer 0 0 d 2000000 deferrable=1\ntimer 0 0 w 20000000\n",
		      l);
	assert_int_equal(l->d[0].sleep_length_ns, 24000000);
	assert_int_equal(l->d[0].wake_ns, 24000000);
	all_decisions("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, "
		      "\"tick_phase\": 0, \"end\": 40000000, \"records\": ["
		      "{\"type\": \"timer\", \"cpu\": 0, \"time\": 0, \"id\": \"d\", "
		      "\"expiry\": 2000000, \"deferrable\": 1}, {\"type\": \"timer\", \"cpu\": 0, "
		      "\"time\": 0, \"id\": \"w\", \"expiry\": 20000000}]}",
		      l);
	assert_int_equal(l->d[0].sleep_length_ns, 24000000);
	all_decisions(HDR "end 40000000\ntimer 0 0 d 2000000\ntimer 0 0 w 20000000\n", l);
	assert_int_equal(l->d[0].sleep_length_ns, 8000000);
	assert_int_equal(l->d[0].wake_ns, 8000000);
	all_decisions(HDR "end 40000000\ntimer 0 0 d 2000000 period=4000000 deferrable=1\n"
			  "timer 0 0 w 20000000\nwake 0 30000000 irq\n",
		      l);
	assert_int_equal(l->d[0].wake_ns, 24000000);
	assert_true(l->n >= 2);
	assert_int_equal(l->d[1].time_ns, 24002000); /* after C1's 2 us exit */
	assert_true(l->d[1].sleep_length_ns == KTIME_MAX);
	assert_int_equal(replay_string(HDR "timer 0 0 h 5 kind=hrtimer deferrable=1\n", NULL, &rs,
				       &err),
			 -1);
	assert_non_null(strstr(err.text, "deferrable=1 is a timer-wheel flag"));
	free(l);
}

/*
 * hrtimer slack (v6.12 hrtimer.c: hrtimer_start_range_ns() sets the soft expiry, the hard
 * one is soft + slack; the clock-event device is programmed for the hard expiry, which is
 * what the sleep length counts, and __hrtimer_run_queues() runs, at any hrtimer interrupt,
 * every timer whose soft expiry has passed). HZ 250, grid at 0, C1 (exit 2 us).
 * Idle records, `idle 0 0 8030000 timer timer=hrtimer slack=50000` (soft 7.98 ms):
 *  - tick kept: the tick wakes the CPU at 4 ms (select again at 4,002,000); the tick at 8 ms
 *    is inside [7.98, 8.03) ms: it runs the timer, whose wakeup ends the period at 8 ms. The
 *    work comes 30 us early: ready at 8,002,000 instead of 8,030,000, 28 us ahead, so the
 *    next record's period, at 8.1 ms in the trace, starts at 8,072,000.
 *  - slack 20,000 (soft 8.01 ms): the tick at 8 ms is before it: a tick wakeup, and the
 *    timer at 8.03 ms (third decision at 8,002,000).
 *  - tick stopped: nothing fires in the window: the wakeup at 8.03 ms, the next period at
 *    8,102,000 (the work 2 us behind, C1's exit).
 * Event records:
 *  - h (hrtimer, 3 ms, slack 0.5 ms) and k (hrtimer, 2.8 ms), x (20 ms), tick stopped: k's
 *    interrupt at 2.8 ms runs h too (soft 2.5 ms passed), so the CPU, idle again at
 *    2,802,000, sleeps until x: 17,198,000. Without slack, h is pending: 198,000.
 *  - busy 0 to 4.01 ms, h at 4.03 ms with slack 50 us (soft 3.98): the tick at 4 ms, the
 *    CPU busy, runs it; idle at 4.01 ms, sleep until x: 15,990,000. Without slack h wakes
 *    the idle CPU: sleep 20,000.
 *  - h at 4.03 ms, slack 100 us (soft 3.93), an irq at 3.95 ms: an interrupt other than a
 *    timer's runs no hrtimer, so the CPU, idle again at 3,952,000, sleeps until h: 78,000.
 *  - h alone at 8.03 ms with slack 50 us, tick kept: as the idle record: ended at 8 ms by
 *    its own wakeup (cause timer).
 */
static void test_hrtimer_slack(void **state)
{
	struct decision_log *l = calloc(1, sizeof(*l));
	const char *const two = HDR "end 20000000\nidle 0 0 8030000 timer timer=hrtimer slack=50000\n"
				    "idle 0 8100000 1000000 irq\n";

	(void)state;
	assert_non_null(l);
	decisions_tick(two, l, false);
	assert_true(l->n >= 3);
	assert_int_equal(l->d[0].wake_ns, 4000000);
	assert_int_equal(l->d[0].cause, WAKE_TICK);
	assert_int_equal(l->d[1].time_ns, 4002000);
	assert_int_equal(l->d[1].sleep_length_ns, 4028000);
	assert_int_equal(l->d[1].wake_ns, 8000000);
	assert_int_equal(l->d[1].cause, WAKE_TIMER);
	assert_int_equal(l->d[2].time_ns, 8072000);
	decisions_tick(HDR "end 20000000\nidle 0 0 8030000 timer timer=hrtimer slack=20000\n", l,
		       false);
	assert_true(l->n >= 3);
	assert_int_equal(l->d[1].wake_ns, 8000000);
	assert_int_equal(l->d[1].cause, WAKE_TICK);
	assert_int_equal(l->d[2].time_ns, 8002000);
	assert_int_equal(l->d[2].wake_ns, 8030000);
	assert_int_equal(l->d[2].cause, WAKE_TIMER);
	all_decisions(two, l);
	assert_int_equal(l->d[0].wake_ns, 8030000);
	assert_int_equal(l->d[1].time_ns, 8102000); /* C1's exit: 2 us behind */

	all_decisions(HDR "end 30000000\ntimer 0 0 h 3000000 kind=hrtimer slack=500000\n"
			  "timer 0 0 k 2800000 kind=hrtimer\ntimer 0 0 x 20000000 kind=hrtimer\n",
		      l);
	assert_true(l->n >= 2);
	assert_int_equal(l->d[0].wake_ns, 2800000);
	assert_int_equal(l->d[1].time_ns, 2802000);
	assert_int_equal(l->d[1].sleep_length_ns, 17198000);
	all_decisions(HDR "end 30000000\ntimer 0 0 h 3000000 kind=hrtimer\n"
			  "timer 0 0 k 2800000 kind=hrtimer\ntimer 0 0 x 20000000 kind=hrtimer\n",
		      l);
	assert_int_equal(l->d[1].sleep_length_ns, 198000);

	all_decisions(HDR "end 30000000\ntimer 0 0 h 4030000 kind=hrtimer slack=50000\n"
			  "timer 0 0 x 20000000 kind=hrtimer\nbusy 0 0 4010000\n",
		      l);
	assert_int_equal(l->d[0].time_ns, 4010000);
	assert_int_equal(l->d[0].sleep_length_ns, 15990000);
	all_decisions(HDR "end 30000000\ntimer 0 0 h 4030000 kind=hrtimer\n"
			  "timer 0 0 x 20000000 kind=hrtimer\nbusy 0 0 4010000\n",
		      l);
	assert_int_equal(l->d[0].sleep_length_ns, 20000);

	all_decisions(HDR "end 30000000\ntimer 0 0 h 4030000 kind=hrtimer slack=100000\n"
			  "timer 0 0 x 20000000 kind=hrtimer\nwake 0 3950000 irq\n",
		      l);
	assert_true(l->n >= 2);
	assert_int_equal(l->d[1].time_ns, 3952000);
	assert_int_equal(l->d[1].sleep_length_ns, 78000);
	assert_int_equal(l->d[1].wake_ns, 4030000);

	decisions_tick(HDR "end 30000000\ntimer 0 0 h 8030000 kind=hrtimer slack=50000\n"
			   "timer 0 0 x 20000000 kind=hrtimer\n",
		       l, false);
	assert_true(l->n >= 2);
	assert_int_equal(l->d[1].wake_ns, 8000000);
	assert_int_equal(l->d[1].cause, WAKE_TIMER);
	free(l);
}

/* The first decision of CPU cpu in l. */
static const struct sim_decision *first_of(const struct decision_log *l, int cpu)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i].cpu == cpu)
			return &l->d[i];
	fail_msg("no decision of CPU %d", cpu);
	return NULL;
}

/*
 * Timer migration in event traces (global=1; v6.12 pull model, as test_loop_timer_migration
 * for closed loops). 2 CPUs, HZ 250, grid at 0. g, global, armed at 0 for 20 ms: expires 5,
 * bucket 6, fires at 24 ms; x, an hrtimer at 50 ms, on CPU 0.
 *  - CPU 1 works to 30 ms: CPU 0, idle from 0, is not the last active CPU and g is not due
 *    by the next jiffy (4 ms): its sleep length leaves g out (50 ms); at 24 ms g runs on
 *    the active CPU 1, and CPU 0 sleeps on to 50 ms. Without global=1: 24 ms.
 *  - CPU 1 works to 1 ms, then idles: it is the last active CPU, so its sleep length is the
 *    earliest global timer of all, g: 23 ms; at 24 ms no CPU is active and g runs on the
 *    CPU that went idle last, CPU 1, woken then; CPU 0 still sleeps to 50 ms.
 *  - g armed for 1 ms (expires 1, bucket 2: 8 ms), CPU 0 working to 5 ms: at its idle entry
 *    g is due by the next jiffy edge (8 ms): counted (sleep length 3 ms), and CPU 0 runs it
 *    itself at 8 ms, though CPU 1 is active.
 * An hrtimer does not migrate and a deferrable timer is neither local nor global: errors.
 */
static void test_global_timer_migration(void **state)
{
	struct decision_log *l = calloc(1, sizeof(*l));
	struct sim_error err = { 0 };
	struct run_stats rs;
	const struct sim_decision *d;

	(void)state;
	assert_non_null(l);
	all_decisions(HDR2 "end 60000000\ntimer 0 0 g 20000000 global=1\n"
			   "timer 0 0 x 50000000 kind=hrtimer\nbusy 1 0 30000000\n",
		      l);
	d = first_of(l, 0);
	assert_int_equal(d->sleep_length_ns, 50000000);
	assert_int_equal(d->wake_ns, 50000000);
	all_decisions(HDR2 "end 60000000\ntimer 0 0 g 20000000\n"
			   "timer 0 0 x 50000000 kind=hrtimer\nbusy 1 0 30000000\n",
		      l);
	d = first_of(l, 0);
	assert_int_equal(d->sleep_length_ns, 24000000);
	assert_int_equal(d->wake_ns, 24000000);

	all_decisions(HDR2 "end 60000000\ntimer 0 0 g 20000000 global=1\n"
			   "timer 0 0 x 50000000 kind=hrtimer\nbusy 1 0 1000000\n",
		      l);
	d = first_of(l, 1);
	assert_int_equal(d->time_ns, 1000000);
	assert_int_equal(d->sleep_length_ns, 23000000);
	assert_int_equal(d->wake_ns, 24000000);
	assert_int_equal(d->cause, WAKE_TIMER);
	d = first_of(l, 0);
	assert_int_equal(d->sleep_length_ns, 50000000);
	assert_int_equal(d->wake_ns, 50000000);

	all_decisions(HDR2 "end 60000000\ntimer 0 0 g 1000000 global=1\n"
			   "timer 0 0 x 50000000 kind=hrtimer\nbusy 0 0 5000000\nbusy 1 0 30000000\n",
		      l);
	d = first_of(l, 0);
	assert_int_equal(d->time_ns, 5000000);
	assert_int_equal(d->sleep_length_ns, 3000000);
	assert_int_equal(d->wake_ns, 8000000);

	assert_int_equal(replay_string(HDR "timer 0 0 h 5 kind=hrtimer global=1\n", NULL, &rs, &err),
			 -1);
	assert_non_null(strstr(err.text, "an hrtimer does not migrate"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(replay_string(HDR "timer 0 0 h 5 deferrable=1 global=1\n", NULL, &rs, &err),
			 -1);
	assert_non_null(strstr(err.text, "global=1 and deferrable=1 do not go together"));
	free(l);
}

/* ---- the closed loop's timer world (sim/sched/loop.c) ---- */

/* A scripted closed loop: the items given are sent at the start, nothing follows. */
#define SM_ITEMS 4
struct script_model {
	struct loop_item it[SM_ITEMS];
	int n;
	struct loop_world w;
	int64_t armed[2];
	int64_t done_ns[SM_ITEMS];
	int done_cpu[SM_ITEMS];
	int64_t expiry_6ms, expiry_300ms; /* loop_wheel_expiry() at the start */
};

static int sm_start(void *model, struct loop *L, struct sim_error *err)
{
	struct script_model *m = model;
	int i;

	if (loop_set_world(L, &m->w, err))
		return -1;
	m->expiry_6ms = loop_wheel_expiry(L, 6000000);
	m->expiry_300ms = loop_wheel_expiry(L, 300000000);
	for (i = 0; i < m->n; i++) {
		m->it[i].kind = i;
		m->done_ns[i] = -1;
		if (loop_send(L, &m->it[i], err))
			return -1;
	}
	return 0;
}

static int sm_done(void *model, struct loop *L, const struct loop_item *it, int64_t t,
		   struct sim_error *err)
{
	struct script_model *m = model;

	(void)L;
	(void)err;
	m->done_ns[it->kind] = t;
	m->done_cpu[it->kind] = it->cpu;
	return 0;
}

static int64_t sm_armed(void *model, int cpu, int64_t t)
{
	(void)t;
	return ((struct script_model *)model)->armed[cpu];
}

static const struct loop_model_ops sm_ops = { .start = sm_start,
					      .done = sm_done,
					      .armed_timer = sm_armed };

/* Run it on skl's first nr_cpus CPUs, HZ 250 (grid at 0), the scripted governor (C1, exit
 * 2 us, stop the tick) for duration_ns; the decisions of `cpu` go to l. */
static void sm_run(struct script_model *m, int nr_cpus, int64_t duration_ns, int cpu,
		   struct decision_log *l)
{
	struct decision_log *all = calloc(1, sizeof(*all));
	struct sim_config cfg = { 0 };
	struct sim_error err = { 0 };
	struct loop_result r;
	struct machine mach;
	int i;

	assert_non_null(all);
	assert_int_equal(machine_load("skl", &mach, &err), 0);
	script_set(C1, true);
	cfg.machine = &mach;
	cfg.gov = &gov_scripted;
	cfg.hz = 250;
	cfg.nr_cpus = nr_cpus;
	cfg.latency_req_ns = -1;
	cfg.explain = decision_log_add;
	cfg.explain_ud = all;
	cfg.explain_limit = -1;
	cfg.explain_truncated = true; /* an entry the end cuts is a decision too */
	for (i = 0; i < 2; i++)
		if (!m->armed[i])
			m->armed[i] = SIM_TIME_NEVER;
	assert_int_equal(loop_run(&cfg, &sm_ops, m, duration_ns, 1, &r, &err), 0);
	loop_result_release(&r);
	memset(l, 0, sizeof(*l));
	for (i = 0; i < all->n; i++)
		if (all->d[i].cpu == cpu)
			l->d[l->n++] = all->d[i];
	free(all);
}

static struct loop_item sm_item(int cpu, int64_t at_ns, int64_t work_ns, enum wake_cause cause)
{
	struct loop_item it = { 0 };

	it.cpu = cpu;
	it.arrival_ns = at_ns;
	it.work_ns = work_ns;
	it.cause = cause;
	return it;
}

/*
 * loop_wheel_expiry() at 0 (HZ 250, clk 0): 6 ms is expires = ceil(6/4) = 2 jiffies, level
 * 0, bucket 3: 12 ms; 300 ms is 75 jiffies, level 1 (63 <= 75 < 504), granularity 8:
 * (75 / 8 + 1) * 8 = 80 jiffies, 320 ms.
 * A deferrable timer (2 ms) neither wakes the idle CPU nor counts in its sleep length
 * (KTIME_MAX: nothing else is pending); the IPI at 5 ms wakes it, ready at 5,002,000
 * after C1's exit, and the overdue deferrable work (5 us) runs first: done at 5,007,000,
 * then the IPI's 10 us: 5,017,000.
 */
static void test_loop_wheel_and_deferrable(void **state)
{
	struct script_model m = { 0 };
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	m.it[0] = sm_item(0, 2000000, 5000, WAKE_TIMER);
	m.it[0].deferrable = true;
	m.it[1] = sm_item(0, 5000000, 10000, WAKE_IPI);
	m.n = 2;
	sm_run(&m, 1, 10000000, 0, l);
	assert_int_equal(m.expiry_6ms, 12000000);
	assert_int_equal(m.expiry_300ms, 320000000);
	assert_int_equal(l->d[0].time_ns, 0);
	assert_true(l->d[0].sleep_length_ns == KTIME_MAX);
	assert_int_equal(l->d[0].wake_ns, 5000000);
	assert_int_equal(l->d[0].cause, WAKE_IPI);
	assert_int_equal(m.done_ns[0], 5007000);
	assert_int_equal(m.done_ns[1], 5017000);
	free(l);
}

/*
 * Timer migration (v6.12): CPU 0's global timer-wheel timer at 40 ms (5 us of work).
 *  - CPU 1 runs a 100 ms item from 0: CPU 0, idle from 0, is not the last active CPU, so
 *    its sleep length leaves the global timer out (KTIME_MAX); the timer runs on the
 *    active CPU 1, after its item: done at 100,005,000 on CPU 1; CPU 0 is never woken.
 *  - The push model (tmigr 0): the timer counts (sleep length 40 ms) and wakes CPU 0,
 *    which runs it after C1's exit: 40,007,000 on CPU 0.
 *  - CPU 1 has nothing (idle from 0, its tick stopped: inactive); CPU 0 runs 1 ms, then
 *    idles as the last active CPU: its sleep length is the earliest global timer, 39 ms;
 *    at 40 ms no CPU is active, so CPU 0, the last to go idle, is woken for it: 40,007,000.
 *  - The same with the timer armed by the model on CPU 1 instead (armed_timer, 30 ms,
 *    never fires): CPU 0's sleep length, as the last active CPU, is 29 ms.
 */
static void test_loop_timer_migration(void **state)
{
	struct script_model m = { 0 };
	struct decision_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	m.it[0] = sm_item(0, 40000000, 5000, WAKE_TIMER);
	m.it[0].global = true;
	m.it[1] = sm_item(1, 0, 100000000, WAKE_IPI);
	m.n = 2;
	m.w.tmigr = true;
	sm_run(&m, 2, 110000000, 0, l);
	assert_int_equal(l->n, 1);
	assert_true(l->d[0].sleep_length_ns == KTIME_MAX);
	assert_int_equal(m.done_cpu[0], 1);
	assert_int_equal(m.done_ns[0], 100005000);

	m.w.tmigr = false;
	sm_run(&m, 2, 110000000, 0, l);
	assert_int_equal(l->d[0].sleep_length_ns, 40000000);
	assert_int_equal(m.done_cpu[0], 0);
	assert_int_equal(m.done_ns[0], 40007000);

	m.it[1] = sm_item(0, 0, 1000000, WAKE_IPI);
	m.w.tmigr = true;
	sm_run(&m, 2, 110000000, 0, l);
	assert_int_equal(l->d[0].time_ns, 1000000);
	assert_int_equal(l->d[0].sleep_length_ns, 39000000);
	assert_int_equal(m.done_cpu[0], 0);
	assert_int_equal(m.done_ns[0], 40007000);

	m.n = 1;
	m.it[0] = m.it[1];
	m.armed[1] = 30000000;
	sm_run(&m, 2, 110000000, 0, l);
	assert_int_equal(l->d[0].time_ns, 1000000);
	assert_int_equal(l->d[0].sleep_length_ns, 29000000);
	free(l);
}

/*
 * RCU keeping the tick (rcu_jiffies 3): an item whose work queues RCU callbacks ends at
 * 1 ms, in jiffy 0: callbacks pending until the edge of jiffy 0 + 3, 12 ms. The CPU idles
 * from 1 ms until an IPI at 20 ms: asked at 1 ms, 4,002,000 and 8,002,000 (each tick wakes
 * it; C1's exit is 2 us) it sees the next tick, 3,000,000 then 3,998,000 ns away, and keeps
 * the tick; at 12,002,000 the callbacks are gone: KTIME_MAX, the tick stops.
 */
static void test_loop_rcu_keeps_tick(void **state)
{
	static const int64_t at[] = { 1000000, 4002000, 8002000, 12002000 };
	static const int64_t sleep[] = { 3000000, 3998000, 3998000, KTIME_MAX };
	struct script_model m = { 0 };
	struct decision_log *l = calloc(1, sizeof(*l));
	int i;

	(void)state;
	assert_non_null(l);
	m.it[0] = sm_item(0, 0, 1000000, WAKE_IPI);
	m.it[0].rcu = true;
	m.it[1] = sm_item(0, 20000000, 1000, WAKE_IPI);
	m.n = 2;
	m.w.rcu_jiffies = 3;
	sm_run(&m, 1, 30000000, 0, l);
	assert_true(l->n >= 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(l->d[i].time_ns, at[i]);
		assert_true(l->d[i].sleep_length_ns == sleep[i]);
		assert_int_equal(l->d[i].tick_stopped_after, i == 3);
	}
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timer_kind_tick_rule),
		cmocka_unit_test(test_wheel_arithmetic),
		cmocka_unit_test(test_wheel_timers_on_grid),
		cmocka_unit_test(test_closed_loop_periods_as_recorded),
		cmocka_unit_test(test_idle_record_wheel_on_grid),
		cmocka_unit_test(test_keep_tick),
		cmocka_unit_test(test_keep_tick_written),
		cmocka_unit_test(test_deferrable_timer_record),
		cmocka_unit_test(test_hrtimer_slack),
		cmocka_unit_test(test_global_timer_migration),
		cmocka_unit_test(test_loop_wheel_and_deferrable),
		cmocka_unit_test(test_loop_timer_migration),
		cmocka_unit_test(test_loop_rcu_keeps_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
