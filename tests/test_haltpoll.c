// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_haltpoll.c - haltpoll@6.1 and haltpoll@6.12 (governors/haltpoll-*.c), called directly on
 * a hand-made device, then through the binary on the kvm machine.
 *
 * The driver is the kvm machine's (cpuidle-haltpoll.c): state 0 POLL, state 1 "haltpoll idle"
 * (HLT), 1 us exit latency and target residency. Tunables at the kernel's defaults unless a
 * test says otherwise: guest_halt_poll_ns 200000, shrink 2, grow 2, grow_start 50000,
 * allow_shrink 1. The kernel rules every expectation below is worked out from
 * (drivers/cpuidle/governors/haltpoll.c):
 *
 *  select: no states or latency_req == 0 -> 0, tick kept; window (dev->poll_limit_ns) 0 -> 1;
 *          last state 0 -> 1 if poll_time_limit, else 0 with the tick kept; last state 1 -> 0
 *          with the tick kept.
 *  reflect(index): last_state_idx = index; for index != 0, block_ns = last_residency_ns:
 *          window < block_ns <= guest_halt_poll_ns: window = max(window * grow, grow_start),
 *          then min(.., guest_halt_poll_ns), all in unsigned int;
 *          else block_ns > guest_halt_poll_ns and allow_shrink: window = 0 if shrink is 0,
 *          else window / shrink, and (6.12 only) 0 if that is below grow_start.
 */
#include "testbin.h"

#include "governors/governor.h"

enum { P_NS, P_SHRINK, P_GROW, P_GROW_START, P_ALLOW_SHRINK };

struct fixture {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	long long params[5];
	const struct cpuidle_governor *g;
};

static void setup_hp(struct fixture *f, const char *name)
{
	static const char *const keys[] = { "guest_halt_poll_ns", "guest_halt_poll_shrink",
					    "guest_halt_poll_grow", "guest_halt_poll_grow_start",
					    "guest_halt_poll_allow_shrink" };
	static const long long defs[] = { 200000, 2, 2, 50000, 1 };
	unsigned int i;

	memset(f, 0, sizeof(*f));
	f->g = gov_find(name);
	assert_non_null(f->g);
	assert_int_equal(f->g->rating, 9);
	assert_int_equal(f->g->priv_size, 0); /* its state is the device's poll window */
	/* the tunables: the module parameters, in this order, with the kernel's defaults */
	assert_int_equal(f->g->nr_params, 5);
	for (i = 0; i < 5; i++) {
		assert_int_equal(gov_param_index(f->g, keys[i]), (int)i);
		assert_int_equal(f->g->params[i].def, defs[i]);
		assert_int_equal(f->g->params[i].min, 0);
		assert_int_equal(f->g->params[i].max, i == P_ALLOW_SHRINK ? 1 : 4294967295LL);
		f->params[i] = defs[i];
	}
	f->drv.state_count = 2;
	f->drv.states[0].flags = CPUIDLE_FLAG_POLLING;
	f->drv.states[1].exit_latency_ns = 1000;
	f->drv.states[1].target_residency_ns = 1000;
	f->dev.gov_params = f->params;
	f->dev.last_state_idx = -1;
	f->dev.poll_limit_ns = 123; /* enable() must reset it */
	f->dev.env.latency_req_ns = 2000000000000LL;
	assert_int_equal(f->g->enable(&f->drv, &f->dev), 0);
	assert_int_equal(f->dev.poll_limit_ns, 0);
}

static int select_stop(struct fixture *f, bool *stop)
{
	*stop = true; /* the idle loop presets it */
	return f->g->select(&f->drv, &f->dev, stop);
}

/* A completed HLT entry of block_ns: the window after reflect(1). */
static u64 after_halt(struct fixture *f, s64 block_ns)
{
	f->dev.last_residency_ns = block_ns;
	f->dev.last_state_idx = 1;
	f->g->reflect(&f->dev, 1);
	assert_int_equal(f->dev.last_state_idx, 1);
	return f->dev.poll_limit_ns;
}

static const char *const versions[] = { "haltpoll@6.1", "haltpoll@6.12" };

/*
 * Growth, the same in both releases. From window 0, a 30 us halt (0 < 30000 <= 200000):
 * 0 * 2 = 0, raised to grow_start: 50000. A 60 us halt (50000 < 60000): 100000. A 150 us
 * halt: 200000 (not above guest_halt_poll_ns). A 200 us halt: not above the window (equal)
 * nor above guest_halt_poll_ns (equal): unchanged. A 40 us halt, inside the window: unchanged.
 * The cap: from 150000, a 180 us halt gives 300000, capped at 200000.
 */
