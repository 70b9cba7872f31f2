// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_check.c - what the text and JSON readers and the writer of the native trace format
 * share: errors placed at a column or at a JSON member, the tables of record kinds, fields,
 * wake causes and timer kinds, and the checks that a record passes once its values are read.
 *
 * What the reader checks. Everything FORMAT.md calls an error that the records alone can
 * show: the magic line and its version; the directives (known, each at most once, in range,
 * all before the first record, `cpus` present, `end` not before `start`); in each record the
 * fixed fields, the optional keys (known for the kind, each at most once), value ranges,
 * timer ID syntax, next_timer against LENGTH and CAUSE, EXPIRY not before TIME; and across
 * records that CPUs are below `cpus`, that one family of records is used, that records lie
 * within [start, end] and that time never goes back: globally, and per CPU for idle
 * intervals (a period must not start before the previous one of its CPU ended; after one
 * with resched=0 the CPU never left the idle loop, so the next must start just when it ended,
 * and the trace must not end there). What needs the engine's state (was a CPU idle when a
 * `busy` record arrived?) is the engine's job.
 * JSON scenarios go through the same checks once their values are out of the document.
 *
 * Both readers only get the values out of their syntax (sim/trace/trace.c, sim/trace/trace_json.c) and
 * hand them to the checks here, so that a record means the same and fails with the same
 * message in either form.
 */
#include "sim/trace/trace_int.h"
#include "sim/base/alloc.h"
#include "sim/base/jsonpos.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#define IOWAIT_MAX 65535
#define ID_MAX (TRACE_ID_LEN - 1)

/* The names of wake causes and timer kinds, as the format writes them. */
const char *wake_cause_name(enum wake_cause c)
{
	switch (c) {
	case WAKE_TIMER:
		return "timer";
	case WAKE_IRQ:
		return "irq";
	case WAKE_IPI:
		return "ipi";
	case WAKE_TICK:
		return "tick";
	case WAKE_POLL:
		return "poll";
	default:
		return "?";
	}
}

const char *timer_kind_name(enum timer_kind k)
{
	return k == TIMER_HRTIMER ? "hrtimer" : k == TIMER_WHEEL ? "wheel" : "?";
}

const struct kind_info trace_kinds[] = {
	[TRACE_IDLE] = {"idle", FB(F_CPU) | FB(F_TIME) | FB(F_LENGTH) | FB(F_CAUSE),
			FB(F_NEXT_TIMER) | FB(F_TKIND) | FB(F_NEXT_WHEEL) | FB(F_IOWAIT) |
				FB(F_LOAD) | FB(F_RESCHED) | FB(F_KEEP_TICK) | FB(F_SLACK),
			"next_timer, timer, next_wheel, iowait, load, resched, keep_tick or slack",
			"type, cpu, start, length, cause, next_timer, timer, next_wheel, iowait, "
			"load, resched, keep_tick or slack"},
	[TRACE_TIMER] = {"timer", FB(F_CPU) | FB(F_TIME) | FB(F_ID) | FB(F_EXPIRY),
			 FB(F_PERIOD) | FB(F_RESCHED) | FB(F_TKIND) | FB(F_DEFERRABLE) | FB(F_SLACK) |
				 FB(F_GLOBAL),
			 "period, resched, kind, deferrable, slack or global",
			 "type, cpu, time, id, expiry, period, resched, kind, deferrable, slack or "
			 "global"},
	[TRACE_CANCEL] = {"cancel", FB(F_CPU) | FB(F_TIME) | FB(F_ID), 0, "none",
			  "type, cpu, time or id"},
	[TRACE_WAKE] = {"wake", FB(F_CPU) | FB(F_TIME) | FB(F_CAUSE),
			FB(F_IOWAIT) | FB(F_LOAD) | FB(F_RESCHED), "iowait, load or resched",
			"type, cpu, time, cause, iowait, load or resched"},
	[TRACE_BUSY] = {"busy", FB(F_CPU) | FB(F_TIME) | FB(F_LENGTH), FB(F_IOWAIT) | FB(F_LOAD),
			"iowait or load", "type, cpu, time, duration, iowait or load"},
};

