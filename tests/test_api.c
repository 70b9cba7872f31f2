// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_api.c - libidlesim through include/idlesim.h alone, linked against libidlesim.so
 * (tests/CMakeLists.txt): no internal header is reachable from here.
 *
 * The hand-checked case is a one-CPU machine whose states leave no exit latency, so nothing
 * is delayed (traces/FORMAT.md, "Work is conserved") and every number follows from the
 * trace by arithmetic. Then the knobs, the errors with their positions, and two threads
 * running simulations at once against the same runs made one after the other.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <idlesim.h>

/*
 * POLL (0/0 ns, 1 W) and C1 (exit latency 0, target residency 100 us, 0.5 W), running at
 * 2 W; packages and transitions draw nothing, so the energy is the core's alone.
 */
#define TINY_JSON(cores)                                                                           \
	"{\"name\": \"tiny\", \"driver\": \"test\",\n"                                              \
	" \"topology\": {\"packages\": 1, \"cores\": " #cores ", \"threads\": 1},\n"                \
	" \"power\": {\"active_core_w\": 2.0, \"active_package_w\": 0.0},\n"                  \
	" \"states\": [\n"                                                                         \
	"  {\"name\": \"POLL\", \"flags\": [\"POLLING\"], \"exit_latency_ns\": 0,\n"                 \
	"   \"target_residency_ns\": 0, \"core_power_w\": 1.0, \"package_power_w\": 0.0,\n"        \
	"   \"entry_exit_energy_j\": 0.0},\n"                                                       \
	"  {\"name\": \"C1\", \"flags\": [], \"exit_latency_ns\": 0,\n"                            \
	"   \"target_residency_ns\": 100000, \"core_power_w\": 0.5, \"package_power_w\": 0.0,\n"   \
	"   \"entry_exit_energy_j\": 0.0}]}\n"
static const char tiny_json[] = TINY_JSON(1);

/* Idle 0-300 us (irq), 400-450 us (irq), 600-800 us (timer); work in between and to 1 ms. */
static const char tiny_trace[] = "idlesim-trace v1\n"
				 "cpus 1\n"
				 "hz 250\n"
				 "start 0\n"
				 "end 1000000\n"
				 "idle 0 0 300000 irq\n"
				 "idle 0 400000 50000 irq\n"
				 "idle 0 600000 200000 timer timer=hrtimer\n";

struct fixture {
	idlesim_machine *m;
	idlesim_trace *t;
};

static int setup(void **state)
{
	static struct fixture f;
	idlesim_error err = { 0 };

	f.m = idlesim_machine_from_json(tiny_json, "tiny.json", &err);
	f.t = idlesim_trace_from_string(tiny_trace, "tiny.trace", &err);
	if (!f.m || !f.t) {
		char buf[640];

		fprintf(stderr, "test_api: %s\n", idlesim_error_string(&err, buf, sizeof(buf)));
		return -1;
	}
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	idlesim_trace_free(f->t);
	idlesim_machine_free(f->m);
	return 0;
}

static idlesim_result *run_ok(const struct fixture *f, const char *gov, const idlesim_options *o)
{
	idlesim_error err = { 0 };
	idlesim_result *r = idlesim_run(f->m, f->t, gov, o, &err);
	char buf[640];

	if (!r)
		fail_msg("%s: %s", gov, idlesim_error_string(&err, buf, sizeof(buf)));
	return r;
}

