// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_workload_timers.c - the closed-loop models' timer worlds (docs/workloads.md "Timers"):
 * housekeeping timers on the jiffy grid, the --housekeeping presets, the never-stopping
 * tick, the watchdog's bound, tbench's TCP timers, dbench's RCU callbacks, and
 * gen --timers-from. Every expectation is worked out by hand in the comment above it.
 */
#include "tests/wltest.h"
#include "sim/run/compare.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/*
 * tbench's TCP timers (kernel-timers 1), jitter-free 1 client at HZ 250 (grid at 0): the
 * client's request leaves at 7 us (5 us of work + 2 us of delivery), arming on CPU 0 the
 * server socket's delayed ACK, 40 ms = 10 jiffies: expires 0 + 10, level 0, bucket 11:
 * 44 ms; its own retransmission timer, 200 ms = 50 jiffies: bucket 51, 204 ms, later. With
 * the push model (nohz-6.1) CPU 0's period from 7 us sees 44 ms - 7 us = 43,993,000 ns, a
 * wheel timer; the server answers at 19 us (10 + 2 us), CPU 1 sees 44 ms - 19 us. With
 * timer migration (nohz-6.12) the ideal timeline's CPUs never stop their tick, so neither
 * is ever the last active one: both see the watchdog hrtimer instead, seconds away.
 */
static void test_tbench_tcp_timers(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int i;

	(void)state;
	setup_wl(&s, "tbench", "jitter-pct", 0LL, NULL);
	assert_int_equal(workload_preset(s.w, "nohz-6.1", s.p, &err), 0);
	tr = ideal_trace(&s, 1000000, &buf);
	for (i = 0; i < 3; i++)
		assert_int_equal(trace_next(tr, &rec, &err), 1);
	assert_int_equal(rec.cpu, 1); /* the third: CPU 1 from 19 us */
	assert_int_equal(rec.time_ns, 19000);
	assert_int_equal(rec.next_timer_ns, 44000000 - 19000);
	trace_close(tr);
	free(buf);
	tr = ideal_trace(&s, 1000000, &buf);
	assert_int_equal(trace_next(tr, &rec, &err), 1);
	assert_int_equal(trace_next(tr, &rec, &err), 1);
	assert_int_equal(rec.cpu, 0);
	assert_int_equal(rec.time_ns, 7000);
	assert_int_equal(rec.next_timer_ns, 43993000);
	assert_int_equal(rec.timer_kind, TIMER_WHEEL);
	trace_close(tr);
	free(buf);

	assert_int_equal(workload_preset(s.w, "nohz-6.12", s.p, &err), 0);
	tr = ideal_trace(&s, 1000000, &buf);
	assert_int_equal(trace_next(tr, &rec, &err), 1);
	assert_int_equal(trace_next(tr, &rec, &err), 1);
	assert_int_equal(rec.time_ns, 7000);
	assert_int_equal(rec.timer_kind, TIMER_HRTIMER);
	assert_true(rec.next_timer_ns > 44000000);
	trace_close(tr);
	free(buf);
}

/*
 * dbench's RCU callbacks (kernel-timers 1, rcu-every 1, rcu-jiffies 3), jitter-free, no
 * flushes, HZ 250 (grid at 0): the client works 20 us, its I/O completes 80 us later. The
 * first idle period, [20, 100 us), follows the start's work, which queued nothing. Each
 * completion's work (unlinks and the like) queues callbacks: done at 120 us, in jiffy 0,
 * they are pending until the edge of jiffy 3, 12 ms, so the period from 120 us carries
 * keep_tick = 12 ms - 120 us; the next, from 220 us, 12 ms - 220 us. With rcu-every 0: none.
 */
