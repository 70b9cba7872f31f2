// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_engine.c - golden scenarios for the idle loop, with expectations computed by hand
 * from the kernel rules (traces/FORMAT.md, reference §1). Machine: skl (intel_idle
 * skl_cstates) unless stated; HZ 250, so TICK_NSEC = 4,000,000 ns and ticks fire at
 * multiples of 4 ms. skl exit latency / target residency in ns:
 *   POLL 0/0, C1 2000/2000, C1E 10000/20000, C3 70000/100000, C6 85000/200000,
 *   C7s 124000/800000, C8 200000/800000, C9 480000/5000000, C10 890000/5000000.
 */
#include "tests/testutil.h"

#define HDR "idlesim-trace v1\ncpus 1\n"

static void release(struct run_stats *rs)
{
	run_stats_release(rs);
}

/*
 * One 10 ms idle period (1 ms .. 11 ms, ended by its timer) with the tick kept: the tick
 * at 4 ms and 8 ms splits it into three C1E entries. Exit latency 10 us delays each
 * re-entry.
 *   entry 1: 1,000,000 -> tick 4,000,000: diff = 3,000,000 + 10,000 = 3,010,000
 *   entry 2: 4,010,000 -> tick 8,000,000: diff = 3,990,000 + 10,000 = 4,000,000
 *   entry 3: 8,010,000 -> timer 11,000,000: diff = 2,990,000 + 10,000 = 3,000,000
 * Each diff - 10,000 >= 100,000 (C3, the next enabled deeper state): below each time.
 */
static void test_tick_retained_splits_period(void **state)
{
	struct run_stats rs;
	const struct script *s = &test_script;

	(void)state;
	script_set(C1E, false);
	replay_ok(HDR "idle 0 1000000 10000000 timer\n", NULL, &rs);
	assert_int_equal(rs.total.states[C1E].usage, 3);
	assert_int_equal(rs.total.states[C1E].time_ns, 10010000);
	assert_int_equal(rs.total.states[C1E].below, 3);
	assert_int_equal(rs.total.states[C1E].above, 0);
	assert_int_equal(rs.total.wakeups[WAKE_TICK], 2);
	assert_int_equal(rs.total.wakeups[WAKE_TIMER], 1);
	assert_int_equal(rs.total.idle_periods, 1);
	/* What the governor saw at each select. */
	assert_int_equal(s->calls, 3);
	assert_int_equal(s->seen[0].now_ns, 1000000);
	assert_int_equal(s->seen[0].sleep_length_ns, 10000000);
	assert_int_equal(s->seen[0].delta_tick_ns, 3000000); /* next tick at 4 ms */
	assert_false(s->seen[0].got_tick);
	assert_false(s->seen[0].tick_stopped);
	assert_int_equal(s->seen[0].last_state_idx, -1);
	assert_int_equal(s->seen[1].now_ns, 4010000);
	assert_int_equal(s->seen[1].sleep_length_ns, 6990000);
	assert_int_equal(s->seen[1].delta_tick_ns, 3990000);
	assert_true(s->seen[1].got_tick);
	assert_int_equal(s->seen[1].last_residency_ns, 3010000);
	assert_int_equal(s->seen[1].last_state_idx, C1E);
	assert_int_equal(s->seen[2].now_ns, 8010000);
	/* The timer at 11 ms comes before the tick at 12 ms: delta_tick is the timer. */
	assert_int_equal(s->seen[2].delta_tick_ns, 2990000);
	assert_int_equal(s->seen[2].sleep_length_ns, 2990000);
	assert_int_equal(s->reflects, 3);
	assert_int_equal(s->reflected[2], C1E);
	/* Busy 0 before the period (start = first record); none after (exit overhangs). */
	assert_int_equal(rs.total.busy_ns, 0);
	release(&rs);
}

/*
 * The tick fires inside the polling loop without ending it (IRQs are enabled in POLL and
 * the tick sets no need_resched): POLL entered at 3,990,000 ends by its 20 us limit at
 * 4,010,000, and the tick at 4,000,000 shows in tick_nohz_idle_got_tick() at the next select.
 */
