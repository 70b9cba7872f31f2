// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen.c - synthetic workloads as a stream of idle-interval records.
 *
 * Each CPU is simulated on its own in trace time: a set of wakeup sources (periodic
 * timers, fixed-interval or Poisson interrupts), and the end of its current work. The CPU
 * is idle from the end of its work to the earliest next event; that event wakes it and
 * brings busy_ns of work; events that arrive while it works queue more work. CPUs are
 * merged by the start of their next idle period through a small event queue, so records
 * come out in time order and memory does not depend on the duration.
 *
 * Randomness: splitmix64, seeded from (seed, CPU), so a CPU's stream does not depend on
 * how many CPUs there are. Exponential gaps use -mean * log(u), rounded to the nearest ns
 * and at least 1 ns.
 */
#include "sim/workload/gen.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/base/eventq.h"
#include "sim/base/progress.h"

#include <math.h>
#include <string.h>

#define GEN_MAX_SOURCES 4

enum src_kind { SRC_TIMER, SRC_FIXED, SRC_POISSON };

struct source {
	enum src_kind kind;
	enum wake_cause cause;
	int64_t param_ns; /* period, interval or mean */
	int64_t next_ns;  /* next event */
	bool hrtimer;	  /* a timer: an hrtimer, not a timer-wheel timer */
	/* An hrtimer's slack: next_ns is its hard expiry, and any timer interrupt from
	 * next_ns - slack_ns on runs it too (__hrtimer_run_queues(): its soft expiry passed). */
	int64_t slack_ns;
};

struct gcpu {
	uint64_t rng;
	uint64_t rng_wake; /* for --no-wake-pct, apart: other streams stay as they were */
	int nr_src;
	struct source src[GEN_MAX_SOURCES];
	int64_t work_end_ns; /* the CPU is busy until then */
	bool done;
	struct trace_record next; /* the next record, ready */
};

struct gen_stream {
	struct gen_config cfg;
	struct trace_header hdr;
	struct gcpu *cpus;
	struct eventq *q;
	long index;
};

static const char *const workload_names[GEN_NR_WORKLOADS] = {
	[GEN_PERIODIC] = "periodic",
	[GEN_IRQ_FIXED] = "irq-fixed",
	[GEN_IRQ_POISSON] = "irq-poisson",
	[GEN_MIXED] = "mixed",
};

const char *gen_workload_name(enum gen_workload w)
{
	return w < GEN_NR_WORKLOADS ? workload_names[w] : "?";
}

int gen_workload_parse(const char *name, enum gen_workload *w)
{
	int i;

	for (i = 0; i < GEN_NR_WORKLOADS; i++) {
		if (!strcmp(name, workload_names[i])) {
			*w = (enum gen_workload)i;
			return 0;
		}
	}
	return -1;
}

int gen_timer_kind_parse(const char *name, enum gen_timer_kind *k)
{
	static const char *const names[GEN_NR_TIMER_KINDS] = {
		[GEN_TIMER_WHEEL] = "wheel",
		[GEN_TIMER_HRTIMER] = "hrtimer",
		[GEN_TIMER_MIX] = "mix",
	};
	int i;

	for (i = 0; i < GEN_NR_TIMER_KINDS; i++) {
		if (!strcmp(name, names[i])) {
			*k = (enum gen_timer_kind)i;
			return 0;
		}
	}
	return -1;
}

void gen_config_defaults(struct gen_config *c, enum gen_workload w)
{
	memset(c, 0, sizeof(*c));
	c->workload = w;
	c->cpus = 1;
	c->duration_ns = SIM_NS_PER_S;
	c->seed = 1;
	c->period_ns = (w == GEN_MIXED ? 10000 : 1000) * SIM_NS_PER_US;
	c->interval_ns = 300 * SIM_NS_PER_US;
	c->mean_ns = (w == GEN_MIXED ? 2000 : 500) * SIM_NS_PER_US;
	/* a program's periodic sleep is an hrtimer (nanosleep, poll/epoll timeouts), the
	 * kernel's own periodic work a timer-wheel timer: traces/FORMAT.md, docs/workloads.md */
	c->timer_kind = GEN_TIMER_MIX;
	c->timer_slack_ns = 50 * SIM_NS_PER_US; /* include/linux/init_task.h: 50 usec */
}

