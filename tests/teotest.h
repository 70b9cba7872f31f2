/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * teotest.h - what the TEO governor tests share (tests/test_teo.c, tests/test_teo_limits.c):
 * a trace replayed on skl at HZ 250 with each decision and the governor's decision log
 * recorded, and a harness that calls select()/reflect() directly on a hand-set device.
 */
#ifndef IDLESIM_TEOTEST_H
#define IDLESIM_TEOTEST_H

#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>

/* The run ends well after the last record: its last exit completes, so every entry counts
 * (traces/FORMAT.md, "End of the trace"). */
/* The jiffy grid at multiples of TICK_NSEC from 0, as these tests were written: without
 * tick_phase it would be at the trace's start, the first record's time. */
#define HDR "idlesim-trace v1\ncpus 1\nend 100000000000\ntick_phase 0\n"
#define MS 1000000LL
#define US 1000LL

/* ---- recording decisions with the governor's decision log ---- */

#define REC_MAX 128

struct dec {
	struct sim_decision d;
	struct cpuidle_explain ex;
};

struct reclog {
	int n;
	struct dec v[REC_MAX];
};

static struct reclog rlog; /* single-threaded tests */

static inline void rec_cb(void *ud, const struct sim_decision *d)
{
	struct reclog *l = ud;

	if (l->n >= REC_MAX)
		return;
	l->v[l->n].d = *d;
	l->v[l->n].ex = *d->gov; /* keys and strings are string literals */
	l->v[l->n].d.gov = NULL;
	l->n++;
}

static inline const struct cpuidle_explain_item *ex_item(const struct cpuidle_explain *ex,
							 const char *key)
{
	int i;

	for (i = 0; i < ex->nr; i++)
		if (!strcmp(ex->items[i].key, key))
			return &ex->items[i];
	return NULL;
}

/* A numeric decision-log value; fails the test if absent. */
static inline long long exv(const struct cpuidle_explain *ex, const char *key)
{
	const struct cpuidle_explain_item *it = ex_item(ex, key);

	if (!it || it->str) {
		fprintf(stderr, "decision log has no number \"%s\"\n", key);
		fail();
	}
	return it->val;
}

static inline const char *exs(const struct cpuidle_explain *ex, const char *key)
{
	const struct cpuidle_explain_item *it = ex_item(ex, key);

	if (!it || !it->str) {
		fprintf(stderr, "decision log has no string \"%s\"\n", key);
		fail();
	}
	return it->str;
}

#define D(k) (&rlog.v[(k)-1].d) /* decision k, 1-based, as in the comments */
#define X(k) (&rlog.v[(k)-1].ex)

struct topts {
	const struct cpuidle_governor *gov;
	uint32_t disabled;
	int64_t latency_req_ns; /* 0: none */
	const char *set_name;	/* one tunable to change, or NULL */
	long long set_val;
	const char *set_name2;
	long long set_val2;
};

/* Replay `text` on skl at HZ 250 through o->gov, logging every decision into rlog. */
static inline void run_trace(const char *text, const struct topts *o, struct run_stats *rs)
{
	struct sim_error err = {0};
	struct sim_config cfg = {0};
	struct machine m;
	struct trace_reader *r;
	struct record_source src;
	long long params[8];
	unsigned int i;

	assert_true(o->gov->nr_params <= 8);
	for (i = 0; i < o->gov->nr_params; i++)
		params[i] = o->gov->params[i].def;
	if (o->set_name) {
		int k = gov_param_index(o->gov, o->set_name);

		assert_true(k >= 0);
		params[k] = o->set_val;
	}
	if (o->set_name2) {
		int k = gov_param_index(o->gov, o->set_name2);

		assert_true(k >= 0);
		params[k] = o->set_val2;
	}
	assert_int_equal(machine_load("skl", &m, &err), 0);
	r = trace_open_string("<test>", text, &err);
	assert_non_null(r);
	cfg.machine = &m;
	cfg.gov = o->gov;
	cfg.gov_params = params;
	cfg.hz = 250;
	cfg.latency_req_ns = o->latency_req_ns ? o->latency_req_ns : -1;
	cfg.disabled = o->disabled;
	cfg.explain = rec_cb;
	cfg.explain_ud = &rlog;
	cfg.explain_limit = -1;
	memset(&rlog, 0, sizeof(rlog));
	record_source_from_trace(&src, r);
	if (replay_run(&src, &cfg, rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	trace_close(r);
}

static inline void run_release(const char *text, const struct topts *o)
{
	struct run_stats rs;

	run_trace(text, o, &rs);
	run_stats_release(&rs);
}

/* ---- a direct harness: select()/reflect() on a hand-set device ---- */

struct harness {
	const struct cpuidle_governor *gov;
	struct machine m;
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	long long params[8];
	union {
		max_align_t align;
		unsigned char b[1024];
	} priv;
	struct cpuidle_explain ex;
};

static struct harness hA;

static inline void h_init(struct harness *h, const struct cpuidle_governor *g)
{
	struct sim_error err = {0};
	unsigned int i;

	memset(h, 0, sizeof(*h));
	h->gov = g;
	assert_int_equal(machine_load("skl", &h->m, &err), 0);
	machine_to_driver(&h->m, &h->drv);
	for (i = 0; i < g->nr_params; i++)
		h->params[i] = g->params[i].def;
	assert_true(g->priv_size <= sizeof(h->priv));
	h->dev.last_state_idx = -1;
	h->dev.governor_data = h->priv.b;
	h->dev.gov_params = h->params;
	h->dev.env.tick_nsec = 4 * MS;
	h->dev.env.latency_req_ns = 2000000000000LL;
	h->dev.env.next_timer_ns = KTIME_MAX;
	h->dev.env.oracle_wake_ns = KTIME_MAX;
	h->dev.explain = &h->ex;
	assert_int_equal(g->enable(&h->drv, &h->dev), 0);
}

/* select() at `now` with the earliest timer at absolute `timer`; ticks at 4 ms multiples. */
static inline int h_select(struct harness *h, int64_t now, int64_t timer, bool tick_stopped,
			   bool *stop_tick)
{
	h->dev.env.now_ns = now;
	h->dev.env.next_timer_ns = timer;
	h->dev.env.next_tick_ns = (now / (4 * MS) + 1) * 4 * MS;
	h->dev.env.tick_stopped = tick_stopped;
	h->ex.nr = 0;
	*stop_tick = true;
	return h->gov->select(&h->drv, &h->dev, stop_tick);
}

/* What cpuidle_enter_state() leaves behind, then reflect() at `now` (wakeup + exit). */
static inline void h_reflect(struct harness *h, int64_t now, int idx, int64_t residency,
			     bool poll_limit, bool got_tick)
{
	h->dev.env.now_ns = now;
	h->dev.last_residency_ns = residency;
	h->dev.last_state_idx = idx;
	h->dev.poll_time_limit = poll_limit;
	h->dev.env.got_tick = got_tick;
	h->gov->reflect(&h->dev, idx);
}

#endif