static void test_objects(void **state)
{
	struct fixture *f = *state;
	const char *name;
	long long def, min, max;
	unsigned int i;
	int found_skl = 0;
	char version[32];

	assert_string_equal(idlesim_machine_name(f->m), "tiny");
	assert_int_equal(idlesim_machine_cpus(f->m), 1);
	assert_int_equal(idlesim_machine_state_count(f->m), 2);
	assert_string_equal(idlesim_machine_state_name(f->m, 1), "C1");
	assert_null(idlesim_machine_state_name(f->m, 2));
	assert_int_equal(idlesim_machine_target_residency_ns(f->m, 1), 100000);
	assert_int_equal(idlesim_machine_exit_latency_ns(f->m, -1), -1);
	assert_string_equal(idlesim_trace_name(f->t), "tiny.trace");
	assert_int_equal(idlesim_trace_cpus(f->t), 1);
	assert_int_equal(idlesim_trace_hz(f->t), 250);

	for (i = 0; idlesim_machine_builtin_name(i); i++)
		found_skl += !strcmp(idlesim_machine_builtin_name(i), "skl");
	assert_int_equal(found_skl, 1);
	/* the registry's first entries are the reference policies (governors/registry.c) */
	assert_string_equal(idlesim_governor_name(0), "oracle");
	assert_string_equal(idlesim_governor_resolve("MENU"), "menu@6.19");
	assert_null(idlesim_governor_resolve("nosuch"));
	/* menu's first tunable is the kernel's DECAY, 8 */
	assert_int_equal(idlesim_governor_tunable("menu@6.19", 0, &name, &def, &min, &max), 0);
	assert_string_equal(name, "decay");
	assert_int_equal(def, 8);
	assert_int_equal(idlesim_governor_tunable("deepest", 0, &name, NULL, NULL, NULL), -1);
	/* the header's version is the library's (docs/library.md, "ABI and versions") */
	snprintf(version, sizeof(version), "%d.%d.%d", IDLESIM_VERSION_MAJOR,
		 IDLESIM_VERSION_MINOR, IDLESIM_VERSION_PATCH);
	assert_string_equal(idlesim_version(), version);
}

/*
 * deepest: C1 every time, tick stopped. Entries of 300, 50 and 200 us: usage 3, time 550 us;
 * 50 us < C1's target residency 100 us is one `above`; there is no deeper state, so no
 * `below`. Busy: 300-400, 450-600, 800-1000 us = 450 us, 45 % of 1 ms. Wakeups: 2 irq, 1
 * timer; wake latency 0 (no exit latency) on the 2 irq wakeups.
 * Energy: 450 us x 2 W + 550 us x 0.5 W = 900 + 275 = 1175 uJ; idle 275 uJ.
 * Energy regret is against oracle-energy (docs/regret.md): the cheapest state per period,
 * C1 every time (0.5 W against POLL's 1 W, no transition energy, no exit latency), so its
 * energy is deepest's, 1175 uJ, and deepest's regret is 0. The kernel-rule oracle takes C1
 * for 300 and 200 us, POLL for 50 us (C1 does not fit; POLL's limit is C1's target
 * residency, 100 us, so one entry): 900 + 500 x 0.5 + 50 x 1 = 1200 uJ, an energy regret of
 * +25 uJ, 25 / 1175 = +2.1277 %.
 */
static void test_hand_checked_run(void **state)
{
	struct fixture *f = *state;
	idlesim_result *r = run_ok(f, "deepest", NULL);
	struct idlesim_state_stats st;
	struct idlesim_summary s;

	assert_string_equal(idlesim_result_governor(r), "deepest");
	assert_int_equal(idlesim_result_cpus(r), 1);
	assert_int_equal(idlesim_result_hz(r), 250); /* the trace's */
	assert_int_equal(idlesim_result_state_count(r), 2);
	assert_string_equal(idlesim_result_state_name(r, 0), "POLL");

	assert_int_equal(idlesim_result_state(r, -1, 1, &st), 0);
	assert_int_equal(st.usage, 3);
	assert_int_equal(st.time_ns, 550000);
	assert_int_equal(st.above, 1);
	assert_int_equal(st.below, 0);
	assert_int_equal(st.disabled, 0);
	assert_int_equal(idlesim_result_state(r, 0, 0, &st), 0); /* CPU 0 alone */
	assert_int_equal(st.usage, 0);
	assert_int_equal(idlesim_result_state(r, 1, 0, &st), -1);
	assert_int_equal(idlesim_result_state(r, -1, 2, &st), -1);

	assert_int_equal(idlesim_result_summary(r, -1, &s), 0);
	assert_int_equal(s.start_ns, 0);
	assert_int_equal(s.end_ns, 1000000);
	assert_int_equal(s.idle_entries, 3);
	assert_int_equal(s.above, 1);
	assert_int_equal(s.hits, 2);
	assert_float_equal(s.busy_pct, 45.0, 1e-9);
	assert_int_equal(s.wakeups[IDLESIM_WAKE_IRQ], 2);
	assert_int_equal(s.wakeups[IDLESIM_WAKE_TIMER], 1);
	assert_int_equal(s.wakeups[IDLESIM_WAKE_TICK], 0);
	assert_int_equal(s.lat_samples, 2);
	assert_int_equal(s.lat_max_ns, 0);
	assert_float_equal(s.energy_j, 1175e-6, 1e-12);
	assert_float_equal(s.idle_energy_j, 275e-6, 1e-12);
	assert_float_equal(s.avg_power_w, 1.175, 1e-9);
	assert_true(s.has_regret);
	assert_float_equal(s.regret_energy_j, 0, 1e-12);
	assert_float_equal(s.regret_energy_pct, 0, 1e-9);
	assert_float_equal(s.regret_lat_mean_ns, 0, 1e-12);
	assert_int_equal(idlesim_result_summary(r, 3, &s), -1);
	/* no decision log unless asked */
	assert_int_equal(idlesim_result_decision_count(r), 0);
	idlesim_result_free(r);

	r = run_ok(f, "oracle", NULL);
	assert_int_equal(idlesim_result_summary(r, -1, &s), 0);
	assert_float_equal(s.energy_j, 1200e-6, 1e-12);
	assert_true(s.has_regret);
	assert_float_equal(s.regret_energy_j, 25e-6, 1e-12);
	assert_float_equal(s.regret_energy_pct, 2500.0 / 1175.0, 1e-9);
	idlesim_result_free(r);
}

