// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_report.c - the summary of an import, as text or JSON (schema idlesim-import/1).
 *
 * JSON keys, in this order (counts are integers; docs/import.md and traces/FORMAT.md describe
 * them): schema, input, format, cpus, cpus_from, hz (null: unknown), hz_from, start_ns,
 * end_ns, tick_phase {ns (null: not written), from, tick_expiries, agreeing, clock_offset_ns
 * (null: none measured), records_moved, max_move_ns, records_past_half_jiffy,
 * records_edge_not_after_start}, lines, events_read, events_used, events_skipped, events {name:
 * count read}, skipped {name: count}, bad_lines, warnings [], lost {lines, events},
 * out_of_order (null, or {events, cpus [], held_in_memory}), passes, reread_because (null,
 * or why the one pass was not enough), max_waiting_records, stale_timers, merging, idle_periods, opportunities,
 * merged_periods, started_idle, truncated_at_end, idle_throughout, zero_length, unpaired {entries, exits, reasons
 * {}}, wake_causes {tick, timer, irq, ipi, unknown}, period_wake_causes {...}, sleep_length {known,
 * assumption, opportunities_with_next_timer, opportunities_hrtimer_first}, tick_stop {success,
 * failed}, per_cpu [{cpu, idle_periods, opportunities, unpaired_entries, unpaired_exits,
 * wake_causes}], recorded {machine, outside_table, states [{index, name, usage, time_ns, above, below}], cpus [{cpu, states}]}, and
 * miss_check {events, above, below, compared, agree, disagree, unmatched, disagreements [{cpu,
 * time_ns, state, residency_ns, kernel, idlesim}], listed} when the trace has cpu_idle_miss events,
 * timer_census {timer_events, median_of_at_most, timers_not_remembered, functions [{function,
 * kind, deferrable, pinned, armed, rearmed, cancelled, expired, idle_periods_ended, period_ns,
 * period_intervals, arm_interval_ns, timeout_ns}], per_cpu [the same with cpu first]}.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"
#include "sim/base/textwrap.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *verdict_name(int v)
{
	return v == CPUIDLE_ABOVE ? "above" : v == CPUIDLE_BELOW ? "below" : "hit";
}

/* Names in the table, sorted by name, for stable output. */
static int by_name(const void *a, const void *b)
{
	const struct name_entry *x = *(const struct name_entry *const *)a;
	const struct name_entry *y = *(const struct name_entry *const *)b;

	return strcmp(x->name, y->name);
}

static const struct name_entry **sorted_names(const struct importer *im, size_t *n)
{
	const struct name_table *t = &im->names;
	const struct name_entry **v = sim_calloc(t->n + 1, sizeof(*v));
	uint32_t i;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < t->cap; i++)
		if (t->e[i].len && t->e[i].count)
			v[(*n)++] = &t->e[i];
	qsort(v, *n, sizeof(*v), by_name);
	if (t->other.count)
		v[(*n)++] = &t->other;
	return v;
}

/* States shown: the machine's, or up to the deepest one the trace entered. */
static int nr_states(const struct importer *im, const struct rcpu_stats *sum)
{
	int k, n = 0;

	if (im->opt.machine)
		return im->R.drv.state_count;
	for (k = 0; k < CPUIDLE_STATE_MAX; k++)
		if (sum->su[k].usage)
			n = k + 1;
	return n;
}

static const char *state_name(const struct importer *im, int k, char *buf, size_t n)
{
	if (im->opt.machine)
		return im->R.drv.states[k].name;
	snprintf(buf, n, "state%d", k);
	return buf;
}

static uint64_t unpaired_sum(const struct rcpu_stats *s, bool entries)
{
	uint64_t n = 0;
	int r;

	for (r = 0; r < UNP_NR; r++)
		if (unpaired_is_entry((enum unpaired_reason)r) == entries)
			n += s->unpaired[r];
	return n;
}

/* ---- JSON ---- */