static void test_tick_inside_polling(void **state)
{
	struct run_stats rs;

	(void)state;
	script_set(POLL, false);
	replay_ok(HDR "idle 0 3990000 30000 irq\n", NULL, &rs);
	assert_int_equal(test_script.seen[1].now_ns, 4010000);
	assert_false(test_script.seen[0].got_tick);
	assert_true(test_script.seen[1].got_tick);
	assert_int_equal(rs.total.wakeups[WAKE_TICK], 0);
	run_stats_release(&rs);
}

/*
 * A tick that fires while the CPU leaves a state after a wakeup that brought no work also
 * runs in the idle loop. HZ 2000 (TICK_NSEC 500,000); C10 (exit 890,000) with the tick kept,
 * from 100,000: the tick wakes it at 500,000; the governor reads the flag in reflect() (as
 * menu does), clearing it; the exit lasts until 1,390,000 and contains the tick at
 * 1,000,000, so the next select sees the flag set again.
 */
static void test_tick_during_exit(void **state)
{
	struct replay_opts o = { 0 };
	struct run_stats rs;

	(void)state;
	script_set(C10, false);
	test_script.reflect_reads_tick = true;
	o.hz = 2000;
	replay_ok(HDR "idle 0 100000 3000000 irq\n", &o, &rs);
	assert_true(test_script.reflect_got_tick[0]);
	assert_int_equal(test_script.seen[1].now_ns, 1390000);
	assert_true(test_script.seen[1].got_tick);
	run_stats_release(&rs);
}

/* The same period with the tick stopped: one entry, diff = 10,000,000 + 10,000. */
static void test_tick_stopped_one_entry(void **state)
{
	struct run_stats rs;

	(void)state;
	script_set(C1E, true);
	replay_ok(HDR "idle 0 1000000 10000000 timer\n", NULL, &rs);
	assert_int_equal(rs.total.states[C1E].usage, 1);
	assert_int_equal(rs.total.states[C1E].time_ns, 10010000);
	assert_int_equal(rs.total.wakeups[WAKE_TICK], 0);
	release(&rs);
}

/*
 * The governor asks to stop the tick, but the timer (3 ms) is due before the next tick
 * (4 ms): tick_nohz_next_event() keeps the tick. A second select in the same period
 * (after the POLL limit) must see the tick still running.
 */
static void explain_keep(void *ud, const struct sim_decision *d)
{
	struct sim_decision *out = ud;
	int *n = (int *)(out + 8);

	if (*n < 8)
		out[(*n)++] = *d;
}

static void test_tick_kept_when_timer_before_next_tick(void **state)
{
	struct sim_decision dec[9];
	struct replay_opts o = { 0 };
	struct run_stats rs;
	int *n = (int *)&dec[8];

	(void)state;
	memset(dec, 0, sizeof(dec));
	o.explain = explain_keep;
	o.explain_ud = dec;
	o.explain_limit = -1;
	script_set(POLL, true);
	replay_ok(HDR "idle 0 1000000 2000000 timer\n", &o, &rs);
	assert_true(*n >= 2);
	assert_true(dec[0].stop_tick);
	assert_false(dec[0].tick_stopped_after);
	assert_false(test_script.seen[1].tick_stopped);
	release(&rs);

	/* With the timer after the next tick, the tick stops and stays stopped across the
	 * POLL-limit wakeups of the same period. */
	script_set(POLL, true);
	replay_ok(HDR "idle 0 1000000 5000000 timer\n", NULL, &rs);
	assert_false(test_script.seen[0].tick_stopped);
	assert_true(test_script.seen[1].tick_stopped);
	assert_true(test_script.seen[5].tick_stopped);
	release(&rs);
}

/*
 * POLL with its time limit: on skl the first enabled state >= 1 with a target residency of
 * at least 10 us is C1E (20 us), so the limit is 20,000 ns (< TICK_NSEC/16 = 250,000).
 * Period 1,000,000 .. 1,090,000 (irq): entries at 1.00, 1.02, 1.04, 1.06 ms end by the limit
 * (20,000 each), the fifth (1.08 ms) by the irq at 1.09 ms (10,000). Each is below: diff >
 * 0 and diff >= 2,000 (C1's target residency).
 */
