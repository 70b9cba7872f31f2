// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mmstat.c - MMTests-style statistics: means, standard deviations, percentages and
 * their signs, the t-test and its p-value, the asterisk rule around p = 0.10, Gmean of
 * ratios, and the exact text cells.
 *
 * Every expected number is computed without this C code: by hand (the derivation is in
 * the comment next to it), with Python's fractions/statistics/math modules, or, for
 * p-values, with the Python below (standard library only), which uses Abramowitz & Stegun
 * 26.7.3/26.7.4: for integer nu, with th = atan(t / sqrt(nu)) and c = cos th,
 *   P(|T| < t) = sin th (1 + c^2/2 + (1*3)/(2*4) c^4 + ...)              nu even
 *              = 2/pi (th + sin th (c + 2/3 c^3 + (2*4)/(3*5) c^5 + ...))  nu odd
 * finite sums, a method unrelated to the incomplete beta function in mmstat.c:
 *
 *   import math
 *   def t_p2(t, nu):
 *       th = math.atan(t / math.sqrt(nu)); s, c = math.sin(th), math.cos(th)
 *       terms, term = [], 1.0
 *       if nu % 2 == 0:
 *           for k in range(1, nu // 2):
 *               terms.append(term); term *= (2 * k - 1) / (2 * k) * c * c
 *           terms.append(term); A = s * math.fsum(terms)
 *       elif nu == 1:
 *           A = 2 / math.pi * th
 *       else:
 *           term = c
 *           for k in range(1, (nu - 1) // 2):
 *               terms.append(term); term *= (2 * k) / (2 * k + 1) * c * c
 *           terms.append(term); A = 2 / math.pi * (th + s * math.fsum(terms))
 *       return 1 - A
 *
 * Each value was cross-checked two more ways: Simpson's rule on 2 * integral_t^inf of the
 * t density (substituting s = t/w, 200,000 intervals on w in [0, 1], math.lgamma for the
 * constant), and mpmath.betainc at 40 digits; the three agree to the digits used below
 * (to 6e-13 relative or better; Simpson to 1e-11 at nu = 10000). The tolerance on
 * p-values, 1e-10 relative, is the accuracy the module promises, with margin over the
 * references' own error.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "sim/base/mmstat.h"

#define P_TOL 1e-10

/* |got - want| <= rel * |want|, printing both on failure. */
static void check_rel(double got, double want, double rel, int line)
{
	if (!(fabs(got - want) <= rel * fabs(want))) {
		print_error("line %d: got %.17g, want %.17g (rel tol %g)\n", line, got, want, rel);
		fail();
	}
}
#define assert_rel(got, want, rel) check_rel((got), (want), (rel), __LINE__)

/* ---- summaries ---- */

/* Amean row: x = {2, 4, 4, 4, 5, 5, 7, 9}. By hand: sum 40, mean 5; squared deviations
 * 9+1+1+1+0+0+4+16 = 32, sample SD sqrt(32/7) = 2.138089935299395 (Python
 * statistics.stdev gives the same), CoeffVar = SD * 100 / 5 = 42.76179870598791. */
static void test_amean(void **state)
{
	static const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct mm_summary s;

	(void)state;
	assert_int_equal(mm_summarize(x, 8, false, &s), 0);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.kind, MM_AMEAN);
	assert_rel(s.mean, 5.0, 1e-15);
	assert_rel(s.stddev, 2.138089935299395, 1e-14);
	assert_rel(s.coeffvar, 42.76179870598791, 1e-14);
	assert_true(s.min == 2.0);
	assert_true(s.max == 9.0);
	assert_string_equal(mm_mean_name(s.kind), "Amean");
	assert_string_equal(mm_mean_key(s.kind), "amean");
}

/*
 * Hmean row, MMTests' SD formula sqrt(sum (1/x - 1/H)^2 * H^4 / n). x = {1, 2, 4}, by
 * hand with fractions: sum 1/x = 7/4, H = 3 / (7/4) = 12/7 = 1.7142857142857142;
 * 1/H = 7/12; deviations 5/12, -1/12, -4/12, squares sum 42/144 = 7/24, / n = 7/72;
 * SD = (12/7)^2 sqrt(7/72) = 144/49 * 0.3118047822311618 = 0.916324257985455;
 * CoeffVar = SD * 100 / H = 53.452248382484875.
 * Second sample {620, 610, 631.5, 625} (throughput-like), exact with Python fractions:
 * H = 23883330000/38426957 = 621.525404678804, SD 7.88279187587842, CV 1.2682976136674802.
 */
static void test_hmean(void **state)
{
	static const double x[] = {1, 2, 4};
	static const double y[] = {620, 610, 631.5, 625};
	struct mm_summary s;

	(void)state;
	assert_int_equal(mm_summarize(x, 3, true, &s), 0);
	assert_int_equal(s.kind, MM_HMEAN);
	assert_rel(s.mean, 12.0 / 7.0, 1e-15);
	assert_rel(s.stddev, 0.916324257985455, 1e-14);
	assert_rel(s.coeffvar, 53.452248382484875, 1e-14);
	assert_true(s.min == 1.0);
	assert_true(s.max == 4.0);
	assert_string_equal(mm_mean_name(s.kind), "Hmean");
	assert_string_equal(mm_mean_key(s.kind), "hmean");

	assert_int_equal(mm_summarize(y, 4, true, &s), 0);
	assert_rel(s.mean, 621.525404678804, 1e-14);
	assert_rel(s.stddev, 7.88279187587842, 1e-13);
	assert_rel(s.coeffvar, 1.2682976136674802, 1e-13);
}

/* One sample: SD 0 in both kinds (documented; MMTests had NaN for the Amean's); no
 * variance: SD and CoeffVar 0; mean 0: CoeffVar 0 (MMTests' calc_coeffvar). */
static void test_summary_small(void **state)
{
	static const double one[] = {7.5};
	static const double same[] = {3, 3, 3};
	static const double zero_mean[] = {-1, 1};
	struct mm_summary s;

	(void)state;
	assert_int_equal(mm_summarize(one, 1, false, &s), 0);
	assert_true(s.mean == 7.5 && s.stddev == 0.0 && s.coeffvar == 0.0);
	assert_true(s.min == 7.5 && s.max == 7.5);
	assert_int_equal(mm_summarize(one, 1, true, &s), 0);
	assert_true(s.mean == 7.5 && s.stddev == 0.0 && s.coeffvar == 0.0);

	assert_int_equal(mm_summarize(same, 3, false, &s), 0);
	assert_true(s.mean == 3.0 && s.stddev == 0.0 && s.coeffvar == 0.0);
	assert_int_equal(mm_summarize(same, 3, true, &s), 0);
	assert_true(s.mean == 3.0 && s.stddev == 0.0 && s.coeffvar == 0.0);

	/* {-1, 1}: mean 0, SD sqrt(2), CoeffVar 0 by convention. */
	assert_int_equal(mm_summarize(zero_mean, 2, false, &s), 0);
	assert_true(s.mean == 0.0 && s.coeffvar == 0.0);
	assert_rel(s.stddev, sqrt(2.0), 1e-15);
}

/* No samples; a sample that is not finite; a non-positive sample for a harmonic mean. */
static void test_summary_invalid(void **state)
{
	static const double with_zero[] = {5, 0, 3};
	static const double with_nan[] = {5, NAN};
	struct mm_summary s;

	(void)state;
	assert_int_equal(mm_summarize(with_zero, 0, false, &s), -1);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean) && isnan(s.min) && isnan(s.max));

	assert_int_equal(mm_summarize(with_zero, 3, true, &s), -1);
	assert_int_equal(s.kind, MM_HMEAN);
	assert_true(isnan(s.mean) && isnan(s.stddev) && isnan(s.coeffvar));
	assert_true(s.min == 0.0 && s.max == 5.0);
	/* The same data is fine for an arithmetic mean: 8/3. */
	assert_int_equal(mm_summarize(with_zero, 3, false, &s), 0);
	assert_rel(s.mean, 8.0 / 3.0, 1e-15);

	assert_int_equal(mm_summarize(with_nan, 2, false, &s), -1);
	assert_true(isnan(s.mean));
}

