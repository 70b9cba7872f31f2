// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_replay_multi.c - one read of a trace feeding several simulations
 * (replay_run_multi()) gives each what a replay of its own gives, to the last bit; and the
 * reference cache (sim/run/refcache.h) runs each pair of references once per key.
 */
#include "tests/testutil.h"
#include "tests/testbin.h"
#include "sim/base/alloc.h"
#include "sim/run/run.h"
#include "sim/study/sweep.h"
#include "sim/study/sweep_int.h"
#include "sim/workload/gen.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const govs[] = { "oracle",	 "oracle-energy", "menu@6.19", "teo@6.19",
				    "menu@4.18", "teo@5.1",	  "deepest",   "shallowest" };
#define NR_GOVS ((int)(sizeof(govs) / sizeof(govs[0])))

/* Where the records come from: a file, a string, or the generator. */
struct input {
	const char *path, *text;
	const struct gen_config *gen;
	struct trace_reader *tr;
	struct gen_stream *g;
	struct record_source src;
};

static void input_open(struct input *in)
{
	struct sim_error err = { 0 };

	if (in->gen) {
		in->g = gen_open(in->gen, &err);
		assert_non_null(in->g);
		record_source_from_gen(&in->src, in->g);
		return;
	}
	in->tr = in->text ? trace_open_string("<test>", in->text, &err) : trace_open(in->path, &err);
	if (!in->tr)
		fail_msg("%s: %s", in->path ? in->path : "<test>", err.text);
	record_source_from_trace(&in->src, in->tr);
}

static void input_close(struct input *in)
{
	if (in->g)
		gen_close(in->g);
	trace_close(in->tr);
	in->g = NULL;
	in->tr = NULL;
}

/*
 * Every governor of govs[] on machine `mach` (disabled states `mask`, limit `lat_ns`): once
 * all in one replay_run_multi(), once each in its own replay_run(); the statistics and the
 * first decisions of each must be the same.
 */
static void multi_matches_separate(struct input *in, const char *mach, uint32_t mask,
				   int64_t lat_ns)
{
	struct sim_config cfg[NR_GOVS];
	struct decision_log *multi = calloc(NR_GOVS, sizeof(*multi)), *one = calloc(1, sizeof(*one));
	struct run_stats ms[NR_GOVS], rs;
	struct sim_error err = { 0 };
	struct machine m;
	uint64_t n;
	int i;

	assert_non_null(multi);
	assert_non_null(one);
	assert_int_equal(machine_load(mach, &m, &err), 0);
	for (i = 0; i < NR_GOVS; i++) {
		memset(&cfg[i], 0, sizeof(cfg[i]));
		cfg[i].machine = &m;
		cfg[i].gov = gov_find(govs[i]);
		cfg[i].hz = 250;
		cfg[i].latency_req_ns = lat_ns;
		cfg[i].disabled = mask;
		cfg[i].explain = decision_log_add;
		cfg[i].explain_ud = &multi[i];
		cfg[i].explain_limit = -1;
	}
	input_open(in);
	if (replay_run_multi(&in->src, cfg, NR_GOVS, ms, &err))
		fail_msg("multi: %s", err.text);
	input_close(in);
	for (i = 0; i < NR_GOVS; i++) {
		cfg[i].explain_ud = one;
		one->n = 0;
		input_open(in);
		if (replay_run(&in->src, &cfg[i], &rs, &err))
			fail_msg("%s: %s", govs[i], err.text);
		input_close(in);
		assert_same_stats(&ms[i], &rs);
		assert_int_equal(multi[i].n, one->n);
		assert_memory_equal(multi[i].d, one->d, sizeof(one->d[0]) * (size_t)one->n);
		run_stats_release(&rs);
	}
	/* something happened: the governors went idle and woke */
	for (i = 0, n = 0; i < WAKE_NR_CAUSES; i++)
		n += ms[2].total.wakeups[i];
	assert_true(n >= 1);
	for (i = 0; i < NR_GOVS; i++)
		run_stats_release(&ms[i]);
	free(multi);
	free(one);
}