/*
 * The oracle with a latency limit of 0 (both states qualify: no exit latency) and the whole
 * decision log: the three entries, in order, with the oracle's own variables.
 */
static void test_decision_log(void **state)
{
	struct fixture *f = *state;
	idlesim_options *o = idlesim_options_new();
	struct idlesim_decision d;
	const char *key, *str;
	long long val;
	idlesim_result *r;
	int j, seen = 0;

	assert_non_null(o);
	assert_int_equal(idlesim_options_set_latency_limit_ns(o, 0, NULL), 0);
	idlesim_options_set_decision_log(o, -1);
	r = run_ok(f, "oracle", o);
	assert_int_equal(idlesim_result_decision_count(r), 3);

	assert_int_equal(idlesim_result_decision(r, 0, &d), 0);
	assert_int_equal(d.time_ns, 0);
	assert_int_equal(d.state, 1);
	assert_int_equal(d.wake_ns, 300000);
	assert_int_equal(d.cause, IDLESIM_WAKE_IRQ);
	assert_int_equal(d.residency_ns, 300000);
	assert_int_equal(d.verdict, 0);
	assert_int_equal(d.first, 1);
	assert_int_equal(d.latency_req_ns, 0);
	assert_int_equal(d.sleep_length_ns, INT64_MAX); /* irq without next_timer: no timer */

	assert_int_equal(idlesim_result_decision(r, 1, &d), 0);
	assert_int_equal(d.time_ns, 400000);
	assert_int_equal(d.state, 0); /* 50 us: only POLL fits */
	assert_int_equal(d.oracle_idle_ns, 50000);
	for (j = 0; j < d.nr_vars; j++) {
		assert_int_equal(idlesim_result_decision_var(r, 1, j, &key, &str, &val), 0);
		if (!strcmp(key, "rule")) {
			assert_string_equal(str, "shallowest-fits");
			seen++;
		} else if (!strcmp(key, "idle_ns")) {
			assert_null(str);
			assert_int_equal(val, 50000);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	assert_int_equal(idlesim_result_decision_var(r, 1, d.nr_vars, &key, &str, &val), -1);

	assert_int_equal(idlesim_result_decision(r, 2, &d), 0);
	assert_int_equal(d.time_ns, 600000);
	assert_int_equal(d.cause, IDLESIM_WAKE_TIMER);
	assert_int_equal(d.sleep_length_ns, 200000); /* next_timer defaults to LENGTH */
	assert_int_equal(idlesim_result_decision(r, 3, &d), -1);
	idlesim_result_free(r);
	idlesim_options_free(o);
}

/*
 * --disable C1: deepest is left with POLL, whose limit is then the tick's / 16 = 4 ms / 16 =
 * 250 us (no enabled deeper state). The 300 us entry is cut at 250 us and POLL is entered
 * again for 50 us (a poll-limit wakeup): usage 4, time still 550 us.
 */
static void test_disable(void **state)
{
	struct fixture *f = *state;
	idlesim_options *o = idlesim_options_new();
	struct idlesim_state_stats st;
	struct idlesim_summary s;
	idlesim_result *r;

	assert_int_equal(idlesim_options_disable_state(o, "C1", NULL), 0);
	r = run_ok(f, "deepest", o);
	idlesim_result_state(r, -1, 1, &st);
	assert_int_equal(st.usage, 0);
	assert_int_equal(st.disabled, 1);
	idlesim_result_state(r, -1, 0, &st);
	assert_int_equal(st.usage, 4);
	assert_int_equal(st.time_ns, 550000);
	idlesim_result_summary(r, -1, &s);
	assert_int_equal(s.wakeups[IDLESIM_WAKE_POLL], 1);
	idlesim_result_free(r);
	idlesim_options_free(o);
}

/*
 * A kernel trace through the importer: tests/import/scenario.ftrace, whose conversion is
 * tests/import/scenario.expected (tests/test_import.c), on a two-CPU tiny machine with
 * deepest. Its periods: CPU 1 100000 (irq), 990000 (irq), 8990000 (ipi); CPU 0 4980000
 * (timer), 990000 (irq), 990000 (ipi), and 90001 (irq) from 100012110000 to 100012200001,
 * after the trace's end (100012200000): truncated, not counted. So C1: usage 6, time
 * 100000 + 990000 + 8990000 + 4980000 + 990000 + 990000 = 17040000 ns, no `above` (the
 * shortest, 100000, equals the target residency); wakeups 2 irq + 1 irq, 2 ipi, 1 timer.
 */
static void test_imported_trace(void **state)
{
	idlesim_error err = { 0 };
	idlesim_machine *m = idlesim_machine_from_json(TINY_JSON(2), "tiny2.json", &err);
	idlesim_trace *t = idlesim_trace_open(IDLESIM_SOURCE_DIR "/tests/import/scenario.ftrace",
					      &err);
	struct idlesim_state_stats st;
	struct idlesim_summary s;
	idlesim_result *r;

	(void)state;
	assert_non_null(m);
	assert_non_null(t);
	assert_int_equal(idlesim_trace_cpus(t), 2);
	assert_int_equal(idlesim_trace_hz(t), 250); /* from the tick's hrtimer */
	r = idlesim_run(m, t, "deepest", NULL, &err);
	assert_non_null(r);
	idlesim_result_state(r, -1, 1, &st);
	assert_int_equal(st.usage, 6);
	assert_int_equal(st.time_ns, 17040000);
	assert_int_equal(st.above, 0);
	idlesim_result_state(r, 0, 1, &st);
	assert_int_equal(st.usage, 3); /* CPU 0: 4980000 + 990000 + 990000 */
	assert_int_equal(st.time_ns, 6960000);
	idlesim_result_summary(r, -1, &s);
	assert_int_equal(s.wakeups[IDLESIM_WAKE_IRQ], 3);
	assert_int_equal(s.wakeups[IDLESIM_WAKE_IPI], 2);
	assert_int_equal(s.wakeups[IDLESIM_WAKE_TIMER], 1);
	assert_int_equal(s.end_ns, 100012200000);
	idlesim_result_free(r);
	idlesim_trace_free(t);
	idlesim_machine_free(m);
}

/* Knobs reach the run: HZ, the decision log's limit, the wake-latency model's check. */
static void test_knobs(void **state)
{
	struct fixture *f = *state;
	idlesim_options *o = idlesim_options_new();
	idlesim_error err = { 0 };
	idlesim_result *r;

	assert_int_equal(idlesim_options_set_hz(o, 1000, &err), 0);
	idlesim_options_set_decision_log(o, 2);
	r = run_ok(f, "deepest", o);
	assert_int_equal(idlesim_result_hz(r), 1000);
	assert_int_equal(idlesim_result_decision_count(r), 2); /* of 3 */
	idlesim_result_free(r);
	/* tiny has no measured distribution */
	assert_int_equal(idlesim_options_set_wake_model(o, "measured", &err), 0);
	assert_null(idlesim_run(f->m, f->t, "deepest", o, &err));
	assert_int_equal(err.code, IDLESIM_ERR_INPUT);
	assert_non_null(strstr(err.message, "tiny"));
	idlesim_options_free(o);
}

/* The config record is the one `idlesim run -f json` writes: the knobs as set, the names. */
static void test_config_json(void **state)
{
	struct fixture *f = *state;
	idlesim_options *o = idlesim_options_new();
	idlesim_error err = { 0 };
	idlesim_result *r;
	char *js;

	assert_int_equal(idlesim_options_set_hz(o, 1000, &err), 0);
	assert_int_equal(idlesim_options_set_latency_limit_ns(o, 5000, &err), 0);
	assert_int_equal(idlesim_options_set_wake_model(o, "worst", &err), 0);
	r = run_ok(f, "deepest", o);
	js = idlesim_result_config_json(r);
	assert_non_null(js);
	assert_null(strchr(js, '\n')); /* one line */
	assert_non_null(strstr(js, "\"governor\":\"deepest\""));
	assert_non_null(strstr(js, "\"hz\":1000"));
	assert_non_null(strstr(js, "\"latency_limit_ns\":5000"));
	assert_non_null(strstr(js, "\"wake_latency_model\":\"worst\""));
	assert_non_null(strstr(js, "\"machine\":{\"name\":\"tiny\""));
	idlesim_free(js);
	idlesim_free(NULL);
	assert_null(idlesim_result_config_json(NULL));
	idlesim_result_free(r);
	idlesim_options_free(o);
}

static void expect_error(idlesim_error *err, enum idlesim_error_code code, const char *file,
			 int line, int column, const char *text)
{
	char buf[640];

	assert_int_equal(err->code, code);
	assert_string_equal(err->file, file);
	assert_int_equal(err->line, line);
	assert_int_equal(err->column, column);
	if (!strstr(err->message, text))
		fail_msg("'%s' does not say '%s'", err->message, text);
	idlesim_error_string(err, buf, sizeof(buf));
	assert_non_null(strstr(buf, err->message));
	memset(err, 0, sizeof(*err));
}

static void test_errors(void **state)
{
	struct fixture *f = *state;
	idlesim_error err = { 0 };
	idlesim_options *o = idlesim_options_new();
	idlesim_trace *bad;
	char buf[16];

	assert_null(idlesim_machine_load("nosuch", &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "nosuch");
	/* line 2, column 1: the topology line has no closing brace for the object */
	assert_null(idlesim_machine_from_json("{\"name\": \"x\",\n}", "m.json", &err));
	assert_int_equal(err.code, IDLESIM_ERR_INPUT);
	assert_string_equal(err.file, "m.json");
	assert_int_equal(err.line, 2);
	memset(&err, 0, sizeof(err));
	assert_null(idlesim_trace_open("/nonexistent/x.trace", &err));
	expect_error(&err, IDLESIM_ERR_IO, "/nonexistent/x.trace", 0, 0, "cannot open");

	assert_null(idlesim_trace_open("-", &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "-", 0, 0, "idlesim_trace_from_string");

	/* a bad record is read by the run: line 3, column 8 is its START */
	bad = idlesim_trace_from_string("idlesim-trace v1\ncpus 1\nidle 0 x 5 irq\n", "bad", &err);
	assert_non_null(bad);
	assert_null(idlesim_run(f->m, bad, "menu", NULL, &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "bad", 3, 8, "start time");
	idlesim_trace_free(bad);

	assert_null(idlesim_run(f->m, f->t, "nosuch", NULL, &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "unknown governor 'nosuch'");
	assert_int_equal(idlesim_options_set_hz(o, 10001, &err), -1);
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "1..10000");
	assert_int_equal(idlesim_options_set_wake_model(o, "best", &err), -1);
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "'best'");
	assert_int_equal(idlesim_options_set_tunable(o, "menu", "nosuch", 1, &err), 0);
	assert_null(idlesim_run(f->m, f->t, "menu", o, &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "no tunable 'nosuch'");
	idlesim_options_free(o);

	o = idlesim_options_new();
	assert_int_equal(idlesim_options_disable_state(o, "C6", &err), 0);
	assert_null(idlesim_run(f->m, f->t, "menu", o, &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "no idle state 'C6'");
	idlesim_options_free(o);

	/* the first error wins; and the string is cut to its buffer */
	assert_null(idlesim_machine_load("nosuch", &err));
	assert_null(idlesim_machine_load("other", &err));
	assert_non_null(strstr(err.message, "nosuch"));
	assert_int_equal(strlen(idlesim_error_string(&err, buf, sizeof(buf))), sizeof(buf) - 1);
	memset(&err, 0, sizeof(err));
	assert_null(idlesim_run(f->m, NULL, "menu", NULL, &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "idlesim_run: trace: NULL");
	assert_null(idlesim_trace_open(NULL, &err));
	expect_error(&err, IDLESIM_ERR_INPUT, "", 0, 0, "idlesim_trace_open: NULL");
	/* NULL for err is allowed */
	assert_null(idlesim_machine_load("nosuch", NULL));
}

/* ---- two simulations at once ---- */

struct job {
	const idlesim_machine *m;
	const idlesim_trace *t;
	const idlesim_options *o;
	const char *gov;
	struct idlesim_summary sum;
	struct idlesim_state_stats st[16];
	size_t nr_decisions;
	struct idlesim_decision last;
	int ok;
};

static void job_init(struct job *j, const idlesim_machine *m, const idlesim_trace *t,
		     const idlesim_options *o, const char *gov)
{
	memset(j, 0, sizeof(*j));
	j->m = m;
	j->t = t;
	j->o = o;
	j->gov = gov;
}

static void *run_job(void *arg)
{
	struct job *j = arg;
	idlesim_result *r = idlesim_run(j->m, j->t, j->gov, j->o, NULL);
	int i;

	if (!r)
		return NULL;
	idlesim_result_summary(r, -1, &j->sum);
	for (i = 0; i < idlesim_result_state_count(r) && i < 16; i++)
		idlesim_result_state(r, -1, i, &j->st[i]);
	j->nr_decisions = idlesim_result_decision_count(r);
	if (j->nr_decisions)
		idlesim_result_decision(r, j->nr_decisions - 1, &j->last);
	idlesim_result_free(r);
	j->ok = 1;
	return NULL;
}

/*
 * menu@6.19 and teo@6.19 on skl over the demo trace (8 CPUs, 1 s) with a decision log: first
 * one after the other, then both at once in two threads sharing the machine, trace and
 * options objects, twice, each time on a new trace object (whose references both threads
 * ask for at once: one computes them, the other waits). Every number is the same.
 */
static void test_threads(void **state)
{
	idlesim_error err = { 0 };
	idlesim_machine *m = idlesim_machine_load("skl", &err);
	idlesim_trace *t = idlesim_trace_open(IDLESIM_SOURCE_DIR "/traces/demo.trace", &err);
	idlesim_options *o = idlesim_options_new();
	static struct job seq[2], par[2];
	pthread_t th[2];
	const char *govs[2] = { "menu@6.19", "teo@6.19" };
	int i, round;

	(void)state;
	assert_non_null(m);
	assert_non_null(t);
	idlesim_options_set_decision_log(o, 1000);
	for (i = 0; i < 2; i++) {
		job_init(&seq[i], m, t, o, govs[i]);
		run_job(&seq[i]);
		assert_true(seq[i].ok);
		assert_int_equal(seq[i].nr_decisions, 1000);
	}
	/* the two governors differ (else the comparison below would prove little) */
	assert_true(seq[0].sum.idle_entries != seq[1].sum.idle_entries);
	assert_int_equal(idlesim_trace_reference_runs(t), 1);
	for (round = 0; round < 2; round++) {
		idlesim_trace *tp = idlesim_trace_open(IDLESIM_SOURCE_DIR "/traces/demo.trace", &err);

		assert_non_null(tp);
		for (i = 0; i < 2; i++) {
			job_init(&par[i], m, tp, o, govs[i]);
			assert_int_equal(pthread_create(&th[i], NULL, run_job, &par[i]), 0);
		}
		for (i = 0; i < 2; i++) {
			assert_int_equal(pthread_join(th[i], NULL), 0);
			assert_true(par[i].ok);
			assert_memory_equal(&par[i].sum, &seq[i].sum, sizeof(seq[i].sum));
			assert_memory_equal(par[i].st, seq[i].st, sizeof(seq[i].st));
			assert_int_equal(par[i].nr_decisions, seq[i].nr_decisions);
			assert_memory_equal(&par[i].last, &seq[i].last, sizeof(seq[i].last));
		}
		assert_int_equal(idlesim_trace_reference_runs(tp), 1);
		idlesim_trace_free(tp);
	}
	idlesim_options_free(o);
	idlesim_trace_free(t);
	idlesim_machine_free(m);
}

/*
 * The references of regret run once per trace object and configuration: three governors on
 * one trace object cost one pass of the references, and a run served from them has the
 * numbers of a run that computed its own (a new trace object); another configuration (a
 * latency limit) runs them again, and a trace held in memory keeps them the same way.
 */
static void test_references_once(void **state)
{
	const struct fixture *f = *state;
	idlesim_error err = { 0 };
	idlesim_machine *m = idlesim_machine_load("skl", &err);
	idlesim_trace *t = idlesim_trace_open(IDLESIM_SOURCE_DIR "/traces/demo.trace", &err);
	idlesim_trace *fresh = idlesim_trace_open(IDLESIM_SOURCE_DIR "/traces/demo.trace", &err);
	idlesim_trace *text = idlesim_trace_from_string(tiny_trace, "tiny.trace", &err);
	idlesim_options *limit = idlesim_options_new();
	const char *govs[3] = { "menu@6.19", "teo@6.19", "ladder" };
	struct job cached[3], own;
	int i;

	assert_non_null(m);
	assert_non_null(t);
	assert_non_null(fresh);
	assert_non_null(text);
	assert_int_equal(idlesim_trace_reference_runs(t), 0);
	for (i = 0; i < 3; i++) {
		job_init(&cached[i], m, t, NULL, govs[i]);
		run_job(&cached[i]);
		assert_true(cached[i].ok);
		assert_true(cached[i].sum.has_regret);
		assert_int_equal(idlesim_trace_reference_runs(t), 1);
	}
	/* teo's regret from the references menu's run computed, bit for bit as its own */
	job_init(&own, m, fresh, NULL, "teo@6.19");
	run_job(&own);
	assert_true(own.ok);
	assert_int_equal(idlesim_trace_reference_runs(fresh), 1);
	assert_memory_equal(&own.sum, &cached[1].sum, sizeof(own.sum));
	assert_memory_equal(own.st, cached[1].st, sizeof(own.st));
	/* a latency limit changes the references' choices: a configuration of its own */
	assert_int_equal(idlesim_options_set_latency_limit_ns(limit, 50000, &err), 0);
	job_init(&own, m, t, limit, "teo@6.19");
	run_job(&own);
	assert_true(own.ok);
	assert_int_equal(idlesim_trace_reference_runs(t), 2);
	job_init(&own, m, t, limit, "menu@6.19");
	run_job(&own);
	assert_int_equal(idlesim_trace_reference_runs(t), 2);
	/* in memory, and on another machine: once per machine */
	for (i = 0; i < 2; i++) {
		job_init(&own, f->m, text, NULL, govs[i]);
		run_job(&own);
		assert_true(own.ok);
		assert_int_equal(idlesim_trace_reference_runs(text), 1);
	}
	job_init(&own, m, text, NULL, "menu@6.19");
	run_job(&own);
	assert_true(own.ok);
	assert_int_equal(idlesim_trace_reference_runs(text), 2);
	idlesim_options_free(limit);
	idlesim_trace_free(text);
	idlesim_trace_free(fresh);
	idlesim_trace_free(t);
	idlesim_machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_hand_checked_run),
		cmocka_unit_test(test_decision_log),
		cmocka_unit_test(test_disable),
		cmocka_unit_test(test_imported_trace),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_config_json),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_references_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
