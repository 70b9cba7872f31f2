// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare.c - idlesim compare and idlesim check: a golden MMTests table whose every
 * number is derived here by hand, the JSON layout, byte-identical output for 1, 2 and 4
 * threads, expectation files (pass, fail, the messages, bad input with positions), and the
 * exit statuses of the commands. The statistics themselves are tested in test_mmstat.c;
 * here they are only used.
 *
 * The hand-made workload "pp" is test_loop.c's ping-pong with the server's work as a
 * parameter: a client on CPU 0 works 5 us, sends a request (an IPI arriving 2 us later) to
 * the server on CPU 1, which works S us (--server-us) and answers (2 us); the client works
 * 5 us on the response and sends the next request. A request's latency runs from sending
 * it to the client starting on the response. Nothing in it is random, so every iteration
 * gives the same numbers. "ppr" is the same with the server's work drawn uniformly from
 * [S/2, 3S/2] (seeded), for the determinism tests.
 */
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

static int pp_init(void *model, const int64_t *params, int nr_cpus, struct sim_error *err)
{
	struct pp *p = model;

	(void)nr_cpus;
	(void)err;
	p->server_ns = params[0] * 1000;
	return 0;
}

static int ppr_init(void *model, const int64_t *params, int nr_cpus, struct sim_error *err)
{
	((struct pp *)model)->random = true;
	return pp_init(model, params, nr_cpus, err);
}

static int pp_start(void *model, struct loop *L, struct sim_error *err)
{
	struct loop_item it = { .cpu = 0, .arrival_ns = 0, .work_ns = 5000, .cause = WAKE_IPI,
				.kind = K_THINK };

	(void)model;
	return loop_send(L, &it, err);
}

static int pp_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
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

static int pp_cpus(const int64_t *params)
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

static const struct workload *find_test_workload(const char *name)
{
	return !strcmp(name, "pp") ? &wl_pp : !strcmp(name, "ppr") ? &wl_ppr : NULL;
}

/* ---- helpers ---- */

/* The comparison of the golden test: pp, server 10 and 30 us, shallowest against deepest on
 * skl with every state below C1 disabled, 2 iterations of 10 ms. The expectations were
 * computed with the table's exit latencies (C1: 2 us): wake-latency model worst. */
static void golden_request(struct compare_request *req)
{
	static const char *const off[] = { "C1E", "C3", "C6", "C7s", "C8", "C9", "C10" };
	unsigned int i;

	compare_request_defaults(req);
	req->wl = &wl_pp;
	workload_defaults(req->wl, req->params);
	req->vary = 0;
	req->values[0] = 10;
	req->values[1] = 30;
	req->nr_values = 2;
	req->machines[req->nr_machines++] = "skl";
	req->governors[req->nr_governors++] = "shallowest";
	req->governors[req->nr_governors++] = "deepest";
	req->metrics[req->nr_metrics++] = "throughput";
	req->metrics[req->nr_metrics++] = "latency_mean";
	req->iterations = 2;
	req->duration_ns = 10000000;
	req->threads = 1;
	for (i = 0; i < SIM_ARRAY_SIZE(off); i++)
		req->knobs.disable[req->knobs.nr_disable++] = off[i];
	req->knobs.wake_model = WAKE_MODEL_WORST;
}

