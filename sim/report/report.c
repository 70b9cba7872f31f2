// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - text, JSON and CSV reports of run results.
 *
 * Text follows the field's habits: a summary table of the grid, then per run the
 * turbostat column names (Busy%, C6% residency, C6 usage, C6+ below, C6- above) with a
 * summary row "-" and, with --per-cpu, one row per CPU. JSON is built with jansson in a
 * fixed key order; floating-point values are printed with 12 significant digits so the
 * output is byte-identical for identical results. CSV is one row per (run, cpu, state).
 */
#include "sim/report/report.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/common.h"
#include "sim/report/export.h"
#include "sim/base/textwrap.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

int report_format_parse(const char *s, enum report_format *f)
{
	if (!strcmp(s, "text"))
		*f = REPORT_TEXT;
	else if (!strcmp(s, "json"))
		*f = REPORT_JSON;
	else if (!strcmp(s, "csv"))
		*f = REPORT_CSV;
	else if (!strcmp(s, "ftrace"))
		*f = REPORT_FTRACE;
	else if (!strcmp(s, "perfetto"))
		*f = REPORT_PERFETTO;
	else
		return -1;
	return 0;
}

static const char *state_name(const struct run_result *r, int i)
{
	return r->stats.state_names[i];
}

static const char *verdict_name(int v)
{
	return v == 1 ? "above" : v == 2 ? "below" : "hit";
}

/* ---- text tables ---- */

#define TBL_MAX_COLS 48
#define TBL_CELL 160

struct table {
	int nr_cols, nr_rows, cap_rows;
	char (*cells)[TBL_MAX_COLS][TBL_CELL];
	int left; /* the first `left` columns are left-aligned */
};

static int tbl_row(struct table *t)
{
	if (t->nr_rows == t->cap_rows) {
		int ncap = t->cap_rows ? 2 * t->cap_rows : 16;
		void *n = sim_realloc(t->cells, (size_t)ncap * sizeof(*t->cells));

		if (!n)
			return -1;
		t->cells = n;
		t->cap_rows = ncap;
	}
	memset(t->cells[t->nr_rows], 0, sizeof(*t->cells));
	return t->nr_rows++;
}

static void tbl_set(struct table *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void tbl_set(struct table *t, int row, int col, const char *fmt, ...)
{
	va_list ap;

	if (col >= TBL_MAX_COLS)
		return;
	va_start(ap, fmt);
	vsnprintf(t->cells[row][col], TBL_CELL, fmt, ap);
	va_end(ap);
	if (col + 1 > t->nr_cols)
		t->nr_cols = col + 1;
}

/*
 * A table wider than width is split into parts, one under the other with a blank line
 * between them, each with the key columns (the first `left`: the run's trace, machine and
 * governor, or the CPU) and as many of the next columns as fit: every cell is printed.
 */
static void tbl_print(FILE *f, const struct table *t, int width)
{
	int w[TBL_MAX_COLS] = { 0 }, r, c, keyw = 0, first, end, used;

	for (r = 0; r < t->nr_rows; r++)
		for (c = 0; c < t->nr_cols; c++) {
			int n = (int)strlen(t->cells[r][c]);

			if (n > w[c])
				w[c] = n;
		}
	for (c = 0; c < t->left && c < t->nr_cols; c++)
		keyw += (c ? 2 : 0) + w[c];
	for (first = t->left < t->nr_cols ? t->left : t->nr_cols;; first = end) {
		/* the part's columns: first..end, at least one */
		for (end = first, used = keyw; end < t->nr_cols; end++) {
			used += (end || t->left ? 2 : 0) + w[end];
			if (end > first && used > width)
				break;
		}
		if (first > t->left)
			fputc('\n', f);
		for (r = 0; r < t->nr_rows; r++) {
			for (c = 0; c < end; c++) {
				const char *sep = c ? "  " : "";

				if (c >= t->left && c < first)
					continue;
				if (c < t->left && c == end - 1)
					fprintf(f, "%s%s", sep, t->cells[r][c]);
				else if (c < t->left)
					fprintf(f, "%s%-*s", sep, w[c], t->cells[r][c]);
				else
					fprintf(f, "%s%*s", sep, w[c], t->cells[r][c]);
			}
			fputc('\n', f);
		}
		if (end >= t->nr_cols)
			break;
	}
}

static void tbl_free(struct table *t)
{
	sim_free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* ---- text ---- */

static void fmt_limit(char *buf, size_t n, int64_t lat)
{
	if (lat < 0)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%lld us", (long long)(lat / 1000));
}

static int text_summary(FILE *f, const struct run_results *res, int width)
{
	static const char *const head[] = { "trace",	  "machine",	"governor",    "HZ",
					    "entries",	  "above%",	"below%",      "hits%",
					    "energy_J",	  "avg_W",	"idle_W",      "wlat_mean_us",
					    "wlat_p99_us", "regret_J",	"regret_E%",   "regret_pkg_J",
					    "regret_us", "negative" };
	struct table t = { .left = 3 };
	int i, c, row;

	if ((row = tbl_row(&t)) < 0)
		return -1;
	for (c = 0; c < (int)SIM_ARRAY_SIZE(head); c++)
		tbl_set(&t, row, c, "%s", head[c]);
	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];
		const struct run_stats *rs = &r->stats;
		struct stats_summary s;
		double dur = run_duration_s(rs);

		stats_summarize(rs, &rs->total, rs->nr_cpus, &s);
		if ((row = tbl_row(&t)) < 0) {
			tbl_free(&t);
			return -1;
		}
		tbl_set(&t, row, 0, "%s", r->trace);
		tbl_set(&t, row, 1, "%s", r->machine);
		tbl_set(&t, row, 2, "%s", r->governor);
		tbl_set(&t, row, 3, "%d", r->hz);
		tbl_set(&t, row, 4, "%llu", (unsigned long long)s.idle_entries);
		tbl_set(&t, row, 5, "%.2f", s.above_pct);
		tbl_set(&t, row, 6, "%.2f", s.below_pct);
		tbl_set(&t, row, 7, "%.2f", s.hits_pct);
		tbl_set(&t, row, 8, "%.6f", rs->energy_j);
		tbl_set(&t, row, 9, "%.3f", dur > 0 ? rs->energy_j / dur : 0.0);
		tbl_set(&t, row, 10, "%.3f", dur > 0 ? rs->idle_energy_j / dur : 0.0);
		tbl_set(&t, row, 11, "%.3f", s.lat_mean_ns / 1000.0);
		tbl_set(&t, row, 12, "%.3f", (double)s.lat_p99_ns / 1000.0);
		tbl_set(&t, row, 13, "%+.6f", r->regret_energy_j);
		tbl_set(&t, row, 14, "%+.2f", r->regret_energy_pct);
		tbl_set(&t, row, 15, "%+.6f", r->regret_package_j);
		tbl_set(&t, row, 16, "%+.3f", r->regret_lat_mean_ns / 1000.0);
		tbl_set(&t, row, 17, "%s", run_regret_negative(r) ? run_regret_negative(r) : "-");
	}
	tbl_print(f, &t, width);
	tbl_free(&t);
	textwrap_printf(f, width, 4,
		"regret_J, regret_E%%, regret_pkg_J: energy minus the energy reference's (%s); "
		   "regret_us: mean wake latency minus the oracle's (%s); negative: why a regret_J "
		   "is below 0 (package, smt, core or loop; docs/regret.md)\n",
		RUN_ENERGY_REFERENCE, RUN_LATENCY_REFERENCE);
	return 0;
}

