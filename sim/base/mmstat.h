/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmstat.h - MMTests-style statistics for comparison tables: a baseline governor against
 * candidates, N samples (iterations) per governor and cell.
 *
 * Pure functions: no global state, no allocation, safe to call from several threads at
 * once (nothing here calls lgamma(), which writes the global signgam). How each number is
 * defined, and which MMTests behaviour it reproduces, is in the comment at the top of
 * mmstat.c; in short:
 *
 *   mean      Amean for lower-is-better metrics, Hmean for higher-is-better ones
 *   stddev    Amean: sample SD (n - 1); Hmean: sqrt(sum (1/x - 1/H)^2 * H^4 / n)
 *   coeffvar  stddev * 100 / mean
 *   pct       signed so that positive is better: pdiff (higher) or pndiff (lower)
 *   p         two-sided two-sample t-test of MMTests Oct 2018 - Nov 2024: unpooled
 *             standard error, df = n1 + n2 - 2; significant iff p < MM_SIGNIFICANCE
 *   ratio     oriented so that > 1 means the candidate is better; Gmean over cells
 *
 * Text layout of a row (widths in the MM_*_WIDTH constants, derivation in mmstat.c):
 *   "Hmean     tput-1      620.52 (   0.00%)      464.52 * -25.14%*"
 *    label: stat %-9s, space, op %-Ws | cell: %12.2f, " (" or " *", %7.2f, "%)" or "%*"
 */
#ifndef IDLESIM_MMSTAT_H
#define IDLESIM_MMSTAT_H

#include <stdbool.h>
#include <stddef.h>

/* A candidate's mean differs significantly from the baseline's iff p < this. */
#define MM_SIGNIFICANCE 0.10
/* mm_gmean_ratio() uses this in place of a ratio of 0 (MMTests' replacement). */
#define MM_GMEAN_ZERO 0.00001

/* Text layout, as MMTests prints it (derivation in mmstat.c). */
#define MM_STAT_WIDTH 9	  /* "Hmean    ": longest MMTests stat name, "BHmean-99" */
#define MM_VALUE_WIDTH 12 /* "%12.2f": MMTests' default _FieldLength */
#define MM_PCT_WIDTH 7	  /* "%7.2f": MMTests' default _CompareLength */
/* One value cell: value, " (", pct, "%)" = 23 columns; also the header cell's width. */
#define MM_CELL_WIDTH (MM_VALUE_WIDTH + 2 + MM_PCT_WIDTH + 2)

enum mm_mean {
	MM_AMEAN, /* arithmetic: lower-is-better metrics (latency, energy, ...) */
	MM_HMEAN, /* harmonic: higher-is-better metrics (throughput, ...) */
};

/* The rows of a comparison, in MMTests' order. */
enum mm_row {
	MM_ROW_MIN,
	MM_ROW_MEAN, /* the only row whose percentage can carry asterisks */
	MM_ROW_STDDEV,
	MM_ROW_COEFFVAR,
	MM_ROW_MAX,
	MM_ROW_NR,
};

struct mm_summary {
	int n;		   /* number of samples */
	enum mm_mean kind; /* MM_HMEAN iff the metric is higher-is-better */
	double mean;
	double stddev;	 /* of the mean's kind (formulas above); 0 when n == 1 */
	double coeffvar; /* stddev * 100 / mean, in %; 0 when mean == 0 */
	double min, max;
};

struct mm_ttest {
	double t;  /* |mean_a - mean_b| / stderr; +inf when stderr == 0 and the means differ */
	double df; /* n_a + n_b - 2 */
	double p;  /* two-sided; NaN when no test was possible */
};

/*
 * Summarises x[0..n-1]. Returns 0; or -1 if n < 1, if a sample is not finite, or if the
 * metric is higher-is-better and a sample is <= 0 (no harmonic mean; MMTests' calc_hmean
 * marks such data invalid as well). On -1, out->n and out->kind are set, min and max too
 * when n >= 1, and every other field is NaN.
 */
int mm_summarize(const double *x, int n, bool higher_is_better, struct mm_summary *out);

const char *mm_mean_name(enum mm_mean kind); /* "Amean", "Hmean": the row label */
const char *mm_mean_key(enum mm_mean kind);  /* "amean", "hmean": JSON's mean_kind */

/*
 * Percentage of cand against base, positive = better. MMTests' Stat.pm:
 *   pdiff  = cand * 100 / base - 100  (higher is better)
 *   pndiff = 100 - cand * 100 / base  (lower is better)
 * Edge cases (MMTests' except where noted): cand == base gives 0; base == 0 != cand gives
 * 100 (pdiff) or -99 (pndiff); cand == 0 gives 100 for pndiff and, unlike MMTests' 0,
 * -100 for pdiff (the formula's value: a throughput that fell to 0 is 100 % worse).
 * NaN if either value is not finite.
 */
double mm_pdiff(double cand, double base);
double mm_pndiff(double cand, double base);
/* Of the means: mm_pdiff() if higher_is_better, else mm_pndiff(). */
double mm_pct(const struct mm_summary *base, const struct mm_summary *cand, bool higher_is_better);