static void run_ok(const struct compare_request *req, struct compare_result *res)
{
	struct sim_error err = { 0 };

	if (compare_run(req, res, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
}

/* The result written in a format and style, as a malloc'ed string. */
static char *written(const struct compare_result *res, enum compare_format fmt, enum compare_style style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(compare_write(f, res, fmt, style), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *compare_text(const struct compare_request *req, enum compare_format fmt,
			  enum compare_style style)
{
	struct compare_result res;
	char *s;

	run_ok(req, &res);
	s = written(&res, fmt, style);
	compare_result_free(&res);
	return s;
}

static void assert_text_equal(const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "--- expected\n%s--- got\n%s---\n", want, got);
		fail();
	}
}

/*
 * The configuration record that opens the golden comparison's text and check output: the
 * version, seeds 1..2, HZ 250, no limit, skl's table hash (machine_hash(), tested on known
 * vectors in test_report.c), the states golden_request() disables, and the two test
 * governors, which have no tunables. Then the rest must equal `want`.
 */
/* The config record of the golden comparison, each line after prefix. */
static void config_head(char *head, size_t len, const char *prefix)
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

static void assert_config_then(const char *got, const char *want)
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

/* ---- golden output ---- */

/*
 * Every number by hand (test_loop.c derives the same timeline for S = 10 us):
 *
 * shallowest stays in POLL, which costs no exit latency: a cycle is 5 (client) + 2 + S
 * (server) + 2 us, a request's latency 2 + S + 2 = S + 4 us. The client sends the first
 * request at 5 us and finishes the k-th response at 5 + k (S + 9) us, so 10 ms hold
 * floor(9995 / (S + 9)) requests: S = 10: 526, S = 30: 256 (39 * 256 = 9984).
 *
 * deepest, with every state below C1 disabled, takes C1 (exit latency 2 us) on both CPUs at
 * every wakeup: the cycle grows by 2 + 2 us to S + 13 and so does the latency, to S + 8 us:
 * S = 10: floor(9995 / 23) = 434 requests (23 * 434 = 9982), S = 30: floor(9995 / 43) = 232
 * (43 * 232 = 9976).
 *
 * Throughput = requests / 0.01 s: 52600 and 43400 req/s for S = 10, 25600 and 23200 for
 * S = 30. Latency: 14 and 18 us, 34 and 38 us. No randomness: both iterations agree, so
 * Min = mean = Max, Stddev = CoeffVar = 0, and the t-test sees two different means without
 * variance: p = 0, significant (asterisks).
 *
 * Percentages (positive = better): throughput, higher is better, pdiff = cand * 100 / base
 * - 100: 43400 / 526 - 100 = -17.4905 -> -17.49; 23200 / 256 - 100 = -9.375 exactly, which
 * printf rounds to even: -9.38. Latency, lower is better, pndiff = 100 - cand * 100 / base:
 * 100 - 1800 / 14 = -28.5714 -> -28.57; 100 - 3800 / 34 = -11.7647 -> -11.76. Stddev and
 * CoeffVar are 0 against 0: 0.00.
 *
 * Gmean of the ratios (> 1 better): 43400/52600 * 23200/25600 * 14/18 * 34/38 = 0.520358,
 * its 4th root 0.8493 -> 0.85.
 *
 * Layout: the stat column is 9 wide plus a space, the operation column as wide as the
 * longest name, "latency_mean-10" (15); then per governor "%12.2f (%7.2f%%)", asterisks
 * for the significant mean row; the header is 9 + 1 + 15 blanks, then the names
 * right-aligned over 23 columns. The Gmean block has its own header (operation "all", 3
 * wide) and right-aligns "%12.2f" under each name (11 blanks before it).
 */
static const char golden[] =
	"\n"
	"pp on skl: server-us=10,30; 2 iterations of 0.01 s, seeds 1..2, hz 250\n"
	"units: throughput req/s, latency_mean us\n"
	"\n"
	"                                      shallowest                deepest\n"
	"Min       throughput-10      52600.00 (   0.00%)    43400.00 ( -17.49%)\n"
	"Min       throughput-30      25600.00 (   0.00%)    23200.00 (  -9.38%)\n"
	"Hmean     throughput-10      52600.00 (   0.00%)    43400.00 * -17.49%*\n"
	"Hmean     throughput-30      25600.00 (   0.00%)    23200.00 *  -9.38%*\n"
	"Stddev    throughput-10          0.00 (   0.00%)        0.00 (   0.00%)\n"
	"Stddev    throughput-30          0.00 (   0.00%)        0.00 (   0.00%)\n"
	"CoeffVar  throughput-10          0.00 (   0.00%)        0.00 (   0.00%)\n"
	"CoeffVar  throughput-30          0.00 (   0.00%)        0.00 (   0.00%)\n"
	"Max       throughput-10      52600.00 (   0.00%)    43400.00 ( -17.49%)\n"
	"Max       throughput-30      25600.00 (   0.00%)    23200.00 (  -9.38%)\n"
	"\n"
	"Min       latency_mean-10       14.00 (   0.00%)       18.00 ( -28.57%)\n"
	"Min       latency_mean-30       34.00 (   0.00%)       38.00 ( -11.76%)\n"
	"Amean     latency_mean-10       14.00 (   0.00%)       18.00 * -28.57%*\n"
	"Amean     latency_mean-30       34.00 (   0.00%)       38.00 * -11.76%*\n"
	"Stddev    latency_mean-10        0.00 (   0.00%)        0.00 (   0.00%)\n"
	"Stddev    latency_mean-30        0.00 (   0.00%)        0.00 (   0.00%)\n"
	"CoeffVar  latency_mean-10        0.00 (   0.00%)        0.00 (   0.00%)\n"
	"CoeffVar  latency_mean-30        0.00 (   0.00%)        0.00 (   0.00%)\n"
	"Max       latency_mean-10       14.00 (   0.00%)       18.00 ( -28.57%)\n"
	"Max       latency_mean-30       34.00 (   0.00%)       38.00 ( -11.76%)\n"
	"\n"
	"Gmean of the ratios of means over 4 cells (> 1.00: better than shallowest; residency "
	"not counted)\n"
	"                          shallowest                deepest\n"
	"Gmean     all                   1.00                   0.85\n";

/*
 * The flip flag, on a result built by hand: one machine, two timer worlds, governor 1
 * against the baseline in three metrics. By the rule (a verdict is +1 significantly
 * better, -1 significantly worse, 0 not significant; a flip is a verdict not the same in
 * both worlds):
 *   A: +5 % significant, then +4 % significant: +1, +1, no flip;
 *   B: -3 % not significant, then -6 % significant: 0, -1, a flip (significance);
 *   C: +2 % significant, then -1 % significant: +1, -1, a flip (sign);
 * so 2 flips, B and C marked in both worlds, A in neither, the baseline never.
 */
static void test_flips_by_hand(void **state)
{
	static const double pct[2][3] = { { 5, -3, 2 }, { 4, -6, -1 } };
	static const bool sig[2][3] = { { true, false, true }, { true, true, true } };
	struct compare_result res;
	struct compare_cell cells[6];
	struct compare_gov gov[6][2];
	int w, k;

	(void)state;
	memset(&res, 0, sizeof(res));
	memset(cells, 0, sizeof(cells));
	memset(gov, 0, sizeof(gov));
	res.nr_worlds = 2;
	res.nr_governors = 2;
	res.nr_machines = 1;
	res.cells = cells;
	res.nr_cells = 6;
	for (w = 0; w < 2; w++)
		for (k = 0; k < 3; k++) {
			struct compare_cell *c = &cells[w * 3 + k];

			c->world = w;
			c->metric = k;
			c->gov = gov[w * 3 + k];
			c->gov[1].pct = pct[w][k];
			c->gov[1].significant = sig[w][k];
		}
	compare_mark_flips(&res);
	assert_int_equal(res.nr_flips, 2);
	for (w = 0; w < 2; w++) {
		assert_false(cells[w * 3 + 0].gov[1].flips);
		assert_true(cells[w * 3 + 1].gov[1].flips);
		assert_true(cells[w * 3 + 2].gov[1].flips);
		for (k = 0; k < 3; k++)
			assert_false(cells[w * 3 + k].gov[0].flips);
	}
	/* the cell of world 1 that matches cell 2 of world 0 */
	assert_ptr_equal(compare_world_cell(&res, 2, 1), &cells[5]);
}

/*
 * --housekeeping with a list runs each cell in each timer world: every cell of world W is
 * the cell of a comparison run with the preset W alone (same seeds, same parameters), so
 * the list only adds the flip marks. tbench on skl, 2 iterations of 20 ms.
 */
static void test_worlds_are_single_runs(void **state)
{
	static const char *const worlds[] = { "nohz-idle", "hz-tick-250" };
	struct compare_request req, one;
	struct compare_result all, single;
	struct sim_error err = { 0 };
	int w, i, g, it;

	(void)state;
	compare_request_defaults(&req);
	req.wl = workload_find("tbench");
	assert_non_null(req.wl);
	workload_defaults(req.wl, req.params);
	req.machines[req.nr_machines++] = "skl";
	req.governors[req.nr_governors++] = "menu@6.12";
	req.governors[req.nr_governors++] = "teo@6.12";
	req.metrics[req.nr_metrics++] = "throughput";
	req.metrics[req.nr_metrics++] = "energy_j";
	req.iterations = 2;
	req.duration_ns = 20000000;
	req.threads = 1;
	one = req;
	for (w = 0; w < 2; w++)
		snprintf(req.worlds[w], sizeof(req.worlds[w]), "%s", worlds[w]);
	req.nr_worlds = 2;
	run_ok(&req, &all);
	assert_int_equal(all.nr_cells, 4);
	for (w = 0; w < 2; w++) {
		memcpy(one.params, req.params, sizeof(one.params));
		assert_int_equal(workload_preset(one.wl, worlds[w], one.params, &err), 0);
		run_ok(&one, &single);
		assert_int_equal(single.nr_cells, 2);
		for (i = 0; i < 2; i++) {
			const struct compare_cell *a = compare_world_cell(&all, i, w);

			assert_int_equal(a->world, w);
			assert_string_equal(a->name, single.cells[i].name);
			for (g = 0; g < 2; g++)
				for (it = 0; it < 2; it++)
					assert_true(a->gov[g].samples[it] ==
						    single.cells[i].gov[g].samples[it]);
		}
		compare_result_free(&single);
	}
	compare_result_free(&all);
}

static void test_golden_text(void **state)
{
	struct compare_request req;
	char *s;

	(void)state;
	golden_request(&req);
	s = compare_text(&req, COMPARE_TEXT, COMPARE_STYLE_MMTESTS);
	assert_config_then(s, golden);
	free(s);
}

/*
 * The same comparison in the normalized style: mean / baseline mean, "pct imp" (the same
 * percentages; for the lower-is-better baseline -0.00), CV 0. 43400 / 52600 = 0.825 ->
 * 0.83; 23200 / 25600 = 0.90625 -> 0.91; 18 / 14 = 1.29; 38 / 34 = 1.12. Layout: the case
 * column as wide as its longest entry ("10-server-us"), then per governor 5 blanks and a
 * column as wide as "NAME[pct imp](CV)" (at least the 20 of a cell), right-aligned.
 */
static const char golden_normalized[] =
	"\n"
	"pp on skl: server-us=10,30; 2 iterations of 0.01 s, seeds 1..2, hz 250\n"
	"\n"
	"==================================================================\n"
	"Test          : pp on skl, throughput\n"
	"Units         : Normalized throughput (req/s)\n"
	"Interpretation: Higher is better\n"
	"Statistic     : HMean\n"
	"==================================================================\n"
	"Case:            shallowest[pct imp](CV)     deepest[pct imp](CV)\n"
	"10-server-us        1.00 [  0.00]( 0.00)     0.83 [-17.49]( 0.00)\n"
	"30-server-us        1.00 [  0.00]( 0.00)     0.91 [ -9.38]( 0.00)\n"
	"\n"
	"==================================================================\n"
	"Test          : pp on skl, latency_mean\n"
	"Units         : Normalized latency_mean (us)\n"
	"Interpretation: Lower is better\n"
	"Statistic     : AMean\n"
	"==================================================================\n"
	"Case:            shallowest[pct imp](CV)     deepest[pct imp](CV)\n"
	"10-server-us        1.00 [ -0.00]( 0.00)     1.29 [-28.57]( 0.00)\n"
	"30-server-us        1.00 [ -0.00]( 0.00)     1.12 [-11.76]( 0.00)\n";

static void test_golden_normalized(void **state)
{
	struct compare_request req;
	char *s;

	(void)state;
	golden_request(&req);
	s = compare_text(&req, COMPARE_TEXT, COMPARE_STYLE_NORMALIZED);
	assert_config_then(s, golden_normalized);
	free(s);
}

/* The JSON keeps the layout: keys in order, baseline first, pct 0, p_value null. */
static void test_json_layout(void **state)
{
	static const char *const cell_keys[] = { "workload", "metric", "param", "value",
						 "machine", "higher_is_better", "governors" };
	static const char *const gov_keys[] = { "governor", "mean", "samples", "mean_kind",
						"stddev", "pct", "p_value", "significant" };
	struct compare_request req;
	json_error_t je;
	json_t *root, *cell, *g0, *g1;
	char *s;
	unsigned int i;

	(void)state;
	golden_request(&req);
	s = compare_text(&req, COMPARE_JSON, COMPARE_STYLE_MMTESTS);
	root = json_loads(s, 0, &je);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "schema")), COMPARE_JSON_SCHEMA);
	assert_string_equal(json_string_value(json_object_get(root, "baseline")), "shallowest");
	assert_int_equal(json_array_size(json_object_get(root, "cells")), 4);
	/* The order of the top-level keys, as printed. */
	assert_true(strstr(s, "\"schema\"") < strstr(s, "\"baseline\""));
	assert_true(strstr(s, "\"baseline\"") < strstr(s, "\"cells\""));

	cell = json_array_get(json_object_get(root, "cells"), 0);
	for (i = 0; i < SIM_ARRAY_SIZE(cell_keys); i++)
		assert_non_null(json_object_get(cell, cell_keys[i]));
	assert_int_equal(json_object_size(cell), SIM_ARRAY_SIZE(cell_keys));
	assert_string_equal(json_string_value(json_object_get(cell, "workload")), "pp");
	assert_string_equal(json_string_value(json_object_get(cell, "param")), "server-us");
	assert_int_equal(json_integer_value(json_object_get(cell, "value")), 10);
	assert_string_equal(json_string_value(json_object_get(cell, "machine")), "skl");
	assert_string_equal(json_string_value(json_object_get(cell, "metric")), "throughput");
	assert_true(json_is_true(json_object_get(cell, "higher_is_better")));

	g0 = json_array_get(json_object_get(cell, "governors"), 0);
	g1 = json_array_get(json_object_get(cell, "governors"), 1);
	for (i = 0; i < SIM_ARRAY_SIZE(gov_keys); i++)
		assert_non_null(json_object_get(g0, gov_keys[i]));
	assert_int_equal(json_object_size(g0), SIM_ARRAY_SIZE(gov_keys));
	assert_string_equal(json_string_value(json_object_get(g0, "governor")), "shallowest");
	assert_string_equal(json_string_value(json_object_get(g0, "mean_kind")), "hmean");
	assert_int_equal(json_array_size(json_object_get(g0, "samples")), 2);
	assert_true(json_number_value(json_array_get(json_object_get(g0, "samples"), 1)) ==
		    52600.0);
	assert_true(json_number_value(json_object_get(g0, "mean")) == 52600.0);
	assert_true(json_number_value(json_object_get(g0, "pct")) == 0.0);
	assert_true(json_is_null(json_object_get(g0, "p_value")));
	assert_true(json_is_false(json_object_get(g0, "significant")));
	assert_string_equal(json_string_value(json_object_get(g1, "governor")), "deepest");
	assert_true(json_number_value(json_object_get(g1, "mean")) == 43400.0);
	assert_true(fabs(json_number_value(json_object_get(g1, "pct")) - (43400.0 / 526 - 100)) <
		    1e-9);
	assert_true(json_number_value(json_object_get(g1, "p_value")) == 0.0);
	assert_true(json_is_true(json_object_get(g1, "significant")));

	cell = json_array_get(json_object_get(root, "cells"), 2);
	assert_string_equal(json_string_value(json_object_get(cell, "metric")), "latency_mean");
	assert_true(json_is_false(json_object_get(cell, "higher_is_better")));
	g0 = json_array_get(json_object_get(cell, "governors"), 0);
	assert_string_equal(json_string_value(json_object_get(g0, "mean_kind")), "amean");
	json_decref(root);
	free(s);
}

