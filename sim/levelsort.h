/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * levelsort.h - sorting the CPUs' logged level changes into one time order (engine lanes).
 *
 * Each run (one CPU's log) is in time order; the result is all changes in time order, with
 * changes at equal times in any order (the energy accounting does not depend on it).
 */
#ifndef IDLESIM_LEVELSORT_H
#define IDLESIM_LEVELSORT_H

#include <stddef.h>
#include <stdint.h>

/* A CPU's change of level (0 = running, k + 1 = in idle state k) at t_ns. */
struct level_change {
	int64_t t_ns;
	int32_t cpu;
	int32_t level;
};

/* Scratch space, reused from call to call; zero-initialise, release with level_sort_free. */
struct level_sort {
	struct level_change *buf;
	size_t buf_cap;
	uint32_t *bucket;
	size_t bucket_cap;
	size_t *bound;
	size_t bound_cap;
	uint64_t fallbacks; /* calls sorted by pairwise merging */
};

/*
 * Sort nruns runs (runs[i] holds lens[i] changes in time order) into one array of *total
 * changes, returned (it lives in ls until the next call). NULL if memory is exhausted.
 */
const struct level_change *level_sort(struct level_sort *ls, const struct level_change *const *runs,
				      const size_t *lens, int nruns, size_t *total);
void level_sort_free(struct level_sort *ls);

#endif