/* The three turbostat-style blocks of a run's text report, in their order. */
enum text_block_kind {
	BLOCK_RESIDENCY,   /* Busy%, each state's residency %, Trunc% */
	BLOCK_USAGE,	   /* idle entries, each state's usage */
	BLOCK_ABOVE_BELOW, /* above% and below%, each state's two counts */
	NR_TEXT_BLOCKS
};

static int text_block(FILE *f, const struct run_result *r, enum text_block_kind kind,
		      bool per_cpu, int width)
{
	const struct run_stats *rs = &r->stats;
	struct table t = { .left = 1 };
	int row, c, i, n = per_cpu ? rs->nr_cpus : 0;

	if ((row = tbl_row(&t)) < 0)
		return -1;
	tbl_set(&t, row, 0, "CPU");
	c = 1;
	if (kind == BLOCK_RESIDENCY)
		tbl_set(&t, row, c++, "Busy%%");
	else if (kind == BLOCK_USAGE)
		tbl_set(&t, row, c++, "Entries");
	else {
		tbl_set(&t, row, c++, "Above%%");
		tbl_set(&t, row, c++, "Below%%");
	}
	for (i = 0; i < rs->state_count; i++) {
		const char *nm = state_name(r, i);

		if (kind == BLOCK_RESIDENCY)
			tbl_set(&t, row, c++, "%s%%", nm);
		else if (kind == BLOCK_USAGE)
			tbl_set(&t, row, c++, "%s", nm);
		else {
			tbl_set(&t, row, c++, "%s+", nm);
			tbl_set(&t, row, c++, "%s-", nm);
		}
	}
	if (kind == BLOCK_RESIDENCY)
		tbl_set(&t, row, c++, "Trunc%%");
	for (i = -1; i < n; i++) {
		const struct cpu_stats *cs = i < 0 ? &rs->total : &rs->cpus[i];
		struct stats_summary s;
		int k;

		stats_summarize(rs, cs, i < 0 ? rs->nr_cpus : 1, &s);
		if ((row = tbl_row(&t)) < 0) {
			tbl_free(&t);
			return -1;
		}
		if (i < 0)
			tbl_set(&t, row, 0, "-");
		else
			tbl_set(&t, row, 0, "%d", i);
		c = 1;
		if (kind == BLOCK_RESIDENCY)
			tbl_set(&t, row, c++, "%.2f", s.busy_pct);
		else if (kind == BLOCK_USAGE)
			tbl_set(&t, row, c++, "%llu", (unsigned long long)s.idle_entries);
		else {
			tbl_set(&t, row, c++, "%.2f", s.above_pct);
			tbl_set(&t, row, c++, "%.2f", s.below_pct);
		}
		for (k = 0; k < rs->state_count; k++) {
			const struct cpuidle_state_usage *su = &cs->states[k];

			if (kind == BLOCK_RESIDENCY)
				tbl_set(&t, row, c++, "%.2f", s.residency_pct[k]);
			else if (kind == BLOCK_USAGE)
				tbl_set(&t, row, c++, "%llu", su->usage);
			else {
				tbl_set(&t, row, c++, "%llu", su->below);
				tbl_set(&t, row, c++, "%llu", su->above);
			}
		}
		/* The entry cut by the end: with it, busy and residencies add up to 100 %. */
		if (kind == BLOCK_RESIDENCY)
			tbl_set(&t, row, c++, "%.2f", s.truncated_pct);
	}
	tbl_print(f, &t, width);
	tbl_free(&t);
	return 0;
}