/* Without --metric every metric that applies: throughput only for workloads that serve
 * requests, residency for each enabled state, which stays out of the Gmean. */
static void test_default_metrics(void **state)
{
	struct compare_request req;
	struct compare_result res;
	int i, res_cells = 0;

	(void)state;
	golden_request(&req);
	req.nr_metrics = 0;
	req.nr_values = 1;
	req.duration_ns = 2000000;
	run_ok(&req, &res);
	/* 9 fixed metrics, POLL and C1 enabled: 11 cells of one value. */
	assert_int_equal(res.nr_cells, 11);
	for (i = 0; i < res.nr_cells; i++) {
		const struct compare_cell *c = &res.cells[i];

		if (c->metric >= COMPARE_M_RESIDENCY) {
			res_cells++;
			assert_false(c->in_gmean);
			assert_int_equal(c->gov[0].sum.kind, MM_AMEAN);
			/* C1 is the deepest enabled state: more time there is better. */
			assert_int_equal(c->higher_is_better, !strcmp(c->name, "residency_pct.C1"));
		}
	}
	assert_int_equal(res_cells, 2);
	assert_int_equal(res.gmean_cells, 9);
	assert_string_equal(res.cells[9].name, "residency_pct.POLL");
	compare_result_free(&res);
}

/* ---- determinism across thread counts ---- */