static json_t *causes_json(const uint64_t *c)
{
	json_t *o = json_object();
	int k;

	for (k = 0; k < IC_NR; k++)
		json_object_set_new(o, icause_name((enum icause)k), json_integer((json_int_t)c[k]));
	return o;
}

static json_t *states_json(const struct importer *im, const struct rcpu_stats *s, int n)
{
	json_t *a = json_array();
	char buf[16];
	int k;

	for (k = 0; k < n; k++) {
		json_t *o = json_object();

		json_object_set_new(o, "index", json_integer(k));
		json_object_set_new(o, "name", json_string(state_name(im, k, buf, sizeof(buf))));
		json_object_set_new(o, "usage", json_integer((json_int_t)s->su[k].usage));
		json_object_set_new(o, "time_ns", json_integer((json_int_t)s->su[k].time_ns));
		json_object_set_new(o, "above",
				    im->opt.machine ? json_integer((json_int_t)s->su[k].above)
						    : json_null());
		json_object_set_new(o, "below",
				    im->opt.machine ? json_integer((json_int_t)s->su[k].below)
						    : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *miss_json(const struct importer *im)
{
	const struct miss_check *m = &im->R.miss;
	json_t *o = json_object(), *l = json_array();
	int i;

	json_object_set_new(o, "events", json_integer((json_int_t)m->events));
	json_object_set_new(o, "above", json_integer((json_int_t)m->above));
	json_object_set_new(o, "below", json_integer((json_int_t)m->below));
	json_object_set_new(o, "compared",
			    im->opt.machine ? json_integer((json_int_t)m->compared) : json_null());
	json_object_set_new(o, "agree", json_integer((json_int_t)m->agree));
	json_object_set_new(o, "disagree", json_integer((json_int_t)m->disagree));
	json_object_set_new(o, "unmatched", json_integer((json_int_t)m->unmatched));
	for (i = 0; i < m->nlist; i++) {
		const struct miss_disagreement *d = &m->list[i];

		json_array_append_new(
			l, json_pack("{s:i, s:I, s:i, s:s, s:I, s:s, s:s}", "cpu", d->cpu,
				     "time_ns", (json_int_t)d->time_ns, "state", d->state,
				     "state_name", im->R.drv.states[d->state].name, "residency_ns",
				     (json_int_t)d->residency_ns, "kernel", verdict_name(d->kernel),
				     "idlesim", verdict_name(d->ours)));
	}
	json_object_set_new(o, "disagreements", l);
	json_object_set_new(o, "listed", json_integer(m->nlist));
	return o;
}

static json_t *recorded_json(const struct importer *im, const struct rcpu_stats *sum, int ns)
{
	json_t *o = json_object(), *cpus = json_array();
	int i;

	json_object_set_new(o, "machine",
			    im->opt.machine ? json_string(im->opt.machine->name) : json_null());
	json_object_set_new(o, "outside_table", json_integer((json_int_t)sum->outside));
	json_object_set_new(o, "states", states_json(im, sum, ns));
	for (i = 0; i < im->cpus; i++)
		json_array_append_new(cpus, json_pack("{s:i, s:o}", "cpu", i, "states",
						      states_json(im, &im->R.cpu[i].s, ns)));
	json_object_set_new(o, "cpus", cpus);
	return o;
}

/* ---- the timer census ---- */

/* Rows by CPU (the machine's, -1, first), then idle periods ended, expiries, arms, most
 * first; ties in the order the callbacks first appeared in the trace. */
static int census_order(const void *a, const void *b)
{
	const struct census_row *x = *(const struct census_row *const *)a;
	const struct census_row *y = *(const struct census_row *const *)b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->idle_ended != y->idle_ended)
		return x->idle_ended > y->idle_ended ? -1 : 1;
	if (x->expired != y->expired)
		return x->expired > y->expired ? -1 : 1;
	if (x->armed != y->armed)
		return x->armed > y->armed ? -1 : 1;
	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static const struct census_row **census_rows(const struct census *C)
{
	const struct census_row **v = sim_calloc(C->nrow + 1, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < C->nrow; i++)
		v[i] = &C->row[i];
	qsort(v, C->nrow, sizeof(*v), census_order);
	return v;
}

static size_t census_functions(const struct census *C)
{
	size_t i, n = 0;

	for (i = 0; i < C->nrow; i++)
		n += C->row[i].cpu < 0;
	return n;
}

static const char *census_kind(const struct census_row *r)
{
	return r->kind == TM_WHEEL ? "wheel" : "hrtimer";
}

static json_t *median_json(const struct sample_set *s)
{
	return s->n ? json_integer(sample_median(s)) : json_null();
}

static json_t *census_json(const struct census *C)
{
	const struct census_row **v = census_rows(C);
	json_t *o = json_object(), *fns = json_array(), *cpus = json_array();
	size_t i;

	json_object_set_new(o, "timer_events", json_integer((json_int_t)C->events));
	json_object_set_new(o, "median_of_at_most", json_integer(CENSUS_SAMPLES));
	json_object_set_new(o, "timers_not_remembered", json_integer((json_int_t)C->unremembered));
	for (i = 0; v && i < C->nrow; i++) {
		const struct census_row *r = v[i];
		json_t *e = json_object();

		if (r->cpu >= 0)
			json_object_set_new(e, "cpu", json_integer(r->cpu));
		json_object_set_new(e, "function", json_string(fn_name(C->fns, r->fn)));
		json_object_set_new(e, "kind", json_string(census_kind(r)));
		json_object_set_new(e, "deferrable", json_boolean(r->deferrable));
		json_object_set_new(e, "pinned", json_boolean(r->pinned));
		json_object_set_new(e, "armed", json_integer((json_int_t)r->armed));
		json_object_set_new(e, "rearmed", json_integer((json_int_t)r->rearmed));
		json_object_set_new(e, "cancelled", json_integer((json_int_t)r->cancelled));
		json_object_set_new(e, "expired", json_integer((json_int_t)r->expired));
		json_object_set_new(e, "idle_periods_ended", json_integer((json_int_t)r->idle_ended));
		json_object_set_new(e, "period_ns", median_json(&r->period));
		json_object_set_new(e, "period_intervals", json_integer((json_int_t)r->period.seen));
		json_object_set_new(e, "arm_interval_ns", median_json(&r->arm_gap));
		json_object_set_new(e, "timeout_ns", median_json(&r->timeout));
		json_array_append_new(r->cpu < 0 ? fns : cpus, e);
	}
	sim_free(v);
	json_object_set_new(o, "functions", fns);
	json_object_set_new(o, "per_cpu", cpus);
	return o;
}

static void median_text(FILE *f, const struct sample_set *s)
{
	if (s->n)
		fprintf(f, " %11.3f", (double)sample_median(s) / 1e6);
	else
		fprintf(f, " %11s", "-");
}

static void census_text(FILE *f, const struct census *C)
{
	const struct census_row **v;
	size_t i;
	int w = 32; /* the callback column: 32, or up to 51 for longer names (160 columns) */

	if (!C->events) {
		fprintf(f, "\ntimer census: no timer events (timer:hrtimer_*, timer:timer_*) in the "
			   "trace\n");
		return;
	}
	v = census_rows(C);
	fprintf(f,
		"\ntimer census: %llu timer events, %zu callbacks, %zu (CPU, callback) pairs; "
		"sorted by idle periods ended (by its expiry); period: median interval between "
		"consecutive expiries of the callback on one CPU; arm gap: median interval "
		"between its arms; timeout: median expires - now at arming; medians of at most "
		"%d values; flags: D deferrable, P pinned\n",
		(unsigned long long)C->events, census_functions(C),
		C->nrow - census_functions(C), CENSUS_SAMPLES);
	if (C->unremembered)
		fprintf(f, "callbacks of %llu timers not remembered: their cancels count as "
			   "(unknown)\n", (unsigned long long)C->unremembered);
	for (i = 0; i < C->nrow; i++)
		w = (int)sim_max64(w, sim_min64((int64_t)strlen(fn_name(C->fns, C->row[i].fn)), 51));
	fprintf(f, "  CPU  %-*s %-7s %-5s %8s %8s %10s %9s %11s %11s %11s %11s\n", w, "callback",
		"kind", "flags", "armed", "expired", "cancelled", "re-armed", "idle ended",
		"period_ms", "arm_gap_ms", "timeout_ms");
	for (i = 0; v && i < C->nrow; i++) {
		const struct census_row *r = v[i];
		char cpu[16], flags[4];

		if (r->cpu < 0)
			snprintf(cpu, sizeof(cpu), "all");
		else
			snprintf(cpu, sizeof(cpu), "%d", r->cpu);
		snprintf(flags, sizeof(flags), "%s%s%s", r->deferrable ? "D" : "",
			 r->pinned ? "P" : "", r->deferrable || r->pinned ? "" : "-");
		fprintf(f, "  %-4s %-*s %-7s %-5s %8llu %8llu %10llu %9llu %11llu", cpu, w,
			fn_name(C->fns, r->fn), census_kind(r), flags, (unsigned long long)r->armed,
			(unsigned long long)r->expired, (unsigned long long)r->cancelled,
			(unsigned long long)r->rearmed, (unsigned long long)r->idle_ended);
		median_text(f, &r->period);
		median_text(f, &r->arm_gap);
		median_text(f, &r->timeout);
		fputc('\n', f);
	}
	sim_free(v);
}

static json_t *phase_json(const struct tick_phase *p, const struct recon_grid *g)
{
	json_t *o = json_object();

	json_object_set_new(o, "ns", p->set ? json_integer(p->ns) : json_null());
	json_object_set_new(o, "from", json_string(p->from));
	json_object_set_new(o, "tick_expiries", json_integer(p->votes));
	json_object_set_new(o, "agreeing", json_integer(p->agree));
	json_object_set_new(o, "clock_offset_ns",
			    p->offset_measured ? json_integer(p->offset_ns) : json_null());
	json_object_set_new(o, "records_moved", json_integer((json_int_t)g->moved));
	json_object_set_new(o, "max_move_ns", json_integer(g->max_move_ns));
	json_object_set_new(o, "records_past_half_jiffy", json_integer((json_int_t)g->past_half));
	json_object_set_new(o, "records_edge_not_after_start",
			    json_integer((json_int_t)g->edge_not_after_start));
	return o;
}

static json_t *summary_json(const struct importer *im)
{
	const struct recon *R = &im->R;
	struct rcpu_stats sum;
	json_t *o = json_object(), *ev = json_object(), *sk = json_object(), *w = json_array(),
	       *cpus = json_array(), *unp = json_object(), *reasons = json_object();
	const struct name_entry **names;
	size_t n, i;
	int k, ns;

	recon_total(R, &sum);
	ns = nr_states(im, &sum);
	json_object_set_new(o, "schema", json_string("idlesim-import/1"));
	json_object_set_new(o, "input", json_string(im->name));
	json_object_set_new(o, "format", json_string(import_format_name(im->fmt)));
	json_object_set_new(o, "cpus", json_integer(im->cpus));
	json_object_set_new(o, "cpus_from", json_string(im->cpus_from));
	json_object_set_new(o, "hz", im->hz ? json_integer(im->hz) : json_null());
	json_object_set_new(o, "hz_from", json_string(im->hz_from));
	json_object_set_new(o, "start_ns", json_integer(R->start_ns));
	json_object_set_new(o, "end_ns", json_integer(R->end_ns));
	json_object_set_new(o, "tick_phase", phase_json(&im->phase, &R->grid));
	json_object_set_new(o, "lines", json_integer((json_int_t)im->t.lines));
	json_object_set_new(o, "events_read", json_integer((json_int_t)im->t.events));
	json_object_set_new(o, "events_used", json_integer((json_int_t)im->t.used));
	json_object_set_new(o, "events_skipped", json_integer((json_int_t)im->t.skipped));
	names = sorted_names(im, &n);
	for (i = 0; names && i < n; i++) {
		json_object_set_new(ev, names[i]->name, json_integer((json_int_t)names[i]->count));
		if (names[i]->type == KEV_OTHER)
			json_object_set_new(sk, names[i]->name,
					    json_integer((json_int_t)names[i]->count));
	}
	sim_free(names);
	json_object_set_new(o, "events", ev);
	json_object_set_new(o, "skipped", sk);
	json_object_set_new(o, "bad_lines", json_integer((json_int_t)im->t.bad_lines));
	for (k = 0; k < im->nwarnings; k++)
		json_array_append_new(w, json_string(im->warnings[k]));
	json_object_set_new(o, "warnings", w);
	json_object_set_new(o, "lost",
			    json_pack("{s:I, s:I}", "lines", (json_int_t)im->t.lost_lines, "events",
				      (json_int_t)im->t.lost_events));
	if (im->sorted) {
		json_t *c = json_array();

		for (k = 0; k < TRACE_MAX_CPUS; k++)
			if (im->scan.backwards_cpu[k / 64] >> (k % 64) & 1)
				json_array_append_new(c, json_integer(k));
		json_object_set_new(o, "out_of_order",
				    json_pack("{s:I, s:o, s:I}", "events",
					      (json_int_t)im->scan.backwards, "cpus", c,
					      "held_in_memory", (json_int_t)im->t.sorted_events));
	} else {
		json_object_set_new(o, "out_of_order", json_null());
	}
	json_object_set_new(o, "passes", json_integer(im->two_passes ? 2 : 1));
	json_object_set_new(o, "reread_because",
			    im->restart_why ? json_string(im->restart_why) : json_null());
	json_object_set_new(o, "max_waiting_records", json_integer((json_int_t)R->maxwaiting));
	json_object_set_new(o, "stale_timers", json_integer((json_int_t)R->stale_timers));
	json_object_set_new(o, "merging", json_string(R->merge ? "sched_switch" : "off"));
	json_object_set_new(o, "idle_periods", json_integer((json_int_t)sum.periods));
	json_object_set_new(o, "opportunities", json_integer((json_int_t)sum.opportunities));
	json_object_set_new(o, "merged_periods", json_integer((json_int_t)sum.merged));
	json_object_set_new(o, "started_idle", json_integer((json_int_t)sum.started_idle));
	json_object_set_new(o, "truncated_at_end", json_integer((json_int_t)sum.truncated));
	json_object_set_new(o, "idle_throughout", json_integer((json_int_t)sum.idle_throughout));
	json_object_set_new(o, "zero_length", json_integer((json_int_t)sum.zero_length));
	json_object_set_new(unp, "entries", json_integer((json_int_t)unpaired_sum(&sum, true)));
	json_object_set_new(unp, "exits", json_integer((json_int_t)unpaired_sum(&sum, false)));
	for (k = 0; k < UNP_NR; k++)
		json_object_set_new(reasons, unpaired_reason_name((enum unpaired_reason)k),
				    json_integer((json_int_t)sum.unpaired[k]));
	json_object_set_new(unp, "reasons", reasons);
	json_object_set_new(o, "unpaired", unp);
	json_object_set_new(o, "wake_causes", causes_json(sum.causes));
	json_object_set_new(o, "period_wake_causes", causes_json(sum.period_causes));
	json_object_set_new(o, "sleep_length",
			    json_pack("{s:b, s:s, s:I, s:I}", "known",
				      im->has[KEV_HRTIMER_START] || im->has[KEV_TIMER_START],
				      "assumption", im->assumption, "opportunities_with_next_timer",
				      (json_int_t)sum.with_next_timer, "opportunities_hrtimer_first",
				      (json_int_t)sum.hrtimer_first));
	json_object_set_new(o, "tick_stop",
			    json_pack("{s:I, s:I}", "success", (json_int_t)sum.tick_stop_ok,
				      "failed", (json_int_t)sum.tick_stop_fail));
	for (k = 0; k < im->cpus; k++) {
		const struct rcpu_stats *s = &R->cpu[k].s;

		json_array_append_new(
			cpus, json_pack("{s:i, s:I, s:I, s:I, s:I, s:o}", "cpu", k, "idle_periods",
					(json_int_t)s->periods, "opportunities",
					(json_int_t)s->opportunities, "unpaired_entries",
					(json_int_t)unpaired_sum(s, true), "unpaired_exits",
					(json_int_t)unpaired_sum(s, false), "wake_causes",
					causes_json(s->causes)));
	}
	json_object_set_new(o, "per_cpu", cpus);
	json_object_set_new(o, "recorded", recorded_json(im, &sum, ns));
	if (im->has[KEV_CPU_IDLE_MISS])
		json_object_set_new(o, "miss_check", miss_json(im));
	json_object_set_new(o, "timer_census", census_json(&R->census));
	return o;
}

/* ---- text ---- */

static void causes_text(FILE *f, const uint64_t *c)
{
	int k;

	for (k = 0; k < IC_NR; k++)
		fprintf(f, "%s %s %llu", k ? "," : "", icause_name((enum icause)k),
			(unsigned long long)c[k]);
	fputc('\n', f);
}

static void unpaired_text(FILE *f, const struct rcpu_stats *s, bool entries)
{
	const char *sep = " (";
	int r;

	fprintf(f, "%llu", (unsigned long long)unpaired_sum(s, entries));
	for (r = 0; r < UNP_NR; r++) {
		if (unpaired_is_entry((enum unpaired_reason)r) != entries || !s->unpaired[r])
			continue;
		fprintf(f, "%s%s %llu", sep, unpaired_reason_name((enum unpaired_reason)r),
			(unsigned long long)s->unpaired[r]);
		sep = ", ";
	}
	if (sep[0] == ',')
		fputc(')', f);
}

static void states_text(FILE *f, const struct importer *im, const struct rcpu_stats *s, int ns,
			const char *who)
{
	char buf[16];
	int k;

	for (k = 0; k < ns; k++) {
		if (!s->su[k].usage && strcmp(who, "all"))
			continue;
		fprintf(f, "  %-4s %-8s %10llu %14.3f", who, state_name(im, k, buf, sizeof(buf)),
			(unsigned long long)s->su[k].usage, (double)s->su[k].time_ns / 1e6);
		if (im->opt.machine)
			fprintf(f, " %8llu %8llu", (unsigned long long)s->su[k].above,
				(unsigned long long)s->su[k].below);
		fputc('\n', f);
	}
}

/* The header's tick_phase: its value and the expiries it came from, or why there is none;
 * the tick and wheel wakeups ended at their edge, and those left as recorded. */
static void phase_text(FILE *f, const struct importer *im)
{
	const struct tick_phase *p = &im->phase;
	const struct recon_grid *g = &im->R.grid;

	if (!p->set) {
		fprintf(f, "tick_phase not written (%s): the replay puts a jiffy edge at the "
			   "trace's start\n", p->from);
		return;
	}
	fprintf(f,
		"tick_phase %lld ns written (edges at %lld + k x %lld ns): %d of %d tick "
		"expiries agree (%s); ",
		(long long)p->ns, (long long)p->ns, (long long)im->pc.tick_ns, p->agree, p->votes,
		p->from);
	if (p->offset_measured)
		fprintf(f, "hrtimer clock %+lld ns = trace time (median time - now); ",
			(long long)p->offset_ns);
	else
		fprintf(f, "hrtimer clock = trace time (no tick expiry with now=); ");
	fprintf(f,
		"tick and wheel wakeups ended at their edge: %llu, moved back by at most %lld ns; "
		"left as recorded: %llu half a jiffy or more past it, %llu with the edge not after "
		"their idle period's entry\n",
		(unsigned long long)g->moved, (long long)g->max_move_ns,
		(unsigned long long)g->past_half, (unsigned long long)g->edge_not_after_start);
}

static void summary_text(FILE *f, const struct importer *im)
{
	const struct recon *R = &im->R;
	const struct miss_check *m = &R->miss;
	const struct name_entry **names;
	struct rcpu_stats sum;
	size_t n, i;
	int k, ns;

	recon_total(R, &sum);
	ns = nr_states(im, &sum);
	fprintf(f, "idlesim import: %s (%s), %d CPUs (from %s), ", im->name,
		import_format_name(im->fmt), im->cpus, im->cpus_from);
	if (im->hz)
		fprintf(f, "HZ %d (from %s)\n", im->hz, im->hz_from);
	else
		fprintf(f, "HZ unknown (the replay uses --hz or 250)\n");
	fprintf(f, "time: %lld .. %lld ns (%.6f s)\n", (long long)R->start_ns, (long long)R->end_ns,
		(double)(R->end_ns - R->start_ns) / 1e9);
	phase_text(f, im);
	fprintf(f, "lines %llu; events read %llu, used %llu, skipped %llu",
		(unsigned long long)im->t.lines, (unsigned long long)im->t.events,
		(unsigned long long)im->t.used, (unsigned long long)im->t.skipped);
	names = sorted_names(im, &n);
	for (i = 0, k = 0; names && i < n; i++)
		if (names[i]->type == KEV_OTHER)
			fprintf(f, "%s%s %llu", k++ ? ", " : " (", names[i]->name,
				(unsigned long long)names[i]->count);
	fprintf(f, "%s\nevents read by name:", k ? ")" : "");
	for (i = 0; names && i < n; i++)
		fprintf(f, " %s %llu%s", names[i]->name, (unsigned long long)names[i]->count,
			i + 1 < n ? "," : "");
	sim_free(names);
	fprintf(f, "\nbad lines skipped %llu; lost-events markers %llu (%llu events)\n",
		(unsigned long long)im->t.bad_lines, (unsigned long long)im->t.lost_lines,
		(unsigned long long)im->t.lost_events);
	fprintf(f,
		"read in %d pass%s%s%s; at most %zu records waited to be written in order; "
		"%llu timers forgotten (overdue by 1 s)\n",
		im->two_passes ? 2 : 1, im->two_passes ? "es" : "",
		im->restart_why ? ", again because: " : "", im->restart_why ? im->restart_why : "",
		R->maxwaiting, (unsigned long long)R->stale_timers);
	if (im->sorted) {
		fprintf(f, "timestamps out of order: %llu events, on CPUs",
			(unsigned long long)im->scan.backwards);
		for (k = 0; k < TRACE_MAX_CPUS; k++)
			if (im->scan.backwards_cpu[k / 64] >> (k % 64) & 1)
				fprintf(f, " %d", k);
		fprintf(f,
			"; reordered per CPU and merged by time, holding all %llu used events "
			"in memory\n",
			(unsigned long long)im->t.sorted_events);
	}
	fprintf(f,
		"idle periods (entry -> exit): %llu; merged into the period before "
		"(woken without running a task): %llu%s\n",
		(unsigned long long)sum.periods, (unsigned long long)sum.merged,
		R->merge ? "" : " (no sched_switch events: no merging)");
	fprintf(f,
		"opportunities: %llu; idle since the start: %llu; idle until the end: %llu; "
		"idle throughout: %llu; zero length dropped: %llu\n",
		(unsigned long long)sum.opportunities, (unsigned long long)sum.started_idle,
		(unsigned long long)sum.truncated, (unsigned long long)sum.idle_throughout,
		(unsigned long long)sum.zero_length);
	fprintf(f, "unpaired entries ");
	unpaired_text(f, &sum, true);
	fprintf(f, "; unpaired exits ");
	unpaired_text(f, &sum, false);
	fprintf(f, "\nopportunities woken by:");
	causes_text(f, sum.causes);
	fprintf(f, "periods woken by:");
	causes_text(f, sum.period_causes);
	fprintf(f, "replayed as: tick and timer -> timer, unknown -> irq\n");
	fprintf(f, "%s; %llu opportunities with a pending timer; %llu with an hrtimer first\n",
		im->assumption, (unsigned long long)sum.with_next_timer,
		(unsigned long long)sum.hrtimer_first);
	if (sum.tick_stop_ok || sum.tick_stop_fail)
		fprintf(f, "tick_stop: %llu stopped, %llu failed\n",
			(unsigned long long)sum.tick_stop_ok,
			(unsigned long long)sum.tick_stop_fail);
	fprintf(f, "\n  CPU   periods  opportunities  unpaired(entries/exits)  woken by\n");
	for (k = 0; k < im->cpus; k++) {
		const struct rcpu_stats *s = &R->cpu[k].s;

		fprintf(f, "  %-4d %8llu %14llu %15llu/%-8llu ", k, (unsigned long long)s->periods,
			(unsigned long long)s->opportunities,
			(unsigned long long)unpaired_sum(s, true),
			(unsigned long long)unpaired_sum(s, false));
		causes_text(f, s->causes);
	}
	census_text(f, &R->census);
	if (im->opt.machine)
		fprintf(f, "\nrecorded governor's choices, scored on %s:\n", im->opt.machine->name);
	else
		fprintf(f,
			"\nrecorded governor's choices (no --machine: above/below not scored):\n");
	fprintf(f, "  CPU  state         usage        time_ms%s\n",
		im->opt.machine ? "    above    below" : "");
	states_text(f, im, &sum, ns, "all");
	for (k = 0; k < im->cpus; k++) {
		char who[16];

		snprintf(who, sizeof(who), "%d", k);
		states_text(f, im, &R->cpu[k].s, ns, who);
	}
	if (sum.outside)
		fprintf(f, "  entries of states beyond the table: %llu\n",
			(unsigned long long)sum.outside);
	if (!im->has[KEV_CPU_IDLE_MISS])
		return;
	fprintf(f, "\ncpu_idle_miss check: %llu events (above %llu, below %llu)",
		(unsigned long long)m->events, (unsigned long long)m->above,
		(unsigned long long)m->below);
	if (!im->opt.machine) {
		fprintf(f, "; give --machine to compare them with our classification\n");
		return;
	}
	fprintf(f, "; %llu periods compared: %llu agree, %llu disagree; %llu events unmatched\n",
		(unsigned long long)m->compared, (unsigned long long)m->agree,
		(unsigned long long)m->disagree, (unsigned long long)m->unmatched);
	for (k = 0; k < m->nlist; k++) {
		const struct miss_disagreement *d = &m->list[k];

		fprintf(f, "  CPU %d entry at %lld ns, %s for %lld ns: kernel %s, idlesim %s\n",
			d->cpu, (long long)d->time_ns, R->drv.states[d->state].name,
			(long long)d->residency_ns, verdict_name(d->kernel), verdict_name(d->ours));
	}
	if (m->disagree > (uint64_t)m->nlist)
		fprintf(f, "  ... and %llu more\n", (unsigned long long)(m->disagree - m->nlist));
}

int import_write_summary(FILE *f, const struct importer *im, bool json)
{
	json_t *o;
	int rc;

	if (!json) {
		/* Written whole, then each line wrapped at TEXTWRAP_DEFAULT under its key. */
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (!m) {
			summary_text(f, im);
			return ferror(f) ? -1 : 0;
		}
		summary_text(m, im);
		rc = ferror(m);
		if (fclose(m) || rc) {
			free(text);
			return -1;
		}
		textwrap_puts(f, text, 0, TEXTWRAP_INDENT_KEY);
		free(text);
		return ferror(f) ? -1 : 0;
	}
	o = summary_json(im);
	if (!o)
		return -1;
	rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!rc)
		fputc('\n', f);
	json_decref(o);
	return rc || ferror(f) ? -1 : 0;
}
