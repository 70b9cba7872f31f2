// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_wake.c - the hardware wake-latency model (sim/machine/machine_wake.c, the engine's exit
 * path, sim/machine/machine_calibrate.c): every expectation computed by hand from the rules.
 *
 * skl (intel_idle skl_cstates), advertised exit latency / typical actual wake latency:
 *   C1 2 us / 1 us, C1E 10 us / 1.9 us, C6 85 us / 5.05 us (docs/wake-latency.md).
 * HZ 250 (TICK_NSEC 4 ms) unless said otherwise.
 */
#include "tests/testutil.h"
#include "sim/run/cfgrec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define US 1000LL

/* ---- the decision log, every decision kept ---- */

#define REC_MAX 8192

struct rec {
	int n;
	struct sim_decision d[REC_MAX];
	struct cpuidle_explain ex[REC_MAX];
};

static struct rec rec; /* single-threaded tests */

static void rec_cb(void *ud, const struct sim_decision *d)
{
	struct rec *r = ud;

	if (r->n >= REC_MAX)
		return;
	r->d[r->n] = *d;
	r->ex[r->n] = *d->gov;
	r->d[r->n].gov = NULL;
	r->n++;
}

static long long exv(const struct cpuidle_explain *ex, const char *key)
{
	int i;

	for (i = 0; i < ex->nr; i++)
		if (!strcmp(ex->items[i].key, key) && !ex->items[i].str)
			return ex->items[i].val;
	fail_msg("decision log has no number '%s'", key);
	return -1;
}

/* ---- a replay where the actual latency is shorter than the advertised one ---- */

/*
 * One CPU, the scripted governor always in C6, irq wakeups: period 1 from 0 for 100 us,
 * work until the trace's 150 us (50 us of it), period 2 from there.
 *
 * typical: the CPU wakes at 100,000 and runs at 100,000 + 5,050 = 105,050: the residency
 * cpuidle_enter_state() measures and reflect() sees is 105,050; the 50,000 ns of work end at
 * 155,050, where the second select runs. worst: 100,000 + 85,000 = 185,000 both, and the
 * second select at 235,000. The work starts 85,000 - 5,050 = 79,950 ns earlier with typical.
 */
static const char two_periods[] = "idlesim-trace v1\ncpus 1\nend 1000000\n"
				  "idle 0 0 100000 irq\n"
				  "idle 0 150000 400000 irq\n";

static void run_two(enum wake_model w, struct run_stats *rs)
{
	struct replay_opts o = { .wake_model = w };

	script_set(C6, true);
	replay_ok(two_periods, &o, rs);
}

static void test_typical_shorter_than_advertised(void **state)
{
	struct run_stats rs;
	int64_t typ_now, worst_now;

	(void)state;
	run_two(WAKE_MODEL_TYPICAL, &rs);
	assert_true(test_script.calls >= 2);
	assert_int_equal(test_script.seen[1].last_state_idx, C6);
	assert_int_equal(test_script.seen[1].last_residency_ns, 105050);
	typ_now = test_script.seen[1].now_ns;
	assert_int_equal(typ_now, 155050);
	/* both irq wakeups paid C6's typical latency: 2 samples of 5,050 */
	assert_int_equal(rs.total.wake_latency.n, 2);
	assert_int_equal(rs.total.wake_latency.sum_ns, 2 * 5050);
	run_stats_release(&rs);

	run_two(WAKE_MODEL_WORST, &rs);
	assert_int_equal(test_script.seen[1].last_residency_ns, 185000);
	worst_now = test_script.seen[1].now_ns;
	assert_int_equal(worst_now, 235000);
	assert_int_equal(rs.total.wake_latency.sum_ns, 2 * 85000);
	run_stats_release(&rs);
	assert_int_equal(worst_now - typ_now, 85000 - 5050);
}

