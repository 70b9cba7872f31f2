// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_report.c - a comparison as MMTests text, as normalized tables, as JSON or CSV.
 *
 * Text (the default style) follows MMTests' compare-kernels output; every cell and label
 * comes from sim/base/mmstat.h. One table per machine: a title line, a units line, the header
 * (the governors, baseline first) and, per metric, the rows Min, Amean or Hmean, Stddev,
 * CoeffVar and Max, each for every value of the listed parameter ("throughput-4" is the
 * throughput with 4 clients). Metrics are separated by a blank line. The last block is
 * the Gmean of the ratios of means over every cell but residency, oriented so that > 1
 * means better than the baseline.
 *
 * The normalized style is the "tip[pct imp](CV)" table of AMD's scheduler reports: per
 * machine and metric, the cases down, the governors across, each mean divided by the
 * baseline's, the signed improvement and the coefficient of variation.
 *
 * JSON has the cells in the layout, with every sample, so that the statistics can
 * be recomputed; then the Gmean and the setup. Keys in a fixed order and reals with 12
 * significant digits, so equal results give equal bytes. Numbers that do not exist (the
 * baseline's p-value, a harmonic mean of a zero sample) are null.
 *
 * CSV: one row per cell and governor, without the samples.
 */
#include "sim/report/compare_report.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/common.h"
#include "sim/base/progress.h"
#include "sim/base/textwrap.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#define OP_LEN (COMPARE_METRIC_LEN + 24)

/* "throughput-4": the metric, and the parameter's value when the cells have one. */
static void op_name(const struct compare_result *res, const struct compare_cell *c, char *buf, size_t n)
{
	if (res->vary >= 0 && workload_param_value_word(res->wl, res->vary, res->values[c->value]))
		snprintf(buf, n, "%s-%s", c->name,
			 workload_param_value_word(res->wl, res->vary, res->values[c->value]));
	else if (res->vary >= 0)
		snprintf(buf, n, "%s-%lld", c->name, (long long)res->values[c->value]);
	else
		snprintf(buf, n, "%s", c->name);
}

static const char *param_name(const struct compare_result *res)
{
	return res->vary >= 0 ? res->wl->params[res->vary].name : NULL;
}

/* Whether parameter i is reported: the listed one, and every one that applies (the
 * scheduler's only with the scheduler: a pinned run reports as before it existed). */
static bool param_shown(const struct compare_result *res, const int64_t *params, int i)
{
	int v;

	if (i == res->vary || workload_param_applies(res->wl, params, i))
		return true;
	for (v = 0; v < res->nr_values && res->vary >= 0; v++) {
		int64_t p[WL_MAX_PARAMS];

		memcpy(p, params, sizeof(p));
		p[res->vary] = res->values[v];
		if (workload_param_applies(res->wl, p, i))
			return true;
	}
	return false;
}

/* One value of parameter i: a word if it has one (placement=sched), else the number. */
static size_t param_value(char *buf, size_t n, const struct compare_result *res, int i,
			  const char *sep, int64_t v)
{
	const char *word = workload_param_value_word(res->wl, i, v);

	if (word)
		return (size_t)snprintf(buf, n, "%s%s", sep, word);
	return (size_t)snprintf(buf, n, "%s%lld", sep, (long long)v);
}

static json_t *param_json(const struct compare_result *res, int i, int64_t v)
{
	const char *word = workload_param_value_word(res->wl, i, v);

	return word ? json_string(word) : json_integer(v);
}

/* "clients=1,2,4 msg-bytes=64": every parameter, the listed one with its values. */
static void params_desc(const struct compare_result *res, int world, char *buf, size_t n)
{
	int64_t params[WL_MAX_PARAMS];
	struct sim_error err = { 0 };
	size_t used = 0;
	unsigned int i;
	int v;

	/* in a timer world, its preset's values (checked when the comparison ran) */
	memcpy(params, res->params, sizeof(params));
	if (res->nr_worlds > 0)
		workload_preset(res->wl, res->worlds[world], params, &err);
	buf[0] = '\0';
	for (i = 0; i < res->wl->nr_params && used < n; i++) {
		if (!param_shown(res, params, (int)i))
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%s=", used ? " " : "",
					 res->wl->params[i].name);
		for (v = 0; v < res->nr_values && (int)i == res->vary && used < n; v++)
			used += param_value(buf + used, n - used, res, (int)i, v ? "," : "",
					    res->values[v]);
		if ((int)i != res->vary && used < n)
			used += param_value(buf + used, n - used, res, (int)i, "", params[i]);
	}
}

