// SPDX-License-Identifier: GPL-2.0-only
/*
 * import.c - importing a kernel trace: format detection, the two passes, the record source
 * and the converted trace.
 *
 * Two passes (import_open: a record source, for `idlesim run`, whose header comes first).
 * Pass 1 lexes every line (no reconstruction) to learn, before any record is produced: the
 * CPU count when the header does not give it; the first and last times (the converted
 * trace's start and end); which event groups exist (periods merge only when sched_switch is
 * recorded); the tick rate and the jiffy grid's phase (from the first HZ_SAMPLE_EVENTS
 * events); which CPUs were idle
 * when the trace began (their first idle event is an exit) or have no event at all; and
 * whether timestamps ever go backwards. Pass 2 feeds the reconstruction (sim/import/import_recon.c)
 * as the consumer asks for records.
 *
 * One pass (import_open_convert + import_convert: the converted file, whose header is
 * written last). A first look at the first HZ_SAMPLE_EVENTS events gives the tick rate, the
 * grid's phase and whether sched_switch is recorded; then the trace is read once, records
 * going to a temporary file, those that start with the trace (CPUs idle when it began) kept
 * apart, and the header, those records and the rest are written at the end. A surprise sends
 * it back to two passes from scratch, so both ways give the same file: timestamps going
 * backwards, sched_switch appearing only after the first look, or more CPUs than the first
 * look allocated for (no CPU count in the header, or one given late).
 *
 * When timestamps go backwards, pass 2 loads the used events of the whole trace, sorts them
 * by time (a stable merge sort: per CPU they come in time order, events at equal times in
 * file order, and the CPUs are merged) and feeds them from memory. This is the one case
 * where memory grows with the trace; the summary says so.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/base/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- errors ---- */

static int clamp_line(long line)
{
	return line > INT_MAX ? INT_MAX : (int)line;
}

/* A malformed line: an error, or with --skip-bad-lines a counted warning (pass 2 only). */
static int bad_line(struct importer *im, long line, int col, const char *msg, bool count,
		    struct sim_error *err)
{
	if (!im->opt.skip_bad_lines)
		return sim_error_set(err, SIM_ERR_INPUT, im->name, clamp_line(line), col, "%s",
				     msg);
	if (!count)
		return 0;
	im->t.bad_lines++;
	if (im->nwarnings < IMP_MAX_WARNINGS) {
		char w[sizeof(im->warnings[0])];

		/* Formatted apart, then copied: GCC cannot tell im->name from the slot. */
		if (line > 0)
			snprintf(w, sizeof(w), "%s:%ld:%d: %s", im->name, line, col, msg);
		else
			snprintf(w, sizeof(w), "%s: %s", im->name, msg);
		memcpy(im->warnings[im->nwarnings++], w, sizeof(w));
	}
	return 0;
}

const char *import_warning(const struct importer *im, int i)
{
	return i >= 0 && i < im->nwarnings ? im->warnings[i] : NULL;
}

unsigned long long import_bad_lines(const struct importer *im)
{
	return im->t.bad_lines;
}

/* CPUs a line may name: --cpus, else the count the trace gave so far in this reading. */
static int cpu_limit(const struct importer *im)
{
	if (im->opt.cpus)
		return im->opt.cpus;
	return im->lx.declared_cpus ? im->lx.declared_cpus : TRACE_MAX_CPUS;
}

/* ---- reading events, both passes ---- */

static int deliver(struct importer *im, const struct kevent *ev, struct sim_error *err)
{
	if (!im->sorted) {
		if (recon_event(&im->R, ev))
			return sim_error_nomem(err, im->name);
		return 0;
	}
	if (sim_grow((void **)&im->evs, &im->capev, im->nev + 1, sizeof(*im->evs)))
		return sim_error_nomem(err, im->name);
	im->evs[im->nev++] = *ev;
	return 0;
}

/* An event of a used type, its payload parsed: to the reconstruction or the sort buffer. */
static int use_event(struct importer *im, struct kevent *ev, struct sim_error *err)
{
	int k;

	im->t.used++;
	if (ev->type != KEV_IPI_RAISE)
		return deliver(im, ev, err);
	for (k = 0; k < im->pc.cpus; k++) {
		if (!(im->pc.mask[k / 64] >> (k % 64) & 1))
			continue;
		ev->v = k;
		if (deliver(im, ev, err))
			return -1;
	}
	return 0;
}

