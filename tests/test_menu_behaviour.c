// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_menu_behaviour.c - the menu governor, three kernel versions (governors/menu-*.c), on
 * generated workloads: how often it misses and where it spends its idle time, from what its
 * rules imply (tests/test_menu.c gives the machine, skl at HZ 250).
 */
#include "tests/menutest.h"
#include "sim/workload/gen.h"

static void run_gen(const struct gen_config *gc, const struct cpuidle_governor *gov,
		    struct run_stats *rs)
{
	struct sim_error err = {0};
	struct gen_stream *g = gen_open(gc, &err);
	struct record_source src;

	assert_non_null(g);
	record_source_from_gen(&src, g);
	run_source(&src, gov, NULL, NULL, rs);
	gen_close(g);
}

/* ---- generated workloads (sim/workload/gen.h), skl, HZ 250 ---- */

static int64_t idle_ns(const struct run_stats *rs)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < rs->state_count; i++)
		sum += (int64_t)rs->total.states[i].time_ns;
	return sum;
}

static uint64_t entries(const struct run_stats *rs)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < rs->state_count; i++)
		n += rs->total.states[i].usage;
	return n;
}

static uint64_t misses(const struct run_stats *rs)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < rs->state_count; i++)
		n += rs->total.states[i].above + rs->total.states[i].below;
	return n;
}

static uint64_t aboves(const struct run_stats *rs)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < rs->state_count; i++)
		n += rs->total.states[i].above;
	return n;
}

/* Share of idle time (percent) in states [from, to). */
static int64_t share(const struct run_stats *rs, int from, int to)
{
	int64_t t = 0;
	int i;

	for (i = from; i < to; i++)
		t += (int64_t)rs->total.states[i].time_ns;
	return t * 100 / idle_ns(rs);
}

/* The state entered most often. */
static int modal_state(const struct run_stats *rs)
{
	int i, best = 0;

	for (i = 1; i < rs->state_count; i++)
		if (rs->total.states[i].usage > rs->total.states[best].usage)
			best = i;
	return best;
}

static void periodic_workload(struct gen_config *gc, int64_t period_ns)
{
	gen_config_defaults(gc, GEN_PERIODIC);
	/* A timer every 1 ms (or 1.2 ms) at HZ 250 can only be an hrtimer: a timer-wheel
	 * timer fires on jiffy edges, 4 ms apart. */
	gc->timer_kind = GEN_TIMER_HRTIMER;
	gc->duration_ns = 2000 * MS;
	gc->period_ns = period_ns;
	gc->hz = 250;
}

static void irq_workload(struct gen_config *gc, unsigned int iowait, uint64_t seed)
{
	gen_config_defaults(gc, GEN_IRQ_FIXED);
	gc->duration_ns = 1000 * MS;
	gc->interval_ns = 300 * US;
	gc->timer_period_ns = 100 * MS;
	gc->iowait = iowait;
	gc->seed = seed;
	gc->hz = 250;
}

/*
 * A timer every 1 ms, no work. Whatever the state, each entry's target residency is at most
 * the time to its wakeup: predicted <= the corrected sleep length <= the sleep length (the
 * correction factor never exceeds 1.0: measured is clamped to the next timer), the tick is
 * kept (every prediction is below 1 ms < TICK_NSEC) and the state is capped by delta_tick;
 * the only wakeups are the timer and the tick. Hence no entry is ever "above" (too deep),
 * and C9/C10 (5 ms) are never used. A period of 1.2 ms leaves 1000 us of idle after C8's
 * 200 us exit: the factor stays above 0.8 and C8 (800 us) holds most of the idle time.
 * With 1 ms it does not (about 40 % of entries miss, C8 under a third of idle time, every
 * version): the idle time after C8's exit is exactly C8's 800 us target residency, so any
 * correction factor below 1.0 (the tick splits one period in four and lowers it) tips the
 * choice to C6, which is then "below".
 */
static void test_gen_periodic(void **state)
{
	struct gen_config gc;
	struct run_stats rs;
	int v;

	(void)state;
	periodic_workload(&gc, 1 * MS);
	for (v = 0; v < NR_VERSIONS; v++) {
		run_gen(&gc, gov_find(versions[v]), &rs);
		assert_true(entries(&rs) > 1900);
		assert_int_equal(aboves(&rs), 0);
		assert_int_equal(rs.total.states[C9].usage + rs.total.states[C10].usage, 0);
		run_stats_release(&rs);
	}
	periodic_workload(&gc, 1200 * US);
	for (v = 0; v < NR_VERSIONS; v++) {
		run_gen(&gc, gov_find(versions[v]), &rs);
		assert_true(misses(&rs) * 100 < entries(&rs) * 5);
		assert_true(2 * (int64_t)rs.total.states[C8].time_ns > idle_ns(&rs));
		run_stats_release(&rs);
	}
}

/*
 * Fixed 300 us IRQ wakeups (no work) and a 100 ms periodic timer: each idle period is 300 us
 * minus the exit latency of the state left. The oracle's state is C6: after its 85 us exit,
 * 215 us of idle fit C6's 200 us but not C7s's 800 us, and menu's typical interval is then
 * 215 us (measured = 300 - 85). 6.19 keeps C6 for most of the idle time on every seed tried.
 *
 * With --iowait 1, 4.18 and 6.6 divide that prediction by the multiplier 11: a latency
 * limit of 215 / 11 = 19 us (26 us once in C1E, whose exit is 10 us), which only POLL, C1
 * and C1E meet, so C1E is their most frequent state and they spend more idle time than
 * 6.19 in states shallower than C6; 6.19 has no iowait term: C6 as without iowait.
 *
 * Without iowait, C6 holds most of the idle time only under 6.19: the classic
 * get_typical_interval() of 4.18/6.6 drops only high outliers, so the short samples left by
 * tick splits and deep-state exits make it give up (UINT_MAX) and the 100 ms timer then
 * predicts deep states (the weakness 8de7606f0fe2 fixed in v6.15); on seeds 2 and 3 C6 has
 * under a fifth of their idle time.
 */
static void test_gen_irq_300us(void **state)
{
	struct gen_config gc;
	struct run_stats rs;
	int64_t shallow[NR_VERSIONS];
	uint64_t seed;
	int v;

	(void)state;
	for (seed = 1; seed <= 3; seed++) {
		irq_workload(&gc, 0, seed);
		run_gen(&gc, gov_find("menu@6.19"), &rs);
		assert_true(entries(&rs) > 3000);
		assert_true(2 * (int64_t)rs.total.states[C6].time_ns > idle_ns(&rs));
		assert_int_equal(modal_state(&rs), C6);
		run_stats_release(&rs);

		irq_workload(&gc, 1, seed);
		for (v = 0; v < NR_VERSIONS; v++) {
			run_gen(&gc, gov_find(versions[v]), &rs);
			shallow[v] = share(&rs, POLL, C6);
			assert_int_equal(modal_state(&rs), v == V6_19 ? C6 : C1E);
			run_stats_release(&rs);
		}
		assert_true(shallow[V4_18] > shallow[V6_19]);
		assert_true(shallow[V6_6] > shallow[V6_19]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_periodic),
		cmocka_unit_test(test_gen_irq_300us),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