/* The HZ cell c ran at: its timer world's (a periodic-tick preset has its own). */
static int cell_hz(const struct compare_result *res, const struct compare_cell *c)
{
	return res->nr_worlds > 0 && res->world_hz[c->world] ? res->world_hz[c->world] : res->hz;
}

/* "tbench on skl: ..." heading the tables of a machine (and timer world, with a list). */
static void title(FILE *f, const struct compare_result *res, const struct compare_cell *c)
{
	char params[512], world[64] = "";

	params_desc(res, c->world, params, sizeof(params));
	if (res->nr_worlds > 0)
		snprintf(world, sizeof(world), ", timer world %s", res->worlds[c->world]);
	textwrap_printf(f, 0, TEXTWRAP_INDENT_KEY, "%s on %s%s: %s%s%d iteration%s of %g s, seeds %llu..%llu, hz %d\n",
		res->wl->name, res->machines[c->machine], world, params, params[0] ? "; " : "",
		res->iterations, res->iterations == 1 ? "" : "s", (double)res->duration_ns / 1e9,
		(unsigned long long)res->seed,
		(unsigned long long)(res->seed + (uint64_t)res->iterations - 1), cell_hz(res, c));
}

/* ---- the configuration record (sim/run/cfgrec.h) ---- */

static const struct cpuidle_governor *res_gov(const struct compare_result *res, int g)
{
	return res->gov[g] ? res->gov[g] : gov_find(res->governors[g]);
}

/* Governor g's tunables in force; NULL (the defaults) for results built by hand. */
static const long long *res_params(const struct compare_result *res, int g)
{
	return res->gov[g] ? res->gov_params[g] : NULL;
}

static void gov_config(const struct compare_result *res, int g, char *tun, size_t ntun, char *sets,
		       size_t nsets)
{
	const struct cpuidle_governor *gov = res_gov(res, g);
	struct run_set applied[RUN_MAX_SETS];
	int n = cfgrec_applied_sets(res->sets, res->nr_sets, gov, applied);

	snprintf(tun, ntun, "unknown");
	if (gov)
		cfgrec_tunables_text(tun, ntun, gov, res_params(res, g));
	cfgrec_sets_text(sets, nsets, applied, n);
}

/* What of machine m is assumed (a sysfs snapshot's powers and wake latencies), or "". */
static const char *machine_assumed(const struct compare_result *res, int m)
{
	return res->mrec ? res->mrec[m].assumed : "";
}

static void machine_config(const struct compare_result *res, int m, char hash[17], const char **dis)
{
	cfgrec_hex(hash, res->mrec ? res->mrec[m].hash : 0);
	*dis = res->mrec ? res->mrec[m].disabled : "unknown";
}

void compare_write_config(FILE *f, const struct compare_result *res)
{
	char tun[1024], sets[1024], lim[32], hash[17];
	/* per world at most " (timer world " + a name + " at HZ 10000", then ")" */
	char whz[COMPARE_MAX_WORLDS * (COMPARE_WORLD_LEN + 32) + 2] = "";
	const char *dis;
	int i;

	for (i = 0; i < res->nr_worlds; i++)
		if (res->world_hz[i] && res->world_hz[i] != res->hz)
			snprintf(whz + strlen(whz), sizeof(whz) - strlen(whz), "%s%s at HZ %d",
				 whz[0] ? ", " : " (timer world ", res->worlds[i], res->world_hz[i]);
	if (whz[0])
		strcat(whz, ")");
	if (res->latency_req_ns >= 0)
		snprintf(lim, sizeof(lim), "%lld ns", (long long)res->latency_req_ns);
	else
		snprintf(lim, sizeof(lim), "none");
	textwrap_printf(f, 0, TEXTWRAP_INDENT_KEY,
			"config: idlesim %s; seeds %llu..%llu; HZ %d%s; latency limit %s; "
			"wake latency model %s\n",
			IDLESIM_VERSION, (unsigned long long)res->seed,
			(unsigned long long)(res->seed + (uint64_t)res->iterations - 1), res->hz, whz, lim,
			wake_model_name(res->wake_model));
	for (i = 0; i < res->nr_machines; i++) {
		machine_config(res, i, hash, &dis);
		textwrap_printf(f, 0, TEXTWRAP_INDENT_KEY, "machine %s: table %s; disabled: %s%s%s\n",
				res->machines[i], hash, dis, machine_assumed(res, i)[0] ? "; assumed: " : "",
				machine_assumed(res, i));
	}
	for (i = 0; i < res->nr_governors; i++) {
		gov_config(res, i, tun, sizeof(tun), sets, sizeof(sets));
		textwrap_printf(f, 0, TEXTWRAP_INDENT_KEY, "governor %s: %s; --set applied: %s\n",
				res->governors[i], tun, sets);
	}
}

