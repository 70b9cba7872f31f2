// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_loop.c - closed-loop workloads inside the engine: a one-client ping-pong whose
 * throughput and latency are computed by hand, the direction the exit latency pushes them,
 * and the oracle as the bound on throughput.
 *
 * The model: a client on CPU 0 and a server on CPU 1 of skl. A message takes 2 us to
 * arrive (an IPI). The server works 10 us on a request; the client works 5 us on each
 * response, then sends the next request. Request latency = from sending the request to the
 * client starting on the response.
 */
#include "tests/testutil.h"
#include "sim/sched/loop.h"

#include <stdio.h>
#include <stdlib.h>

enum { K_THINK, K_REQUEST, K_RESPONSE };

#define DELAY_NS 2000
#define SERVER_NS 10000
#define CLIENT_NS 5000

static int pp_start(void *model, struct loop *L, struct sim_error *err)
{
	struct loop_item it = { .cpu = 0, .arrival_ns = 0, .work_ns = CLIENT_NS, .cause = WAKE_IPI,
				.kind = K_THINK };

	(void)model;
	return loop_send(L, &it, err);
}

static int pp_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
		   struct sim_error *err)
{
	struct loop_item it = { .cause = WAKE_IPI, .arrival_ns = t + DELAY_NS };

	(void)model;
	if (done->kind == K_RESPONSE &&
	    loop_request_done(L, done->start_ns - done->stamp_ns, 4096, err))
		return -1;
	if (done->kind == K_REQUEST) {
		/* The server answers. */
		it.cpu = 0;
		it.kind = K_RESPONSE;
		it.work_ns = CLIENT_NS;
		it.stamp_ns = done->stamp_ns;
	} else {
		/* The client sends the next request. */
		it.cpu = 1;
		it.kind = K_REQUEST;
		it.work_ns = SERVER_NS;
		it.stamp_ns = t;
	}
	return loop_send(L, &it, err);
}

static const struct loop_model_ops pingpong = {
	.start = pp_start,
	.done = pp_done,
};