/* ---- errors ---- */

int trace_vfail(struct trace_reader *r, enum sim_error_code code, int line, int column,
		const char *fmt, va_list ap)
{
	struct sim_error *e = &r->error;

	if (e->code != SIM_OK)
		return -1;
	e->code = code;
	snprintf(e->source, sizeof(e->source), "%s", r->name);
	e->line = line;
	e->column = column;
	if (r->bin) { /* the binary form has no lines: the byte offset leads the message */
		char text[sizeof(e->text)];

		e->line = e->column = 0;
		vsnprintf(text, sizeof(text), fmt, ap);
		snprintf(e->text, sizeof(e->text), "byte %" PRId64 ": %s", r->bin_at, text);
		return -1;
	}
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	return -1;
}

int trace_fail(struct trace_reader *r, int line, int column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_vfail(r, SIM_ERR_INPUT, line, column, fmt, ap);
	va_end(ap);
	return -1;
}

int trace_fail_nomem(struct trace_reader *r)
{
	return sim_error_nomem(&r->error, r->name);
}

/* An error at a member of the JSON document, named by a jsonpos path. */
int trace_fail_json(struct trace_reader *r, const char *path, const char *fmt, ...)
{
	va_list ap;
	int line, col;

	jsonpos_find(r->buf, path, &line, &col);
	va_start(ap, fmt);
	trace_vfail(r, SIM_ERR_INPUT, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* An error at field f of the record being read: its column in text, its member in JSON. */
int trace_fail_field(struct trace_reader *r, const struct trace_record *rec, enum field f,
		     const char *fmt, ...)
{
	va_list ap;
	char path[96];
	int line = rec->line, col = r->col[f];

	if (r->root) {
		snprintf(path, sizeof(path), "records[%ld].%s", rec->index,
			 trace_field_name(rec->kind, f));
		jsonpos_find(r->buf, path, &line, &col);
	}
	va_start(ap, fmt);
	trace_vfail(r, SIM_ERR_INPUT, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* Where an earlier record is, for messages that name it. */
static const char *where(const struct trace_reader *r, int line, long index, char *buf, size_t size)
{
	if (r->root)
		snprintf(buf, size, "records[%ld]", index);
	else if (r->bin)
		snprintf(buf, size, "record %ld", index + 1);
	else
		snprintf(buf, size, "line %d", line);
	return buf;
}

/* A token for a message: at most 40 characters, anything but printable ASCII as \xNN. */
const char *trace_quote(char *buf, size_t size, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 8 < size; i++) {
		if (i == 40) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		o += jsonpos_put_byte(buf + o, (unsigned char)s[i]);
	}
	buf[o] = '\0';
	return buf;
}

/* ---- record fields, shared by text and JSON ---- */

const char *trace_field_name(enum trace_kind kind, enum field f)
{
	static const char *const names[F_NR] = {
		[F_KIND] = "type",     [F_CPU] = "cpu",	      [F_TIME] = "time",
		[F_LENGTH] = "length", [F_CAUSE] = "cause",   [F_NEXT_TIMER] = "next_timer",
		[F_IOWAIT] = "iowait", [F_LOAD] = "load",     [F_ID] = "id",
		[F_EXPIRY] = "expiry", [F_PERIOD] = "period", [F_RESCHED] = "resched",
		[F_TKIND] = "kind",    [F_NEXT_WHEEL] = "next_wheel", [F_KEEP_TICK] = "keep_tick",
		[F_DEFERRABLE] = "deferrable", [F_SLACK] = "slack", [F_GLOBAL] = "global",
	};

	if (f == F_TIME && kind == TRACE_IDLE)
		return "start";
	if (f == F_TKIND && kind == TRACE_IDLE)
		return "timer";
	if (f == F_LENGTH && kind == TRACE_BUSY)
		return "duration";
	return names[f];
}

/* strlen(trace_field_name(kind, f)), without the strlen: keys are looked up for every record. */
static size_t field_len(enum trace_kind kind, enum field f)
{
	static const unsigned char len[F_NR] = {
		[F_KIND] = 4,  [F_CPU] = 3,	    [F_TIME] = 4,   [F_LENGTH] = 6,
		[F_CAUSE] = 5, [F_NEXT_TIMER] = 10, [F_IOWAIT] = 6, [F_LOAD] = 4,
		[F_ID] = 2,    [F_EXPIRY] = 6,	    [F_PERIOD] = 6, [F_RESCHED] = 7,
		[F_TKIND] = 4, [F_NEXT_WHEEL] = 10, [F_KEEP_TICK] = 9, [F_DEFERRABLE] = 10,
		[F_SLACK] = 5, [F_GLOBAL] = 6,
	};

	if (f == F_TIME && kind == TRACE_IDLE)
		return 5; /* start */
	if (f == F_TKIND && kind == TRACE_IDLE)
		return 5; /* timer */
	if (f == F_LENGTH && kind == TRACE_BUSY)
		return 8; /* duration */
	return len[f];
}

const char *trace_field_what(enum trace_kind kind, enum field f)
{
	switch (f) {
	case F_CPU:
		return "a CPU number";
	case F_TIME:
		return kind == TRACE_IDLE ? "a start time (ns)" : "a time (ns)";
	case F_LENGTH:
		return kind == TRACE_IDLE ? "an idle length (ns)" : "a duration (ns)";
	case F_CAUSE:
		return kind == TRACE_IDLE ? "a wakeup cause (timer, irq or ipi)"
					  : "a wakeup cause (irq or ipi)";
	case F_ID:
		return "a timer ID (1 to 63 letters, digits, '_', '.', ':' or '-')";
	case F_EXPIRY:
		return "an expiry time (ns)";
	case F_NEXT_TIMER:
	case F_NEXT_WHEEL:
	case F_KEEP_TICK:
	case F_SLACK:
		return "a time (ns)";
	case F_TKIND:
		return "a timer kind (hrtimer or wheel)";
	case F_IOWAIT:
		return "a number of tasks (0 to 65535)";
	case F_LOAD:
		return "a load (a decimal number such as 0.75)";
	case F_PERIOD:
		return "a period (ns)";
	case F_RESCHED:
	case F_DEFERRABLE:
	case F_GLOBAL:
		return "0 or 1";
	default:
		return "a record";
	}
}

/*
 * The field named [s, s+n) if it is in `allowed`, else F_NR. Keys are parsed for every
 * record, so the first character picks the one candidate and a single compare confirms it.
 */
enum field trace_key_field(enum trace_kind kind, unsigned int allowed, const char *s, size_t n)
{
	const char *name;
	enum field f;

	if (!n)
		return F_NR;
	switch (s[0]) {
	case 't': /* type, time, timer */
		f = n > 1 && s[1] == 'y' ? F_KIND : n == 5 ? F_TKIND : F_TIME;
		break;
	case 'k': /* kind, keep_tick */
		f = n == 9 ? F_KEEP_TICK : F_TKIND;
		break;
	case 's': /* start, slack */
		f = n > 1 && s[1] == 'l' ? F_SLACK : F_TIME;
		break;
	case 'c':
		f = n == 3 ? F_CPU : F_CAUSE;
		break;
	case 'l':
		f = n == 4 ? F_LOAD : F_LENGTH;
		break;
	case 'd': /* duration, deferrable */
		f = n == 10 ? F_DEFERRABLE : F_LENGTH;
		break;
	case 'n': /* next_timer, next_wheel */
		f = n > 5 && s[5] == 'w' ? F_NEXT_WHEEL : F_NEXT_TIMER;
		break;
	case 'i':
		f = n == 2 ? F_ID : F_IOWAIT;
		break;
	case 'e':
		f = F_EXPIRY;
		break;
	case 'p':
		f = F_PERIOD;
		break;
	case 'g':
		f = F_GLOBAL;
		break;
	case 'r':
		f = F_RESCHED;
		break;
	default:
		return F_NR;
	}
	if (!(allowed & FB(f)))
		return F_NR;
	name = trace_field_name(kind, f);
	return n == field_len(kind, f) && !memcmp(name, s, n) ? f : F_NR;
}

int trace_cause_from(const char *s, size_t n, bool timer_ok)
{
	if (n == 3 && s[0] == 'i' && s[1] == 'r' && s[2] == 'q')
		return WAKE_IRQ;
	if (n == 3 && s[0] == 'i' && s[1] == 'p' && s[2] == 'i')
		return WAKE_IPI;
	if (timer_ok && n == 5 && !memcmp(s, "timer", 5))
		return WAKE_TIMER;
	return -1;
}

bool trace_id_valid(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > ID_MAX)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == ':' || ch == '-'))
			return false;
	}
	return true;
}

