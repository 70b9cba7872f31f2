/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kgov.h - run a kernel tree's own governor file (idlesim run --governor PATH.c).
 *
 * kgov_load() compiles the file against the compatibility layer (governors/kcompat/) into a
 * shared object, cached by content hash, loads it, runs its initcalls and registers the
 * governor it registers (cpuidle_register_governor()) under "FAMILY@file:NAME.c", e.g.
 * "teo@file:teo.c". Loading the same content again returns the same governor.
 */
#ifndef IDLESIM_KGOV_H
#define IDLESIM_KGOV_H

#include <stdbool.h>
#include <stdio.h>

#include "governors/governor.h"
#include "sim/base/error.h"

/*
 * The units of the kernel API a file is written for. v5.7 moved the cpuidle core to ns
 * (drv->states[].exit_latency_ns, target_residency_ns; cpuidle_governor_latency_req() an s64
 * in ns); before it a governor read the us fields and got an int in us. The structures carry
 * both, so only cpuidle_governor_latency_req() differs: the layer returns us when the file is
 * built with IDLESIM_KAPI_US.
 */
enum kgov_api { KGOV_API_NS, KGOV_API_US };

/*
 * Which one the file at `stream` is written for, from its identifiers (comments included):
 * one of exit_latency_ns, target_residency_ns, last_residency_ns means ns; otherwise one of
 * exit_latency, target_residency, last_residency means us; otherwise ns.
 */
enum kgov_api kgov_detect_api(FILE *stream);

/* True if a --governor argument names a C file rather than a registered governor. */
bool kgov_is_path(const char *arg);

/*
 * Build (or find in the cache) and register the governor of the kernel file at `path`.
 * On a compile error the compiler's messages are copied to `diag` (when not NULL) and `err`
 * says which file failed, with the first error line (SIM_ERR_INPUT: exit status 2).
 * `*compiled` (when not NULL) tells whether the compiler ran (false: cache hit or loaded).
 */
int kgov_load(const char *path, FILE *diag, const struct cpuidle_governor **out, bool *compiled,
	      struct sim_error *err);

/*
 * A governor by registered name, or by path (loaded as kgov_load() does, compiler messages to
 * diag). NULL if unknown (err untouched) or if a file failed to load (err set).
 */
const struct cpuidle_governor *kgov_find(const char *name, FILE *diag, struct sim_error *err);

/* Replace each path among names[0..n) by the registered governor's name. 0, or -1 + err. */
int kgov_resolve(const char **names, int n, FILE *diag, struct sim_error *err);

/*
 * The directory of the compatibility layer (include/ and kmod.c) into buf: $IDLESIM_KCOMPAT_DIR
 * if set, else kcompat/ in the data directory (sim/base/datadir.h). Returns buf.
 */
const char *kgov_layer_dir(char *buf, size_t n);

#endif
