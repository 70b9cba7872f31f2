// SPDX-License-Identifier: GPL-2.0-only
/*
 * html.c - the HTML report of `idlesim report` (see html.h).
 *
 * Written as XHTML-compatible HTML5: every element closed, attributes quoted, text escaped,
 * no script; SVG inline. Positions are printed with one decimal, numbers in data-*
 * attributes with 12 significant digits.
 */
#include "sim/report/html.h"
#include "sim/run/cfgrec.h"
#include "sim/base/common.h"
#include "sim/run/compare.h"
#include "sim/report/compare_report.h"
#include "sim/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Shallow to deep: warm to cold; POLL is the warmest. */
static const char *const state_colour[CPUIDLE_STATE_MAX] = {
	"#f4a261", "#e9c46a", "#c7d66d", "#8fd694", "#5cc8c2",
	"#4a9fd8", "#3a6fc4", "#3548a8", "#2b2d80", "#1b1452",
};
#define BUSY_COLOUR "#e8e8e8"
#define TRUNC_COLOUR "#9e9e9e"

static const char *cause_colour(int cause)
{
	switch (cause) {
	case WAKE_TIMER:
		return "#1f77b4";
	case WAKE_IRQ:
		return "#d62728";
	case WAKE_IPI:
		return "#9467bd";
	case WAKE_TICK:
		return "#555555";
	default:
		return "#000000";
	}
}

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\t':
		case '\n':
		case '\r':
			fputc(*s, f);
			break;
		default:
			/* Other control characters are not allowed in XML 1.0, not even as
			 * references (a machine's name can hold one): the replacement character. */
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fputs("&#xFFFD;", f);
			else
				fputc(*s, f);
		}
	}
}

static bool is_oracle(const struct run_result *r)
{
	return !strcmp(r->governor, "oracle");
}

/* The results drawn with their own lanes: every governor but the oracle, drawn under each
 * (all of them when the oracle is the only one). */
static bool has_lanes(const struct run_results *res, int i)
{
	int k;

	if (!is_oracle(&res->r[i]))
		return true;
	for (k = 0; k < res->n; k++)
		if (!is_oracle(&res->r[k]))
			return false;
	return true;
}

static void fmt_time(char *buf, size_t n, int64_t ns)
{
	snprintf(buf, n, "%lld.%06llds", (long long)(ns / SIM_NS_PER_S),
		 (long long)(ns % SIM_NS_PER_S / 1000));
}

/* ---- the default window ---- */

static void window_lane_counts(const struct run_slice *s, size_t n, int64_t from, int64_t *to)
{
	int cnt[HTML_MAX_CPUS] = { 0 };
	size_t i;

	/* Per CPU the slices are in time order: the N-th seen is the N-th in time. */
	for (i = 0; i < n; i++) {
		if (s[i].cpu >= HTML_MAX_CPUS || s[i].entry_ns < from)
			continue;
		if (++cnt[s[i].cpu] == HTML_LANE_SLICES && s[i].entry_ns < *to)
			*to = s[i].entry_ns;
	}
}

/*
 * A closed-loop run's task segments count too: with more tasks than CPUs no CPU may ever
 * idle, and a window bounded by idle entries alone would draw every segment of the run.
 * A task's segments of a CPU are recorded in time order (kernel work, tid 0, nests inside
 * them and is not counted).
 */
static void window_seg_counts(const struct run_result *r, int64_t from, int64_t *to)
{
	int cnt[HTML_MAX_CPUS] = { 0 };
	size_t i;

	for (i = 0; i < r->nr_segs; i++) {
		const struct loop_segment *g = &r->segs[i];

		if (g->cpu < 0 || g->cpu >= HTML_MAX_CPUS || g->tid == 0 || g->start_ns < from)
			continue;
		if (++cnt[g->cpu] == HTML_LANE_SEGS && g->start_ns < *to)
			*to = g->start_ns;
	}
}

void html_default_window(const struct run_results *res, int64_t *from_ns, int64_t *to_ns)
{
	int64_t from = INT64_MAX, to = INT64_MAX, last = INT64_MIN;
	size_t j;
	int i;

	for (i = 0; i < res->n; i++) {
		for (j = 0; j < res->r[i].nr_slices; j++) {
			from = sim_min64(from, res->r[i].slices[j].entry_ns);
			last = sim_max64(last, res->r[i].slices[j].reflect_ns);
		}
		for (j = 0; j < res->r[i].nr_segs; j++) {
			from = sim_min64(from, res->r[i].segs[j].start_ns);
			last = sim_max64(last, res->r[i].segs[j].end_ns);
		}
	}
	if (from == INT64_MAX) {
		*from_ns = res->n ? res->r[0].stats.start_ns : 0;
		*to_ns = res->n ? res->r[0].stats.end_ns : 1;
		return;
	}
	for (i = 0; i < res->n; i++) {
		window_lane_counts(res->r[i].slices, res->r[i].nr_slices, from, &to);
		window_lane_counts(res->r[i].oracle_slices, res->r[i].nr_oracle_slices, from, &to);
		window_seg_counts(&res->r[i], from, &to);
	}
	if (to == INT64_MAX)
		to = last;
	*from_ns = from;
	*to_ns = sim_max64(to, from + SIM_NS_PER_US);
}

/* ---- timeline ---- */

#define TL_LABEL 92.0
#define TL_PLOT 1100.0
#define TL_LANE 14.0
#define TL_ORACLE 8.0
#define TL_GAP 6.0
#define TL_HEAD 18.0
#define TL_TASK 5.0 /* the band of the tasks that ran, above a closed-loop run's lane */