/* Duration with a unit and 3 significant digits, trailing zeros dropped: 830ns, 1.25ms. */
void report_fmt_ns(char *buf, size_t n, int64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	int u = 0;
	char *p;

	if (ns < 0 || ns == KTIME_MAX) {
		snprintf(buf, n, "none");
		return;
	}
	/* 999,600 ns is 999.6 us, but 999,960 would print as 1000us: take the next unit. */
	while (u < 3 && v >= 999.5) {
		v /= 1000;
		u++;
	}
	snprintf(buf, n, "%.*f", u == 0 ? 0 : v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v);
	if (strchr(buf, '.')) {
		for (p = buf + strlen(buf) - 1; *p == '0'; p--)
			*p = '\0';
		if (*p == '.')
			*p = '\0';
	}
	snprintf(buf + strlen(buf), n - strlen(buf), "%s", unit[u]);
}

/*
 * The readable --explain line: pieces in order, each with a priority. While the line is
 * wider than the width (run --width), the piece of the highest priority is left out, the
 * last of them first, and a trailing " ..." says so: first the governor's other variables
 * and the kind of the next timer (3), then got-tick, load, tick-seen and the governor's
 * history (typical interval, duration, pattern average: 2), then iowait, the QoS limit,
 * poll-limit and the governor's prediction (1). Priority 0 (time, CPU, sleep length, tick,
 * rule, the state chosen, the wakeup and verdict) is never left out: if those alone are
 * wider, the line is continued on indented lines between pieces. idlesim help run states
 * this rule; the JSON report keeps the whole record.
 */
#define EXPLAIN_PIECES (CPUIDLE_EXPLAIN_MAX + 16)
#define EXPLAIN_INDENT 4

struct xline {
	char text[EXPLAIN_PIECES][96];
	int prio[EXPLAIN_PIECES];
	int n;
};

static void xadd(struct xline *x, int prio, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void xadd(struct xline *x, int prio, const char *fmt, ...)
{
	va_list ap;

	if (x->n == EXPLAIN_PIECES)
		return;
	va_start(ap, fmt);
	vsnprintf(x->text[x->n], sizeof(x->text[0]), fmt, ap);
	va_end(ap);
	x->prio[x->n++] = prio;
}

static void xprint(FILE *f, struct xline *x, int width)
{
	bool cut = false;
	size_t len;
	int i, drop, col, last;

	for (;;) {
		for (len = 0, i = 0; i < x->n; i++)
			if (x->prio[i] >= 0)
				len += strlen(x->text[i]);
		if (len + (cut ? 4 : 0) <= (size_t)width)
			break;
		for (drop = -1, i = 0; i < x->n; i++)
			if (x->prio[i] > 0 && (drop < 0 || x->prio[i] >= x->prio[drop]))
				drop = i;
		if (drop < 0)
			break;
		x->prio[drop] = -1;
		cut = true;
	}
	/* What is left wider still (a narrow width): continued between pieces. */
	for (last = x->n - 1; last > 0 && x->prio[last] < 0; last--)
		;
	for (col = 0, i = 0; i < x->n; i++) {
		const char *p = x->text[i];
		int n = (int)strlen(p);

		if (x->prio[i] < 0)
			continue;
		if (col > EXPLAIN_INDENT && col + n + (cut && i == last ? 4 : 0) > width) {
			fprintf(f, "\n%*s", EXPLAIN_INDENT, "");
			col = EXPLAIN_INDENT;
			while (*p == ' ')
				p++, n--;
		}
		fputs(p, f);
		col += n;
	}
	fprintf(f, "%s\n", cut ? " ..." : "");
}

/* A key the engine's part of the line already shows. */
static bool explain_shown(const struct sim_decision *d, const struct cpuidle_explain_item *it)
{
	return !strcmp(it->key, "sleep_length_ns") || !strcmp(it->key, "delta_tick_ns") ||
	       !strcmp(it->key, "nr_iowait") ||
	       (!strcmp(it->key, "latency_req_ns") && !it->str && it->val == d->latency_req_ns);
}

/* The governor's prediction stays longest when the line is too wide. */
static int explain_prio(const char *key)
{
	static const char *const first[] = { "predicted_ns", "expected_ns", "idle_ns", "expected_us" };
	static const char *const second[] = { "typical_interval_us", "duration_us", "pattern_avg_us" };
	size_t i;

	for (i = 0; i < SIM_ARRAY_SIZE(first); i++)
		if (!strcmp(key, first[i]))
			return 1;
	for (i = 0; i < SIM_ARRAY_SIZE(second); i++)
		if (!strcmp(key, second[i]))
			return 2;
	return 3;
}

void report_fmt_explain_item(char *buf, size_t n, const struct cpuidle_explain_item *it)
{
	size_t kl = strlen(it->key);
	char v[32];

	if (it->str) {
		snprintf(buf, n, "%s=%s", it->key, it->str);
	} else if (kl > 3 && (!strcmp(it->key + kl - 3, "_ns") || !strcmp(it->key + kl - 3, "_us"))) {
		report_fmt_ns(v, sizeof(v), it->val < 0 ? -1 : it->key[kl - 2] == 'u' ? it->val * 1000 : it->val);
		snprintf(buf, n, "%.*s=%s", (int)(kl - 3), it->key, v);
	} else if (it->val == -1) {
		snprintf(buf, n, "%s=none", it->key);
	} else {
		snprintf(buf, n, "%s=%lld", it->key, it->val);
	}
}

/* A governor variable: the rule is never left out, the prediction last. */
static void explain_item(struct xline *x, const struct cpuidle_explain_item *it)
{
	char v[96];

	report_fmt_explain_item(v, sizeof(v), it);
	xadd(x, it->str ? (strcmp(it->key, "rule") ? 3 : 0) : explain_prio(it->key), " %s", v);
}

static void text_decision(FILE *f, const struct run_result *r, const struct run_decision *rd,
			  int width)
{
	const struct sim_decision *d = &rd->d;
	struct xline x = { .n = 0 };
	char a[32], b[32];
	int i;

	report_fmt_ns(a, sizeof(a), d->sleep_length_ns);
	xadd(&x, 0, "%lld.%06llds cpu%d sleep %s", (long long)(d->time_ns / SIM_NS_PER_S),
	     (long long)(d->time_ns % SIM_NS_PER_S / 1000), d->cpu, a);
	/* The kind of the next timer: the tick-stop rule reads only timer-wheel timers. */
	if (d->sleep_length_ns != KTIME_MAX && d->wheel_length_ns != d->sleep_length_ns) {
		report_fmt_ns(a, sizeof(a), d->wheel_length_ns);
		xadd(&x, 3, " (hrtimer, wheel %s)", a);
	}
	/* The tick: off, or on and due in delta_tick when that comes before the timer. */
	if (!d->tick_stopped_before && d->delta_tick_ns != KTIME_MAX &&
	    d->delta_tick_ns != d->sleep_length_ns) {
		report_fmt_ns(a, sizeof(a), d->delta_tick_ns);
		xadd(&x, 0, " tick in %s", a);
	} else {
		xadd(&x, 0, " tick %s", d->tick_stopped_before ? "off" : "on");
	}
	if (d->got_tick)
		xadd(&x, 2, " got-tick");
	if (d->nr_iowait)
		xadd(&x, 1, " iowait %lu", d->nr_iowait);
	if (d->load_read)
		xadd(&x, 2, " load %lu", d->load);
	if (d->latency_req_ns >= 0 && d->latency_req_ns < 2000000000000LL) {
		report_fmt_ns(a, sizeof(a), d->latency_req_ns);
		xadd(&x, 1, " qos %s", a);
	}
	xadd(&x, 0, " |");
	for (i = 0; i < rd->ex.nr; i++)
		if (!explain_shown(d, &rd->ex.items[i]))
			explain_item(&x, &rd->ex.items[i]);
	xadd(&x, 0, " -> %s tick %s |", state_name(r, d->state),
	     d->tick_stopped_after ? "off" : d->stop_tick ? "on (timer first)" : "on");
	report_fmt_ns(a, sizeof(a), d->wake_ns - d->time_ns);
	report_fmt_ns(b, sizeof(b), d->residency_ns);
	xadd(&x, 0, " %s +%s: res %s %s", wake_cause_name(d->cause), a, b,
	     verdict_name(d->verdict));
	if (d->reflect_got_tick)
		xadd(&x, 2, " tick-seen");
	if (d->poll_time_limit)
		xadd(&x, 1, " poll-limit");
	xprint(f, &x, width);
}

/* The governor of a result: the one it ran with, or by name for results built by hand. */
static const struct cpuidle_governor *result_gov(const struct run_result *r)
{
	return r->gov ? r->gov : gov_find(r->governor);
}

/* A result's tunables in force; NULL for results built by hand (the defaults). */
static const long long *result_params(const struct run_result *r)
{
	return r->gov ? r->params : NULL;
}

/* The configuration record's lines under a run's header (sim/run/cfgrec.h). */
static void text_config(FILE *f, const struct run_result *r, int width)
{
	const struct cpuidle_governor *g = result_gov(r);
	char tun[1024] = "unknown", sets[1024], mh[17], th[17];

	if (g)
		cfgrec_tunables_text(tun, sizeof(tun), g, result_params(r));
	cfgrec_sets_text(sets, sizeof(sets), r->sets, r->nr_sets);
	cfgrec_hex(mh, r->machine_hash);
	cfgrec_hex(th, r->trace_hash);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "config: idlesim %s; machine %s table %s; trace %s bytes %s; seed none; "
		   "wake latency model %s; regret references: energy %s, latency %s\n",
		IDLESIM_VERSION, r->machine, mh, r->trace, th, wake_model_name(r->wake_model),
		RUN_ENERGY_REFERENCE, RUN_LATENCY_REFERENCE);
	if (r->mach.assumed[0]) /* a sysfs snapshot's machine: what is not the machine's own */
		textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "machine %s assumed: %s\n", r->machine,
				r->mach.assumed);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "tunables: %s; --set applied: %s\n", tun, sets);
}