static void test_dbench_kernel_timers(void **state)
{
	static const int64_t start[] = { 20000, 120000, 220000 };
	static const int64_t keep[] = { 0, 11880000, 11780000 };
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int i;

	(void)state;
	setup_wl(&s, "dbench", "jitter-pct", 0LL, "flush-every", 0LL, "rcu-every", 1LL, NULL);
	tr = ideal_trace(&s, 1000000, &buf);
	for (i = 0; i < 3; i++) {
		assert_int_equal(trace_next(tr, &rec, &err), 1);
		assert_int_equal(rec.time_ns, start[i]);
		assert_int_equal(rec.length_ns, 80000);
		assert_int_equal(rec.keep_tick_ns, keep[i]);
	}
	trace_close(tr);
	free(buf);
	setup_wl(&s, "dbench", "jitter-pct", 0LL, "flush-every", 0LL, "rcu-every", 0LL, NULL);
	tr = ideal_trace(&s, 1000000, &buf);
	while (trace_next(tr, &rec, &err) > 0)
		assert_int_equal(rec.keep_tick_ns, 0);
	trace_close(tr);
	free(buf);
}

/*
 * A cyclictest whose own 1 s timer never fires in 10 ms, with a housekeeping timer every
 * 1 ms (workloads.h): a timer-wheel timer, so at HZ 250 it fires on the jiffy grid (edges
 * at multiples of 4 ms from 0). Its first expiry, a random phase in (0, 1 ms], moves up to
 * the edge at 4 ms: CPU 0 idles [0, 4 ms); after each run's 2 us of work the next expiry,
 * 1 ms after the edge it ran at, moves up to the next edge: idle [4,002,000, 8 ms), then
 * from 8,002,000 to 12 ms, past the end (10 ms): 3 periods, each ended by the timer seen
 * coming. The timers are not requests: the closed loop counts none.
 */
static void test_housekeeping(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct loop_result r;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int got, n = 0;

	(void)state;
	setup_wl(&s, "cyclictest", "period-us", 1000000LL, "jitter-pct", 0LL, "housekeeping-us",
		 1000LL, NULL);
	tr = ideal_trace(&s, 10000000, &buf);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		assert_int_equal(rec.cpu, 0);
		assert_int_equal(rec.cause, WAKE_TIMER);
		assert_int_equal(rec.next_timer_ns, rec.length_ns);
		if (n == 0) {
			assert_int_equal(rec.time_ns, 0);
			assert_int_equal(rec.length_ns, 4000000);
		} else {
			assert_int_equal(rec.time_ns, n * 4000000 + 2000);
			assert_int_equal(rec.length_ns, 3998000);
		}
		n++;
	}
	assert_int_equal(got, 0);
	assert_int_equal(n, 3);
	trace_close(tr);
	free(buf);

	run_skl(&s, "shallowest", 10000000, 1, &r);
	assert_int_equal(r.requests, 0);
	loop_result_release(&r);
}

/*
 * The presets set the timer-world parameters (workloads.h, docs/workloads.md "Timers");
 * nohz-6.12 is the default: the watchdog, vmstat every 1 s, the benchmark's kernel timers,
 * v6.9+ timer migration, RCU callbacks for 3 ticks; nohz-6.1 the same with the push model
 * of timer placement. legacy-10ms is the former default, one 10 ms timer per CPU: with it,
 * menu@6.19 on a 1-client tbench finds the short intervals (~170 MB/s at 0.2 s), which it
 * does not without any timer (~3 MB/s, C10 after C10: see the README for why).
 */
