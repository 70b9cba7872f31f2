// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_gen.c - the workload generator: exact periods for deterministic workloads,
 * determinism for a seed, option validation, and a written trace that reads back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/workload/gen.h"

/*
 * periodic, 1 CPU, period 1000 us, busy 20 us: after the first expiry at phase p, every
 * idle period starts 20 us after an expiry and ends at the next one: length 980 us, cause
 * timer, next_timer = length.
 */
static void test_periodic_exact(void **state)
{
	struct sim_error err = { 0 };
	struct gen_config c;
	struct gen_stream *g;
	struct trace_record r, prev;
	int n = 0;

	(void)state;
	gen_config_defaults(&c, GEN_PERIODIC);
	c.duration_ns = 10000000;
	c.busy_ns = 20000;
	g = gen_open(&c, &err);
	assert_non_null(g);
	assert_int_equal(gen_next(g, &prev), 1);
	assert_int_equal(prev.time_ns, 0); /* the CPU starts idle at 0 */
	assert_int_equal(prev.cause, WAKE_TIMER);
	while (gen_next(g, &r)) {
		assert_int_equal(r.kind, TRACE_IDLE);
		assert_int_equal(r.cause, WAKE_TIMER);
		assert_int_equal(r.length_ns, 980000);
		assert_int_equal(r.next_timer_ns, r.length_ns);
		assert_int_equal(r.time_ns, prev.time_ns + prev.length_ns + 20000);
		prev = r;
		n++;
	}
	/* Ten expiries in 10 ms; the last period may start before the end and run past it. */
	assert_true(n >= 9 && n <= 10);
	gen_close(g);
}

/* irq-fixed with a background timer: interrupts every 300 us, next_timer from the timer. */
static void test_irq_fixed_with_timer(void **state)
{
	struct sim_error err = { 0 };
	struct gen_config c;
	struct gen_stream *g;
	struct trace_record r;
	int irqs = 0, timers = 0;
	enum wake_cause prev = WAKE_TIMER;

	(void)state;
	gen_config_defaults(&c, GEN_IRQ_FIXED);
	c.duration_ns = 100000000;
	c.timer_period_ns = 100000000; /* one expiry in the run at most */
	c.iowait = 2;
	g = gen_open(&c, &err);
	assert_non_null(g);
	while (gen_next(g, &r)) {
		if (r.cause == WAKE_IRQ) {
			irqs++;
			assert_true(r.next_timer_ns >= r.length_ns);
			/* Between two interrupts (no work): exactly the interval. After the
			 * timer's expiry, the rest of the interval. */
			if (r.time_ns > 0 && prev == WAKE_IRQ)
				assert_int_equal(r.length_ns, 300000);
		} else {
			timers++;
		}
		assert_true(r.has_iowait);
		assert_int_equal(r.iowait, 2);
		prev = r.cause;
	}
	assert_true(irqs >= 330 && irqs <= 334);
	assert_true(timers <= 1);
	gen_close(g);
}

/* Same seed, same records; another seed, other records; CPUs in time order. */
static void test_deterministic_and_ordered(void **state)
{
	struct sim_error err = { 0 };
	struct gen_config c;
	struct gen_stream *a, *b, *d;
	struct trace_record ra, rb, rd;
	int64_t last = 0;
	int same = 1, differs = 0;

	(void)state;
	gen_config_defaults(&c, GEN_MIXED);
	c.cpus = 4;
	c.duration_ns = 200000000;
	c.busy_ns = 10000;
	a = gen_open(&c, &err);
	b = gen_open(&c, &err);
	c.seed = 2;
	d = gen_open(&c, &err);
	while (gen_next(a, &ra)) {
		assert_int_equal(gen_next(b, &rb), 1);
		same &= !memcmp(&ra, &rb, sizeof(ra));
		if (gen_next(d, &rd))
			differs |= ra.time_ns != rd.time_ns || ra.cpu != rd.cpu;
		assert_true(ra.time_ns >= last);
		last = ra.time_ns;
	}
	assert_true(same);
	assert_true(differs);
	gen_close(a);
	gen_close(b);
	gen_close(d);
}

/*
 * --timer-kind. mixed with its own timer every 10 ms and a background timer every 3 ms:
 * with mix the own timer is an hrtimer and the background one a wheel timer, so a record
 * whose next timer is the own timer says timer=hrtimer with next_wheel at the background
 * timer, and one whose next timer is the background timer is a plain wheel record. Each
 * timer expires at its phase plus multiples of its period, which the records must show:
 * absolute own expiries are all congruent modulo 10 ms, background ones modulo 3 ms (10 ms
 * is not a multiple of 3 ms, so they are told apart). With hrtimer, every record with a
 * next timer is hrtimer-first with no wheel timer; with wheel, none is. The times of the
 * records are the same for the three kinds: the kind only labels the timers.
 */