/* ---- percentages ---- */

/*
 * Positive = better in both directions. By hand: higher-is-better 100 -> 110 is
 * 110*100/100 - 100 = +10, 100 -> 90 is -10; lower-is-better 100 -> 90 is
 * 100 - 90*100/100 = +10, 100 -> 110 is -10. The example 620.52 -> 464.52:
 * 464.52*100/620.52 - 100 = -25.14020498936376 (Python, exact with fractions).
 */
static void test_pct_signs(void **state)
{
	static const double b[] = {100, 100}, up[] = {110, 110}, down[] = {90, 90};
	struct mm_summary base, hi, lo;

	(void)state;
	assert_rel(mm_pdiff(110, 100), 10.0, 1e-13);
	assert_rel(mm_pdiff(90, 100), -10.0, 1e-13);
	assert_rel(mm_pndiff(90, 100), 10.0, 1e-13);
	assert_rel(mm_pndiff(110, 100), -10.0, 1e-13);
	assert_rel(mm_pdiff(464.52, 620.52), -25.14020498936376, 1e-13);

	/* Through summaries: throughput (Hmean) up is better, latency (Amean) down is. */
	assert_int_equal(mm_summarize(b, 2, true, &base), 0);
	assert_int_equal(mm_summarize(up, 2, true, &hi), 0);
	assert_int_equal(mm_summarize(down, 2, true, &lo), 0);
	assert_rel(mm_pct(&base, &hi, true), 10.0, 1e-13);
	assert_rel(mm_pct(&base, &lo, true), -10.0, 1e-13);
	assert_true(mm_pct(&base, &base, true) == 0.0);
	assert_int_equal(mm_summarize(b, 2, false, &base), 0);
	assert_int_equal(mm_summarize(up, 2, false, &hi), 0);
	assert_int_equal(mm_summarize(down, 2, false, &lo), 0);
	assert_rel(mm_pct(&base, &lo, false), 10.0, 1e-13);
	assert_rel(mm_pct(&base, &hi, false), -10.0, 1e-13);
	assert_true(mm_pct(&base, &base, false) == 0.0);
}

