/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_util.h - shared by the libFuzzer harnesses in tests/fuzz (header-only: each harness
 * is one source file, built either with libFuzzer or with tests/fuzz_replay.c).
 *
 * A harness may return normally on any input error: bad input is expected. What it must
 * never see is a crash, a sanitizer report, a leak, or an error of class SIM_ERR_INTERNAL
 * (the engine's own consistency checks, including conservation): those call abort(), so
 * libFuzzer keeps the input.
 */
#ifndef IDLESIM_FUZZ_UTIL_H
#define IDLESIM_FUZZ_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "governors/governor.h"
#include "sim/base/error.h"
#include "sim/base/init.h"
#include "sim/machine/machine.h"
#include "sim/engine/replay.h"
#include "sim/engine/stats.h"
#include "sim/trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A bug, not bad input: stop with the message so the fuzzer keeps the input. */
static inline void fuzz_check(const struct sim_error *err, const char *what)
{
	if (err->code == SIM_ERR_INTERNAL || err->code == SIM_ERR_NOMEM) {
		fprintf(stderr, "fuzz: %s: ", what);
		sim_error_print(stderr, err);
		abort();
	}
}

/* The input as a NUL-terminated string (its first NUL ends it, as for a C string). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static char fuzz_path[96];

static inline void fuzz_unlink(void)
{
	unlink(fuzz_path);
}

/* The input in a file of this process (removed at exit), for readers that take a path. */
static inline const char *fuzz_file(const char *tag, const uint8_t *data, size_t size)
{
	FILE *f;

	if (!fuzz_path[0]) {
		snprintf(fuzz_path, sizeof(fuzz_path), "/tmp/idlesim-fuzz-%s-%d", tag,
			 (int)getpid());
		atexit(fuzz_unlink);
	}
	f = fopen(fuzz_path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	return fuzz_path;
}

/* A cheap, stable hash of the input, to pick a governor without spending input bytes. */
static inline unsigned int fuzz_hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h;
}

/*
 * Replays are for bugs, not for hour-long traces: bigger inputs are only read. Any time the
 * readers accept is replayed, up to 2^62 ns (SIM_TIME_MAX_NS), next_timer and expiries up to
 * 2^63 - 1.
 */
#define FUZZ_REPLAY_MAX_CPUS 64
#define FUZZ_REPLAY_MAX_SPAN_NS (10 * 1000000000LL)
#define FUZZ_REPLAY_MAX_EXPIRIES 100000

/*
 * The engine's work grows with CPU-seconds, not with the input's size: a CPU left polling
 * re-enters POLL every cpuidle_poll_time(), which is at least CPUIDLE_POLL_MIN (10 us), so
 * 16 CPU-seconds are at most 1.6 M entries (about 1 s in an ASan build). Without this bound
 * 37 CPUs idle for 4 s under `shallowest` (7 M POLL entries, 0.17 s in Release, 4 s under
 * ASan) timed a fuzzer out on a loaded machine: valid and merely slow, like a long trace.
 */
#define FUZZ_REPLAY_MAX_CPU_NS (16 * 1000000000LL)

static inline bool fuzz_replay_fits(int cpus, int64_t span_ns)
{
	return cpus >= 1 && cpus <= FUZZ_REPLAY_MAX_CPUS && span_ns >= 0 &&
	       span_ns <= FUZZ_REPLAY_MAX_SPAN_NS && span_ns <= FUZZ_REPLAY_MAX_CPU_NS / cpus;
}

/*
 * Replay a record source through one governor on a copy of base, widened to the header's
 * CPU count when base has fewer CPUs, under a wake-latency model. Returns 0 if the run
 * succeeded.
 */
static inline int fuzz_replay_source_model(struct record_source *src, const struct machine *base,
					   const struct cpuidle_governor *gov, int hz,
					   enum wake_model wake)
{
	struct sim_config cfg = {0};
	struct sim_error err = {0};
	struct run_stats rs;
	struct machine m = *base;

	if (src->hdr->cpus > machine_nr_cpus(&m)) {
		m.packages = 1;
		m.cores = src->hdr->cpus;
		m.threads = 1;
	}
	cfg.machine = &m;
	cfg.gov = gov;
	cfg.hz = hz;
	cfg.latency_req_ns = -1;
	cfg.queue = EVENTQ_HEAP;
	cfg.wake_model = wake;
	cfg.wake_seed = (uint64_t)hz;
	if (replay_run(src, &cfg, &rs, &err)) {
		fuzz_check(&err, "replay");
		return -1;
	}
	run_stats_release(&rs);
	return 0;
}

/* With the table's latencies (worst). */
static inline int fuzz_replay_source(struct record_source *src, const struct machine *base,
				     const struct cpuidle_governor *gov, int hz)
{
	return fuzz_replay_source_model(src, base, gov, hz, WAKE_MODEL_WORST);
}

/* The same for an open native trace. */
static inline int fuzz_replay_model(struct trace_reader *r, const struct machine *base,
				    const struct cpuidle_governor *gov, int hz, enum wake_model wake)
{
	struct record_source src;

	record_source_from_trace(&src, r);
	return fuzz_replay_source_model(&src, base, gov, hz, wake);
}

static inline int fuzz_replay(struct trace_reader *r, const struct machine *base,
			      const struct cpuidle_governor *gov, int hz)
{
	return fuzz_replay_model(r, base, gov, hz, WAKE_MODEL_WORST);
}

#endif