static void run_pp(const char *gov, int64_t duration_ns, struct loop_result *r)
{
	struct sim_error err = { 0 };
	struct sim_config cfg = { 0 };
	struct machine m;

	assert_int_equal(machine_load("skl", &m, &err), 0);
	cfg.machine = &m;
	cfg.gov = gov_find(gov);
	assert_non_null(cfg.gov);
	cfg.nr_cpus = 2;
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	if (loop_run(&cfg, &pingpong, NULL, duration_ns, 1, r, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
}

/*
 * With POLL (shallowest) nothing costs exit latency: a cycle is 5 (client) + 2 + 10
 * (server) + 2 = 19 us. The first request leaves at 5 us; the k-th response is done at
 * 5 + 19k us, so 10 ms hold floor(9995 / 19) = 526 requests. Latency: 2 + 10 + 2 = 14 us.
 * Every idle entry is POLL ended by an IPI: the server's at 7 + 19k us, the client's at
 * 19 + 19k us, 526 of each before 10 ms (k <= 525). The idle gaps (7, 14 and 9 us) are
 * below the 20 us POLL limit (C1E's target residency), and the ticks at 4 and 8 ms do not
 * end a POLL entry: no other wakeup. The client's think time at 0 starts with work, and
 * the entries still open at 10 ms (from 9,992 and 9,999 us) are truncated, not counted.
 */
static void test_pingpong_by_hand(void **state)
{
	struct loop_result r;

	(void)state;
	run_pp("shallowest", 10000000, &r);
	assert_int_equal(r.requests, 526);
	assert_int_equal(r.bytes, 526 * 4096);
	assert_int_equal(r.latency.n, 526);
	assert_int_equal(r.latency.max_ns, 14000);
	assert_int_equal(lat_hist_percentile(&r.latency, 50), 14000);
	assert_int_equal(r.stats.total.wakeups[WAKE_IPI], 2 * 526);
	assert_int_equal(r.stats.total.wakeups[WAKE_POLL] + r.stats.total.wakeups[WAKE_TICK] +
				 r.stats.total.wakeups[WAKE_TIMER] + r.stats.total.wakeups[WAKE_IRQ],
			 0);
	assert_int_equal(r.stats.total.states[0].usage, 2 * 526);
	loop_result_release(&r);

	/*
	 * deepest: every wakeup comes out of C10 (exit 890 us) on both sides. A cycle is
	 * 5 + 2 + 890 + 10 + 2 + 890 = 1799 us, latency 2 + 890 + 10 + 2 + 890 = 1794 us: the
	 * k-th response is done at 5 + 1799k us, so 10 ms hold floor(9995 / 1799) = 5.
	 */
	run_pp("deepest", 10000000, &r);
	assert_int_equal(r.requests, 5);
	assert_int_equal(r.latency.max_ns, 1794000);
	loop_result_release(&r);
}

/* The oracle's loop runs without exit latency (sim/sched/loop.h): it bounds throughput. */
static void test_oracle_bounds_throughput(void **state)
{
	struct loop_result o, g;
	unsigned int i;

	(void)state;
	run_pp("oracle", 20000000, &o);
	/* floor((20000 - 5) / 19) = 1052 */
	assert_int_equal(o.requests, 1052);
	assert_int_equal(o.latency.max_ns, 14000);
	assert_int_equal(o.stats.total.states[0].above + o.stats.total.states[0].below, 0);
	for (i = 0; i < gov_count(); i++) {
		run_pp(gov_get(i)->name, 20000000, &g);
		if (g.requests > o.requests) {
			fprintf(stderr, "%s: %llu requests > oracle %llu\n", gov_get(i)->name,
				(unsigned long long)g.requests, (unsigned long long)o.requests);
			fail();
		}
		loop_result_release(&g);
	}
	loop_result_release(&o);
}

/* Same seed, same run; the conservation of time holds in closed loop too. */
static void test_deterministic(void **state)
{
	struct loop_result a, b;
	int c, i;

	(void)state;
	run_pp("menu", 10000000, &a);
	run_pp("menu", 10000000, &b);
	assert_int_equal(a.requests, b.requests);
	for (c = 0; c < 2; c++) {
		int64_t sum = a.stats.cpus[c].busy_ns + a.stats.cpus[c].truncated_ns;

		assert_memory_equal(a.stats.cpus[c].states, b.stats.cpus[c].states,
				    sizeof(a.stats.cpus[c].states));
		for (i = 0; i < a.stats.state_count; i++)
			sum += (int64_t)a.stats.cpus[c].states[i].time_ns;
		assert_true(sum >= 10000000 && sum <= 10000000 + 890000);
	}
	loop_result_release(&a);
	loop_result_release(&b);
}

/*
 * The ideal (zero exit latency) timeline written as a trace, by hand: the client thinks
 * 0..5 us; the request reaches the server at 7 (server idle [0, 7)); the server works
 * 7..17, the response reaches the client at 19 (client idle [5, 19)); the client works
 * 19..24, the next request reaches the server at 26 (server idle [17, 26)); the server
 * works 26..36, the response arrives at 38 (client idle [24, 38)). All woken by IPIs.
 */
static void test_write_ideal(void **state)
{
	struct sim_error err = { 0 };
	struct trace_header hdr = { 0 };
	struct trace_reader *tr;
	struct trace_record rec;
	static const int64_t want[4][3] = {
		{ 1, 0, 7000 }, { 0, 5000, 19000 }, { 1, 17000, 26000 }, { 0, 24000, 38000 },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	(void)state;
	snprintf(hdr.source, sizeof(hdr.source), "ping-pong test");
	assert_int_equal(loop_write_ideal(&pingpong, NULL, 2, 100000, 1, &hdr, f, NULL, &err), 0);
	fclose(f);
	tr = trace_open_string("<ideal>", buf, &err);
	assert_non_null(tr);
	assert_int_equal(trace_header(tr)->cpus, 2);
	assert_int_equal(trace_header(tr)->end_ns, 100000);
	for (i = 0; i < 4; i++) {
		assert_int_equal(trace_next(tr, &rec, &err), 1);
		assert_int_equal(rec.cpu, want[i][0]);
		assert_int_equal(rec.time_ns, want[i][1]);
		assert_int_equal(rec.time_ns + rec.length_ns, want[i][2]);
		assert_int_equal(rec.cause, WAKE_IPI);
	}
	trace_close(tr);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong_by_hand),
		cmocka_unit_test(test_oracle_bounds_throughput),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_write_ideal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