static void thread_counts_agree(struct compare_request *req)
{
	char *ref[2] = { NULL, NULL };
	static const int threads[] = { 1, 2, 4 };
	unsigned int t;
	int f;

	for (t = 0; t < SIM_ARRAY_SIZE(threads); t++) {
		for (f = 0; f < 2; f++) {
			char *s;

			req->threads = threads[t];
			s = compare_text(req, f ? COMPARE_JSON : COMPARE_TEXT, COMPARE_STYLE_MMTESTS);
			if (!ref[f]) {
				ref[f] = s;
				continue;
			}
			assert_text_equal(s, ref[f]);
			free(s);
		}
	}
	free(ref[0]);
	free(ref[1]);
}

static void test_threads_identical(void **state)
{
	struct compare_request req;
	struct compare_result res;

	(void)state;
	compare_request_defaults(&req);
	req.wl = &wl_ppr;
	workload_defaults(req.wl, req.params);
	req.vary = 0;
	req.values[0] = 10;
	req.values[1] = 40;
	req.nr_values = 2;
	req.machines[req.nr_machines++] = "skl";
	req.machines[req.nr_machines++] = "hsx";
	req.governors[req.nr_governors++] = "menu";
	req.governors[req.nr_governors++] = "teo";
	req.governors[req.nr_governors++] = "deepest";
	req.iterations = 3;
	req.duration_ns = 3000000;
	thread_counts_agree(&req);

	/* The samples differ between seeds (so the agreement above means something) ... */
	req.threads = 3;
	run_ok(&req, &res);
	assert_string_equal(res.cells[2].name, "latency_mean");
	assert_true(res.cells[2].gov[0].samples[0] != res.cells[2].gov[0].samples[1]);
	compare_result_free(&res);

	/* ... and a registry workload agrees as well. */
	req.wl = workload_find("tbench");
	if (req.wl) {
		workload_defaults(req.wl, req.params);
		req.vary = workload_param_index(req.wl, "clients");
		req.values[0] = 1;
		req.values[1] = 2;
		req.nr_machines = 1;
		req.iterations = 2;
		req.duration_ns = 2000000;
		thread_counts_agree(&req);
	}
}

/* ---- request errors ---- */

