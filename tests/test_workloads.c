// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_workloads.c - the benchmark-like workload models (sim/workload/workloads.h) in closed loop on
 * skl: for each model, numbers computed by hand from a jitter-free configuration, or
 * properties that hold exactly (iowait in every dbench period and in no tbench one, no
 * timer before powernightmares' long period); determinism for a seed; the direction issue 6
 * asks for (on a 1-client tbench, deepest loses throughput against shallowest, and the
 * oracle's throughput bounds every governor's); parameter errors that name the option; and
 * `idlesim gen` writing a trace that `idlesim run` replays.
 *
 * skl's deepest state is C10, exit latency 890 us; the deepest governor enters it on every
 * idle period, so every wakeup costs exactly 890 us, and shallowest (POLL) costs nothing.
 */
#include "tests/testutil.h"
#include "tests/testbin.h"
#include "tests/wltest.h"
#include "sim/base/common.h"
#include "sim/run/compare.h"
#include "sim/workload/workloads.h"

#include <math.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

/* ---- the table ---- */

static void test_registry(void **state)
{
	unsigned int i, j;
	static const char *const want[] = {
		"netperf-udp", "sockperf", "tbench", "dbench",
		"hackbench",   "cyclictest", "idle", "powernightmares",
	};

	(void)state;
	assert_int_equal(workload_count(), SIM_ARRAY_SIZE(want));
	for (i = 0; i < SIM_ARRAY_SIZE(want); i++)
		assert_ptr_equal(workload_find(want[i]), workload_get(i));
	assert_null(workload_find("tbench4"));
	assert_null(workload_get(workload_count()));
	for (i = 0; i < workload_count(); i++) {
		const struct workload *w = workload_get(i);
		int64_t p[WL_MAX_PARAMS];

		assert_true(w->nr_params >= 1 && w->nr_params <= WL_MAX_PARAMS);
		assert_non_null(w->summary);
		assert_non_null(w->imitates);
		assert_non_null(w->ops);
		workload_defaults(w, p);
		assert_int_equal(workload_check_params(w, p, NULL), 0);
		/* Every model fits the 8-CPU machines with its defaults. */
		assert_true(w->nr_cpus(p) >= 1 && w->nr_cpus(p) <= 8);
		for (j = 0; j < w->nr_params; j++) {
			assert_int_equal(workload_param_index(w, w->params[j].name), (int)j);
			assert_true(w->params[j].min <= w->params[j].def &&
				    w->params[j].def <= w->params[j].max);
		}
		assert_int_equal(workload_param_index(w, "no-such-option"), -1);
	}
}

/* ---- tbench ---- */

/*
 * Jitter-free 1-client tbench on CPUs 0 (client) and 1 (server): client 5 us, server
 * 10 us, and each sends its message with 2 us of its own CPU time (the loopback delivery),
 * then the IPI wakes the other. With POLL a cycle is 5 + 2 + 10 + 2 = 19 us; the first
 * request is delivered at 7 us and the k-th response is done (worked on, and the next
 * request sent) at 7 + 19k us, so 10 ms hold floor(9993 / 19) = 525 requests of 4096 bytes,
 * each 19 - 5 = 14 us from the client starting to send it to the client starting on its
 * response: 525 * 4096 B / 0.01 s = 215.04 MB/s. The client idles 10 + 2 = 12 us per
 * cycle, the server 5 + 2 = 7 us (they used to idle through the delivery too: 14 and 9).
 * With deepest every wakeup adds 890 us on both sides: a cycle of 1799 us, latency
 * 1794 us, floor(9993 / 1799) = 5 requests.
 */
static void test_tbench_by_hand(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct loop_result r;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int got;

	(void)state;
	setup_wl(&s, "tbench", "jitter-pct", 0LL, "watchdog-ms", 0LL, NULL);
	run_skl(&s, "shallowest", 10000000, 1, &r);
	assert_int_equal(r.stats.nr_cpus, 2);
	assert_int_equal(r.requests, 525);
	assert_int_equal(r.bytes, 525 * 4096);
	assert_int_equal(r.latency.max_ns, 14000);
	assert_int_equal(lat_hist_percentile(&r.latency, 1), 14000);
	assert_true(fabs(workload_throughput(s.w, &r) - 215.04) < 1e-9);
	loop_result_release(&r);

	tr = ideal_trace(&s, 1000000, &buf);
	while ((got = trace_next(tr, &rec, &err)) > 0)
		if (rec.time_ns > 0 && rec.time_ns + rec.length_ns < 1000000)
			assert_int_equal(rec.length_ns, rec.cpu == 0 ? 12000 : 7000);
	assert_int_equal(got, 0);
	trace_close(tr);
	free(buf);

	run_skl(&s, "deepest", 10000000, 1, &r);
	assert_int_equal(r.requests, 5);
	assert_int_equal(r.latency.max_ns, 1794000);
	assert_int_equal(lat_hist_percentile(&r.latency, 1), 1794000);
	loop_result_release(&r);
}

/*
 * Issue 6's direction, with the default (jittered) 1-client tbench: deepest loses
 * throughput against shallowest, and no governor beats the oracle, whose timeline is the
 * one without exit latency. The client's and its server's draws come from one stream in a
 * fixed order, so every governor sees the same work times: the bound is exact.
 */
static void test_tbench_direction(void **state)
{
	struct wl_setup s;
	struct loop_result o, g;
	double oracle, shallowest = 0, deepest = 0;
	unsigned int i;

	(void)state;
	setup_wl(&s, "tbench", "clients", 1LL, NULL);
	run_skl(&s, "oracle", 50000000, 7, &o);
	oracle = workload_throughput(s.w, &o);
	assert_true(oracle > 100);
	for (i = 0; i < gov_count(); i++) {
		double t;

		run_skl(&s, gov_get(i)->name, 50000000, 7, &g);
		t = workload_throughput(s.w, &g);
		if (t > oracle) {
			fprintf(stderr, "%s: %.3f MB/s > oracle %.3f MB/s\n", gov_get(i)->name, t,
				oracle);
			fail();
		}
		if (!strcmp(gov_get(i)->name, "shallowest"))
			shallowest = t;
		if (!strcmp(gov_get(i)->name, "deepest"))
			deepest = t;
		loop_result_release(&g);
	}
	/* POLL costs nothing: shallowest follows the oracle's timeline exactly. */
	assert_true(shallowest == oracle);
	assert_true(deepest < shallowest / 10);
	loop_result_release(&o);
}

/* Client k on CPU 2k, its server on 2k + 1; --cpus wraps; too small a machine is named. */
static void test_tbench_cpus(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct loop_result r;

	(void)state;
	setup_wl(&s, "tbench", "clients", 3LL, NULL);
	assert_int_equal(s.w->nr_cpus(s.p), 6);
	run_skl(&s, "menu", 5000000, 1, &r);
	assert_int_equal(r.stats.nr_cpus, 6);
	assert_true(r.requests > 0);
	loop_result_release(&r);

	setup_wl(&s, "tbench", "clients", 8LL, NULL);
	assert_int_equal(run_on(&s, "skl", "menu", 5000000, 1, &r, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "tbench needs 16 CPUs"));
	assert_non_null(strstr(err.text, "machine skl has 8"));
	assert_non_null(strstr(err.text, "--placement sched"));

	/* 8 clients sharing skl's 8 CPUs; and on hsx, 48 CPUs, one per thread. */
	setup_wl(&s, "tbench", "clients", 8LL, "cpus", 8LL, NULL);
	run_skl(&s, "teo", 5000000, 1, &r);
	assert_int_equal(r.stats.nr_cpus, 8);
	assert_true(r.requests > 0);
	loop_result_release(&r);
	setup_wl(&s, "tbench", "clients", 8LL, NULL);
	sim_error_clear(&err);
	assert_int_equal(run_on(&s, "hsx", "teo", 5000000, 1, &r, &err), 0);
	assert_int_equal(r.stats.nr_cpus, 16);
	loop_result_release(&r);
}

/*
 * The scheduler's command line: its bad input exits 2 naming the option and the limit,
 * writing nothing; MMTests' sweep on skl's 8 CPUs is tbench's 1..32 clients (4 x 8) with
 * a Gmean row; a model too large for the machine pinned is placed by the scheduler.
 */
static void test_sched_cli(void **state)
{
	static const struct {
		const char *args, *says;
	} bad[] = {
		{ "--workload tbench --cpus 16", "tbench --cpus 16: machine skl has 8 CPUs" },
		{ "--workload tbench --placement both", "--placement 'both': pinned or sched" },
		{ "--workload tbench --clients 3000", "--clients: 3000 is out of range (1..2048)" },
		{ "--workload sockperf --msg-bytes mmtests", "sockperf: no MMTests sweep" },
		{ "--workload tbench --clients mmtests -m hsx",
		  "machines hsx and skl sweep 48 and 8 CPUs" },
		{ "--workload tbench --clients 8 --placement pinned",
		  "tbench needs 16 CPUs, but machine skl has 8" },
		{ "--workload tbench --metric run_delay_us --placement pinned",
		  "--metric run_delay_us: the scheduler is not in the loop" },
		{ "--workload tbench --affinity 0-8", "CPU 8, but tbench's tasks run on 8 CPUs" },
		{ "--workload tbench --cpus 4 --affinity 4", "run on 4 CPUs of machine skl (0-3: --cpus)" },
		{ "--workload tbench --affinity ''", "--affinity: the value is empty" },
		{ "--workload tbench --affinity ,", "column 1: ',' where a CPU number belongs" },
		{ "--workload tbench --affinity 3-1", "the range 3-1 runs backwards" },
		{ "--workload tbench --affinity 0-3 --placement pinned",
		  "--affinity binds the scheduler's tasks; with --placement pinned there are none" },
	};
	char dir[] = "/tmp/idlesim-wl-XXXXXX", cmd[1024], path[256], out[256];
	struct wl_setup s;
	struct loop_result r;
	char *text;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/err", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	for (i = 0; i < SIM_ARRAY_SIZE(bad); i++) {
		snprintf(cmd, sizeof(cmd),
			 BIN " compare %s -m skl -g menu -n 1 --duration-s 0.01 -o %s 2>%s", bad[i].args,
			 out, path);
		assert_int_equal(sh(cmd), 2);
		text = slurp(path);
		if (!strstr(text, bad[i].says))
			fprintf(stderr, "%s: %s", bad[i].args, text);
		assert_non_null(strstr(text, bad[i].says));
		free(text);
		assert_int_equal(access(out, F_OK), -1);
	}

	snprintf(cmd, sizeof(cmd),
		 BIN " compare --workload tbench --clients mmtests -m skl -g menu,teo -n 1 "
		     "--duration-s 0.01 --metric throughput >%s 2>%s",
		 out, path);
	assert_int_equal(sh(cmd), 0);
	text = slurp(out);
	assert_non_null(strstr(text, "clients=1,2,4,8,16,32 "));
	assert_non_null(strstr(text, "placement=sched "));
	assert_non_null(strstr(text, "Hmean     throughput-32 "));
	assert_null(strstr(text, "throughput-64"));
	assert_non_null(strstr(text, "\nGmean     throughput "));
	free(text);

	/* JSON carries the first run's per-CPU and per-task detail: skl's 8 CPUs, the pair */
	snprintf(cmd, sizeof(cmd),
		 BIN " compare --workload tbench -m skl -g menu -n 1 --duration-s 0.01 -f json "
		     "--metric throughput >%s 2>%s",
		 out, path);
	assert_int_equal(sh(cmd), 0);
	text = slurp(out);
	assert_non_null(strstr(text, "\"sched\": [\n"));
	assert_non_null(strstr(text, "\"cpu\": 7,"));
	assert_null(strstr(text, "\"cpu\": 8,"));
	assert_non_null(strstr(text, "\"tid\": 2,"));
	assert_non_null(strstr(text, "\"comm\": \"tbench_srv\","));
	assert_null(strstr(text, "\"tid\": 3,"));
	free(text);
	unlink(out);
	unlink(path);
	rmdir(dir);

	/* 8 clients (16 tasks) on skl's 8 CPUs: the scheduler shares them */
	setup_wl(&s, "tbench", "clients", 8LL, "placement", 1LL, NULL);
	run_skl(&s, "menu", 5000000, 1, &r);
	assert_int_equal(r.stats.nr_cpus, 8);
	assert_int_equal(r.sched.nr_tasks, 16);
	/* client k is tid 2k + 1, its server 2k + 2 */
	assert_string_equal(r.sched.task[0].comm, "tbench");
	assert_string_equal(r.sched.task[15].comm, "tbench_srv");
	assert_true(r.requests > 0);
	loop_result_release(&r);
}