static int lost(struct importer *im, int cpu, int64_t t, struct sim_error *err)
{
	struct kevent ev = {.time_ns = t, .cpu = cpu, .type = KEV_LOST};

	im->t.lost_lines++;
	if (cpu >= cpu_limit(im))
		return 0;
	if (!im->sorted) {
		if (recon_lost(&im->R, cpu, t))
			return sim_error_nomem(err, im->name);
		return 0;
	}
	return deliver(im, &ev, err);
}

/*
 * An event line or record, lexed and with its CPU checked (cpu_idle payloads parsed too),
 * at the point where pass 1 notes it. Pass 1 stops here; the single pass of one-pass mode
 * checks time order; pass 2 counts it and delivers it when its type is used.
 */
static int noted(struct importer *im, bool pass2, struct name_entry *ne, struct kevent *ev)
{
	if (!pass2) {
		scan_note(&im->scan, ev->cpu, ev->time_ns, (enum kev_type)ne->type, ev->v);
		if (ev->type == KEV_HRTIMER_START && (ev->flags & KF_TICK) && ev->a >= 0)
			scan_note_tick(&im->scan, ev->cpu, ev->a);
		else if (ev->type == KEV_HRTIMER_EXPIRE && (ev->flags & KF_TICK))
			scan_note_tick_expiry(&im->scan, ev->cpu, ev->time_ns, ev->a);
		return 0;
	}
	if (im->one_pass) {
		if (im->t.events && ev->time_ns < im->max_ns) {
			im->restart = true;
			im->restart_why = "timestamps go backwards";
			return -1;
		}
		im->max_ns = ev->time_ns;
		if (ev->cpu > im->max_cpu)
			im->max_cpu = ev->cpu;
	}
	if (!im->sorted)
		recon_seen(&im->R, ev->cpu, ev->time_ns);
	ne->count++;
	im->t.events++;
	im->last_ns = ev->time_ns;
	im->has[ne->type] = true;
	return 1;
}

/* An event line lexed, its name looked up and its payload parsed: noted, then used or
 * counted as skipped. Returns 0, or -1 with err set (or im->restart). */
static int text_event(struct importer *im, struct name_entry *ne, struct kevent *ev, bool pass2,
		      struct sim_error *err)
{
	int rc = noted(im, pass2, ne, ev);

	if (rc <= 0)
		return rc;
	if (ev->type == KEV_OTHER) {
		im->t.skipped++;
		return 0;
	}
	return use_event(im, ev, err);
}

/* One line of a text trace. Returns 0, or -1 with err set (or im->restart). */
static int text_line(struct importer *im, const char *line, size_t len, bool pass2,
		     struct sim_error *err)
{
	struct lexed x;
	struct kevent ev;
	struct name_entry *ne;
	long ln = im->ls.lineno;
	int r = lex_line(&im->lx, line, len, &x);

	if (pass2)
		im->t.lines++;
	if (r == LEX_SKIP)
		return 0;
	if (r == LEX_LOST)
		return pass2 ? lost(im, im->lx.lost_cpu, im->last_ns, err) : 0;
	if (r == LEX_BAD)
		return bad_line(im, ln, im->lx.bad_col, im->lx.bad_msg, pass2, err);
	if (x.cpu >= cpu_limit(im)) {
		char msg[96];

		snprintf(msg, sizeof(msg), "CPU %d out of range: the trace has %d CPUs", x.cpu,
			 cpu_limit(im));
		return bad_line(im, ln, lex_col(line, x.cpu_at), msg, pass2, err);
	}
	ne = names_lookup(&im->names, x.name, x.name_len);
	if (!ne)
		return sim_error_nomem(err, im->name);
	if (ne == &im->names.invalid)
		return bad_line(im, ln, lex_col(line, x.name), "malformed event name", pass2, err);
	memset(&ev, 0, sizeof(ev));
	ev.time_ns = x.time_ns;
	ev.cpu = x.cpu;
	ev.type = ne->type;
	ev.line = ln;
	im->pc.cpus = cpu_limit(im);
	if (ev.type != KEV_OTHER && lex_payload(&im->lx, &im->pc, &x, &ev) == LEX_BAD)
		return bad_line(im, ln, im->lx.bad_col, im->lx.bad_msg, pass2, err);
	return text_event(im, ne, &ev, pass2, err);
}


/* Line im->ls.lineno is longer than IMP_MAX_LINE: 0 (skipped) or -1 with err set. */
static int long_line(struct importer *im, bool pass2, struct sim_error *err)
{
	if (pass2)
		im->t.lines++;
	return bad_line(im, im->ls.lineno, 1, "line longer than 1 MiB", pass2, err);
}

