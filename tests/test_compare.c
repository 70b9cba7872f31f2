// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare.c - idlesim compare: a golden MMTests table whose every number is derived here
 * by hand, and its normalized style, the flip marks of timer worlds, the JSON layout, the
 * default metrics, byte-identical output for 1, 2 and 4 threads, and request errors. The
 * statistics themselves are tested in test_mmstat.c; here they are only used. idlesim check
 * is tests/test_compare_check.c, both commands through the binary tests/test_compare_cli.c,
 * the workloads "pp" and "ppr" tests/comparetest.h.
 */
#include "tests/comparetest.h"

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
	};

	idlesim_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