/* ---- dbench ---- */

/*
 * Jitter-free 1-client dbench without flushes: the client works 20 us, its I/O completes
 * 80 us later on the same CPU. With POLL the k-th operation is done at 20 + 100k us: in
 * 10 ms, floor(9980 / 100) = 99 operations of 80 us latency. With deepest each completion
 * waits 890 us more: 20 + 990k, floor(9980 / 990) = 10 operations of 970 us.
 */
static void test_dbench_by_hand(void **state)
{
	struct wl_setup s;
	struct loop_result r;

	(void)state;
	/* without the file system's kernel timers (RCU keeping the tick would add tick
	 * wakeups to deepest's periods: test_dbench_kernel_timers) */
	setup_wl(&s, "dbench", "jitter-pct", 0LL, "flush-every", 0LL, "housekeeping-us", 0LL,
		 "kernel-timers", 0LL, NULL);
	run_skl(&s, "shallowest", 10000000, 1, &r);
	assert_int_equal(r.stats.nr_cpus, 1);
	assert_int_equal(r.requests, 99);
	assert_int_equal(r.bytes, 99 * 4096);
	assert_int_equal(r.latency.max_ns, 80000);
	assert_int_equal(lat_hist_percentile(&r.latency, 1), 80000);
	loop_result_release(&r);

	run_skl(&s, "deepest", 10000000, 1, &r);
	assert_int_equal(r.requests, 10);
	assert_int_equal(r.latency.max_ns, 970000);
	assert_int_equal(lat_hist_percentile(&r.latency, 1), 970000);
	/* One more completion wakes it at 20 + 990 * 11 - 890 = 9999 us, but its exit would
	 * end after the run (10 ms): that entry is truncated, not counted. */
	assert_int_equal(r.stats.total.wakeups[WAKE_IRQ], 10);
	assert_int_equal(r.stats.total.truncated_ns, 10000000 - (20 + 990 * 10) * 1000);
	loop_result_release(&r);
}