static void test_housekeeping_presets(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct loop_result r;
	double off, on;
	int k, a, d;

	(void)state;
	setup_wl(&s, "tbench", "clients", 1LL, NULL);
	k = workload_param_index(s.w, "housekeeping-us");
	a = workload_param_index(s.w, "housekeeping-aligned");
	d = workload_param_index(s.w, "watchdog-ms");
	assert_true(k >= 0 && a >= 0 && d >= 0);
	assert_int_equal(s.p[k], 0);
	assert_int_equal(s.p[a], 0);
	assert_int_equal(s.p[d], 4000); /* 2 * watchdog_thresh (10 s) / 5 */
	assert_int_equal(s.p[d + 1], 1000); /* vmstat-ms: sysctl_stat_interval, HZ */
	assert_int_equal(s.p[d + 2], 1);    /* kernel-timers */
	assert_int_equal(s.p[d + 3], 1);    /* tmigr */
	assert_int_equal(s.p[d + 4], 3);    /* rcu-jiffies */
	assert_int_equal(workload_preset(s.w, "nohz-6.1", s.p, &err), 0);
	assert_int_equal(s.p[d + 3], 0);
	assert_int_equal(s.p[d + 2], 1);
	assert_int_equal(workload_preset(s.w, "hz-tick-250", s.p, &err), 0);
	assert_int_equal(s.p[k], 4000);
	assert_int_equal(s.p[a], 1);
	assert_int_equal(s.p[d], 4000);
	assert_int_equal(workload_preset(s.w, "none", s.p, &err), 0);
	assert_int_equal(s.p[k] + s.p[a] + s.p[d] + s.p[d + 1] + s.p[d + 2] + s.p[d + 3], 0);
	assert_int_equal(workload_preset(s.w, "hz-tick-42", s.p, &err), -1);
	assert_non_null(
		strstr(err.text, "'hz-tick-42': unknown preset (nohz-6.12, nohz-6.1, none, "));
	assert_int_equal(workload_preset(workload_find("idle"), "none", s.p, &err), -1);

	run_skl(&s, "menu@6.19", 200000000, 1, &r);
	off = workload_throughput(s.w, &r);
	loop_result_release(&r);
	assert_int_equal(workload_preset(s.w, "legacy-10ms", s.p, &err), 0);
	assert_int_equal(s.p[k], 10000);
	assert_int_equal(s.p[d], 0);
	run_skl(&s, "menu@6.19", 200000000, 1, &r);
	on = workload_throughput(s.w, &r);
	loop_result_release(&r);
	assert_true(on > 10 * off);
}

/*
 * hz-tick-250 is a tick that never stops: a timer-wheel timer at every multiple of 4 ms on
 * every CPU, so every idle period of an otherwise timer-less pattern sees it as its next
 * timer, due at the next tick boundary (written as the period's next_timer), and none of
 * them is longer than 4 ms. powernightmares' 100 ms period is cut into ticks.
 */
static void test_hz_tick_preset(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int got, ticks = 0;

	(void)state;
	setup_wl(&s, "powernightmares", "jitter-pct", 0LL, NULL);
	assert_int_equal(workload_preset(s.w, "hz-tick-250", s.p, &err), 0);
	s.p[workload_param_index(s.w, "watchdog-ms")] = 0;
	tr = ideal_trace(&s, 200000000, &buf);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		int64_t next_tick = (rec.time_ns / 4000000 + 1) * 4000000;

		assert_int_equal(rec.time_ns + rec.next_timer_ns, next_tick);
		assert_int_equal(rec.timer_kind, TIMER_WHEEL);
		assert_true(rec.length_ns <= 4000000);
		ticks += rec.cause == WAKE_TIMER;
	}
	assert_int_equal(got, 0);
	/* The short periods fill 0..142 us and 100.142..100.284 ms, so every tick at 4, 8, ...,
	 * 196 ms falls in a long period and ends an idle period (49), and the last period runs
	 * to the tick at 200 ms, the end: 50. */
	assert_int_equal(ticks, 50);
	trace_close(tr);
	free(buf);
}

/*
 * "No timer" is not infinity (workloads.h): the soft-lockup watchdog's hrtimer bounds the
 * sleep length at 4 s. An IPI-only stream of exponential idle periods (mean 50 us) gives
 * menu@6.19 no timer to go by; without the watchdog (watchdog-ms 0, sleep length "no
 * timer") most of its entries are C10; with the default 4 s bound, its correction factor
 * learns how short the real intervals are and C10 becomes a minority (measured with seed 1
 * and worst-case exits: 990 of 1488 entries without, 560 of 3824 with). The watchdog's
 * timer is an hrtimer: the periods record it with timer_kind hrtimer and no wheel timer.
 */
static uint64_t c10_share_pct(const struct loop_result *r)
{
	const struct cpu_stats *c = &r->stats.cpus[0];
	uint64_t all = 0;
	int i;

	for (i = 0; i < CPUIDLE_STATE_MAX; i++)
		all += c->states[i].usage;
	return all ? 100 * c->states[8].usage / all : 0;
}