json_t *compare_config_json(const struct compare_result *res)
{
	json_t *o = json_object(), *ms = json_array(), *gs = json_array();
	char hash[17];
	const char *dis;
	int i;

	json_object_set_new(o, "idlesim_version", json_string(IDLESIM_VERSION));
	json_object_set_new(o, "seeds", json_pack("{s:I, s:I}", "first", (json_int_t)res->seed,
						  "last",
						  (json_int_t)(res->seed + (uint64_t)res->iterations - 1)));
	json_object_set_new(o, "hz", json_integer(res->hz));
	if (res->nr_worlds > 0) {
		json_t *w = json_object();

		for (i = 0; i < res->nr_worlds; i++)
			json_object_set_new(w, res->worlds[i],
					    json_integer(res->world_hz[i] ? res->world_hz[i] : res->hz));
		json_object_set_new(o, "world_hz", w);
	}
	json_object_set_new(o, "latency_limit_ns",
			    res->latency_req_ns < 0 ? json_null() : json_integer(res->latency_req_ns));
	json_object_set_new(o, "wake_latency_model", json_string(wake_model_name(res->wake_model)));
	for (i = 0; i < res->nr_machines; i++) {
		machine_config(res, i, hash, &dis);
		json_t *mo = json_pack("{s:s, s:s, s:s}", "name", res->machines[i], "hash", hash,
				       "disabled", dis);

		if (machine_assumed(res, i)[0])
			json_object_set_new(mo, "assumed", json_string(machine_assumed(res, i)));
		json_array_append_new(ms, mo);
	}
	json_object_set_new(o, "machines", ms);
	for (i = 0; i < res->nr_governors; i++) {
		const struct cpuidle_governor *gov = res_gov(res, i);
		struct run_set applied[RUN_MAX_SETS];
		int n = cfgrec_applied_sets(res->sets, res->nr_sets, gov, applied);

		json_array_append_new(gs, json_pack("{s:s, s:o, s:o}", "name", res->governors[i],
						    "tunables",
						    gov ? cfgrec_tunables_json(gov, res_params(res, i))
							: json_null(),
						    "set", cfgrec_sets_json(applied, n)));
	}
	json_object_set_new(o, "governors", gs);
	return o;
}

/* ---- MMTests text ---- */

/*
 * More governors than fit TEXTWRAP_DEFAULT columns: the table is printed in parts, each
 * with the label column and the baseline's column (every percentage is against it), then
 * as many governors as fit. A part is governors [g0, g1) besides the baseline.
 */
struct gov_part {
	int g0, g1;
};

/* How many governors besides the baseline one part holds, for a label column this wide. */
static int govs_per_part(int label_width, int cell_width)
{
	int n = (TEXTWRAP_DEFAULT - label_width) / cell_width - 1;

	return n < 1 ? 1 : n;
}

/* Part p of the governors 1..n-1, k to a part; false past the last. */
static bool gov_part(int n, int k, int p, struct gov_part *part)
{
	part->g0 = 1 + p * k;
	part->g1 = part->g0 + k < n ? part->g0 + k : n;
	return p == 0 || part->g0 < n;
}

static void header_line(FILE *f, const struct compare_result *res, int op_width,
			const struct gov_part *part)
{
	char cell[128];
	int g;

	fprintf(f, "%*s", MM_STAT_WIDTH + 1 + op_width, "");
	for (g = 0; g < part->g1; g = g ? g + 1 : part->g0) {
		mm_format_header_cell(cell, sizeof(cell), res->governors[g]);
		fputs(cell, f);
	}
	fputc('\n', f);
}

static void value_row(FILE *f, const struct compare_result *res, const struct compare_cell *c,
		      enum mm_row row, int op_width, const struct gov_part *part)
{
	const struct mm_summary *base = &c->gov[0].sum;
	char op[OP_LEN], label[OP_LEN + 32], cell[128];
	int g;

	op_name(res, c, op, sizeof(op));
	mm_format_label(label, sizeof(label), mm_row_name(row, base->kind), op, op_width);
	fputs(label, f);
	for (g = 0; g < part->g1; g = g ? g + 1 : part->g0) {
		const struct compare_gov *x = &c->gov[g];

		mm_format_value_cell(cell, sizeof(cell), mm_row_value(&x->sum, row),
				     mm_row_pct(base, &x->sum, row, c->higher_is_better),
				     row == MM_ROW_MEAN && x->significant, g == 0);
		fputs(cell, f);
	}
	fputc('\n', f);
}

