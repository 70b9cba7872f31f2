// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_teo_behaviour.c - the TEO governor in its versions (teo@5.1, teo@5.14, teo@6.19) on
 * generated workloads (sim/workload/gen.h): where each one spends its idle time, and how
 * often it is above or below, against the oracle. Machine skl, HZ 250 (tests/test_teo.c).
 */
#include "tests/testutil.h"
#include "sim/workload/gen.h"

#define MS 1000000LL

/* ======================================================================================
 * Behaviour on generated workloads (skl, HZ 250, 1 CPU, 1 s)
 * ====================================================================================== */

struct beh {
	double above_below_pct;
	double share[CPUIDLE_STATE_MAX]; /* of the time spent in idle states */
	int top;			 /* state with the most idle time */
};

static void run_gen(struct gen_config *gc, const struct cpuidle_governor *g, struct beh *b)
{
	struct sim_error err = {0};
	struct gen_stream *gs = gen_open(gc, &err);
	struct record_source src;
	struct sim_config cfg = {0};
	struct machine m;
	struct run_stats rs;
	struct stats_summary s;
	double idle = 0;
	int i;

	assert_non_null(gs);
	assert_int_equal(machine_load("skl", &m, &err), 0);
	cfg.machine = &m;
	cfg.gov = g;
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	record_source_from_gen(&src, gs);
	if (replay_run(&src, &cfg, &rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	gen_close(gs);
	stats_summarize(&rs, &rs.total, rs.nr_cpus, &s);
	assert_true(s.idle_entries > 500);
	b->above_below_pct = s.above_pct + s.below_pct;
	for (i = 0; i < rs.state_count; i++)
		idle += (double)rs.total.states[i].time_ns;
	b->top = 0;
	for (i = 0; i < rs.state_count; i++) {
		b->share[i] = (double)rs.total.states[i].time_ns / idle;
		if (b->share[i] > b->share[b->top])
			b->top = i;
	}
	run_stats_release(&rs);
}

/*
 * A 1 ms periodic timer: the deepest state whose target residency fits 1 ms is C8 (800 us;
 * C9 needs 5 ms); the oracle spends its idle time there. teo@5.1 and teo@5.14 find C8 from
 * the timer for the periods without a tick and a shallower state capped by delta_tick for
 * the one period in four that a 4 ms tick splits; the tick wakeup is a miss/intercept
 * (5.1: 1 in 5 events, hits > misses on C8; 5.14: intercepts below C8 ~1/5 of total < the
 * C8 bin's ~4/5, recent below C8 <= 2 of 9) -> C8 stays.
 *
 * teo@6.19 does NOT meet the expectation of issue 4 here, and this is the kernel's
 * behaviour, not a modelling error: its candidate is the deepest state (C10), so the hits
 * in the C8 bin count as "below the candidate" and are subtracted: the test becomes
 * 2 * I > I + (C10 bin), true as soon as one intercept exists. The tick splitting one
 * period in four makes those intercepts (a "fake intercept" produced by the tick), the
 * simplified lookup stops in the C6 bin where they land, so v6.19 settles on C6 and every
 * timer wakeup from C6 is "below" (1000 - 85 us >= 800 us). The v7.0-rc1 commit
 * 60836533b4c7 "cpuidle: governors: teo: Avoid fake intercepts produced by tick" addresses
 * exactly this. The test pins the v6.19 outcome instead (C6, many below).
 */
static void test_behaviour_periodic_1ms(void **state)
{
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	struct gen_config gc;
	struct beh b;
	int i;

	(void)state;
	gen_config_defaults(&gc, GEN_PERIODIC); /* 1 ms period, 1 s, seed 1, no busy time */
	/* A timer every 1 ms at HZ 250 can only be an hrtimer: a timer-wheel timer fires on
	 * jiffy edges, 4 ms apart. */
	gc.timer_kind = GEN_TIMER_HRTIMER;
	run_gen(&gc, gov_find("oracle"), &b);
	assert_int_equal(b.top, C8);
	for (i = 0; i < 3; i++) {
		run_gen(&gc, g[i], &b);
		if (i < 2) {
			assert_true(b.above_below_pct < 5.0);
			assert_int_equal(b.top, C8);
			assert_true(b.share[C8] > 0.5);
		} else {
			assert_int_equal(b.top, C6);
			assert_true(b.share[C6] > 0.9);
			assert_true(b.above_below_pct > 40.0);
		}
	}
}

/*
 * IRQs every 300 us and a 100 ms periodic timer: the oracle's state is C6 (200 us fits
 * 300 us minus the exit, C7s's 800 us does not). Every version learns the intercepts and
 * settles on C6 for most of the idle time, with above + below under 10 %.
 */
static void test_behaviour_irq_fixed(void **state)
{
	const struct cpuidle_governor *g[] = {gov_find("teo@5.1"), gov_find("teo@5.14"), gov_find("teo@6.19")};
	struct gen_config gc;
	struct beh b;
	int i;

	(void)state;
	gen_config_defaults(&gc, GEN_IRQ_FIXED); /* 300 us interval, 1 s, seed 1 */
	gc.timer_period_ns = 100 * MS;
	run_gen(&gc, gov_find("oracle"), &b);
	assert_int_equal(b.top, C6);
	for (i = 0; i < 3; i++) {
		run_gen(&gc, g[i], &b);
		assert_int_equal(b.top, C6);
		assert_true(b.share[C6] > 0.5);
		assert_true(b.above_below_pct < 10.0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_behaviour_periodic_1ms),
		cmocka_unit_test(test_behaviour_irq_fixed),
	};

	(void)gov_scripted;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