/* Zero and non-finite operands (mmstat.h): MMTests' Stat.pm gives 0 for equal values,
 * 100 / -99 for a zero base and 100 for a zero cand under pndiff; under pdiff a zero cand
 * gives the formula's -100 (MMTests: 0). */
static void test_pct_edges(void **state)
{
	(void)state;
	assert_true(mm_pdiff(0, 0) == 0.0);
	assert_true(mm_pndiff(0, 0) == 0.0);
	assert_true(mm_pdiff(5, 0) == 100.0);
	assert_true(mm_pndiff(5, 0) == -99.0);
	assert_true(mm_pndiff(0, 5) == 100.0);
	assert_true(mm_pdiff(0, 5) == -100.0);
	assert_true(isnan(mm_pdiff(NAN, 5)));
	assert_true(isnan(mm_pndiff(5, INFINITY)));
}

/* Rows: Min/Max/mean follow the metric's direction, Stddev and CoeffVar are always
 * lower-is-better. Base {10, 20, 30} (Amean 20, SD 10, CV 50, by hand), cand
 * {15, 20, 25} (Amean 20, SD 5, CV 25). Throughput-like (higher is better):
 * Min 10 -> 15: +50; Max 30 -> 25: 25*100/30 - 100 = -16.66666666666667;
 * Stddev 10 -> 5: 100 - 50 = +50; CoeffVar 50 -> 25: +50. */