static int text_run(FILE *f, const struct run_result *r, bool per_cpu, int width)
{
	const struct run_stats *rs = &r->stats;
	const struct cpu_stats *t = &rs->total;
	struct stats_summary s;
	double dur = run_duration_s(rs);
	char lim[32], dis[CPUIDLE_STATE_MAX * 24];
	int i, first = 1;
	size_t k;

	stats_summarize(rs, t, rs->nr_cpus, &s);
	fmt_limit(lim, sizeof(lim), r->latency_req_ns);
	for (i = 0, k = 0; i < rs->state_count; i++) {
		if (r->disabled & (1u << i)) {
			k += (size_t)snprintf(dis + k, sizeof(dis) - k, "%s%s", first ? " " : ",",
					      state_name(r, i));
			first = 0;
		}
	}
	textwrap_printf(f, width, 3, "\n== %s | %s | %s | HZ %d | latency limit %s | disabled:%s ==\n",
			r->trace, r->machine, r->governor, r->hz, lim, first ? " none" : dis);
	text_config(f, r, width);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "replayed %d of %d CPUs over %.6f s; idle periods %llu (absorbed %llu), "
		   "truncated at end %.6f s\n",
		rs->nr_cpus, r->machine_cpus, dur, (unsigned long long)t->idle_periods,
		(unsigned long long)t->absorbed, (double)t->truncated_ns / 1e9);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "busy %.6f s, and %.6f s of the trace's work spilled past the end; "
		   "interrupts polled through %llu\n",
		(double)t->busy_ns / 1e9, (double)t->spilled_ns / 1e9, (unsigned long long)t->polled);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "entries %llu: above %llu (%.2f%%), below %llu (%.2f%%), hits %llu (%.2f%%)\n",
		(unsigned long long)s.idle_entries, (unsigned long long)s.above, s.above_pct,
		(unsigned long long)s.below, s.below_pct, (unsigned long long)s.hits, s.hits_pct);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "entries ended by: timer %llu, irq %llu, ipi %llu, tick %llu, poll limit %llu\n",
		(unsigned long long)t->wakeups[WAKE_TIMER], (unsigned long long)t->wakeups[WAKE_IRQ],
		(unsigned long long)t->wakeups[WAKE_IPI], (unsigned long long)t->wakeups[WAKE_TICK],
		(unsigned long long)t->wakeups[WAKE_POLL]);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "energy %.6f J (idle %.6f J, transitions %.6f J); avg power %.3f W, "
		   "idle power %.3f W\n",
		rs->energy_j, rs->idle_energy_j, rs->transition_energy_j,
		dur > 0 ? rs->energy_j / dur : 0.0, dur > 0 ? rs->idle_energy_j / dur : 0.0);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "wake latency (irq+ipi, %llu samples): mean %.3f us, p50 %.3f us, p99 %.3f us, "
		   "max %.3f us\n",
		(unsigned long long)s.lat_samples, s.lat_mean_ns / 1000.0, (double)s.lat_p50_ns / 1000.0,
		(double)s.lat_p99_ns / 1000.0, (double)s.lat_max_ns / 1000.0);
	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "regret: energy vs %s %+.6f J (%+.2f%%: cores and transitions %+.6f J, of "
		   "which SMT sharing %+.6f J; packages %+.6f J)%s%s%s, wake latency mean vs %s "
		   "%+.3f us\n\n",
		RUN_ENERGY_REFERENCE, r->regret_energy_j, r->regret_energy_pct,
		r->regret_energy_j - r->regret_package_j,
		r->regret_energy_j - r->regret_package_j - r->regret_cpu_j, r->regret_package_j,
		run_regret_negative(r) ? " NEGATIVE (" : "",
		run_regret_negative(r) ? run_regret_negative(r) : "",
		run_regret_negative(r) ? ", docs/regret.md)" : "", RUN_LATENCY_REFERENCE,
		r->regret_lat_mean_ns / 1000.0);
	for (i = 0; i < NR_TEXT_BLOCKS; i++) {
		if (i)
			fputc('\n', f);
		if (text_block(f, r, (enum text_block_kind)i, per_cpu, width))
			return -1;
	}
	if (r->nr_decisions) {
		fprintf(f, "\ndecisions (%zu, in order of completion):\n", r->nr_decisions);
		for (k = 0; k < r->nr_decisions; k++)
			text_decision(f, r, &r->decisions[k], width);
	}
	return 0;
}

