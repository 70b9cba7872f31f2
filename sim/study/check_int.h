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

#include "sim/study/check.h"

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
	bool significant; /* min_pct and max_pct fail only if also significant */
	char path[CHECK_PATH_LEN]; /* where it is in the file, for messages */
};

struct check_comparison {
	const char *name; /* NULL if none */
	struct compare_request req;
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

/* One check: a bound tested on one cell, as every report format needs it. */
struct check_line {
	bool ok;
	enum check_bound b;
	double limit;	     /* the bound; NaN for no_significant_regression */
	const char *workload, *param; /* param: the listed parameter, NULL if none */
	int64_t param_value;
	const char *machine, *metric, *governor, *unit;
	const struct compare_gov *gov;
	char where[400]; /* the cell: "pp server-us=10 on skl" */
	char what[240];	 /* the value against the bound: "mean 38 us > max 37.5" */
};

/* Does bound b of x hold for governor g of a cell? */
bool check_bound_holds(const struct check_expect *x, enum check_bound b,
		       const struct compare_gov *g);

/*
 * The report of the formats other than text, built while the comparisons run:
 * check_report_begin() once, check_report_add() per comparison's configuration and per
 * check, check_report_write() at the end. Each returns 0, or -1 (out of memory, or a write
 * error on f).
 */
struct check_report;
struct check_report *check_report_begin(enum check_format format);
/* name: the comparison's, NULL if it has none */
int check_report_comparison(struct check_report *r, const char *name,
			    const struct compare_result *res);
int check_report_add(struct check_report *r, const struct check_line *l);
int check_report_write(struct check_report *r, FILE *f);
void check_report_free(struct check_report *r);

#endif