static void test_grow(void **state)
{
	struct fixture f;
	size_t v;

	(void)state;
	for (v = 0; v < 2; v++) {
		setup_hp(&f, versions[v]);
		assert_int_equal(after_halt(&f, 30000), 50000);
		assert_int_equal(after_halt(&f, 60000), 100000);
		assert_int_equal(after_halt(&f, 150000), 200000);
		assert_int_equal(after_halt(&f, 200000), 200000);
		assert_int_equal(after_halt(&f, 40000), 200000);
		f.dev.poll_limit_ns = 150000;
		assert_int_equal(after_halt(&f, 180000), 200000);
	}
}

/*
 * Shrinking after halts longer than guest_halt_poll_ns (250 us > 200 us), from 200000:
 * 6.1 divides only: 100000, 50000, 25000, 12500. 6.12 divides and resets a window below
 * grow_start (50000) to 0: 100000, 50000 (not below), then 25000 < 50000 -> 0, and 0 / 2 = 0.
 */
static void test_shrink(void **state)
{
	static const u64 want[2][4] = { { 100000, 50000, 25000, 12500 }, { 100000, 50000, 0, 0 } };
	struct fixture f;
	size_t v, i;

	(void)state;
	for (v = 0; v < 2; v++) {
		setup_hp(&f, versions[v]);
		f.dev.poll_limit_ns = 200000;
		for (i = 0; i < 4; i++)
			assert_int_equal(after_halt(&f, 250000), want[v][i]);
	}
}

/*
 * guest_halt_poll_shrink 0: a long halt zeroes the window at once (both releases).
 * guest_halt_poll_allow_shrink 0: a long halt leaves it; a short one still grows it.
 */
static void test_shrink_zero_and_disallowed(void **state)
{
	struct fixture f;
	size_t v;

	(void)state;
	for (v = 0; v < 2; v++) {
		setup_hp(&f, versions[v]);
		f.params[P_SHRINK] = 0;
		f.dev.poll_limit_ns = 200000;
		assert_int_equal(after_halt(&f, 300000), 0);

		setup_hp(&f, versions[v]);
		f.params[P_ALLOW_SHRINK] = 0;
		f.dev.poll_limit_ns = 200000;
		assert_int_equal(after_halt(&f, 300000), 200000);
		f.dev.poll_limit_ns = 50000;
		assert_int_equal(after_halt(&f, 300000), 50000);
		assert_int_equal(after_halt(&f, 80000), 100000);
	}
}

/*
 * The kernel's arithmetic. Clamps in order: with guest_halt_poll_ns 30000 below grow_start
 * 50000, a 20 us halt from 0 gives 0 -> 50000 -> 30000. Truncation: val is an unsigned int, so
 * from a window of 3000000000 with guest_halt_poll_ns 4294967295, a 3.5 s halt (above the
 * window, below the maximum) grows it to (3000000000 * 2) mod 2^32 = 1705032704, which passes
 * both clamps: the "grown" window is smaller.
 */
static void test_clamp_order_and_truncation(void **state)
{
	struct fixture f;
	size_t v;

	(void)state;
	for (v = 0; v < 2; v++) {
		setup_hp(&f, versions[v]);
		f.params[P_NS] = 30000;
		assert_int_equal(after_halt(&f, 20000), 30000);

		setup_hp(&f, versions[v]);
		f.params[P_NS] = 4294967295LL;
		f.dev.poll_limit_ns = 3000000000ULL;
		assert_int_equal(after_halt(&f, 3500000000LL), 1705032704);
	}
}

/* reflect(0), after a POLL entry: only the last state changes, whatever the residency. */
static void test_reflect_poll(void **state)
{
	struct fixture f;
	size_t v;

	(void)state;
	for (v = 0; v < 2; v++) {
		setup_hp(&f, versions[v]);
		f.dev.poll_limit_ns = 50000;
		f.dev.last_state_idx = 1;
		f.dev.last_residency_ns = 30000; /* would grow it after a halt */
		f.g->reflect(&f.dev, 0);
		assert_int_equal(f.dev.last_state_idx, 0);
		assert_int_equal(f.dev.poll_limit_ns, 50000);
		f.dev.last_residency_ns = 900000; /* would shrink it after a halt */
		f.g->reflect(&f.dev, 0);
		assert_int_equal(f.dev.poll_limit_ns, 50000);
	}
}

