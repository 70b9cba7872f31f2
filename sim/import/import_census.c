// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_census.c - a census of a kernel trace's timers: per CPU and per callback (the
 * function= of hrtimer_start/timer_start), how often each was armed, re-armed while pending,
 * cancelled and expired, its kind and flags, the median interval between its expiries and
 * between its arms, its median timeout at arming, and how many idle periods its expiry
 * ended (docs/import.md, "Timer census"; the summary prints it, sim/import/import_report.c).
 *
 * Memory: one row per (CPU, kind, callback) and one per (kind, callback) for the machine,
 * each with at most 3 x CENSUS_SAMPLES values; one entry per distinct timer (kind, address),
 * at most CENSUS_MAX_TIMERS, which remembers its callback for its cancels (the kernel's
 * timer_cancel and hrtimer_cancel do not print it). Nothing grows with the trace's length.
 *
 * The kernel traces a cancel whenever it takes a timer off its queue: a re-arm of a pending
 * timer shows as a cancel followed, on the same CPU, by a start of the same timer (mod_timer
 * and hrtimer_start remove it first), and every expiry as a cancel followed by its expiry
 * (__run_hrtimer, expire_timers). Such a cancel counts as a re-arm, or not at all; only the
 * others are cancels. So each CPU holds back its last cancel until its next timer event.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- callbacks by name ---- */

/* An open-addressing index of cap empty slots (-1). */
static int32_t *empty_index(uint32_t cap)
{
	int32_t *h = sim_malloc(cap * sizeof(*h));
	uint32_t i;

	for (i = 0; h && i < cap; i++)
		h[i] = -1;
	return h;
}

static uint32_t str_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static int32_t *fn_slot(const struct fn_table *t, int32_t *hash, uint32_t cap, const char *s,
			size_t n)
{
	uint32_t i = str_hash(s, n) & (cap - 1);

	while (hash[i] >= 0 && (strlen(t->name[hash[i]]) != n || memcmp(t->name[hash[i]], s, n)))
		i = (i + 1) & (cap - 1);
	return &hash[i];
}

static int fn_add(struct fn_table *t, const char *s, size_t n)
{
	char *c;
	size_t cap = t->capn;

	if (2 * (t->n + 1) > t->caph) {
		uint32_t nc = t->caph ? 2 * t->caph : 64, i;
		int32_t *h = empty_index(nc);

		if (!h)
			return -1;
		for (i = 0; i < t->n; i++)
			*fn_slot(t, h, nc, t->name[i], strlen(t->name[i])) = (int32_t)i;
		sim_free(t->hash);
		t->hash = h;
		t->caph = nc;
	}
	if (sim_grow((void **)&t->name, &cap, t->n + 1, sizeof(*t->name)))
		return -1;
	t->capn = (uint32_t)cap;
	c = sim_malloc(n + 1);
	if (!c)
		return -1;
	memcpy(c, s, n);
	c[n] = '\0';
	t->name[t->n] = c;
	*fn_slot(t, t->hash, t->caph, s, n) = (int32_t)t->n;
	return (int)t->n++;
}

int fn_init(struct fn_table *t)
{
	memset(t, 0, sizeof(*t));
	return fn_add(t, "(unknown)", 9) < 0 || fn_add(t, "(other)", 7) < 0 ? -1 : 0;
}

void fn_release(struct fn_table *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		sim_free(t->name[i]);
	sim_free(t->name);
	sim_free(t->hash);
	memset(t, 0, sizeof(*t));
}

int32_t fn_intern(struct fn_table *t, const char *s, size_t n)
{
	int32_t *slot;
	int i;

	if (!t || !t->caph)
		return FN_UNKNOWN;
	if (!n)
		return FN_UNKNOWN;
	slot = fn_slot(t, t->hash, t->caph, s, n);
	if (*slot >= 0)
		return *slot;
	if (t->n >= IMP_MAX_FUNCTIONS + 2)
		return FN_OTHER;
	i = fn_add(t, s, n);
	return i < 0 ? FN_OTHER : i;
}

const char *fn_name(const struct fn_table *t, int32_t i)
{
	return i >= 0 && (uint32_t)i < t->n ? t->name[i] : "(unknown)";
}