/* What the parse threads hand back to this file (import_par.c). */
static const struct par_feed par_feed = {text_line, text_event, long_line};

/* The next line of the text trace through text_line(): 1, 0 at the end, -1 error. */
static int text_step(struct importer *im, bool pass2, struct sim_error *err)
{
	const char *line;
	size_t len;
	int rc;

	if (im->par)
		return par_step(im, pass2, err);
	rc = linesrc_next(&im->ls, &line, &len);
	if (rc == 1)
		return text_line(im, line, len, pass2, err) ? -1 : 1;
	if (rc == 0)
		return 0;
	if (rc == -3)
		return sim_error_nomem(err, im->name);
	if (rc == -2)
		return long_line(im, pass2, err) ? -1 : 1;
	return sim_error_set(err, SIM_ERR_IO, im->name, 0, 0, "read error: %s", strerror(errno));
}

static int dat_step(struct importer *im, bool pass2, struct sim_error *err)
{
	struct dat_event e;
	struct name_entry *ne;
	struct kevent ev;
	char msg[160];
	int rc = dat_next(im->dat, &e, err);

	if (rc <= 0)
		return rc;
	if (pass2)
		im->t.lines++;
	if (e.cpu >= cpu_limit(im)) {
		snprintf(msg, sizeof(msg), "event at %lld ns on CPU %d: out of range (%d CPUs)",
			 (long long)e.time_ns, e.cpu, cpu_limit(im));
		return bad_line(im, 0, 0, msg, pass2, err) ? -1 : 1;
	}
	ne = names_lookup(&im->names, e.name, e.name_len);
	if (!ne)
		return sim_error_nomem(err, im->name);
	if (ne == &im->names.invalid)
		ne = &im->names.other;
	memset(&ev, 0, sizeof(ev));
	ev.time_ns = e.time_ns;
	ev.cpu = e.cpu;
	ev.type = ne->type;
	snprintf(msg, sizeof(msg), "%s event at %lld ns on CPU %d: a field is missing or invalid",
		 ne->name, (long long)e.time_ns, e.cpu);
	if (ev.type != KEV_OTHER && dat_payload(im->dat, &im->pc, &ev))
		return bad_line(im, 0, 0, msg, pass2, err) ? -1 : 1;
	rc = noted(im, pass2, ne, &ev);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	if (e.missed) {
		im->t.lost_events += e.missed > 0 ? (uint64_t)e.missed : 0;
		if (lost(im, e.cpu, e.time_ns, err))
			return -1;
	}
	if (ev.type == KEV_OTHER) {
		im->t.skipped++;
		return 1;
	}
	return use_event(im, &ev, err) ? -1 : 1;
}

static int step(struct importer *im, bool pass2, struct sim_error *err)
{
	return im->dat ? dat_step(im, pass2, err) : text_step(im, pass2, err);
}

static int rewind_input(struct importer *im, struct sim_error *err)
{
	im->lx.declared_cpus = 0; /* each reading meets the header lines in order */
	if (im->dat)
		return dat_rewind(im->dat, err);
	par_stop(im);
	if (linesrc_rewind(&im->ls))
		return sim_error_set(err, SIM_ERR_IO, im->name, 0, 0, "cannot rewind: %s",
				     strerror(errno));
	/* a text trace in a file, with --jobs: lexed ahead by parse threads (import_par.c) */
	if (im->opt.jobs > 1 && im->fmt != IMPORT_SYSTRACE && par_start(im, &par_feed))
		return sim_error_nomem(err, im->name);
	return 0;
}

/* ---- sorted mode ---- */

static void merge_sort(struct kevent *a, struct kevent *tmp, size_t n)
{
	size_t w, i;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t l = i, m = i + w < n ? i + w : n, r = m;
			size_t e = i + 2 * w < n ? i + 2 * w : n, k = i;

			while (l < m && r < e)
				tmp[k++] = a[r].time_ns < a[l].time_ns ? a[r++] : a[l++];
			while (l < m)
				tmp[k++] = a[l++];
			while (r < e)
				tmp[k++] = a[r++];
		}
		memcpy(a, tmp, n * sizeof(*a));
	}
}

