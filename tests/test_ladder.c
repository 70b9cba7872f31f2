// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ladder.c - ladder@6.12 (governors/ladder.c), called directly on a hand-made device.
 * States: POLL; C1 2 us exit; C6 100 us exit. first_idx is 1 (POLL is never climbed down
 * to); each state's promotion and demotion times are its own exit latency.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "governors/governor.h"

struct fixture {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	long long params[2];
	void *priv;
	const struct cpuidle_governor *g;
};

static void setup_ladder(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->g = gov_find("ladder@6.12");
	assert_non_null(f->g);
	f->drv.state_count = 3;
	f->drv.states[0].flags = CPUIDLE_FLAG_POLLING;
	f->drv.states[1].exit_latency_ns = 2000;
	f->drv.states[1].target_residency_ns = 2000;
	f->drv.states[2].exit_latency_ns = 100000;
	f->drv.states[2].target_residency_ns = 400000;
	f->params[0] = 4; /* PROMOTION_COUNT */
	f->params[1] = 1; /* DEMOTION_COUNT */
	f->priv = calloc(1, f->g->priv_size);
	assert_non_null(f->priv);
	f->dev.governor_data = f->priv;
	f->dev.gov_params = f->params;
	f->dev.last_state_idx = -1;
	f->dev.env.latency_req_ns = 2000000000000LL;
	assert_int_equal(f->g->enable(&f->drv, &f->dev), 0);
}

static int select_after(struct fixture *f, s64 residency_ns)
{
	bool stop = true;
	int idx;

	f->dev.last_residency_ns = residency_ns;
	idx = f->g->select(&f->drv, &f->dev, &stop);
	assert_true(stop); /* ladder never keeps the tick */
	return idx;
}

/* Four stays above C1's 2 us promote to C6; one below C6's 100 us demotes. */
static void test_promote_demote(void **state)
{
	struct fixture f;

	(void)state;
	setup_ladder(&f);
	assert_int_equal(f.dev.last_state_idx, 1); /* enable: first_idx */
	/* last_residency = 10000 - 2000 = 8000 > 2000: counts 1, 2, 3 stay, 4 promotes */
	assert_int_equal(select_after(&f, 10000), 1);
	assert_int_equal(select_after(&f, 10000), 1);
	assert_int_equal(select_after(&f, 10000), 1);
	assert_int_equal(select_after(&f, 10000), 2);
	/* in C6: 150000 - 100000 = 50000 < 100000: one short stay demotes */
	assert_int_equal(select_after(&f, 150000), 1);
	free(f.priv);
}

/*
 * A stay shorter than the exit latency: last_residency = 0 - 2000 < 0, which the kernel
 * compares with the u64 promotion time as 2^64 - 2000 > 2000, a long stay. So four selects
 * with last_residency_ns 0 (as at the very first select) promote to C6; and in C6,
 * 0 - 100000 is no short stay either: no demotion.
 */
static void test_negative_residency_is_long(void **state)
{
	struct fixture f;

	(void)state;
	setup_ladder(&f);
	assert_int_equal(select_after(&f, 0), 1);
	assert_int_equal(select_after(&f, 0), 1);
	assert_int_equal(select_after(&f, 0), 1);
	assert_int_equal(select_after(&f, 0), 2);
	assert_int_equal(select_after(&f, 0), 2);
	free(f.priv);
}

/* PM QoS 0: state 0 at once; PM QoS below C6's exit latency leaves C6 for C1. */
static void test_latency(void **state)
{
	struct fixture f;

	(void)state;
	setup_ladder(&f);
	f.dev.env.latency_req_ns = 0;
	assert_int_equal(select_after(&f, 10000), 0);
	free(f.priv);
	setup_ladder(&f);
	f.dev.last_state_idx = 2;
	f.dev.env.latency_req_ns = 50000;
	/* C6 over the limit: the loop from 1 down to > first_idx stops at 1 */
	assert_int_equal(select_after(&f, 500000), 1);
	free(f.priv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_promote_demote),
		cmocka_unit_test(test_negative_residency_is_long),
		cmocka_unit_test(test_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