static void units_line(FILE *f, const struct compare_result *res, int first, int end)
{
	const char *sep = "units:";
	char line[2048] = "";
	size_t n = 0;
	int i, last = -1;

	for (i = first; i < end; i++) {
		const struct compare_cell *c = &res->cells[i];

		if (c->metric == last || (c->metric >= COMPARE_M_RESIDENCY && last >= COMPARE_M_RESIDENCY))
			continue;
		last = c->metric;
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %s", sep,
					      c->metric >= COMPARE_M_RESIDENCY ? "residency_pct.*" : c->name,
					      compare_metric_unit(res->wl, c->metric));
		sep = ",";
	}
	textwrap_printf(f, 0, TEXTWRAP_INDENT_KEY, "%s\n", line);
}

/*
 * Over a listed parameter's values (a client sweep): the geometric mean of each
 * governor's means, the figure MMTests' summaries give for a whole sweep, and its
 * percentage against the baseline's. Cells [i, k) are one metric's, a value each; a
 * mean that is not positive leaves the row out (a geometric mean needs them all > 0).
 */
static void sweep_gmean_row(FILE *f, const struct compare_result *res, int i, int k,
			    int op_width, const struct gov_part *part)
{
	struct mm_summary base = { 0 }, x = { 0 };
	char label[OP_LEN + 32], cell[128];
	int g;

	for (g = 0; g < res->nr_governors; g++)
		if (isnan(compare_sweep_gmean(res, i, k, g)))
			return;
	mm_format_label(label, sizeof(label), "Gmean", res->cells[i].name, op_width);
	fputs(label, f);
	base.mean = compare_sweep_gmean(res, i, k, 0);
	for (g = 0; g < part->g1; g = g ? g + 1 : part->g0) {
		x.mean = compare_sweep_gmean(res, i, k, g);
		mm_format_value_cell(cell, sizeof(cell), x.mean,
				     mm_pct(&base, &x, res->cells[i].higher_is_better), false,
				     g == 0);
		fputs(cell, f);
	}
	fputc('\n', f);
}

/* The cells of one machine are res->cells[first..end); a metric's cells are adjacent. */
static void text_machine(FILE *f, const struct compare_result *res, int first, int end)
{
	char op[OP_LEN];
	int i, k, width = 0, row, p, per;
	struct gov_part part;

	for (i = first; i < end; i++) {
		op_name(res, &res->cells[i], op, sizeof(op));
		if ((int)strlen(op) > width)
			width = (int)strlen(op);
	}
	title(f, res, &res->cells[first]);
	units_line(f, res, first, end);
	per = govs_per_part(MM_STAT_WIDTH + 1 + width, MM_CELL_WIDTH);
	for (p = 0; gov_part(res->nr_governors, per, p, &part); p++) {
		fputc('\n', f);
		if (part.g1 < res->nr_governors || p)
			fprintf(f, "(governors %d-%d of %d, with the baseline %s)\n", part.g0 + 1,
				part.g1, res->nr_governors, res->governors[0]);
		header_line(f, res, width, &part);
		for (i = first; i < end; i = k) {
			for (k = i; k < end && !strcmp(res->cells[k].name, res->cells[i].name); k++)
				;
			if (i != first)
				fputc('\n', f);
			for (row = 0; row < MM_ROW_NR; row++) {
				int j;

				for (j = i; j < k; j++)
					value_row(f, res, &res->cells[j], (enum mm_row)row, width,
						  &part);
			}
			if (res->mmtests_sweep && k - i > 1)
				sweep_gmean_row(f, res, i, k, width, &part);
		}
	}
}

static void text_gmean(FILE *f, const struct compare_result *res)
{
	char label[64], cell[64];
	int g, p, per = govs_per_part(MM_STAT_WIDTH + 1 + 3, MM_CELL_WIDTH);
	struct gov_part part;

	fprintf(f, "Gmean of the ratios of means over %d cells (> 1.00: better than %s; "
		   "residency not counted)\n",
		res->gmean_cells, res->governors[0]);
	for (p = 0; gov_part(res->nr_governors, per, p, &part); p++) {
		header_line(f, res, 3, &part);
		mm_format_label(label, sizeof(label), "Gmean", "all", 3);
		fputs(label, f);
		for (g = 0; g < part.g1; g = g ? g + 1 : part.g0) {
			mm_format_number_cell(cell, sizeof(cell), res->gmean[g]);
			fprintf(f, "%*s%s", MM_CELL_WIDTH - MM_VALUE_WIDTH, "", cell);
		}
		fputc('\n', f);
	}
}