/*
 * teo@6.19's short-residency branch (teo_update: measured_ns < exit latency: halve it and
 * count a short idle), reachable only when the actual wake latency is below the advertised.
 * skl with only C1, C1E and C6 enabled. Period 1: an irq after 50 us, a timer 10 ms away.
 *
 * First select: no history; candidate C6 (deepest enabled), sleep length 10 ms >= C6's
 * 200 us: C6, tick stopped (10 ms >= TICK_NSEC).
 * Update at the second select, typical: measured_ns = 50,000 + 5,050 = 55,050 < 85,000,
 * so measured_ns = 55,050 / 2 = 27,525 and short_idles = 0 + PULSE = 1024. The bin of the
 * measured time is the deepest state with target residency <= 27,525 (and <= the sleep
 * length): C1E (20 us; C3 is 100 us); the timer bin is C10 (5 ms <= 10 ms): an intercept
 * in bin C1E. The other branch would have given 55,050 - 42,500 = 12,550, bin C1 (2 us).
 * Second select: total = 0 + PULSE = 1024, idx_intercept_sum (bins below C6) = 1024,
 * 2 * 1024 > 1024 - 0: walk down from C3 (disabled) to C1E, whose bins up to C6 hold
 * 1024 > 1024 / 2: intercepts_idx = C1E (2). Logged short_idles: 1024.
 * worst: 50,000 + 85,000 = 135,000 >= 85,000: 135,000 - 42,500 = 92,500 >= 15,000: no
 * short idle (short_idles 0); bin C1E as well.
 */
static const char teo_trace[] = "idlesim-trace v1\ncpus 1\nend 100000000\n"
				"idle 0 0 50000 irq next_timer=10000000\n"
				"idle 0 100000 10000000 timer\n";

static void run_teo(enum wake_model w)
{
	struct replay_opts o = { .gov = gov_find("teo@6.19"), .wake_model = w };
	struct run_stats rs;

	o.disabled = (1u << POLL) | (1u << C3) | (1u << C7S) | (1u << C8) | (1u << C9) |
		     (1u << C10);
	o.explain = rec_cb;
	o.explain_ud = &rec;
	o.explain_limit = -1;
	memset(&rec, 0, sizeof(rec));
	replay_ok(teo_trace, &o, &rs);
	run_stats_release(&rs);
	assert_true(rec.n >= 2);
	assert_int_equal(rec.d[0].state, C6);
}

static void test_teo_short_residency_branch(void **state)
{
	(void)state;
	run_teo(WAKE_MODEL_TYPICAL);
	assert_int_equal(rec.d[0].residency_ns, 55050);
	assert_true(rec.d[0].residency_ns < 85 * US); /* below the advertised exit latency */
	assert_int_equal(exv(&rec.ex[1], "short_idles"), 1024);
	assert_int_equal(exv(&rec.ex[1], "intercepts_idx"), C1E);

	run_teo(WAKE_MODEL_WORST);
	assert_int_equal(rec.d[0].residency_ns, 135000);
	assert_int_equal(exv(&rec.ex[1], "short_idles"), 0);
	assert_int_equal(exv(&rec.ex[1], "intercepts_idx"), C1E);
}

/* ---- the sampler ---- */

/*
 * A one-state-deep machine whose C6 wakes per the quantiles (0, 10 us), (0.5, 20 us),
 * (1, 60 us): half uniform on [10, 20] us, half on [20, 60] us. Mean = 0.5 x 15,000 +
 * 0.5 x 40,000 = 27,500 ns; median 20,000; p90 = 20,000 + (0.4 / 0.5) x 40,000 = 52,000.
 * E[X^2] = 0.5 (10^2 + 10 x 20 + 20^2) / 3 + 0.5 (20^2 + 20 x 60 + 60^2) / 3 (in us^2)
 *        = 116.67 + 866.67 = 983.33; variance 983.33 - 756.25 = 227.08, sd 15.07 us.
 * N = 4000 wakeups: the mean's standard error is 15,069 / sqrt(4000) = 238 ns (bound 5x:
 * 1,200); the empirical median's about sqrt(0.25 / 4000) / f with f >= 0.5 / 40,000 per ns
 * = 632 ns (bound 3,000), p90's sqrt(0.09 / 4000) / (0.5 / 40,000) = 379 ns (bound 2,000).
 */
