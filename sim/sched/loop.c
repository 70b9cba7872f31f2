// SPDX-License-Identifier: GPL-2.0-only
/*
 * loop.c - closed-loop workloads: items of work arriving on CPUs, run inside the engine.
 *
 * The loop is the engine's agent (sim/engine/engine.h). For each CPU it keeps the items that have
 * arrived or will arrive (a small heap by arrival, then sending order) and the one it runs:
 *
 *   idle     a period has been fed to the engine (sim_idle) from the end of the last work;
 *            its wakeup is the earliest pending arrival (sim_wake, or sim_rewake when an
 *            earlier one is sent later), unknown while nothing is pending;
 *   running  the engine said the CPU runs again (ready); it works on the earliest arrived
 *            item until an agent timer (one per CPU) marks the end of that work, then the
 *            model reacts and the CPU takes the next arrived item, or goes idle.
 *
 * Items sent to a CPU that runs, or whose wakeup is already set earlier, simply wait. The
 * sleep length the governor sees is the earliest pending item that arrives by a timer; the
 * tick-stop rule sees the earliest such item that is not an hrtimer. A deferrable timer
 * item neither wakes an idle CPU nor counts; it runs when the CPU runs again.
 *
 * Timer migration (loop_world.tmigr, v6.12 kernel/time/timer.c __get_next_timer_interrupt()
 * and timer_migration.c tmigr_quick_check()): global timer items wait in one pool, not on
 * their CPU. A CPU going idle counts its own global timers only when the first of its wheel
 * timers is due by the next jiffy edge; otherwise only if every other CPU is inactive (idle
 * with its tick stopped: it is the last active CPU, "lonely" up to the top of the
 * hierarchy), and then the earliest global timer of all. A pool item runs when due (agent
 * timer nr_cpus) on its own CPU if that is active, else on the lowest-numbered active CPU
 * (the migrator, simplified: the kernel's is an active CPU of the nearest group that has
 * one), else on the CPU that went idle last, which armed its hardware for it.
 *
 * For the oracle, loop_run() runs the loop twice, as sim/sched/loop.h explains.
 */
#include "sim/sched/loop.h"
#include "sim/sched/loop_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/base/progress.h"
#include "sim/engine/replay.h"
#include "sim/engine/wheel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- randomness: one splitmix64 stream per use, so models stay reproducible ---- */

uint64_t loop_rand(struct loop *L, int stream)
{
	return sim_splitmix64(&L->rng[(unsigned int)stream % LOOP_STREAMS]);
}

int64_t loop_uniform(struct loop *L, int stream, int64_t lo, int64_t hi)
{
	if (hi <= lo)
		return lo;
	return lo + (int64_t)(loop_rand(L, stream) % (uint64_t)(hi - lo + 1));
}

int64_t loop_exp(struct loop *L, int stream, int64_t mean_ns)
{
	double u = (double)((loop_rand(L, stream) >> 11) + 1) * (1.0 / 9007199254740992.0);
	double v = -(double)mean_ns * log(u);

	return v < 1.0 ? 1 : (int64_t)(v + 0.5);
}

/* Run the pool's due items where the header comment says; re-arm its timer. */
static int pool_fire(struct loop *L, int64_t t, struct sim_error *err)
{
	struct loop_item it;
	int j, to;

	while (L->pool.nr_pending && L->pool.pending[0].arrival_ns <= t) {
		loop_pop_item(&L->pool, &it);
		L->cpus[it.cpu].nr_pooled--;
		to = loop_cpu_active(L, it.cpu) ? it.cpu : -1;
		for (j = 0; j < L->nr_cpus && to < 0; j++)
			if (loop_cpu_active(L, j))
				to = j;
		if (to < 0)
			to = L->last_idle_cpu >= 0 ? L->last_idle_cpu : it.cpu;
		it.cpu = to;
		it.global = false;
		it.arrival_ns = t;
		if (loop_send(L, &it, err))
			return -1;
	}
	sim_agent_timer(L->S, (uint32_t)L->nr_cpus,
			L->pool.nr_pending ? L->pool.pending[0].arrival_ns : SIM_TIME_NEVER);
	return 0;
}

