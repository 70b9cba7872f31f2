/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * menutest.h - what the menu governor tests share (tests/test_menu.c,
 * tests/test_menu_limits.c, tests/test_menu_behaviour.c): its versions, a decision log, a
 * trace or a generated workload replayed through one version on skl at HZ 250, traces
 * built in memory, and a harness that calls select() and reflect() directly.
 */
#ifndef IDLESIM_MENUTEST_H
#define IDLESIM_MENUTEST_H

#include "tests/testutil.h"

#include <stdlib.h>

/* The ports register through cpuidle_register_governor(): looked up by name. */
static const char *const versions[] = {"menu@4.18", "menu@6.6", "menu@6.19"};
enum { V4_18, V6_6, V6_19, NR_VERSIONS };

/* The run ends well after the last record: its last exit completes, so every entry counts
 * (traces/FORMAT.md, "End of the trace"). */
/* The jiffy grid at multiples of TICK_NSEC from 0, as these tests were written: without
 * tick_phase it would be at the trace's start, the first record's time. */
#define HDR "idlesim-trace v1\ncpus 1\nend 100000000000\ntick_phase 0\n"
#define MS 1000000LL
#define US 1000LL

/* ---- decision log ---- */

struct rec {
	int64_t time_ns;
	int state;
	bool stop_tick;
	bool tick_stopped_before;
	int nitems;
	struct cpuidle_explain_item items[CPUIDLE_EXPLAIN_MAX];
};

#define LOG_MAX 256

struct dlog {
	int n;
	struct rec r[LOG_MAX];
};

static inline void log_decision(void *ud, const struct sim_decision *d)
{
	struct dlog *l = ud;
	struct rec *r;

	if (l->n >= LOG_MAX)
		return;
	r = &l->r[l->n++];
	r->time_ns = d->time_ns;
	r->state = d->state;
	r->stop_tick = d->stop_tick;
	r->tick_stopped_before = d->tick_stopped_before;
	r->nitems = d->gov ? d->gov->nr : 0;
	if (r->nitems)
		memcpy(r->items, d->gov->items, sizeof(r->items[0]) * (size_t)r->nitems);
}

static inline const struct cpuidle_explain_item *item(const struct cpuidle_explain_item *it,
						      int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(it[i].key, key))
			return &it[i];
	fail_msg("no explain key %s", key);
	return NULL;
}

static inline long long val(const struct rec *r, const char *key)
{
	const struct cpuidle_explain_item *it = item(r->items, r->nitems, key);

	assert_null(it->str);
	return it->val;
}

static inline const char *str(const struct rec *r, const char *key)
{
	const struct cpuidle_explain_item *it = item(r->items, r->nitems, key);

	assert_non_null(it->str);
	return it->str;
}

/* ---- replaying a trace or a generated workload through one version ---- */

struct ropt {
	const char *machine;
	bool latency_set;
	int64_t latency_req_ns;
	uint32_t disabled;
	const long long *params;
};