static void test_rows(void **state)
{
	static const double b[] = {10, 20, 30}, c[] = {15, 20, 25};
	struct mm_summary base, cand;

	(void)state;
	assert_int_equal(mm_summarize(b, 3, false, &base), 0);
	assert_int_equal(mm_summarize(c, 3, false, &cand), 0);
	assert_rel(mm_row_pct(&base, &cand, MM_ROW_MIN, true), 50.0, 1e-13);
	assert_rel(mm_row_pct(&base, &cand, MM_ROW_MAX, true), -16.66666666666667, 1e-13);
	assert_rel(mm_row_pct(&base, &cand, MM_ROW_STDDEV, true), 50.0, 1e-13);
	assert_rel(mm_row_pct(&base, &cand, MM_ROW_COEFFVAR, true), 50.0, 1e-13);
	assert_true(mm_row_pct(&base, &cand, MM_ROW_MEAN, true) == 0.0);
	/* Lower is better: Min 10 -> 15 is 100 - 150 = -50, Max 30 -> 25 is +16.67. */
	assert_rel(mm_row_pct(&base, &cand, MM_ROW_MIN, false), -50.0, 1e-13);
	assert_rel(mm_row_pct(&base, &cand, MM_ROW_MAX, false), 16.66666666666667, 1e-13);
	assert_rel(mm_row_pct(&base, &cand, MM_ROW_STDDEV, false), 50.0, 1e-13);

	assert_true(mm_row_value(&cand, MM_ROW_MIN) == 15.0);
	assert_true(mm_row_value(&cand, MM_ROW_MAX) == 25.0);
	assert_true(mm_row_value(&cand, MM_ROW_MEAN) == 20.0);
	assert_rel(mm_row_value(&cand, MM_ROW_STDDEV), 5.0, 1e-15);
	assert_rel(mm_row_value(&cand, MM_ROW_COEFFVAR), 25.0, 1e-15);
	assert_string_equal(mm_row_name(MM_ROW_MIN, MM_AMEAN), "Min");
	assert_string_equal(mm_row_name(MM_ROW_MEAN, MM_HMEAN), "Hmean");
	assert_string_equal(mm_row_name(MM_ROW_MEAN, MM_AMEAN), "Amean");
	assert_string_equal(mm_row_name(MM_ROW_STDDEV, MM_AMEAN), "Stddev");
	assert_string_equal(mm_row_name(MM_ROW_COEFFVAR, MM_AMEAN), "CoeffVar");
	assert_string_equal(mm_row_name(MM_ROW_MAX, MM_AMEAN), "Max");
}

/* ---- the t distribution ---- */

/*
 * p-values straight from the distribution.
 *   nu = 1: P(|T| >= t) = 1 - 2 atan(t)/pi (Cauchy), by hand: t = 1 gives 0.5;
 *     t = 1e6 gives 2 atan(1e-6)/pi = 6.366197723673691e-07 (Python math; the series
 *     form would cancel here).
 *   nu = 2: P(|T| >= t) = 1 - t / sqrt(t^2 + 2), by hand from the closed-form CDF
 *     1/2 + t / (2 sqrt(t^2 + 2)): t = 2 gives 1 - 2/sqrt(6) = 0.18350341907227397.
 *   t_p2() above: (0.5, 5) 0.63829887164092902, (2.5, 4) 0.066766544811988293,
 *     (3, 30) 0.0053899640656519532, (2, 10000) 0.045527260661461955 (mpmath:
 *     0.045527260661435443, the sum's own error is 6e-13).
 *   t = 1.8595480375, nu = 8: the tabulated 5 % one-sided critical value; p = 0.10000000000474529.
 *   nu = 10000, t = 1e6: p is about (1 + 1e8)^-5000, far below DBL_MIN: 0.
 */