static int load_sorted(struct importer *im, struct sim_error *err)
{
	struct kevent *tmp;
	size_t i;
	int rc;

	while ((rc = step(im, true, err)) > 0)
		;
	if (rc < 0)
		return -1;
	tmp = sim_malloc(im->nev ? im->nev * sizeof(*tmp) : 1);
	if (!tmp)
		return sim_error_nomem(err, im->name);
	merge_sort(im->evs, tmp, im->nev);
	sim_free(tmp);
	im->t.sorted_events = im->nev;
	scan_reorder(&im->scan);
	for (i = 0; i < im->nev; i++)
		if (im->evs[i].type != KEV_LOST)
			scan_prologue(&im->scan, im->evs[i].cpu, (enum kev_type)im->evs[i].type,
				      im->evs[i].v);
	return 0;
}

/* ---- the record stream ---- */

/* Feed one more event (or the end) to the reconstruction: 1, 0 at the end, -1 error. */
static int feed(struct importer *im, struct sim_error *err)
{
	const struct kevent *ev;
	int rc;

	if (!im->sorted)
		return step(im, true, err);
	if (im->iev == im->nev)
		return 0;
	ev = &im->evs[im->iev++];
	if (im->sorted)
		recon_seen(&im->R, ev->cpu, ev->time_ns);
	rc = ev->type == KEV_LOST ? recon_lost(&im->R, ev->cpu, ev->time_ns)
				  : recon_event(&im->R, ev);
	return rc ? sim_error_nomem(err, im->name) : 1;
}

/*
 * A trace that yields no idle record has nothing to replay: most likely power:cpu_idle was
 * not recorded. That is an error, not an empty success.
 */
static int check_some_records(struct importer *im, struct sim_error *err)
{
	struct rcpu_stats sum;

	recon_total(&im->R, &sum);
	if (sum.opportunities + sum.started_idle + sum.truncated + sum.idle_throughout)
		return 0;
	return sim_error_set(err, SIM_ERR_INPUT, im->name, 0, 0,
			     "no idle period found (%llu events read, %s): nothing to replay; "
			     "record the power:cpu_idle event (docs/import.md)",
			     (unsigned long long)im->t.events,
			     im->has[KEV_CPU_IDLE] ? "no complete cpu_idle entry and exit"
						   : "none of them power:cpu_idle");
}

int import_next(struct importer *im, struct trace_record *rec, struct sim_error *err)
{
	int rc;

	if (im->err.code == SIM_OK && !im->recon_ready)
		sim_error_set(&im->err, SIM_ERR_INTERNAL, im->name, 0, 0, "importer not ready");
	while (im->err.code == SIM_OK && !im->restart) {
		if (recon_pop(&im->R, rec))
			return 1;
		if (im->done) {
			if (im->R.written || !check_some_records(im, &im->err))
				return 0;
			break;
		}
		rc = feed(im, &im->err);
		if (rc == 0) {
			if (recon_finish(&im->R))
				sim_error_nomem(&im->err, im->name);
			im->done = true;
		}
	}
	if (err && !im->restart)
		*err = im->err;
	return -1;
}

static int src_next(void *ctx, struct trace_record *rec, struct sim_error *err)
{
	return import_next(ctx, rec, err);
}

static int src_error(void *ctx, const struct trace_record *rec, struct sim_error *err,
		     const char *msg)
{
	struct importer *im = ctx;

	return sim_error_set(err, SIM_ERR_INPUT, im->name, 0, 0,
			     "converted record %ld (CPU %d at %lld ns): %s", rec->index, rec->cpu,
			     (long long)rec->time_ns, msg);
}

void record_source_from_import(struct record_source *src, struct importer *im)
{
	src->hdr = &im->hdr;
	src->next = src_next;
	src->error_at = src_error;
	src->ctx = im;
}

const struct trace_header *import_header(const struct importer *im)
{
	return &im->hdr;
}

/* ---- opening ---- */

