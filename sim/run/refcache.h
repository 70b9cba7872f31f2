/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * refcache.h - the references of regret (oracle, oracle-energy), computed once per process.
 *
 * A cache hangs off a context the caller owns (sweep: one for all its points and threads;
 * set run_request.refs) and holds, per key, what regret needs of the two reference runs.
 * The key is the text run_refkey() writes: everything that decides a reference's numbers
 * (the comment there says why each field is in or out). Thread-safe: the first thread to
 * ask for a key computes it, the others wait for its result, so each reference runs once.
 *
 * It also remembers each trace file's content hash (sim/run/cfgrec.h), by the file's
 * identity (path, device, inode, size, modification time), so that a process hashes a
 * trace once however many points replay it.
 */
#ifndef IDLESIM_REFCACHE_H
#define IDLESIM_REFCACHE_H

#include <stdint.h>

#include "sim/base/error.h"
#include "sim/engine/engine.h"
#include "sim/engine/stats.h"

/* What regret takes of the references (run.c set_regret()). */
struct run_refs {
	double oracle_lat_mean_ns; /* the oracle's mean wakeup latency */
	double energy_j, package_energy_j, cpu_energy_j; /* the energy reference's */
};

void run_refs_from(struct run_refs *refs, const struct run_stats *oracle,
		   const struct run_stats *eref);

struct run_refcache;

struct run_refcache *run_refcache_new(void);
void run_refcache_free(struct run_refcache *c);

/*
 * The key of the references of a replay of the trace with content hash trace_hash under cfg (its machine, HZ resolved, and knobs; its governor and logs
 * are not used). Returns a string to free with sim_free, or NULL (out of memory).
 */
char *run_refkey(uint64_t trace_hash, const struct sim_config *cfg);

/*
 * Look key up. 1: *refs filled. 0: not there, and the caller now computes it: it must
 * call run_refcache_put() or, failing, run_refcache_abandon() with the same key (another
 * thread asking meanwhile waits for that). -1: out of memory.
 */
int run_refcache_get(struct run_refcache *c, const char *key, struct run_refs *refs);
void run_refcache_put(struct run_refcache *c, const char *key, const struct run_refs *refs);
void run_refcache_abandon(struct run_refcache *c, const char *key);

/* How many keys were computed (put): each is one pass of the two references. */
unsigned long run_refcache_computed(struct run_refcache *c);

/*
 * The content hash (FNV-1a 64, cfgrec_file_hash()) of the file at path; c NULL hashes it,
 * else a file seen before with the same identity is not read again. Returns 0, or -1 with
 * err set.
 */
int run_refcache_file_hash(struct run_refcache *c, const char *path, uint64_t *hash,
			   struct sim_error *err);

#endif
