/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfgrec.h - the configuration record every report carries: what produced it.
 *
 * Reports of run, compare and check name the governor tunables in force (all of them,
 * defaults included), the --set options that applied, the latency limit, the disabled
 * states, HZ, the wake-latency model, the machine with a content hash of its table, the
 * trace with a content hash of its bytes, the seeds and the idlesim version.
 *
 * Hashes are FNV-1a 64 (16 hex digits). A machine's hash covers its table, not its name or
 * description: a file copied from a built-in and left unchanged hashes like the built-in,
 * and any edit of a number changes it. The canonical text hashed is machine_canon_text().
 */
#ifndef IDLESIM_CFGREC_H
#define IDLESIM_CFGREC_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "governors/governor.h"
#include "sim/base/error.h"
#include "sim/machine/machine.h"
#include "sim/run/run_set.h"
#include "sim/base/version.h"

#define CFGREC_FNV_OFFSET 0xcbf29ce484222325ull

/* FNV-1a 64 of n bytes, continuing from h (start with CFGREC_FNV_OFFSET). */
uint64_t cfgrec_fnv1a(uint64_t h, const void *p, size_t n);
/* 16 lower-case hex digits and a NUL. */
void cfgrec_hex(char buf[17], uint64_t h);

/*
 * The canonical text of a machine's table, one "key=value" a line: driver, topology,
 * active powers, then per state its name, flags, latencies, default_off and powers
 * (doubles as %.17g). Returns the length it needed (like snprintf).
 */
size_t machine_canon_text(const struct machine *m, char *buf, size_t n);
/* FNV-1a 64 of machine_canon_text(). */
uint64_t machine_hash(const struct machine *m);

/* FNV-1a 64 of a file's bytes; of a binary trace (traces/FORMAT.md), of its first 4128
 * bytes, its size and its end block, whose CRC-32 covers the rest. 0, or -1 with err set. */
int cfgrec_file_hash(const char *path, uint64_t *h, struct sim_error *err);

/* Does --set s apply to governor g (same family, and g has the tunable)? */
bool cfgrec_set_applies(const struct run_set *s, const struct cpuidle_governor *g);

/* "decay=8 resolution=1024 ..." (every tunable of g; params NULL means the defaults). */
void cfgrec_tunables_text(char *buf, size_t n, const struct cpuidle_governor *g,
			  const long long *params);
/* {"decay": 8, ...} in g's order. */
json_t *cfgrec_tunables_json(const struct cpuidle_governor *g, const long long *params);
/* Copy into out[] the sets[0..n) that apply to g (--set options); returns how many. */
int cfgrec_applied_sets(const struct run_set *sets, int n, const struct cpuidle_governor *g,
			struct run_set out[RUN_MAX_SETS]);
/* Sets as ["menu.decay=4", ...], or as text "menu.decay=4 ..." ("none" when n is 0). */
json_t *cfgrec_sets_json(const struct run_set *sets, int n);
void cfgrec_sets_text(char *buf, size_t len, const struct run_set *sets, int n);

/* The names of the states in mask, ","-separated, or "none". */
void cfgrec_disabled_text(char *buf, size_t n, const struct machine *m, uint32_t mask);

#endif