/* Calls fn for each machine's range of cells (each machine and timer world's, with a list). */
static void for_each_machine(FILE *f, const struct compare_result *res,
			     void (*fn)(FILE *, const struct compare_result *, int, int))
{
	int i, k;

	for (i = 0; i < res->nr_cells; i = k) {
		for (k = i; k < res->nr_cells && res->cells[k].machine == res->cells[i].machine &&
			    res->cells[k].world == res->cells[i].world;
		     k++)
			;
		if (i)
			fputc('\n', f);
		fn(f, res, i, k);
	}
}

/*
 * With a --housekeeping list: each governor difference whose verdict (significantly
 * better, worse, or not significant) is not the same in every timer world, one line each
 * with its percentage in each world ("*" where significant).
 */
static void text_flips(FILE *f, const struct compare_result *res)
{
	char op[OP_LEN], line[1024];
	int i, g, w;
	size_t n;

	if (res->nr_worlds < 2)
		return;
	fprintf(f, "\nFlips with the timer world: %d (a governor's difference against %s whose sign "
		   "or significance changes between %s",
		res->nr_flips, res->governors[0], res->worlds[0]);
	for (w = 1; w < res->nr_worlds; w++)
		fprintf(f, "%s%s", w + 1 < res->nr_worlds ? ", " : " and ", res->worlds[w]);
	fputs(")\n", f);
	for (i = 0; i < res->nr_cells; i++) {
		const struct compare_cell *c = &res->cells[i];

		if (c->world != 0)
			continue;
		for (g = 1; g < res->nr_governors; g++) {
			if (!c->gov[g].flips)
				continue;
			op_name(res, c, op, sizeof(op));
			n = (size_t)snprintf(line, sizeof(line), "  %s %s %s:", res->machines[c->machine],
					     op, res->governors[g]);
			for (w = 0; w < res->nr_worlds && n < sizeof(line); w++) {
				const struct compare_cell *cw = compare_world_cell(res, i, w);

				n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %+.2f%%%s",
						      w ? "," : "", res->worlds[w], cw->gov[g].pct,
						      cw->gov[g].significant ? "*" : "");
			}
			textwrap_printf(f, 0, 4, "%s\n", line);
		}
	}
}

static int write_text(FILE *f, const struct compare_result *res)
{
	compare_write_config(f, res);
	fputc('\n', f);
	for_each_machine(f, res, text_machine);
	if (res->nr_governors > 1) {
		fputc('\n', f);
		text_gmean(f, res);
	}
	text_flips(f, res);
	return 0;
}

/* ---- normalized ("tip[pct imp](CV)") ---- */

#define NORM_CELL 20 /* "1.00 [ -0.00]( 2.08)" */
#define NORM_RULE "=================================================================="

static int norm_width(const char *gov)
{
	int w = (int)strlen(gov) + (int)strlen("[pct imp](CV)");

	return w > NORM_CELL ? w : NORM_CELL;
}

static void norm_case(const struct compare_result *res, const struct compare_cell *c, char *buf, size_t n)
{
	if (res->vary >= 0)
		snprintf(buf, n, "%lld-%s", (long long)res->values[c->value], param_name(res));
	else
		snprintf(buf, n, "%s", res->wl->name);
}

/* The rows of a normalized block for the baseline and governors [g0, g1). */
static void norm_rows(FILE *f, const struct compare_result *res, int first, int end, int width,
		      int g0, int g1)
{
	char cases[OP_LEN], cell[96], head[96];
	int i, g;

	fprintf(f, "%-*s", width, "Case:");
	for (g = 0; g < g1; g = g ? g + 1 : g0) {
		snprintf(head, sizeof(head), "%s[pct imp](CV)", res->governors[g]);
		fprintf(f, "     %*s", norm_width(res->governors[g]), head);
	}
	fputc('\n', f);
	for (i = first; i < end; i++) {
		const struct compare_cell *c = &res->cells[i];
		double base = c->gov[0].sum.mean;

		norm_case(res, c, cases, sizeof(cases));
		fprintf(f, "%-*s", width, cases);
		for (g = 0; g < g1; g = g ? g + 1 : g0) {
			const struct compare_gov *x = &c->gov[g];
			double norm = base != 0.0 ? x->sum.mean / base : NAN;

			mm_format_norm_cell(cell, sizeof(cell), norm,
					    mm_norm_pct(base, x->sum.mean, c->higher_is_better),
					    x->sum.coeffvar);
			fprintf(f, "     %*s", norm_width(res->governors[g]), cell);
		}
		fputc('\n', f);
	}
}

