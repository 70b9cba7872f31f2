/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.h - drive the engine from a stream of trace records.
 *
 * A record source (struct record_source, sim/trace/trace.h) is anything that yields trace
 * records in time order with a header: the native trace reader, an importer, or the workload
 * generator (no file in between, for benchmarks). replay_run() turns records into the
 * engine's primitives (traces/FORMAT.md: idle intervals directly; event records through
 * per-CPU timer and busy tracking), keeps the engine's lookahead invariant, and returns the
 * run's statistics.
 */
#ifndef IDLESIM_REPLAY_H
#define IDLESIM_REPLAY_H

#include "sim/engine/engine.h"
#include "sim/trace/trace.h"

/*
 * Replay src through one configuration. cfg->nr_cpus is taken from the header. Returns 0
 * with *out filled (release with run_stats_release), or -1 with err set.
 */
int replay_run(struct record_source *src, const struct sim_config *cfg, struct run_stats *out,
	       struct sim_error *err);

#endif