static int report_text(FILE *f, const struct run_results *res, const struct report_opts *o)
{
	int i, width = o->width > 0 ? o->width : TEXTWRAP_DEFAULT;

	textwrap_printf(f, width, TEXTWRAP_INDENT_KEY, "idlesim %s run: %d run(s); energy and latency are model estimates "
		   "(docs/machines.md)\n\n",
		IDLESIM_VERSION, res->n);
	if (text_summary(f, res, width))
		return -1;
	for (i = 0; i < res->n; i++)
		if (text_run(f, &res->r[i], o->per_cpu, width))
			return -1;
	return 0;
}

/* ---- JSON ---- */

static json_t *jint(long long v)
{
	return json_integer(v);
}

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *latency_json(const struct lat_hist *h)
{
	return json_pack("{s:I, s:o, s:I, s:I, s:I}", "samples", (json_int_t)h->n, "mean",
			 jreal(lat_hist_mean(h)), "p50", (json_int_t)lat_hist_percentile(h, 50),
			 "p99", (json_int_t)lat_hist_percentile(h, 99), "max", (json_int_t)h->max_ns);
}

static json_t *wakeups_json(const struct cpu_stats *cs)
{
	json_t *o = json_object();
	int i;

	for (i = 0; i < WAKE_NR_CAUSES; i++)
		json_object_set_new(o, wake_cause_name((enum wake_cause)i), jint((long long)cs->wakeups[i]));
	return o;
}

static json_t *states_json(const struct run_result *r, const struct cpu_stats *cs, int nr_cpus)
{
	const struct run_stats *rs = &r->stats;
	struct stats_summary s;
	json_t *a = json_array();
	int i;

	stats_summarize(rs, cs, nr_cpus, &s);
	for (i = 0; i < rs->state_count; i++) {
		const struct cpuidle_state_usage *su = &cs->states[i];

		json_array_append_new(a, json_pack("{s:i, s:s, s:b, s:I, s:I, s:I, s:I, s:o}", "index", i,
						   "name", state_name(r, i), "disabled",
						   (r->disabled >> i) & 1, "usage", (json_int_t)su->usage,
						   "time_ns", (json_int_t)su->time_ns, "above",
						   (json_int_t)su->above, "below", (json_int_t)su->below,
						   "residency_pct", jreal(s.residency_pct[i])));
	}
	return a;
}