static void test_t_distribution(void **state)
{
	(void)state;
	assert_rel(mm_t_pvalue(1.0, 1), 0.5, 1e-15);
	assert_rel(mm_t_pvalue(1e6, 1), 6.366197723673691e-07, P_TOL);
	assert_rel(mm_t_pvalue(2.0, 2), 0.18350341907227397, P_TOL);
	assert_rel(mm_t_pvalue(-2.0, 2), 0.18350341907227397, P_TOL);
	assert_rel(mm_t_pvalue(0.5, 5), 0.63829887164092902, P_TOL);
	assert_rel(mm_t_pvalue(2.5, 4), 0.066766544811988293, P_TOL);
	assert_rel(mm_t_pvalue(3.0, 30), 0.0053899640656519532, P_TOL);
	assert_rel(mm_t_pvalue(2.0, 10000), 0.045527260661461955, P_TOL);
	assert_rel(mm_t_pvalue(1.8595480375, 8), 0.10000000000474529, P_TOL);
	assert_true(mm_t_pvalue(1e6, 10000) == 0.0);

	/* CDF: lower tail is half the two-sided p; 1/2 at 0; by hand for nu = 2, t = -2:
	 * (1 - 2/sqrt(6)) / 2 = 0.09175170953613693, and t = 2: 1 - that. */
	assert_rel(mm_t_cdf(-2.0, 2), 0.09175170953613693, P_TOL);
	assert_rel(mm_t_cdf(2.0, 2), 1 - 0.09175170953613693, 1e-15);
	assert_true(mm_t_cdf(0.0, 7) == 0.5);

	assert_true(mm_t_pvalue(0.0, 3) == 1.0);
	assert_true(mm_t_pvalue(INFINITY, 3) == 0.0);
	assert_true(isnan(mm_t_pvalue(NAN, 3)));
	assert_true(isnan(mm_t_pvalue(1.0, 0)));
	assert_true(isnan(mm_t_pvalue(1.0, -2)));
	assert_true(isnan(mm_t_cdf(NAN, 3)));
}

/* ---- t-test ---- */

static struct mm_summary summary_of(double mean, double sd, int n)
{
	struct mm_summary s = {
		.n = n,
		.kind = MM_AMEAN,
		.mean = mean,
		.stddev = sd,
		.min = mean,
		.max = mean,
	};

	s.coeffvar = sd * 100 / mean;
	return s;
}

/*
 * (mean, sd, n) triples, t and df by hand, p from the references above:
 *   df = 2: (0, 1, 2) vs (2, 1, 2): stderr sqrt(1/2 + 1/2) = 1, t = 2, df = 2,
 *     p = 1 - 2/sqrt(6) = 0.18350341907227397 (closed form): not significant.
 *   unequal n: (10, 2, 4) vs (13, 3, 9): stderr sqrt(4/4 + 9/9) = sqrt(2),
 *     t = 3/sqrt(2) = 2.1213203435596424, df = 4 + 9 - 2 = 11,
 *     p = t_p2(3/sqrt(2), 11) = 0.057438308126269932: significant.
 *   large df: (0, s, 5001) vs (2, s, 5001) with s^2 = 2500.5: stderr
 *     sqrt(2 * 2500.5 / 5001) = 1, t = 2, df = 10000, p = 0.045527260661461955.
 */
static void test_ttest(void **state)
{
	struct mm_summary a, b;
	struct mm_ttest tt;

	(void)state;
	a = summary_of(0, 1, 2);
	b = summary_of(2, 1, 2);
	assert_int_equal(mm_ttest(&a, &b, &tt), 0);
	assert_rel(tt.t, 2.0, 1e-15);
	assert_true(tt.df == 2.0);
	assert_rel(tt.p, 0.18350341907227397, P_TOL);
	assert_false(mm_significant(tt.p));

	a = summary_of(10, 2, 4);
	b = summary_of(13, 3, 9);
	assert_int_equal(mm_ttest(&a, &b, &tt), 0);
	assert_rel(tt.t, 2.1213203435596424, 1e-15);
	assert_true(tt.df == 11.0);
	assert_rel(tt.p, 0.057438308126269932, P_TOL);
	assert_true(mm_significant(tt.p));
	/* The order does not matter. */
	assert_rel(mm_ttest_p(&b, &a), 0.057438308126269932, P_TOL);

	a = summary_of(0, sqrt(2500.5), 5001);
	b = summary_of(2, sqrt(2500.5), 5001);
	assert_int_equal(mm_ttest(&a, &b, &tt), 0);
	assert_rel(tt.t, 2.0, 1e-14);
	assert_true(tt.df == 10000.0);
	assert_rel(tt.p, 0.045527260661461955, P_TOL);
}

