/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testutil.h - helpers shared by the cmocka tests: replay a trace given as a string, and a
 * scripted governor that returns preset choices and records what it was shown.
 */
#ifndef IDLESIM_TESTUTIL_H
#define IDLESIM_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "governors/governor.h"
#include "sim/engine/engine.h"
#include "sim/machine/machine.h"
#include "sim/engine/replay.h"
#include "sim/trace/trace.h"

/* ---- scripted governor ---- */

#define SCRIPT_MAX 64

struct seen {
	s64 now_ns;
	s64 sleep_length_ns;
	s64 delta_tick_ns;
	bool tick_stopped;
	bool got_tick;
	bool poll_time_limit;
	s64 latency_req_ns;
	s64 last_residency_ns;
	int last_state_idx;
	unsigned long nr_iowait;
	s64 oracle_idle_ns;
};

/* The script: state and stop_tick of each select (the last entry repeats). */
struct script {
	int n;
	int state[SCRIPT_MAX];
	bool stop_tick[SCRIPT_MAX];
	int calls;
	struct seen seen[SCRIPT_MAX];
	int reflects;
	int reflected[SCRIPT_MAX];
	bool reflect_reads_tick; /* reflect() calls tick_nohz_idle_got_tick(), as menu does */
	bool corrupt_time;	 /* reflect() adds a second to the state's time: a broken engine */
	bool reflect_got_tick[SCRIPT_MAX];
};

/* One script per test process: the tests are single-threaded. */
static struct script test_script;

static int scripted_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct script *s = &test_script;
	int k = s->calls < s->n ? s->calls : s->n - 1;
	ktime_t delta;

	(void)drv;
	if (s->calls < SCRIPT_MAX) {
		struct seen *w = &s->seen[s->calls];

		w->now_ns = (s64)local_clock(dev);
		w->sleep_length_ns = tick_nohz_get_sleep_length(dev, &delta);
		w->delta_tick_ns = delta;
		w->tick_stopped = tick_nohz_tick_stopped(dev);
		w->got_tick = tick_nohz_idle_got_tick(dev);
		w->poll_time_limit = dev->poll_time_limit;
		w->latency_req_ns = cpuidle_governor_latency_req(dev);
		w->last_residency_ns = dev->last_residency_ns;
		w->last_state_idx = dev->last_state_idx;
		w->nr_iowait = nr_iowait_cpu(dev);
		w->oracle_idle_ns = cpuidle_oracle_idle_ns(dev);
	}
	s->calls++;
	*stop_tick = s->stop_tick[k];
	return s->state[k];
}

static void scripted_reflect(struct cpuidle_device *dev, int index)
{
	struct script *s = &test_script;

	if (s->reflects < SCRIPT_MAX) {
		s->reflected[s->reflects] = index;
		if (s->reflect_reads_tick)
			s->reflect_got_tick[s->reflects] = tick_nohz_idle_got_tick(dev);
		if (s->corrupt_time)
			dev->states_usage[index].time_ns += NSEC_PER_SEC;
	}
	s->reflects++;
}

static const struct cpuidle_governor gov_scripted = {
	.name = "scripted",
	.summary = "test governor",
	.select = scripted_select,
	.reflect = scripted_reflect,
};

static inline void script_set(int state, bool stop_tick)
{
	memset(&test_script, 0, sizeof(test_script));
	test_script.n = 1;
	test_script.state[0] = state;
	test_script.stop_tick[0] = stop_tick;
}

/* ---- replaying a string ---- */

struct replay_opts {
	const char *machine; /* default "skl" */
	const struct cpuidle_governor *gov; /* default the scripted governor */
	int hz;			/* default 250 */
	int64_t latency_req_ns; /* default -1: none */
	uint32_t disabled;
	enum eventq_impl queue;
	bool global_order; /* one queue for all CPUs, not lanes */
	sim_explain_fn *explain;
	void *explain_ud;
	long explain_limit;
	const struct machine *mach; /* instead of `machine`: a machine built by the test */
	enum wake_model wake_model; /* default worst: the table's exit latencies */
	uint64_t wake_seed;
};