static int open_input(struct importer *im, const char *path, struct sim_error *err)
{
	char *buf;
	ssize_t n;
	bool event, bom;

	if (!strcmp(path, "-")) {
		/* read more than once (two passes; libtracecmd wants a file) */
		im->fd = spool_stdin(err);
		if (im->fd < 0)
			return -1;
	} else if ((im->fd = open(path, O_RDONLY)) < 0) {
		return sim_error_set(err, SIM_ERR_IO, im->name, 0, 0, "cannot open: %s",
				     strerror(errno));
	}
	if (im->fmt_forced)
		return 0;
	buf = sim_malloc(IMPORT_SNIFF_BYTES);
	if (!buf)
		return sim_error_nomem(err, im->name);
	n = import_read_prefix(im->fd, buf, IMPORT_SNIFF_BYTES, -1);
	im->fmt = n > 0 ? import_sniff(buf, (size_t)n, &event) : IMPORT_AUTO;
	bom = n > 0 && sim_has_bom(buf, (size_t)n);
	sim_free(buf);
	if (n < 0 || lseek(im->fd, 0, SEEK_SET) < 0)
		return sim_error_set(err, SIM_ERR_IO, im->name, 0, 0, "cannot read: %s",
				     strerror(errno));
	if (im->fmt == IMPORT_NATIVE)
		return sim_error_set(err, SIM_ERR_INPUT, im->name, 0, 0,
				     "this is an idlesim trace already: replay it with idlesim run "
				     "--trace");
	if (im->fmt == IMPORT_AUTO && bom)
		return sim_error_set(err, SIM_ERR_INPUT, im->name, 1, 1, SIM_BOM_MESSAGE);
	if (im->fmt == IMPORT_AUTO)
		return sim_error_set(
			err, SIM_ERR_INPUT, im->name, n > 0 ? 1 : 0, n > 0 ? 1 : 0,
			"not a kernel trace: no ftrace, trace-cmd report, perf script, "
			"systrace or trace.dat content found (--input-format forces one)");
	return 0;
}

static void describe(struct importer *im)
{
	struct trace_header *h = &im->hdr;
	const bool *has = im->one_pass ? im->has : im->scan.has; /* what the reading so far saw */

	if (has[KEV_HRTIMER_START] || has[KEV_TIMER_START])
		snprintf(im->assumption, sizeof(im->assumption),
			 "sleep lengths: the earliest non-tick timer pending at each opportunity's "
			 "start that is due no earlier than its wakeup");
	else
		snprintf(im->assumption, sizeof(im->assumption),
			 "sleep length unknown (no timer events): irq/ipi opportunities are "
			 "replayed "
			 "with no timer pending (sleep length KTIME_MAX, only the tick bounds it)");
	memset(h, 0, sizeof(*h));
	h->version = TRACE_VERSION;
	h->cpus = im->cpus;
	h->hz = im->hz;
	/* the grid the records' tick and wheel wakeups were ended on (set_hz) */
	h->has_tick_phase = im->phase.set;
	h->tick_phase_ns = im->phase.ns;
	h->has_start = h->has_end = im->R.started;
	h->start_ns = im->R.start_ns;
	h->end_ns = im->R.end_ns;
	if (im->opt.machine)
		snprintf(h->machine, sizeof(h->machine), "%s", im->opt.machine->name);
	snprintf(h->source, sizeof(h->source), "%s (%s, %d CPUs); %s",
		 im->opt.command ? im->opt.command : "idlesim import", import_format_name(im->fmt),
		 im->cpus, im->assumption);
}

/*
 * The tick rate and the jiffy grid's phase, from the first HZ_SAMPLE_EVENTS events: both
 * ways through a trace have read them (pass 1, or the first look) before the reconstruction
 * starts, so every record can end on the grid (recon_init).
 */
static void set_hz(struct importer *im)
{
	im->hz = im->opt.hz ? im->opt.hz : scan_hz(&im->scan);
	im->hz_from = im->opt.hz ? "--hz" : im->hz ? "the tick's hrtimer" : "unknown";
	im->pc.tick_ns = (SIM_NS_PER_S + (im->hz ? im->hz : 250) / 2) / (im->hz ? im->hz : 250);
	scan_tick_phase(&im->scan, im->hz ? im->pc.tick_ns : 0, &im->phase);
}

/* The CPU count, from --cpus, the header, or `highest` (the highest CPU seen). */
static int set_cpus(struct importer *im, int highest, struct sim_error *err)
{
	if (im->dat)
		im->cpus = dat_cpus(im->dat), im->cpus_from = "the trace.dat header";
	if (im->opt.cpus)
		im->cpus = im->opt.cpus, im->cpus_from = "--cpus";
	else if (!im->dat && im->lx.declared_cpus)
		im->cpus = im->lx.declared_cpus, im->cpus_from = "the trace header";
	else if (!im->dat)
		im->cpus = highest + 1, im->cpus_from = "the highest CPU seen";
	if (im->cpus <= highest)
		im->cpus = highest + 1, im->cpus_from = "the highest CPU seen";
	if (im->cpus < 1)
		return sim_error_set(err, SIM_ERR_INPUT, im->name, 0, 0,
				     "no events: nothing to import");
	im->pc.cpus = im->cpus;
	return 0;
}