int64_t loop_wheel_expiry(const struct loop *L, int64_t timeout_ns)
{
	const struct jiffy_grid *g = sim_grid(L->S);
	int64_t clk = jiffy_of(g, sim_now(L->S));

	return jiffy_edge_ns(g, wheel_bucket_expiry(g->hz, clk + jiffies_round_up(g, timeout_ns),
						    clk));
}

const struct jiffy_grid *loop_grid(const struct loop *L)
{
	return sim_grid(L->S);
}

int64_t loop_jiffy_edge(const struct loop *L, int64_t t_ns)
{
	return jiffy_edge_at_or_after(sim_grid(L->S), t_ns);
}

int loop_set_world(struct loop *L, const struct loop_world *w, struct sim_error *err)
{
	L->world = *w;
	if (w->sched && !L->sched)
		return loop_sched_init(L, L->machine, err);
	return 0;
}

/* ---- the CPU's life ---- */

/* Run the next arrived item, or go idle. */
static int run_next(struct loop *L, int cpu, int64_t t, struct sim_error *err)
{
	struct lcpu *c = &L->cpus[cpu];

	if (!c->nr_pending || c->pending[0].arrival_ns > t)
		return loop_go_idle(L, cpu, t, err);
	loop_pop_item(c, &c->cur);
	c->cur.start_ns = t;
	c->has_cur = true;
	c->state = L_RUNNING;
	sim_agent_timer(L->S, (uint32_t)cpu, t + c->cur.work_ns);
	return 0;
}

static int agent_ready(void *ctx, struct sim *S, int cpu, int64_t t, struct sim_error *err)
{
	struct loop *L = ctx;

	(void)S;
	if (loop_record_period(L, cpu, L->cpus[cpu].wake_ns))
		return sim_error_nomem(err, "");
	if (L->sched)
		return loop_sched_ready(L, cpu, t, err);
	return run_next(L, cpu, t, err);
}

static int agent_timer(void *ctx, struct sim *S, uint32_t cpu, int64_t t, struct sim_error *err)
{
	struct loop *L = ctx;
	struct lcpu *c;
	struct loop_item done;

	(void)S;
	if (cpu == (uint32_t)L->nr_cpus)
		return pool_fire(L, t, err);
	if (L->sched)
		return loop_sched_timer(L, (int)cpu, t, err);
	c = &L->cpus[cpu];
	done = c->cur;
	c->has_cur = false;
	if (L->tl)
		loop_keep_segment(L, (int)cpu, LOOP_SEG_WORK, done.start_ns, t, false);
	loop_rcu_queued(L, (int)cpu, &done, t);
	if (L->ops->done(L->model, L, &done, t, err))
		return -1;
	return run_next(L, (int)cpu, t, err);
}

static const struct sim_agent_ops loop_agent = {
	.ready = agent_ready,
	.timer = agent_timer,
};

/* ---- what models call ---- */

int loop_send(struct loop *L, const struct loop_item *it, struct sim_error *err)
{
	struct loop_item x = *it;
	struct lcpu *c;

	if (x.cpu < 0 || x.cpu >= L->nr_cpus || x.arrival_ns < sim_now(L->S) || x.work_ns < 0)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "workload sent an item to CPU %d at %lld ns that cannot run",
				     x.cpu, (long long)x.arrival_ns);
	if (x.tid < 0 || x.tid > LOOP_MAX_TASKS)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "workload sent work to task %d (tasks are 1..%d)", x.tid,
				     LOOP_MAX_TASKS);
	x.seq = L->seq++;
	if (x.global && L->world.tmigr && x.cause == WAKE_TIMER && !x.hrtimer && !x.deferrable) {
		if (loop_push_item(&L->pool, &x))
			return sim_error_nomem(err, "");
		L->cpus[x.cpu].nr_pooled++;
		if (L->pool.pending[0].seq == x.seq)
			sim_agent_timer(L->S, (uint32_t)L->nr_cpus, x.arrival_ns);
		return 0;
	}
	if (L->sched)
		return loop_sched_send(L, &x, err);
	c = &L->cpus[x.cpu];
	if (loop_push_item(c, &x))
		return sim_error_nomem(err, "");
	if (c->state != L_IDLE || x.deferrable)
		return 0;
	return loop_wake_idle(L, x.cpu, x.arrival_ns, x.cause, err);
}

