/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlespan.h - idle spans of CPUs, cores and packages, and their intersection (the energy
 * accounting of the engine's lanes).
 *
 * A span is a stretch of time during which a unit sits at one idle level (k + 1 for idle
 * state k; level 0, running, is what no span covers). A core is as deep as its shallowest
 * thread and a package as its shallowest core, so the spans of a unit are the intersection
 * of its members' spans, each at the smaller of the two levels.
 */
#ifndef IDLESIM_IDLESPAN_H
#define IDLESIM_IDLESPAN_H

#include <stddef.h>
#include <stdint.h>

struct idle_span {
	int64_t start_ns;
	int64_t end_ns; /* exclusive; start_ns <= end_ns */
	int32_t level;	/* >= 1 */
};

/*
 * The intersection of two lists of spans, each in time order and without overlaps, into
 * out (room for nx + ny spans): the stretches covered by both, at the smaller level, in
 * time order, none empty. Returns how many.
 */
size_t idle_span_intersect(const struct idle_span *x, size_t nx, const struct idle_span *y,
			   size_t ny, struct idle_span *out);

/* Scratch space of idle_span_fold(), reused from call to call; zero-initialise. */
struct idle_span_fold {
	struct idle_span *buf[2];
	size_t buf_cap[2];
	const struct idle_span **lists;
	size_t *lens;
	size_t lists_cap, lens_cap;
};

/*
 * The intersection of m >= 1 lists (lists[i] holds lens[i] spans): *res and *n are set to
 * it, which is lists[0] itself when m is 1 and otherwise written into out (room for the sum
 * of lens); pairwise, in rounds. Returns 0, or -1 when memory is exhausted.
 */
int idle_span_fold(struct idle_span_fold *f, const struct idle_span *const *lists,
		   const size_t *lens, int m, struct idle_span *out, const struct idle_span **res,
		   size_t *n);
void idle_span_fold_free(struct idle_span_fold *f);

/*
 * The intersection of lists given one at a time: the same pairwise tree as
 * idle_span_fold()'s rounds for a power of two of lists (any tree gives the same time per
 * level), in the order of a binary counter, each pair intersected as soon as both halves
 * exist. The lists in play are then few and recent: a list is intersected while it is
 * still in the caches, where the rounds read every input back after all were written.
 * Zero-initialise; idle_span_stack_reset() before each new intersection.
 */
#define IDLE_SPAN_STACK_LEVELS 32 /* up to 2^32 - 1 lists */
struct idle_span_stack {
	/* level h (bit h of have) holds the intersection of 2^h lists; the last is scratch */
	struct idle_span *buf[IDLE_SPAN_STACK_LEVELS + 1];
	size_t cap[IDLE_SPAN_STACK_LEVELS + 1], n[IDLE_SPAN_STACK_LEVELS + 1];
	uint64_t have;
};

void idle_span_stack_reset(struct idle_span_stack *s);
/* One more list (x, nx spans, in time order); copied or intersected at once, x not kept.
 * Returns 0, or -1 when memory is exhausted. */
int idle_span_stack_push(struct idle_span_stack *s, const struct idle_span *x, size_t nx);
/* The intersection of every list pushed since the reset (at least one): *res and *n, valid
 * until the next push or reset. Returns 0, or -1 when memory is exhausted. */
int idle_span_stack_result(struct idle_span_stack *s, const struct idle_span **res, size_t *n);
void idle_span_stack_free(struct idle_span_stack *s);

/*
 * Add each span's length to level_ns[its level] and the rest of [from_ns, to_ns) to
 * level_ns[0] (the spans must lie in it).
 */
void idle_span_charge(const struct idle_span *s, size_t n, int64_t from_ns, int64_t to_ns,
		      int64_t *level_ns);

#endif