/* Everything learned from a reading, forgotten before the next. */
static int reset(struct importer *im, struct sim_error *err)
{
	uint32_t i;

	recon_release(&im->R);
	im->recon_ready = false;
	scan_release(&im->scan);
	if (scan_init(&im->scan))
		return sim_error_nomem(err, im->name);
	for (i = 0; i < im->names.cap; i++)
		im->names.e[i].count = 0;
	im->names.other.count = 0;
	memset(&im->t, 0, sizeof(im->t));
	memset(im->has, 0, sizeof(im->has));
	im->lx.declared_cpus = 0;
	im->cpus = 0;
	im->last_ns = im->max_ns = 0;
	im->max_cpu = -1;
	im->restart = im->sorted = im->done = false;
	sim_free(im->evs);
	im->evs = NULL;
	im->nev = im->capev = im->iev = 0;
	im->nwarnings = 0;
	im->pc.cpus = TRACE_MAX_CPUS;
	im->pc.max_named = -1;
	im->pc.tick_ns = 4000000;
	return rewind_input(im, err);
}

/* Two passes: pass 1, then everything set up for pass 2. */
static int two_passes(struct importer *im, struct sim_error *err)
{
	int rc;

	im->one_pass = false;
	im->two_passes = true;
	if (reset(im, err))
		return -1;
	while ((rc = step(im, false, err)) > 0)
		;
	if (rc < 0)
		return -1;
	if (!im->dat && im->fmt == IMPORT_SYSTRACE && !im->ls.blocks)
		return sim_error_set(err, SIM_ERR_INPUT, im->name, 0, 0,
				     "no <script class=\"trace-data\"> block with ftrace text");
	if (set_cpus(im, sim_max64(im->scan.max_cpu, im->pc.max_named), err))
		return -1;
	set_hz(im);
	im->sorted = im->scan.backwards > 0;
	if (rewind_input(im, err) || (im->sorted && load_sorted(im, err)))
		return -1;
	im->pc.cpus = im->cpus;
	if (recon_init(&im->R, &im->scan, im->cpus, &im->opt, im->scan.has[KEV_SCHED_SWITCH],
		       &im->fns, &im->phase, im->pc.tick_ns))
		return sim_error_nomem(err, im->name);
	im->recon_ready = true;
	describe(im);
	return 0;
}

static struct importer *open_common(const char *path, const struct import_options *o,
				    struct sim_error *err)
{
	struct importer *im = sim_calloc(1, sizeof(*im));

	if (!im) {
		sim_error_nomem(err, path);
		return NULL;
	}
	im->fd = -1;
	im->opt = *o;
	snprintf(im->name, sizeof(im->name), "%s",
		 o->name ? o->name : strcmp(path, "-") ? path : "<stdin>");
	im->fmt = o->format;
	im->pc.fns = &im->fns;
	im->fmt_forced = o->format != IMPORT_AUTO;
	if (names_init(&im->names) || fn_init(&im->fns) || scan_init(&im->scan)) {
		sim_error_nomem(err, im->name);
		goto fail;
	}
	if (open_input(im, path, err))
		goto fail;
	im->lx.fmt = im->fmt;
	if (im->fmt == IMPORT_TRACE_DAT) {
		char fdpath[64];

		/* standard input: libtracecmd opens the spooled copy through /proc */
		im->dat = dat_open(strcmp(path, "-") ? path : spool_path(im->fd, fdpath,
									  sizeof(fdpath)),
				   im->name, err);
		if (!im->dat)
			goto fail;
		close(im->fd);
		im->fd = -1;
	} else if (linesrc_init(&im->ls, im->fd, im->fmt == IMPORT_SYSTRACE)) {
		sim_error_nomem(err, im->name);
		goto fail;
	}
	return im;
fail:
	import_close(im);
	return NULL;
}

struct importer *import_open(const char *path, const struct import_options *o,
			     struct sim_error *err)
{
	struct importer *im = open_common(path, o, err);

	if (im && two_passes(im, err)) {
		import_close(im);
		return NULL;
	}
	return im;
}

struct importer *import_open_convert(const char *path, const struct import_options *o,
				     struct sim_error *err)
{
	struct importer *im = open_common(path, o, err);

	if (im)
		im->one_pass = true;
	return im;
}

/* ---- converting ---- */

static int write_header(struct importer *im, FILE *out)
{
	return trace_write_header(out, &im->hdr) < 0 ||
			       fprintf(out, "# converted by idlesim import from %s (%s)\n# %s\n",
				       im->name, import_format_name(im->fmt), im->assumption) < 0
		       ? -1
		       : 0;
}

/* The records of the single pass on their way to the temporary body: formatted straight
 * into a buffer that is written when nearly full, not one fwrite a record. */