/* A task's colour by its tid: a stable palette; kernel work dark, pinned work grey. */
static const char *task_colour(int tid)
{
	static const char *const pal[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
					   "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
					   "#9c755f", "#17becf", "#bcbd22", "#8c564b" };

	if (tid == 0)
		return "#333333";
	if (tid < 0)
		return "#8a8a8a";
	return pal[(tid - 1) % (int)SIM_ARRAY_SIZE(pal)];
}

/* "tbench_srv-4", "kernel work" or "work" (sim/sched/loop.h's segments). */
static void task_name(char *buf, size_t n, const struct run_result *r, int tid)
{
	if (tid > 0)
		snprintf(buf, n, "%s-%d",
			 tid <= r->sched.nr_tasks && r->sched.task[tid - 1].comm
				 ? r->sched.task[tid - 1].comm
				 : "task",
			 tid);
	else
		snprintf(buf, n, "%s", tid ? "work" : "kernel work");
}

/* Whether the results have task bands: a closed-loop run's (the oracle's has none). */
static bool has_tasks(const struct run_results *res)
{
	int i;

	for (i = 0; i < res->n; i++)
		if (res->r[i].closed_loop)
			return true;
	return false;
}

struct tl {
	FILE *f;
	int64_t from, to;
	const struct run_result *r;
};

static double tl_x(const struct tl *t, int64_t ns)
{
	double x = (double)(ns - t->from) / (double)(t->to - t->from);

	return TL_LABEL + TL_PLOT * (x < 0 ? 0 : x > 1 ? 1 : x);
}

static void tl_slice(const struct tl *t, const struct run_slice *s, double y, double h, bool oracle)
{
	const char *name = t->r->stats.state_names[s->state];
	bool trunc = s->flags & RUN_SLICE_TRUNCATED;
	double x0 = tl_x(t, s->entry_ns), x1 = tl_x(t, s->wake_ns), x2 = tl_x(t, s->reflect_ns);
	char at[32], res[32], after[32];

	fmt_time(at, sizeof(at), s->entry_ns);
	report_fmt_ns(res, sizeof(res), s->reflect_ns - s->entry_ns);
	report_fmt_ns(after, sizeof(after), s->wake_ns - s->entry_ns);
	fprintf(t->f, "<rect class=\"st\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
		x0, y, x1 - x0 < 0.5 ? 0.5 : x1 - x0, h, state_colour[s->state % CPUIDLE_STATE_MAX]);
	fprintf(t->f, "<title>%s%s at %s: ", oracle ? "oracle: " : "", name, at);
	if (trunc)
		fprintf(t->f, "cut by the end after %s</title></rect>\n", after);
	else
		fprintf(t->f, "woken by %s after %s, residency %s, %s%s</title></rect>\n",
			wake_cause_name((enum wake_cause)s->cause), after, res,
			s->verdict == 1 ? "above (too deep)" : s->verdict == 2 ? "below (too shallow)" : "hit",
			s->flags & RUN_SLICE_TICK_STOPPED ? ", tick stopped" : "");
	if (x2 > x1)
		fprintf(t->f, "<rect class=\"exit\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
			x1, y, x2 - x1, h);
	if (s->flags & RUN_SLICE_TICK_STOPPED)
		fprintf(t->f, "<rect class=\"nohz\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"2\"/>\n",
			x0, y + h - 2, (x1 - x0 < 0.5 ? 0.5 : x1 - x0));
	if (!trunc && s->verdict == 1)
		fprintf(t->f, "<polygon class=\"above\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n", x0,
			y, x0 + 6, y, x0 + 3, y + 5);
	else if (!trunc && s->verdict == 2)
		fprintf(t->f, "<polygon class=\"below\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n", x0,
			y + h, x0 + 6, y + h, x0 + 3, y + h - 5);
	if (!trunc && s->wake_ns >= t->from && s->wake_ns < t->to)
		fprintf(t->f, "<line class=\"wake\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			      "stroke=\"%s\"/>\n",
			x1, y - 1, x1, y + h + 1, cause_colour(s->cause));
}

/*
 * The band over `cpu`'s lane: a rect per segment in the window, in its task's colour, with
 * "comm-tid ran T" to hover; kernel work drawn over the task it interrupted. The tids drawn
 * are marked in seen[] (by tid + 1: [0] pinned work, [1] kernel work), for the legend.
 */
static void tl_tasks(const struct tl *t, int cpu, double y, bool *seen, int nseen)
{
	const struct run_result *r = t->r;
	char name[64], ran[32];
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) /* tasks, then the kernel work on top */
		for (i = 0; i < r->nr_segs; i++) {
			const struct loop_segment *g = &r->segs[i];
			double x0, x1;

			if (g->cpu != cpu || (g->tid == 0) != pass || g->start_ns >= t->to ||
			    g->end_ns <= t->from)
				continue;
			x0 = tl_x(t, g->start_ns);
			x1 = tl_x(t, g->end_ns);
			task_name(name, sizeof(name), r, g->tid);
			report_fmt_ns(ran, sizeof(ran), g->end_ns - g->start_ns);
			fprintf(t->f, "<rect class=\"task\" data-tid=\"%d\" x=\"%.1f\" y=\"%.1f\" "
				      "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
				g->tid, x0, y, x1 - x0 < 0.5 ? 0.5 : x1 - x0, TL_TASK - 1,
				task_colour(g->tid));
			esc(t->f, name);
			fprintf(t->f, " ran %s</title></rect>\n", ran);
			if (g->tid + 1 < nseen)
				seen[g->tid + 1] = true;
		}
}