/* Row label ("Min", "Hmean", "Stddev", ...), value, and percentage against the baseline.
 * Min, Max and the mean follow the metric's direction; Stddev and CoeffVar always use
 * pndiff (less spread is better), as MMTests' stat_compare table says. */
const char *mm_row_name(enum mm_row row, enum mm_mean kind);
double mm_row_value(const struct mm_summary *s, enum mm_row row);
double mm_row_pct(const struct mm_summary *base, const struct mm_summary *cand, enum mm_row row,
		  bool higher_is_better);

/*
 * Two-sample t-test of the means (MMTests Compare.pm:_significanceTest, 2018-2024):
 *   stderr = sqrt(sd_a^2 / n_a + sd_b^2 / n_b), t = |mean_a - mean_b| / stderr,
 *   df = n_a + n_b - 2, p = 2 * P(T_df > t).
 * Edge cases:
 *   - n_a < 2 or n_b < 2, or a mean or stddev not finite: no test; p = t = NaN (so never
 *     significant) and mm_ttest() returns -1. One sample has no spread to test against:
 *     with MMTests' zero-variance rule every difference would be "significant".
 *   - stderr == 0 (no variance on either side): p = 0 if the means differ (t = +inf),
 *     else p = 1 (t = 0), as MMTests did.
 * mm_ttest() returns 0 when p is a number. The order of the two summaries does not matter.
 */
int mm_ttest(const struct mm_summary *a, const struct mm_summary *b, struct mm_ttest *out);
double mm_ttest_p(const struct mm_summary *a, const struct mm_summary *b);
/* p < MM_SIGNIFICANCE; false for NaN. */
bool mm_significant(double p);

/*
 * Student's t distribution with df > 0 degrees of freedom (any real df), by the
 * regularized incomplete beta function: mm_t_pvalue() = P(|T| >= |t|) = I_x(df/2, 1/2)
 * with x = df / (df + t^2); mm_t_cdf() = P(T <= t). NaN for a NaN t, or df not in
 * (0, +inf).
 * Measured relative error over df 1..10000, |t| 1e-8..1e6 (method and details in
 * mmstat.c): <= 1.6e-14 where p >= 1e-20, <= 1.7e-13 where p >= 1e-300.
 */
double mm_t_pvalue(double t, double df);
double mm_t_cdf(double t, double df);

/*
 * Ratio of the candidate's mean to the baseline's, oriented so that > 1 means better:
 * cand / base if higher_is_better, base / cand otherwise (MMTests swaps the operands of
 * rdiff for operations whose preferred direction differs, so that all ratios of a Gmean
 * point the same way; idlesim's Gmean is always "Higher is better").
 * Equal means give 1 (also 0 and 0); a zero denominator or a value that is not finite
 * gives NaN (not comparable); a zero numerator gives 0. MMTests' rdiff differs: it gives
 * 0 for a zero denominator and 1 for a zero numerator, so a 0-vs-0 cell (common for
 * below_pct) would count as 0.00001 in the Gmean.
 */
double mm_ratio(double base_mean, double cand_mean, bool higher_is_better);
/*
 * Geometric mean of ratios[0..n-1], MMTests' Gmean: a NaN ratio counts as 1 and a ratio
 * of 0 as MM_GMEAN_ZERO. NaN if n < 1 or a ratio is negative; +inf if one is +inf.
 */
double mm_gmean_ratio(const double *ratios, int n);

/*
 * "pct imp" of the normalized style, positive = better: (cand - base) / base * 100 for
 * higher-is-better, its negation for lower-is-better, so the baseline itself shows
 * "[  0.00]" or "[ -0.00]" as in the published tables. NaN if base == 0 or not finite.
 */
double mm_norm_pct(double base_mean, double cand_mean, bool higher_is_better);

/*
 * Text cells. Each writes at most n bytes including the NUL, like snprintf(), and returns
 * snprintf()'s value (the length the full text needs, or negative on an encoding error).
 * Non-finite numbers print as printf prints them ("nan", "inf").
 *
 * mm_format_label: "%-9s %-*s": stat name, a space, the operation name padded to
 *   op_width (the longest operation name of the table), e.g. "Hmean     tput-1".
 * mm_format_header_cell: a governor name right-aligned over a value cell ("%23s").
 *   The header line starts with MM_STAT_WIDTH + 1 + op_width spaces.
 * mm_format_value_cell: "%12.2f (%7.2f%%)", e.g. "      620.52 (   0.00%)"; with
 *   significant, the brackets become asterisks: "      464.52 * -25.14%*". The baseline
 *   always shows 0.00 in brackets (pct and significant are ignored).
 * mm_format_number_cell: "%12.2f", for rows without a percentage (a Gmean row).
 * mm_format_norm_cell: "%4.2f [%6.2f](%5.2f)": normalized value, pct imp, CV in %, e.g.
 *   "1.00 [ -0.00]( 2.08)".
 */
int mm_format_label(char *buf, size_t n, const char *stat, const char *op, int op_width);
int mm_format_header_cell(char *buf, size_t n, const char *name);
int mm_format_value_cell(char *buf, size_t n, double value, double pct, bool significant,
			 bool is_baseline);
int mm_format_number_cell(char *buf, size_t n, double value);
int mm_format_norm_cell(char *buf, size_t n, double norm, double pct, double cv);

#endif