static void test_request_errors(void **state)
{
	struct compare_request req;
	struct compare_result res;
	struct sim_error err;

	(void)state;
	golden_request(&req);
	req.metrics[0] = "throughput_mean";
	memset(&err, 0, sizeof(err));
	assert_int_equal(compare_run(&req, &res, &err), -1);
	assert_non_null(strstr(err.text, "'throughput_mean': unknown"));

	golden_request(&req);
	req.metrics[0] = "residency_pct.C42";
	memset(&err, 0, sizeof(err));
	assert_int_equal(compare_run(&req, &res, &err), -1);
	assert_non_null(strstr(err.text, "no compared machine has idle state 'C42'"));

	golden_request(&req);
	req.governors[1] = "nosuch";
	memset(&err, 0, sizeof(err));
	assert_int_equal(compare_run(&req, &res, &err), -1);
	assert_non_null(strstr(err.text, "unknown governor 'nosuch'"));

	golden_request(&req);
	req.values[1] = 5000; /* server-us is at most 1000 */
	memset(&err, 0, sizeof(err));
	assert_int_equal(compare_run(&req, &res, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);

	golden_request(&req);
	req.knobs.nr_sets = 1;
	snprintf(req.knobs.sets[0].family, sizeof(req.knobs.sets[0].family), "menu");
	snprintf(req.knobs.sets[0].name, sizeof(req.knobs.sets[0].name), "nosuch");
	memset(&err, 0, sizeof(err));
	assert_int_equal(compare_run(&req, &res, &err), -1);
	assert_non_null(strstr(err.text, "--set menu.nosuch"));
}

/* ---- check ---- */

static const char expect_head[] =
	"{\n"
	"  \"schema\": \"idlesim-expect/1\",\n"
	"  \"comparisons\": [\n"
	"    {\n"
	"      \"name\": \"pp\",\n"
	"      \"workload\": \"pp\",\n"
	"      \"params\": {\"server-us\": [10, 30]},\n"
	"      \"machines\": \"skl\",\n"
	"      \"governors\": [\"shallowest\", \"deepest\"],\n"
	"      \"iterations\": 2,\n"
	"      \"duration_s\": 0.01,\n"
	"      \"disable\": [\"C1E\", \"C3\", \"C6\", \"C7s\", \"C8\", \"C9\", \"C10\"],\n"
	"      \"expect\": [\n";

static const char expect_tail[] = "\n      ]\n    }\n  ]\n}\n";

/* Parse and run an expectation file made of head + expect + tail, reporting in format;
 * returns check_run(). */
static int run_check_as(const char *expect, enum check_format format, char **out,
			struct sim_error *err)
{
	char text[4096];
	/* worst: the golden comparison's exit latencies (see golden_request) */
	struct check_opts o = { .threads = 2, .wake_set = true, .wake_model = WAKE_MODEL_WORST,
				.format = format };
	struct check_file *cf;
	size_t len = 0;
	int rc;

	snprintf(text, sizeof(text), "%s%s%s", expect_head, expect, expect_tail);
	memset(err, 0, sizeof(*err));
	*out = NULL;
	cf = check_parse(text, "expect.json", find_test_workload, err);
	if (!cf)
		return -2;
	o.out = open_memstream(out, &len);
	assert_non_null(o.out);
	rc = check_run(cf, &o, err);
	fclose(o.out);
	check_free(cf);
	return rc;
}

static int run_check(const char *expect, char **out, struct sim_error *err)
{
	return run_check_as(expect, CHECK_TEXT, out, err);
}

/* The bounds hold: deepest loses 17.49 % and 9.38 % of throughput (see the golden test). */
static void test_check_pass(void **state)
{
	struct sim_error err;
	char *out;

	(void)state;
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"min_pct\": -20},\n"
				   "{\"metric\": \"latency_mean\", \"governor\": \"shallowest\", "
				   "\"max\": 34, \"value\": 30}",
				   &out, &err),
			 0);
	assert_config_then(out,
			  "ok   [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest >= min_pct -20.00%\n"
			  "ok   [pp] pp server-us=30 on skl: throughput of deepest: -9.38% "
			  "against shallowest >= min_pct -20.00%\n"
			  "ok   [pp] pp server-us=30 on skl: latency_mean of shallowest: "
			  "mean 34 us <= max 34\n"
			  "check: 0 of 3 checks failed\n");
	free(out);
}

/* A bound that does not hold fails, and its message names cell, metric, value and bound. */
static void test_check_fail(void **state)
{
	struct sim_error err;
	char *out;

	(void)state;
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"min_pct\": -10, \"no_significant_regression\": true},\n"
				   "{\"metric\": \"latency_mean\", \"governor\": \"deepest\", "
				   "\"machine\": \"skl\", \"min\": 15, \"max\": 37.5}",
				   &out, &err),
			 4);
	assert_config_then(out,
			  "FAIL [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest < min_pct -10.00%\n"
			  "FAIL [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest, p = 0: significant regression "
			  "(no_significant_regression)\n"
			  "ok   [pp] pp server-us=30 on skl: throughput of deepest: -9.38% "
			  "against shallowest >= min_pct -10.00%\n"
			  "FAIL [pp] pp server-us=30 on skl: throughput of deepest: -9.38% "
			  "against shallowest, p = 0: significant regression "
			  "(no_significant_regression)\n"
			  "ok   [pp] pp server-us=10 on skl: latency_mean of deepest: mean 18 us "
			  ">= min 15\n"
			  "ok   [pp] pp server-us=10 on skl: latency_mean of deepest: mean 18 us "
			  "<= max 37.5\n"
			  "ok   [pp] pp server-us=30 on skl: latency_mean of deepest: mean 38 us "
			  ">= min 15\n"
			  "FAIL [pp] pp server-us=30 on skl: latency_mean of deepest: mean 38 us "
			  "> max 37.5\n"
			  "check: 4 of 8 checks failed\n");
	free(out);
}

/*
 * One failing and two passing bounds, from the golden comparison's numbers:
 *  1. throughput of deepest at server-us=10: -17.49 % >= min_pct -20: ok
 *  2. latency_mean of shallowest at server-us=30: mean 34 us <= max 34: ok
 *  3. latency_mean of deepest at server-us=30: mean 38 us > max 37.5: FAIL
 */
