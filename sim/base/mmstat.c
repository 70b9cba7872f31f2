// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmstat.c - the statistics of MMTests comparison tables, for idlesim compare.
 *
 * What is computed, and the MMTests behaviour it reproduces (MMTests = gormanm/mmtests,
 * bin/lib/MMTests/{Stat,Compare,PrintGeneric}.pm; see shared/reference
 * energy-and-statistics.md section 6 and peers-and-users.md section 2.6):
 *
 * Summary of one governor's n samples (Stat.pm, Summarise.pm):
 *   - Amean = sum x / n for lower-is-better metrics; Hmean = n / sum(1/x) for
 *     higher-is-better ones (MMTests picks the mean from the preferred value).
 *   - Stddev of an Amean: sqrt(sum (x - mean)^2 / (n - 1)). Of an Hmean, MMTests' formula
 *     sqrt(sum (1/x - 1/H)^2 * H^4 / n), computed as H^2 * sqrt(sum (1/x - 1/H)^2 / n)
 *     with 1/H = sum(1/x) / n. MMTests gives NaN for an Amean's SD with n = 1; we give 0,
 *     so a one-iteration table prints numbers (the t-test refuses n < 2 anyway).
 *   - CoeffVar = stddev * 100 / mean, 0 if mean == 0 (as calc_coeffvar). Min, Max.
 *   - Two passes over the data (mean, then squared deviations): no cancellation.
 *
 * Percentages (Stat.pm pdiff/pndiff): positive is better in both directions.
 *   pdiff = cand * 100 / base - 100, pndiff = 100 - cand * 100 / base. Stddev and
 *   CoeffVar rows always use pndiff (Stat.pm stat_compare). Zero edge cases in mmstat.h.
 *
 * Significance (Compare.pm:_significanceTest, f0b33946, Oct 2018 to 8cd087ae, Nov 2024):
 *   stderr = sqrt(sd_b^2/n_b + sd_r^2/n_r) (unpooled), t = |mean_b - mean_r| / stderr,
 *   df = n_b + n_r - 2 (pooled df, not Welch-Satterthwaite), p = 2 * pt(t, df, upper),
 *   significant iff p < 0.10. With stderr == 0, significant iff the means differ. Only the
 *   mean row is marked: PrintGeneric.pm replaces the "(" and ")" around that row's
 *   percentage with "*". We refuse the test when either side has fewer than 2 samples
 *   (see mmstat.h); MMTests then had a NaN SD and an undefined outcome.
 *
 * Gmean of ratios (Compare.pm:_generateRatioComparisonTable): geometric mean over cells of
 *   per-cell ratios, a ratio of 0 replaced by 0.00001 and NaN by 1. MMTests' ratio is
 *   cand/base, swapped to base/cand for operations whose preferred direction differs from
 *   the comparison's; idlesim orients every ratio so that > 1 is better (its Gmean is
 *   "Gmean Higher"). Computed as exp(mean of logs), which cannot overflow.
 *
 * Normalized style (K Prateek Nayak's "tip[pct imp](CV)" tables): value / baseline mean,
 *   pct imp = (cand - base) / base * 100 negated for lower-is-better (the published
 *   baseline cells read "[ -0.00]" for times and "[  0.00]" for throughput), CV in %.
 *
 * Text layout, derived from the example
 *   "Hmean     tput-1      620.52 (   0.00%)      464.52 * -25.14%*"
 * and MMTests' Compare.pm:_generateRenderTable + PrintGeneric.pm:printRow:
 *   - stat column "%-Ls" with L = the longest stat name MMTests may print for the
 *     benchmark; its default row set (Min, Hmean, Stddev, CoeffVar, Max, BHmean-50/95/99)
 *     gives L = 9 ("BHmean-99"), hence "Hmean" + 4 spaces + the separating space;
 *   - operation column " %-Ws", W = longest operation name in the table ("tput-1": 6);
 *   - per governor "%12.2f" (_FieldLength 12: "      620.52") then " (%7.2f%%)"
 *     (_CompareLength 7: " (   0.00%)", " * -25.14%*" once the brackets are swapped);
 *   - the header line: "%Ns" blank (N = 9 + 1 + W), then each name "%23s"
 *     (_FieldLength + _CompareLength + 4).
 *   All widths are minimums: a wider number pushes the rest right, as printf does.
 *
 * Student's t distribution. The two-sided tail is a regularized incomplete beta function:
 *   P(|T| >= t) = I_x(a, 1/2), a = df/2, x = df/(df + t^2)                   (DLMF 8.17.5)
 * evaluated as I_x(a,b) = x^a (1-x)^b / (a B(a,b)) / F, F = 1 + d1/(1 + d2/(1 + ...)),
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),  d(2m) = m(b-m) x / ((a+2m-1)(a+2m))
 * (DLMF 8.17.22), by the modified Lentz method, stopping when a step changes F by less
 * than 4 ulp. The fraction converges fast for x < (a+1)/(a+b+2); beyond (here |t| < sqrt3
 * or so, where p > 0.08) we use I_x(a,b) = 1 - I_{1-x}(b,a). To keep small p accurate:
 *   - x and 1-x come from r = t/sqrt(df) as 1/(1+r^2) and r^2/(1+r^2), their logs from
 *     log1p, and huge r is handled in logs, so nothing overflows up to |t| = DBL_MAX;
 *   - log B(a, 1/2) = log(sqrt(pi)) - D(a), D(a) = log G(a+1/2) - log G(a), by the
 *     recurrence G(a+1/2)/G(a) = a/(a+1/2) * G(a+3/2)/G(a+1) up to a >= 20 and then the
 *     difference of the two Stirling series (Bernoulli terms to B10), written out so the
 *     large terms cancel analytically: D(a) = log(a)/2 + a log1p(1/(2a)) - 1/2 + sum
 *     c_k ((a+1/2)^(1-2k) - a^(1-2k)). Subtracting two lgamma() values of size 4e4 (df
 *     10000) would lose ~1e-11 relative, and lgamma() is not thread-safe (signgam).
 *   - near the switch point with df large, 1 + d(2m+1) nearly cancels; the odd part of
 *     the fraction, with its denominators rewritten by hand (ibeta_fraction()), avoids it.
 * Accuracy, measured against mpmath's betainc at 50 digits (x formed exactly from the same
 * double t and df), on a grid of 32 df values from 1 to 10000 (integers and halves) times
 * 46 |t| values from 1e-8 to 1e6, and on 4000 random (df, t) pairs in the same ranges:
 * max relative error 1.6e-14 where p >= 1e-20, 8e-14 where p >= 1e-100, 1.7e-13 where
 * p >= 1e-300 (there p = exp(E) with |E| up to 690, and each ulp of E is one of p);
 * mm_t_cdf() the same for t < 0 (for t > 0 it is 1 - p/2, exact to an ulp absolute).
 * df = 1e5..1e8 checked at a few t: 6e-15. The fraction takes at most 56 steps for any df
 * up to 1e8. Below p ~ DBL_MIN the result loses digits and then underflows to 0 (df =
 * 10000, t = 1e6 gives 0; the true p is about 1e-40000).
 */
