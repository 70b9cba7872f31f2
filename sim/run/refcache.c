// SPDX-License-Identifier: GPL-2.0-only
/*
 * refcache.c - the references of regret, once per key and process (refcache.h).
 *
 * A few entries at most (one per trace x machine x knob set a process replays): linear
 * lists under one mutex. An entry being computed is marked pending; others asking for its
 * key wait on the condition variable until it is put or abandoned.
 */
#include "sim/run/refcache.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

struct ref_entry {
	char *key;
	bool pending; /* a thread is computing it */
	struct run_refs refs;
	struct ref_entry *next;
};

/* A trace file's content hash, by its identity. */
struct hash_entry {
	char *path;
	dev_t dev;
	ino_t ino;
	int64_t size;
	struct timespec mtime;
	uint64_t hash;
	struct hash_entry *next;
};

struct run_refcache {
	pthread_mutex_t lock;
	pthread_cond_t done; /* a pending entry was put or abandoned */
	struct ref_entry *refs;
	struct hash_entry *hashes;
	unsigned long computed;
};

void run_refs_from(struct run_refs *refs, const struct run_stats *oracle,
		   const struct run_stats *eref)
{
	refs->oracle_lat_mean_ns = lat_hist_mean(&oracle->total.wake_latency);
	refs->energy_j = eref->energy_j;
	refs->package_energy_j = eref->package_energy_j;
	refs->cpu_energy_j = eref->cpu_energy_j;
}

struct run_refcache *run_refcache_new(void)
{
	struct run_refcache *c = sim_calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (pthread_mutex_init(&c->lock, NULL)) {
		sim_free(c);
		return NULL;
	}
	if (pthread_cond_init(&c->done, NULL)) {
		pthread_mutex_destroy(&c->lock);
		sim_free(c);
		return NULL;
	}
	return c;
}

void run_refcache_free(struct run_refcache *c)
{
	if (!c)
		return;
	while (c->refs) {
		struct ref_entry *e = c->refs;

		c->refs = e->next;
		sim_free(e->key);
		sim_free(e);
	}
	while (c->hashes) {
		struct hash_entry *h = c->hashes;

		c->hashes = h->next;
		sim_free(h->path);
		sim_free(h);
	}
	pthread_cond_destroy(&c->done);
	pthread_mutex_destroy(&c->lock);
	sim_free(c);
}

/*
 * The key: every sim_config field that changes a reference run's numbers, and the trace.
 *   trace            its content hash (FNV-1a 64 of its bytes, as reports print it): the
 *                    records, CPUs, start, end, tick phase and hz included; not its name
 *                    or path, which only messages use. Two different traces of one
 *                    process hashing alike is a 2^-64 chance, taken.
 *   machine          its canonical text (machine_canon_text(): the table, topology, powers
 *                    and actual wake latencies; --topology and intel_idle.* are in it),
 *                    compared whole, not by hash; not its name or description.
 *   hz               the resolved one (--hz, else the trace's, else 250).
 *   latency_req_ns, disabled, wake_model, wake_seed: they change the choices or costs.
 *   queue, global_order: the engine's variants give identical numbers (tests/test_replay.c)
 *                    but exist to check just that, so a run asking for one gets its own.
 * Not in it: gov and gov_params (the key is of both references, which have no tunables);
 * nr_cpus (the trace's); explain and its limits (logs; a run that keeps the oracle's
 * timeline does not use the cache); progress; agent and shadows (none in a replay);
 * gov_timeout_ns (the references are built in, never governor files).
 */
char *run_refkey(uint64_t trace_hash, const struct sim_config *cfg)
{
	char head[256], probe[1];
	size_t hn, mn;
	char *key;

	hn = (size_t)snprintf(head, sizeof(head),
			      "trace=%016llx hz=%d latency_req_ns=%lld disabled=%#x "
			      "wake_model=%d wake_seed=%llu queue=%d global_order=%d\n",
			      (unsigned long long)trace_hash, cfg->hz,
			      (long long)cfg->latency_req_ns, cfg->disabled, (int)cfg->wake_model,
			      (unsigned long long)cfg->wake_seed, (int)cfg->queue,
			      (int)cfg->global_order);
	mn = machine_canon_text(cfg->machine, probe, sizeof(probe));
	key = sim_malloc(hn + mn + 1);
	if (!key)
		return NULL;
	memcpy(key, head, hn);
	machine_canon_text(cfg->machine, key + hn, mn + 1);
	return key;
}