static json_t *totals_json(const struct run_result *r)
{
	const struct run_stats *rs = &r->stats;
	const struct cpu_stats *t = &rs->total;
	double dur = run_duration_s(rs);
	struct stats_summary s;
	json_t *o;

	stats_summarize(rs, t, rs->nr_cpus, &s);
	o = json_object();
	json_object_set_new(o, "idle_entries", jint((long long)s.idle_entries));
	json_object_set_new(o, "above", jint((long long)s.above));
	json_object_set_new(o, "below", jint((long long)s.below));
	json_object_set_new(o, "hits", jint((long long)s.hits));
	json_object_set_new(o, "above_pct", jreal(s.above_pct));
	json_object_set_new(o, "below_pct", jreal(s.below_pct));
	json_object_set_new(o, "hits_pct", jreal(s.hits_pct));
	json_object_set_new(o, "busy_pct", jreal(s.busy_pct));
	json_object_set_new(o, "idle_periods", jint((long long)t->idle_periods));
	json_object_set_new(o, "absorbed", jint((long long)t->absorbed));
	json_object_set_new(o, "truncated_ns", jint(t->truncated_ns));
	json_object_set_new(o, "truncated_pct", jreal(s.truncated_pct));
	json_object_set_new(o, "busy_ns", jint(t->busy_ns));
	json_object_set_new(o, "spilled_ns", jint(t->spilled_ns));
	json_object_set_new(o, "polled", jint((long long)t->polled));
	json_object_set_new(o, "wakeups", wakeups_json(t));
	json_object_set_new(o, "energy_j", jreal(rs->energy_j));
	json_object_set_new(o, "idle_energy_j", jreal(rs->idle_energy_j));
	json_object_set_new(o, "transition_energy_j", jreal(rs->transition_energy_j));
	json_object_set_new(o, "avg_power_w", jreal(dur > 0 ? rs->energy_j / dur : 0.0));
	json_object_set_new(o, "idle_power_w", jreal(dur > 0 ? rs->idle_energy_j / dur : 0.0));
	json_object_set_new(o, "wake_latency_ns", latency_json(&t->wake_latency));
	return o;
}