static void test_timer_kinds(void **state)
{
	static const enum gen_timer_kind kinds[] = { GEN_TIMER_WHEEL, GEN_TIMER_HRTIMER,
						     GEN_TIMER_MIX };
	struct sim_error err = { 0 };
	struct gen_config c;
	struct gen_stream *g[3];
	struct trace_record r[3];
	int64_t own = -1, bg = -1, at;
	int k, hr = 0, wheel = 0, n = 0;

	(void)state;
	gen_config_defaults(&c, GEN_MIXED);
	c.duration_ns = 500000000;
	c.timer_period_ns = 3000000;
	c.busy_ns = 5000;
	c.timer_slack_ns = 0; /* with slack, a timer can run with another: test_timer_slack */
	for (k = 0; k < 3; k++) {
		c.timer_kind = kinds[k];
		g[k] = gen_open(&c, &err);
		assert_non_null(g[k]);
	}
	while (gen_next(g[0], &r[0])) {
		for (k = 1; k < 3; k++) {
			assert_int_equal(gen_next(g[k], &r[k]), 1);
			assert_int_equal(r[k].time_ns, r[0].time_ns);
			assert_int_equal(r[k].length_ns, r[0].length_ns);
			assert_int_equal(r[k].next_timer_ns, r[0].next_timer_ns);
		}
		assert_int_equal(r[0].timer_kind, TIMER_WHEEL);
		if (r[0].next_timer_ns < 0) {
			assert_int_equal(r[1].timer_kind, TIMER_WHEEL);
			assert_int_equal(r[2].timer_kind, TIMER_WHEEL);
			continue;
		}
		n++;
		assert_int_equal(r[1].timer_kind, TIMER_HRTIMER);
		assert_int_equal(r[1].next_wheel_ns, -1);
		at = r[2].time_ns + r[2].next_timer_ns;
		if (r[2].timer_kind == TIMER_HRTIMER) {
			hr++;
			if (own < 0)
				own = at % 10000000;
			assert_int_equal(at % 10000000, own);
			assert_true(r[2].next_wheel_ns > r[2].next_timer_ns);
			at = r[2].time_ns + r[2].next_wheel_ns;
		} else {
			wheel++;
		}
		if (bg < 0)
			bg = at % 3000000;
		assert_int_equal(at % 3000000, bg);
	}
	/* 500 ms: about 50 own expiries and 167 background ones, both seen as next timers */
	assert_true(n > 150);
	assert_true(hr > 10 && wheel > 100);
	for (k = 1; k < 3; k++) {
		assert_int_equal(gen_next(g[k], &r[k]), 0);
		gen_close(g[k]);
	}
	gen_close(g[0]);
}

/*
 * The workload's own timer is an hrtimer with the task's slack (50 us by default): records
 * it ends carry slack= (at most their length). Any timer interrupt from its soft expiry on
 * runs it too. Mixed, own timer every 10 ms (hrtimer, phase p), background wheel timer every
 * 3 ms, no interrupts to speak of (mean gap 1000 s), no work, slack 1.5 ms: where the
 * background timer fires at t with the own timer's next expiry h in (t, t + 1.5 ms], h does
 * not happen (it ran at t, and the next is h + 10 ms): the period from t ends at the next
 * background timer, t + 3 ms.
 */
static void test_timer_slack(void **state)
{
	struct sim_error err = { 0 };
	struct gen_config c;
	struct gen_stream *g;
	struct trace_record r;
	int64_t p = -1, h, end;
	int co = 0, own = 0, bgn = 0;

	(void)state;
	gen_config_defaults(&c, GEN_PERIODIC);
	assert_int_equal(c.timer_slack_ns, 50000);
	g = gen_open(&c, &err);
	assert_non_null(g);
	while (gen_next(g, &r)) {
		assert_int_equal(r.timer_kind, TIMER_HRTIMER);
		assert_int_equal(r.slack_ns, r.length_ns < 50000 ? r.length_ns : 50000);
	}
	gen_close(g);

	gen_config_defaults(&c, GEN_MIXED);
	c.duration_ns = 300000000;
	c.mean_ns = 1000000000000LL; /* 1000 s */
	c.timer_period_ns = 3000000;
	c.timer_slack_ns = 1500000;
	g = gen_open(&c, &err);
	assert_non_null(g);
	h = -1;
	while (gen_next(g, &r)) {
		end = r.time_ns + r.length_ns;
		assert_int_equal(r.cause, WAKE_TIMER);
		assert_true(h < 0 || end != h); /* a co-expired own timer wakes nobody */
		h = -1;
		if (r.timer_kind == TIMER_HRTIMER) {
			own++;
			if (p < 0)
				p = end % 10000000;
			assert_int_equal(end % 10000000, p);
			assert_int_equal(r.slack_ns, r.length_ns < 1500000 ? r.length_ns : 1500000);
			continue;
		}
		bgn++;
		assert_int_equal(r.slack_ns, 0);
		if (p < 0)
			continue;
		h = end + ((p - end % 10000000) + 10000000) % 10000000;
		if (h > end && h - end <= 1500000) {
			co++;
			continue;
		}
		h = -1;
	}
	gen_close(g);
	/* 300 ms: 30 own periods; the offset of an own expiry after the background timer before
	 * it cycles through d, d + 1, d + 2 ms (mod 3): 1 or 2 of each 3 are within 1.5 ms and
	 * run with it; 100 background expiries, each ending a period */
	assert_true(own + co >= 27 && own + co <= 30); /* before the phase is known: not counted */
	assert_true(co >= 10 && co <= 20);
	assert_true(bgn >= 99 && bgn <= 101);
}