/*
 * select, both releases:
 *  - window 0: HLT (1), the tick may stop (stop_tick left true);
 *  - latency_req 0: POLL (0) with the tick kept, even with window 0; no states at all: the same;
 *  - window 50000 after a halt (last state 1): POLL, tick kept;
 *  - after a POLL woken before the window ended (poll_time_limit false): POLL again, tick kept;
 *  - after a POLL the window ended (poll_time_limit true): HLT, stop_tick left true.
 */
static void test_select(void **state)
{
	struct fixture f;
	bool stop;
	size_t v;

	(void)state;
	for (v = 0; v < 2; v++) {
		setup_hp(&f, versions[v]);
		assert_int_equal(select_stop(&f, &stop), 1);
		assert_true(stop);

		f.dev.env.latency_req_ns = 0;
		assert_int_equal(select_stop(&f, &stop), 0);
		assert_false(stop);
		f.dev.env.latency_req_ns = 2000000000000LL;
		f.drv.state_count = 0;
		assert_int_equal(select_stop(&f, &stop), 0);
		assert_false(stop);
		f.drv.state_count = 2;

		/* a 1 us latency limit is no 0: the window still decides */
		f.dev.env.latency_req_ns = 1;
		assert_int_equal(after_halt(&f, 30000), 50000);
		assert_int_equal(select_stop(&f, &stop), 0);
		assert_false(stop);

		f.dev.last_state_idx = 0;
		f.dev.poll_time_limit = false;
		assert_int_equal(select_stop(&f, &stop), 0);
		assert_false(stop);

		f.dev.poll_time_limit = true;
		assert_int_equal(select_stop(&f, &stop), 1);
		assert_true(stop);
	}
}

/* The decision log: the window, the last state, poll_time_limit and the rule. */
static void test_explain(void **state)
{
	struct cpuidle_explain ex = { 0 };
	struct fixture f;
	bool stop;
	int i;

	(void)state;
	setup_hp(&f, "haltpoll@6.12");
	f.dev.explain = &ex;
	f.dev.poll_limit_ns = 50000;
	f.dev.last_state_idx = 0;
	f.dev.poll_time_limit = true;
	assert_int_equal(select_stop(&f, &stop), 1);
	assert_int_equal(ex.nr, 4);
	assert_string_equal(ex.items[0].key, "poll_limit_ns");
	assert_int_equal(ex.items[0].val, 50000);
	assert_string_equal(ex.items[1].key, "last_state_idx");
	assert_int_equal(ex.items[1].val, 0);
	assert_string_equal(ex.items[2].key, "poll_time_limit");
	assert_int_equal(ex.items[2].val, 1);
	for (i = 0; i < ex.nr && strcmp(ex.items[i].key, "rule"); i++)
		;
	assert_string_equal(ex.items[i].str, "poll-expired");
}

/* ---- through the binary, on the kvm machine ---- */

/* Ten idle periods of LENGTH us on CPU 0, one every 100 us, each ended by an interrupt. */
static const char *ten_periods(const char *name, int length_us)
{
	char text[1024];
	size_t n;
	int k;

	n = (size_t)snprintf(text, sizeof(text), "idlesim-trace v1\ncpus 1\nend 1000000\n");
	for (k = 0; k < 10; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "idle 0 %d %d irq\n", k * 100000,
				      length_us * 1000);
	return write_tmp(name, text);
}

/*
 * The engine's POLL ends at the window (cpuidle_poll_time() returns dev->poll_limit_ns), and
 * the measured HLT residency includes the kvm machine's 6 us typical wake-up.
 *
 * 30 us periods: the first select has window 0: HLT; woken at 30 us, residency 30 + 6 = 36 us
 * (<= 200 us): window 50 us. Every later period starts after a halt or a woken poll: POLL,
 * woken at 30 us, inside the window. Entries 10: POLL 9, HLT 1; no poll-limit wakeups.
 *
 * 80 us periods: the first is a HLT of 86 us: window 50 us. Each later one polls 50 us (the
 * window ends it), then halts (poll-expired) for the remaining 30 us: residency 30 + 6 = 36 us,
 * not above the window, so the window stays 50 us though every idle period is 80 us long
 * (block_ns is the halt alone). Entries 1 + 9 x 2 = 19: POLL 9, HLT 10; 9 poll-limit wakeups.
 */