/* Idle-interval records, generated: 8 CPUs on skl, 48 on hsx with C1E off and a limit. */
static void test_multi_intervals(void **state)
{
	struct gen_config gc;
	struct input in = { .gen = &gc };

	(void)state;
	gen_config_defaults(&gc, GEN_MIXED);
	gc.cpus = 8;
	gc.duration_ns = 40000000;
	gc.seed = 3;
	gc.mean_ns = 300000;
	gc.period_ns = 2000000;
	gc.busy_ns = 30000;
	multi_matches_separate(&in, "skl", 0, -1);
	gc.cpus = 48;
	gc.seed = 4;
	multi_matches_separate(&in, "hsx", 1u << 2, 20000);
}

/* Event records (timers of every kind, global ones, slack, resched=0) and scenario traces. */
static void test_multi_events(void **state)
{
	static const char *const files[] = {
		"tests/fuzz/fuzz_trace/timer-kinds-events.trace",
		"tests/traces/valid/resched-events/input",
		"tests/traces/valid/events/input",
		"tests/diff/three-timers.trace",
		"traces/scenarios/periodic-timer.trace",
		"traces/scenarios/powernightmares.trace",
		"traces/demo.trace",
	};
	char path[4096];
	unsigned int k;

	(void)state;
	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		struct input in = { .path = path };

		snprintf(path, sizeof(path), "%s/%s", IDLESIM_SOURCE_DIR, files[k]);
		multi_matches_separate(&in, "skl", 0, -1);
		multi_matches_separate(&in, "hsx", 0, 50000);
	}
}

/* Global timers migrate by the derivation's rule: the same in every simulation fed. */
static void test_multi_global_timers(void **state)
{
	struct input in = {
		.text = "idlesim-trace v1\ncpus 2\nhz 250\nstart 0\nend 60000000\n"
			"timer 0 0 g 3000000 period=3000000 global=1\n"
			"timer 1 0 h 5000000 period=7000000 kind=hrtimer slack=3000000\n"
			"wake 1 2500000 irq\nbusy 1 2500000 400000\n"
			"timer 0 5000000 d 9000000 period=9000000 deferrable=1\n"
			"wake 0 20000000 ipi resched=0\n"
			"wake 1 33000000 irq\nbusy 1 33000000 900000\n"
	};

	(void)state;
	multi_matches_separate(&in, "skl", 0, -1);
}

/* The simulations share one jiffy grid: configurations of two HZ are refused, and the
 * input error of a trace is the one a single replay reports. */