/* Keyword dispatch: first character, then length, then the bytes. */
enum word trace_classify(const char *s, size_t n)
{
#define IS(word) (n == sizeof(word) - 1 && !memcmp(s, word, n))
	switch (s[0]) {
	case 'i':
		return IS("idle") ? W_IDLE : W_NONE;
	case 't':
		return IS("timer") ? W_TIMER : IS("tick_phase") ? W_TICK_PHASE : W_NONE;
	case 'c':
		return IS("cancel") ? W_CANCEL : IS("cpus") ? W_CPUS : W_NONE;
	case 'w':
		return IS("wake") ? W_WAKE : W_NONE;
	case 'b':
		return IS("busy") ? W_BUSY : W_NONE;
	case 'h':
		return IS("hz") ? W_HZ : W_NONE;
	case 'm':
		return IS("machine") ? W_MACHINE : W_NONE;
	case 's':
		return IS("start") ? W_START : IS("source") ? W_SOURCE : W_NONE;
	case 'e':
		return IS("end") ? W_END : W_NONE;
	default:
		return W_NONE;
	}
#undef IS
}

void trace_record_init(const struct trace_reader *r, struct trace_record *rec, enum trace_kind kind)
{
	rec->kind = kind;
	rec->cpu = 0;
	rec->time_ns = 0;
	rec->length_ns = 0;
	rec->next_timer_ns = -1;
	rec->timer_kind = TIMER_WHEEL;
	rec->next_wheel_ns = -1;
	rec->keep_tick_ns = 0;
	rec->expiry_ns = 0;
	rec->period_ns = 0;
	rec->deferrable = false;
	rec->slack_ns = 0;
	rec->global = false;
	rec->cause = WAKE_TIMER;
	rec->has_iowait = false;
	rec->has_load = false;
	rec->no_resched = false;
	rec->iowait = 0;
	rec->load = 0;
	rec->id[0] = '\0';
	rec->index = r->nrec;
	rec->line = 0;
	rec->column = 0;
	rec->offset = 0;
}