static void test_poll_time_limit(void **state)
{
	struct run_stats rs;
	const struct script *s = &test_script;

	(void)state;
	script_set(POLL, false);
	replay_ok(HDR "idle 0 1000000 90000 irq\n", NULL, &rs);
	assert_int_equal(rs.total.states[POLL].usage, 5);
	assert_int_equal(rs.total.states[POLL].time_ns, 90000);
	assert_int_equal(rs.total.states[POLL].below, 5);
	assert_int_equal(rs.total.wakeups[WAKE_POLL], 4);
	assert_int_equal(rs.total.wakeups[WAKE_IRQ], 1);
	assert_false(s->seen[0].poll_time_limit);
	assert_true(s->seen[1].poll_time_limit);
	assert_true(s->seen[4].poll_time_limit);
	assert_int_equal(s->seen[4].now_ns, 1080000);
	/* A POLL wakeup brings no work: no wakeup-latency sample; the irq costs 0 (POLL). */
	assert_int_equal(rs.total.wake_latency.n, 1);
	assert_int_equal(rs.total.wake_latency.max_ns, 0);
	release(&rs);
}

/* The POLL limit follows the enabled states (>= v5.11 rule). */
static void test_poll_limit_follows_enabled_states(void **state)
{
	struct replay_opts o = { 0 };
	struct run_stats rs;

	(void)state;
	/* C1E disabled: the first enabled state with residency >= 10 us is C3, 100 us. One
	 * 250 us period: limits at 100 and 200 us, then the irq at 250 us. */
	script_set(POLL, false);
	o.disabled = 1u << C1E;
	replay_ok(HDR "idle 0 0 250000 irq\n", &o, &rs);
	assert_int_equal(rs.total.states[POLL].usage, 3);
	assert_int_equal(rs.total.wakeups[WAKE_POLL], 2);
	release(&rs);

	/* Only POLL and C1 (2 us) enabled: no state reaches 10 us, the limit is
	 * TICK_NSEC / 16 = 250,000 ns. */
	script_set(POLL, false);
	o.disabled = ~((1u << POLL) | (1u << C1)) & 0x1ff;
	replay_ok(HDR "idle 0 0 600000 irq\n", &o, &rs);
	assert_int_equal(rs.total.states[POLL].usage, 3); /* 250 + 250 + 100 us */
	assert_int_equal(rs.total.wakeups[WAKE_POLL], 2);
	release(&rs);

	/* HZ 1000: TICK_NSEC / 16 = 62,500 ns caps C3's 100 us. */
	script_set(POLL, false);
	o.disabled = 1u << C1E;
	o.hz = 1000;
	replay_ok(HDR "idle 0 0 130000 irq\n", &o, &rs);
	assert_int_equal(rs.total.states[POLL].usage, 3); /* 62.5 + 62.5 + 5 us */
	release(&rs);
}

/* One C6 entry (exit 85 us, residency 200 us) ended by an irq after `len` ns. */
static void c6_entry(int64_t len, uint32_t disabled, struct run_stats *rs)
{
	struct replay_opts o = { 0 };
	char text[256];

	o.disabled = disabled;
	script_set(C6, true);
	snprintf(text, sizeof(text), HDR "idle 0 1000000 %lld irq\n", (long long)len);
	replay_ok(text, &o, rs);
	assert_int_equal(rs->total.states[C6].usage, 1);
	assert_int_equal((int64_t)rs->total.states[C6].time_ns, len + 85000);
}