/* ---- medians ---- */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static int sample_add(struct sample_set *s, int64_t v)
{
	uint64_t k;

	s->seen++;
	if (s->n < CENSUS_SAMPLES) {
		if (sim_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
			return -1;
		s->v[s->n++] = v;
		return 0;
	}
	k = splitmix(&s->rng) % s->seen; /* algorithm R: keep v with probability n/seen */
	if (k < CENSUS_SAMPLES)
		s->v[k] = v;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t sample_median(const struct sample_set *s)
{
	int64_t v[CENSUS_SAMPLES];

	if (!s->n)
		return -1;
	memcpy(v, s->v, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), cmp_i64);
	return v[(s->n - 1) / 2];
}

/* ---- rows ---- */

static uint32_t row_hash(int cpu, unsigned kind, int32_t fn)
{
	uint64_t h = ((uint64_t)(uint32_t)cpu << 33 ^ (uint64_t)kind << 32 ^ (uint32_t)fn) *
		     0x9E3779B97F4A7C15ULL;

	return (uint32_t)(h >> 32);
}

static int32_t *row_slot(const struct census *C, int32_t *hash, uint32_t cap, int cpu,
			 unsigned kind, int32_t fn)
{
	uint32_t i = row_hash(cpu, kind, fn) & (cap - 1);

	while (hash[i] >= 0) {
		const struct census_row *r = &C->row[hash[i]];

		if (r->cpu == cpu && r->kind == kind && r->fn == fn)
			break;
		i = (i + 1) & (cap - 1);
	}
	return &hash[i];
}

/* The row of (cpu, kind, fn), made at first sight; -1 when memory is exhausted. */
static int32_t row_get(struct census *C, int cpu, unsigned kind, int32_t fn)
{
	int32_t *slot;
	struct census_row *r;

	if (2 * (C->nrow + 1) > C->caprowhash) {
		uint32_t nc = C->caprowhash ? 2 * C->caprowhash : 64, i;
		int32_t *h = empty_index(nc);

		if (!h)
			return -1;
		for (i = 0; i < C->nrow; i++)
			*row_slot(C, h, nc, C->row[i].cpu, C->row[i].kind, C->row[i].fn) =
				(int32_t)i;
		sim_free(C->rowhash);
		C->rowhash = h;
		C->caprowhash = nc;
	}
	slot = row_slot(C, C->rowhash, C->caprowhash, cpu, kind, fn);
	if (*slot >= 0)
		return *slot;
	if (sim_grow((void **)&C->row, &C->caprow, C->nrow + 1, sizeof(*C->row)))
		return -1;
	r = &C->row[C->nrow];
	memset(r, 0, sizeof(*r));
	r->cpu = cpu;
	r->kind = (uint8_t)kind;
	r->fn = fn;
	r->last_arm_ns = r->last_expiry_ns = -1;
	r->period.rng = r->arm_gap.rng = r->timeout.rng = row_hash(cpu, kind, fn);
	*slot = (int32_t)C->nrow;
	return (int32_t)C->nrow++;
}

/* ---- timers: their callbacks, for cancels ---- */

static struct census_timer *timer_slot(struct census_timer *tm, uint32_t cap, unsigned kind,
				       uint64_t id)
{
	uint32_t i = (uint32_t)(((id ^ (uint64_t)kind << 63) * 0x9E3779B97F4A7C15ULL) >> 32) &
		     (cap - 1);

	while (tm[i].used && (tm[i].id != id || tm[i].kind != kind))
		i = (i + 1) & (cap - 1);
	return &tm[i];
}

/* Remember the callback of timer (kind, id); silently not beyond CENSUS_MAX_TIMERS. */
static int timer_note(struct census *C, unsigned kind, uint64_t id, int32_t fn, uint8_t flags)
{
	struct census_timer *t;

	if (2 * (C->ntm + 1) > C->captm) {
		uint32_t nc = C->captm ? 2 * C->captm : 256, i;
		struct census_timer *tm;

		if (C->ntm >= CENSUS_MAX_TIMERS) {
			t = timer_slot(C->tm, C->captm, kind, id);
			if (t->used) {
				t->fn = fn;
				t->flags = flags;
			} else {
				C->unremembered++;
			}
			return 0;
		}
		tm = sim_calloc(nc, sizeof(*tm));
		if (!tm)
			return -1;
		for (i = 0; i < C->captm; i++)
			if (C->tm[i].used)
				*timer_slot(tm, nc, C->tm[i].kind, C->tm[i].id) = C->tm[i];
		sim_free(C->tm);
		C->tm = tm;
		C->captm = nc;
	}
	t = timer_slot(C->tm, C->captm, kind, id);
	if (!t->used) {
		t->used = 1;
		t->id = id;
		t->kind = (uint8_t)kind;
		C->ntm++;
	}
	t->fn = fn;
	t->flags = flags;
	return 0;
}

static const struct census_timer *timer_find(const struct census *C, unsigned kind, uint64_t id)
{
	const struct census_timer *t;

	if (!C->captm)
		return NULL;
	t = timer_slot(C->tm, C->captm, kind, id);
	return t->used ? t : NULL;
}

/* ---- events ---- */

int census_init(struct census *C, struct fn_table *fns, int cpus)
{
	memset(C, 0, sizeof(*C));
	C->fns = fns;
	C->cpus = cpus;
	C->cpu = sim_calloc((size_t)(cpus > 0 ? cpus : 1), sizeof(*C->cpu));
	return C->cpu ? 0 : -1;
}

void census_release(struct census *C)
{
	size_t i;

	for (i = 0; i < C->nrow; i++) {
		sim_free(C->row[i].period.v);
		sim_free(C->row[i].arm_gap.v);
		sim_free(C->row[i].timeout.v);
	}
	sim_free(C->row);
	sim_free(C->rowhash);
	sim_free(C->tm);
	sim_free(C->cpu);
	memset(C, 0, sizeof(*C));
}

/* The CPU's row and the machine's row of the same callback. */
static int both_rows(struct census *C, int cpu, unsigned kind, int32_t fn, int32_t *rows)
{
	rows[0] = row_get(C, cpu, kind, fn);
	rows[1] = rows[0] < 0 ? -1 : row_get(C, -1, kind, fn);
	return rows[1] < 0 ? -1 : 0;
}

/* The cancel held back: a re-arm (next: a start of the same timer), part of its expiry (next:
 * its expiry; nothing is counted), or a cancel. */
enum { HELD_CANCEL, HELD_REARM, HELD_EXPIRY };

static int settle_cancel(struct census *C, struct census_cpu *p, int what)
{
	int32_t rows[2];
	const struct census_row *r;
	int k;

	if (!p->cancel_pending)
		return 0;
	p->cancel_pending = false;
	if (what == HELD_EXPIRY)
		return 0;
	r = &C->row[p->row];
	if (both_rows(C, r->cpu, r->kind, r->fn, rows))
		return -1;
	for (k = 0; k < 2; k++) {
		if (what == HELD_REARM)
			C->row[rows[k]].rearmed++;
		else
			C->row[rows[k]].cancelled++;
	}
	return 0;
}

/* An interval from `last` to t into the row's samples, and the machine row's. */
static int interval(struct census *C, const int32_t *rows, size_t off, int64_t last, int64_t t)
{
	int k;

	if (last < 0 || t < last)
		return 0;
	for (k = 0; k < 2; k++)
		if (sample_add((struct sample_set *)((char *)&C->row[rows[k]] + off), t - last))
			return -1;
	return 0;
}

int census_event(struct census *C, const struct kevent *ev, unsigned kind, int64_t timeout_ns,
		 int32_t *fn)
{
	struct census_cpu *p;
	const struct census_timer *known;
	int32_t rows[2];
	struct census_row *r;
	bool start = ev->type == KEV_HRTIMER_START || ev->type == KEV_TIMER_START;
	bool cancel = ev->type == KEV_HRTIMER_CANCEL || ev->type == KEV_TIMER_CANCEL;
	uint8_t flags = ev->flags & (KF_DEFERRABLE | KF_PINNED);
	int k;

	*fn = ev->fn; /* set on every path: the caller reads it */
	if (ev->cpu < 0 || ev->cpu >= C->cpus)
		return 0;
	C->events++;
	p = &C->cpu[ev->cpu];
	if (*fn == FN_UNKNOWN && (known = timer_find(C, kind, ev->id))) {
		*fn = known->fn;
		flags = known->flags;
	}
	/* a cancel held back: a re-arm or an expiry if this event is one of the same timer */
	if (settle_cancel(C, p,
			  p->kind != kind || p->id != ev->id || cancel ? HELD_CANCEL
			  : start				    ? HELD_REARM
								    : HELD_EXPIRY))
		return -1;
	if (cancel) {
		p->row = row_get(C, ev->cpu, kind, *fn);
		if (p->row < 0)
			return -1;
		p->cancel_pending = true;
		p->kind = (uint8_t)kind;
		p->id = ev->id;
		return 0;
	}
	if (ev->fn != FN_UNKNOWN && timer_note(C, kind, ev->id, ev->fn, flags))
		return -1;
	if (both_rows(C, ev->cpu, kind, *fn, rows))
		return -1;
	r = &C->row[rows[0]];
	if (start) {
		if (interval(C, rows, offsetof(struct census_row, arm_gap), r->last_arm_ns,
			     ev->time_ns))
			return -1;
		r->last_arm_ns = ev->time_ns;
		for (k = 0; k < 2; k++) {
			r = &C->row[rows[k]];
			r->armed++;
			r->deferrable |= (flags & KF_DEFERRABLE) != 0;
			r->pinned |= (flags & KF_PINNED) != 0;
			if (timeout_ns >= 0 && sample_add(&r->timeout, timeout_ns))
				return -1;
		}
		return 0;
	}
	if (interval(C, rows, offsetof(struct census_row, period), r->last_expiry_ns,
		     ev->time_ns))
		return -1;
	r->last_expiry_ns = ev->time_ns;
	for (k = 0; k < 2; k++)
		C->row[rows[k]].expired++;
	return 0;
}

int census_idle_ended(struct census *C, int cpu, unsigned kind, int32_t fn)
{
	int32_t rows[2];

	if (cpu < 0 || cpu >= C->cpus)
		return 0;
	if (both_rows(C, cpu, kind, fn, rows))
		return -1;
	C->row[rows[0]].idle_ended++;
	C->row[rows[1]].idle_ended++;
	return 0;
}

int census_finish(struct census *C)
{
	int i;

	for (i = 0; i < C->cpus; i++)
		if (settle_cancel(C, &C->cpu[i], HELD_CANCEL))
			return -1;
	return 0;
}