#include "sim/base/mmstat.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#define LN_SQRT_PI 0.57236494292470008707 /* log(sqrt(pi)) = log G(1/2) */

/* ---- summaries ---- */

int mm_summarize(const double *x, int n, bool higher_is_better, struct mm_summary *out)
{
	double sum = 0.0, dev = 0.0, mean, sd;
	int i;

	out->n = n;
	out->kind = higher_is_better ? MM_HMEAN : MM_AMEAN;
	out->mean = out->stddev = out->coeffvar = NAN;
	out->min = out->max = NAN;
	if (n < 1 || !x)
		return -1;
	out->min = out->max = x[0];
	for (i = 0; i < n; i++) {
		if (x[i] < out->min)
			out->min = x[i];
		if (x[i] > out->max)
			out->max = x[i];
	}
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || (higher_is_better && !(x[i] > 0.0)))
			return -1;
	}

	if (!higher_is_better) {
		for (i = 0; i < n; i++)
			sum += x[i];
		mean = sum / n;
		for (i = 0; i < n; i++)
			dev += (x[i] - mean) * (x[i] - mean);
		sd = n > 1 ? sqrt(dev / (n - 1)) : 0.0;
	} else {
		double inv_mean;

		for (i = 0; i < n; i++)
			sum += 1.0 / x[i];
		inv_mean = sum / n; /* 1/H */
		mean = n / sum;
		for (i = 0; i < n; i++)
			dev += (1.0 / x[i] - inv_mean) * (1.0 / x[i] - inv_mean);
		sd = mean * mean * sqrt(dev / n);
	}
	out->mean = mean;
	out->stddev = sd;
	out->coeffvar = mean != 0.0 ? sd * 100.0 / mean : 0.0;
	return 0;
}