int loop_request_done(struct loop *L, int64_t latency_ns, uint64_t bytes, struct sim_error *err)
{
	L->requests++;
	L->bytes += bytes;
	return lat_hist_add(&L->latency, latency_ns, 1) ? sim_error_nomem(err, "") : 0;
}

void loop_iowait(struct loop *L, int cpu, int delta)
{
	if (L->sched) {
		loop_sched_iowait(L, cpu, delta);
		return;
	}
	L->cpus[cpu].iowait += delta;
	if (L->cpus[cpu].iowait < 0)
		L->cpus[cpu].iowait = 0;
}

int64_t loop_now(const struct loop *L)
{
	return sim_now(L->S);
}

/* ---- running ---- */

static void loop_free(struct loop *L)
{
	int i;

	if (L->cpus)
		for (i = 0; i < L->nr_cpus; i++)
			sim_free(L->cpus[i].pending);
	sim_free(L->cpus);
	sim_free(L->pool.pending);
	sim_free(L->periods);
	sim_free(L->segs);
	lat_hist_release(&L->latency);
	loop_sched_free(L);
}

static int loop_init(struct loop *L, const struct loop_model_ops *ops, void *model, int nr_cpus,
		     int64_t duration_ns, uint64_t seed)
{
	int i;

	memset(L, 0, sizeof(*L));
	L->ops = ops;
	L->model = model;
	L->nr_cpus = nr_cpus;
	L->end_ns = duration_ns;
	L->last_idle_cpu = -1;
	L->active_hint = -1;
	lat_hist_init(&L->latency);
	for (i = 0; i < LOOP_STREAMS; i++) {
		L->rng[i] = seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(i + 1));
		sim_splitmix64(&L->rng[i]);
	}
	L->cpus = sim_calloc((size_t)nr_cpus, sizeof(*L->cpus));
	return L->cpus ? 0 : -1;
}

/* One closed-loop simulation. */
static int run_closed(struct loop *L, const struct sim_config *cfg, struct run_stats *stats,
		      struct sim_error *err)
{
	struct sim_config c = *cfg;
	int i, rc = -1;

	c.agent = &loop_agent;
	c.agent_ctx = L;
	c.agent_timers = (uint32_t)cfg->nr_cpus + 1; /* + the timer-migration pool's */
	L->S = sim_create(&c, 0, err);
	if (!L->S)
		return -1;
	L->machine = c.machine;
	sim_set_end(L->S, L->end_ns);
	for (i = 0; i < L->nr_cpus; i++)
		L->cpus[i].state = L_RUNNING;
	if (L->ops->start(L->model, L, err))
		goto out;
	for (i = 0; i < L->nr_cpus; i++)
		if (L->sched ? loop_sched_ready(L, i, 0, err) : run_next(L, i, 0, err))
			goto out;
	if (sim_finish(L->S, L->end_ns, stats, err))
		goto out;
	if (L->tl && L->sched) /* what still runs at the end, cut there */
		loop_sched_close_segments(L);
	for (i = 0; i < L->nr_cpus && L->tl && !L->sched; i++)
		if (L->cpus[i].has_cur)
			loop_keep_segment(L, i, LOOP_SEG_WORK, L->cpus[i].cur.start_ns, L->end_ns,
					  false);
	/* Periods still open at the end, cut there by the replay. A failure here gives back
	 * what sim_finish() handed over. */
	for (i = 0; i < L->nr_cpus && L->record; i++)
		if (L->cpus[i].state == L_IDLE &&
		    loop_record_period(L, i, sim_max64(L->cpus[i].wake_ns == SIM_TIME_NEVER
							    ? L->end_ns + 1
							    : L->cpus[i].wake_ns,
						    L->cpus[i].idle_start_ns + 1))) {
			run_stats_release(stats);
			sim_error_nomem(err, "");
			goto out;
		}
	rc = 0;
out:
	sim_destroy(L->S);
	L->S = NULL;
	return rc;
}

/* ---- pass 2: the periods of pass 1 as a record source ---- */

struct period_src {
	struct trace_header hdr;
	const struct lperiod *p;
	size_t n, i;
};