static void test_cli_engine(void **state)
{
	char args[512];
	char *out;

	(void)state;
	snprintf(args, sizeof(args), "run -m kvm -g haltpoll@6.12 --trace %s",
		 ten_periods("short.trace", 30));
	assert_int_equal(run_idlesim(args), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "entries ended by: timer 0, irq 10, ipi 0, tick 0, poll limit 0"));
	assert_non_null(strstr(out, "-         10     9              1\n"));
	free(out);

	snprintf(args, sizeof(args), "run -m kvm -g haltpoll@6.12,haltpoll@6.1 --trace %s",
		 ten_periods("long.trace", 80));
	assert_int_equal(run_idlesim(args), 0);
	out = slurp_tmp("out");
	/* the same for both releases: no halt is longer than guest_halt_poll_ns */
	assert_non_null(strstr(out, "entries ended by: timer 0, irq 10, ipi 0, tick 0, poll limit 9"));
	assert_non_null(strstr(out, "-         19     9             10\n"));
	free(out);
}

/*
 * `idlesim run -m kvm -g haltpoll` on the demo trace; a run with no --governor lists haltpoll
 * on the kvm machine (the kernel registers it in KVM guests) and not on skl alone.
 */
static void test_cli_demo(void **state)
{
	char *out;

	(void)state;
	assert_int_equal(run_idlesim("run -m kvm -g haltpoll"), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "traces/demo.trace  kvm      haltpoll@6.12"));
	assert_non_null(strstr(out, "tunables: guest_halt_poll_ns=200000 guest_halt_poll_shrink=2 "
				    "guest_halt_poll_grow=2 guest_halt_poll_grow_start=50000 "
				    "guest_halt_poll_allow_shrink=1"));
	free(out);
	assert_int_equal(run_idlesim("run -m kvm --format csv"), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, ",kvm,haltpoll@6.1,"));
	assert_non_null(strstr(out, ",kvm,haltpoll@6.12,"));
	assert_non_null(strstr(out, ",kvm,menu@6.19,"));
	free(out);
	assert_int_equal(run_idlesim("run -m skl --format csv"), 0);
	out = slurp_tmp("out");
	assert_null(strstr(out, "haltpoll"));
	assert_non_null(strstr(out, ",skl,ladder@6.12,"));
	free(out);
	/* named, it runs on an Intel table too (only states 0 and 1) */
	assert_int_equal(run_idlesim("run -m skl -g haltpoll@6.1 --set haltpoll.guest_halt_poll_ns=100000"),
			 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "--set applied: haltpoll.guest_halt_poll_ns=100000"));
	free(out);
}

/* Bad values: exit 2 and a message naming the option, the governor and the range. */
static void test_cli_bad_sets(void **state)
{
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{ "--set haltpoll.guest_halt_poll_ns=-1",
		  "--set haltpoll.guest_halt_poll_ns=-1: out of range for haltpoll@6.12 (0..4294967295)" },
		{ "--set haltpoll.guest_halt_poll_ns=4294967296",
		  "--set haltpoll.guest_halt_poll_ns=4294967296: out of range for haltpoll@6.12" },
		{ "--set haltpoll.guest_halt_poll_allow_shrink=2",
		  "--set haltpoll.guest_halt_poll_allow_shrink=2: out of range for haltpoll@6.12 (0..1)" },
		{ "--set haltpoll.guest_halt_poll_grow=x", "the value must be an integer" },
		{ "--set haltpoll.poll_ns=5", "haltpoll has no tunable 'poll_ns'" },
	};
	char args[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *err;

		snprintf(args, sizeof(args), "run -m kvm -g haltpoll %s", bad[i].args);
		assert_int_equal(run_idlesim(args), 2);
		err = slurp_tmp("err");
		if (!strstr(err, bad[i].msg))
			fail_msg("%s: got '%s', want '%s'", bad[i].args, err, bad[i].msg);
		free(err);
	}
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("haltpoll");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_shrink),
		cmocka_unit_test(test_shrink_zero_and_disallowed),
		cmocka_unit_test(test_clamp_order_and_truncation),
		cmocka_unit_test(test_reflect_poll),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_cli_engine),
		cmocka_unit_test(test_cli_demo),
		cmocka_unit_test(test_cli_bad_sets),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