static void norm_block(FILE *f, const struct compare_result *res, int first, int end)
{
	const struct compare_cell *c0 = &res->cells[first];
	char cases[OP_LEN];
	int i, g0, g1, width = (int)strlen("Case:");

	for (i = first; i < end; i++) {
		norm_case(res, &res->cells[i], cases, sizeof(cases));
		if ((int)strlen(cases) > width)
			width = (int)strlen(cases);
	}
	fprintf(f, "%s\n", NORM_RULE);
	fprintf(f, "Test          : %s on %s, %s\n", res->wl->name, res->machines[c0->machine],
		c0->name);
	fprintf(f, "Units         : Normalized %s (%s)\n", c0->name,
		compare_metric_unit(res->wl, c0->metric));
	fprintf(f, "Interpretation: %s is better\n", c0->higher_is_better ? "Higher" : "Lower");
	fprintf(f, "Statistic     : %s\n", c0->gov[0].sum.kind == MM_HMEAN ? "HMean" : "AMean");
	fprintf(f, "%s\n", NORM_RULE);
	/* parts of as many governors as fit besides "Case:" and the baseline (see gov_part);
	 * g1 = 0 only before the first, which is printed even for the baseline alone */
	for (g0 = 1, g1 = 0; g1 == 0 || g0 < res->nr_governors; g0 = g1) {
		int used = width + 5 + norm_width(res->governors[0]);

		for (g1 = g0; g1 < res->nr_governors; g1++) {
			used += 5 + norm_width(res->governors[g1]);
			if (used > TEXTWRAP_DEFAULT && g1 > g0)
				break;
		}
		if (g0 > 1 || g1 < res->nr_governors)
			fprintf(f, "%s(governors %d-%d of %d, with the baseline %s)\n",
				g0 > 1 ? "\n" : "", g0 + 1, g1, res->nr_governors,
				res->governors[0]);
		norm_rows(f, res, first, end, width, g0, g1);
	}
}

static void norm_machine(FILE *f, const struct compare_result *res, int first, int end)
{
	int i, k;

	title(f, res, &res->cells[first]);
	for (i = first; i < end; i = k) {
		for (k = i; k < end && !strcmp(res->cells[k].name, res->cells[i].name); k++)
			;
		fputc('\n', f);
		norm_block(f, res, i, k);
	}
}

static int write_normalized(FILE *f, const struct compare_result *res)
{
	compare_write_config(f, res);
	fputc('\n', f);
	for_each_machine(f, res, norm_machine);
	text_flips(f, res);
	return 0;
}

/* ---- JSON ---- */

static json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *gov_json(const struct compare_result *res, const struct compare_gov *x, bool baseline,
			const char *name)
{
	json_t *o = json_object(), *s = json_array();
	int i;

	for (i = 0; i < res->iterations; i++)
		json_array_append_new(s, jnum(x->samples[i]));
	json_object_set_new(o, "governor", json_string(name));
	json_object_set_new(o, "samples", s);
	json_object_set_new(o, "mean", jnum(x->sum.mean));
	json_object_set_new(o, "mean_kind", json_string(mm_mean_key(x->sum.kind)));
	json_object_set_new(o, "stddev", jnum(x->sum.stddev));
	json_object_set_new(o, "pct", baseline ? json_integer(0) : jnum(x->pct));
	json_object_set_new(o, "p_value", baseline ? json_null() : jnum(x->p));
	json_object_set_new(o, "significant", json_boolean(x->significant));
	if (res->nr_worlds > 0)
		json_object_set_new(o, "flips_with_timer_world", json_boolean(x->flips));
	return o;
}

static json_t *cell_json(const struct compare_result *res, const struct compare_cell *c)
{
	json_t *o = json_object(), *g = json_array();
	int i;

	json_object_set_new(o, "workload", json_string(res->wl->name));
	json_object_set_new(o, "param",
			    res->vary >= 0 ? json_string(param_name(res)) : json_null());
	json_object_set_new(o, "value",
			    res->vary >= 0 ? json_integer(res->values[c->value]) : json_null());
	json_object_set_new(o, "machine", json_string(res->machines[c->machine]));
	if (res->nr_worlds > 0) {
		json_object_set_new(o, "housekeeping", json_string(res->worlds[c->world]));
		json_object_set_new(o, "hz", json_integer(cell_hz(res, c)));
	}
	json_object_set_new(o, "metric", json_string(c->name));
	json_object_set_new(o, "higher_is_better", json_boolean(c->higher_is_better));
	for (i = 0; i < res->nr_governors; i++)
		json_array_append_new(g, gov_json(res, &c->gov[i], i == 0, res->governors[i]));
	json_object_set_new(o, "governors", g);
	return o;
}