/* The first record decides the family; a record of the other family is an error. */
int trace_check_family(struct trace_reader *r, const struct trace_record *rec)
{
	enum family fam = rec->kind == TRACE_IDLE ? FAMILY_IDLE : FAMILY_EVENT;
	char w[48];

	if (r->family == FAMILY_NONE) {
		r->family = fam;
		r->family_line = rec->line;
		r->family_index = rec->index;
		return 0;
	}
	if (fam == r->family)
		return 0;
	where(r, r->family_line, r->family_index, w, sizeof(w));
	if (r->family == FAMILY_IDLE)
		return trace_fail_field(
			r, rec, F_KIND,
			"this trace uses idle-interval records (%s); event records cannot "
			"be mixed in",
			w);
	return trace_fail_field(
		r, rec, F_KIND,
		"this trace uses event records (%s); idle-interval records cannot be "
		"mixed in",
		w);
}

int trace_check_cpu(struct trace_reader *r, struct trace_record *rec, int64_t v)
{
	if (v >= r->hdr.cpus)
		return trace_fail_field(r, rec, F_CPU,
					"CPU %" PRId64 " is out of range: the header says cpus %d",
					v, r->hdr.cpus);
	rec->cpu = (int)v;
	return 0;
}

/* A record's time: at most SIM_TIME_MAX_NS (sim/base/common.h), like every instant of a trace. */
int trace_check_time(struct trace_reader *r, struct trace_record *rec)
{
	if (rec->time_ns > SIM_TIME_MAX_NS)
		return trace_fail_field(r, rec, F_TIME,
					"%s %" PRId64 " is beyond 2^62 ns (%" PRId64
					"), the latest time a trace may name",
					trace_field_name(rec->kind, F_TIME), rec->time_ns,
					SIM_TIME_MAX_NS);
	return 0;
}