static void test_above_below_edges(void **state)
{
	struct run_stats rs;
	const uint32_t shallower = (1u << POLL) | (1u << C1) | (1u << C1E) | (1u << C3);

	(void)state;
	/* diff = 114,999 + 85,000 = 199,999 < 200,000: above (C3 is enabled). */
	c6_entry(114999, 0, &rs);
	assert_int_equal(rs.total.states[C6].above, 1);
	release(&rs);
	/* diff = 200,000, equal to the target residency: not above; and diff - exit =
	 * 115,000 < 800,000 (C7s): not below. A hit. */
	c6_entry(115000, 0, &rs);
	assert_int_equal(rs.total.states[C6].above, 0);
	assert_int_equal(rs.total.states[C6].below, 0);
	release(&rs);
	/* Shallower states disabled except POLL: still above (first enabled shallower). */
	c6_entry(10000, (1u << C1) | (1u << C1E) | (1u << C3), &rs);
	assert_int_equal(rs.total.states[C6].above, 1);
	release(&rs);
	/* Every shallower state disabled: above is impossible. */
	c6_entry(10000, shallower, &rs);
	assert_int_equal(rs.total.states[C6].above, 0);
	assert_int_equal(rs.total.states[C6].below, 0);
	release(&rs);
	/* diff - exit = 800,000 = C7s's residency: below (>=). */
	c6_entry(800000, 0, &rs);
	assert_int_equal(rs.total.states[C6].below, 1);
	release(&rs);
	c6_entry(799999, 0, &rs);
	assert_int_equal(rs.total.states[C6].below, 0);
	release(&rs);
	/* C7s and C8 disabled: the first enabled deeper state is C9 (5 ms); 1 ms is not
	 * enough, even though C7s and C8 would have fitted. */
	c6_entry(1000000, (1u << C7S) | (1u << C8), &rs);
	assert_int_equal(rs.total.states[C6].below, 0);
	release(&rs);
	c6_entry(5000000, (1u << C7S) | (1u << C8), &rs);
	assert_int_equal(rs.total.states[C6].below, 1);
	release(&rs);
	/* Every deeper state disabled: below is impossible. */
	c6_entry(5000000, (1u << C7S) | (1u << C8) | (1u << C9) | (1u << C10), &rs);
	assert_int_equal(rs.total.states[C6].below, 0);
	release(&rs);
}

/*
 * PM QoS: with a 50 us limit the oracle cannot use C3 (70 us exit) or deeper. A 10 ms timer
 * period then goes to C1E, the tick stopped (the period outlasts the next tick at 4 ms);
 * diff - 10,000 = 10 ms >= 100 us (C3): below, which is the oracle's only way to get one.
 */
static void test_latency_limit(void **state)
{
	struct replay_opts o = { 0 };
	struct run_stats rs;

	(void)state;
	o.gov = gov_find("oracle");
	o.latency_req_ns = 50000;
	replay_ok(HDR "idle 0 1000000 10000000 timer\n", &o, &rs);
	assert_int_equal(rs.total.states[C1E].usage, 1);
	assert_int_equal(rs.total.states[C1E].below, 1);
	assert_int_equal(rs.total.wakeups[WAKE_TICK], 0);
	release(&rs);

	/* The scripted governor sees the limit in ns. */
	script_set(C1, false);
	o.gov = NULL;
	replay_ok(HDR "idle 0 1000000 1000 irq\n", &o, &rs);
	assert_int_equal(test_script.seen[0].latency_req_ns, 50000);
	release(&rs);

	/* No request: PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2e9 us) in ns. */
	script_set(C1, false);
	replay_ok(HDR "idle 0 1000000 1000 irq\n", NULL, &rs);
	assert_int_equal(test_script.seen[0].latency_req_ns, 2000000000000LL);
	release(&rs);

	/* A limit of 0: `deepest` can only use POLL. */
	o.gov = gov_find("deepest");
	o.latency_req_ns = 0;
	/* latency_req_ns = 0 in replay_opts means "none", so use 1 ns: POLL is the only
	 * state with an exit latency <= 1 ns. */
	o.latency_req_ns = 1;
	replay_ok(HDR "idle 0 1000000 1000000 irq\n", &o, &rs);
	assert_int_equal(rs.total.states[POLL].usage, rs.total.states[POLL].usage);
	assert_int_equal(rs.total.states[C1].usage, 0);
	assert_true(rs.total.states[POLL].usage >= 1);
	release(&rs);
}

/*
 * No timer: an irq period without next_timer has sleep length KTIME_MAX, and with the tick
 * running delta_tick is the time to the next tick.
 */
