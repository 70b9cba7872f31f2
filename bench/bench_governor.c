// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_governor.c - what one decision of a governor costs, without the engine.
 *
 *   bench_governor [--governor G|PATH.c] [--decisions N] [--runs R] [--isolation on|off]
 *
 * Calls select() and reflect() of governor G (default: every governor) N times (default
 * 10 M) on one skl CPU, as the engine would, and prints the nanoseconds per decision of the
 * fastest of R runs (default 3). The idle periods are those of bench_engine's irq-poisson
 * workload seen from one CPU: wakeups at exponentially distributed gaps (mean 200 us) and a
 * timer every 4 ms, the tick at HZ=250; each period ends at its wakeup, the timer or, while
 * the tick runs, the tick, whichever comes first. The periods are drawn once, before the
 * clock starts, so only the governor is timed.
 *
 * bench_engine measures entries per second through the whole engine; this measures the
 * governor's own work in isolation, one CPU, its state hot in the caches. Inside the engine
 * a decision costs more than this (eight CPUs' governor data and the engine's code share
 * the caches and the branch predictor), so engine ns + these ns is a lower bound of an
 * entry's time, and the difference between two governors here is what changing the one
 * for the other can save at most.
 *
 * A kernel file's governor is called as the engine calls it, isolated (sim/engine/govguard.h,
 * with the default limit and its watchdog thread); --isolation off calls it directly, so
 * the difference is what the isolation costs per decision. Built-in governors are always
 * called directly, as in the engine.
 */
#include "governors/governor.h"
#include "sim/base/common.h"
#include "sim/base/error.h"
#include "sim/engine/govguard.h"
#include "sim/run/kgov.h"
#include "sim/machine/machine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GAPS 4096 /* distinct wakeup gaps, cycled (a power of two) */
#define TICK_NS 4000000LL
#define TIMER_NS 4000000LL
#define MEAN_GAP_NS 200000.0

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct bench {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	long long params[32];
	void *priv;
	int64_t gap_ns[GAPS];
};

static int bench_init(struct bench *b, const struct cpuidle_governor *g)
{
	struct sim_error err = {0};
	struct machine m;
	uint64_t seed = 1; /* the same gaps on every run and every machine */
	unsigned int i;

	memset(&b->drv, 0, sizeof(b->drv));
	memset(&b->dev, 0, sizeof(b->dev));
	if (machine_load("skl", &m, &err)) {
		sim_error_print(stderr, &err);
		return -1;
	}
	machine_to_driver(&m, &b->drv);
	if (g->nr_params > sizeof(b->params) / sizeof(b->params[0])) {
		fprintf(stderr, "bench_governor: %s has too many tunables\n", g->name);
		return -1;
	}
	for (i = 0; i < g->nr_params; i++)
		b->params[i] = g->params[i].def;
	b->priv = calloc(1, g->priv_size ? g->priv_size : 1);
	if (!b->priv) {
		fprintf(stderr, "bench_governor: out of memory\n");
		return -1;
	}
	b->dev.governor_data = b->priv;
	b->dev.gov_params = b->params;
	b->dev.last_state_idx = -1;
	b->dev.env.tick_nsec = TICK_NS;
	b->dev.env.latency_req_ns = (s64)PM_QOS_CPU_LATENCY_DEFAULT_VALUE * NSEC_PER_USEC;
	b->dev.env.next_timer_ns = KTIME_MAX;
	b->dev.env.oracle_wake_ns = KTIME_MAX;
	for (i = 0; i < GAPS; i++) {
		double u = ((double)(sim_splitmix64(&seed) >> 11) + 0.5) / 9007199254740992.0;

		b->gap_ns[i] = (int64_t)(-log(u) * MEAN_GAP_NS) + 1;
	}
	if (g->enable && g->enable(&b->drv, &b->dev)) {
		fprintf(stderr, "bench_governor: %s: enable failed\n", g->name);
		free(b->priv);
		return -1;
	}
	return 0;
}

/*
 * n decisions from t = 0; returns a checksum of the chosen states, so nothing is elided.
 * With a guard, each call goes through it (a fault or a timeout returns 0 at once);
 * inlined into bench_run() and bench_run_isolated() with `guard` known, so the direct
 * loop is what it was.
 */