/* idle LENGTH and busy DURATION: the interval must end by 2^62 ns. */
int trace_check_length(struct trace_reader *r, struct trace_record *rec)
{
	if (rec->kind == TRACE_IDLE && rec->length_ns <= 0)
		return trace_fail_field(r, rec, F_LENGTH, "length must be positive");
	if (rec->length_ns > SIM_TIME_MAX_NS - rec->time_ns)
		return trace_fail_field(r, rec, F_LENGTH,
					"%s + %s is beyond 2^62 ns (%" PRId64
					"), the latest time a trace may name",
					trace_field_name(rec->kind, F_TIME),
					trace_field_name(rec->kind, F_LENGTH), SIM_TIME_MAX_NS);
	return 0;
}

int trace_check_iowait(struct trace_reader *r, struct trace_record *rec, int64_t v)
{
	if (v > IOWAIT_MAX)
		return trace_fail_field(r, rec, F_IOWAIT,
					"iowait %" PRId64 " is out of range (0 to %d)", v,
					IOWAIT_MAX);
	rec->iowait = (unsigned int)v;
	rec->has_iowait = true;
	return 0;
}

int trace_check_period(struct trace_reader *r, struct trace_record *rec, int64_t v)
{
	if (v <= 0)
		return trace_fail_field(r, rec, F_PERIOD, "period must be positive");
	rec->period_ns = v;
	return 0;
}

/* resched=0|1, from the value's text (text) or its integer (JSON): nothing else. */
/* A 0-or-1 field's value: 0 or 1, or -1 with the error set. */
static int check_01(struct trace_reader *r, struct trace_record *rec, enum field f, const char *s,
		    size_t n)
{
	char q[200];

	if (n != 1 || (s[0] != '0' && s[0] != '1'))
		return trace_fail_field(r, rec, f, "%s must be 0 or 1, got '%s'",
					trace_field_name(rec->kind, f), trace_quote(q, sizeof(q), s, n));
	return s[0] == '1';
}

int trace_check_resched(struct trace_reader *r, struct trace_record *rec, const char *s, size_t n)
{
	int v = check_01(r, rec, F_RESCHED, s, n);

	rec->no_resched = v == 0;
	return v < 0 ? -1 : 0;
}

int trace_check_deferrable(struct trace_reader *r, struct trace_record *rec, const char *s,
			   size_t n)
{
	int v = check_01(r, rec, F_DEFERRABLE, s, n);

	rec->deferrable = v == 1;
	return v < 0 ? -1 : 0;
}

int trace_check_global(struct trace_reader *r, struct trace_record *rec, const char *s, size_t n)
{
	int v = check_01(r, rec, F_GLOBAL, s, n);

	rec->global = v == 1;
	return v < 0 ? -1 : 0;
}

/* timer=/kind= hrtimer|wheel, from the value's text (text and JSON alike). */
int trace_check_tkind(struct trace_reader *r, struct trace_record *rec, const char *s, size_t n)
{
	char q[200];

	if (n == 7 && !memcmp(s, "hrtimer", 7))
		rec->timer_kind = TIMER_HRTIMER;
	else if (n == 5 && !memcmp(s, "wheel", 5))
		rec->timer_kind = TIMER_WHEEL;
	else
		return trace_fail_field(r, rec, F_TKIND, "%s must be hrtimer or wheel, got '%s'",
					trace_field_name(rec->kind, F_TKIND),
					trace_quote(q, sizeof(q), s, n));
	return 0;
}

/*
 * An idle record's timer kinds: timer= needs a next timer to qualify; next_wheel= is the
 * earliest wheel timer when the earliest timer is an hrtimer, so it needs timer=hrtimer and
 * cannot come before next_timer. Without it, an hrtimer-first record has no wheel timer.
 */
