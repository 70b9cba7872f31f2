/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_int.h - the parsed form of an expectation file, shared by check.c (parsing) and
 * check_run.c (running the comparisons and testing the bounds). Not a public interface.
 *
 * The strings a comparison request points to live in the parsed JSON document (root),
 * which the check_file keeps until check_free().
 */
#ifndef IDLESIM_CHECK_INT_H
#define IDLESIM_CHECK_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/check.h"

#define CHECK_PATH_LEN 128 /* a jsonpos path: "comparisons[3].expect[12].min_pct" */

enum check_bound {
	B_MIN,	   /* the mean >= bound */
	B_MAX,	   /* the mean <= bound */
	B_MIN_PCT, /* the percentage against the baseline >= bound */
	B_MAX_PCT, /* the percentage against the baseline <= bound */
	B_NO_REGRESSION, /* not (worse and significant) */
	B_NR,
};

/* The field names of the bounds, by enum check_bound. */
extern const char *const check_bound_key[B_NR];

struct check_expect {
	const char *metric, *governor;
	const char *machine; /* NULL: every machine of the comparison */
	bool has_value;	     /* else every value of the listed parameter */
	int64_t value;
	bool has[B_NR];
	double bound[B_NR];
	char path[CHECK_PATH_LEN]; /* where it is in the file, for messages */
};

struct check_comparison {
	const char *name; /* NULL if none */
	struct cmp_request req;
	struct check_expect *ex;
	int nr_ex;
};

struct check_file {
	char source[256];
	char *text;
	json_t *root;
	struct check_comparison *cmp;
	int nr_cmp;
};

#endif