const char *mm_mean_name(enum mm_mean kind)
{
	return kind == MM_HMEAN ? "Hmean" : "Amean";
}

const char *mm_mean_key(enum mm_mean kind)
{
	return kind == MM_HMEAN ? "hmean" : "amean";
}

/* ---- percentages ---- */

double mm_pdiff(double cand, double base)
{
	if (!isfinite(cand) || !isfinite(base))
		return NAN;
	if (cand == base)
		return 0.0;
	if (base == 0.0)
		return 100.0;
	return cand * 100.0 / base - 100.0;
}

double mm_pndiff(double cand, double base)
{
	if (!isfinite(cand) || !isfinite(base))
		return NAN;
	if (cand == base)
		return 0.0;
	if (cand == 0.0)
		return 100.0;
	if (base == 0.0)
		return -99.0;
	return 100.0 - cand * 100.0 / base;
}

double mm_pct(const struct mm_summary *base, const struct mm_summary *cand, bool higher_is_better)
{
	return higher_is_better ? mm_pdiff(cand->mean, base->mean)
				: mm_pndiff(cand->mean, base->mean);
}

const char *mm_row_name(enum mm_row row, enum mm_mean kind)
{
	switch (row) {
	case MM_ROW_MIN:
		return "Min";
	case MM_ROW_MEAN:
		return mm_mean_name(kind);
	case MM_ROW_STDDEV:
		return "Stddev";
	case MM_ROW_COEFFVAR:
		return "CoeffVar";
	case MM_ROW_MAX:
		return "Max";
	default:
		return "?";
	}
}

double mm_row_value(const struct mm_summary *s, enum mm_row row)
{
	switch (row) {
	case MM_ROW_MIN:
		return s->min;
	case MM_ROW_MEAN:
		return s->mean;
	case MM_ROW_STDDEV:
		return s->stddev;
	case MM_ROW_COEFFVAR:
		return s->coeffvar;
	case MM_ROW_MAX:
		return s->max;
	default:
		return NAN;
	}
}

double mm_row_pct(const struct mm_summary *base, const struct mm_summary *cand, enum mm_row row,
		  bool higher_is_better)
{
	double b = mm_row_value(base, row), c = mm_row_value(cand, row);

	if (row == MM_ROW_STDDEV || row == MM_ROW_COEFFVAR || !higher_is_better)
		return mm_pndiff(c, b);
	return mm_pdiff(c, b);
}

/* ---- Student's t distribution ---- */

#define CF_EPS (4 * DBL_EPSILON)
#define CF_TINY 1e-300
#define CF_MAX_ITER 1000 /* at most 56 steps were needed, df 1..1e8 */