static inline void run_source(struct record_source *src, const struct cpuidle_governor *gov,
			      const struct ropt *o, struct dlog *log, struct run_stats *rs)
{
	struct sim_config cfg = {0};
	struct sim_error err = {0};
	struct machine m;

	assert_int_equal(machine_load(o && o->machine ? o->machine : "skl", &m, &err), 0);
	cfg.machine = &m;
	cfg.gov = gov;
	cfg.gov_params = o ? o->params : NULL;
	cfg.hz = 250;
	cfg.latency_req_ns = o && o->latency_set ? o->latency_req_ns : -1;
	cfg.disabled = o ? o->disabled : 0;
	cfg.queue = EVENTQ_HEAP;
	if (log) {
		log->n = 0;
		cfg.explain = log_decision;
		cfg.explain_ud = log;
		cfg.explain_limit = -1;
	}
	if (replay_run(src, &cfg, rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
}

static inline void run_trace(const char *text, const struct cpuidle_governor *gov,
			     const struct ropt *o, struct dlog *log, struct run_stats *rs)
{
	struct sim_error err = {0};
	struct trace_reader *r = trace_open_string("<test>", text, &err);
	struct record_source src;

	assert_non_null(r);
	record_source_from_trace(&src, r);
	run_source(&src, gov, o, log, rs);
	trace_close(r);
}

/* Append "idle 0 START LENGTH CAUSE [extra]" to a trace being built. */
struct tbuf {
	char s[16384];
	size_t len;
};

static inline void tb_init(struct tbuf *t)
{
	t->len = (size_t)snprintf(t->s, sizeof(t->s), HDR);
}

static inline void tb_idle(struct tbuf *t, long long start, long long len, const char *tail)
{
	int n = snprintf(t->s + t->len, sizeof(t->s) - t->len, "idle 0 %lld %lld %s\n", start, len,
			 tail);

	assert_true(n > 0 && (size_t)n < sizeof(t->s) - t->len);
	t->len += (size_t)n;
}

static inline struct dlog *new_log(void)
{
	struct dlog *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	return l;
}

/* ---- calling select() and reflect() directly ---- */

/*
 * Calling select() and reflect() directly. Replayed, a period starts late by the exit
 * latency of the entry before it (work conservation, traces/FORMAT.md), so the intervals a
 * replay feeds menu depend on its own earlier choices; the tests of get_typical_interval()
 * (tests/test_menu.c) and of the latency limits (tests/test_menu_limits.c) feed exact
 * intervals this way instead. Also what the engine cannot produce: a negative sleep length
 * (its next timer is never in the past at entry). Replays reach the tick-stopped branch too
 * (test_replay.c, tick_stopped_branches).
 */
struct hx {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	const struct cpuidle_governor *gov;
	long long params[16];
	void *priv;
	struct cpuidle_explain ex;
	struct rec r; /* the last select's log */
};

static inline void hx_init(struct hx *h, const struct cpuidle_governor *g)
{
	struct sim_error err = {0};
	struct machine m;
	unsigned int i;

	memset(h, 0, sizeof(*h));
	assert_int_equal(machine_load("skl", &m, &err), 0);
	machine_to_driver(&m, &h->drv);
	h->gov = g;
	assert_true(g->nr_params <= 16);
	for (i = 0; i < g->nr_params; i++)
		h->params[i] = g->params[i].def;
	h->priv = calloc(1, g->priv_size);
	assert_non_null(h->priv);
	h->dev.governor_data = h->priv;
	h->dev.gov_params = h->params;
	h->dev.last_state_idx = -1;
	h->dev.env.tick_nsec = 4 * MS;
	h->dev.env.latency_req_ns = 2000000000000LL;
	h->dev.env.next_timer_ns = KTIME_MAX;
	h->dev.env.oracle_wake_ns = KTIME_MAX;
	h->dev.explain = &h->ex;
	assert_int_equal(g->enable(&h->drv, &h->dev), 0);
}

static inline int hx_select(struct hx *h, s64 now, s64 next_timer, bool tick_stopped,
			    bool *stop_tick)
{
	int idx;

	h->dev.env.now_ns = now;
	h->dev.env.next_timer_ns = next_timer;
	h->dev.env.next_tick_ns = (now / (4 * MS) + 1) * 4 * MS;
	h->dev.env.tick_stopped = tick_stopped;
	h->ex.nr = 0;
	*stop_tick = true;
	idx = h->gov->select(&h->drv, &h->dev, stop_tick);
	h->r.nitems = h->ex.nr;
	memcpy(h->r.items, h->ex.items, sizeof(h->ex.items));
	return idx;
}

/* An entry of state idx that lasted len_ns, as the engine reports it: diff = len_ns + exit
 * latency (cpuidle_enter_state() reads the clock after the exit), no tick, no POLL limit. */
static inline void hx_entry(struct hx *h, int idx, s64 len_ns)
{
	h->dev.last_residency_ns = len_ns + h->drv.states[idx].exit_latency_ns;
	h->dev.last_state_idx = idx;
	h->dev.poll_time_limit = false;
	h->dev.env.got_tick = false;
	h->gov->reflect(&h->dev, idx);
}

/*
 * One period per 4 ms, without the engine: period k starts at k * 4 ms + 0.5 ms and lasts
 * len_us[k] in the state menu selects, ended by its timer when shorter than 100 us, else by
 * an irq with no timer pending; iowait and load (FIXED_1 = 2048) as a trace's iowait= and
 * load= give them (they stay set for the probe). Then the probe: a select at
 * n * 4 ms + 0.5 ms with no timer pending, whose state is returned.
 */
static inline int hx_periods(struct hx *h, const long long *len_us, int n, unsigned long iowait,
			     unsigned long load, bool *stop)
{
	int k;

	h->dev.env.nr_iowait = iowait;
	h->dev.env.load = load;
	for (k = 0; k < n; k++) {
		s64 now = k * 4 * MS + 500 * US;
		int idx = hx_select(h, now, len_us[k] < 100 ? now + len_us[k] * US : KTIME_MAX,
				    false, stop);

		hx_entry(h, idx, len_us[k] * US);
	}
	return hx_select(h, n * 4 * MS + 500 * US, KTIME_MAX, false, stop);
}

#endif