static const char expect_one_fail[] =
	"{\"metric\": \"throughput\", \"governor\": \"deepest\", \"value\": 10, "
	"\"min_pct\": -20},\n"
	"{\"metric\": \"latency_mean\", \"governor\": \"shallowest\", \"value\": 30, \"max\": 34},\n"
	"{\"metric\": \"latency_mean\", \"governor\": \"deepest\", \"value\": 30, \"max\": 37.5}";

/*
 * A minimal XML well-formedness check: every element closed in order, attributes quoted,
 * no '<' inside text or attributes, every '&' an entity. Returns the elements opened.
 */
static int xml_well_formed(const char *s)
{
	const char *stack[64];
	size_t len[64];
	int depth = 0, elements = 0;

	if (!strncmp(s, "<?xml ", 6)) {
		s = strstr(s, "?>");
		assert_non_null(s);
		s += 2;
	}
	for (; *s; s++) {
		if (*s == '&') {
			assert_true(!strncmp(s, "&amp;", 5) || !strncmp(s, "&lt;", 4) ||
				    !strncmp(s, "&gt;", 4) || !strncmp(s, "&quot;", 6) ||
				    !strncmp(s, "&#39;", 5));
			continue;
		}
		if (*s != '<')
			continue;
		if (s[1] == '/') { /* </name> closes the innermost element */
			assert_true(depth > 0);
			depth--;
			assert_memory_equal(s + 2, stack[depth], len[depth]);
			assert_int_equal(s[2 + len[depth]], '>');
			s += 2 + len[depth];
			continue;
		}
		assert_true(depth < 64);
		stack[depth] = s + 1;
		len[depth] = strcspn(s + 1, " />");
		assert_true(len[depth] > 0);
		elements++;
		for (s += 1 + len[depth]; *s != '>' && *s != '/'; s++) {
			if (*s == ' ' || *s == '\n')
				continue;
			/* name="value" */
			s += strcspn(s, "=");
			assert_int_equal(s[0], '=');
			assert_int_equal(s[1], '"');
			for (s += 2; *s != '"'; s++)
				assert_true(*s && *s != '<');
		}
		if (*s == '/') {
			assert_int_equal(s[1], '>');
			s++;
		} else {
			depth++;
		}
	}
	assert_int_equal(depth, 0);
	return elements;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* JUnit: well-formed, 3 tests and 1 failure, the failure's message, the config record. */
static void test_check_junit(void **state)
{
	struct sim_error err;
	char *out;

	(void)state;
	assert_int_equal(run_check_as(expect_one_fail, CHECK_JUNIT, &out, &err), 1);
	/* testsuites, testsuite, properties, 4 properties (config, machine, 2 governors),
	 * 3 testcases, 1 failure */
	assert_int_equal(xml_well_formed(out), 11);
	assert_non_null(strstr(out, "<testsuites name=\"idlesim check\" tests=\"3\" "
				    "failures=\"1\">\n"));
	assert_non_null(strstr(out, "<testsuite name=\"pp\" tests=\"3\" failures=\"1\" "
				    "errors=\"0\" skipped=\"0\">\n"));
	assert_int_equal(count(out, "<testcase classname=\"pp\" "), 3);
	assert_int_equal(count(out, "<failure "), 1);
	assert_non_null(strstr(out, "<testcase classname=\"pp\" name=\"pp server-us=30 on skl: "
				    "latency_mean of deepest: max\">\n"
				    "      <failure message=\"mean 38 us &gt; max 37.5\" "
				    "type=\"max\">"));
	assert_non_null(strstr(out, "<property name=\"machine skl\" value=\"table "));
	assert_non_null(strstr(out, "<property name=\"governor deepest\" value=\"none; "
				    "--set applied: none\"/>\n"));
	free(out);
}

/* TAP version 13, line by line; the failure's fields as YAML (a max bound compares no
 * governors: pct, p_value and significant are null). */
static void test_check_tap(void **state)
{
	struct sim_error err;
	char *out, head[1024], want[4096];

	(void)state;
	assert_int_equal(run_check_as(expect_one_fail, CHECK_TAP, &out, &err), 1);
	config_head(head, sizeof(head), "# ");
	snprintf(want, sizeof(want),
		 "TAP version 13\n"
		 "1..3\n"
		 "%s"
		 "ok 1 - [pp] pp server-us=10 on skl: throughput of deepest: -17.49%% against "
		 "shallowest >= min_pct -20.00%%\n"
		 "ok 2 - [pp] pp server-us=30 on skl: latency_mean of shallowest: mean 34 us "
		 "<= max 34\n"
		 "not ok 3 - [pp] pp server-us=30 on skl: latency_mean of deepest: mean 38 us "
		 "> max 37.5\n"
		 "  ---\n"
		 "  message: \"mean 38 us > max 37.5\"\n"
		 "  cell: \"pp server-us=30 on skl\"\n"
		 "  workload: \"pp\"\n"
		 "  param: \"server-us\"\n"
		 "  param_value: 30\n"
		 "  machine: \"skl\"\n"
		 "  metric: \"latency_mean\"\n"
		 "  unit: \"us\"\n"
		 "  governor: \"deepest\"\n"
		 "  bound: \"max\"\n"
		 "  limit: 37.5\n"
		 "  mean: 38.0\n"
		 "  pct: null\n"
		 "  p_value: null\n"
		 "  significant: null\n"
		 "  ...\n",
		 head);
	assert_text_equal(out, want);
	free(out);
}

/* JSON: the schema, the counts, each check's numbers, the config record. */
static void test_check_json(void **state)
{
	struct sim_error err;
	json_error_t je;
	json_t *doc, *k;
	char *out;

	(void)state;
	assert_int_equal(run_check_as(expect_one_fail, CHECK_JSON, &out, &err), 1);
	doc = json_loads(out, 0, &je);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "idlesim-check/1");
	assert_int_equal(json_integer_value(json_object_get(doc, "checks")), 3);
	assert_int_equal(json_integer_value(json_object_get(doc, "failed")), 1);
	k = json_object_get(json_array_get(json_object_get(doc, "comparisons"), 0), "config");
	assert_int_equal(json_integer_value(json_object_get(k, "hz")), 250);
	k = json_array_get(json_object_get(json_array_get(json_object_get(doc, "comparisons"), 0),
					   "checks"),
			   2);
	assert_false(json_is_true(json_object_get(k, "ok")));
	assert_string_equal(json_string_value(json_object_get(k, "bound")), "max");
	assert_true(json_real_value(json_object_get(k, "limit")) == 37.5);
	assert_true(json_real_value(json_object_get(k, "mean")) == 38.0);
	json_decref(doc);
	free(out);
}