/*
 * F = 1 + d1/(1 + d2/(1 + d3/(1 + ...))) of DLMF 8.17.22 for I_x(a, b), y = 1 - x.
 *
 * Near the switch point with a large, d(2m+1) is close to -1, so 1 + d1 and every
 * 1 + d(2m) + d(2m+1) would lose digits (x = 0.9996, a = 5000: 3 of them). So we use the
 * odd part of the fraction (pairs of terms contracted),
 *   F = (1 + d1) + n1/(D1 + n2/(D2 + ...)),  n(m) = -d(2m-1) d(2m),
 *   D(m) = 1 + d(2m) + d(2m+1) = y + x ((a-1)(1+2m-b) + 2m(m+1)) / ((A-1)(A+1)), A = a+2m,
 *   1 + d1 = y + x (1-b) / (a+1),
 * where the right-hand sides were simplified by hand from the definitions. For b = 1/2 or
 * a = 1/2, the only cases used, their terms have one sign, or (df < 2, or m past
 * (b - 1)/2) a negative part under 40 % of the positive one. Evaluated by the modified Lentz
 * method: C and D are the ratios of successive numerators and denominators, kept away
 * from 0, and F is their running product.
 */
static double ibeta_fraction(double a, double b, double x, double y)
{
	double f, c, d = 0.0;
	int m;

	f = y + x * (1.0 - b) / (a + 1.0);
	if (fabs(f) < CF_TINY)
		f = CF_TINY;
	c = f;
	for (m = 1; m <= CF_MAX_ITER; m++) {
		double A = a + 2 * m, num, den, step;

		num = (a + m - 1) * (a + b + m - 1) * m * (b - m) * x * x /
		      ((A - 2) * (A - 1) * (A - 1) * A);
		den = y + x * ((a - 1) * (1 + 2 * m - b) + 2.0 * m * (m + 1)) / ((A - 1) * (A + 1));
		d = den + num * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = den + num / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1.0 / d;
		step = c * d;
		f *= step;
		if (fabs(step - 1.0) < CF_EPS)
			return f;
	}
	return NAN; /* not reached (see CF_MAX_ITER) */
}

/* Stirling's series coefficients B(2k) / (2k (2k-1)), k = 1..5. */
static const double stirling_c[] = {
	1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188,
};

/* D(a) = log G(a + 1/2) - log G(a), a > 0 (method in the comment at the top). */
static double lgamma_half_step(double a)
{
	double prod = 1.0, sum = 0.0, z0, z1, p0, p1, z0sq, z1sq;
	size_t k;

	while (a < 20.0) {
		prod *= a / (a + 0.5);
		a += 1.0;
	}
	z0 = 1.0 / a;
	z1 = 1.0 / (a + 0.5);
	z0sq = z0 * z0;
	z1sq = z1 * z1;
	p0 = z0;
	p1 = z1;
	for (k = 0; k < sizeof(stirling_c) / sizeof(stirling_c[0]); k++) {
		sum += stirling_c[k] * (p1 - p0);
		p0 *= z0sq;
		p1 *= z1sq;
	}
	return log(prod) + 0.5 * log(a) + (a * log1p(0.5 / a) - 0.5) + sum;
}

double mm_t_pvalue(double t, double df)
{
	double a, r, x, y, lx, ly, lbeta, p;

	if (isnan(t) || !(df > 0.0) || isinf(df))
		return NAN;
	t = fabs(t);
	if (t == 0.0)
		return 1.0;
	if (isinf(t))
		return 0.0;

	/* x = df / (df + t^2) = 1 / (1 + r^2), y = 1 - x = r^2 / (1 + r^2). */
	r = t / sqrt(df);
	if (r >= 1.0) {
		double inv = (1.0 / r) * (1.0 / r);

		x = inv / (1.0 + inv);
		y = 1.0 / (1.0 + inv);
		lx = -(2.0 * log(r) + log1p(inv));
		ly = -log1p(inv);
	} else {
		double r2 = r * r;

		x = 1.0 / (1.0 + r2);
		y = r2 / (1.0 + r2);
		lx = -log1p(r2);
		ly = 2.0 * log(r) - log1p(r2);
	}

	a = 0.5 * df;
	lbeta = LN_SQRT_PI - lgamma_half_step(a); /* log B(a, 1/2) */
	if (x < (a + 1.0) / (a + 2.5)) {
		p = exp(a * lx + 0.5 * ly - lbeta - log(a)) / ibeta_fraction(a, 0.5, x, y);
	} else {
		double q = exp(a * lx + 0.5 * ly - lbeta - log(0.5)) / ibeta_fraction(0.5, a, y, x);

		p = 1.0 - q;
	}
	if (p < 0.0)
		p = 0.0;
	if (p > 1.0)
		p = 1.0;
	return p;
}

