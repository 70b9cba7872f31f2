/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_int.h - what sweep.c, sweep_merge.c and sweep_summary.c share: reading a results
 * file line by line with memory independent of its length, and a bitmap of point indices.
 */
#ifndef IDLESIM_SWEEP_INT_H
#define IDLESIM_SWEEP_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "sim/base/error.h"

/* One complete result line, parsed. */
struct sweep_line {
	long index, total;
	char spec[17], version[32];
	json_t *root; /* the whole line; valid during the callback only */
};

typedef int sweep_line_fn(void *ud, const struct sweep_line *li, const char *line, size_t len,
			  long lineno, struct sim_error *err);

/*
 * Stream the complete lines of a results file through fn (each parsed; a line that is not
 * a result is an error at path:line:1). A partial last line (what a kill leaves) is not
 * passed; *complete is the number of bytes up to the last newline, *longest the longest
 * line with its newline (either may be NULL). A missing file is an empty one when
 * missing_ok. Returns 0, or -1 with err set.
 */
int sweep_each_line(const char *path, bool missing_ok, long long *complete, size_t *longest,
		    sweep_line_fn *fn, void *ud, struct sim_error *err);

/* A bitmap of n bits, zeroed (free with sim_free); NULL when out of memory. */
unsigned char *sweep_bits_new(long n);
static inline bool sweep_bit(const unsigned char *b, long i)
{
	return b[i >> 3] & (1u << (i & 7));
}
static inline void sweep_bit_set(unsigned char *b, long i)
{
	b[i >> 3] |= (unsigned char)(1u << (i & 7));
}

#endif