/* The tasks drawn in the window, in tid order, with their colours (at most 64 named). */
static void task_legend(FILE *f, const struct run_result *r, const bool *seen, int nseen)
{
	char name[64];
	int k, shown = 0, more = 0;

	fputs("<p class=\"legend\">Tasks (the band over each CPU's lane: which ran there, as "
	      "sched_switch shows it):",
	      f);
	for (k = 0; k < nseen; k++) {
		if (!seen[k])
			continue;
		if (shown == 64) {
			more++;
			continue;
		}
		shown++;
		task_name(name, sizeof(name), r, k - 1);
		fprintf(f, " <span class=\"sw\" style=\"background:%s\"></span>",
			task_colour(k - 1));
		esc(f, name);
	}
	if (more)
		fprintf(f, " and %d more", more);
	if (!shown)
		fputs(" none in the window", f);
	fputs("</p>\n", f);
}

static void tl_lane(const struct tl *t, const struct run_slice *s, size_t n, int cpu, double y,
		    double h, bool oracle)
{
	size_t i;

	fprintf(t->f, "<rect class=\"busy\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		TL_LABEL, y, TL_PLOT, h);
	for (i = 0; i < n; i++)
		if (s[i].cpu == cpu && s[i].entry_ns < t->to && s[i].reflect_ns > t->from)
			tl_slice(t, &s[i], y, h, oracle);
}

/* Axis ticks every 1, 2 or 5 x 10^k ns, about 8 over the window, labelled from its start. */
static void tl_axis(FILE *f, int64_t from, int64_t to, double height)
{
	int64_t span = to - from, step = 1, t;
	char buf[32];

	for (;;) {
		if (span / step <= 10)
			break;
		if (span / (step * 2) <= 10) {
			step *= 2;
			break;
		}
		if (span / (step * 5) <= 10) {
			step *= 5;
			break;
		}
		step *= 10;
	}
	for (t = 0; t <= span; t += step) {
		double x = TL_LABEL + TL_PLOT * (double)t / (double)span;

		report_fmt_ns(buf, sizeof(buf), t);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"14\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, x,
			height);
		fprintf(f, "<text class=\"ax\" x=\"%.1f\" y=\"11\">+%s</text>\n", x, buf);
	}
}

static void timeline(FILE *f, const struct run_results *res, int64_t from, int64_t to)
{
	struct tl t = { f, from, to, NULL };
	double y = 20, height = 20, band = has_tasks(res) ? TL_TASK : 0;
	const struct run_result *tasks = NULL; /* the first run with a band: the legend's names */
	bool *seen = NULL;
	int i, c, ncpu, nseen = 0;
	char a[32], b[32];

	for (i = 0; i < res->n; i++) {
		if (res->r[i].closed_loop && !tasks && !is_oracle(&res->r[i]))
			tasks = &res->r[i];
		nseen = res->r[i].sched.nr_tasks + 2 > nseen ? res->r[i].sched.nr_tasks + 2 : nseen;
		if (has_lanes(res, i)) {
			ncpu = res->r[i].stats.nr_cpus < HTML_MAX_CPUS ? res->r[i].stats.nr_cpus : HTML_MAX_CPUS;
			height += TL_HEAD + ncpu * (TL_LANE + TL_GAP + band +
						    (is_oracle(&res->r[i]) ? 0 : TL_ORACLE));
		}
	}
	if (band)
		seen = calloc((size_t)nseen, sizeof(*seen)); /* no legend if it fails */
	if (!seen)
		nseen = 0;
	fmt_time(a, sizeof(a), from);
	fmt_time(b, sizeof(b), to);
	fprintf(f, "<h2 id=\"timeline\">Timeline</h2>\n<p>Trace time %s to %s. ", a, b);
	if (res->n && res->r[0].stats.nr_cpus > HTML_MAX_CPUS)
		fprintf(f, "CPUs 0 to %d of %d are drawn. ", HTML_MAX_CPUS - 1, res->r[0].stats.nr_cpus);
	fputs("Each CPU has a lane per governor, and the oracle's (thin) under it: the same "
	      "wakeups, the choices that knew the future. A coloured bar is an idle entry from "
	      "select to wakeup, the pale part after it the exit latency; grey is the CPU running "
	      "or leaving the idle loop. Hover for details.</p>\n",
	      f);
	if (band)
		fputs("<p>A closed-loop run: the thin band over each CPU's lane shows which task "
		      "ran there (a colour per task, as sched_switch would show it; dark: "
		      "interrupt and timer work; grey: the work of a pinned run, which has no "
		      "tasks). The oracle's lane is its replay of a run without exit latency: its "
		      "idle periods, and so the work around them, are that run's, not the "
		      "governor's (docs/html-report.md).</p>\n",
		      f);
	fprintf(f, "<svg class=\"tl\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
		TL_LABEL + TL_PLOT + 40, height, TL_LABEL + TL_PLOT + 40, height);
	tl_axis(f, from, to, height);
	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];
		bool with_oracle = !is_oracle(r);

		if (!has_lanes(res, i))
			continue;
		t.r = r;
		fprintf(f, "<text class=\"gov\" x=\"2\" y=\"%.1f\">", y + 12);
		esc(f, r->governor);
		fputs("</text>\n", f);
		y += TL_HEAD;
		ncpu = r->stats.nr_cpus < HTML_MAX_CPUS ? r->stats.nr_cpus : HTML_MAX_CPUS;
		for (c = 0; c < ncpu; c++) {
			if (band) {
				tl_tasks(&t, c, y, seen, nseen);
				y += band;
			}
			fprintf(f, "<text class=\"lane\" x=\"%.1f\" y=\"%.1f\">CPU %d</text>\n",
				TL_LABEL - 4, y + 11, c);
			tl_lane(&t, r->slices, r->nr_slices, c, y, TL_LANE, false);
			y += TL_LANE;
			if (with_oracle) {
				fprintf(f, "<text class=\"lane or\" x=\"%.1f\" y=\"%.1f\">oracle</text>\n",
					TL_LABEL - 4, y + 7);
				tl_lane(&t, r->oracle_slices, r->nr_oracle_slices, c, y + 1, TL_ORACLE - 1,
					true);
				y += TL_ORACLE;
			}
			y += TL_GAP;
		}
	}
	fputs("</svg>\n", f);
	if (tasks && seen)
		task_legend(f, tasks, seen, nseen);
	free(seen);
}