static void test_multi_errors(void **state)
{
	struct sim_config cfg[2] = { { 0 } };
	struct run_stats rs[2];
	struct sim_error err = { 0 };
	struct machine m;
	struct input in = { .text = "idlesim-trace v1\ncpus 1\ntick_phase 0\n"
				    "busy 0 0 1000\nbusy 0 5000 1000\n" };

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	cfg[0].machine = cfg[1].machine = &m;
	cfg[0].gov = gov_find("menu");
	cfg[1].gov = gov_find("teo");
	cfg[0].hz = 250;
	cfg[1].hz = 1000;
	cfg[0].latency_req_ns = cfg[1].latency_req_ns = -1;
	input_open(&in);
	assert_int_equal(replay_run_multi(&in.src, cfg, 2, rs, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INTERNAL);
	input_close(&in);
	sim_error_clear(&err);
	cfg[1].hz = 250;
	input_open(&in);
	assert_int_equal(replay_run_multi(&in.src, cfg, 2, rs, &err), -1);
	input_close(&in);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_int_equal(err.line, 5);
	assert_non_null(strstr(err.text, "busy period starts while the CPU is idle"));
}

/* ---- the reference cache ---- */

/* A run of the demo trace on skl through `gov`, with a limit and disabled states. */
static void grid(const char *gov, int64_t lat_ns, const char *disable, int hz,
		 struct run_refcache *refs, struct run_results *res)
{
	struct run_request q;
	struct sim_error err = { 0 };
	char demo[4096];

	snprintf(demo, sizeof(demo), "%s/traces/demo.trace", IDLESIM_SOURCE_DIR);
	run_request_defaults(&q);
	q.traces[q.nr_traces++] = demo;
	q.machines[q.nr_machines++] = "skl";
	q.governors[q.nr_governors++] = gov;
	q.latency_req_ns = lat_ns;
	if (disable)
		q.disable[q.nr_disable++] = disable;
	q.hz = hz;
	q.refs = refs;
	if (run_grid(&q, res, &err))
		fail_msg("%s", err.text);
	assert_int_equal(res->n, 1);
}

/* Regret with the cache's references is regret with the cell's own, to the bit. */
static void same_regret(const struct run_result *a, const struct run_result *b)
{
	assert_true(a->has_regret && b->has_regret);
	assert_memory_equal(&a->regret_energy_j, &b->regret_energy_j, sizeof(double));
	assert_memory_equal(&a->regret_energy_pct, &b->regret_energy_pct, sizeof(double));
	assert_memory_equal(&a->regret_package_j, &b->regret_package_j, sizeof(double));
	assert_memory_equal(&a->regret_cpu_j, &b->regret_cpu_j, sizeof(double));
	assert_memory_equal(&a->regret_lat_mean_ns, &b->regret_lat_mean_ns, sizeof(double));
}

/*
 * Runs on one cache: a second governor on the same key takes the references of the first
 * (one computation); each knob of the key (limit, disabled state, HZ) makes a new one.
 */
static void test_refcache_runs(void **state)
{
	static const struct {
		const char *gov;
		int64_t lat_ns;
		const char *disable;
		int hz;
		unsigned long computed; /* after this run */
	} runs[] = {
		{ "menu", -1, NULL, 0, 1 },	{ "teo", -1, NULL, 0, 1 },
		{ "ladder", -1, NULL, 0, 1 },	{ "teo", 30000, NULL, 0, 2 },
		{ "menu", 30000, NULL, 0, 2 },	{ "teo", 30000, "C6", 0, 3 },
		{ "teo", 30000, "C6", 1000, 4 }, { "menu", -1, NULL, 0, 4 },
	};
	struct run_refcache *c = run_refcache_new();
	struct run_results with, without;
	unsigned int k;

	(void)state;
	assert_non_null(c);
	for (k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		grid(runs[k].gov, runs[k].lat_ns, runs[k].disable, runs[k].hz, c, &with);
		grid(runs[k].gov, runs[k].lat_ns, runs[k].disable, runs[k].hz, NULL, &without);
		assert_int_equal(run_refcache_computed(c), runs[k].computed);
		same_regret(&with.r[0], &without.r[0]);
		assert_same_stats(&with.r[0].stats, &without.r[0].stats);
		run_results_free(&with);
		run_results_free(&without);
	}
	run_refcache_free(c);
}

/* The key: what changes a reference's numbers changes it, the governor and logs do not. */
static void test_refkey(void **state)
{
	struct sim_config a = { 0 }, b;
	struct sim_error err = { 0 };
	struct machine m, m2;
	char *ka, *kb;
	int k;

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	m2 = m;
	m2.states[3].exit_latency_ns++;
	a.machine = &m;
	a.hz = 250;
	a.latency_req_ns = -1;
	ka = run_refkey(1, &a);
	assert_non_null(ka);
	for (k = 0; k < 10; k++) {
		b = a;
		switch (k) {
		case 0: b.gov = gov_find("teo"); b.explain_limit = 5; b.gov_timeout_ns = 9; break;
		case 1: b.machine = &m2; break;
		case 2: b.hz = 1000; break;
		case 3: b.latency_req_ns = 0; break;
		case 4: b.disabled = 4; break;
		case 5: b.wake_model = WAKE_MODEL_MEASURED; break;
		case 6: b.wake_seed = 2; break;
		case 7: b.queue = EVENTQ_NAIVE; break;
		case 8: b.global_order = true; break;
		case 9: break; /* another trace */
		}
		kb = run_refkey(k == 9 ? 2 : 1, &b);
		assert_non_null(kb);
		if (k == 0)
			assert_string_equal(ka, kb);
		else if (!strcmp(ka, kb))
			fail_msg("field %d is not in the key", k);
		sim_free(kb);
	}
	sim_free(ka);
}

/*
 * A sweep of 6 points (teo's decay_shift, on 2 threads) on one trace and machine: the
 * references run once, and each point's regret is that of a run of its own.
 */
static void test_refcache_sweep(void **state)
{
	char spec[1024], line[8192];
	struct sweep_opts o = { .threads = 2, .shard = 0, .nr_shards = 1 };
	struct sim_error err = { 0 };
	struct sweep_spec *s;
	FILE *f;
	long i, n = 0;

	(void)state;
	snprintf(spec, sizeof(spec),
		 "{\"traces\": [\"%s/traces/demo.trace\"], \"machines\": [\"skl\"], "
		 "\"governors\": [\"teo\"], \"tunables\": {\"teo.decay_shift\": [1, 2, 3, 4, 5, 6]}}",
		 IDLESIM_SOURCE_DIR);
	s = sweep_parse(spec, "<spec>", false, &err);
	assert_non_null(s);
	o.refs = run_refcache_new();
	assert_non_null(o.refs);
	assert_int_equal(sweep_run(s, &o, tmp_path("r.jsonl"), &err), 6);
	assert_int_equal(run_refcache_computed(o.refs), 1);
	f = fopen(tmp_path("r.jsonl"), "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		json_t *j = json_loads(line, 0, NULL), *met;
		struct run_request q;
		const struct sweep_workload *wl;
		struct run_results res;

		assert_non_null(j);
		i = (long)json_integer_value(json_object_get(j, "index"));
		met = json_object_get(j, "metrics");
		sweep_point_request(s, i, &q, &wl);
		assert_null(wl);
		if (run_grid(&q, &res, &err))
			fail_msg("%s", err.text);
		/* the line has the %.12g of the number */
		assert_true(fabs(json_real_value(json_object_get(met, "regret_energy_j")) -
				 res.r[0].regret_energy_j) <= 1e-11 * fabs(res.r[0].regret_energy_j));
		assert_true(res.r[0].regret_energy_j != 0);
		run_results_free(&res);
		json_decref(j);
		n++;
	}
	fclose(f);
	assert_int_equal(n, 6);
	run_refcache_free(o.refs);
	sweep_free(s);
}

/* Sweep's results file as one line per index (the order of lines may differ). */
static int read_lines(const char *path, char lines[][4096], int max)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		json_t *j = json_loads(line, 0, NULL);
		long i;

		assert_non_null(j);
		i = (long)json_integer_value(json_object_get(j, "index"));
		assert_true(i >= 0 && i < max);
		snprintf(lines[i], sizeof(lines[i]), "%s", line);
		json_decref(j);
		n++;
	}
	fclose(f);
	return n;
}