/*
 * The asterisk rule at p just below and just above 0.10, from samples. Baseline
 * {10, 11, 12, 13, 14} (latency, lower is better): Amean 12, variance 10/4 = 2.5 by hand.
 * A candidate is the baseline + d, so the same variance: stderr = sqrt(2.5/5 + 2.5/5) = 1
 * and t = d, df = 5 + 5 - 2 = 8. The critical t for p = 0.10 at df 8 is 1.8595...:
 *   d = 1.8602: p = t_p2(1.8602, 8) = 0.099899919843019824 < 0.10: significant, asterisks;
 *   d = 1.8589: p = t_p2(1.8589, 8) = 0.10009957214609688 > 0.10: brackets.
 * Percentages by hand: 100 - 13.8602*100/12 = -15.501666..., 100 - 13.8589*100/12 =
 * -15.490833..., printed "%7.2f": "-15.50" and "-15.49". The cell value "%12.2f" of
 * 13.8602 and 13.8589 is "       13.86" (7 spaces).
 */
static void test_asterisk_rule(void **state)
{
	static const double base_x[] = {10, 11, 12, 13, 14};
	static const double below_x[] = {11.8602, 12.8602, 13.8602, 14.8602, 15.8602};
	static const double above_x[] = {11.8589, 12.8589, 13.8589, 14.8589, 15.8589};
	struct mm_summary base, below, above;
	char buf[64];
	double p, pct;

	(void)state;
	assert_int_equal(mm_summarize(base_x, 5, false, &base), 0);
	assert_int_equal(mm_summarize(below_x, 5, false, &below), 0);
	assert_int_equal(mm_summarize(above_x, 5, false, &above), 0);
	assert_rel(base.stddev * base.stddev, 2.5, 1e-14);

	p = mm_ttest_p(&base, &below);
	assert_rel(p, 0.099899919843019824, 1e-9);
	assert_true(p < 0.10);
	assert_true(mm_significant(p));
	pct = mm_pct(&base, &below, false);
	assert_rel(pct, -15.501666666666667, 1e-12);
	mm_format_value_cell(buf, sizeof(buf), below.mean, pct, mm_significant(p), false);
	assert_string_equal(buf, "       13.86 * -15.50%*");

	p = mm_ttest_p(&base, &above);
	assert_rel(p, 0.10009957214609688, 1e-9);
	assert_true(p > 0.10);
	assert_false(mm_significant(p));
	pct = mm_pct(&base, &above, false);
	assert_rel(pct, -15.490833333333333, 1e-12);
	mm_format_value_cell(buf, sizeof(buf), above.mean, pct, mm_significant(p), false);
	assert_string_equal(buf, "       13.86 ( -15.49%)");

	/* The level itself is not significant (p < 0.10, strictly). */
	assert_false(mm_significant(MM_SIGNIFICANCE));
	assert_false(mm_significant(NAN));
	assert_true(MM_SIGNIFICANCE == 0.10);
}

/* Zero variance: significant iff the means differ (MMTests); one side with variance is an
 * ordinary test; fewer than 2 samples on a side: no test (p NaN, never significant). */
static void test_ttest_edges(void **state)
{
	static const double five[] = {5, 5, 5}, six[] = {6, 6, 6}, spread[] = {4, 6};
	static const double two_fives[] = {5, 5}, one_five[] = {5};
	struct mm_summary a, b;
	struct mm_ttest tt;

	(void)state;
	assert_int_equal(mm_summarize(five, 3, false, &a), 0);
	assert_int_equal(mm_summarize(five, 3, false, &b), 0);
	assert_int_equal(mm_ttest(&a, &b, &tt), 0);
	assert_true(tt.p == 1.0 && tt.t == 0.0);
	assert_false(mm_significant(tt.p));

	assert_int_equal(mm_summarize(six, 3, false, &b), 0);
	assert_int_equal(mm_ttest(&a, &b, &tt), 0);
	assert_true(tt.p == 0.0 && isinf(tt.t));
	assert_true(mm_significant(tt.p));

	/* {5, 5} vs {4, 6}: stderr sqrt(0/2 + 2/2) = 1, t = 0: p = 1. */
	assert_int_equal(mm_summarize(two_fives, 2, false, &a), 0);
	assert_int_equal(mm_summarize(spread, 2, false, &b), 0);
	assert_int_equal(mm_ttest(&a, &b, &tt), 0);
	assert_true(tt.t == 0.0 && tt.p == 1.0);

	assert_int_equal(mm_summarize(one_five, 1, false, &a), 0);
	assert_int_equal(mm_summarize(six, 3, false, &b), 0);
	assert_int_equal(mm_ttest(&a, &b, &tt), -1);
	assert_true(isnan(tt.p) && isnan(tt.t));
	assert_false(mm_significant(mm_ttest_p(&a, &b)));
	assert_false(mm_significant(mm_ttest_p(&b, &a)));
}