static int check_idle_kinds(struct trace_reader *r, struct trace_record *rec, unsigned int seen)
{
	if ((seen & FB(F_TKIND)) && rec->next_timer_ns < 0)
		return trace_fail_field(
			r, rec, F_TKIND,
			"timer= gives the kind of the next timer, and this %s record has none "
			"(no next_timer)",
			wake_cause_name(rec->cause));
	if (!(seen & FB(F_NEXT_WHEEL))) {
		if (rec->timer_kind == TIMER_HRTIMER)
			rec->next_wheel_ns = -1;
		return 0;
	}
	if (rec->timer_kind != TIMER_HRTIMER)
		return trace_fail_field(
			r, rec, F_NEXT_WHEEL,
			"next_wheel needs timer=hrtimer: when the next timer is a timer-wheel timer, "
			"it is next_wheel");
	if (rec->next_wheel_ns < rec->next_timer_ns)
		return trace_fail_field(r, rec, F_NEXT_WHEEL,
					"next_wheel (%" PRId64 ") is before the next timer (%" PRId64
					"), which is the earliest timer of any kind",
					rec->next_wheel_ns, rec->next_timer_ns);
	return 0;
}

/*
 * slack= belongs to an hrtimer (timer slack is an hrtimer's range, hrtimer_start_range_ns()):
 * on an idle record, to the hrtimer that ends it; its soft expiry is not before the period's
 * start (idle) or the arming (timer), where it would already have run.
 */
static int check_slack(struct trace_reader *r, struct trace_record *rec)
{
	if (rec->kind == TRACE_IDLE &&
	    (rec->cause != WAKE_TIMER || rec->timer_kind != TIMER_HRTIMER))
		return trace_fail_field(r, rec, F_SLACK,
					"slack is the range of the hrtimer that ends the period: it "
					"needs cause timer and timer=hrtimer");
	if (rec->kind == TRACE_IDLE && rec->slack_ns > rec->length_ns)
		return trace_fail_field(r, rec, F_SLACK,
					"slack (%" PRId64 ") is longer than the idle period (%" PRId64
					"): the timer's soft expiry would be before its start",
					rec->slack_ns, rec->length_ns);
	if (rec->kind == TRACE_TIMER && rec->timer_kind != TIMER_HRTIMER)
		return trace_fail_field(r, rec, F_SLACK,
					"slack is an hrtimer's range (hrtimer_start_range_ns()): it "
					"needs kind=hrtimer");
	if (rec->kind == TRACE_TIMER && rec->slack_ns > rec->expiry_ns - rec->time_ns)
		return trace_fail_field(r, rec, F_SLACK,
					"slack (%" PRId64 ") is longer than the time to the expiry "
					"(%" PRId64 "): the soft expiry would be before the arming",
					rec->slack_ns, rec->expiry_ns - rec->time_ns);
	return 0;
}

/*
 * The CPU time a trace covers, (end - start) x cpus, is at most 2^62 ns (FORMAT.md): the
 * totals over CPUs of busy, state and truncated time add up to it. So no record may end
 * more than 2^62 / cpus ns after the start, which is the first record's time when there is
 * no start directive.
 */
static int64_t span_limit(const struct trace_reader *r)
{
	return SIM_TIME_MAX_NS / r->hdr.cpus;
}

static int check_span(struct trace_reader *r, struct trace_record *rec)
{
	const struct trace_header *h = &r->hdr;
	bool interval = rec->kind == TRACE_IDLE || rec->kind == TRACE_BUSY;
	int64_t start = h->has_start ? h->start_ns : r->nrec ? r->first_time : rec->time_ns;
	int64_t end = rec->time_ns + (interval ? rec->length_ns : 0);

	if (end - start > span_limit(r))
		return trace_fail_field(r, rec, interval ? F_LENGTH : F_TIME,
					"this record ends %" PRId64 " ns after the trace's start "
					"%" PRId64 ", but a trace of %d CPUs spans at most %" PRId64
					" ns (2^62 ns of CPU time)",
					end - start, start, h->cpus, span_limit(r));
	if (!r->nrec && !h->has_start && h->has_end && h->end_ns - start > span_limit(r))
		return trace_fail_field(r, rec, F_TIME,
					"the trace starts with this record, %" PRId64 " ns before its "
					"end, but a trace of %d CPUs spans at most %" PRId64
					" ns (2^62 ns of CPU time)",
					h->end_ns - start, h->cpus, span_limit(r));
	return 0;
}