static void test_no_timer(void **state)
{
	struct run_stats rs;

	(void)state;
	script_set(C6, true);
	replay_ok(HDR "idle 0 1000000 500000 irq iowait=2\n", NULL, &rs);
	assert_int_equal(test_script.seen[0].sleep_length_ns, KTIME_MAX);
	assert_int_equal(test_script.seen[0].delta_tick_ns, 3000000);
	assert_int_equal(test_script.seen[0].nr_iowait, 2);
	assert_int_equal(test_script.seen[0].oracle_idle_ns, 500000);
	release(&rs);
}

/*
 * Exit latency outlasting the work: `deepest` picks C10 (exit 890 us). The irq at 100 us
 * wakes it (latency 890,000); the CPU runs again at 990,000, after the next period's
 * wakeup (250,000): that period is absorbed, and its irq waited 990,000 - 250,000 =
 * 740,000 ns. Percentiles by nearest rank over {740,000, 890,000}.
 */
static void test_exit_latency_absorbs_next_period(void **state)
{
	struct replay_opts o = { 0 };
	struct run_stats rs;

	(void)state;
	o.gov = gov_find("deepest");
	replay_ok(HDR "idle 0 0 100000 irq\nidle 0 150000 100000 irq\n", &o, &rs);
	assert_int_equal(rs.total.states[C10].usage, 1);
	assert_int_equal(rs.total.absorbed, 1);
	assert_int_equal(rs.total.idle_periods, 1);
	assert_int_equal(rs.total.wake_latency.n, 2);
	assert_int_equal(rs.total.wake_latency.max_ns, 890000);
	assert_int_equal(lat_hist_percentile(&rs.total.wake_latency, 50), 740000);
	assert_int_equal(lat_hist_percentile(&rs.total.wake_latency, 99), 890000);
	assert_true(lat_hist_mean(&rs.total.wake_latency) == 815000.0);
	release(&rs);
}

/*
 * Event records (FORMAT.md example): a 1 ms periodic timer, 20 us of work at the start.
 * The oracle: first period 20,000 .. 1,000,000 (980 us) -> C8, the deepest state whose
 * residency (800 us) fits; it prewakes (its exit, 200 us, ends at the timer), so the
 * measured residency is the idle time and the next period starts at 1 ms with the full
 * 1000 us -> C8 again, and so on until the wakeup at 5 ms = end.
 * time = 980,000 + 4 x 1,000,000; busy = 20,000; no wakeup latency.
 */
static void test_event_records_periodic(void **state)
{
	struct replay_opts o = { 0 };
	struct run_stats rs;

	(void)state;
	o.gov = gov_find("oracle");
	replay_ok(HDR "end 5000000\ntimer 0 0 t 1000000 period=1000000\nbusy 0 0 20000\n", &o, &rs);
	assert_int_equal(rs.total.states[C8].usage, 5);
	assert_int_equal(rs.total.states[C8].time_ns, 4980000);
	assert_int_equal(rs.total.states[C8].above, 0);
	assert_int_equal(rs.total.states[C8].below, 0);
	assert_int_equal(rs.total.wakeups[WAKE_TIMER], 5);
	assert_int_equal(rs.total.busy_ns, 20000);
	assert_int_equal(rs.end_ns, 5000000);
	release(&rs);
}

/*
 * resched=0: an interrupt at 1.5 ms wakes no task, so the CPU stays in the idle loop with the
 * tick still stopped. The scripted governor picks C6 (exit 85 us) and asks to stop the tick:
 *   select 1 at 1,000,000: no timer pending, so the tick stops (next timer beyond 4 ms);
 *   the irq at 1,500,000 ends the entry: diff = 500,000 + 85,000; wake latency 85,000;
 *   select 2 at 1,585,000 (after the exit), tick still stopped, for the period
 *   [1,500,000, 2,000,000) ended by its timer: sleep length 415,000;
 *   entry 2: 1,585,000 -> 2,000,000, diff = 415,000 + 85,000.
 * No busy time between the two entries: the CPU never left the idle loop.
 */