/*
 * "significant": true makes min_pct and max_pct fail only when the bound is crossed AND
 * the t-test calls the difference significant. By hand, min_pct -1 and max_pct 5:
 *   pct -3, not significant: crossed, not significant: holds
 *   pct -3, significant: fails;  pct -0.5, significant: not crossed: holds
 *   pct 7 against max_pct 5: holds unless significant
 * Without "significant", -3 fails whatever the t-test says.
 */
static void test_check_significant_bound(void **state)
{
	struct check_expect x = { .significant = true };
	struct compare_gov g = { 0 };
	struct sim_error err;
	char *out;

	(void)state;
	x.bound[B_MIN_PCT] = -1;
	x.bound[B_MAX_PCT] = 5;
	g.pct = -3;
	assert_true(check_bound_holds(&x, B_MIN_PCT, &g));
	g.significant = true;
	assert_false(check_bound_holds(&x, B_MIN_PCT, &g));
	g.pct = -0.5;
	assert_true(check_bound_holds(&x, B_MIN_PCT, &g));
	g.pct = 7;
	assert_false(check_bound_holds(&x, B_MAX_PCT, &g));
	g.significant = false;
	assert_true(check_bound_holds(&x, B_MAX_PCT, &g));
	x.significant = false;
	g.pct = -3;
	assert_false(check_bound_holds(&x, B_MIN_PCT, &g));

	/* In a run: deepest's -17.49 % at server-us=10 is worse than -10 and significant
	 * (p = 0, see test_check_fail), so it fails, and the line says why. */
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"value\": 10, \"min_pct\": -10, \"significant\": true}",
				   &out, &err),
			 1);
	assert_config_then(out,
			  "FAIL [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest < min_pct -10.00% and significant\n"
			  "check: 1 of 1 checks failed\n");
	free(out);
	/* "significant" qualifies a percentage bound: alone, or with max, it is an error */
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"max\": 1, \"significant\": true}",
				   &out, &err),
			 -2);
	assert_non_null(strstr(err.text, "qualifies min_pct or max_pct"));
}

/* check's progress bar names the comparison: 1 of 4 runs is 40 / 4 = 10 '#' of 40; a long
 * name is cut at 30 characters so that the bar still fits. */
static void test_check_progress_named(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	compare_progress_bar_named(f, "tbench", 1, 4);
	compare_progress_bar_named(f, "a-name-of-forty-characters-0123456789abc", 4, 4);
	fclose(f);
	assert_string_equal(text, "\rtbench [##########..............................] 1/4 runs"
				  "\ra-name-of-forty-characters-012 "
				  "[########################################] 4/4 runs\n");
	free(text);
}

/* Bad expectations are input errors at the line and column of the offending field. */
static void test_check_bad_input(void **state)
{
	static const struct {
		const char *expect;
		int line, column;
		const char *msg;
	} cases[] = {
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min_pc\": 1}", 14, 59,
		  "unknown field 'min_pc'" },
		{ "{\"metric\": \"tput\", \"governor\": \"deepest\", \"min\": 1}", 14, 12,
		  "unknown metric 'tput'" },
		{ "{\"metric\": \"throughput\", \"governor\": \"teo\", \"min\": 1}", 14, 38,
		  "not one of this comparison's governors" },
		{ "{\"metric\": \"throughput\", \"governor\": \"shallowest\", \"min_pct\": 1}", 14,
		  1, "is the baseline" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\"}", 14, 1,
		  "states no bound" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min\": 1, "
		  "\"value\": 20}",
		  14, 68, "no cell of this comparison has the parameter value 20" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min\": 2, "
		  "\"max\": 1}",
		  14, 1, "a lower bound is above its upper bound" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min\": \"1\"}", 14, 56,
		  "must be a number" },
	};
	struct sim_error err;
	unsigned int i;
	char *out;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(cases); i++) {
		assert_int_equal(run_check(cases[i].expect, &out, &err), -2);
		if (!strstr(err.text, cases[i].msg) || err.line != cases[i].line ||
		    err.column != cases[i].column) {
			fprintf(stderr, "case %u: ", i);
			sim_error_print(stderr, &err);
			fail();
		}
		assert_int_equal(err.code, SIM_ERR_INPUT);
		assert_string_equal(err.source, "expect.json");
	}

	/* A residency metric of a state the machine lacks is found when the cells exist. */
	assert_int_equal(run_check("{\"metric\": \"residency_pct.C42\", \"governor\": \"deepest\", "
				   "\"max\": 1}",
				   &out, &err),
			 -1);
	assert_non_null(strstr(err.text, "no compared machine has idle state 'C42'"));
	free(out);
}

/* ---- the commands ---- */