static struct ref_entry *find_ref(const struct run_refcache *c, const char *key)
{
	struct ref_entry *e;

	for (e = c->refs; e && strcmp(e->key, key); e = e->next)
		;
	return e;
}

int run_refcache_get(struct run_refcache *c, const char *key, struct run_refs *refs)
{
	struct ref_entry *e;
	int rc = 0;

	pthread_mutex_lock(&c->lock);
	while ((e = find_ref(c, key)) && e->pending)
		pthread_cond_wait(&c->done, &c->lock);
	if (e) {
		*refs = e->refs;
		rc = 1;
	} else if (!(e = sim_calloc(1, sizeof(*e))) || !(e->key = sim_strdup(key))) {
		sim_free(e);
		rc = -1;
	} else {
		e->pending = true;
		e->next = c->refs;
		c->refs = e;
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

void run_refcache_put(struct run_refcache *c, const char *key, const struct run_refs *refs)
{
	struct ref_entry *e;

	pthread_mutex_lock(&c->lock);
	e = find_ref(c, key);
	if (e && e->pending) {
		e->refs = *refs;
		e->pending = false;
		c->computed++;
	}
	pthread_cond_broadcast(&c->done);
	pthread_mutex_unlock(&c->lock);
}

void run_refcache_abandon(struct run_refcache *c, const char *key)
{
	struct ref_entry **p, *e;

	pthread_mutex_lock(&c->lock);
	for (p = &c->refs; (e = *p) && strcmp(e->key, key); p = &e->next)
		;
	if (e && e->pending) { /* a waiting thread then claims it and tries itself */
		*p = e->next;
		sim_free(e->key);
		sim_free(e);
	}
	pthread_cond_broadcast(&c->done);
	pthread_mutex_unlock(&c->lock);
}

unsigned long run_refcache_computed(struct run_refcache *c)
{
	unsigned long n;

	pthread_mutex_lock(&c->lock);
	n = c->computed;
	pthread_mutex_unlock(&c->lock);
	return n;
}

static bool same_file(const struct hash_entry *h, const char *path, const struct stat *st)
{
	return !strcmp(h->path, path) && h->dev == st->st_dev && h->ino == st->st_ino &&
	       h->size == (int64_t)st->st_size && h->mtime.tv_sec == st->st_mtim.tv_sec &&
	       h->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

int run_refcache_file_hash(struct run_refcache *c, const char *path, uint64_t *hash,
			   struct sim_error *err)
{
	struct hash_entry *h;
	struct stat st;

	if (stat(path, &st))
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "cannot open: %s",
				     strerror(errno));
	if (!c)
		return cfgrec_file_hash(path, hash, err);
	pthread_mutex_lock(&c->lock);
	for (h = c->hashes; h && !same_file(h, path, &st); h = h->next)
		;
	if (h)
		*hash = h->hash;
	pthread_mutex_unlock(&c->lock);
	if (h)
		return 0;
	/* Two threads may both hash a new file: the same number, kept once. */
	if (cfgrec_file_hash(path, hash, err))
		return -1;
	h = sim_calloc(1, sizeof(*h));
	if (!h || !(h->path = sim_strdup(path))) {
		sim_free(h);
		return 0; /* not remembered: hashed again next time */
	}
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	h->size = (int64_t)st.st_size;
	h->mtime = st.st_mtim;
	h->hash = *hash;
	pthread_mutex_lock(&c->lock);
	h->next = c->hashes;
	c->hashes = h;
	pthread_mutex_unlock(&c->lock);
	return 0;
}