/* ---- ratios and Gmean ---- */

/*
 * Ratios oriented so that > 1 is better: throughput 100 -> 110 is 110/100 = 1.1, latency
 * 100 -> 80 is 100/80 = 1.25. Gmean of {2, 0.5, 0, NaN}: MMTests replaces 0 by 0.00001
 * and NaN by 1, so (2 * 0.5 * 0.00001 * 1)^(1/4) = 10^(-5/4) = 0.05623413251903491
 * (Python math). Gmean of {2, 8} = 4 by hand.
 */
static void test_gmean(void **state)
{
	double r[4];
	static const double two_eight[] = {2, 8};
	static const double negative[] = {2, -1};

	(void)state;
	assert_rel(mm_ratio(100, 110, true), 1.1, 1e-15);
	assert_rel(mm_ratio(100, 80, false), 1.25, 1e-15);
	assert_rel(mm_ratio(100, 80, true), 0.8, 1e-15);
	assert_rel(mm_ratio(100, 125, false), 0.8, 1e-15);
	assert_true(mm_ratio(0, 0, true) == 1.0);
	assert_true(mm_ratio(0, 0, false) == 1.0);
	assert_true(isnan(mm_ratio(0, 5, true)));  /* 5/0: not comparable */
	assert_true(mm_ratio(5, 0, true) == 0.0);  /* throughput fell to 0 */
	assert_true(mm_ratio(0, 5, false) == 0.0); /* latency 0 -> 5 */
	assert_true(isnan(mm_ratio(NAN, 5, false)));

	r[0] = mm_ratio(100, 200, true);  /* 2 */
	r[1] = mm_ratio(100, 200, false); /* 0.5 */
	r[2] = mm_ratio(5, 0, true);	  /* 0 */
	r[3] = mm_ratio(0, 5, true);	  /* NaN */
	assert_true(r[0] == 2.0 && r[1] == 0.5 && r[2] == 0.0 && isnan(r[3]));
	assert_rel(mm_gmean_ratio(r, 4), 0.05623413251903491, 1e-14);
	assert_rel(mm_gmean_ratio(two_eight, 2), 4.0, 1e-15);
	assert_true(isnan(mm_gmean_ratio(two_eight, 0)));
	assert_true(isnan(mm_gmean_ratio(negative, 2)));
	assert_true(MM_GMEAN_ZERO == 0.00001);
}

/* ---- text ---- */

/*
 * The line "Hmean     tput-1      620.52 (   0.00%)      464.52 * -25.14%*":
 * label "%-9s %-6s", then "%12.2f (%7.2f%%)" per governor, brackets swapped for
 * asterisks when significant. The percentage is pdiff(464.52, 620.52) = -25.1402...
 */
