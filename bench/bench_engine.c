// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_engine.c - engine throughput (idle entries per second) and peak memory.
 *
 *   bench_engine [--entries N] [--governor G] [--machine M] [--cpus C] [--topology PxCxT]
 *                [--source memory|generator|file] [--file PATH] [--runs R]
 *                [--queue lanes|heap] [--isolation on|off] [--read-only on|off]
 *
 * Replays an irq-poisson workload (mean gap 200 us, a 4 ms background timer, 10 us of
 * work per wakeup) sized to give about N idle entries through one governor. Sources:
 *   memory     (default) the first 2^20 records of the workload, generated once, replayed
 *              over and over with their times shifted: measures the engine and the replay
 *              driver alone, with memory fixed whatever N is;
 *   generator  the generator feeds the engine directly (adds its cost);
 *   file       the workload is written to PATH as a text trace (the binary form if PATH
 *              ends in .itb, traces/FORMAT.md), then read back (adds parsing); with
 *              --read-only on, only read back: the reader's records per second alone.
 * Replays R times (default 3) and prints one line for the fastest: entries, seconds (wall),
 * entries/s, cpu_seconds (the fastest run's CPU time, user and system, of this thread: what
 * to compare on a loaded machine), peak RSS. --queue heap runs every event through the one
 * global queue, as closed loops and the decision log do, instead of the per-CPU lanes of
 * replays.
 * G may be a kernel file (PATH.c, built as --governor builds it), whose calls the engine
 * isolates (sim/engine/govguard.h); --isolation off runs it as a built-in is run, directly,
 * to measure what the isolation costs.
 *
 * Peak RSS is the process maximum (getrusage), so compare it across separate runs of
 * different lengths (bench/run.sh does): it must not grow with the trace length.
 */
#include "governors/governor.h"
#include "sim/workload/gen.h"
#include "sim/machine/machine.h"
#include "sim/engine/replay.h"
#include "sim/engine/stats.h"
#include "sim/run/kgov.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This thread's CPU time: on a loaded machine wall time counts the other processes too. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A fixed block of records replayed cyclically, each lap shifted by the block's span. */
#define BLOCK_RECORDS (1u << 20)

struct mem_rec {
	int64_t start_ns, length_ns, next_timer_ns;
	int32_t cpu;
	int32_t cause;
};

struct mem_source {
	struct trace_header hdr;
	struct mem_rec *recs;
	uint32_t n, i;
	int64_t span_ns, shift_ns, end_ns;
	long index;
};

static int mem_next(void *ctx, struct trace_record *rec, struct sim_error *err)
{
	struct mem_source *m = ctx;
	const struct mem_rec *r;

	(void)err;
	if (m->i == m->n) {
		m->i = 0;
		m->shift_ns += m->span_ns;
	}
	r = &m->recs[m->i++];
	if (r->start_ns + m->shift_ns >= m->end_ns)
		return 0;
	/* every field the replay reads (timer kind, slack, keep_tick, ...) is set, as the
	 * generator sets them: left to the stack, they made results vary with ASLR */
	memset(rec, 0, sizeof(*rec));
	rec->kind = TRACE_IDLE;
	rec->cpu = r->cpu;
	rec->time_ns = r->start_ns + m->shift_ns;
	rec->length_ns = r->length_ns;
	rec->next_timer_ns = r->next_timer_ns;
	rec->cause = (enum wake_cause)r->cause;
	rec->no_resched = false;
	rec->iowait = 0;
	rec->load = 0;
	rec->index = m->index++;
	return 1;
}

static int mem_error(void *ctx, const struct trace_record *rec, struct sim_error *err, const char *msg)
{
	(void)ctx;
	return sim_error_set(err, SIM_ERR_INTERNAL, "<memory>", 0, 0, "record %ld: %s", rec->index, msg);
}

/*
 * Fill the block from the generator. Laps must not overlap: the span is the end of the
 * latest period in the block, and each CPU's first period in the next lap starts after it.
 */