/*
 * dbench's clients share the device (jitter-free, no flushes, shallowest): with one
 * channel and two clients (CPUs 0 and 1), both submit at 20 us; the device serves one at
 * 20..100 and the other at 100..180 us. From then on it is the bottleneck: each client
 * works 20 us on its completion and submits again, and finds the device busy until the
 * other's I/O is done, so completions come every 80 us (100, 180, 260, ...) and each
 * waits 140 us from its submission, except the first two (80 and 160 us). A request is
 * counted when the client is done with it, 20 us after its completion: 120 + 80 (k - 1)
 * <= 10000 us holds 124 of them. With 4 channels (the default) the two never wait: 2 x 99
 * requests of 80 us each, as 1 client's 99 (test_dbench_by_hand).
 * The journal: with every operation a flush (flush-every 1), both clients submit at 20 us
 * and join one 2000 us commit (group commit); done with it at 2040, both submit again and
 * join the next: 2040 + 2020 (k - 1) <= 10000 us holds 4 flushes per client, 8 in all, of
 * 2000 us each (one commit after the other would give the second client 4000 us).
 */
static void test_dbench_shared_device(void **state)
{
	struct wl_setup s;
	struct loop_result r;

	(void)state;
	setup_wl(&s, "dbench", "clients", 2LL, "channels", 1LL, "jitter-pct", 0LL, "flush-every",
		 0LL, "watchdog-ms", 0LL, NULL);
	run_skl(&s, "shallowest", 10000000, 1, &r);
	assert_int_equal(r.requests, 124);
	assert_int_equal(r.latency.max_ns, 160000);
	assert_int_equal(r.latency.sum_ns, (80 + 160 + 122 * 140) * 1000LL);
	loop_result_release(&r);

	s.p[workload_param_index(s.w, "channels")] = 4;
	run_skl(&s, "shallowest", 10000000, 1, &r);
	assert_int_equal(r.requests, 2 * 99);
	assert_int_equal(r.latency.max_ns, 80000);
	loop_result_release(&r);

	s.p[workload_param_index(s.w, "flush-every")] = 1;
	run_skl(&s, "shallowest", 10000000, 1, &r);
	assert_int_equal(r.requests, 8);
	assert_int_equal(r.bytes, 0);
	assert_int_equal(r.latency.max_ns, 2000000);
	loop_result_release(&r);
}

