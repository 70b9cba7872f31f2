// SPDX-License-Identifier: GPL-2.0-only
/*
 * levelsort.c - the CPUs' level logs into one time order.
 *
 * The usual way is a counting sort on the time, in about as many buckets as changes, then
 * one insertion pass for changes that share a bucket: a few independent passes over the
 * data, where a merge is one long chain of unpredictable comparisons (measured: pairwise
 * merging took over a third of an 8-CPU replay). When the changes crowd into few buckets
 * (a long window with a burst in it) the insertion pass gives up after 8 moves per change,
 * and rounds of pairwise merges sort the runs instead: O(n log runs) whatever the times.
 */
#include "sim/levelsort.h"
#include "sim/alloc.h"

#include <stdbool.h>
#include <string.h>

#define MOVES_PER_CHANGE 8

static const struct level_change *merge_pairwise(struct level_sort *ls,
						 const struct level_change *const *runs,
						 const size_t *lens, int nruns_in, size_t total)
{
	struct level_change *a = ls->buf, *b = ls->buf + total, *tmp;
	size_t *bound = ls->bound, nruns = 0, w, i;
	int k;

	bound[0] = 0;
	for (k = 0; k < nruns_in; k++) {
		if (!lens[k])
			continue;
		memcpy(a + bound[nruns], runs[k], lens[k] * sizeof(*a));
		bound[nruns + 1] = bound[nruns] + lens[k];
		nruns++;
	}
	while (nruns > 1) {
		for (w = 0; w + 1 < nruns; w += 2) {
			const struct level_change *x = a + bound[w], *xe = a + bound[w + 1];
			const struct level_change *y = xe, *ye = a + bound[w + 2];
			struct level_change *o = b + bound[w];

			/* Without a branch: which side comes first is a coin toss that a
			 * predictor loses half the time. */
			while (x < xe && y < ye) {
				uintptr_t take_y = (uintptr_t)(y->t_ns < x->t_ns);
				uintptr_t mask = (uintptr_t)0 - take_y;

				*o++ = *(const struct level_change *)((uintptr_t)x ^
								       (((uintptr_t)x ^ (uintptr_t)y) & mask));
				y += take_y;
				x += 1 - take_y;
			}
			while (x < xe)
				*o++ = *x++;
			while (y < ye)
				*o++ = *y++;
		}
		if (w < nruns) /* an odd run out */
			memcpy(b + bound[w], a + bound[w], (bound[w + 1] - bound[w]) * sizeof(*a));
		for (i = 0; 2 * i < nruns; i++)
			bound[i + 1] = bound[2 * i + 2 < nruns ? 2 * i + 2 : nruns];
		nruns = (nruns + 1) / 2;
		tmp = a;
		a = b;
		b = tmp;
	}
	return a;
}

/* Counting sort plus insertion pass into ls->buf; false if the insertion pass gave up. */
static bool sort_buckets(struct level_sort *ls, const struct level_change *const *runs,
			 const size_t *lens, int nruns, size_t total, int64_t tmin, int shift,
			 size_t nb)
{
	struct level_change *a = ls->buf;
	uint32_t *pos = ls->bucket;
	size_t i, moves = 0, budget = MOVES_PER_CHANGE * total;
	int k;

	memset(pos, 0, (nb + 1) * sizeof(*pos));
	for (k = 0; k < nruns; k++)
		for (i = 0; i < lens[k]; i++)
			pos[(((uint64_t)runs[k][i].t_ns - (uint64_t)tmin) >> shift) + 1]++;
	for (i = 1; i <= nb; i++)
		pos[i] += pos[i - 1];
	for (k = 0; k < nruns; k++)
		for (i = 0; i < lens[k]; i++)
			a[pos[((uint64_t)runs[k][i].t_ns - (uint64_t)tmin) >> shift]++] = runs[k][i];
	for (i = 1; i < total; i++) {
		struct level_change v = a[i];
		size_t j = i;

		while (j > 0 && a[j - 1].t_ns > v.t_ns) {
			a[j] = a[j - 1];
			j--;
			if (++moves > budget)
				return false;
		}
		a[j] = v;
	}
	return true;
}

const struct level_change *level_sort(struct level_sort *ls, const struct level_change *const *runs,
				      const size_t *lens, int nruns, size_t *total)
{
	size_t n = 0, nb = 16;
	int64_t tmin = INT64_MAX, tmax = INT64_MIN;
	int k, shift = 0;

	for (k = 0; k < nruns; k++) {
		if (!lens[k])
			continue;
		n += lens[k];
		if (runs[k][0].t_ns < tmin)
			tmin = runs[k][0].t_ns;
		if (runs[k][lens[k] - 1].t_ns > tmax)
			tmax = runs[k][lens[k] - 1].t_ns;
	}
	*total = n;
	if (!n)
		return ls->buf;
	while (nb < n)
		nb *= 2;
	while (((uint64_t)tmax - (uint64_t)tmin) >> shift >= nb)
		shift++;
	if (sim_grow((void **)&ls->buf, &ls->buf_cap, 2 * n, sizeof(*ls->buf)) ||
	    sim_grow((void **)&ls->bucket, &ls->bucket_cap, nb + 1, sizeof(*ls->bucket)) ||
	    sim_grow((void **)&ls->bound, &ls->bound_cap, (size_t)nruns + 1, sizeof(*ls->bound)))
		return NULL;
	if (sort_buckets(ls, runs, lens, nruns, n, tmin, shift, nb))
		return ls->buf;
	ls->fallbacks++;
	return merge_pairwise(ls, runs, lens, nruns, n);
}

void level_sort_free(struct level_sort *ls)
{
	sim_free(ls->buf);
	sim_free(ls->bucket);
	sim_free(ls->bound);
	memset(ls, 0, sizeof(*ls));
}