static void test_resched0_keeps_idle_loop(void **state)
{
	struct run_stats rs;
	const struct script *s = &test_script;

	(void)state;
	script_set(C6, true);
	replay_ok(HDR "idle 0 1000000 500000 irq resched=0\nidle 0 1500000 500000 timer\n", NULL,
		  &rs);
	assert_int_equal(s->calls, 2);
	assert_false(s->seen[0].tick_stopped);
	assert_true(s->seen[1].tick_stopped);
	assert_int_equal(s->seen[1].now_ns, 1585000);
	assert_int_equal(s->seen[1].sleep_length_ns, 415000);
	assert_int_equal(s->seen[1].last_residency_ns, 585000);
	assert_int_equal(rs.total.states[C6].usage, 2);
	assert_int_equal(rs.total.states[C6].time_ns, 585000 + 500000);
	assert_int_equal(rs.total.wakeups[WAKE_IRQ], 1);
	assert_int_equal(rs.total.wakeups[WAKE_TIMER], 1);
	assert_int_equal(rs.total.idle_periods, 1); /* entered from work once */
	assert_int_equal(rs.total.busy_ns, 0);
	assert_int_equal(rs.total.wake_latency.n, 1);
	assert_int_equal(rs.total.wake_latency.max_ns, 85000);
	run_stats_release(&rs);

	/* The same without resched=0: the tick restarts for the second period. */
	script_set(C6, true);
	replay_ok(HDR "idle 0 1000000 500000 irq\nidle 0 1500000 500000 timer\n", NULL, &rs);
	assert_false(test_script.seen[1].tick_stopped);
	assert_int_equal(rs.total.idle_periods, 2);
	run_stats_release(&rs);
}

/*
 * Event records: a timer whose expiries wake no task. Timer t every 10 ms from 10 ms with
 * resched=0, and an irq at 25 ms that brings work (no busy record: zero-length work). C1
 * (exit 2 us); the script asks to stop the tick, which works since each timer is beyond the
 * next tick (4 ms grid). The expiries at 10 and 20 ms keep the CPU in the idle loop: the
 * selects at 10,002,000 and 20,002,000 see the tick stopped. The irq ends the loop: the
 * select at 25,002,000 sees the tick running again.
 */
static void test_resched0_events(void **state)
{
	struct run_stats rs;
	const struct script *s = &test_script;

	(void)state;
	script_set(C1, true);
	replay_ok(HDR "end 30000000\ntimer 0 0 t 10000000 period=10000000 resched=0\n"
		      "wake 0 25000000 irq\n",
		  NULL, &rs);
	assert_int_equal(s->seen[1].now_ns, 10002000);
	assert_true(s->seen[1].tick_stopped);
	assert_int_equal(s->seen[2].now_ns, 20002000);
	assert_true(s->seen[2].tick_stopped);
	assert_int_equal(s->seen[3].now_ns, 25002000);
	assert_false(s->seen[3].tick_stopped);
	assert_int_equal(rs.total.idle_periods, 2);
	assert_int_equal(rs.total.wakeups[WAKE_TIMER], 3); /* 10, 20 and 30 ms */
	run_stats_release(&rs);
}

/* A trace that ends while the CPU is idle: the entry is not counted, its time is reported
 * as truncated. */
static void test_truncated_at_end(void **state)
{
	struct run_stats rs;

	(void)state;
	script_set(C6, true);
	replay_ok(HDR "end 3000000\nidle 0 1000000 10000000 timer\n", NULL, &rs);
	assert_int_equal(rs.total.states[C6].usage, 0);
	assert_int_equal(rs.total.truncated_ns, 2000000);
	assert_int_equal(rs.total.busy_ns, 0);
	release(&rs);
}

/*
 * Energy on a one-CPU skl trace (7 CPUs offline in C10): run `shallowest` (POLL, tick
 * kept) and `deepest` over one 10 ms period and check the ordering and the transition
 * energy, which is exactly one entry of C10 for `deepest`.
 */
static void test_energy_ordering(void **state)
{
	struct replay_opts o = { 0 };
	struct run_stats a, b;
	struct machine m;
	struct sim_error err = { 0 };

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	o.gov = gov_find("shallowest");
	replay_ok(HDR "idle 0 0 10000000 timer\n", &o, &a);
	o.gov = gov_find("deepest");
	replay_ok(HDR "idle 0 0 10000000 timer\n", &o, &b);
	assert_true(b.energy_j < a.energy_j);
	assert_true(b.transition_energy_j == m.states[C10].entry_exit_energy_j);
	assert_true(b.idle_energy_j <= b.energy_j);
	release(&a);
	release(&b);
}