static void legend(FILE *f, const struct run_result *r)
{
	int k;

	fputs("<p class=\"legend\">", f);
	for (k = 0; k < r->stats.state_count; k++) {
		fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>", state_colour[k]);
		esc(f, r->stats.state_names[k]);
		fputs(" ", f);
	}
	fputs("<span class=\"sw\" style=\"background:" BUSY_COLOUR "\"></span>busy "
	      "<span class=\"sw\" style=\"background:" TRUNC_COLOUR "\"></span>truncated (cut by the end) "
	      "| wakeups: ",
	      f);
	for (k = 0; k < WAKE_NR_CAUSES; k++)
		fprintf(f, "<span class=\"wk\" style=\"background:%s\"></span>%s ", cause_colour(k),
			wake_cause_name((enum wake_cause)k));
	fputs("| <span class=\"tri ab\">&#9660;</span> above (too deep) "
	      "<span class=\"tri be\">&#9650;</span> below (too shallow) "
	      "<span class=\"nz\"></span> tick stopped</p>\n",
	      f);
}

/* ---- residency ---- */

static void res_rect(FILE *f, const char *gov, const char *what, double pct, double *x,
		     const char *fill, double y)
{
	double w = 900.0 * pct / 100.0;

	fprintf(f, "<rect class=\"res\" data-gov=\"");
	esc(f, gov);
	fprintf(f, "\" data-state=\"");
	esc(f, what);
	fprintf(f, "\" data-pct=\"%.12g\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" "
		   "fill=\"%s\"><title>",
		pct, *x, y, w, fill);
	esc(f, gov);
	fputs(": ", f);
	esc(f, what);
	fprintf(f, " %.2f %%</title></rect>\n", pct);
	*x += w;
}

static void residency(FILE *f, const struct run_results *res)
{
	int i, k;
	double y = 4;

	fputs("<h2 id=\"residency\">Residency</h2>\n<p>Where the CPUs' time went, per governor "
	      "(all CPUs): running, each idle state (exit latency included, as the kernel "
	      "counts), and the entries the end cut; each bar adds up to 100 %.</p>\n",
	      f);
	fprintf(f, "<svg class=\"rs\" width=\"1060\" height=\"%d\" viewBox=\"0 0 1060 %d\">\n",
		res->n * 24 + 8, res->n * 24 + 8);
	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];
		struct stats_summary s;
		double x = 140;

		stats_summarize(&r->stats, &r->stats.total, r->stats.nr_cpus, &s);
		fprintf(f, "<text class=\"lane\" x=\"134\" y=\"%.1f\">", y + 12);
		esc(f, r->governor);
		fputs("</text>\n", f);
		res_rect(f, r->governor, "busy", s.busy_pct, &x, BUSY_COLOUR, y);
		for (k = 0; k < r->stats.state_count; k++)
			res_rect(f, r->governor, r->stats.state_names[k], s.residency_pct[k], &x,
				 state_colour[k], y);
		res_rect(f, r->governor, "truncated", s.truncated_pct, &x, TRUNC_COLOUR, y);
		y += 24;
	}
	fputs("</svg>\n", f);

	/* The numbers: residency %, usage, above, below per state. */
	fputs("<table class=\"num\"><tr><th rowspan=\"2\">governor</th><th rowspan=\"2\">Busy%</th>",
	      f);
	if (res->n)
		for (k = 0; k < res->r[0].stats.state_count; k++) {
			fputs("<th colspan=\"4\">", f);
			esc(f, res->r[0].stats.state_names[k]);
			fputs("</th>", f);
		}
	fputs("<th rowspan=\"2\">Trunc%</th><th rowspan=\"2\">entries</th><th rowspan=\"2\">"
	      "above%</th><th rowspan=\"2\">below%</th></tr>\n<tr>",
	      f);
	if (res->n)
		for (k = 0; k < res->r[0].stats.state_count; k++)
			fputs("<th>%</th><th>usage</th><th>above</th><th>below</th>", f);
	fputs("</tr>\n", f);
	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];
		struct stats_summary s;

		stats_summarize(&r->stats, &r->stats.total, r->stats.nr_cpus, &s);
		fputs("<tr><td>", f);
		esc(f, r->governor);
		fprintf(f, "</td><td>%.2f</td>", s.busy_pct);
		for (k = 0; k < r->stats.state_count; k++) {
			const struct cpuidle_state_usage *u = &r->stats.total.states[k];

			fprintf(f, "<td>%.2f</td><td>%llu</td><td>%llu</td><td>%llu</td>",
				s.residency_pct[k], u->usage, u->above, u->below);
		}
		fprintf(f, "<td>%.2f</td><td>%llu</td><td>%.2f</td><td>%.2f</td></tr>\n", s.truncated_pct,
			(unsigned long long)s.idle_entries, s.above_pct, s.below_pct);
	}
	fputs("</table>\n", f);
}

/* ---- idle durations ---- */

#define H_BIN 56.0
#define H_LEFT 50.0
#define H_HEIGHT 150.0