double mm_t_cdf(double t, double df)
{
	double p = mm_t_pvalue(t, df);

	if (isnan(p))
		return NAN;
	return t < 0.0 ? 0.5 * p : 1.0 - 0.5 * p;
}

/* ---- significance ---- */

int mm_ttest(const struct mm_summary *a, const struct mm_summary *b, struct mm_ttest *out)
{
	double se;

	out->t = out->p = NAN;
	out->df = (double)a->n + b->n - 2;
	if (a->n < 2 || b->n < 2 || !isfinite(a->mean) || !isfinite(b->mean) ||
	    !isfinite(a->stddev) || !isfinite(b->stddev))
		return -1;

	se = sqrt(a->stddev * a->stddev / a->n + b->stddev * b->stddev / b->n);
	if (se == 0.0) {
		bool differ = a->mean != b->mean;

		out->t = differ ? INFINITY : 0.0;
		out->p = differ ? 0.0 : 1.0;
		return 0;
	}
	out->t = fabs(a->mean - b->mean) / se;
	out->p = mm_t_pvalue(out->t, out->df);
	return 0;
}

double mm_ttest_p(const struct mm_summary *a, const struct mm_summary *b)
{
	struct mm_ttest tt;

	mm_ttest(a, b, &tt);
	return tt.p;
}

bool mm_significant(double p)
{
	return p < MM_SIGNIFICANCE;
}

/* ---- ratios ---- */

double mm_ratio(double base_mean, double cand_mean, bool higher_is_better)
{
	double num = higher_is_better ? cand_mean : base_mean;
	double den = higher_is_better ? base_mean : cand_mean;

	if (!isfinite(num) || !isfinite(den))
		return NAN;
	if (num == den)
		return 1.0;
	if (den == 0.0)
		return NAN;
	return num / den;
}

double mm_gmean_ratio(const double *ratios, int n)
{
	double sum = 0.0;
	int i;

	if (n < 1 || !ratios)
		return NAN;
	for (i = 0; i < n; i++) {
		double r = ratios[i];

		if (isnan(r))
			r = 1.0;
		else if (r == 0.0)
			r = MM_GMEAN_ZERO;
		if (r < 0.0)
			return NAN;
		sum += log(r);
	}
	return exp(sum / n);
}

double mm_norm_pct(double base_mean, double cand_mean, bool higher_is_better)
{
	double d;

	if (!isfinite(base_mean) || !isfinite(cand_mean) || base_mean == 0.0)
		return NAN;
	d = (cand_mean - base_mean) / base_mean * 100.0;
	return higher_is_better ? d : -d;
}

/* ---- text ---- */

int mm_format_label(char *buf, size_t n, const char *stat, const char *op, int op_width)
{
	return snprintf(buf, n, "%-*s %-*s", MM_STAT_WIDTH, stat, op_width, op);
}

int mm_format_header_cell(char *buf, size_t n, const char *name)
{
	return snprintf(buf, n, "%*s", MM_CELL_WIDTH, name);
}

int mm_format_value_cell(char *buf, size_t n, double value, double pct, bool significant,
			 bool is_baseline)
{
	char open = '(', close = ')';

	if (is_baseline) {
		pct = 0.0;
		significant = false;
	}
	if (significant)
		open = close = '*';
	return snprintf(buf, n, "%*.2f %c%*.2f%%%c", MM_VALUE_WIDTH, value, open, MM_PCT_WIDTH, pct,
			close);
}

int mm_format_number_cell(char *buf, size_t n, double value)
{
	return snprintf(buf, n, "%*.2f", MM_VALUE_WIDTH, value);
}

int mm_format_norm_cell(char *buf, size_t n, double norm, double pct, double cv)
{
	return snprintf(buf, n, "%4.2f [%6.2f](%5.2f)", norm, pct, cv);
}