static int mem_open(struct mem_source *m, const struct gen_config *gc, struct sim_error *err)
{
	struct gen_stream *g = gen_open(gc, err);
	struct trace_record rec;

	if (!g)
		return -1;
	memset(m, 0, sizeof(*m));
	m->recs = malloc(BLOCK_RECORDS * sizeof(*m->recs));
	if (!m->recs)
		return -1;
	while (m->n < BLOCK_RECORDS && gen_next(g, &rec)) {
		struct mem_rec *r = &m->recs[m->n++];

		r->start_ns = rec.time_ns;
		r->length_ns = rec.length_ns;
		r->next_timer_ns = rec.next_timer_ns;
		r->cpu = rec.cpu;
		r->cause = (int32_t)rec.cause;
		if (rec.time_ns + rec.length_ns > m->span_ns)
			m->span_ns = rec.time_ns + rec.length_ns;
	}
	m->span_ns += 1;
	m->hdr = *gen_header(g);
	m->end_ns = m->hdr.end_ns;
	gen_close(g);
	return 0;
}

static int die(const struct sim_error *err)
{
	sim_error_print(stderr, err);
	return 1;
}

/* --read-only on: the file's records read R times, the fastest kept: the reader alone. */
static int read_file(const char *file, int runs)
{
	struct sim_error err = { 0 };
	struct trace_record rec;
	double best_s = 0, t0;
	long long n = 0;
	int run, rc;

	for (run = 0; run < runs; run++) {
		struct trace_reader *tr = trace_open(file, &err);

		if (!tr)
			return die(&err);
		n = 0;
		t0 = now_s();
		while ((rc = trace_next(tr, &rec, &err)) > 0)
			n++;
		t0 = now_s() - t0;
		trace_close(tr);
		if (rc < 0)
			return die(&err);
		if (run == 0 || t0 < best_s)
			best_s = t0;
	}
	printf("read-only source=%s records=%lld seconds=%.3f records_per_s=%.0f\n", file, n, best_s,
	       (double)n / best_s);
	return 0;
}

