/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * comparetest.h - what the tests of idlesim compare and idlesim check share
 * (tests/test_compare.c, tests/test_compare_check.c): two hand-made workloads, and the
 * configuration record that opens the golden comparison's output.
 *
 * The hand-made workload "pp" is test_loop.c's ping-pong with the server's work as a
 * parameter: a client on CPU 0 works 5 us, sends a request (an IPI arriving 2 us later) to
 * the server on CPU 1, which works S us (--server-us) and answers (2 us); the client works
 * 5 us on the response and sends the next request. A request's latency runs from sending
 * it to the client starting on the response. Nothing in it is random, so every iteration
 * gives the same numbers. "ppr" is the same with the server's work drawn uniformly from
 * [S/2, 3S/2] (seeded), for the determinism tests.
 */
#ifndef IDLESIM_COMPARETEST_H
#define IDLESIM_COMPARETEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/run/cfgrec.h"
#include "sim/study/check.h"
#include "sim/study/check_int.h"
#include "sim/base/common.h"
#include "sim/run/compare.h"
#include "sim/report/compare_report.h"
#include "sim/base/init.h"
#include "sim/sched/loop.h"


/* ---- the ping-pong workloads ---- */

enum { K_THINK, K_REQUEST, K_RESPONSE };

struct pp {
	int64_t server_ns;
	bool random;
};

static inline int pp_init(void *model, const int64_t *params, int nr_cpus, struct sim_error *err)
{
	struct pp *p = model;

	(void)nr_cpus;
	(void)err;
	p->server_ns = params[0] * 1000;
	return 0;
}

static inline int ppr_init(void *model, const int64_t *params, int nr_cpus, struct sim_error *err)
{
	((struct pp *)model)->random = true;
	return pp_init(model, params, nr_cpus, err);
}

static inline int pp_start(void *model, struct loop *L, struct sim_error *err)
{
	struct loop_item it = { .cpu = 0, .arrival_ns = 0, .work_ns = 5000, .cause = WAKE_IPI,
				.kind = K_THINK };

	(void)model;
	return loop_send(L, &it, err);
}

static inline int pp_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
			  struct sim_error *err)
{
	const struct pp *p = model;
	struct loop_item it = { .cause = WAKE_IPI, .arrival_ns = t + 2000 };

	if (done->kind == K_RESPONSE &&
	    loop_request_done(L, done->start_ns - done->stamp_ns, 0, err))
		return -1;
	if (done->kind == K_REQUEST) {
		it.cpu = 0;
		it.kind = K_RESPONSE;
		it.work_ns = 5000;
		it.stamp_ns = done->stamp_ns;
	} else {
		it.cpu = 1;
		it.kind = K_REQUEST;
		it.work_ns = p->random ? loop_uniform(L, 0, p->server_ns / 2, 3 * p->server_ns / 2)
				       : p->server_ns;
		it.stamp_ns = t;
	}
	return loop_send(L, &it, err);
}

static const struct loop_model_ops pp_ops = { .start = pp_start, .done = pp_done };

static inline int pp_cpus(const int64_t *params)
{
	(void)params;
	return 2;
}

static const struct wl_param pp_params[] = {
	{ .name = "server-us", .help = "server work per request", .def = 10, .min = 1,
	  .max = 1000 },
};

static const struct workload wl_pp = {
	.name = "pp",
	.summary = "ping-pong",
	.imitates = "a test",
	.params = pp_params,
	.nr_params = 1,
	.throughput_unit = "req/s",
	.nr_cpus = pp_cpus,
	.model_size = sizeof(struct pp),
	.init = pp_init,
	.ops = &pp_ops,
};

static const struct workload wl_ppr = {
	.name = "ppr",
	.summary = "ping-pong, random server work",
	.imitates = "a test",
	.params = pp_params,
	.nr_params = 1,
	.throughput_unit = "req/s",
	.nr_cpus = pp_cpus,
	.model_size = sizeof(struct pp),
	.init = ppr_init,
	.ops = &pp_ops,
};

static inline const struct workload *find_test_workload(const char *name)
{
	return !strcmp(name, "pp") ? &wl_pp : !strcmp(name, "ppr") ? &wl_ppr : NULL;
}

/* ---- helpers ---- */

static inline void assert_text_equal(const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "--- expected\n%s--- got\n%s---\n", want, got);
		fail();
	}
}

/*
 * The configuration record that opens the golden comparison's text and check output: the
 * version, seeds 1..2, HZ 250, no limit, skl's table hash (machine_hash(), tested on known
 * vectors in test_report.c), the states golden_request() of tests/test_compare.c disables,
 * and the two test governors, which have no tunables. Then the rest must equal `want`.
 */
/* The config record of the golden comparison, each line after prefix. */
static inline void config_head(char *head, size_t len, const char *prefix)
{
	struct sim_error err;
	struct machine skl;
	char hash[17];
	const char *p = prefix;

	assert_int_equal(machine_load("skl", &skl, &err), 0);
	cfgrec_hex(hash, machine_hash(&skl));
	snprintf(head, len,
		 "%sconfig: idlesim %s; seeds 1..2; HZ 250; latency limit none; wake latency model "
		 "worst\n"
		 "%smachine skl: table %s; disabled: C1E,C3,C6,C7s,C8,C9,C10\n"
		 "%sgovernor shallowest: none; --set applied: none\n"
		 "%sgovernor deepest: none; --set applied: none\n",
		 p, IDLESIM_VERSION, p, hash, p, p);
}

static inline void assert_config_then(const char *got, const char *want)
{
	char head[1024];
	size_t n;

	config_head(head, sizeof(head), "");
	n = strlen(head);
	if (strncmp(got, head, n)) {
		fprintf(stderr, "--- expected to start with\n%s--- got\n%s---\n", head, got);
		fail();
	}
	assert_text_equal(got + n, want);
}

#endif
