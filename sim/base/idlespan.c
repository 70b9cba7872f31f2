// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlespan.c - intersecting lists of idle spans.
 *
 * The lanes of the engine run each CPU on its own, so their energy accounting cannot follow
 * one global order of level changes. Each CPU logs its idle spans instead; a core's spans
 * are the intersection of its threads' spans, a package's the intersection of its cores'.
 * Intersecting two time-ordered lists is one pass that advances whichever span ends first:
 * written without branches (which list advances is a coin toss for a predictor), it costs
 * a few instructions per span and replaced a counting sort of all level changes plus a
 * replay of them in time order (measured: 21 ns of an oracle idle entry's 61 on an 8-CPU
 * replay, bench/bench_engine).
 */
#include "sim/base/idlespan.h"
#include "sim/base/alloc.h"

#include <string.h>

size_t idle_span_intersect(const struct idle_span *x, size_t nx, const struct idle_span *y,
			   size_t ny, struct idle_span *out)
{
	size_t i = 0, j = 0, n = 0;

	while (i < nx && j < ny) {
		const struct idle_span *a = &x[i], *b = &y[j];
		int64_t s = a->start_ns > b->start_ns ? a->start_ns : b->start_ns;
		int64_t e = a->end_ns < b->end_ns ? a->end_ns : b->end_ns;
		size_t a_first = a->end_ns <= b->end_ns;

		out[n].start_ns = s;
		out[n].end_ns = e;
		out[n].level = a->level < b->level ? a->level : b->level;
		n += s < e;
		i += a_first;
		j += 1 - a_first;
	}
	return n;
}

int idle_span_fold(struct idle_span_fold *f, const struct idle_span *const *lists,
		   const size_t *lens, int m, struct idle_span *out, const struct idle_span **res,
		   size_t *n)
{
	size_t total = 0;
	int k, c, r;

	*res = lists[0];
	*n = lens[0];
	if (m == 1)
		return 0;
	*res = out;
	if (m == 2) {
		*n = idle_span_intersect(lists[0], lens[0], lists[1], lens[1], out);
		return 0;
	}
	for (k = 0; k < m; k++)
		total += lens[k];
	*n = 0;
	if (!total)
		return 0;
	if (sim_grow((void **)&f->buf[0], &f->buf_cap[0], total, sizeof(**f->buf)) ||
	    sim_grow((void **)&f->buf[1], &f->buf_cap[1], total, sizeof(**f->buf)) ||
	    sim_grow((void **)&f->lists, &f->lists_cap, (size_t)m, sizeof(*f->lists)) ||
	    sim_grow((void **)&f->lens, &f->lens_cap, (size_t)m, sizeof(*f->lens)))
		return -1;
	memcpy(f->lists, lists, (size_t)m * sizeof(*lists));
	memcpy(f->lens, lens, (size_t)m * sizeof(*lens));
	/* Each round halves the lists; the last one (two lists) writes into out. Every list
	 * of a round lives in the buffer the previous round wrote, or is an input. */
	for (c = m, r = 0; c > 1; c = (c + 1) / 2, r++) {
		struct idle_span *dst = c == 2 ? out : f->buf[r & 1];
		size_t off = 0;

		for (k = 0; 2 * k < c; k++) {
			const struct idle_span *a = f->lists[2 * k];
			size_t na = f->lens[2 * k];

			if (2 * k + 1 < c) {
				size_t nb = f->lens[2 * k + 1];

				f->lens[k] = idle_span_intersect(a, na, f->lists[2 * k + 1], nb,
								 dst + off);
				f->lists[k] = dst + off;
				off += na + nb;
			} else {
				/* the odd list out moves on as it is */
				if (na)
					memcpy(dst + off, a, na * sizeof(*a));
				f->lens[k] = na;
				f->lists[k] = dst + off;
			}
		}
	}
	*n = f->lens[0];
	return 0;
}

void idle_span_fold_free(struct idle_span_fold *f)
{
	sim_free(f->buf[0]);
	sim_free(f->buf[1]);
	sim_free(f->lists);
	sim_free(f->lens);
	memset(f, 0, sizeof(*f));
}

#define STACK_TMP IDLE_SPAN_STACK_LEVELS

static int stack_room(struct idle_span_stack *s, int b, size_t need)
{
	return sim_grow((void **)&s->buf[b], &s->cap[b], need ? need : 1, sizeof(**s->buf));
}

/* Buffers a and b change places, with their capacities and counts. */
static void stack_swap(struct idle_span_stack *s, int a, int b)
{
	struct idle_span *buf = s->buf[a];
	size_t cap = s->cap[a], n = s->n[a];

	s->buf[a] = s->buf[b];
	s->cap[a] = s->cap[b];
	s->n[a] = s->n[b];
	s->buf[b] = buf;
	s->cap[b] = cap;
	s->n[b] = n;
}

void idle_span_stack_reset(struct idle_span_stack *s)
{
	s->have = 0;
}

int idle_span_stack_push(struct idle_span_stack *s, const struct idle_span *x, size_t nx)
{
	const struct idle_span *cur = x;
	size_t ncur = nx;
	int h = 0, held = -1; /* the level whose buffer holds cur; -1: x itself */

	/* carry: level h's list and cur make one of level h + 1 */
	while (h < IDLE_SPAN_STACK_LEVELS && (s->have & (1ull << h))) {
		if (stack_room(s, STACK_TMP, s->n[h] + ncur))
			return -1;
		s->n[STACK_TMP] = idle_span_intersect(s->buf[h], s->n[h], cur, ncur,
						      s->buf[STACK_TMP]);
		s->have &= ~(1ull << h);
		stack_swap(s, h, STACK_TMP);
		cur = s->buf[h];
		ncur = s->n[h];
		held = h++;
	}
	if (h == IDLE_SPAN_STACK_LEVELS)
		return -1; /* 2^32 lists: not a machine */
	if (held >= 0) {
		stack_swap(s, h, held);
	} else {
		if (stack_room(s, h, nx))
			return -1;
		if (nx)
			memcpy(s->buf[h], x, nx * sizeof(*x));
		s->n[h] = nx;
	}
	s->have |= 1ull << h;
	return 0;
}

int idle_span_stack_result(struct idle_span_stack *s, const struct idle_span **res, size_t *n)
{
	int h, acc = -1;

	for (h = 0; h < IDLE_SPAN_STACK_LEVELS; h++) {
		if (!(s->have & (1ull << h)))
			continue;
		if (acc < 0) {
			acc = h;
			continue;
		}
		if (stack_room(s, STACK_TMP, s->n[acc] + s->n[h]))
			return -1;
		s->n[STACK_TMP] = idle_span_intersect(s->buf[acc], s->n[acc], s->buf[h], s->n[h],
						      s->buf[STACK_TMP]);
		stack_swap(s, acc, STACK_TMP);
		s->have &= ~(1ull << h);
	}
	*res = acc < 0 ? NULL : s->buf[acc];
	*n = acc < 0 ? 0 : s->n[acc];
	return 0;
}

void idle_span_stack_free(struct idle_span_stack *s)
{
	int b;

	for (b = 0; b <= IDLE_SPAN_STACK_LEVELS; b++)
		sim_free(s->buf[b]);
	memset(s, 0, sizeof(*s));
}

void idle_span_charge(const struct idle_span *s, size_t n, int64_t from_ns, int64_t to_ns,
		      int64_t *level_ns)
{
	int64_t idle = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t d = s[i].end_ns - s[i].start_ns;

		level_ns[s[i].level] += d;
		idle += d;
	}
	level_ns[0] += to_ns - from_ns - idle;
}