static void test_watchdog_bound(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct loop_result r;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int got;

	(void)state;
	setup_wl(&s, "powernightmares", "shorts", 1000000LL, "short-us", 50LL, "jitter-pct",
		 100LL, "watchdog-ms", 0LL, NULL);
	run_skl(&s, "menu@6.19", 1000000000, 1, &r);
	assert_true(c10_share_pct(&r) > 60);
	loop_result_release(&r);
	s.p[workload_param_index(s.w, "watchdog-ms")] = 4000;
	run_skl(&s, "menu@6.19", 1000000000, 1, &r);
	assert_true(c10_share_pct(&r) < 25);
	loop_result_release(&r);

	tr = ideal_trace(&s, 10000000, &buf);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		assert_true(rec.next_timer_ns > 0 && rec.time_ns + rec.next_timer_ns <= 4000000000);
		assert_int_equal(rec.timer_kind, TIMER_HRTIMER);
		assert_int_equal(rec.next_wheel_ns, -1);
	}
	assert_int_equal(got, 0);
	trace_close(tr);
	free(buf);
}

/*
 * gen --timers-from: tests/import/periodic.ftrace's periodic timers (test_import.c's
 * test_periodic_timers: CPU 0 mce_timer_fn, a pinned wheel timer every 19,998,000 ns; CPU 1
 * it_real_fn, an hrtimer every 9,998,000 ns, and a deferrable delayed_work_timer_fn) replace
 * a 1-client tbench's housekeeping (HZ 250, grid at 0): the client's CPU 0 sees the wheel
 * timer, on the grid (multiples of 4 ms), moving 20 ms on when it has fired (19,998,000
 * after an edge, up to the next); the server's CPU 1 the hrtimer, moving 9,998,000 ns on,
 * and never the watchdog (4 s) nor the deferrable timer (not in a sleep length).
 */
static void test_gen_timers_from(void **state)
{
	char dir[] = "/tmp/idlesim-wl-XXXXXX", cmd[1024], path[256];
	int64_t start, length, next, last[2] = { -1, -1 };
	int cpu, steps[2] = { 0, 0 }, n;
	char *text, *line;

	(void)state;
	assert_non_null(mkdtemp(dir));
	text = gen_text(dir, "tf.trace",
			"--workload tbench --jitter-pct 0 --duration-s 0.1 --timers-from "
			IDLESIM_SOURCE_DIR "/tests/import/periodic.ftrace");
	assert_non_null(text);
	for (line = strstr(text, "\nidle "); line; line = strstr(line + 1, "\nidle ")) {
		char cause[8], *eol = strchr(line + 1, '\n'), *nt;
		int got = sscanf(line, "\nidle %d %" SCNd64 " %" SCNd64 " %7s%n", &cpu, &start,
				 &length, cause, &n);

		assert_int_equal(got, 4);
		nt = strstr(line + n, " next_timer=");
		if (nt && (!eol || nt < eol)) { /* an ipi period: the next timer is given */
			assert_int_equal(sscanf(nt, " next_timer=%" SCNd64 "%n", &next, &n), 1);
			n += (int)(nt - line);
		} else { /* a timer period: the timer ended it */
			assert_string_equal(cause, "timer");
			next = length;
		}
		next += start;
		if (cpu == 0) {
			assert_int_equal(next % 4000000, 0);
			assert_true(strncmp(line + n, " timer=hrtimer", 14) != 0);
		} else {
			assert_int_equal(strncmp(line + n, " timer=hrtimer", 14), 0);
			assert_true(next - start <= 9998000);
		}
		if (last[cpu] >= 0 && next != last[cpu]) {
			assert_int_equal(next - last[cpu], cpu == 0 ? 20000000 : 9998000);
			steps[cpu]++;
		}
		last[cpu] = next;
	}
	assert_true(steps[0] >= 3 && steps[1] >= 8);
	free(text);
	snprintf(path, sizeof(path), "%s/err", dir);
	text = slurp(path);
	assert_non_null(strstr(text, "3 periodic timers of 2 traced CPUs on the model's 2"));
	free(text);
	/* a model without a timer world, and a trace that is not there: exit 2, named */
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd),
			 BIN " gen --workload %s --timers-from %s/none.ftrace -o %s/x 2>%s/err",
			 i ? "tbench" : "idle", dir, dir, dir);
		assert_int_equal(sh(cmd), 2);
		text = slurp(path);
		assert_non_null(strstr(text, i ? "none.ftrace"
					       : "workload idle has no timer world to replace"));
		free(text);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(sh(cmd), 0);
}