static void test_format_value_cells(void **state)
{
	char line[256], buf[64];
	int n;

	(void)state;
	n = mm_format_label(buf, sizeof(buf), "Hmean", "tput-1", 6);
	assert_string_equal(buf, "Hmean     tput-1");
	assert_int_equal(n, 16);
	strcpy(line, buf);
	n = mm_format_value_cell(buf, sizeof(buf), 620.52, 0.0, false, true);
	assert_string_equal(buf, "      620.52 (   0.00%)");
	assert_int_equal(n, MM_CELL_WIDTH);
	strcat(line, buf);
	mm_format_value_cell(buf, sizeof(buf), 464.52, mm_pdiff(464.52, 620.52), true, false);
	assert_string_equal(buf, "      464.52 * -25.14%*");
	strcat(line, buf);
	assert_string_equal(line, "Hmean     tput-1      620.52 (   0.00%)      464.52 * -25.14%*");

	/* Not significant: brackets. The baseline ignores pct and significance. */
	mm_format_value_cell(buf, sizeof(buf), 464.52, mm_pdiff(464.52, 620.52), false, false);
	assert_string_equal(buf, "      464.52 ( -25.14%)");
	mm_format_value_cell(buf, sizeof(buf), 620.52, 12.0, true, true);
	assert_string_equal(buf, "      620.52 (   0.00%)");
	/* Positive percentage, a longer operation name, Stddev label. */
	mm_format_value_cell(buf, sizeof(buf), 32419.12, 3.5, false, false);
	assert_string_equal(buf, "    32419.12 (   3.50%)");
	mm_format_label(buf, sizeof(buf), "Stddev", "1-PING_INLINE", 13);
	assert_string_equal(buf, "Stddev    1-PING_INLINE");
	mm_format_label(buf, sizeof(buf), "Min", "tput-1", 10);
	assert_string_equal(buf, "Min       tput-1    ");
	/* Widths are minimums: a 5-digit percentage widens the cell. */
	mm_format_value_cell(buf, sizeof(buf), 1.0, 12345.678, false, false);
	assert_string_equal(buf, "        1.00 (12345.68%)");

	/* Header: a name right-aligned over a 23-column cell; a plain number cell. */
	mm_format_header_cell(buf, sizeof(buf), "menu");
	assert_string_equal(buf, "                   menu");
	mm_format_number_cell(buf, sizeof(buf), 0.9876);
	assert_string_equal(buf, "        0.99");

	/* Truncation works like snprintf: NUL-terminated, returns the full length. */
	n = mm_format_value_cell(buf, 8, 620.52, 0.0, false, true);
	assert_int_equal(n, 23);
	assert_string_equal(buf, "      6");
}

/*
 * The normalized style "%4.2f [%6.2f](%5.2f)". pct imp by hand: lower is better,
 * base 100 -> 98: -(98 - 100)/100*100 = +2; 100 -> 102: -2; the baseline itself gives
 * -0.0, printed "-0.00" as in the published tables ("1.00 [ -0.00]( 2.08)"); higher is
 * better: 100 -> 44: (44 - 100)/100*100 = -56, baseline +0.
 */
static void test_format_norm_cells(void **state)
{
	char buf[64];
	double pct;

	(void)state;
	pct = mm_norm_pct(100, 100, false);
	assert_true(pct == 0.0 && signbit(pct));
	mm_format_norm_cell(buf, sizeof(buf), 100.0 / 100.0, pct, 2.08);
	assert_string_equal(buf, "1.00 [ -0.00]( 2.08)");

	pct = mm_norm_pct(100, 100, true);
	assert_true(pct == 0.0 && !signbit(pct));
	mm_format_norm_cell(buf, sizeof(buf), 1.0, pct, 0.5);
	assert_string_equal(buf, "1.00 [  0.00]( 0.50)");

	assert_rel(mm_norm_pct(100, 98, false), 2.0, 1e-13);
	assert_rel(mm_norm_pct(100, 102, false), -2.0, 1e-13);
	assert_rel(mm_norm_pct(100, 44, true), -56.0, 1e-13);
	assert_true(isnan(mm_norm_pct(0, 5, true)));

	mm_format_norm_cell(buf, sizeof(buf), 0.98, mm_norm_pct(100, 98, false), 3.19);
	assert_string_equal(buf, "0.98 [  2.00]( 3.19)");
	mm_format_norm_cell(buf, sizeof(buf), 0.44, -55.53, 12.5);
	assert_string_equal(buf, "0.44 [-55.53](12.50)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amean),
		cmocka_unit_test(test_hmean),
		cmocka_unit_test(test_summary_small),
		cmocka_unit_test(test_summary_invalid),
		cmocka_unit_test(test_pct_signs),
		cmocka_unit_test(test_pct_edges),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_t_distribution),
		cmocka_unit_test(test_ttest),
		cmocka_unit_test(test_asterisk_rule),
		cmocka_unit_test(test_ttest_edges),
		cmocka_unit_test(test_gmean),
		cmocka_unit_test(test_format_value_cells),
		cmocka_unit_test(test_format_norm_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