int gen_validate(const struct gen_config *c, struct sim_error *err)
{
	const int64_t max_ns = 1000000 * SIM_NS_PER_S; /* a million seconds */

	if (c->cpus < 1 || c->cpus > TRACE_MAX_CPUS)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--cpus must be 1..%d", TRACE_MAX_CPUS);
	if (c->duration_ns <= 0 || c->duration_ns > max_ns)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "--duration-s must be positive and at most 1000000");
	if ((c->workload == GEN_PERIODIC || c->workload == GEN_MIXED) &&
	    (c->period_ns <= 0 || c->period_ns > max_ns))
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--period-us must be positive");
	if (c->workload == GEN_IRQ_FIXED && (c->interval_ns <= 0 || c->interval_ns > max_ns))
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--interval-us must be positive");
	if ((c->workload == GEN_IRQ_POISSON || c->workload == GEN_MIXED) &&
	    (c->mean_ns <= 0 || c->mean_ns > max_ns))
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--mean-us must be positive");
	if (c->timer_period_ns < 0 || c->timer_period_ns > max_ns)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "--timer-period-us must be positive");
	if (c->timer_slack_ns < 0 || c->timer_slack_ns > max_ns)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "--timer-slack-us must not be negative");
	if (c->busy_ns < 0 || c->busy_ns > max_ns)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--busy-us must not be negative");
	if (c->iowait > 65535)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--iowait must be 0..65535");
	if (c->no_wake_pct > 100)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--no-wake-pct must be 0..100");
	return 0;
}

/* ---- randomness ---- */