static json_t *setup_json(const struct compare_result *res)
{
	json_t *o = json_object(), *p = json_object();
	unsigned int i;
	int v;

	for (i = 0; i < res->wl->nr_params; i++) {
		json_t *x;

		if (!param_shown(res, res->params, (int)i))
			continue;
		if ((int)i == res->vary) {
			x = json_array();
			for (v = 0; v < res->nr_values; v++)
				json_array_append_new(x, param_json(res, (int)i, res->values[v]));
		} else {
			x = param_json(res, (int)i, res->params[i]);
		}
		json_object_set_new(p, res->wl->params[i].name, x);
	}
	json_object_set_new(o, "workload", json_string(res->wl->name));
	json_object_set_new(o, "params", p);
	json_object_set_new(o, "iterations", json_integer(res->iterations));
	json_object_set_new(o, "seed", json_integer((json_int_t)res->seed));
	json_object_set_new(o, "duration_s", json_real((double)res->duration_ns / 1e9));
	json_object_set_new(o, "hz", json_integer(res->hz));
	json_object_set_new(o, "config", compare_config_json(res));
	return o;
}

/*
 * "sched": what the scheduler did in the first iteration (seed) of each row, machine and
 * governor: per CPU and per task, schedstat's names (docs/scheduler.md).
 */
static json_t *sched_json(const struct compare_result *res)
{
	json_t *all = json_array();
	int nr_rows = res->nr_sched / (res->nr_machines * res->nr_governors);
	int v, m, g, i, k = 0;

	for (v = 0; v < nr_rows; v++)
		for (m = 0; m < res->nr_machines; m++)
			for (g = 0; g < res->nr_governors; g++) {
				const struct loop_sched_stats *st = &res->sched[k++];
				json_t *o = json_object(), *cpus = json_array(), *tasks = json_array();

				json_object_set_new(o, "machine", json_string(res->machines[m]));
				if (res->nr_worlds > 0)
					json_object_set_new(
						o, "timer_world",
						json_string(res->worlds[v / res->nr_values]));
				if (res->vary >= 0)
					json_object_set_new(
						o, "value",
						param_json(res, res->vary,
							   res->values[v % res->nr_values]));
				json_object_set_new(o, "governor", json_string(res->governors[g]));
				json_object_set_new(o, "seed", json_integer((json_int_t)res->seed));
				for (i = 0; i < st->nr_cpus; i++) {
					const struct loop_cpu_stats *c = &st->cpu[i];

					json_array_append_new(
						cpus,
						json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
							  "cpu",
							  i, "wakeups_idle", (json_int_t)c->wakeups_idle,
							  "wakeups_busy", (json_int_t)c->wakeups_busy,
							  "migrations_in", (json_int_t)c->migrations_in,
							  "newidle_pulls", (json_int_t)c->pulls,
							  "newidle_tries", (json_int_t)c->newidle_tries,
							  "balance_pulls", (json_int_t)c->balance_pulls,
							  "switches", (json_int_t)c->switches, "run_delay_ns",
							  (json_int_t)c->run_delay_ns));
				}
				for (i = 0; i < st->nr_tasks; i++) {
					const struct loop_task_stats *t = &st->task[i];

					json_array_append_new(
						tasks,
						json_pack("{s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
							  "s:I, s:I, s:i}",
							  "tid", i + 1, "comm", t->comm ? t->comm : "task",
							  "wakeups", (json_int_t)t->wakeups,
							  "wakeups_idle", (json_int_t)t->wakeups_idle,
							  "wakeups_busy", (json_int_t)t->wakeups_busy,
							  "migrations", (json_int_t)t->migrations,
							  "newidle_pulls", (json_int_t)t->pulls,
							  "balance_pulls", (json_int_t)t->balance_pulls,
							  "pcount",
							  (json_int_t)t->pcount, "run_delay_ns",
							  (json_int_t)t->run_delay_ns, "runtime_ns",
							  (json_int_t)t->runtime_ns, "last_cpu", t->last_cpu));
				}
				json_object_set_new(o, "cpus", cpus);
				json_object_set_new(o, "tasks", tasks);
				json_array_append(all, o);
				json_decref(o);
			}
	return all;
}