static void assert_file_contains(const char *name, const char *what)
{
	char *s = slurp_tmp(name);

	if (!strstr(s, what)) {
		fprintf(stderr, "%s lacks '%s':\n%s", name, what, s);
		fail();
	}
	free(s);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("cmp");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

static const char tbench_expect[] =
	"{\"schema\": \"idlesim-expect/1\", \"comparisons\": [{\n"
	"  \"workload\": \"tbench\", \"params\": {\"clients\": [1, 2]},\n"
	"  \"machines\": [\"skl\"], \"governors\": [\"shallowest\", \"deepest\"],\n"
	"  \"iterations\": 2, \"duration_s\": 0.005,\n"
	"  \"expect\": [{\"metric\": \"throughput\", \"governor\": \"deepest\", \"%s\": %s}]\n"
	"}]}\n";

static void test_commands(void **state)
{
	char text[1024], args[512];

	(void)state;
	/* Both are built with the tests: their absence is a failure, not a reason to skip. */
	assert_int_equal(access(BIN, X_OK), 0);
	assert_non_null(workload_find("tbench"));
	/* compare: the table on stdout, nothing on stderr when it is not a terminal. */
	assert_int_equal(run_idlesim("compare --workload tbench --clients 1,2 -g shallowest,deepest "
				 "-n 2 --duration-s 0.005 --metric throughput"),
			 0);
	assert_file_contains("out", "Hmean     throughput-1");
	assert_file_contains("out", "Gmean     all");
	{
		char *e = slurp_tmp("err");

		assert_string_equal(e, "");
		free(e);
	}
	/* JSON to a file, the same for 1 and 2 threads. */
	snprintf(args, sizeof(args),
		 "compare --workload tbench --clients 1,2 -g menu,teo -n 2 --duration-s 0.005 "
		 "-f json -o %s/j1.json -j 1",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args),
		 "compare --workload tbench --clients 1,2 -g menu,teo -n 2 --duration-s 0.005 "
		 "-f json -o %s/j2.json -j 2",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "cmp -s %s/j1.json %s/j2.json", tmpdir, tmpdir);
	assert_int_equal(system(args), 0);

	/* Usage errors: exit status 2 with a message. */
	assert_int_equal(run_idlesim("compare --workload tbench --clients 1,2 --server-us 1,2 "
				 "-g menu"),
			 2);
	assert_file_contains("err", "only one parameter may take a list");
	assert_int_equal(run_idlesim("compare --workload tbench -g menu --metric nosuch"), 2);
	assert_file_contains("err", "--metric 'nosuch': unknown");
	assert_int_equal(run_idlesim("compare --workload nosuch -g menu"), 2);
	assert_int_equal(run_idlesim("compare --workload tbench"), 2);
	assert_file_contains("err", "--governor is required");

	/* check: 0 when the bounds hold, 3 when one does not, 2 for bad input. */
	snprintf(text, sizeof(text), tbench_expect, "max_pct", "0");
	write_tmp("pass.json", text);
	snprintf(args, sizeof(args), "check %s/pass.json", tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	assert_file_contains("out", "ok   tbench clients=2 on skl: throughput of deepest");
	assert_file_contains("out", "check: 0 of 2 checks failed");

	snprintf(text, sizeof(text), tbench_expect, "min_pct", "0");
	write_tmp("fail.json", text);
	snprintf(args, sizeof(args), "check %s/fail.json", tmpdir);
	assert_int_equal(run_idlesim(args), CHECK_EXIT_FAILED);
	assert_file_contains("out", "FAIL tbench clients=1 on skl: throughput of deepest: -");
	assert_file_contains("out", "against shallowest < min_pct +0.00%");
	assert_file_contains("out", "check: 2 of 2 checks failed");
	/* every format exits 3 on a failed bound; -o writes the file, nothing on stdout */
	snprintf(args, sizeof(args), "check %s/fail.json -f tap -o %s/fail.tap", tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), CHECK_EXIT_FAILED);
	assert_file_contains("fail.tap", "TAP version 13\n1..2\n");
	assert_file_contains("fail.tap", "\nnot ok 2 - tbench clients=2 on skl: throughput of "
					 "deepest: -");
	{
		char *o = slurp_tmp("out");

		assert_string_equal(o, "");
		free(o);
	}
	snprintf(args, sizeof(args), "check %s/fail.json --format junit", tmpdir);
	assert_int_equal(run_idlesim(args), CHECK_EXIT_FAILED);
	assert_file_contains("out", "tests=\"2\" failures=\"2\"");
	snprintf(args, sizeof(args), "check %s/fail.json --format xml", tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	assert_file_contains("err", "check --format: 'xml' is not text, json, junit or tap");

	snprintf(text, sizeof(text), tbench_expect, "min_pct", "\"0\"");
	write_tmp("bad.json", text);
	snprintf(args, sizeof(args), "check %s/bad.json", tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	snprintf(text, sizeof(text), "%s/bad.json:5:73: comparisons[0].expect[0].min_pct must be "
				     "a number", tmpdir);
	assert_file_contains("err", text);
	assert_int_equal(run_idlesim("check /nonexistent.json"), 2);
	assert_int_equal(run_idlesim("check"), 2);

	/* The example shipped in traces/ holds on the current models: a user who runs it
	 * first sees every check pass. */
	assert_int_equal(run_idlesim("check traces/expect-example.json"), 0);
	assert_file_contains("out", "check: 0 of 10 checks failed");

	/* The example shipped in traces/ parses. */
	{
		struct sim_error err = { 0 };
		struct check_file *cf = check_load(IDLESIM_SOURCE_DIR "/traces/expect-example.json",
						   NULL, &err);

		if (!cf)
			sim_error_print(stderr, &err);
		assert_non_null(cf);
		check_free(cf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_text),
		cmocka_unit_test(test_flips_by_hand),
		cmocka_unit_test(test_worlds_are_single_runs),
		cmocka_unit_test(test_golden_normalized),
		cmocka_unit_test(test_json_layout),
		cmocka_unit_test(test_default_metrics),
		cmocka_unit_test(test_threads_identical),
		cmocka_unit_test(test_request_errors),
		cmocka_unit_test(test_check_pass),
		cmocka_unit_test(test_check_fail),
		cmocka_unit_test(test_check_bad_input),
		cmocka_unit_test(test_check_junit),
		cmocka_unit_test(test_check_tap),
		cmocka_unit_test(test_check_json),
		cmocka_unit_test(test_check_significant_bound),
		cmocka_unit_test(test_check_progress_named),
		cmocka_unit_test_setup_teardown(test_commands, setup, teardown),
	};

	idlesim_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