static void test_validation(void **state)
{
	struct sim_error err;
	struct gen_config c;

	(void)state;
	gen_config_defaults(&c, GEN_PERIODIC);
	c.period_ns = 0;
	sim_error_clear(&err);
	assert_int_equal(gen_validate(&c, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "--period-us"));

	gen_config_defaults(&c, GEN_IRQ_FIXED);
	c.interval_ns = -5;
	sim_error_clear(&err);
	assert_int_equal(gen_validate(&c, &err), -1);

	gen_config_defaults(&c, GEN_IRQ_POISSON);
	c.busy_ns = -1;
	sim_error_clear(&err);
	assert_int_equal(gen_validate(&c, &err), -1);
	assert_non_null(strstr(err.text, "--busy-us"));

	gen_config_defaults(&c, GEN_MIXED);
	c.cpus = 0;
	sim_error_clear(&err);
	assert_int_equal(gen_validate(&c, &err), -1);

	/* A busy time longer than the interval: the CPU never idles; still terminates. */
	gen_config_defaults(&c, GEN_IRQ_FIXED);
	c.busy_ns = 400000;
	sim_error_clear(&err);
	assert_int_equal(gen_validate(&c, &err), 0);
	{
		struct gen_stream *g = gen_open(&c, &err);
		struct trace_record r;
		int n = 0;

		while (gen_next(g, &r))
			n++;
		assert_true(n <= 1);
		gen_close(g);
	}
}

/* What gen_write writes, the reader reads back as the same records. */
static void test_written_trace_reads_back(void **state)
{
	struct sim_error err = { 0 };
	struct gen_config c;
	struct gen_stream *g;
	struct trace_reader *tr;
	struct trace_record a, b;
	char path[] = "/tmp/idlesim-test-gen-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	gen_config_defaults(&c, GEN_MIXED);
	c.cpus = 3;
	c.duration_ns = 50000000;
	c.iowait = 1;
	c.hz = 1000;
	c.timer_period_ns = 3000000;
	c.timer_kind = GEN_TIMER_MIX; /* records of both kinds */
	snprintf(c.source, sizeof(c.source), "test");
	assert_int_equal(gen_write(&c, f, &err), 0);
	fclose(f);
	tr = trace_open(path, &err);
	assert_non_null(tr);
	assert_int_equal(trace_header(tr)->cpus, 3);
	assert_int_equal(trace_header(tr)->hz, 1000);
	assert_int_equal(trace_header(tr)->end_ns, 50000000);
	g = gen_open(&c, &err);
	while (gen_next(g, &a)) {
		assert_int_equal(trace_next(tr, &b, &err), 1);
		assert_int_equal(a.cpu, b.cpu);
		assert_int_equal(a.time_ns, b.time_ns);
		assert_int_equal(a.length_ns, b.length_ns);
		assert_int_equal(a.cause, b.cause);
		assert_int_equal(a.next_timer_ns, b.next_timer_ns);
		assert_int_equal(a.timer_kind, b.timer_kind);
		if (a.timer_kind == TIMER_HRTIMER)
			assert_int_equal(a.next_wheel_ns, b.next_wheel_ns);
		assert_int_equal(a.iowait, b.iowait);
	}
	assert_int_equal(trace_next(tr, &b, &err), 0);
	gen_close(g);
	trace_close(tr);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periodic_exact),
		cmocka_unit_test(test_irq_fixed_with_timer),
		cmocka_unit_test(test_deterministic_and_ordered),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_timer_kinds),
		cmocka_unit_test(test_timer_slack),
		cmocka_unit_test(test_written_trace_reads_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