/*
 * Energy by hand, on skl (1 package x 4 cores x 2 threads; CPU n's sibling is n + 4). The
 * trace has 2 CPUs: CPU 0 (core 0) and CPU 1 (core 1); CPUs 2-7 are offline in C10, so
 * cores 2 and 3 stay in C10 and cores 0 and 1 follow CPUs 0 and 1. Every entry is C6:
 *   CPU 0: C6 over [0, 1 ms), running over [1 ms, 2 ms]
 *   CPU 1: running over [0, 0.2 ms), C6 over [0.2, 0.7 ms), running over [0.7, 2 ms]
 * The package is as deep as its shallowest core: C6 over [0.2, 0.7 ms), active otherwise.
 */
static void test_energy_by_hand(void **state)
{
	struct replay_opts o = { 0 };
	struct run_stats rs;
	struct machine m;
	struct sim_error err = { 0 };
	const double ms = 1e-3;
	double core, pkg, trans, idle, pc6, pa, kc6, ka, kc10;

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	pc6 = m.states[C6].core_power_w;
	kc6 = m.states[C6].package_power_w;
	kc10 = m.states[C10].core_power_w;
	pa = m.active_core_power_w;
	ka = m.active_package_power_w;
	script_set(C6, true);
	replay_ok("idlesim-trace v1\ncpus 2\nhz 250\nstart 0\nend 2000000\n"
		  "idle 0 0 1000000 irq\nidle 1 200000 500000 irq\n",
		  &o, &rs);
	core = (1.0 * ms * pc6 + 1.0 * ms * pa)	   /* core 0 */
	       + (0.5 * ms * pc6 + 1.5 * ms * pa)  /* core 1 */
	       + 2 * (2.0 * ms * kc10);		   /* cores 2 and 3 */
	pkg = 0.5 * ms * kc6 + 1.5 * ms * ka;
	trans = 2 * m.states[C6].entry_exit_energy_j;
	idle = 1.5 * ms * pc6 + 4.0 * ms * kc10 + 0.5 * ms * kc6 + trans;
	assert_float_equal(rs.transition_energy_j, trans, 1e-15);
	assert_float_equal(rs.energy_j, core + pkg + trans, 1e-12);
	assert_float_equal(rs.idle_energy_j, idle, 1e-12);
	release(&rs);
}

/* The conservation check catches time that no CPU spent (here added behind the engine's
 * back): the run fails with an internal error instead of reporting it. */
static void test_conservation_check_catches(void **state)
{
	struct sim_error err = { 0 };
	struct run_stats rs;

	(void)state;
	script_set(C6, true);
	test_script.corrupt_time = true;
	assert_int_equal(replay_string(HDR "idle 0 1000000 500000 irq\n", NULL, &rs, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INTERNAL);
	assert_non_null(strstr(err.text, "conservation broken on CPU 0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_retained_splits_period),
		cmocka_unit_test(test_tick_stopped_one_entry),
		cmocka_unit_test(test_tick_inside_polling),
		cmocka_unit_test(test_tick_during_exit),
		cmocka_unit_test(test_tick_kept_when_timer_before_next_tick),
		cmocka_unit_test(test_poll_time_limit),
		cmocka_unit_test(test_poll_limit_follows_enabled_states),
		cmocka_unit_test(test_above_below_edges),
		cmocka_unit_test(test_latency_limit),
		cmocka_unit_test(test_no_timer),
		cmocka_unit_test(test_exit_latency_absorbs_next_period),
		cmocka_unit_test(test_event_records_periodic),
		cmocka_unit_test(test_truncated_at_end),
		cmocka_unit_test(test_resched0_keeps_idle_loop),
		cmocka_unit_test(test_resched0_events),
		cmocka_unit_test(test_conservation_check_catches),
		cmocka_unit_test(test_energy_ordering),
		cmocka_unit_test(test_energy_by_hand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