/* The decision log of a run (sim_config.explain = decision_log_add, explain_ud = the log). */
struct decision_log {
	struct sim_decision d[4096];
	int n;
};

static inline void decision_log_add(void *ud, const struct sim_decision *d)
{
	struct decision_log *l = ud;

	if (l->n < 4096) {
		l->d[l->n] = *d;
		l->d[l->n].gov = NULL;
		l->n++;
	}
}

static inline int replay_string(const char *text, const struct replay_opts *o, struct run_stats *rs,
				struct sim_error *err)
{
	struct machine m;
	struct sim_config cfg = { 0 };
	struct trace_reader *r;
	struct record_source src;
	int rc;

	if (o && o->mach)
		m = *o->mach;
	else if (machine_load(o && o->machine ? o->machine : "skl", &m, err))
		return -1;
	r = trace_open_string("<test>", text, err);
	if (!r)
		return -1;
	cfg.machine = &m;
	cfg.gov = o && o->gov ? o->gov : &gov_scripted;
	cfg.hz = o && o->hz ? o->hz : 250;
	cfg.latency_req_ns = o && o->latency_req_ns ? o->latency_req_ns : -1;
	cfg.disabled = o ? o->disabled : 0;
	cfg.queue = o ? o->queue : EVENTQ_HEAP;
	cfg.global_order = o ? o->global_order : false;
	cfg.wake_model = o ? o->wake_model : WAKE_MODEL_WORST;
	cfg.wake_seed = o ? o->wake_seed : 0;
	if (o && o->explain) {
		cfg.explain = o->explain;
		cfg.explain_ud = o->explain_ud;
		cfg.explain_limit = o->explain_limit;
	}
	record_source_from_trace(&src, r);
	rc = replay_run(&src, &cfg, rs, err);
	trace_close(r);
	return rc;
}

/* Replay and fail the test on error. */
static inline void replay_ok(const char *text, const struct replay_opts *o, struct run_stats *rs)
{
	struct sim_error err = { 0 };

	if (replay_string(text, o, rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
}

/* Two runs gave the same statistics, to the last bit of every counter and energy. */
static inline void assert_same_stats(const struct run_stats *a, const struct run_stats *b)
{
	int c;

	assert_int_equal(a->nr_cpus, b->nr_cpus);
	for (c = 0; c < a->nr_cpus; c++) {
		const struct cpu_stats *x = &a->cpus[c], *y = &b->cpus[c];
		const struct lat_hist *hx = &x->wake_latency, *hy = &y->wake_latency;

		assert_memory_equal(x->states, y->states, sizeof(x->states));
		assert_memory_equal(x->wakeups, y->wakeups, sizeof(x->wakeups));
		assert_int_equal(x->absorbed, y->absorbed);
		assert_int_equal(x->idle_periods, y->idle_periods);
		assert_int_equal(x->busy_ns, y->busy_ns);
		assert_int_equal(x->truncated_ns, y->truncated_ns);
		assert_int_equal(hx->n, hy->n);
		assert_int_equal(hx->sum_ns, hy->sum_ns);
		assert_int_equal(hx->max_ns, hy->max_ns);
		assert_int_equal(lat_hist_percentile(hx, 50), lat_hist_percentile(hy, 50));
		assert_int_equal(lat_hist_percentile(hx, 99), lat_hist_percentile(hy, 99));
	}
	assert_true(a->energy_j == b->energy_j);
	assert_true(a->idle_energy_j == b->idle_energy_j);
	assert_true(a->transition_energy_j == b->transition_energy_j);
	assert_true(a->package_energy_j == b->package_energy_j);
	assert_true(a->cpu_energy_j == b->cpu_energy_j);
}

/* skl state indices (intel_idle skl_cstates after POLL). */
enum { POLL = 0, C1, C1E, C3, C6, C7S, C8, C9, C10 };

#endif