/*
 * iowait: every idle period of dbench has its client in iowait (the CPU only idles while
 * its I/O is in flight); no tbench period has any. With a flush exactly every 4th operation
 * (flush-spread-pct 0) the periods are 80 us three times, then 2000 us, all ended by the
 * device's IRQ.
 */
static void test_iowait(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int n = 0, got;

	(void)state;
	setup_wl(&s, "dbench", "clients", 2LL, "jitter-pct", 0LL, "flush-every", 4LL,
		 "flush-spread-pct", 0LL, "watchdog-ms", 0LL, NULL);
	tr = ideal_trace(&s, 20000000, &buf);
	assert_int_equal(trace_header(tr)->cpus, 2);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		int64_t want = (n / 2) % 4 == 3 ? 2000000 : 80000;

		assert_int_equal(rec.iowait, 1);
		assert_int_equal(rec.cause, WAKE_IRQ);
		assert_int_equal(rec.next_timer_ns, -1);
		if (rec.time_ns + rec.length_ns < 20000000) /* the last ones are cut at the end */
			assert_int_equal(rec.length_ns, want);
		n++;
	}
	assert_int_equal(got, 0);
	assert_true(n > 40);
	trace_close(tr);
	free(buf);

	buf = NULL;
	n = 0;
	setup_wl(&s, "tbench", "clients", 2LL, "watchdog-ms", 0LL, NULL);
	tr = ideal_trace(&s, 5000000, &buf);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		assert_int_equal(rec.iowait, 0);
		assert_int_equal(rec.cause, WAKE_IPI);
		n++;
	}
	assert_int_equal(got, 0);
	assert_true(n > 100);
	trace_close(tr);
	free(buf);
}

/*
 * flush-spread-pct: one client, no jitter otherwise, so its idle periods are 80 us (an I/O)
 * or 2000 us (a flush: a commit of its own). Spread 0: exactly 31 I/Os between flushes.
 * Spread 100 (the default): 1 + round(Exp(31)) operations from a flush to the next, so
 * the I/Os between flushes average 31 (rounding an exponential of mean 30 moves its mean by
 * under 0.01). A cycle of 32 operations takes 31 x (20 + 80) us + 20 us + 2 ms = 5.12 ms on
 * average, so 2 s hold ~390 gaps: the mean is within 31 +- 4 standard errors (the
 * exponential's standard deviation 30 / sqrt(390) = 1.5: 25..37, checked as 24.6..37.4),
 * and the gaps are not all equal.
 */
static void dbench_flush_gaps(const char *spread, long long pct, double *mean, int *distinct)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int got, ios = 0, gaps = 0, seen[512] = { 0 };
	long sum = 0;
	bool first = true;

	setup_wl(&s, "dbench", "jitter-pct", 0LL, spread, pct, "watchdog-ms", 0LL,
		 "kernel-timers", 0LL, NULL);
	tr = ideal_trace(&s, 2000000000, &buf);
	*distinct = 0;
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		if (rec.length_ns == 80000) {
			ios++;
			continue;
		}
		assert_int_equal(rec.length_ns, 2000000);
		if (!first) { /* the I/Os before the first flush are its phase, not a gap */
			sum += ios;
			gaps++;
			if (ios < 512 && !seen[ios]++)
				(*distinct)++;
		}
		first = false;
		ios = 0;
	}
	assert_int_equal(got, 0);
	assert_true(gaps > 300);
	*mean = (double)sum / gaps;
	trace_close(tr);
	free(buf);
}

static void test_dbench_flush_spread(void **state)
{
	double mean;
	int distinct;

	(void)state;
	dbench_flush_gaps("flush-spread-pct", 0, &mean, &distinct);
	assert_true(mean == 31.0);
	assert_int_equal(distinct, 1);
	dbench_flush_gaps("flush-spread-pct", 100, &mean, &distinct);
	assert_true(mean > 24.6 && mean < 37.4);
	assert_true(distinct > 10);
}

/* ---- netperf-udp, sockperf ---- */

/*
 * netperf-udp, 1024-byte messages, no jitter: the sender spends 1000 + 1024/4 = 1256 ns
 * per message, the receiver 500 + 1024/8 = 628 ns. With POLL the k-th message (k from 1)
 * is sent at 1256k and read by 1256k + 628: in 1 ms, floor(999372 / 1256) = 795 messages,
 * each with latency 0. With deepest the receiver sleeps 890 us in C10 after each drain,
 * while 708 messages arrive into a socket that holds 212992 / (1024 + 768) = 118: most are
 * dropped, so the received throughput falls.
 */
static void test_netperf_by_hand(void **state)
{
	struct wl_setup s;
	struct loop_result r;
	uint64_t poll_requests;

	(void)state;
	setup_wl(&s, "netperf-udp", "jitter-pct", 0LL, "housekeeping-us", 0LL, NULL);
	run_skl(&s, "shallowest", 1000000, 1, &r);
	assert_int_equal(r.stats.nr_cpus, 2);
	assert_int_equal(r.requests, 795);
	assert_int_equal(r.bytes, 795 * 1024);
	assert_int_equal(r.latency.max_ns, 0);
	assert_int_equal(r.stats.cpus[0].idle_periods, 0); /* the sender never idles */
	loop_result_release(&r);

	run_skl(&s, "shallowest", 20000000, 1, &r);
	poll_requests = r.requests;
	loop_result_release(&r);
	run_skl(&s, "deepest", 20000000, 1, &r);
	assert_true(r.requests < poll_requests / 2);
	assert_int_equal(r.latency.max_ns, C10_EXIT_NS);
	loop_result_release(&r);
}