struct body_writer {
	FILE *f; /* NULL: nothing is written */
	size_t len;
	char buf[64 * 1024];
};

static int body_flush(struct body_writer *w)
{
	size_t n = w->len;

	w->len = 0;
	return w->f && fwrite(w->buf, 1, n, w->f) != n ? -1 : 0;
}

static int body_put(struct body_writer *w, const struct trace_record *rec, struct sim_error *err)
{
	if (!w->f)
		return 0;
	if (sizeof(w->buf) - w->len < TRACE_RECORD_MAX && body_flush(w))
		return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
	w->len += trace_format_record(w->buf + w->len, rec);
	return 0;
}

/*
 * The single pass: a first look at the head of the trace, then every event once, records
 * to `body` except those from the trace's start (recon_prologue). Returns 0, -1 with err
 * set, or -1 with im->restart set when the trace must be read in two passes instead.
 */
static int one_pass(struct importer *im, struct body_writer *body, struct sim_error *err)
{
	struct trace_record rec;
	bool merge;
	int rc, cpus;

	if (reset(im, err))
		return -1;
	while (im->scan.events < HZ_SAMPLE_EVENTS && (rc = step(im, false, err)) > 0)
		;
	if (err->code != SIM_OK)
		return -1;
	set_hz(im);
	merge = im->scan.has[KEV_SCHED_SWITCH];
	/* the header's count, if the first look met one, else the CPUs it saw (read again in
	 * two passes if more turn up) */
	cpus = im->dat && !im->opt.cpus ? dat_cpus(im->dat) : cpu_limit(im);
	if (cpus == TRACE_MAX_CPUS && !im->opt.cpus && im->scan.any)
		cpus = (int)sim_max64(im->scan.max_cpu, im->pc.max_named) + 1;
	if (rewind_input(im, err))
		return -1;
	if (recon_init(&im->R, NULL, cpus, &im->opt, merge, &im->fns, &im->phase, im->pc.tick_ns))
		return sim_error_nomem(err, im->name);
	im->recon_ready = true;
	do {
		while (recon_pop(&im->R, &rec))
			if (body_put(body, &rec, err))
				return -1;
	} while ((rc = feed(im, err)) > 0);
	if (rc < 0)
		return -1;
	if (!im->dat && im->fmt == IMPORT_SYSTRACE && !im->ls.blocks)
		return sim_error_set(err, SIM_ERR_INPUT, im->name, 0, 0,
				     "no <script class=\"trace-data\"> block with ftrace text");
	if (im->has[KEV_SCHED_SWITCH] != merge) {
		im->restart = true;
		im->restart_why = "sched_switch events only after the first look";
		return -1;
	}
	if (set_cpus(im, sim_max64(im->max_cpu, im->pc.max_named), err))
		return -1;
	if (im->cpus > im->R.cpus) { /* more CPUs than the first look saw */
		im->restart = true;
		im->restart_why = "more CPUs than the first look saw";
		return -1;
	}
	im->R.cpus = im->cpus; /* the CPUs past the count saw nothing */
	if (recon_finish(&im->R))
		return sim_error_nomem(err, im->name);
	im->done = true;
	while (recon_pop(&im->R, &rec))
		if (body_put(body, &rec, err))
			return -1;
	if (body_flush(body))
		return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
	if (check_some_records(im, err))
		return -1;
	describe(im);
	return 0;
}

/* The body after the header: copied inside the kernel (sendfile) when out has a file
 * descriptor that takes it, else through a buffer. */
static int copy_body(FILE *body, FILE *out)
{
	char buf[65536];
	struct stat st;
	off_t off = 0;
	ssize_t k = 0;
	size_t n;

	if (fflush(body) || fseek(body, 0, SEEK_SET))
		return -1;
	if (fileno(out) >= 0 && !fstat(fileno(body), &st) && !fflush(out)) {
		while (off < st.st_size && (k = sendfile(fileno(out), fileno(body), &off,
							 (size_t)(st.st_size - off))) > 0)
			;
		if (off == st.st_size)
			return 0;
		if (off > 0 || k == 0 || (errno != EINVAL && errno != ENOSYS))
			return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), body)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			return -1;
	return ferror(body) ? -1 : 0;
}