static int period_next(void *ctx, struct trace_record *rec, struct sim_error *err)
{
	struct period_src *ps = ctx;
	const struct lperiod *p;

	(void)err;
	while (ps->i < ps->n && ps->p[ps->i].wake_ns <= ps->p[ps->i].start_ns)
		ps->i++; /* woken as it became idle: not an idle period */
	if (ps->i == ps->n)
		return 0;
	p = &ps->p[ps->i];
	memset(rec, 0, sizeof(*rec));
	rec->kind = TRACE_IDLE;
	rec->cpu = p->cpu;
	rec->time_ns = p->start_ns;
	rec->length_ns = p->wake_ns - p->start_ns;
	rec->cause = p->cause;
	rec->next_timer_ns = p->next_timer_ns == SIM_TIME_NEVER ? -1 : p->next_timer_ns - p->start_ns;
	if (p->next_timer_ns != SIM_TIME_NEVER && p->next_wheel_ns != p->next_timer_ns) {
		rec->timer_kind = TIMER_HRTIMER;
		rec->next_wheel_ns = p->next_wheel_ns == SIM_TIME_NEVER
					     ? -1
					     : p->next_wheel_ns - p->start_ns;
	}
	rec->keep_tick_ns = p->keep_tick_until_ns ? p->keep_tick_until_ns - p->start_ns : 0;
	rec->iowait = (unsigned int)p->iowait;
	rec->has_iowait = p->iowait != 0;
	rec->index = (long)ps->i++;
	return 1;
}

static int period_error(void *ctx, const struct trace_record *rec, struct sim_error *err,
			const char *msg)
{
	(void)ctx;
	return sim_error_set(err, SIM_ERR_INTERNAL, "<closed loop>", 0, 0, "period %ld: %s",
			     rec->index, msg);
}

static int by_start(const void *a, const void *b)
{
	const struct lperiod *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->cpu - y->cpu;
}

/*
 * Pass 1: the loop on a machine whose only state is POLL without exit latency, so a CPU
 * runs the moment it is woken; its idle periods are kept, sorted by start. `machine` gives
 * the topology (NULL: one package of nr_cpus single-thread cores).
 */
static int run_ideal(struct loop *L, const struct sim_config *cfg, struct sim_error *err)
{
	struct machine ideal;
	struct sim_config c1 = *cfg;
	struct run_stats scratch;

	if (cfg->machine) {
		ideal = *cfg->machine;
	} else {
		memset(&ideal, 0, sizeof(ideal));
		snprintf(ideal.name, sizeof(ideal.name), "ideal");
		ideal.packages = ideal.threads = 1;
		ideal.cores = L->nr_cpus;
		snprintf(ideal.states[0].name, sizeof(ideal.states[0].name), "POLL");
	}
	ideal.state_count = 1;
	ideal.states[0].flags |= CPUIDLE_FLAG_POLLING;
	ideal.states[0].exit_latency_ns = 0;
	ideal.states[0].target_residency_ns = 0;
	ideal.states[0].default_off = false;
	memset(&ideal.states[0].wake, 0, sizeof(ideal.states[0].wake)); /* no exit at all */
	c1.machine = &ideal;
	c1.wake_model = WAKE_MODEL_WORST;
	c1.gov = gov_find("shallowest");
	c1.disabled = 0;
	c1.explain = NULL;
	if (!c1.hz)
		c1.hz = 250;
	L->record = true;
	if (run_closed(L, &c1, &scratch, err))
		return -1;
	run_stats_release(&scratch);
	/* A period's wakeup is its earliest pending arrival, so its timer never comes first.
	 * A run in which no CPU ever idles has none (and no array: qsort(NULL) is undefined). */
	if (L->nr_periods)
		qsort(L->periods, L->nr_periods, sizeof(*L->periods), by_start);
	return 0;
}

static void period_source(struct loop *L, struct period_src *ps, struct record_source *src)
{
	memset(ps, 0, sizeof(*ps));
	ps->hdr.version = TRACE_VERSION;
	ps->hdr.cpus = L->nr_cpus;
	ps->hdr.has_start = ps->hdr.has_end = true;
	ps->hdr.start_ns = 0;
	ps->hdr.end_ns = L->end_ns;
	ps->hdr.as_recorded = true; /* the closed loop fired its timers where it did */
	ps->p = L->periods;
	ps->n = L->nr_periods;
	src->hdr = &ps->hdr;
	src->next = period_next;
	src->error_at = period_error;
	src->ctx = ps;
}