/*
 * netperf-udp's mechanism by hand: a receiver that wakes 50 us late (skl with C10's exit
 * latency set to 50 us, and deepest) and a socket of N = 10 messages. 4400-byte messages,
 * no jitter, no timers: the sender spends 1000 + 4400/4 = 2100 ns per message, so message
 * j of a burst reaches the socket at a + 2100j; the receiver 500 + 4400/8 = 1050 ns each;
 * the buffer holds 51680 / (4400 + 768) = 10. A cycle starts when a message (j = 0) finds
 * the receiver idle at a: it runs from a + 50000. Messages 0..9 (to a + 18900) fill the
 * socket; 10..24 (a + 21000 .. a + 50400) find it full and are dropped: the first read
 * ends at a + 51050. 25..32 (a + 52500 .. a + 67200) are queued and read behind the
 * backlog, which is done at a + 50000 + 18 x 1050 = a + 68900; the receiver idles, and
 * message 33 at a + 69300 starts the next cycle. So every 69300 ns: 33 sent, 15 dropped,
 * 18 received. The first cycle starts at 2100; in 2100 + 10 x 69300 ns, 10 cycles: 180
 * messages received. The first of each cycle waits the whole 50 us.
 */
static void test_netperf_late_receiver(void **state)
{
	struct sim_error err = { 0 };
	struct sim_config cfg = { 0 };
	struct wl_setup s;
	struct loop_result r;
	struct machine m;

	(void)state;
	setup_wl(&s, "netperf-udp", "msg-bytes", 4400LL, "rcvbuf-bytes", 51680LL, "jitter-pct",
		 0LL, "watchdog-ms", 0LL, NULL);
	assert_int_equal(machine_load("skl", &m, &err), 0);
	m.states[m.state_count - 1].exit_latency_ns = 50000;
	cfg.machine = &m;
	cfg.gov = gov_find("deepest");
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	assert_int_equal(workload_run(s.w, s.p, &cfg, 2100 + 10 * 69300, 1, &r, &err), 0);
	assert_int_equal(r.requests, 10 * 18);
	assert_int_equal(r.bytes, 10 * 18 * 4400);
	assert_int_equal(r.latency.max_ns, 50000);
	loop_result_release(&r);
}

/*
 * sockperf, 1024-byte messages at 100000/s, no jitter: a message arrives every 10 us from
 * 10 us on, and costs 1000 + 1024/4 = 1256 ns. With POLL, in 1 ms messages 1..99 are done
 * (the 100th arrives at 1000 us and is not), each with latency 0. With deepest, the first
 * message waits the whole 890 us exit (the longest wait); 89 more arrive meanwhile and the
 * CPU catches up. With a ring of 16 those extra arrivals overflow it and are dropped.
 */
static void test_sockperf_by_hand(void **state)
{
	struct wl_setup s;
	struct loop_result r;
	uint64_t all;

	(void)state;
	setup_wl(&s, "sockperf", "jitter-pct", 0LL, "housekeeping-us", 0LL, NULL);
	run_skl(&s, "shallowest", 1000000, 1, &r);
	assert_int_equal(r.stats.nr_cpus, 1);
	assert_int_equal(r.requests, 99);
	assert_int_equal(r.bytes, 99 * 1024);
	assert_int_equal(r.latency.max_ns, 0);
	loop_result_release(&r);

	run_skl(&s, "deepest", 20000000, 1, &r);
	all = r.requests;
	assert_int_equal(r.latency.max_ns, C10_EXIT_NS);
	assert_true(all > 1900); /* a ring of 512 loses nothing */
	loop_result_release(&r);

	setup_wl(&s, "sockperf", "jitter-pct", 0LL, "ring", 16LL, "housekeeping-us", 0LL, NULL);
	run_skl(&s, "deepest", 20000000, 1, &r);
	assert_true(r.requests < all / 2);
	loop_result_release(&r);
}

/* skl with its deepest state's exit latency set to exit_ns, run under deepest. */
static void run_slow_wake(const struct wl_setup *s, int64_t exit_ns, int64_t duration_ns,
			  struct loop_result *r)
{
	struct sim_error err = { 0 };
	struct sim_config cfg = { 0 };
	struct machine m;

	assert_int_equal(machine_load("skl", &m, &err), 0);
	m.states[m.state_count - 1].exit_latency_ns = exit_ns;
	cfg.machine = &m;
	cfg.gov = gov_find("deepest");
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	assert_int_equal(workload_run(s->w, s->p, &cfg, duration_ns, 1, r, &err), 0);
}

/*
 * sockperf throughput mode with a server that wakes 45 us late, no jitter, 1024-byte
 * messages every 10 us (mps 100000), 1256 ns each, and a socket of 5376 / (1024 + 768) = 3
 * messages (the ring's 512 is larger). A cycle starts when message 0 finds the CPU idle at
 * a: the CPU runs from a + 45000; messages 1 and 2 (a + 10000, a + 20000) fill the socket,
 * 3 and 4 (a + 30000, a + 40000) are dropped; the three are read by a + 45000 + 3 x 1256 =
 * a + 48768, and message 5 at a + 50000 starts the next cycle: 3 of every 5 received. The
 * first cycle starts at 10 us; 10 cycles end before 10 + 10 x 50 us: 30 messages, the
 * longest wait 45 us (message 0).
 */
static void test_sockperf_late_server(void **state)
{
	struct wl_setup s;
	struct loop_result r;

	(void)state;
	setup_wl(&s, "sockperf", "rcvbuf-bytes", 5376LL, "jitter-pct", 0LL, "watchdog-ms", 0LL,
		 NULL);
	run_slow_wake(&s, 45000, 10000 + 10 * 50000, &r);
	assert_int_equal(r.requests, 30);
	assert_int_equal(r.bytes, 30 * 1024);
	assert_int_equal(r.latency.max_ns, 45000);
	loop_result_release(&r);
}