int import_convert(struct importer *im, FILE *out, struct sim_error *err)
{
	struct trace_record rec;
	struct body_writer *bw;
	FILE *body = NULL;
	size_t i;
	int rc;

	if (im->one_pass) {
		if (out && !(body = tmpfile()))
			return sim_error_set(err, SIM_ERR_IO, "", 0, 0,
					     "cannot create a temporary file");
		bw = sim_malloc(sizeof(*bw));
		if (!bw) {
			if (body)
				fclose(body);
			return sim_error_nomem(err, im->name);
		}
		bw->f = body;
		bw->len = 0;
		rc = one_pass(im, bw, err);
		sim_free(bw);
		if (rc == 0 && out) {
			if (write_header(im, out))
				rc = -1;
			for (i = 0; rc == 0 && recon_prologue(&im->R, i, &rec); i++)
				rc = trace_write_record(out, &rec);
			if (rc == 0)
				rc = copy_body(body, out);
			if (rc)
				sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
		}
		if (body)
			fclose(body);
		if (rc == 0 || !im->restart)
			return rc;
		/* a surprise: read it again, in two passes */
		if (two_passes(im, err))
			return -1;
	}
	if (out && write_header(im, out))
		return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
	while ((rc = import_next(im, &rec, err)) > 0)
		if (out && trace_write_record(out, &rec))
			return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
	return rc;
}

/* ---- periodic timers, from the census (here: import_event.c names the tick) ---- */

/*
 * A row is periodic when it expired at least 3 times, the median of its intervals is above
 * 0, and at least half of the sampled intervals (all of them up to CENSUS_SAMPLES) are within
 * a tenth of that median: |interval - median| <= median / 10. The tick's hrtimer is not a
 * timer to replay (the engine has its own tick), nor are "(unknown)" and "(other)", which
 * are not one callback.
 */
static bool row_periodic(const struct census *C, const struct census_row *r)
{
	const char *name = fn_name(C->fns, r->fn);
	int64_t m = sample_median(&r->period);
	size_t i, near = 0;

	if (r->cpu < 0 || r->fn == FN_UNKNOWN || r->fn == FN_OTHER || r->expired < 3 || m <= 0)
		return false;
	if (r->kind == TM_HRTIMER && timer_function_is_tick(name, strlen(name)))
		return false;
	for (i = 0; i < r->period.n; i++) {
		int64_t d = r->period.v[i] - m;

		near += (d < 0 ? -d : d) <= m / 10;
	}
	return 2 * near >= r->period.n;
}

static int by_cpu_name(const void *a, const void *b)
{
	const struct import_periodic_timer *x = a, *y = b;
	int c = strcmp(x->function, y->function);

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (c)
		return c;
	return (int)y->hrtimer - (int)x->hrtimer;
}

static int census_periodic(const struct census *C, struct import_timer_list *out)
{
	size_t i, cap = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < C->nrow; i++) {
		const struct census_row *r = &C->row[i];
		struct import_periodic_timer *t;

		if (!row_periodic(C, r))
			continue;
		if (sim_grow((void **)&out->t, &cap, out->n + 1, sizeof(*out->t))) {
			sim_free(out->t);
			memset(out, 0, sizeof(*out));
			return -1;
		}
		t = &out->t[out->n++];
		memset(t, 0, sizeof(*t));
		t->cpu = r->cpu;
		snprintf(t->function, sizeof(t->function), "%s", fn_name(C->fns, r->fn));
		t->hrtimer = r->kind == TM_HRTIMER;
		t->pinned = r->pinned;
		t->deferrable = r->deferrable;
		t->period_ns = sample_median(&r->period);
		t->expired = r->expired;
	}
	if (out->n)
		qsort(out->t, out->n, sizeof(*out->t), by_cpu_name);
	return 0;
}

/* The single pass of import_convert() with nothing written, then the census's periodic rows. */
int import_periodic_timers(const char *path, const struct import_options *o,
			   struct import_timer_list *out, struct sim_error *err)
{
	struct importer *im = import_open_convert(path, o, err);
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!im)
		return -1;
	if (!import_convert(im, NULL, err)) {
		rc = census_periodic(&im->R.census, out);
		if (rc)
			sim_error_nomem(err, im->name);
	}
	import_close(im);
	return rc;
}

void import_timer_list_release(struct import_timer_list *l)
{
	if (!l)
		return;
	sim_free(l->t);
	memset(l, 0, sizeof(*l));
}

void import_close(struct importer *im)
{
	if (!im)
		return;
	if (im->dat)
		dat_close(im->dat);
	par_stop(im);
	if (im->fd >= 0)
		close(im->fd);
	linesrc_release(&im->ls);
	names_release(&im->names);
	fn_release(&im->fns);
	scan_release(&im->scan);
	recon_release(&im->R);
	sim_free(im->evs);
	sim_free(im);
}