static json_t *cpus_json(const struct run_result *r)
{
	const struct run_stats *rs = &r->stats;
	json_t *a = json_array();
	int i;

	for (i = 0; i < rs->nr_cpus; i++) {
		const struct cpu_stats *cs = &rs->cpus[i];
		struct stats_summary s;
		json_t *o = json_object();

		stats_summarize(rs, cs, 1, &s);
		json_object_set_new(o, "cpu", jint(cs->cpu));
		json_object_set_new(o, "package", jint(cs->package));
		json_object_set_new(o, "core", jint(cs->core));
		json_object_set_new(o, "thread", jint(cs->thread));
		json_object_set_new(o, "idle_entries", jint((long long)s.idle_entries));
		json_object_set_new(o, "above", jint((long long)s.above));
		json_object_set_new(o, "below", jint((long long)s.below));
		json_object_set_new(o, "hits", jint((long long)s.hits));
		json_object_set_new(o, "busy_ns", jint(cs->busy_ns));
		json_object_set_new(o, "idle_periods", jint((long long)cs->idle_periods));
		json_object_set_new(o, "absorbed", jint((long long)cs->absorbed));
		json_object_set_new(o, "truncated_ns", jint(cs->truncated_ns));
		json_object_set_new(o, "spilled_ns", jint(cs->spilled_ns));
		json_object_set_new(o, "polled", jint((long long)cs->polled));
		json_object_set_new(o, "wakeups", wakeups_json(cs));
		json_object_set_new(o, "wake_latency_ns", latency_json(&cs->wake_latency));
		json_object_set_new(o, "states", states_json(r, cs, 1));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *decisions_json(const struct run_result *r)
{
	json_t *a = json_array();
	size_t k;
	int i;

	for (k = 0; k < r->nr_decisions; k++) {
		const struct run_decision *rd = &r->decisions[k];
		const struct sim_decision *d = &rd->d;
		json_t *o = json_object(), *g = json_object();

		json_object_set_new(o, "time_ns", jint(d->time_ns));
		json_object_set_new(o, "cpu", jint(d->cpu));
		json_object_set_new(o, "sleep_length_ns",
				    d->sleep_length_ns == KTIME_MAX ? json_null() : jint(d->sleep_length_ns));
		json_object_set_new(o, "delta_tick_ns",
				    d->delta_tick_ns == KTIME_MAX ? json_null() : jint(d->delta_tick_ns));
		json_object_set_new(o, "wheel_length_ns",
				    d->wheel_length_ns == KTIME_MAX ? json_null() : jint(d->wheel_length_ns));
		json_object_set_new(o, "timer_kind",
				    d->sleep_length_ns == KTIME_MAX ? json_null()
				    : json_string(d->wheel_length_ns == d->sleep_length_ns ? "wheel"
											     : "hrtimer"));
		json_object_set_new(o, "latency_req_ns", jint(d->latency_req_ns));
		json_object_set_new(o, "tick_stopped_before", json_boolean(d->tick_stopped_before));
		json_object_set_new(o, "got_tick", json_boolean(d->got_tick));
		json_object_set_new(o, "nr_iowait", jint((long long)d->nr_iowait));
		json_object_set_new(o, "load", d->load_read ? jint((long long)d->load) : json_null());
		json_object_set_new(o, "state", jint(d->state));
		json_object_set_new(o, "state_name", json_string(state_name(r, d->state)));
		json_object_set_new(o, "stop_tick", json_boolean(d->stop_tick));
		json_object_set_new(o, "tick_stopped_after", json_boolean(d->tick_stopped_after));
		json_object_set_new(o, "wake_ns", jint(d->wake_ns));
		json_object_set_new(o, "cause", json_string(wake_cause_name(d->cause)));
		json_object_set_new(o, "residency_ns", jint(d->residency_ns));
		json_object_set_new(o, "verdict", json_string(verdict_name(d->verdict)));
		json_object_set_new(o, "reflect_ns", jint(d->reflect_ns));
		json_object_set_new(o, "reflect_got_tick", json_boolean(d->reflect_got_tick));
		json_object_set_new(o, "poll_time_limit", json_boolean(d->poll_time_limit));
		for (i = 0; i < rd->ex.nr; i++) {
			const struct cpuidle_explain_item *it = &rd->ex.items[i];

			json_object_set_new(g, it->key, it->str ? json_string(it->str) : jint(it->val));
		}
		json_object_set_new(o, "governor", g);
		json_array_append_new(a, o);
	}
	return a;
}

/* The configuration record of a run (docs/scores.md, "What produced a report"). */
static json_t *config_json(const struct run_result *r, json_t *disabled)
{
	const struct cpuidle_governor *g = result_gov(r);
	json_t *o = json_object();
	char h[17];

	json_object_set_new(o, "idlesim_version", json_string(IDLESIM_VERSION));
	json_object_set_new(o, "governor", json_string(r->governor));
	json_object_set_new(o, "tunables", g ? cfgrec_tunables_json(g, result_params(r)) : json_null());
	if (g && strstr(g->name, "@file:") && g->summary) /* a kernel file (sim/run/kgov.c) */
		json_object_set_new(o, "governor_source", json_string(g->summary));
	json_object_set_new(o, "set", cfgrec_sets_json(r->sets, r->nr_sets));
	json_object_set_new(o, "latency_limit_ns",
			    r->latency_req_ns < 0 ? json_null() : jint(r->latency_req_ns));
	json_object_set_new(o, "disabled", disabled);
	json_object_set_new(o, "hz", jint(r->hz));
	json_object_set_new(o, "wake_latency_model", json_string(wake_model_name(r->wake_model)));
	json_object_set_new(o, "regret_references",
			    json_pack("{s:s, s:s}", "energy", RUN_ENERGY_REFERENCE, "latency",
				      RUN_LATENCY_REFERENCE));
	cfgrec_hex(h, r->machine_hash);
	json_object_set_new(o, "machine", json_pack("{s:s, s:s}", "name", r->machine, "hash", h));
	if (r->mach.assumed[0])
		json_object_set_new(json_object_get(o, "machine"), "assumed",
				    json_string(r->mach.assumed));
	cfgrec_hex(h, r->trace_hash);
	json_object_set_new(o, "trace", json_pack("{s:s, s:s}", "name", r->trace, "hash", h));
	json_object_set_new(o, "seed", json_null());
	return o;
}

json_t *report_config_json(const struct run_result *r)
{
	json_t *dis = json_array();
	int i;

	for (i = 0; i < r->stats.state_count; i++)
		if (r->disabled & (1u << i))
			json_array_append_new(dis, json_string(state_name(r, i)));
	return config_json(r, dis);
}

static json_t *run_json(const struct run_result *r)
{
	const struct run_stats *rs = &r->stats;
	json_t *o = json_object(), *dis = json_array();
	int i;

	for (i = 0; i < rs->state_count; i++)
		if (r->disabled & (1u << i))
			json_array_append_new(dis, json_string(state_name(r, i)));
	json_object_set_new(o, "config", report_config_json(r));
	json_object_set_new(o, "trace", json_string(r->trace));
	json_object_set_new(o, "machine", json_string(r->machine));
	json_object_set_new(o, "governor", json_string(r->governor));
	json_object_set_new(o, "hz", jint(r->hz));
	json_object_set_new(o, "latency_limit_ns", r->latency_req_ns < 0 ? json_null() : jint(r->latency_req_ns));
	json_object_set_new(o, "disabled", dis);
	json_object_set_new(o, "cpus_replayed", jint(rs->nr_cpus));
	json_object_set_new(o, "machine_cpus", jint(r->machine_cpus));
	json_object_set_new(o, "start_ns", jint(rs->start_ns));
	json_object_set_new(o, "end_ns", jint(rs->end_ns));
	json_object_set_new(o, "duration_ns", jint(rs->end_ns - rs->start_ns));
	json_object_set_new(o, "totals", totals_json(r));
	json_object_set_new(o, "regret",
			    json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:o}", "energy_reference",
				      RUN_ENERGY_REFERENCE, "energy_j", jreal(r->regret_energy_j),
				      "energy_pct", jreal(r->regret_energy_pct), "package_energy_j",
				      jreal(r->regret_package_j), "cpu_energy_j",
				      jreal(r->regret_cpu_j), "latency_reference",
				      RUN_LATENCY_REFERENCE, "wake_latency_mean_ns",
				      jreal(r->regret_lat_mean_ns), "negative",
				      run_regret_negative(r) ? json_string(run_regret_negative(r))
							     : json_null()));
	json_object_set_new(o, "states", states_json(r, &rs->total, rs->nr_cpus));
	json_object_set_new(o, "cpus", cpus_json(r));
	if (r->nr_decisions)
		json_object_set_new(o, "decisions", decisions_json(r));
	return o;
}

static int report_json(FILE *f, const struct run_results *res)
{
	json_t *root = json_object(), *runs = json_array();
	int i, rc;

	if (!root || !runs) {
		json_decref(root);
		json_decref(runs);
		return -1;
	}
	json_object_set_new(root, "schema", json_string(REPORT_JSON_SCHEMA));
	json_object_set_new(root, "idlesim_version", json_string(IDLESIM_VERSION));
	for (i = 0; i < res->n; i++)
		json_array_append_new(runs, run_json(&res->r[i]));
	json_object_set_new(root, "runs", runs);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!rc)
		fputc('\n', f);
	json_decref(root);
	return rc ? -1 : 0;
}

/* ---- CSV ---- */

void report_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_prefix(FILE *f, const struct run_result *r, const char *cpu)
{
	report_csv_field(f, r->trace);
	fprintf(f, ",%s,%s,%d,%s,", r->machine, r->governor, r->hz, cpu);
}

/* The configuration record closes every row: limit, disabled, tunables, --set, model,
 * hashes, seed, version. */