static void bin_label(char *buf, size_t n, int k)
{
	if (k == RUN_HIST_BINS - 1) {
		char e[32];

		report_fmt_ns(e, sizeof(e), run_hist_edge_ns(k));
		snprintf(buf, n, "%s+", e);
		return;
	}
	report_fmt_ns(buf, n, run_hist_edge_ns(k));
}

/* x of a duration on the log2 axis: bin k >= 1 spans [2^(k-1), 2^k) us. */
static double hist_x(int64_t ns, int kmin)
{
	double b = ns < SIM_NS_PER_US ? (double)ns / 1000.0 : 1.0 + log2((double)ns / 1000.0);

	return H_LEFT + H_BIN * (b - kmin);
}

static uint64_t bin_total(const uint64_t row[CPUIDLE_STATE_MAX])
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < CPUIDLE_STATE_MAX; k++)
		n += row[k];
	return n;
}

static void hist_chart(FILE *f, const struct run_result *r, int kmin, int kmax, uint64_t ymax)
{
	int nb = kmax - kmin + 1, k, s;
	double w = H_LEFT + H_BIN * nb + 20;
	char lab[32];

	fputs("<h3>", f);
	esc(f, r->governor);
	fprintf(f, " <small>(%llu idle periods)</small></h3>\n",
		(unsigned long long)r->stats.total.idle_periods);
	fprintf(f, "<svg class=\"hi\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", w,
		H_HEIGHT + 50, w, H_HEIGHT + 50);
	fprintf(f, "<text class=\"ax\" x=\"2\" y=\"30\">%llu</text>\n", (unsigned long long)ymax);
	fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" y2=\"30\"/>\n", H_LEFT,
		w - 20);
	for (k = kmin; k <= kmax; k++) {
		double x = H_LEFT + H_BIN * (k - kmin), y = 30 + H_HEIGHT;

		for (s = 0; s < r->stats.state_count; s++) {
			uint64_t n = r->idle_hist[k][s];
			double h = ymax ? H_HEIGHT * (double)n / (double)ymax : 0;
			char lo[32], hi[32];

			if (!n)
				continue;
			y -= h;
			bin_label(lo, sizeof(lo), k);
			bin_label(hi, sizeof(hi), k + 1);
			fprintf(f, "<rect class=\"hist\" data-gov=\"");
			esc(f, r->governor);
			fprintf(f, "\" data-bin=\"%d\" data-state=\"%s\" data-count=\"%llu\" x=\"%.1f\" "
				   "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s to %s: "
				   "%llu of %llu periods chose %s</title></rect>\n",
				k, r->stats.state_names[s], (unsigned long long)n, x + 2, y, H_BIN - 4,
				h, state_colour[s], lo, k == RUN_HIST_BINS - 1 ? "none" : hi,
				(unsigned long long)n, (unsigned long long)bin_total(r->idle_hist[k]),
				r->stats.state_names[s]);
		}
		bin_label(lab, sizeof(lab), k);
		fprintf(f, "<text class=\"ax\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, H_HEIGHT + 44, lab);
	}
	/* Target residencies of the enabled states. */
	for (s = 1; s < r->mach.state_count; s++) {
		int64_t tr = r->mach.states[s].target_residency_ns;
		double x = hist_x(tr, kmin);

		if ((r->disabled >> s) & 1 || tr <= 0 || x < H_LEFT || x > H_LEFT + H_BIN * nb)
			continue;
		fprintf(f, "<line class=\"target\" x1=\"%.1f\" y1=\"22\" x2=\"%.1f\" y2=\"%.1f\"/>"
			   "<text class=\"tg\" x=\"%.1f\" y=\"%d\">%s</text>\n",
			x, x, H_HEIGHT + 30, x + 2, 14 + 8 * (s % 2), r->mach.states[s].name);
	}
	fputs("</svg>\n", f);
}

/* The state most periods of bin k chose, and its share. */
static void bin_choice(FILE *f, const struct run_result *r, int k)
{
	uint64_t n = bin_total(r->idle_hist[k]);
	int s, best = 0;

	if (!n) {
		fputs("<td></td>", f);
		return;
	}
	for (s = 1; s < r->stats.state_count; s++)
		if (r->idle_hist[k][s] > r->idle_hist[k][best])
			best = s;
	fprintf(f, "<td><span class=\"sw\" style=\"background:%s\"></span>%s %.0f%%</td>",
		state_colour[best], r->stats.state_names[best],
		100.0 * (double)r->idle_hist[k][best] / (double)n);
}