static const char dist_machine[] =
	"{\"name\": \"distm\", \"topology\": {\"packages\": 1, \"cores\": 1, \"threads\": 1},\n"
	" \"states\": [\n"
	"  {\"name\": \"POLL\", \"flags\": [\"POLLING\"], \"exit_latency_ns\": 0,\n"
	"   \"target_residency_ns\": 0},\n"
	"  {\"name\": \"C6\", \"exit_latency_ns\": 100000, \"target_residency_ns\": 200000,\n"
	"   \"wake_latency\": {\"quantiles\": [[0, 10000], [0.5, 20000], [1, 60000]]}}]}\n";

#define NSAMPLES 4000

/* NSAMPLES periods of 100 us every 200 us, each ended by an irq, all in C6 (state 1). */
static char *sampler_trace(void)
{
	size_t cap = 64 + (size_t)NSAMPLES * 48, len;
	char *t = malloc(cap);
	int k;

	assert_non_null(t);
	len = (size_t)snprintf(t, cap, "idlesim-trace v1\ncpus 1\nend %lld\n",
			       (long long)NSAMPLES * 200000 + 1000000);
	for (k = 0; k < NSAMPLES; k++)
		len += (size_t)snprintf(t + len, cap - len, "idle 0 %lld 100000 irq\n",
					(long long)k * 200000);
	return t;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The actual latencies of the run, in decision order (reflect_ns - wake_ns). */
static int sample_run(const struct machine *m, uint64_t seed, int64_t *lat, int64_t *sum_lanes)
{
	struct replay_opts o = { .mach = m, .wake_model = WAKE_MODEL_MEASURED, .wake_seed = seed };
	struct run_stats rs;
	char *t = sampler_trace();
	int i;

	script_set(1, true);
	o.explain = rec_cb;
	o.explain_ud = &rec;
	o.explain_limit = -1;
	memset(&rec, 0, sizeof(rec));
	replay_ok(t, &o, &rs);
	run_stats_release(&rs);
	for (i = 0; i < rec.n; i++)
		lat[i] = rec.d[i].reflect_ns - rec.d[i].wake_ns;
	/* the same run without the log goes through the per-CPU lanes: the same draws */
	o.explain = NULL;
	script_set(1, true);
	replay_ok(t, &o, &rs);
	*sum_lanes = rs.total.wake_latency.sum_ns;
	assert_int_equal(rs.total.wake_latency.n, rec.n);
	run_stats_release(&rs);
	free(t);
	return rec.n;
}

static void test_sampler_statistics(void **state)
{
	static int64_t a[REC_MAX], b[REC_MAX];
	struct sim_error err = { 0 };
	struct machine m;
	int64_t sum = 0, sum_lanes, below = 0;
	int n, i, same = 1;
	double mean;

	(void)state;
	assert_int_equal(machine_load_json_string(dist_machine, "distm", &m, &err), 0);
	n = sample_run(&m, 7, a, &sum_lanes);
	assert_int_equal(n, NSAMPLES);
	for (i = 0; i < n; i++) {
		assert_true(a[i] >= 10000 && a[i] <= 60000);
		sum += a[i];
		below += a[i] < 20000;
	}
	assert_int_equal(sum, sum_lanes);
	mean = (double)sum / n;
	assert_true(fabs(mean - 27500) < 1200);
	/* half the mass below the median: 0.5 +- 5 x sqrt(0.25 / 4000) = 0.04 */
	assert_true(fabs((double)below / n - 0.5) < 0.04);
	qsort(a, (size_t)n, sizeof(a[0]), cmp_i64);
	assert_true(llabs(a[n / 2] - 20000) < 3000);
	assert_true(llabs(a[n * 9 / 10] - 52000) < 2000);

	/* Deterministic for a seed; another seed draws another sequence. */
	n = sample_run(&m, 7, a, &sum_lanes);
	assert_int_equal(sample_run(&m, 7, b, &sum_lanes), n);
	assert_memory_equal(a, b, (size_t)n * sizeof(a[0]));
	assert_int_equal(sample_run(&m, 8, b, &sum_lanes), n);
	for (i = 0; i < n && same; i++)
		same = a[i] == b[i];
	assert_false(same);
}

/* The inverse CDF at a few points, by hand from the quantiles above. */
static void test_quantile_function(void **state)
{
	struct sim_error err = { 0 };
	struct machine m;
	const struct machine_wake *w;

	(void)state;
	assert_int_equal(machine_load_json_string(dist_machine, "distm", &m, &err), 0);
	w = &m.states[1].wake;
	assert_int_equal(w->kind, MACHINE_WAKE_DIST);
	assert_int_equal(w->typical_ns, 20000); /* no typical_ns given: the median */
	assert_int_equal(machine_wake_quantile_ns(w, 0.0), 10000);
	assert_int_equal(machine_wake_quantile_ns(w, 0.25), 15000); /* 10,000 + 0.5 x 10,000 */
	assert_int_equal(machine_wake_quantile_ns(w, 0.9), 52000);
	assert_int_equal(machine_wake_quantile_ns(w, 1.0), 60000);
	/* per model: worst the advertised 100 us, typical the median, measured sampled (-1) */
	assert_int_equal(machine_wake_fixed_ns(&m.states[1], WAKE_MODEL_WORST), 100000);
	assert_int_equal(machine_wake_fixed_ns(&m.states[1], WAKE_MODEL_TYPICAL), 20000);
	assert_int_equal(machine_wake_fixed_ns(&m.states[1], WAKE_MODEL_MEASURED), -1);
	assert_int_equal(machine_wake_max_ns(&m.states[1]), 100000);
	/* the mean the energy reference prices an exit at: the inverse CDF is linear on each
	 * segment, so each contributes its width x its midpoint:
	 * 0.5 x (10,000 + 20,000) / 2 + 0.5 x (20,000 + 60,000) / 2 = 7,500 + 20,000 */
	assert_float_equal(machine_wake_mean_ns(&m.states[1], WAKE_MODEL_MEASURED), 27500, 1e-9);
	assert_float_equal(machine_wake_mean_ns(&m.states[1], WAKE_MODEL_TYPICAL), 20000, 0);
	assert_float_equal(machine_wake_mean_ns(&m.states[1], WAKE_MODEL_WORST), 100000, 0);
}

/*
 * CPU 0's sampled wakeups on a 64-CPU machine, where the engine holds a CPU's bucketed
 * latencies back once its exact table is full and adds them at the end (LAT_STAGE_CPUS,
 * sim/engine/engine_setup.c): the histogram of the same CPU on a one-CPU machine, where
 * each sample goes straight in. The other 63 CPUs have no records, hence no wakeups and
 * no draws.
 */
static void test_held_back_latencies(void **state)
{
	static const double pct[] = {1, 10, 25, 50, 75, 90, 99, 99.9, 100};
	struct sim_error err = { 0 };
	struct machine m1, m64;
	struct replay_opts o1 = { .mach = &m1, .wake_model = WAKE_MODEL_MEASURED, .wake_seed = 7 };
	struct replay_opts o64 = o1;
	struct run_stats a, b;
	char *t1 = sampler_trace(), *t64, *big;
	const char *rest = strstr(t1, "cpus 1\n"), *cores = strstr(dist_machine, "\"cores\": 1,");
	const struct lat_hist *x, *y;
	size_t i, n64, nbig;
	int len;

	(void)state;
	assert_non_null(rest);
	assert_non_null(cores);
	/* the same records under "cpus 64"; the machine with 64 cores of the same states */
	n64 = strlen(t1) + 16;
	nbig = strlen(dist_machine) + 16;
	t64 = malloc(n64);
	big = malloc(nbig);
	assert_non_null(t64);
	assert_non_null(big);
	len = snprintf(t64, n64, "idlesim-trace v1\ncpus 64\n%s", rest + strlen("cpus 1\n"));
	assert_true(len > 0 && (size_t)len < n64);
	len = snprintf(big, nbig, "%.*s\"cores\": 64,%s", (int)(cores - dist_machine),
		       dist_machine, cores + strlen("\"cores\": 1,"));
	assert_true(len > 0 && (size_t)len < nbig);
	assert_int_equal(machine_load_json_string(dist_machine, "distm", &m1, &err), 0);
	assert_int_equal(machine_load_json_string(big, "distm64", &m64, &err), 0);
	assert_int_equal(machine_nr_cpus(&m64), 64);
	o64.mach = &m64;
	script_set(1, true);
	replay_ok(t1, &o1, &a);
	script_set(1, true);
	replay_ok(t64, &o64, &b);
	x = &a.cpus[0].wake_latency;
	y = &b.cpus[0].wake_latency;
	assert_int_equal(x->n, NSAMPLES);
	assert_int_equal(x->nr_exact, LAT_EXACT); /* the table filled: the held-back path ran */
	assert_int_equal(y->n, x->n);
	assert_int_equal(y->sum_ns, x->sum_ns);
	assert_int_equal(y->max_ns, x->max_ns);
	for (i = 0; i < ARRAY_SIZE(pct); i++)
		assert_int_equal(lat_hist_percentile(y, pct[i]), lat_hist_percentile(x, pct[i]));
	assert_int_equal(b.total.wake_latency.n, NSAMPLES);
	assert_int_equal(lat_hist_percentile(&b.total.wake_latency, 99),
			 lat_hist_percentile(&a.total.wake_latency, 99));
	run_stats_release(&a);
	run_stats_release(&b);
	free(t1);
	free(t64);
	free(big);
}

/* measured needs a distribution: a built-in has none, and the engine refuses to start. */
static void test_measured_needs_distribution(void **state)
{
	struct replay_opts o = { .wake_model = WAKE_MODEL_MEASURED };
	struct sim_error err = { 0 };
	struct run_stats rs;

	(void)state;
	script_set(C6, true);
	assert_int_equal(replay_string(two_periods, &o, &rs, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "no measured wake-latency distribution"));
}

/* The JSON form: written and read back equal; the model enters the table's hash. */
static void test_json_round_trip(void **state)
{
	struct sim_error err = { 0 };
	struct machine m, back, skl;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(machine_load_json_string(dist_machine, "distm", &m, &err), 0);
	f = open_memstream(&text, &len);
	assert_int_equal(machine_write_json(f, &m), 0);
	fclose(f);
	assert_non_null(strstr(text, "\"wake_latency\": {"));
	assert_int_equal(machine_load_json_string(text, "back", &back, &err), 0);
	free(text);
	assert_memory_equal(&back.states[1].wake, &m.states[1].wake, sizeof(m.states[1].wake));
	assert_true(machine_hash(&back) == machine_hash(&m));
	back.states[1].wake.typical_ns++;
	assert_true(machine_hash(&back) != machine_hash(&m));

	/* The built-ins carry typical values; a state without one stays worst. */
	assert_int_equal(machine_load("skl", &skl, &err), 0);
	assert_int_equal(skl.states[C6].wake.kind, MACHINE_WAKE_TYPICAL);
	assert_int_equal(skl.states[C6].wake.typical_ns, 5050);
	assert_int_equal(skl.states[POLL].wake.kind, MACHINE_WAKE_WORST);
	assert_int_equal(machine_wake_fixed_ns(&skl.states[POLL], WAKE_MODEL_TYPICAL), 0);
}

/* ---- calibrate ---- */

static char tmpdir[] = "/tmp/idlesim-test-wake-XXXXXX";

static const char *write_csv(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/*
 * C6: 4, 1, 10, 2, 3 us -> sorted 1,000 2,000 3,000 4,000 10,000 ns, n = 5, h = 4p:
 *   p 0 -> 1,000; 0.1: h 0.4 -> 1,000 + 0.4 x 1,000 = 1,400; 0.25: h 1 -> 2,000;
 *   0.5: h 2 -> 3,000 (typical); 0.75: h 3 -> 4,000; 0.9: h 3.6 -> 4,000 + 0.6 x 6,000 =
 *   7,600; 0.99: h 3.96 -> 4,000 + 0.96 x 6,000 = 9,760; 1 -> 10,000.
 * C1E: one sample of 1.5 us: every quantile 1,500. C6S (twice) and POLL (a polling state)
 * match nothing that has an exit: reported, ignored. Other columns are ignored, CRLF too.
 */
static const char calib_csv[] = "SilentTime,WakeLatency,ReqCState,CC6%\r\n"
				"100,4,C6,90\r\n"
				"100,1.0,C6,90\r\n"
				"100,1.5,C1E,0\r\n"
				"100,10,c6,90\r\n"
				"100,7,C6S,0\r\n"
				"100,2,C6,90\r\n"
				"100,0.5,POLL,0\r\n"
				"100,7,C6S,0\r\n"
				"100,3,C6,90\r\n";

static void test_calibrate(void **state)
{
	static const double p[] = {0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1};
	static const int64_t c6[] = {1000, 1400, 2000, 3000, 4000, 7600, 9760, 10000};
	struct sim_error err = { 0 };
	struct machine m;
	char *note = NULL;
	size_t len = 0;
	FILE *f;
	int k;

	(void)state;
	assert_int_equal(machine_load("skl", &m, &err), 0);
	f = open_memstream(&note, &len);
	assert_int_equal(machine_calibrate_wult(&m, write_csv("a.csv", calib_csv), f, &err), 0);
	fclose(f);
	assert_int_equal(m.states[C6].wake.kind, MACHINE_WAKE_DIST);
	assert_int_equal(m.states[C6].wake.nr_quantiles, 8);
	for (k = 0; k < 8; k++) {
		assert_true(m.states[C6].wake.q_p[k] == p[k]);
		assert_int_equal(m.states[C6].wake.q_ns[k], c6[k]);
		assert_int_equal(m.states[C1E].wake.q_ns[k], 1500);
	}
	assert_int_equal(m.states[C6].wake.typical_ns, 3000);
	assert_int_equal(m.states[C1E].wake.typical_ns, 1500);
	/* untouched states keep their typical value */
	assert_int_equal(m.states[C3].wake.kind, MACHINE_WAKE_TYPICAL);
	assert_int_equal(machine_validate(&m, "calibrated", &err), 0);
	assert_non_null(strstr(note, "calibrate: C6: 5 wake-ups, median 3.000 us\n"));
	assert_non_null(strstr(note, "2 wake-up(s) requested 'C6S'"));
	assert_non_null(strstr(note, "1 wake-up(s) requested 'POLL'"));
	free(note);
}

static void expect_calib_error(const char *csv, int line, int col, const char *msg)
{
	struct sim_error err = { 0 };
	struct machine m, before;

	assert_int_equal(machine_load("skl", &m, &err), 0);
	before = m;
	assert_int_equal(machine_calibrate_wult(&m, write_csv("bad.csv", csv), NULL, &err), -1);
	if (err.line != line || err.column != col || !strstr(err.text, msg)) {
		fprintf(stderr, "want %d:%d '%s', got %d:%d '%s'\n", line, col, msg, err.line,
			err.column, err.text);
		fail();
	}
	assert_memory_equal(&m, &before, sizeof(m)); /* unchanged */
}

static void test_calibrate_errors(void **state)
{
	(void)state;
	expect_calib_error("Latency,ReqCState\n1,C6\n", 1, 1, "no WakeLatency column");
	expect_calib_error("WakeLatency,State\n1,C6\n", 1, 1, "no ReqCState column");
	/* line 3, the first field: "x" is no number */
	expect_calib_error("WakeLatency,ReqCState\n1,C6\nx,C6\n", 3, 1, "WakeLatency 'x'");
	/* column of the field: "a,-2,C6" -> -2 starts at column 3 */
	expect_calib_error("A,WakeLatency,ReqCState\n1,2,C6\na,-2,C6\n", 3, 3, "WakeLatency '-2'");
	expect_calib_error("WakeLatency,ReqCState\n1,C6,extra\n", 2, 1, "3 fields where the header has 2");
	expect_calib_error("WakeLatency,ReqCState\n1,C99\n", 0, 0, "no wake-up matches a state of skl");
	expect_calib_error("", 1, 1, "empty file");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typical_shorter_than_advertised),
		cmocka_unit_test(test_teo_short_residency_branch),
		cmocka_unit_test(test_quantile_function),
		cmocka_unit_test(test_sampler_statistics),
		cmocka_unit_test(test_measured_needs_distribution),
		cmocka_unit_test(test_held_back_latencies),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_calibrate),
		cmocka_unit_test(test_calibrate_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
