// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - latency distributions, sums over CPUs, and derived percentages.
 */
#include "sim/engine/stats.h"
#include "sim/base/alloc.h"

#include <math.h>
#include <string.h>

void lat_hist_init(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void lat_hist_release(struct lat_hist *h)
{
	int k;

	if (h->chunks)
		for (k = 0; k < LAT_CHUNKS; k++)
			sim_free(h->chunks[k]);
	sim_free(h->chunks);
	h->chunks = NULL;
}

/* Bucket b's count (0 if its chunk was never needed). */
static uint64_t bucket_count(const struct lat_hist *h, int b)
{
	const uint64_t *c = h->chunks ? h->chunks[b / LAT_CHUNK] : NULL;

	return c ? c[b % LAT_CHUNK] : 0;
}

/* Bucket b's counter, its chunk (and the table) allocated if need be; NULL: no memory. */
static uint64_t *bucket_ref(struct lat_hist *h, int b)
{
	uint64_t **c;

	if (!h->chunks && !(h->chunks = sim_calloc(LAT_CHUNKS, sizeof(*h->chunks))))
		return NULL;
	c = &h->chunks[b / LAT_CHUNK];
	if (!*c && !(*c = sim_calloc(LAT_CHUNK, sizeof(**c))))
		return NULL;
	return &(*c)[b % LAT_CHUNK];
}

/* Bucket of v >= 0: exact below 64, then 32 sub-buckets per power of two. */
static int bucket_of(int64_t v)
{
	int e;

	if (v < 64)
		return (int)v;
	e = 63 - __builtin_clzll((unsigned long long)v);
	return 64 + (e - 6) * 32 + (int)((v >> (e - LAT_SUB_BITS)) & 31);
}

/* Largest value that falls in bucket b. */
static int64_t bucket_top(int b)
{
	int e, sub;

	if (b < 64)
		return b;
	e = (b - 64) / 32 + 6;
	sub = (b - 64) % 32;
	return (((int64_t)(33 + sub)) << (e - LAT_SUB_BITS)) - 1;
}

/*
 * The exact value v: its index, or -1 (then *slot is where it would go). Values are found
 * through a small open-addressing table, since most samples that are not exit latencies
 * miss every exact value (a scan of all of them cost more than the rest of the add).
 */
static int exact_find(const struct lat_hist *h, int64_t v, unsigned int *slot)
{
	const unsigned int mask = 4 * LAT_EXACT - 1;
	unsigned int s = (unsigned int)(((uint64_t)v * 0x9E3779B97F4A7C15ULL) >> 58) & mask;

	while (h->exact_slot[s]) {
		int i = h->exact_slot[s] - 1;

		if (h->exact_val[i] == v)
			return i;
		s = (s + 1) & mask;
	}
	*slot = s;
	return -1;
}

/* Make v exact (count 0) if there is room; returns its index, or -1. */
static int exact_insert(struct lat_hist *h, int64_t v)
{
	unsigned int slot;
	int i = exact_find(h, v, &slot);

	if (i >= 0 || h->nr_exact == LAT_EXACT)
		return i;
	i = h->nr_exact++;
	h->exact_val[i] = v;
	h->exact_cnt[i] = 0;
	h->exact_slot[slot] = (uint8_t)(i + 1);
	return i;
}

void lat_hist_reserve(struct lat_hist *h, int64_t v)
{
	exact_insert(h, v);
}

int lat_hist_add(struct lat_hist *h, int64_t v, uint64_t count)
{
	int i;

	if (!count)
		return 0;
	if (v < 0)
		v = 0;
	i = exact_insert(h, v);
	if (i >= 0) {
		h->exact_cnt[i] += count;
	} else {
		uint64_t *b = bucket_ref(h, bucket_of(v));

		if (!b)
			return -1;
		*b += count;
	}
	h->n += count;
	h->sum_ns += v * (int64_t)count;
	if (v > h->max_ns)
		h->max_ns = v;
	return 0;
}

int lat_hist_exact_of(const struct lat_hist *h, int64_t v)
{
	unsigned int slot;

	return exact_find(h, v, &slot);
}

int lat_bucket_of(int64_t v)
{
	return bucket_of(v);
}

int lat_hist_add_bucket(struct lat_hist *h, int b, uint64_t count)
{
	uint64_t *c = bucket_ref(h, b);

	if (!c)
		return -1;
	*c += count;
	h->n += count;
	return 0;
}

int lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	int i, j;

	for (i = 0; i < src->nr_exact; i++) {
		if (!src->exact_cnt[i])
			lat_hist_reserve(dst, src->exact_val[i]);
		else if (lat_hist_add(dst, src->exact_val[i], src->exact_cnt[i]))
			return -1;
	}
	if (!src->chunks)
		return 0;
	/* by chunk, those allocated only: the sums of a run's CPUs merge every CPU's histogram,
	 * and a bucket at a time that was most of a 4096-CPU replay's fixed cost */
	for (i = 0; i < LAT_CHUNKS; i++) {
		const uint64_t *c = src->chunks[i];

		for (j = 0; c && j < LAT_CHUNK; j++) {
			uint64_t *b;

			if (!c[j])
				continue;
			if (!(b = bucket_ref(dst, i * LAT_CHUNK + j)))
				return -1;
			*b += c[j];
			dst->n += c[j];
		}
	}
	/* Bucketed values are already in src's sum and max. */
	dst->sum_ns += src->sum_ns;
	for (i = 0; i < src->nr_exact; i++)
		dst->sum_ns -= src->exact_val[i] * (int64_t)src->exact_cnt[i];
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	return 0;
}