/*
 * Checks between the fields of a record and against the records before it; `seen` has a
 * bit for each optional field present. The more specific ordering message (per CPU) wins.
 */
int trace_check_record(struct trace_reader *r, struct trace_record *rec, unsigned int seen)
{
	struct cpu_state *cs = &r->cpu[rec->cpu];
	char w[48];

	if (rec->kind == TRACE_IDLE) {
		if (!(seen & FB(F_NEXT_TIMER))) {
			rec->next_timer_ns = rec->cause == WAKE_TIMER ? rec->length_ns : -1;
		} else if (rec->cause == WAKE_TIMER && rec->next_timer_ns != rec->length_ns) {
			return trace_fail_field(
				r, rec, F_NEXT_TIMER,
				"with cause timer, next_timer must equal the length (%" PRId64
				"), not %" PRId64 "; it can be left out",
				rec->length_ns, rec->next_timer_ns);
		} else if (rec->next_timer_ns < rec->length_ns) {
			return trace_fail_field(
				r, rec, F_NEXT_TIMER,
				"next_timer (%" PRId64 ") is shorter than the idle length (%" PRId64
				") but the idle period was ended by %s",
				rec->next_timer_ns, rec->length_ns, wake_cause_name(rec->cause));
		}
		if (check_idle_kinds(r, rec, seen))
			return -1;
	}
	if (rec->slack_ns && check_slack(r, rec))
		return -1;
	if (rec->kind == TRACE_TIMER && rec->deferrable && rec->timer_kind == TIMER_HRTIMER)
		return trace_fail_field(r, rec, F_DEFERRABLE,
					"deferrable=1 is a timer-wheel flag (TIMER_DEFERRABLE); an "
					"hrtimer has none");
	if (rec->kind == TRACE_TIMER && rec->global && rec->timer_kind == TIMER_HRTIMER)
		return trace_fail_field(r, rec, F_GLOBAL,
					"global=1 is a timer-wheel timer's (one without TIMER_PINNED, "
					"which timer migration moves); an hrtimer does not migrate");
	if (rec->kind == TRACE_TIMER && rec->global && rec->deferrable)
		return trace_fail_field(r, rec, F_GLOBAL,
					"a deferrable timer is on the deferrable base, neither local nor "
					"global: global=1 and deferrable=1 do not go together");
	if (rec->kind == TRACE_TIMER && rec->expiry_ns < rec->time_ns)
		return trace_fail_field(r, rec, F_EXPIRY,
					"timer expiry %" PRId64
					" is before the record's time %" PRId64,
					rec->expiry_ns, rec->time_ns);
	if (r->hdr.has_start && rec->time_ns < r->hdr.start_ns)
		return trace_fail_field(r, rec, F_TIME,
					"record at %" PRId64 " is before the trace start %" PRId64,
					rec->time_ns, r->hdr.start_ns);
	if (r->hdr.has_end && rec->time_ns > r->hdr.end_ns)
		return trace_fail_field(r, rec, F_TIME,
					"record at %" PRId64 " is after the trace end %" PRId64,
					rec->time_ns, r->hdr.end_ns);
	if (rec->kind == TRACE_IDLE && rec->time_ns < cs->idle_end)
		return trace_fail_field(
			r, rec, F_TIME,
			"time goes backwards on CPU %d: idle period starts at %" PRId64
			", before the previous one on this CPU ended at %" PRId64 " (%s)",
			rec->cpu, rec->time_ns, cs->idle_end,
			where(r, cs->line, cs->index, w, sizeof(w)));
	if (rec->kind == TRACE_IDLE && cs->stay_idle && rec->time_ns != cs->idle_end)
		return trace_fail_field(
			r, rec, F_TIME,
			"after a wakeup with resched=0 the CPU stays idle: this idle period of CPU "
			"%d must start at %" PRId64 ", when the previous one (%s) ended",
			rec->cpu, cs->idle_end, where(r, cs->line, cs->index, w, sizeof(w)));
	if (rec->index > 0 && rec->time_ns < r->last_time)
		return trace_fail_field(r, rec, F_TIME,
					"records must be in time order: %" PRId64
					" is before %" PRId64 " (%s)",
					rec->time_ns, r->last_time,
					where(r, r->last_line, r->last_index, w, sizeof(w)));
	if (check_span(r, rec))
		return -1;
	if (!r->nrec)
		r->first_time = rec->time_ns;
	if (rec->kind == TRACE_IDLE) {
		cs->idle_end = rec->time_ns + rec->length_ns;
		cs->line = rec->line;
		cs->index = rec->index;
		r->stay_idle += (int)rec->no_resched - (int)cs->stay_idle;
		cs->stay_idle = rec->no_resched;
		/* the key "resched=" is ASCII: its column is 8 before the value's */
		cs->resched_col = rec->no_resched && !r->root ? r->col[F_RESCHED] - 8 : 0;
	}
	r->last_time = rec->time_ns;
	r->last_line = rec->line;
	r->last_index = rec->index;
	r->nrec++;
	return 0;
}