static void durations(FILE *f, const struct run_results *res)
{
	int kmin = RUN_HIST_BINS, kmax = -1, i, k;
	uint64_t ymax = 0;

	for (i = 0; i < res->n; i++)
		for (k = 0; k < RUN_HIST_BINS; k++) {
			uint64_t n = bin_total(res->r[i].idle_hist[k]);

			if (!n)
				continue;
			kmin = k < kmin ? k : kmin;
			kmax = k > kmax ? k : kmax;
			ymax = n > ymax ? n : ymax;
		}
	fputs("<h2 id=\"durations\">Idle durations</h2>\n<p>Every idle period of the run by its "
	      "true length (select to wakeup, log2 bins), coloured by the state the governor "
	      "chose first; the dashed lines are the enabled states' target residencies: a "
	      "period right of a state's line is long enough for it. The oracle picks the "
	      "deepest state whose line lies left of the period.</p>\n",
	      f);
	if (kmax < 0) {
		fputs("<p>No idle period.</p>\n", f);
		return;
	}
	for (i = 0; i < res->n; i++)
		hist_chart(f, &res->r[i], kmin, kmax, ymax);
	fputs("<table class=\"num\"><tr><th>idle length</th>", f);
	for (i = 0; i < res->n; i++) {
		fputs("<th>", f);
		esc(f, res->r[i].governor);
		fputs(" periods</th><th>mostly</th>", f);
	}
	fputs("</tr>\n", f);
	for (k = kmin; k <= kmax; k++) {
		char lo[32];

		bin_label(lo, sizeof(lo), k);
		fprintf(f, "<tr><td>%s</td>", lo);
		for (i = 0; i < res->n; i++) {
			fprintf(f, "<td>%llu</td>", (unsigned long long)bin_total(res->r[i].idle_hist[k]));
			bin_choice(f, &res->r[i], k);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* ---- decisions ---- */

/* The governor's prediction among its variables, if it names one. */
static int64_t prediction(const struct run_decision *rd)
{
	static const char *const keys[] = { "predicted_ns", "expected_ns", "idle_ns", "expected_us",
					    "duration_us" };
	size_t j;
	int i;

	for (j = 0; j < SIM_ARRAY_SIZE(keys); j++)
		for (i = 0; i < rd->ex.nr; i++)
			if (!rd->ex.items[i].str && !strcmp(rd->ex.items[i].key, keys[j]))
				return keys[j][strlen(keys[j]) - 2] == 'u' ? rd->ex.items[i].val * 1000
									     : rd->ex.items[i].val;
	return -1;
}

static const char *rule(const struct run_decision *rd)
{
	int i;

	for (i = 0; i < rd->ex.nr; i++)
		if (rd->ex.items[i].str && !strcmp(rd->ex.items[i].key, "rule"))
			return rd->ex.items[i].str;
	return "";
}

static void decisions(FILE *f, const struct run_results *res, const struct html_opts *o,
		      int64_t from, int64_t to)
{
	int i, shown;
	size_t k;

	fprintf(f, "<h2 id=\"decisions\">Decisions</h2>\n<p>The first %d decisions of each governor "
		   "in the window, in the order they completed. Sleep length: to the next timer; "
		   "predicted: the governor's guess; res: the residency the kernel measures (exit "
		   "included); above: the state was too deep for the idle time, below: a deeper "
		   "one would have fit.</p>\n",
		o->decisions);
	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];

		fputs("<h3>", f);
		esc(f, r->governor);
		fputs("</h3>\n<table class=\"dec\"><tr><th>time</th><th>CPU</th><th>sleep length</th>"
		      "<th>tick before</th><th>predicted</th><th>chose</th><th>why</th><th>tick</th>"
		      "<th>woken by</th><th>after</th><th>res</th><th>verdict</th></tr>\n",
		      f);
		for (k = 0, shown = 0; k < r->nr_decisions && shown < o->decisions; k++) {
			const struct run_decision *rd = &r->decisions[k];
			const struct sim_decision *d = &rd->d;
			char t[32], sl[32], pr[32], af[32], rs[32];

			if (d->time_ns < from || d->time_ns >= to)
				continue;
			shown++;
			fmt_time(t, sizeof(t), d->time_ns);
			report_fmt_ns(sl, sizeof(sl), d->sleep_length_ns);
			report_fmt_ns(pr, sizeof(pr), prediction(rd));
			report_fmt_ns(af, sizeof(af), d->wake_ns - d->time_ns);
			report_fmt_ns(rs, sizeof(rs), d->residency_ns);
			fprintf(f, "<tr><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td>"
				   "<td><span class=\"sw\" style=\"background:%s\"></span>%s</td><td>",
				t, d->cpu, sl, d->tick_stopped_before ? "off" : "on", pr,
				state_colour[d->state % CPUIDLE_STATE_MAX], r->stats.state_names[d->state]);
			esc(f, rule(rd));
			fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"%s\">%s</td></tr>\n",
				d->tick_stopped_after ? "stopped" : "kept", wake_cause_name(d->cause), af,
				rs, d->verdict == 1 ? "ab" : d->verdict == 2 ? "be" : "hit",
				d->verdict == 1 ? "above" : d->verdict == 2 ? "below" : "hit");
		}
		fputs("</table>\n", f);
	}
}

/* ---- the page ---- */

static const char css[] =
	"body{font:13px/1.4 sans-serif;margin:16px;color:#222;max-width:1240px}"
	"h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #ccc}"
	"h3{font-size:13px;margin:12px 0 2px}"
	"code{background:#f4f4f4;padding:1px 4px;word-break:break-all}"
	"svg text{font:10px sans-serif;fill:#333}"
	"text.lane{text-anchor:end}text.or{fill:#888}text.gov{font-weight:bold;font-size:12px}"
	"rect.busy{fill:" BUSY_COLOUR "}rect.exit{fill:#ffffff;fill-opacity:0.55}"
	"rect.nohz{fill:#000}polygon.above{fill:#e63946}polygon.below{fill:#0096c7}"
	"line.wake{stroke-width:1.5}line.grid{stroke:#ddd}"
	"line.target{stroke:#c00;stroke-dasharray:3,2}text.tg{fill:#c00}"
	"table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;padding:1px 6px;"
	"text-align:right;white-space:nowrap}th{background:#f4f4f4}"
	"td.ab{color:#e63946}td.be{color:#0077b6}"
	".sw,.wk{display:inline-block;width:10px;height:10px;margin:0 3px 0 8px;"
	"vertical-align:middle;border:1px solid #999}.wk{width:3px}"
	".tri.ab{color:#e63946}.tri.be{color:#0096c7}"
	".nz{display:inline-block;width:14px;height:2px;background:#000;vertical-align:middle}"
	"nav a{margin-right:12px}"
	"div.cc{display:inline-block;vertical-align:top;margin:0 18px 8px 0}"
	"line.err{stroke:#000;stroke-width:1.5}text.sig{fill:#c00;font-weight:bold}"
	"circle.pt{fill:#9aa;fill-opacity:0.6}circle.fr{fill:#e76f51}"
	"polyline.fr{fill:none;stroke:#e76f51;stroke-width:1.5}rect.def{fill:none;stroke:#264653;"
	"stroke-width:2}text.fr{fill:#9c3d27}table.cfg td{text-align:left}";

