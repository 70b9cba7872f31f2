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

/*
 * Replay src once through n configurations (n >= 1) side by side: each record is read once,
 * idle periods derived from event records once (the derivation is the same for every
 * governor), and fed to n simulations, one per cfg[i]; out[i] is what replay_run() with
 * cfg[i] alone gives, to the last bit. Every cfg[i].hz must be the same (the derivation's
 * jiffy grid is shared). Progress is cfg[0]'s. The first error of any simulation ends them
 * all. Returns 0 with out[0..n) filled (release each), or -1 with err set and none filled.
 */
int replay_run_multi(struct record_source *src, const struct sim_config *cfg, int n,
		     struct run_stats *out, struct sim_error *err);

#endif