/*
 * A periodic-tick preset is a tick at its HZ: `gen --housekeeping hz-tick-100` writes `hz 100`
 * and its wheel timer at every 10 ms (powernightmares, no jitter, no watchdog): each period's
 * next timer is the next multiple of 10 ms, none longer; the ticks at 10, ..., 190 ms each
 * end a period (the short ones fill 0..142 us and 100.142..100.284 ms) and the last runs to
 * 200 ms, the end: 20. --hz 250 contradicts it: exit 2, named. compare runs each timer
 * world at its own HZ: the JSON cells say hz 250 (nohz-idle) and 1000 (hz-tick-1000).
 */
static void test_hz_tick_preset_hz(void **state)
{
	char dir[] = "/tmp/idlesim-wl-XXXXXX", cmd[1024], path[256];
	struct sim_error err = { 0 };
	struct trace_reader *tr;
	struct trace_record rec;
	char *text;
	int got, ticks = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	text = gen_text(dir, "t.trace",
			"--workload powernightmares --housekeeping hz-tick-100 --jitter-pct 0 "
			"--watchdog-ms 0 --duration-s 0.2");
	assert_non_null(text);
	assert_non_null(strstr(text, "\nhz 100\n"));
	tr = trace_open_string("<gen>", text, &err);
	assert_non_null(tr);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		assert_int_equal(rec.time_ns + rec.next_timer_ns, (rec.time_ns / 10000000 + 1) * 10000000);
		assert_true(rec.length_ns <= 10000000);
		ticks += rec.cause == WAKE_TIMER;
	}
	assert_int_equal(got, 0);
	assert_int_equal(ticks, 20);
	trace_close(tr);
	free(text);

	snprintf(path, sizeof(path), "%s/err", dir);
	snprintf(cmd, sizeof(cmd),
		 BIN " gen --workload dbench --housekeeping hz-tick-100 --hz 250 -o %s/x 2>%s", dir,
		 path);
	assert_int_equal(sh(cmd), 2);
	text = slurp(path);
	assert_non_null(strstr(text, "--housekeeping hz-tick-100 is a tick that never stops at HZ "
				     "100; --hz 250 contradicts it"));
	free(text);
	snprintf(path, sizeof(path), "%s/x", dir);
	assert_int_equal(access(path, F_OK), -1);

	snprintf(cmd, sizeof(cmd),
		 BIN " compare --workload powernightmares -g menu@6.19,teo@6.19 -m skl -n 2 "
		     "--duration-s 0.05 --housekeeping nohz-idle,hz-tick-1000 --metric energy_j "
		     "--format json -o %s/c.json 2>/dev/null",
		 dir);
	assert_int_equal(sh(cmd), 0);
	snprintf(path, sizeof(path), "%s/c.json", dir);
	text = slurp(path);
	assert_non_null(strstr(text, "\"housekeeping\": \"nohz-idle\",\n      \"hz\": 250,"));
	assert_non_null(strstr(text, "\"housekeeping\": \"hz-tick-1000\",\n      \"hz\": 1000,"));
	assert_non_null(strstr(text, "\"world_hz\": {\n"));
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(sh(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tbench_tcp_timers),
		cmocka_unit_test(test_dbench_kernel_timers),
		cmocka_unit_test(test_housekeeping),
		cmocka_unit_test(test_housekeeping_presets),
		cmocka_unit_test(test_hz_tick_preset),
		cmocka_unit_test(test_hz_tick_preset_hz),
		cmocka_unit_test(test_watchdog_bound),
		cmocka_unit_test(test_gen_timers_from),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