/* An error at the end directive (text) or member (JSON). */
static int __attribute__((format(printf, 2, 3))) fail_end(struct trace_reader *r, const char *fmt, ...)
{
	char text[sizeof(r->error.text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (r->root)
		return trace_fail_json(r, "end", "%s", text);
	return trace_fail(r, r->dir_line[W_END - W_CPUS], r->end_col, "%s", text);
}

/*
 * At the end of the trace: an idle record with resched=0 must be followed by the idle period
 * its CPU goes on with. The first such record in the file is named.
 */
int trace_check_end(struct trace_reader *r)
{
	const struct cpu_state *cs = NULL;
	char path[48];
	int i, line, col;

	/* no record and no start: the trace starts at 0 */
	if (!r->nrec && !r->hdr.has_start && r->hdr.has_end && r->hdr.end_ns > span_limit(r))
		return fail_end(r,
				"end %" PRId64 " is more than %" PRId64 " ns after the start (0 "
				"without records or a start directive): a trace of %d CPUs spans at "
				"most that (2^62 ns of CPU time)",
				r->hdr.end_ns, span_limit(r), r->hdr.cpus);
	if (!r->stay_idle)
		return 0;
	for (i = 0; i < r->hdr.cpus; i++)
		if (r->cpu[i].stay_idle && (!cs || r->cpu[i].index < cs->index))
			cs = &r->cpu[i];
	line = cs->line;
	col = cs->resched_col;
	if (r->root) {
		snprintf(path, sizeof(path), "records[%ld].resched", cs->index);
		jsonpos_find(r->buf, path, &line, &col);
	}
	where(r, cs->line, cs->index, path, sizeof(path));
	return trace_fail(r, line, col,
			  "the trace ends after a wakeup with resched=0 on CPU %d (%s): the idle "
			  "period that follows it is missing",
			  (int)(cs - r->cpu), path);
}

/* After the header: cross-checks, and the per-CPU state, sized now that cpus is known. */
int trace_header_done(struct trace_reader *r)
{
	const struct trace_header *h = &r->hdr;

	if (h->has_start && h->has_end && h->end_ns < h->start_ns)
		return fail_end(r, "end (%" PRId64 ") is before start (%" PRId64 ")", h->end_ns,
				h->start_ns);
	if (h->has_start && h->has_end && h->end_ns - h->start_ns > span_limit(r))
		return fail_end(r,
				"end is %" PRId64 " ns after start, but a trace of %d CPUs spans at "
				"most %" PRId64 " ns (2^62 ns of CPU time)",
				h->end_ns - h->start_ns, h->cpus, span_limit(r));
	r->cpu = sim_calloc((size_t)h->cpus, sizeof(*r->cpu));
	return r->cpu ? 0 : trace_fail_nomem(r);
}