static int write_json(FILE *f, const struct compare_result *res)
{
	json_t *root = json_object(), *cells = json_array(), *gm = json_array();
	int i, rc;

	if (!root || !cells || !gm) {
		json_decref(root);
		json_decref(cells);
		json_decref(gm);
		return -1;
	}
	for (i = 0; i < res->nr_cells; i++)
		json_array_append_new(cells, cell_json(res, &res->cells[i]));
	for (i = 0; i < res->nr_governors; i++)
		json_array_append_new(gm, json_pack("{s:s, s:o}", "governor", res->governors[i],
						    "ratio", jnum(res->gmean[i])));
	json_object_set_new(root, "schema", json_string(COMPARE_JSON_SCHEMA));
	json_object_set_new(root, "baseline", json_string(res->governors[0]));
	json_object_set_new(root, "cells", cells);
	json_object_set_new(root, "gmean", gm);
	json_object_set_new(root, "gmean_cells", json_integer(res->gmean_cells));
	if (res->nr_worlds > 0) {
		json_t *w = json_array();

		for (i = 0; i < res->nr_worlds; i++)
			json_array_append_new(w, json_string(res->worlds[i]));
		json_object_set_new(root, "timer_worlds", w);
		json_object_set_new(root, "flips", json_integer(res->nr_flips));
	}
	if (res->sched)
		json_object_set_new(root, "sched", sched_json(res));
	json_object_set_new(root, "setup", setup_json(res));
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!rc)
		fputc('\n', f);
	json_decref(root);
	return rc ? -1 : 0;
}

/* ---- CSV ---- */

static void csv_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, ",%.12g", x);
	else
		fputc(',', f);
}

/* The configuration record closes every CSV row. */
static void csv_config(FILE *f, const struct compare_result *res, const struct compare_cell *c,
		       int g)
{
	int m = c->machine;
	char tun[1024], sets[1024], hash[17];
	const char *dis;

	gov_config(res, g, tun, sizeof(tun), sets, sizeof(sets));
	machine_config(res, m, hash, &dis);
	fprintf(f, ",%s,%s,", tun, sets);
	if (res->latency_req_ns >= 0)
		fprintf(f, "%lld", (long long)res->latency_req_ns);
	fprintf(f, ",\"%s\",%d,%s,%s,%llu,%llu,%s", dis, cell_hz(res, c), wake_model_name(res->wake_model),
		hash, (unsigned long long)res->seed,
		(unsigned long long)(res->seed + (uint64_t)res->iterations - 1), IDLESIM_VERSION);
	if (res->nr_worlds > 0)
		fprintf(f, ",%s,%d", res->worlds[c->world], c->gov[g].flips);
	fputc('\n', f);
}

static int write_csv(FILE *f, const struct compare_result *res)
{
	int i, g;

	fputs("workload,param,value,machine,metric,higher_is_better,governor,n,mean_kind,mean,"
	      "stddev,coeffvar,min,max,pct,p_value,significant,tunables,set,latency_limit_ns,"
	      "disabled,hz,wake_latency_model,machine_hash,seed_first,seed_last,idlesim_version",
	      f);
	fputs(res->nr_worlds > 0 ? ",housekeeping,flips_with_timer_world\n" : "\n", f);
	for (i = 0; i < res->nr_cells; i++) {
		const struct compare_cell *c = &res->cells[i];

		for (g = 0; g < res->nr_governors; g++) {
			const struct compare_gov *x = &c->gov[g];

			fprintf(f, "%s,%s,", res->wl->name, res->vary >= 0 ? param_name(res) : "");
			if (res->vary >= 0)
				fprintf(f, "%lld", (long long)res->values[c->value]);
			fprintf(f, ",%s,%s,%d,%s,%d,%s", res->machines[c->machine], c->name,
				c->higher_is_better, res->governors[g], x->sum.n,
				mm_mean_key(x->sum.kind));
			csv_num(f, x->sum.mean);
			csv_num(f, x->sum.stddev);
			csv_num(f, x->sum.coeffvar);
			csv_num(f, x->sum.min);
			csv_num(f, x->sum.max);
			csv_num(f, x->pct);
			csv_num(f, x->p);
			fprintf(f, ",%d", x->significant);
			csv_config(f, res, c, g);
		}
	}
	return 0;
}

int compare_write(FILE *f, const struct compare_result *res, enum compare_format format,
	      enum compare_style style)
{
	int rc;

	if (format == COMPARE_JSON)
		rc = write_json(f, res);
	else if (format == COMPARE_CSV)
		rc = write_csv(f, res);
	else if (style == COMPARE_STYLE_NORMALIZED)
		rc = write_normalized(f, res);
	else
		rc = write_text(f, res);
	return rc || ferror(f) ? -1 : 0;
}

void compare_progress_bar(void *ud, long done, long total)
{
	compare_progress_bar_named(ud, NULL, done, total);
}

void compare_progress_bar_named(FILE *f, const char *name, long done, long total)
{
	if (done < 0) {
		fputc('\n', f); /* stopped short: end the line before the error message */
		fflush(f);
		return;
	}
	if (done < total && total > 200 && done % (total / 200))
		return; /* at most ~200 updates */
	progress_bar(f, name, done, total, 1, "runs");
	if (done >= total) {
		fputc('\n', f);
		fflush(f);
	}
}