/*
 * The points of a block (trace, machine) in one pass over the trace: 2 traces x 2 machines
 * x (menu, teo with 2 decay_shift values) = 12 points in 4 blocks of 3. One point per pass
 * (batch 1), 12 passes; by default on 1 thread and on 2, one pass per block. Every line is
 * the same byte for byte.
 */
static void test_sweep_batched(void **state)
{
	static char one[12][4096], got[12][4096];
	char spec[1024], out[64];
	struct sweep_opts o = { .threads = 1, .shard = 0, .nr_shards = 1, .batch = 1 };
	struct sim_error err = { 0 };
	struct sweep_spec *s;
	long passes = 0;
	int threads, i;

	(void)state;
	snprintf(spec, sizeof(spec),
		 "{\"traces\": [\"%s/traces/demo.trace\", \"%s/traces/scenarios/irq-fixed.trace\"], "
		 "\"machines\": [\"skl\", \"hsx\"], \"governors\": [\"menu\", \"teo\"], "
		 "\"tunables\": {\"teo.decay_shift\": [2, 4]}}",
		 IDLESIM_SOURCE_DIR, IDLESIM_SOURCE_DIR);
	s = sweep_parse(spec, "<spec>", false, &err);
	assert_non_null(s);
	assert_int_equal(s->total, 12);
	o.passes = &passes;
	assert_int_equal(sweep_run(s, &o, tmp_path("one.jsonl"), &err), 12);
	assert_int_equal(passes, 12);
	assert_int_equal(read_lines(tmp_path("one.jsonl"), one, 12), 12);
	for (threads = 1; threads <= 2; threads++) {
		o.threads = threads;
		o.batch = 0;
		snprintf(out, sizeof(out), "batched%d.jsonl", threads);
		passes = 0;
		assert_int_equal(sweep_run(s, &o, tmp_path(out), &err), 12);
		assert_int_equal(passes, 4);
		memset(got, 0, sizeof(got));
		assert_int_equal(read_lines(tmp_path(out), got, 12), 12);
		for (i = 0; i < 12; i++)
			assert_string_equal(got[i], one[i]);
	}
	sweep_free(s);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("replay_multi");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_multi_intervals),
		cmocka_unit_test(test_multi_events),
		cmocka_unit_test(test_multi_global_timers),
		cmocka_unit_test(test_multi_errors),
		cmocka_unit_test(test_refkey),
		cmocka_unit_test(test_refcache_runs),
		cmocka_unit_test(test_refcache_sweep),
		cmocka_unit_test(test_sweep_batched),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