/* Uniform in (0, 1]. */
static double uniform(uint64_t *s)
{
	return (double)((sim_splitmix64(s) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

static int64_t exp_gap(uint64_t *s, int64_t mean_ns)
{
	double v = -(double)mean_ns * log(uniform(s));

	return v < 1.0 ? 1 : (int64_t)(v + 0.5);
}

/* Uniform phase in [1, period]. */
static int64_t phase(uint64_t *s, int64_t period_ns)
{
	return 1 + (int64_t)(uniform(s) * (double)(period_ns - 1));
}

/* ---- one CPU ---- */

static void add_source(struct gcpu *c, enum src_kind kind, enum wake_cause cause, int64_t param,
		       bool hrtimer)
{
	struct source *s = &c->src[c->nr_src++];

	s->kind = kind;
	s->cause = cause;
	s->param_ns = param;
	s->hrtimer = hrtimer;
	s->next_ns = kind == SRC_POISSON ? exp_gap(&c->rng, param) : phase(&c->rng, param);
}

static void advance(struct gcpu *c, struct source *s)
{
	s->next_ns += s->kind == SRC_POISSON ? exp_gap(&c->rng, s->param_ns) : s->param_ns;
}

static void init_cpu(const struct gen_config *cfg, struct gcpu *c, int cpu)
{
	/* the workload's own timer: an hrtimer unless every timer is a wheel timer */
	bool own_hr = cfg->timer_kind != GEN_TIMER_WHEEL;

	memset(c, 0, sizeof(*c));
	c->rng = cfg->seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(cpu + 1));
	sim_splitmix64(&c->rng);
	c->rng_wake = c->rng ^ 0x9E3779B97F4A7C15ull;
	switch (cfg->workload) {
	case GEN_PERIODIC:
		add_source(c, SRC_TIMER, WAKE_TIMER, cfg->period_ns, own_hr);
		c->src[0].slack_ns = own_hr ? cfg->timer_slack_ns : 0;
		break;
	case GEN_IRQ_FIXED:
		add_source(c, SRC_FIXED, WAKE_IRQ, cfg->interval_ns, false);
		break;
	case GEN_IRQ_POISSON:
		add_source(c, SRC_POISSON, WAKE_IRQ, cfg->mean_ns, false);
		break;
	default:
		add_source(c, SRC_TIMER, WAKE_TIMER, cfg->period_ns, own_hr);
		c->src[0].slack_ns = own_hr ? cfg->timer_slack_ns : 0;
		add_source(c, SRC_POISSON, WAKE_IRQ, cfg->mean_ns, false);
		add_source(c, SRC_POISSON, WAKE_IPI, 3 * cfg->mean_ns, false);
		break;
	}
	if (cfg->timer_period_ns)
		add_source(c, SRC_TIMER, WAKE_TIMER, cfg->timer_period_ns,
			   cfg->timer_kind == GEN_TIMER_HRTIMER);
}

/* The source with the earliest next event (timers first at equal times). */
static struct source *earliest(struct gcpu *c)
{
	struct source *best = &c->src[0];
	int i;

	for (i = 1; i < c->nr_src; i++) {
		struct source *s = &c->src[i];

		if (s->next_ns < best->next_ns ||
		    (s->next_ns == best->next_ns && s->kind == SRC_TIMER && best->kind != SRC_TIMER))
			best = s;
	}
	return best;
}

/* The earliest timer expiry of any kind, and of the timer-wheel timers (for the tick rule). */
static void next_timers(const struct gcpu *c, int64_t *any, int64_t *wheel)
{
	int i;

	*any = *wheel = SIM_TIME_NEVER;
	for (i = 0; i < c->nr_src; i++) {
		if (c->src[i].kind != SRC_TIMER)
			continue;
		*any = sim_min64(*any, c->src[i].next_ns);
		if (!c->src[i].hrtimer)
			*wheel = sim_min64(*wheel, c->src[i].next_ns);
	}
}

/*
 * A timer expiry at t is a timer interrupt (in high resolution mode a wheel timer's expiry
 * is the tick's hrtimer programmed for it): every other hrtimer whose soft expiry has passed
 * runs with it.
 */
static void run_soft_expired(struct gcpu *c, const struct source *s, int64_t t)
{
	int i;

	if (s->kind != SRC_TIMER)
		return;
	for (i = 0; i < c->nr_src; i++)
		if (&c->src[i] != s && c->src[i].slack_ns && c->src[i].next_ns - c->src[i].slack_ns <= t)
			advance(c, &c->src[i]);
}

/* An irq or ipi whose handler wakes no task, with probability no_wake_pct %. */
static bool wakes_nobody(const struct gen_config *cfg, struct gcpu *c, const struct source *s)
{
	if (!cfg->no_wake_pct || s->cause == WAKE_TIMER)
		return false;
	return sim_splitmix64(&c->rng_wake) % 100 < cfg->no_wake_pct;
}

/* Prepare the CPU's next idle record, or mark it done. */
static void step_cpu(const struct gen_config *cfg, struct gcpu *c, int cpu)
{
	struct trace_record *r = &c->next;
	struct source *s;
	int64_t start, timer, wheel;

	/* Events up to the end of the work are absorbed, each bringing more work (or none, for
	 * one that wakes no task). */
	for (;;) {
		s = earliest(c);
		if (s->next_ns > c->work_end_ns || c->work_end_ns >= cfg->duration_ns)
			break;
		if (!wakes_nobody(cfg, c, s))
			c->work_end_ns += cfg->busy_ns;
		advance(c, s);
	}
	start = c->work_end_ns;
	if (start >= cfg->duration_ns) {
		c->done = true;
		return;
	}
	next_timers(c, &timer, &wheel);
	memset(r, 0, sizeof(*r));
	r->kind = TRACE_IDLE;
	r->cpu = cpu;
	r->time_ns = start;
	r->length_ns = s->next_ns - start;
	r->cause = s->cause;
	r->next_timer_ns = timer == SIM_TIME_NEVER ? -1 : timer - start;
	/* an hrtimer first (a wheel timer due at the same time makes it a wheel record) */
	if (timer != SIM_TIME_NEVER && wheel != timer) {
		r->timer_kind = TIMER_HRTIMER;
		r->next_wheel_ns = wheel == SIM_TIME_NEVER ? -1 : wheel - start;
	}
	/* its slack, up to the period's start (an earlier soft expiry is past at the start) */
	if (r->cause == WAKE_TIMER && r->timer_kind == TIMER_HRTIMER && s->slack_ns)
		r->slack_ns = sim_min64(s->slack_ns, r->length_ns);
	if (cfg->iowait) {
		r->has_iowait = true;
		r->iowait = cfg->iowait;
	}
	c->work_end_ns = s->next_ns + cfg->busy_ns;
	run_soft_expired(c, s, s->next_ns);
	advance(c, s);
	/* A wakeup that wakes no task leaves the CPU idle from that instant: the next period
	 * starts there, so it needs the next event to be later (a period is never empty). */
	if (wakes_nobody(cfg, c, s) && earliest(c)->next_ns > r->time_ns + r->length_ns) {
		r->no_resched = true;
		c->work_end_ns = r->time_ns + r->length_ns;
	}
}

/* ---- the stream ---- */

struct gen_stream *gen_open(const struct gen_config *cfg, struct sim_error *err)
{
	struct gen_stream *g;
	int i;

	if (gen_validate(cfg, err))
		return NULL;
	g = sim_calloc(1, sizeof(*g));
	if (!g)
		goto nomem;
	g->cfg = *cfg;
	g->cpus = sim_calloc((size_t)cfg->cpus, sizeof(*g->cpus));
	g->q = eventq_new(EVENTQ_HEAP, (uint32_t)cfg->cpus);
	if (!g->cpus || !g->q)
		goto nomem;
	g->hdr.version = TRACE_VERSION;
	g->hdr.cpus = cfg->cpus;
	g->hdr.hz = cfg->hz;
	g->hdr.has_start = g->hdr.has_end = true;
	g->hdr.start_ns = 0;
	g->hdr.end_ns = cfg->duration_ns;
	snprintf(g->hdr.source, sizeof(g->hdr.source), "%s", cfg->source);
	for (i = 0; i < cfg->cpus; i++) {
		init_cpu(cfg, &g->cpus[i], i);
		step_cpu(cfg, &g->cpus[i], i);
		if (!g->cpus[i].done)
			eventq_set(g->q, (uint32_t)i, g->cpus[i].next.time_ns, 0);
	}
	return g;
nomem:
	gen_close(g);
	sim_error_nomem(err, "");
	return NULL;
}

void gen_close(struct gen_stream *g)
{
	if (!g)
		return;
	sim_free(g->cpus);
	eventq_free(g->q);
	sim_free(g);
}

const struct trace_header *gen_header(const struct gen_stream *g)
{
	return &g->hdr;
}

int gen_next(struct gen_stream *g, struct trace_record *rec)
{
	uint32_t cpu;
	int64_t t;
	struct gcpu *c;

	if (!eventq_pop(g->q, &cpu, &t))
		return 0;
	c = &g->cpus[cpu];
	*rec = c->next;
	rec->index = g->index++;
	step_cpu(&g->cfg, c, (int)cpu);
	if (!c->done)
		eventq_set(g->q, cpu, c->next.time_ns, 0);
	return 1;
}

static int gen_src_next(void *ctx, struct trace_record *rec, struct sim_error *err)
{
	(void)err;
	return gen_next(ctx, rec);
}

static int gen_src_error(void *ctx, const struct trace_record *rec, struct sim_error *err,
			 const char *msg)
{
	(void)ctx;
	return sim_error_set(err, SIM_ERR_INTERNAL, "<generator>", 0, 0, "record %ld: %s",
			     rec->index, msg);
}

void record_source_from_gen(struct record_source *src, struct gen_stream *g)
{
	src->hdr = &g->hdr;
	src->next = gen_src_next;
	src->error_at = gen_src_error;
	src->ctx = g;
}

int gen_write(const struct gen_config *cfg, FILE *f, struct sim_error *err)
{
	struct gen_stream *g = gen_open(cfg, err);
	struct trace_record rec;
	struct progress bar;
	unsigned int calls = 0;
	int rc = 0;

	if (!g)
		return -1;
	progress_init(&bar, cfg->progress, "s", 1000);
	if (trace_write_header(f, &g->hdr))
		rc = -1;
	while (!rc && gen_next(g, &rec)) {
		if (trace_write_record(f, &rec))
			rc = -1;
		progress_trace_time(&bar, &calls, rec.time_ns, 0, cfg->duration_ns);
	}
	if (!rc) /* the full bar, if one is drawn */
		progress_trace_time(&bar, &calls, cfg->duration_ns, 0, cfg->duration_ns);
	progress_end(&bar);
	gen_close(g);
	if (rc)
		return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
	return 0;
}