/*
 * sockperf ping-pong, no jitter, 1024 bytes, wire 5 us each way: the server works
 * 2 x (1000 + 1024/4) = 2512 ns per message (receive and reply). With POLL a round trip
 * is 5000 + 2512 + 5000 = 12512 ns, above the 10 us pacing of mps 100000, so the client
 * sends at 12512 (k - 1) and the server is done with message k at 12512k - 5000; the figure
 * is half the round trip, 6256 ns. In 1.001 ms: floor(1006000 / 12512) = 80 messages.
 * With a server that wakes 50 us late, a round trip is 62512 ns (latency 31256 ns): in
 * 1.001 ms, floor(1006000 / 62512) = 16.
 */
static void test_sockperf_pingpong(void **state)
{
	struct wl_setup s;
	struct loop_result r;

	(void)state;
	setup_wl(&s, "sockperf", "mode", 1LL, "jitter-pct", 0LL, "watchdog-ms", 0LL, NULL);
	run_skl(&s, "shallowest", 1001000, 1, &r);
	assert_int_equal(r.requests, 80);
	assert_int_equal(r.latency.sum_ns, 80 * 6256); /* every one 6256 */
	assert_int_equal(r.latency.max_ns, 6256);
	loop_result_release(&r);

	run_slow_wake(&s, 50000, 1001000, &r);
	assert_int_equal(r.requests, 16);
	assert_int_equal(r.latency.sum_ns, 16 * 31256);
	assert_int_equal(r.latency.max_ns, 31256);
	loop_result_release(&r);
}

/* ---- hackbench ---- */

/*
 * No jitter, send and receive 2 us each. One group of 1 sender and 1 receiver on 2 CPUs: a
 * round is a write (2 us) and a read (2 us), so rounds end every 4 us: 250 in 1.002 ms,
 * each of 100 bytes. Two groups of 2 + 2 tasks, burst 2, on 8 CPUs (each task on its own
 * CPU): each sender writes 4 messages at 2, 4, 6, 8 us, alternately to receiver 0 and 1;
 * receiver 0 gets 2 messages at 2 us and 2 at 6 us and reads them 2..10 us, receiver 1 gets
 * them at 4 and 8 us and reads them 4..12 us: a round takes 12 us, and 1.001 ms hold
 * floor(1001 / 12) = 83 rounds per group.
 */
static void test_hackbench_by_hand(void **state)
{
	struct wl_setup s;
	struct loop_result r;

	(void)state;
	setup_wl(&s, "hackbench", "groups", 1LL, "fds", 1LL, "cpus", 2LL, "jitter-pct", 0LL,
		 "housekeeping-us", 0LL, NULL);
	run_skl(&s, "shallowest", 1002000, 1, &r);
	assert_int_equal(r.requests, 250);
	assert_int_equal(r.bytes, 250 * 100);
	assert_int_equal(r.latency.max_ns, 4000);
	assert_true(fabs(workload_throughput(s.w, &r) - 250 / 0.001002) < 1e-6);
	loop_result_release(&r);

	setup_wl(&s, "hackbench", "groups", 2LL, "fds", 2LL, "burst", 2LL, "cpus", 8LL,
		 "jitter-pct", 0LL, "housekeeping-us", 0LL, NULL);
	run_skl(&s, "shallowest", 1001000, 1, &r);
	assert_int_equal(r.requests, 2 * 83);
	assert_int_equal(r.bytes, 2 * 83 * 8 * 100);
	assert_int_equal(r.latency.max_ns, 12000);
	assert_int_equal(lat_hist_percentile(&r.latency, 1), 12000);
	loop_result_release(&r);

	run_skl(&s, "deepest", 1001000, 1, &r);
	assert_true(r.requests < 2 * 83 / 10);
	loop_result_release(&r);
}

/* ---- cyclictest ---- */

/*
 * Two threads, intervals 1000 and 1500 us (distance 500), work 2 us, no jitter, 10.2 ms:
 * thread 0 fires at 1, 2, ..., 10 ms (10 times), thread 1 at 1.5, 3, ..., 9 ms (6 times).
 * With POLL the latency is 0; with deepest, exactly C10's 890 us every time (it is below
 * both intervals), and the 10 ms expiry runs at 10.89 ms, after the end: 15 wakeups done.
 * Every period ends by its timer, which the governor saw coming: on CPU 0 one from the
 * start and one after each of its 10 wakeups (the last cut by the end), on CPU 1 1 + 6.
 */
static void test_cyclictest_by_hand(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct loop_result r;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int got, n = 0;

	(void)state;
	/* Its figure is that latency: compare reports it though there is no throughput (it
	 * used to leave it out, and show deepest's 890 us wakeups as no latency at all). */
	assert_true(compare_metric_applies(workload_find("cyclictest"), COMPARE_M_LATENCY_MEAN));
	assert_true(compare_metric_applies(workload_find("cyclictest"), COMPARE_M_LATENCY_P99));
	assert_false(compare_metric_applies(workload_find("cyclictest"), COMPARE_M_THROUGHPUT));
	assert_false(compare_metric_applies(workload_find("idle"), COMPARE_M_LATENCY_MEAN));
	setup_wl(&s, "cyclictest", "cpus", 2LL, "distance-us", 500LL, "jitter-pct", 0LL, NULL);
	run_skl(&s, "shallowest", 10200000, 1, &r);
	assert_int_equal(r.requests, 16);
	assert_int_equal(r.latency.max_ns, 0);
	assert_true(isnan(workload_throughput(s.w, &r)));
	loop_result_release(&r);

	run_skl(&s, "deepest", 10200000, 1, &r);
	assert_int_equal(r.requests, 15);
	assert_int_equal(lat_hist_percentile(&r.latency, 1), C10_EXIT_NS);
	assert_int_equal(r.latency.max_ns, C10_EXIT_NS);
	loop_result_release(&r);

	tr = ideal_trace(&s, 10200000, &buf);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		assert_int_equal(rec.cause, WAKE_TIMER);
		assert_int_equal(rec.next_timer_ns, rec.length_ns);
		n++;
	}
	assert_int_equal(got, 0);
	assert_int_equal(n, 11 + 7);
	trace_close(tr);
	free(buf);
}