int main(int argc, char **argv)
{
	long long entries = 10000000;
	const char *gov_name = "oracle", *mach_name = "skl", *file = NULL, *source = "memory";
	int cpus = 8, i;
	struct sim_error err = { 0 };
	struct gen_config gc;
	struct machine m;
	struct sim_config cfg = { 0 };
	struct record_source src;
	struct run_stats rs;
	struct rusage ru;
	struct mem_source ms;
	double best_s = 0, best_cpu_s = 0;
	int rc = 0, run, runs = 3;
	const char *queue = "lanes";
	struct cpuidle_governor direct;
	bool isolate = true, read_only = false;
	int topo[3] = { 0, 0, 0 };

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--entries"))
			entries = atoll(argv[i + 1]);
		else if (!strcmp(argv[i], "--governor"))
			gov_name = argv[i + 1];
		else if (!strcmp(argv[i], "--machine"))
			mach_name = argv[i + 1];
		else if (!strcmp(argv[i], "--cpus"))
			cpus = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--topology")) {
			if (sscanf(argv[i + 1], "%dx%dx%d", &topo[0], &topo[1], &topo[2]) != 3)
				break;
		}
		else if (!strcmp(argv[i], "--file"))
			file = source = argv[i + 1];
		else if (!strcmp(argv[i], "--source"))
			source = argv[i + 1];
		else if (!strcmp(argv[i], "--runs"))
			runs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--queue"))
			queue = argv[i + 1];
		else if (!strcmp(argv[i], "--isolation") &&
			 (!strcmp(argv[i + 1], "on") || !strcmp(argv[i + 1], "off")))
			isolate = !strcmp(argv[i + 1], "on");
		else if (!strcmp(argv[i], "--read-only") &&
			 (!strcmp(argv[i + 1], "on") || !strcmp(argv[i + 1], "off")))
			read_only = !strcmp(argv[i + 1], "on");
		else
			break;
	}
	if (i < argc || entries <= 0 || cpus <= 0 || runs <= 0 || (read_only && !file) ||
	    (strcmp(queue, "lanes") && strcmp(queue, "heap"))) {
		fprintf(stderr, "usage: bench_engine [--entries N] [--governor G|PATH.c] [--machine M] "
				"[--cpus C] [--topology PxCxT] [--source memory|generator] [--file PATH] "
				"[--runs R] [--queue lanes|heap] [--isolation on|off] [--read-only on|off]\n");
		return 2;
	}
	if (machine_load(mach_name, &m, &err))
		return die(&err);
	/* the CPU-scaling curve: the machine's tables on a larger topology (as run --topology) */
	if (topo[0] > 0) {
		m.packages = topo[0];
		m.cores = topo[1];
		m.threads = topo[2];
		m.nr_core_types = 0;
		if (m.llc_cores && m.cores % m.llc_cores)
			m.llc_cores = 0;
		if (machine_validate(&m, mach_name, &err))
			return die(&err);
	}
	gen_config_defaults(&gc, GEN_IRQ_POISSON);
	gc.cpus = cpus;
	gc.mean_ns = 200000;
	gc.timer_period_ns = 4000000;
	gc.busy_ns = 10000;
	/* About one idle period per 210 us per CPU, some absorbed by exit latencies: size for
	 * one entry per 250 us, so that at least the requested number is replayed. */
	gc.duration_ns = (long long)((double)entries / cpus * 250e-6 * 1e9);
	snprintf(gc.source, sizeof(gc.source), "bench_engine --entries %lld", entries);

	cfg.machine = &m;
	cfg.gov = kgov_find(gov_name, stderr, &err);
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	cfg.global_order = !strcmp(queue, "heap");
	if (!cfg.gov) {
		if (err.code)
			return die(&err);
		fprintf(stderr, "bench_engine: unknown governor %s\n", gov_name);
		return 2;
	}
	if (cfg.gov->file && !isolate) {
		direct = *cfg.gov;
		direct.file = NULL;
		cfg.gov = &direct;
	}
	for (i = 0; i < m.state_count; i++)
		if (m.states[i].default_off)
			cfg.disabled |= 1u << i;

	if (file) {
		size_t n = strlen(file);
		bool binary = n > 4 && !strcmp(file + n - 4, TRACE_BIN_SUFFIX);
		FILE *f = fopen(file, "w");
		struct gen_stream *g = binary && f ? gen_open(&gc, &err) : NULL;

		if (g)
			record_source_from_gen(&src, g);
		if (!f || (binary ? !g || trace_write_source(&src, f, true, &err)
				  : gen_write(&gc, f, &err)) ||
		    fclose(f))
			return err.code ? die(&err) : 1;
		gen_close(g);
		if (read_only)
			return read_file(file, runs);
	} else if (!strcmp(source, "memory")) {
		if (mem_open(&ms, &gc, &err))
			return err.code ? die(&err) : 1;
	}
	/* R runs, the best kept: the machine's speed drifts (a VM), the work does not. */
	for (run = 0; run < runs; run++) {
		struct trace_reader *tr = NULL;
		struct gen_stream *g = NULL;
		double t0, t1, c0, c1;

		if (file) {
			tr = trace_open(file, &err);
			if (!tr)
				return die(&err);
			record_source_from_trace(&src, tr);
		} else if (!strcmp(source, "memory")) {
			ms.i = 0;
			ms.shift_ns = 0;
			ms.index = 0;
			src.hdr = &ms.hdr;
			src.next = mem_next;
			src.error_at = mem_error;
			src.ctx = &ms;
		} else {
			g = gen_open(&gc, &err);
			if (!g)
				return die(&err);
			record_source_from_gen(&src, g);
		}
		t0 = now_s();
		c0 = cpu_s();
		rc = replay_run(&src, &cfg, &rs, &err);
		c1 = cpu_s();
		t1 = now_s();
		if (tr)
			trace_close(tr);
		if (g)
			gen_close(g);
		if (rc)
			break;
		if (run == 0 || t1 - t0 < best_s)
			best_s = t1 - t0;
		if (run == 0 || c1 - c0 < best_cpu_s)
			best_cpu_s = c1 - c0;
		if (run + 1 < runs)
			run_stats_release(&rs);
	}
	if (!file && !strcmp(source, "memory"))
		free(ms.recs);
	if (rc)
		return die(&err);
	{
		struct stats_summary s;

		stats_summarize(&rs, &rs.total, rs.nr_cpus, &s);
		getrusage(RUSAGE_SELF, &ru);
		printf("governor=%s%s machine=%s cpus=%d source=%s queue=%s entries=%llu "
		       "seconds=%.3f entries_per_s=%.0f cpu_seconds=%.3f peak_rss_kb=%ld\n",
		       cfg.gov->name,
		       !kgov_is_path(gov_name) ? "" : isolate ? " isolation=on" : " isolation=off",
		       m.name, cpus, file ? "file" : source, queue,
		       (unsigned long long)s.idle_entries, best_s,
		       (double)s.idle_entries / best_s, best_cpu_s, ru.ru_maxrss);
	}
	run_stats_release(&rs);
	return 0;
}
