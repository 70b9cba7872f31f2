/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.h - drive the engine from a stream of trace records.
 *
 * A record source is anything that yields trace records in time order with a header: the
 * native trace reader, or the workload generator (no file in between, for benchmarks).
 * replay_run() turns records into the engine's primitives (traces/FORMAT.md: idle
 * intervals directly; event records through per-CPU timer and busy tracking), keeps the
 * engine's lookahead invariant, and returns the run's statistics.
 */
#ifndef IDLESIM_REPLAY_H
#define IDLESIM_REPLAY_H

#include "sim/engine/engine.h"
#include "sim/trace/trace.h"

struct record_source {
	const struct trace_header *hdr;
	/* 1 = record, 0 = end, -1 = error (err set) */
	int (*next)(void *ctx, struct trace_record *rec, struct sim_error *err);
	/* Report `msg` at the position of rec. Always returns -1. */
	int (*error_at)(void *ctx, const struct trace_record *rec, struct sim_error *err,
			const char *msg);
	void *ctx;
};

void record_source_from_trace(struct record_source *src, struct trace_reader *r);

/*
 * Replay src through one configuration. cfg->nr_cpus is taken from the header. Returns 0
 * with *out filled (release with run_stats_release), or -1 with err set.
 */
int replay_run(struct record_source *src, const struct sim_config *cfg, struct run_stats *out,
	       struct sim_error *err);

#endif