/* ---- idle, powernightmares ---- */

/*
 * idle, no jitter: each CPU's timer fires every 100 ms from a random phase and brings
 * 20 us of work, so after the first, every period is a timer period of 99.98 ms, seen
 * coming. No requests.
 */
static void test_idle_timers_only(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct trace_reader *tr;
	struct trace_record rec;
	struct loop_result r;
	bool seen[4] = { false };
	char *buf = NULL;
	int got, n = 0;

	(void)state;
	setup_wl(&s, "idle", "jitter-pct", 0LL, NULL);
	tr = ideal_trace(&s, 1000000000, &buf);
	assert_int_equal(trace_header(tr)->cpus, 4);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		assert_int_equal(rec.cause, WAKE_TIMER);
		assert_int_equal(rec.next_timer_ns, rec.length_ns);
		if (seen[rec.cpu] && rec.time_ns + rec.length_ns < 1000000000)
			assert_int_equal(rec.length_ns, 99980000);
		seen[rec.cpu] = true;
		n++;
	}
	assert_int_equal(got, 0);
	assert_true(n >= 40 && n <= 44);
	trace_close(tr);
	free(buf);

	run_skl(&s, "menu", 200000000, 1, &r);
	assert_int_equal(r.requests, 0);
	assert_true(isnan(workload_throughput(s.w, &r)));
	loop_result_release(&r);
}

/*
 * powernightmares, no jitter, no kernel timers (watchdog-ms 0): 20 periods of 5 us, then
 * one of 100 ms, every one ended by an IPI with no timer pending (next_timer absent), the
 * long one included.
 */
static void test_powernightmares_pattern(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct trace_reader *tr;
	struct trace_record rec;
	char *buf = NULL;
	int got, n = 0, longs = 0;

	(void)state;
	setup_wl(&s, "powernightmares", "jitter-pct", 0LL, "watchdog-ms", 0LL, NULL);
	tr = ideal_trace(&s, 350000000, &buf);
	while ((got = trace_next(tr, &rec, &err)) > 0) {
		int pos = n % 21;

		assert_int_equal(rec.cause, WAKE_IPI);
		assert_int_equal(rec.next_timer_ns, -1);
		if (rec.time_ns + rec.length_ns < 350000000)
			assert_int_equal(rec.length_ns, pos == 20 ? 100000000 : 5000);
		longs += pos == 20;
		n++;
	}
	assert_int_equal(got, 0);
	/* A cycle is 21 wakeups of 2 us work + 20 x 5 us + 100 ms = 100.142 ms. */
	assert_int_equal(longs, 4);
	assert_int_equal(n, 4 * 21);
	trace_close(tr);
	free(buf);
}

/* ---- every model ---- */

static bool same_run(const struct loop_result *a, const struct loop_result *b)
{
	return a->requests == b->requests && a->bytes == b->bytes &&
	       a->latency.sum_ns == b->latency.sum_ns && a->stats.energy_j == b->stats.energy_j &&
	       !memcmp(a->stats.total.states, b->stats.total.states,
		       sizeof(a->stats.total.states));
}

/* Same seed, same run; another seed, another run (every model has jitter by default). */
static void test_determinism(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < workload_count(); i++) {
		const struct workload *w = workload_get(i);
		struct loop_result a, b, c;
		struct wl_setup s;
		/* long enough for idle and powernightmares to draw something */
		int64_t d = !strcmp(w->name, "idle") || !strcmp(w->name, "powernightmares")
				    ? 300000000
				    : 10000000;

		setup_wl(&s, w->name, NULL);
		run_skl(&s, "menu", d, 42, &a);
		run_skl(&s, "menu", d, 42, &b);
		run_skl(&s, "menu", d, 43, &c);
		if (!same_run(&a, &b) || same_run(&a, &c)) {
			fprintf(stderr, "%s: seed 42 twice %s, seeds 42 and 43 %s\n", w->name,
				same_run(&a, &b) ? "same" : "DIFFER",
				same_run(&a, &c) ? "SAME" : "differ");
			fail();
		}
		loop_result_release(&a);
		loop_result_release(&b);
		loop_result_release(&c);
	}
}