/* The oracle: pass 1, then a replay of its periods through the oracle (pass 2). */
static int run_oracle(struct loop *L, const struct sim_config *cfg, struct run_stats *stats,
		      struct sim_error *err)
{
	struct period_src ps;
	struct record_source src;

	if (run_ideal(L, cfg, err))
		return -1;
	period_source(L, &ps, &src);
	return replay_run(&src, cfg, stats, err);
}

int loop_write_ideal(const struct loop_model_ops *ops, void *model, int nr_cpus,
		     int64_t duration_ns, uint64_t seed, const struct trace_header *hdr, FILE *f,
		     FILE *progress, struct sim_error *err)
{
	struct progress bar;
	unsigned int calls = 0;
	struct sim_config cfg = { 0 };
	struct trace_header h = *hdr;
	struct trace_record rec;
	struct period_src ps;
	struct record_source src;
	struct loop L;
	int rc = -1, got;

	if (loop_init(&L, ops, model, nr_cpus, duration_ns, seed)) {
		loop_free(&L);
		return sim_error_nomem(err, "");
	}
	cfg.nr_cpus = nr_cpus;
	cfg.latency_req_ns = -1;
	cfg.hz = hdr->hz; /* the header's HZ is the grid the timers fire on (0: 250) */
	progress_init(&bar, progress, "s", 1000);
	if (run_ideal(&L, &cfg, err))
		goto out;
	period_source(&L, &ps, &src);
	h.version = TRACE_VERSION;
	h.cpus = nr_cpus;
	h.has_start = h.has_end = true;
	h.start_ns = 0;
	h.end_ns = duration_ns;
	if (trace_write_header(f, &h))
		goto io;
	while ((got = src.next(src.ctx, &rec, err)) > 0) {
		if (trace_write_record(f, &rec))
			goto io;
		progress_trace_time(&bar, &calls, rec.time_ns, 0, duration_ns);
	}
	rc = got < 0 ? -1 : 0;
	if (!rc) /* the full bar, if one is drawn */
		progress_trace_time(&bar, &calls, duration_ns, 0, duration_ns);
	goto out;
io:
	sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
out:
	progress_end(&bar);
	loop_free(&L);
	return rc;
}

int loop_run(const struct sim_config *cfg, const struct loop_model_ops *ops, void *model,
	     int64_t duration_ns, uint64_t seed, struct loop_result *out, struct sim_error *err)
{
	return loop_run_timeline(cfg, ops, model, duration_ns, seed, NULL, out, err);
}

int loop_run_timeline(const struct sim_config *cfg, const struct loop_model_ops *ops,
		      void *model, int64_t duration_ns, uint64_t seed,
		      const struct loop_timeline *tl, struct loop_result *out,
		      struct sim_error *err)
{
	struct loop L;
	int rc;

	memset(out, 0, sizeof(*out));
	if (loop_init(&L, ops, model, cfg->nr_cpus, duration_ns, seed)) {
		loop_free(&L);
		return sim_error_nomem(err, "");
	}
	L.tl = cfg->gov->oracle ? NULL : tl;
	rc = cfg->gov->oracle ? run_oracle(&L, cfg, &out->stats, err)
			       : run_closed(&L, cfg, &out->stats, err);
	if (!rc && L.segs_nomem) {
		run_stats_release(&out->stats);
		rc = sim_error_nomem(err, "");
	}
	if (!rc) {
		out->segs = L.segs;
		out->nr_segs = L.nr_segs;
		out->segs_cut = L.segs_cut;
		L.segs = NULL; /* moved to out */
		out->requests = L.requests;
		out->bytes = L.bytes;
		out->duration_s = (double)duration_ns / 1e9;
		out->latency = L.latency;
		L.latency.chunks = NULL; /* moved to out */
		if (loop_sched_result(&L, &out->sched)) {
			loop_result_release(out);
			rc = sim_error_nomem(err, "");
		}
	}
	loop_free(&L);
	return rc;
}

void loop_result_release(struct loop_result *r)
{
	run_stats_release(&r->stats);
	lat_hist_release(&r->latency);
	sim_free(r->sched.cpu);
	sim_free(r->sched.task);
	sim_free(r->segs);
	memset(r, 0, sizeof(*r));
}