static void page_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", f);
	esc(f, title);
	fputs("</title>\n<style>", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n", f);
}

static void page_foot(FILE *f, const char *command, const char *version)
{
	fputs("<p class=\"foot\">idlesim ", f);
	esc(f, version ? version : "");
	fputs(": <code>", f);
	esc(f, command ? command : "");
	fputs("</code></p>\n</body>\n</html>\n", f);
}

/* ---- the configuration record (sim/run/cfgrec.h) ---- */

static void cfg_row(FILE *f, const char *what, const char *value)
{
	fputs("<tr><th>", f);
	esc(f, what);
	fputs("</th><td>", f);
	esc(f, value);
	fputs("</td></tr>\n", f);
}

/* What produced each run, as the text report's config lines say it. */
static void config_record(FILE *f, const struct run_results *res)
{
	char buf[1024], h[17];
	int i;

	fputs("<h2 id=\"config\">Configuration</h2>\n", f);
	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];

		fputs("<h3>", f);
		esc(f, r->governor);
		fputs("</h3>\n<table class=\"cfg\">\n", f);
		buf[0] = '\0';
		if (r->gov)
			cfgrec_tunables_text(buf, sizeof(buf), r->gov, r->params);
		cfg_row(f, "tunables", r->gov ? buf : "none");
		cfgrec_sets_text(buf, sizeof(buf), r->sets, r->nr_sets);
		cfg_row(f, "--set applied", buf);
		if (r->latency_req_ns < 0)
			snprintf(buf, sizeof(buf), "none");
		else
			snprintf(buf, sizeof(buf), "%lld ns", (long long)r->latency_req_ns);
		cfg_row(f, "latency limit", buf);
		cfgrec_disabled_text(buf, sizeof(buf), &r->mach, r->disabled);
		cfg_row(f, "disabled states", buf);
		snprintf(buf, sizeof(buf), "%d", r->hz);
		cfg_row(f, "HZ", buf);
		cfg_row(f, "wake-latency model", wake_model_name(r->wake_model));
		cfgrec_hex(h, r->machine_hash);
		snprintf(buf, sizeof(buf), "%s (table %s)", r->machine, h);
		cfg_row(f, "machine", buf);
		if (r->mach.assumed[0])
			cfg_row(f, "machine: assumed", r->mach.assumed);
		cfgrec_hex(h, r->trace_hash);
		snprintf(buf, sizeof(buf), "%s (%s)", r->trace, h);
		cfg_row(f, "trace", buf);
		fputs("</table>\n", f);
	}
}

int html_report(FILE *f, const struct run_results *res, const struct html_opts *o,
		struct sim_error *err)
{
	int64_t from = o->from_ns, to = o->to_ns;
	const struct run_result *r0 = res->n ? &res->r[0] : NULL;
	int i;

	(void)err;
	if (to < 0)
		html_default_window(res, &from, &to);
	if (to <= from)
		to = from + SIM_NS_PER_US; /* a trace of zero length: an empty, valid axis */
	page_head(f, "idlesim report");
	fputs("<h1>idlesim report", f);
	if (r0) {
		fputs(": ", f);
		esc(f, r0->trace);
		fputs(" on ", f);
		esc(f, r0->machine);
	}
	fputs("</h1>\n<p>Written by <code>", f);
	esc(f, o->command ? o->command : "");
	fputs("</code> (idlesim ", f);
	esc(f, o->version ? o->version : "");
	fputs(").", f);
	if (r0)
		fprintf(f, " HZ %d; wake latency %s; %d CPUs replayed; governors:", r0->hz,
			wake_model_name(r0->wake_model), r0->stats.nr_cpus);
	for (i = 0; i < res->n; i++) {
		fputs(i ? ", " : " ", f);
		esc(f, res->r[i].governor);
	}
	fputs(".</p>\n<nav><a href=\"#timeline\">timeline</a><a href=\"#residency\">residency</a>"
	      "<a href=\"#durations\">idle durations</a><a href=\"#decisions\">decisions</a>"
	      "<a href=\"#config\">configuration</a></nav>\n",
	      f);
	if (r0)
		legend(f, r0);
	timeline(f, res, from, to);
	residency(f, res);
	durations(f, res);
	decisions(f, res, o, from, to);
	config_record(f, res);
	page_foot(f, o->command, o->version);
	return ferror(f) ? -1 : 0;
}

/* ---- comparisons ---- */

#define CB_W 84.0  /* per governor */
#define CB_H 120.0 /* bar area */

/* One cell: a bar per governor (its mean), the error bar +- its stddev, the percentage
 * against the baseline, and "*" where the text table marks the difference significant. */