/* Range errors name the workload and the option; so do the models' own checks. */
static void test_param_errors(void **state)
{
	struct sim_error err = { 0 };
	struct wl_setup s;
	struct loop_result r;

	(void)state;
	setup_wl(&s, "tbench", "clients", 0LL, NULL);
	assert_int_equal(workload_check_params(s.w, s.p, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_string_equal(err.text, "tbench --clients: 0 is out of range (1..2048)");

	sim_error_clear(&err);
	setup_wl(&s, "cyclictest", "jitter-pct", 101LL, NULL);
	assert_int_equal(run_on(&s, "skl", "menu", 1000000, 1, &r, &err), -1);
	assert_non_null(strstr(err.text, "cyclictest --jitter-pct: 101"));

	sim_error_clear(&err);
	setup_wl(&s, "tbench", "client-us", 0LL, "server-us", 0LL, "net-us", 0LL, NULL);
	assert_int_equal(run_on(&s, "skl", "menu", 1000000, 1, &r, &err), -1);
	assert_non_null(strstr(err.text, "--client-us, --server-us and --net-us"));

	sim_error_clear(&err);
	setup_wl(&s, "hackbench", "send-us", 0LL, "recv-us", 0LL, NULL);
	assert_int_equal(run_on(&s, "skl", "menu", 1000000, 1, &r, &err), -1);
	assert_non_null(strstr(err.text, "--send-us and --recv-us"));

	sim_error_clear(&err);
	setup_wl(&s, "idle", "cpus", 9LL, NULL);
	assert_int_equal(run_on(&s, "skl", "menu", 1000000, 1, &r, &err), -1);
	assert_non_null(strstr(err.text, "idle needs 9 CPUs"));
}

/* ---- through the binary ---- */

/* Run `idlesim gen ARGS -o DIR/NAME` (it must succeed) and return the trace's text. */
/*
 * gen writes a model's trace that run replays; options are the model's parameters; a bad
 * value names its option; help gen lists every parameter with its default.
 */
static void test_gen_cli(void **state)
{
	char dir[] = "/tmp/idlesim-wl-XXXXXX", cmd[1024], path[256];
	char *text;
	unsigned int i, j;

	(void)state;
	assert_non_null(mkdtemp(dir));
	text = gen_text(dir, "tb.trace",
			"--workload tbench --clients 2 --duration-s 0.02 --seed 3 --hz 1000");
	assert_non_null(text);
	assert_non_null(strstr(text, "cpus 4\n"));
	assert_non_null(strstr(text, "hz 1000\n"));
	assert_non_null(strstr(text, "end 20000000\n"));
	assert_non_null(strstr(text, "source idlesim gen --workload tbench --clients 2"));
	free(text);
	snprintf(cmd, sizeof(cmd),
		 BIN " run --trace %s/tb.trace --machine skl --governor menu,teo --format csv "
		     ">%s/out 2>%s/err",
		 dir, dir, dir);
	assert_int_equal(sh(cmd), 0);

	/* A bad value names its option; an option of another model is unknown here. */
	snprintf(cmd, sizeof(cmd), BIN " gen --workload dbench --io-latency-us 0 2>%s/err", dir);
	assert_int_equal(sh(cmd), 2);
	snprintf(path, sizeof(path), "%s/err", dir);
	text = slurp(path);
	assert_non_null(strstr(text, "dbench --io-latency-us: 0 is out of range"));
	free(text);
	snprintf(cmd, sizeof(cmd), BIN " gen --workload dbench --period-us 5 2>%s/err", dir);
	assert_int_equal(sh(cmd), 2);
	text = slurp(path);
	assert_non_null(strstr(text, "'--period-us'"));
	/* ... and the message lists the model's own options. */
	assert_non_null(strstr(text, "workload dbench takes --clients --cpus --client-us "));
	assert_non_null(
		strstr(text, " --jitter-pct --housekeeping-us (+6) --placement (+3); see idlesim "
			     "help gen)"));
	free(text);
	/* --housekeeping takes a preset name; an unknown one is an error listing them. */
	snprintf(cmd, sizeof(cmd), BIN " gen --workload tbench --housekeeping hz-tick 2>%s/err",
		 dir);
	assert_int_equal(sh(cmd), 2);
	text = slurp(path);
	assert_non_null(strstr(
		text, "--housekeeping 'hz-tick': unknown preset (nohz-6.12, nohz-6.1, none, "));
	free(text);
	text = gen_text(dir, "hz.trace", "--workload tbench --housekeeping hz-tick-250 "
					 "--duration-s 0.01");
	/* The server's first period, from 0, sees the first tick at 4 ms as its next timer
	 * (with nohz-idle it would see the 4 s watchdog at most). */
	assert_non_null(strstr(text, "\nidle 1 0 "));
	assert_non_null(strstr(text, " ipi next_timer=4000000\n"));
	free(text);
	snprintf(path, sizeof(path), "%s/err", dir);

	snprintf(cmd, sizeof(cmd), BIN " help gen >%s/help", dir);
	assert_int_equal(sh(cmd), 0);
	snprintf(path, sizeof(path), "%s/help", dir);
	text = slurp(path);
	for (i = 0; i < workload_count(); i++) {
		const struct workload *w = workload_get(i);
		char *at, *end = NULL;

		/* Its lines: from "  NAME  --..." to the next model's. */
		snprintf(path, sizeof(path), "\n  %s ", w->name);
		at = strstr(text, path);
		assert_non_null(at);
		if (i + 1 < workload_count()) {
			snprintf(path, sizeof(path), "\n  %s ", workload_get(i + 1)->name);
			end = strstr(at, path);
			assert_non_null(end);
			*end = '\0';
		}
		for (j = 0; j < w->nr_params; j++) {
			char want[96];

			snprintf(want, sizeof(want), "--%s [%lld", w->params[j].name,
				 (long long)w->params[j].def);
			if (!strstr(at, want)) {
				fprintf(stderr, "help gen lacks '%s' for %s\n", want, w->name);
				fail();
			}
		}
		if (i + 1 < workload_count())
			*end = '\n';
	}
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(sh(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_tbench_by_hand),
		cmocka_unit_test(test_tbench_direction),
		cmocka_unit_test(test_tbench_cpus),
		cmocka_unit_test(test_sched_cli),
		cmocka_unit_test(test_dbench_by_hand),
		cmocka_unit_test(test_dbench_shared_device),
		cmocka_unit_test(test_iowait),
		cmocka_unit_test(test_dbench_flush_spread),
		cmocka_unit_test(test_netperf_by_hand),
		cmocka_unit_test(test_netperf_late_receiver),
		cmocka_unit_test(test_sockperf_late_server),
		cmocka_unit_test(test_sockperf_pingpong),
		cmocka_unit_test(test_sockperf_by_hand),
		cmocka_unit_test(test_hackbench_by_hand),
		cmocka_unit_test(test_cyclictest_by_hand),
		cmocka_unit_test(test_idle_timers_only),
		cmocka_unit_test(test_powernightmares_pattern),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_param_errors),
		cmocka_unit_test(test_gen_cli),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