int64_t lat_hist_percentile(const struct lat_hist *h, double p)
{
	uint64_t rank, seen = 0;
	int order[LAT_EXACT];
	int i, j, b = 0;

	if (!h->n)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->n);
	if (rank < 1)
		rank = 1;
	/* Sort the exact values (at most LAT_EXACT: insertion sort). */
	for (i = 0; i < h->nr_exact; i++) {
		for (j = i; j > 0 && h->exact_val[order[j - 1]] > h->exact_val[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	/* Walk exact values and buckets together in increasing order. */
	i = 0;
	for (;;) {
		int64_t ev = i < h->nr_exact ? h->exact_val[order[i]] : INT64_MAX;
		int64_t bv = INT64_MAX;

		while (h->chunks && b < LAT_BUCKETS && !bucket_count(h, b))
			b++;
		if (h->chunks && b < LAT_BUCKETS)
			bv = bucket_top(b);
		if (ev == INT64_MAX && bv == INT64_MAX)
			return h->max_ns;
		if (ev <= bv) {
			seen += h->exact_cnt[order[i++]];
			if (seen >= rank)
				return ev;
		} else {
			seen += bucket_count(h, b++);
			if (seen >= rank)
				return bv < h->max_ns ? bv : h->max_ns;
		}
	}
}

double lat_hist_mean(const struct lat_hist *h)
{
	return h->n ? (double)h->sum_ns / (double)h->n : 0.0;
}

void run_stats_release(struct run_stats *rs)
{
	int i;

	if (rs->cpus) {
		for (i = 0; i < rs->nr_cpus; i++)
			lat_hist_release(&rs->cpus[i].wake_latency);
		sim_free(rs->cpus);
	}
	lat_hist_release(&rs->total.wake_latency);
	memset(rs, 0, sizeof(*rs));
}

int run_stats_sum(struct run_stats *rs)
{
	struct cpu_stats *t = &rs->total;
	int c, i;

	lat_hist_release(&t->wake_latency);
	memset(t, 0, sizeof(*t));
	t->cpu = t->package = t->core = t->thread = -1;
	for (c = 0; c < rs->nr_cpus; c++) {
		const struct cpu_stats *s = &rs->cpus[c];

		for (i = 0; i < rs->state_count; i++) {
			t->states[i].usage += s->states[i].usage;
			t->states[i].time_ns += s->states[i].time_ns;
			t->states[i].above += s->states[i].above;
			t->states[i].below += s->states[i].below;
			t->states[i].rejected += s->states[i].rejected;
			t->states[i].disable |= s->states[i].disable;
		}
		for (i = 0; i < WAKE_NR_CAUSES; i++)
			t->wakeups[i] += s->wakeups[i];
		t->absorbed += s->absorbed;
		t->polled += s->polled;
		t->spilled_ns += s->spilled_ns;
		t->idle_periods += s->idle_periods;
		t->busy_ns += s->busy_ns;
		t->truncated_ns += s->truncated_ns;
		if (lat_hist_merge(&t->wake_latency, &s->wake_latency))
			return -1;
	}
	return 0;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

void stats_summarize(const struct run_stats *rs, const struct cpu_stats *cs, int nr_cpus,
		     struct stats_summary *out)
{
	double span = (double)(rs->end_ns - rs->start_ns) * nr_cpus;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < rs->state_count; i++) {
		out->idle_entries += cs->states[i].usage;
		out->above += cs->states[i].above;
		out->below += cs->states[i].below;
		out->residency_pct[i] = pct((double)cs->states[i].time_ns, span);
	}
	out->hits = out->idle_entries - out->above - out->below;
	out->above_pct = pct((double)out->above, (double)out->idle_entries);
	out->below_pct = pct((double)out->below, (double)out->idle_entries);
	out->hits_pct = pct((double)out->hits, (double)out->idle_entries);
	out->busy_pct = pct((double)cs->busy_ns, span);
	out->truncated_pct = pct((double)cs->truncated_ns, span);
	for (i = 0; i < WAKE_NR_CAUSES; i++)
		out->wakeups += cs->wakeups[i];
	out->lat_samples = cs->wake_latency.n;
	out->lat_mean_ns = lat_hist_mean(&cs->wake_latency);
	out->lat_p50_ns = lat_hist_percentile(&cs->wake_latency, 50.0);
	out->lat_p99_ns = lat_hist_percentile(&cs->wake_latency, 99.0);
	out->lat_max_ns = cs->wake_latency.max_ns;
}