static inline __attribute__((always_inline)) uint64_t
bench_loop(struct bench *b, const struct cpuidle_governor *g, long n, struct govguard *guard)
{
	struct cpuidle_device *dev = &b->dev;
	int64_t t = 0, wake = 0;
	uint64_t sum = 0;
	long k;

	for (k = 0; k < n; k++) {
		bool stop_tick = true;
		int64_t timer, tick, end;
		int idx;

		if (wake <= t)
			wake = t + b->gap_ns[k & (GAPS - 1)];
		timer = (t / TIMER_NS + 1) * TIMER_NS;
		tick = (t / TICK_NS + 1) * TICK_NS;
		dev->env.now_ns = t;
		dev->env.next_timer_ns = timer;
		dev->env.next_tick_ns = tick;
		dev->env.oracle_wake_ns = wake < timer ? wake : timer;
		dev->env.tick_stopped = false;
		if (!guard)
			idx = g->select(&b->drv, dev, &stop_tick);
		else if (govguard_select(guard, g, &b->drv, dev, &stop_tick, &idx))
			return 0;
		sum += (uint64_t)idx * 2 + stop_tick;

		end = wake < timer ? wake : timer;
		if (!stop_tick && tick < end)
			end = tick;
		dev->last_state_idx = idx;
		dev->last_residency_ns = end - t;
		dev->poll_time_limit = false;
		dev->env.got_tick = end == tick && end != timer && end != wake;
		dev->env.now_ns = end;
		if (g->reflect && !guard)
			g->reflect(dev, idx);
		else if (g->reflect && govguard_reflect(guard, g, dev, idx))
			return 0;
		t = end + 10000; /* 10 us of work before the next idle period */
	}
	return sum;
}

static uint64_t bench_run(struct bench *b, const struct cpuidle_governor *g, long n)
{
	return bench_loop(b, g, n, NULL);
}

static uint64_t bench_run_isolated(struct bench *b, const struct cpuidle_governor *g, long n,
				   struct govguard *guard)
{
	return bench_loop(b, g, n, guard);
}

static int bench_one(const struct cpuidle_governor *g, long n, int runs, bool isolate)
{
	double best = 0;
	uint64_t check = 0;
	int r;

	isolate = isolate && g->file;
	for (r = 0; r < runs; r++) {
		struct bench *b = malloc(sizeof(*b));
		struct sim_error err = {0};
		struct govguard *guard = NULL;
		double t0, t1;
		uint64_t sum;

		if (!b || bench_init(b, g)) {
			free(b);
			return -1;
		}
		if (isolate && !(guard = govguard_create(0, &err))) {
			sim_error_print(stderr, &err);
			free(b->priv);
			free(b);
			return -1;
		}
		t0 = now_s();
		sum = guard ? bench_run_isolated(b, g, n, guard) : bench_run(b, g, n);
		t1 = now_s();
		govguard_destroy(guard);
		if (g->disable)
			g->disable(&b->drv, &b->dev);
		free(b->priv);
		free(b);
		if (r && sum != check) {
			fprintf(stderr, "bench_governor: %s is not deterministic\n", g->name);
			return -1;
		}
		check = sum;
		if (!r || t1 - t0 < best)
			best = t1 - t0;
	}
	printf("governor=%s%s decisions=%ld seconds=%.3f ns_per_decision=%.1f checksum=%llu\n",
	       g->name, !g->file ? "" : isolate ? " isolation=on" : " isolation=off", n, best,
	       best * 1e9 / (double)n, (unsigned long long)check);
	return 0;
}

int main(int argc, char **argv)
{
	const char *gov_name = NULL;
	long n = 10000000;
	int runs = 3, i;
	bool isolate = true;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--governor"))
			gov_name = argv[i + 1];
		else if (!strcmp(argv[i], "--decisions"))
			n = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--runs"))
			runs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--isolation") &&
			 (!strcmp(argv[i + 1], "on") || !strcmp(argv[i + 1], "off")))
			isolate = !strcmp(argv[i + 1], "on");
		else
			break;
	}
	if (i < argc || n < 1 || runs < 1) {
		fprintf(stderr, "usage: bench_governor [--governor G|PATH.c] [--decisions N] "
				"[--runs R] [--isolation on|off]\n");
		return 2;
	}
	if (gov_name) {
		struct sim_error err = {0};
		/* A name, or a kernel file (PATH.c, built through the layer as --governor does). */
		const struct cpuidle_governor *g = kgov_find(gov_name, stderr, &err);

		if (!g) {
			if (err.text[0])
				sim_error_print(stderr, &err);
			else
				fprintf(stderr, "bench_governor: unknown governor '%s'\n", gov_name);
			return 2;
		}
		return bench_one(g, n, runs, isolate) ? 1 : 0;
	}
	for (i = 0; i < (int)gov_count(); i++)
		if (bench_one(gov_get((unsigned int)i), n, runs, isolate))
			return 1;
	return 0;
}