static void compare_chart(FILE *f, const struct compare_result *res, const struct compare_cell *c)
{
	double top = 0, w = 60 + CB_W * res->nr_governors;
	const char *unit = compare_metric_unit(res->wl, c->metric);
	int g;

	for (g = 0; g < res->nr_governors; g++) {
		const struct mm_summary *m = &c->gov[g].sum;

		if (isfinite(m->mean + m->stddev) && m->mean + m->stddev > top)
			top = m->mean + m->stddev;
	}
	fputs("<div class=\"cc\"><h3>", f);
	esc(f, c->name);
	if (res->vary >= 0)
		fprintf(f, " <small>%s=%lld</small>", res->wl->params[res->vary].name,
			(long long)res->values[c->value]);
	fputs(" <small>on ", f);
	esc(f, res->machines[c->machine]);
	if (res->nr_worlds > 0) {
		fputs(", timer world ", f);
		esc(f, res->worlds[c->world]);
		if (res->world_hz[c->world] && res->world_hz[c->world] != res->hz)
			fprintf(f, " (HZ %d)", res->world_hz[c->world]);
	}
	fprintf(f, "; %s%s%s is better</small></h3>\n", unit && *unit ? unit : "",
		unit && *unit ? ", " : "", c->higher_is_better ? "higher" : "lower");
	fprintf(f, "<svg class=\"cmp\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", w,
		CB_H + 56, w, CB_H + 56);
	fprintf(f, "<line class=\"grid\" x1=\"40\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", CB_H + 20,
		w - 10, CB_H + 20);
	for (g = 0; g < res->nr_governors; g++) {
		const struct compare_gov *x = &c->gov[g];
		double mean = isfinite(x->sum.mean) ? x->sum.mean : 0;
		double h = top > 0 ? CB_H * mean / top : 0, e = top > 0 ? CB_H * x->sum.stddev / top : 0;
		double x0 = 50 + CB_W * g, y = CB_H + 20 - h;

		fprintf(f, "<rect class=\"bar\" data-gov=\"%s\" data-mean=\"%.12g\" data-stddev=\"%.12g\" "
			   "data-significant=\"%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			   "fill=\"%s\"><title>%s: %s %.6g, stddev %.6g",
			res->governors[g], x->sum.mean, x->sum.stddev, x->significant, x0, y, CB_W - 24,
			h, state_colour[(3 + 2 * g) % CPUIDLE_STATE_MAX], res->governors[g],
			mm_mean_name(x->sum.kind), x->sum.mean, x->sum.stddev);
		if (g)
			fprintf(f, ", %+.2f%% against %s, p %.3g", x->pct, res->governors[0], x->p);
		fputs("</title></rect>\n", f);
		if (e > 0)
			fprintf(f, "<line class=\"err\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
				x0 + (CB_W - 24) / 2, y - e, x0 + (CB_W - 24) / 2, y + e);
		fprintf(f, "<text class=\"ax\" x=\"%.1f\" y=\"%.1f\">%.4g</text>\n", x0, y - e - 3,
			x->sum.mean);
		fprintf(f, "<text class=\"ax\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", x0, CB_H + 32,
			res->governors[g]);
		if (g)
			fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">%+.2f%%%s%s</text>\n",
				x->significant ? "sig" : "ax", x0, CB_H + 44, x->pct,
				x->significant ? " *" : "", x->flips ? " flips" : "");
	}
	fputs("</svg></div>\n", f);
}

/* The comparison's configuration record: compare's text lines, verbatim. */
static void compare_config(FILE *f, const struct compare_result *res)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	fputs("<h2 id=\"config\">Configuration</h2>\n<pre class=\"cfg\">", f);
	if (m) {
		compare_write_config(m, res);
		fclose(m);
	}
	esc(f, text ? text : "");
	fputs("</pre>\n", f);
	free(text);
}

int html_compare(FILE *f, const struct compare_result *res, const char *command, const char *version,
		 struct sim_error *err)
{
	int i, g;

	(void)err;
	page_head(f, "idlesim compare");
	fputs("<h1>idlesim compare: ", f);
	esc(f, res->wl->name);
	fputs("</h1>\n<p>Written by <code>", f);
	esc(f, command ? command : "");
	fputs("</code> (idlesim ", f);
	esc(f, version ? version : "");
	fprintf(f, "). %d iterations per governor and cell, seeds %llu to %llu, %.6g s each, HZ %d, "
		   "wake latency %s. "
		   "Each chart is one metric of one cell: a bar per governor (its mean, Amean or "
		   "Hmean as in the text table), the error bar its standard deviation; under the "
		   "bars the percentage against the baseline (",
		res->iterations, (unsigned long long)res->seed,
		(unsigned long long)(res->seed + (uint64_t)res->iterations - 1),
		(double)res->duration_ns / 1e9, res->hz, wake_model_name(res->wake_model));
	esc(f, res->governors[0]);
	fputs("), positive = better, and * where a t-test finds the difference significant "
	      "(p &lt; 0.10).</p>\n<p>Gmean of the ratios against the baseline:", f);
	for (g = 0; g < res->nr_governors; g++) {
		fputs(g ? ", " : " ", f);
		esc(f, res->governors[g]);
		fprintf(f, " %.4f", res->gmean[g]);
	}
	fputs(".</p>\n", f);
	if (res->nr_worlds > 1) {
		fprintf(f, "<p>Timer worlds (<code>--housekeeping</code>): each cell ran in each. "
			   "%d governor difference%s flip%s with the timer world (marked "
			   "<em>flips</em> under the bars): the sign of a significant difference, "
			   "or whether there is one, is not the same in every world.</p>\n",
			res->nr_flips, res->nr_flips == 1 ? "" : "s", res->nr_flips == 1 ? "s" : "");
	}
	for (i = 0; i < res->nr_cells; i++)
		compare_chart(f, res, &res->cells[i]);
	compare_config(f, res);
	page_foot(f, command, version);
	return ferror(f) ? -1 : 0;
}

/* ---- shared with other pages (sweep summary) ---- */

void html_escape(FILE *f, const char *s)
{
	esc(f, s);
}

void html_page_begin(FILE *f, const char *title)
{
	page_head(f, title);
}

void html_page_end(FILE *f, const char *command, const char *version)
{
	page_foot(f, command, version);
}