static void csv_config(FILE *f, const struct run_result *r)
{
	const struct cpuidle_governor *g = result_gov(r);
	char buf[1024] = "unknown", mh[17], th[17];
	int i, k;

	if (r->latency_req_ns >= 0)
		fprintf(f, ",%lld,", (long long)r->latency_req_ns);
	else
		fputs(",,", f);
	for (i = 0, k = 0; i < r->stats.state_count; i++)
		if (r->disabled & (1u << i))
			k += snprintf(buf + k, sizeof(buf) - (size_t)k, "%s%s", k ? ";" : "",
				      state_name(r, i));
	buf[k] = '\0'; /* CPUIDLE_STATE_MAX short names fit */
	report_csv_field(f, buf);
	fputc(',', f);
	snprintf(buf, sizeof(buf), "unknown");
	if (g)
		cfgrec_tunables_text(buf, sizeof(buf), g, result_params(r));
	report_csv_field(f, buf);
	fputc(',', f);
	cfgrec_sets_text(buf, sizeof(buf), r->sets, r->nr_sets);
	report_csv_field(f, buf);
	cfgrec_hex(mh, r->machine_hash);
	cfgrec_hex(th, r->trace_hash);
	fprintf(f, ",%s,%s,%s,%s,,%s\n", wake_model_name(r->wake_model),
		"energy=" RUN_ENERGY_REFERENCE " latency=" RUN_LATENCY_REFERENCE, mh, th,
		IDLESIM_VERSION);
}

static void csv_rows(FILE *f, const struct run_result *r, const struct cpu_stats *cs, int nr_cpus,
		     const char *cpu, bool totals)
{
	const struct run_stats *rs = &r->stats;
	struct stats_summary s;
	double dur = run_duration_s(rs);
	int i;

	stats_summarize(rs, cs, nr_cpus, &s);
	for (i = 0; i < rs->state_count; i++) {
		const struct cpuidle_state_usage *su = &cs->states[i];

		csv_prefix(f, r, cpu);
		fprintf(f, "%s,%llu,%llu,%llu,%llu,%.6f,,,,,,,,,,,", state_name(r, i), su->usage,
			(unsigned long long)su->time_ns, su->above, su->below, s.residency_pct[i]);
		csv_config(f, r);
	}
	csv_prefix(f, r, cpu);
	fprintf(f, "total,%llu,", (unsigned long long)s.idle_entries);
	{
		uint64_t time = 0;
		double res = 0;

		for (i = 0; i < rs->state_count; i++) {
			time += cs->states[i].time_ns;
			res += s.residency_pct[i];
		}
		fprintf(f, "%llu,%llu,%llu,%.6f,", (unsigned long long)time,
			(unsigned long long)s.above, (unsigned long long)s.below, res);
	}
	if (totals)
		fprintf(f, "%.9f,%.6f,%.6f,", rs->energy_j, dur > 0 ? rs->energy_j / dur : 0.0,
			dur > 0 ? rs->idle_energy_j / dur : 0.0);
	else
		fputs(",,,", f);
	fprintf(f, "%llu,%.3f,%lld,%lld,%lld,", (unsigned long long)s.lat_samples, s.lat_mean_ns,
		(long long)s.lat_p50_ns, (long long)s.lat_p99_ns, (long long)s.lat_max_ns);
	if (totals)
		fprintf(f, "%.9f,%.3f,%s", r->regret_energy_j, r->regret_lat_mean_ns,
			run_regret_negative(r) ? run_regret_negative(r) : "");
	else
		fputs(",,", f);
	csv_config(f, r);
}

static int report_csv(FILE *f, const struct run_results *res)
{
	int i, c;
	char cpu[16];

	fputs("trace,machine,governor,hz,cpu,state,usage,time_ns,above,below,residency_pct,"
	      "energy_j,avg_power_w,idle_power_w,wake_latency_samples,wake_latency_mean_ns,"
	      "wake_latency_p50_ns,wake_latency_p99_ns,wake_latency_max_ns,regret_energy_j,"
	      "regret_wake_latency_mean_ns,regret_negative,latency_limit_ns,disabled,tunables,set,"
	      "wake_latency_model,regret_references,machine_hash,trace_hash,seed,idlesim_version\n",
	      f);
	for (i = 0; i < res->n; i++) {
		const struct run_result *r = &res->r[i];

		csv_rows(f, r, &r->stats.total, r->stats.nr_cpus, "all", true);
		for (c = 0; c < r->stats.nr_cpus; c++) {
			snprintf(cpu, sizeof(cpu), "%d", c);
			csv_rows(f, r, &r->stats.cpus[c], 1, cpu, false);
		}
	}
	return 0;
}

/*
 * A formatter fails alike when a write fails and when an allocation fails (jansson's, for
 * the JSON tree, go through sim/base/alloc.h too): the count of failed allocations tells them
 * apart, and running out of memory is not the destination's fault.
 */
int report_write(FILE *f, const struct run_results *res, const struct report_opts *o)
{
	unsigned long failures = sim_alloc_failures();
	int rc;

	switch (o->format) {
	case REPORT_JSON:
		rc = report_json(f, res);
		break;
	case REPORT_CSV:
		rc = report_csv(f, res);
		break;
	case REPORT_FTRACE: {
		struct sim_error err = { 0 };

		rc = res->n == 1 ? export_ftrace(f, &res->r[0], o->command, &err) : -1;
		break;
	}
	case REPORT_PERFETTO: {
		struct sim_error err = { 0 };

		rc = export_perfetto(f, res, o->command, &err);
		break;
	}
	default:
		rc = report_text(f, res, o);
		break;
	}
	if (sim_alloc_failures() != failures)
		return REPORT_ERR_NOMEM;
	return rc || ferror(f) ? REPORT_ERR_IO : 0;
}
