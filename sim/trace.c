// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - reader and writer of the native trace format (traces/FORMAT.md).
 *
 * What the reader checks. Everything FORMAT.md calls an error that the records alone can
 * show: the magic line and its version; the directives (known, each at most once, in range,
 * all before the first record, `cpus` present, `end` not before `start`); in each record the
 * fixed fields, the optional keys (known for the kind, each at most once), value ranges,
 * timer ID syntax, next_timer against LENGTH and CAUSE, EXPIRY not before TIME; and across
 * records that CPUs are below `cpus`, that one family of records is used, that records lie
 * within [start, end] and that time never goes back: globally, and per CPU for idle
 * intervals (a period must not start before the previous one of its CPU ended). What needs
 * the engine's state (was a CPU idle when a `busy` record arrived?) is the engine's job.
 * JSON scenarios go through the same checks once their values are out of the document.
 *
 * How it streams. A text trace is read with read(2) into one 64 KiB buffer. Lines are cut
 * out of it in place (memchr for the newline), and when no whole line is left, the unread
 * tail moves to the front and the rest of the buffer is refilled. A line may not exceed
 * TRACE_MAX_LINE, so the buffer always holds a whole one. Besides the buffer, the reader
 * allocates one array of per-CPU state after the header, and nothing while records are
 * read: memory does not grow with the trace. A JSON scenario is small by design and is
 * loaded whole; its text stays in memory so that errors can be located with jsonpos.
 *
 * Why hand-written parsing. Traces of hundreds of MB are replayed many times; the reader
 * must not be the bottleneck. sscanf() and strtoll() accept what the format forbids (signs,
 * leading blanks, hex), need NUL-terminated text, and cannot say where a field went wrong.
 * Here each byte of a record is looked at once or twice, keywords are told apart by first
 * character and length, and every field keeps its column for the messages.
 */
#include "sim/trace.h"
#include "sim/alloc.h"
#include "sim/jsonpos.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#define BUF_SIZE (64 * 1024)
#define LOAD_ONE 2048	   /* FIXED_1 of governors/governor.h */
#define LOAD_LIMIT 1000000 /* a load must be below this */
#define IOWAIT_MAX 65535
#define HZ_MAX 10000
#define ID_MAX (TRACE_ID_LEN - 1)
#define U63_TENTH 922337203685477580ULL /* INT64_MAX / 10: more digits would overflow */
#define FRAC_DIGITS 12			/* decimals of a load that can change its rounding */
#define FRAC_ONE 1000000000000ULL	/* 10^FRAC_DIGITS */

/* The fields of a record, to point messages at them: a column in text, a member in JSON. */
enum field {
	F_KIND,
	F_CPU,
	F_TIME,
	F_LENGTH,
	F_CAUSE,
	F_NEXT_TIMER,
	F_IOWAIT,
	F_LOAD,
	F_ID,
	F_EXPIRY,
	F_PERIOD,
	F_NR
};

#define FB(f) (1u << (f))

struct kind_info {
	const char *name;
	unsigned int fixed;   /* fields every record of this kind has */
	unsigned int keys;    /* its optional key=value fields */
	const char *key_list; /* the keys, for messages */
	const char *json_list;
};

static const struct kind_info kinds[] = {
	[TRACE_IDLE] = {"idle", FB(F_CPU) | FB(F_TIME) | FB(F_LENGTH) | FB(F_CAUSE),
			FB(F_NEXT_TIMER) | FB(F_IOWAIT) | FB(F_LOAD), "next_timer, iowait or load",
			"type, cpu, start, length, cause, next_timer, iowait or load"},
	[TRACE_TIMER] = {"timer", FB(F_CPU) | FB(F_TIME) | FB(F_ID) | FB(F_EXPIRY), FB(F_PERIOD),
			 "period", "type, cpu, time, id, expiry or period"},
	[TRACE_CANCEL] = {"cancel", FB(F_CPU) | FB(F_TIME) | FB(F_ID), 0, "none",
			  "type, cpu, time or id"},
	[TRACE_WAKE] = {"wake", FB(F_CPU) | FB(F_TIME) | FB(F_CAUSE), FB(F_IOWAIT) | FB(F_LOAD),
			"iowait or load", "type, cpu, time, cause, iowait or load"},
	[TRACE_BUSY] = {"busy", FB(F_CPU) | FB(F_TIME) | FB(F_LENGTH), FB(F_IOWAIT) | FB(F_LOAD),
			"iowait or load", "type, cpu, time, duration, iowait or load"},
};

/* First words of a line: the record kinds (same values as enum trace_kind), then directives. */
enum word {
	W_IDLE = TRACE_IDLE,
	W_TIMER = TRACE_TIMER,
	W_CANCEL = TRACE_CANCEL,
	W_WAKE = TRACE_WAKE,
	W_BUSY = TRACE_BUSY,
	W_CPUS,
	W_HZ,
	W_MACHINE,
	W_START,
	W_END,
	W_SOURCE,
	W_NONE
};

#define NR_DIRECTIVES (W_NONE - W_CPUS)

static const char *const directive_names[NR_DIRECTIVES] = {"cpus",  "hz",  "machine",
							   "start", "end", "source"};

enum family { FAMILY_NONE, FAMILY_IDLE, FAMILY_EVENT };

struct cpu_state {
	int64_t idle_end; /* START+LENGTH of the CPU's last idle record, 0 before the first */
	long index;	  /* that record, for messages */
	int line;
};

/* A line being parsed: [line, end), p is the next byte to look at. */
struct cursor {
	const char *line, *p, *end;
	int lineno;
};

struct trace_reader {
	char name[256];
	struct trace_header hdr;
	struct sim_error error; /* the first error; every later call repeats it */

	/* input: a file descriptor, or (fd < 0) a string copied whole into buf */
	int fd;
	bool close_fd, eof;
	char *buf;
	size_t cap, len, pos; /* buf[pos, len) is not consumed yet */
	size_t scanned;	      /* bytes after pos known to hold no newline */
	int lineno;
	const char *line; /* the last line cut out; pending: not handled yet */
	size_t line_len;
	bool pending;
	int dir_line[NR_DIRECTIVES]; /* where each directive was, 0 if absent */
	int end_col;

	/* JSON scenarios: the document, and its text in buf for jsonpos */
	json_t *root, *records;

	/* record state */
	long nrec; /* records delivered */
	enum family family;
	int family_line;
	long family_index;
	int64_t last_time;
	int last_line;
	long last_index;
	struct cpu_state *cpu;
	int col[F_NR]; /* columns of the fields of the text record being parsed */
};

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

/* ---- errors ---- */

static int vfail(struct trace_reader *r, enum sim_error_code code, int line, int column,
		 const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
static int fail(struct trace_reader *r, int line, int column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail_io(struct trace_reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct trace_reader *r, const struct cursor *c, const char *p, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));
static int fail_json(struct trace_reader *r, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_field(struct trace_reader *r, const struct trace_record *rec, enum field f,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int vfail(struct trace_reader *r, enum sim_error_code code, int line, int column,
		 const char *fmt, va_list ap)
{
	struct sim_error *e = &r->error;

	if (e->code != SIM_OK)
		return -1;
	e->code = code;
	snprintf(e->source, sizeof(e->source), "%s", r->name);
	e->line = line;
	e->column = column;
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	return -1;
}

static int fail(struct trace_reader *r, int line, int column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, SIM_ERR_INPUT, line, column, fmt, ap);
	va_end(ap);
	return -1;
}

static int fail_io(struct trace_reader *r, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, SIM_ERR_IO, line, 0, fmt, ap);
	va_end(ap);
	return -1;
}

static int fail_nomem(struct trace_reader *r)
{
	return sim_error_nomem(&r->error, r->name);
}

/* Columns count characters, not bytes, so that UTF-8 in a comment does not shift them. */
static int col_of(const struct cursor *c, const char *p)
{
	const char *q;
	int col = 1;

	for (q = c->line; q < p; q++)
		if (((unsigned char)*q & 0xc0) != 0x80)
			col++;
	return col;
}

static int fail_at(struct trace_reader *r, const struct cursor *c, const char *p, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, SIM_ERR_INPUT, c->lineno, col_of(c, p), fmt, ap);
	va_end(ap);
	return -1;
}

/* An error at a member of the JSON document, named by a jsonpos path. */
static int fail_json(struct trace_reader *r, const char *path, const char *fmt, ...)
{
	va_list ap;
	int line, col;

	jsonpos_find(r->buf, path, &line, &col);
	va_start(ap, fmt);
	vfail(r, SIM_ERR_INPUT, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *field_name(enum trace_kind kind, enum field f)
{
	static const char *const names[F_NR] = {
		[F_KIND] = "type",     [F_CPU] = "cpu",	      [F_TIME] = "time",
		[F_LENGTH] = "length", [F_CAUSE] = "cause",   [F_NEXT_TIMER] = "next_timer",
		[F_IOWAIT] = "iowait", [F_LOAD] = "load",     [F_ID] = "id",
		[F_EXPIRY] = "expiry", [F_PERIOD] = "period",
	};

	if (f == F_TIME && kind == TRACE_IDLE)
		return "start";
	if (f == F_LENGTH && kind == TRACE_BUSY)
		return "duration";
	return names[f];
}

/* strlen(field_name(kind, f)), without the strlen: keys are looked up for every record. */
static size_t field_len(enum trace_kind kind, enum field f)
{
	static const unsigned char len[F_NR] = {
		[F_KIND] = 4,  [F_CPU] = 3,	    [F_TIME] = 4,   [F_LENGTH] = 6,
		[F_CAUSE] = 5, [F_NEXT_TIMER] = 10, [F_IOWAIT] = 6, [F_LOAD] = 4,
		[F_ID] = 2,    [F_EXPIRY] = 6,	    [F_PERIOD] = 6,
	};

	if (f == F_TIME && kind == TRACE_IDLE)
		return 5; /* start */
	if (f == F_LENGTH && kind == TRACE_BUSY)
		return 8; /* duration */
	return len[f];
}

/* An error at field f of the record being read: its column in text, its member in JSON. */
static int fail_field(struct trace_reader *r, const struct trace_record *rec, enum field f,
		      const char *fmt, ...)
{
	va_list ap;
	char path[96];
	int line = rec->line, col = r->col[f];

	if (r->root) {
		snprintf(path, sizeof(path), "records[%ld].%s", rec->index,
			 field_name(rec->kind, f));
		jsonpos_find(r->buf, path, &line, &col);
	}
	va_start(ap, fmt);
	vfail(r, SIM_ERR_INPUT, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* Where an earlier record is, for messages that name it. */
static const char *where(const struct trace_reader *r, int line, long index, char *buf, size_t size)
{
	if (r->root)
		snprintf(buf, size, "records[%ld]", index);
	else
		snprintf(buf, size, "line %d", line);
	return buf;
}

/* A token for a message: at most 40 characters, anything but printable ASCII as \xNN. */
static const char *quote(char *buf, size_t size, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < n && o + 8 < size; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (i == 40) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (ch >= 0x20 && ch < 0x7f) {
			buf[o++] = (char)ch;
		} else {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[ch >> 4];
			buf[o++] = hex[ch & 15];
		}
	}
	buf[o] = '\0';
	return buf;
}

/*
 * The first byte of [s, e) that cannot be in a text trace: a control character other than
 * tab, or a byte that is not part of well-formed UTF-8. NULL if there is none.
 */
static const char *find_binary(const char *s, const char *e)
{
	const unsigned char *p = (const unsigned char *)s, *end = (const unsigned char *)e;

	while (p < end) {
		unsigned int c = *p, cp;
		int i, n;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t') || c == 0x7f)
				return (const char *)p;
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if ((c & 0xf0) == 0xe0)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return (const char *)p;
		if (end - p <= n)
			return (const char *)p;
		for (i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return (const char *)p;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return (const char *)p;
		p += n + 1;
	}
	return NULL;
}

static int binary_error(struct trace_reader *r, const struct cursor *c, const char *p)
{
	unsigned char ch = (unsigned char)*p;

	if (ch < 0x80)
		return fail_at(r, c, p, "binary data in a text trace (byte 0x%02x)", ch);
	return fail_at(r, c, p, "binary data in a text trace (byte 0x%02x is not valid UTF-8)", ch);
}

/* Free text (comments, machine, source) may hold any UTF-8, but no control characters. */
static int check_text(struct trace_reader *r, const struct cursor *c, const char *s, const char *e)
{
	const char *b = find_binary(s, e);

	return b ? binary_error(r, c, b) : 0;
}

/* ---- input ---- */

/* The number of the line being read: line numbers stop at INT_MAX rather than wrap. */
static int next_lineno(const struct trace_reader *r)
{
	return r->lineno < INT_MAX ? r->lineno + 1 : INT_MAX;
}

/* A line without an end in sight: most likely a binary file, so say that if it is one. */
static int line_too_long(struct trace_reader *r, const char *s, int lineno)
{
	struct cursor c = {s, s, s + TRACE_MAX_LINE, lineno};
	const char *b = find_binary(c.line, c.end);

	if (b && (b < c.end - 3 || (unsigned char)*b < 0x80)) /* not a character cut in two */
		return binary_error(r, &c, b);
	return fail(r, lineno, TRACE_MAX_LINE + 1, "line is longer than %d bytes", TRACE_MAX_LINE);
}

/* Read more bytes into buf[len, cap - 1); the last byte stays free for a JSON text's NUL. */
static int fill(struct trace_reader *r)
{
	ssize_t n;

	if (r->fd < 0) {
		r->eof = true;
		return 0;
	}
	for (;;) {
		n = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
		if (n > 0) {
			r->len += (size_t)n;
			return 0;
		}
		if (n == 0) {
			r->eof = true;
			return 0;
		}
		if (errno != EINTR)
			return fail_io(r, next_lineno(r), "cannot read: %s", strerror(errno));
	}
}

/*
 * Cut the next line out of the buffer into c, without its "\n" or "\r\n". Returns 1, 0 at
 * the end of the input, -1 on error.
 */
static int next_line(struct trace_reader *r, struct cursor *c)
{
	char *s, *nl;
	size_t avail, n;

	if (r->pending) {
		r->pending = false;
		s = (char *)r->line;
		n = r->line_len;
		goto out;
	}
	for (;;) {
		s = r->buf + r->pos;
		avail = r->len - r->pos;
		nl = memchr(s + r->scanned, '\n', avail - r->scanned);
		if (nl) {
			n = (size_t)(nl - s);
			r->pos += n + 1;
			break;
		}
		if (r->eof) {
			if (!avail)
				return 0;
			n = avail; /* the last line has no newline: fine */
			r->pos = r->len;
			break;
		}
		/* 4096 bytes, "\r" and no "\n" yet: too long whatever comes next */
		if (avail > TRACE_MAX_LINE + 1)
			return line_too_long(r, s, next_lineno(r));
		memmove(r->buf, s, avail);
		r->len = avail;
		r->pos = 0;
		r->scanned = avail;
		if (fill(r))
			return -1;
	}
	r->scanned = 0;
	r->lineno = next_lineno(r);
	if (n && s[n - 1] == '\r')
		n--;
	if (n > TRACE_MAX_LINE)
		return line_too_long(r, s, r->lineno);
	r->line = s;
	r->line_len = n;
out:
	c->line = c->p = s;
	c->end = s + n;
	c->lineno = r->lineno;
	return 1;
}

/* ---- tokens ---- */

static inline void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static inline const char *token_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* Skip white space; 1 if only a comment or nothing is left, 0 if a token follows. */
static int at_eol(struct trace_reader *r, struct cursor *c)
{
	skip_ws(c);
	if (c->p == c->end)
		return 1;
	if (*c->p != '#')
		return 0;
	return check_text(r, c, c->p + 1, c->end) ? -1 : 1;
}

/* The token at s is not what was expected: say so, or that it is binary garbage. */
static int bad_token(struct trace_reader *r, const struct cursor *c, const char *s,
		     const char *what)
{
	const char *e = token_end(s, c->end), *b = find_binary(s, e);
	char q[200];

	if (b)
		return binary_error(r, c, b);
	return fail_at(r, c, s, "expected %s, got '%s'", what, quote(q, sizeof(q), s, e - s));
}

/* Anything left on the line after its last field is an error. */
static int expect_eol(struct trace_reader *r, struct cursor *c, const char *after)
{
	int rc = at_eol(r, c);
	char q[200];

	if (rc)
		return rc < 0 ? -1 : 0;
	if (find_binary(c->p, token_end(c->p, c->end)))
		return bad_token(r, c, c->p, "");
	return fail_at(r, c, c->p, "unexpected '%s' after %s",
		       quote(q, sizeof(q), c->p, token_end(c->p, c->end) - c->p), after);
}

/*
 * The decimal number at c->p, which must fill its token: 0 <= value < 2^63, digits only.
 * The overflow test costs one compare per digit; the slow branch runs near 2^63 only.
 */
static int parse_u63(struct trace_reader *r, struct cursor *c, const char *what, int64_t *out)
{
	const char *s = c->p, *p = s;
	uint64_t v = 0;

	while (p < c->end) {
		unsigned int d = (unsigned int)((unsigned char)*p - '0');

		if (d > 9)
			break;
		if (v >= U63_TENTH && (v > U63_TENTH || d > 7))
			return fail_at(r, c, p, "number too large: values must be below 2^63");
		v = v * 10 + d;
		p++;
	}
	if (p == s || (p < c->end && *p != ' ' && *p != '\t'))
		return bad_token(r, c, s, what);
	c->p = p;
	*out = (int64_t)v;
	return 0;
}

/* ---- record fields, shared by text and JSON ---- */

static const char *field_what(enum trace_kind kind, enum field f)
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
		return "a time (ns)";
	case F_IOWAIT:
		return "a number of tasks (0 to 65535)";
	case F_LOAD:
		return "a load (a decimal number such as 0.75)";
	case F_PERIOD:
		return "a period (ns)";
	default:
		return "a record";
	}
}

/*
 * The field named [s, s+n) if it is in `allowed`, else F_NR. Keys are parsed for every
 * record, so the first character picks the one candidate and a single compare confirms it.
 */
static enum field key_field(enum trace_kind kind, unsigned int allowed, const char *s, size_t n)
{
	const char *name;
	enum field f;

	if (!n)
		return F_NR;
	switch (s[0]) {
	case 't':
		f = n > 1 && s[1] == 'y' ? F_KIND : F_TIME;
		break;
	case 's':
		f = F_TIME;
		break;
	case 'c':
		f = n == 3 ? F_CPU : F_CAUSE;
		break;
	case 'l':
		f = n == 4 ? F_LOAD : F_LENGTH;
		break;
	case 'd':
		f = F_LENGTH;
		break;
	case 'n':
		f = F_NEXT_TIMER;
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
	default:
		return F_NR;
	}
	if (!(allowed & FB(f)))
		return F_NR;
	name = field_name(kind, f);
	return n == field_len(kind, f) && !memcmp(name, s, n) ? f : F_NR;
}

static int cause_from(const char *s, size_t n, bool timer_ok)
{
	if (n == 3 && s[0] == 'i' && s[1] == 'r' && s[2] == 'q')
		return WAKE_IRQ;
	if (n == 3 && s[0] == 'i' && s[1] == 'p' && s[2] == 'i')
		return WAKE_IPI;
	if (timer_ok && n == 5 && !memcmp(s, "timer", 5))
		return WAKE_TIMER;
	return -1;
}

static bool id_valid(const char *s, size_t n)
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

static void record_init(const struct trace_reader *r, struct trace_record *rec,
			enum trace_kind kind)
{
	rec->kind = kind;
	rec->cpu = 0;
	rec->time_ns = 0;
	rec->length_ns = 0;
	rec->next_timer_ns = -1;
	rec->expiry_ns = 0;
	rec->period_ns = 0;
	rec->cause = WAKE_TIMER;
	rec->has_iowait = false;
	rec->has_load = false;
	rec->iowait = 0;
	rec->load = 0;
	rec->id[0] = '\0';
	rec->index = r->nrec;
	rec->line = 0;
	rec->column = 0;
}

/* The first record decides the family; a record of the other family is an error. */
static int check_family(struct trace_reader *r, const struct trace_record *rec)
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
		return fail_field(
			r, rec, F_KIND,
			"this trace uses idle-interval records (%s); event records cannot "
			"be mixed in",
			w);
	return fail_field(r, rec, F_KIND,
			  "this trace uses event records (%s); idle-interval records cannot be "
			  "mixed in",
			  w);
}

static int check_cpu(struct trace_reader *r, struct trace_record *rec, int64_t v)
{
	if (v >= r->hdr.cpus)
		return fail_field(r, rec, F_CPU,
				  "CPU %" PRId64 " is out of range: the header says cpus %d", v,
				  r->hdr.cpus);
	rec->cpu = (int)v;
	return 0;
}

/* idle LENGTH and busy DURATION: the interval must end before 2^63 ns. */
static int check_length(struct trace_reader *r, struct trace_record *rec)
{
	if (rec->kind == TRACE_IDLE && rec->length_ns <= 0)
		return fail_field(r, rec, F_LENGTH, "length must be positive");
	if (rec->length_ns > INT64_MAX - rec->time_ns)
		return fail_field(r, rec, F_LENGTH, "%s + %s is beyond 2^63 ns",
				  field_name(rec->kind, F_TIME), field_name(rec->kind, F_LENGTH));
	return 0;
}

static int check_iowait(struct trace_reader *r, struct trace_record *rec, int64_t v)
{
	if (v > IOWAIT_MAX)
		return fail_field(r, rec, F_IOWAIT, "iowait %" PRId64 " is out of range (0 to %d)",
				  v, IOWAIT_MAX);
	rec->iowait = (unsigned int)v;
	rec->has_iowait = true;
	return 0;
}

static int check_period(struct trace_reader *r, struct trace_record *rec, int64_t v)
{
	if (v <= 0)
		return fail_field(r, rec, F_PERIOD, "period must be positive");
	rec->period_ns = v;
	return 0;
}

/*
 * Checks between the fields of a record and against the records before it; `seen` has a
 * bit for each optional field present. The more specific ordering message (per CPU) wins.
 */
static int check_record(struct trace_reader *r, struct trace_record *rec, unsigned int seen)
{
	struct cpu_state *cs = &r->cpu[rec->cpu];
	char w[48];

	if (rec->kind == TRACE_IDLE) {
		if (!(seen & FB(F_NEXT_TIMER))) {
			rec->next_timer_ns = rec->cause == WAKE_TIMER ? rec->length_ns : -1;
		} else if (rec->cause == WAKE_TIMER && rec->next_timer_ns != rec->length_ns) {
			return fail_field(
				r, rec, F_NEXT_TIMER,
				"with cause timer, next_timer must equal the length (%" PRId64
				"), not %" PRId64 "; it can be left out",
				rec->length_ns, rec->next_timer_ns);
		} else if (rec->next_timer_ns < rec->length_ns) {
			return fail_field(
				r, rec, F_NEXT_TIMER,
				"next_timer (%" PRId64 ") is shorter than the idle length (%" PRId64
				") but the idle period was ended by %s",
				rec->next_timer_ns, rec->length_ns, wake_cause_name(rec->cause));
		}
	}
	if (rec->kind == TRACE_TIMER && rec->expiry_ns < rec->time_ns)
		return fail_field(r, rec, F_EXPIRY,
				  "timer expiry %" PRId64 " is before the record's time %" PRId64,
				  rec->expiry_ns, rec->time_ns);
	if (r->hdr.has_start && rec->time_ns < r->hdr.start_ns)
		return fail_field(r, rec, F_TIME,
				  "record at %" PRId64 " is before the trace start %" PRId64,
				  rec->time_ns, r->hdr.start_ns);
	if (r->hdr.has_end && rec->time_ns > r->hdr.end_ns)
		return fail_field(r, rec, F_TIME,
				  "record at %" PRId64 " is after the trace end %" PRId64,
				  rec->time_ns, r->hdr.end_ns);
	if (rec->kind == TRACE_IDLE && rec->time_ns < cs->idle_end)
		return fail_field(r, rec, F_TIME,
				  "time goes backwards on CPU %d: idle period starts at %" PRId64
				  ", before the previous one on this CPU ended at %" PRId64 " (%s)",
				  rec->cpu, rec->time_ns, cs->idle_end,
				  where(r, cs->line, cs->index, w, sizeof(w)));
	if (rec->index > 0 && rec->time_ns < r->last_time)
		return fail_field(r, rec, F_TIME,
				  "records must be in time order: %" PRId64 " is before %" PRId64
				  " (%s)",
				  rec->time_ns, r->last_time,
				  where(r, r->last_line, r->last_index, w, sizeof(w)));
	if (rec->kind == TRACE_IDLE) {
		cs->idle_end = rec->time_ns + rec->length_ns;
		cs->line = rec->line;
		cs->index = rec->index;
	}
	r->last_time = rec->time_ns;
	r->last_line = rec->line;
	r->last_index = rec->index;
	r->nrec++;
	return 0;
}

/* ---- text records ---- */

/* Skip to field f; it must be there. Remembers its column. */
static int text_expect(struct trace_reader *r, struct cursor *c, const struct trace_record *rec,
		       enum field f)
{
	skip_ws(c);
	r->col[f] = (int)(c->p - c->line) + 1; /* the fields before are ASCII: bytes are columns */
	if (c->p == c->end || *c->p == '#')
		return fail_at(r, c, c->p, "expected %s at end of line", field_what(rec->kind, f));
	return 0;
}

static int text_num(struct trace_reader *r, struct cursor *c, const struct trace_record *rec,
		    enum field f, int64_t *v)
{
	if (text_expect(r, c, rec, f))
		return -1;
	return parse_u63(r, c, field_what(rec->kind, f), v);
}

static int text_cause(struct trace_reader *r, struct cursor *c, struct trace_record *rec)
{
	const char *s, *e;
	int cause;

	if (text_expect(r, c, rec, F_CAUSE))
		return -1;
	s = c->p;
	e = token_end(s, c->end);
	cause = cause_from(s, (size_t)(e - s), rec->kind == TRACE_IDLE);
	if (cause < 0)
		return bad_token(r, c, s, field_what(rec->kind, F_CAUSE));
	rec->cause = (enum wake_cause)cause;
	c->p = e;
	return 0;
}

static int text_id(struct trace_reader *r, struct cursor *c, struct trace_record *rec)
{
	const char *s, *e;

	if (text_expect(r, c, rec, F_ID))
		return -1;
	s = c->p;
	e = token_end(s, c->end);
	if (!id_valid(s, (size_t)(e - s)))
		return bad_token(r, c, s, field_what(rec->kind, F_ID));
	memcpy(rec->id, s, (size_t)(e - s));
	rec->id[e - s] = '\0';
	c->p = e;
	return 0;
}

/*
 * load=X: 0 <= X < 1000000 with any number of decimals, rounded to the nearest multiple of
 * 1/2048 (halves up). Only the first 12 decimals matter: X*2048 lands on a half exactly
 * when X is an odd multiple of 1/4096, which has 12 decimals, and with D the first 12
 * decimals as an integer, D*2048 mod 10^12 is a multiple of 2048, as is 10^12/2; the
 * decimals after the 12th add less than 2048 to it and so cannot carry it across the half.
 */
static int text_load(struct trace_reader *r, struct cursor *c, struct trace_record *rec)
{
	const char *s = c->p, *p = s, *f;
	uint64_t ip = 0, frac = 0, q;
	int nfrac = 0;
	char buf[200];

	while (p < c->end && (unsigned int)((unsigned char)*p - '0') <= 9) {
		if (ip < LOAD_LIMIT) /* stays small enough not to overflow */
			ip = ip * 10 + (uint64_t)(*p - '0');
		p++;
	}
	if (p == s)
		return bad_token(r, c, s, field_what(rec->kind, F_LOAD));
	if (p < c->end && *p == '.') {
		f = ++p;
		while (p < c->end && (unsigned int)((unsigned char)*p - '0') <= 9) {
			if (nfrac < FRAC_DIGITS) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				nfrac++;
			}
			p++;
		}
		if (p == f)
			return bad_token(r, c, s, field_what(rec->kind, F_LOAD));
	}
	if (p < c->end && *p != ' ' && *p != '\t')
		return bad_token(r, c, s, field_what(rec->kind, F_LOAD));
	if (ip >= LOAD_LIMIT)
		return fail_at(r, c, s, "load %s is out of range (0 <= load < %d)",
			       quote(buf, sizeof(buf), s, (size_t)(p - s)), LOAD_LIMIT);
	for (; nfrac < FRAC_DIGITS; nfrac++)
		frac *= 10;
	q = frac * LOAD_ONE;
	rec->load = (unsigned long)(ip * LOAD_ONE + q / FRAC_ONE + (q % FRAC_ONE >= FRAC_ONE / 2));
	rec->has_load = true;
	c->p = p;
	return 0;
}

static int text_value(struct trace_reader *r, struct cursor *c, struct trace_record *rec,
		      enum field f)
{
	int64_t v;

	switch (f) {
	case F_NEXT_TIMER:
		return parse_u63(r, c, field_what(rec->kind, f), &rec->next_timer_ns);
	case F_IOWAIT:
		return parse_u63(r, c, field_what(rec->kind, f), &v) || check_iowait(r, rec, v) ? -1
												: 0;
	case F_LOAD:
		return text_load(r, c, rec);
	case F_PERIOD:
		return parse_u63(r, c, field_what(rec->kind, f), &v) || check_period(r, rec, v) ? -1
												: 0;
	default:
		return -1;
	}
}

/* The optional key=value fields, in any order, each at most once. */
static int text_keys(struct trace_reader *r, struct cursor *c, struct trace_record *rec,
		     unsigned int *seen)
{
	const struct kind_info *k = &kinds[rec->kind];
	const char *s, *q;
	enum field f;
	char buf[200];
	int rc;

	for (;;) {
		rc = at_eol(r, c);
		if (rc)
			return rc < 0 ? -1 : 0;
		s = c->p;
		for (q = s; q < c->end && *q != '=' && *q != ' ' && *q != '\t'; q++)
			;
		if (q == c->end || *q != '=')
			return bad_token(r, c, s, "key=value");
		f = key_field(rec->kind, k->keys, s, (size_t)(q - s));
		if (f == F_NR) {
			if (find_binary(s, q))
				return bad_token(r, c, s, "key=value");
			return fail_at(r, c, s, "unknown key '%s' for %s records (expected %s)",
				       quote(buf, sizeof(buf), s, (size_t)(q - s)), k->name,
				       k->key_list);
		}
		if (*seen & FB(f))
			return fail_at(r, c, s, "duplicate key '%s'", field_name(rec->kind, f));
		*seen |= FB(f);
		c->p = q + 1;
		r->col[f] = (int)(c->p - c->line) + 1; /* messages point at the value */
		if (c->p == c->end || *c->p == ' ' || *c->p == '\t')
			return fail_at(r, c, c->p, "expected %s after '%s='",
				       field_what(rec->kind, f), field_name(rec->kind, f));
		if (text_value(r, c, rec, f))
			return -1;
	}
}

/* A record line; c is just past its kind keyword, which starts at kw. */
static int text_record(struct trace_reader *r, struct cursor *c, enum trace_kind kind,
		       const char *kw, struct trace_record *rec)
{
	unsigned int seen = 0;
	int64_t v;
	int rc = 0;

	record_init(r, rec, kind);
	rec->line = c->lineno;
	r->col[F_KIND] = (int)(kw - c->line) + 1;
	if (check_family(r, rec))
		return -1;
	if (text_num(r, c, rec, F_CPU, &v) || check_cpu(r, rec, v) ||
	    text_num(r, c, rec, F_TIME, &rec->time_ns))
		return -1;
	rec->column = r->col[F_TIME];
	switch (kind) {
	case TRACE_IDLE:
		rc = text_num(r, c, rec, F_LENGTH, &rec->length_ns) || check_length(r, rec) ||
		     text_cause(r, c, rec);
		break;
	case TRACE_TIMER:
		rc = text_id(r, c, rec) || text_num(r, c, rec, F_EXPIRY, &rec->expiry_ns);
		break;
	case TRACE_CANCEL:
		rc = text_id(r, c, rec) || expect_eol(r, c, "the timer ID of a cancel record");
		break;
	case TRACE_WAKE:
		rc = text_cause(r, c, rec);
		break;
	case TRACE_BUSY:
		rc = text_num(r, c, rec, F_LENGTH, &rec->length_ns) || check_length(r, rec);
		break;
	}
	if (rc || (kind != TRACE_CANCEL && text_keys(r, c, rec, &seen)))
		return -1;
	return check_record(r, rec, seen);
}

/* Keyword dispatch: first character, then length, then the bytes. */
static enum word classify(const char *s, size_t n)
{
#define IS(word) (n == sizeof(word) - 1 && !memcmp(s, word, n))
	switch (s[0]) {
	case 'i':
		return IS("idle") ? W_IDLE : W_NONE;
	case 't':
		return IS("timer") ? W_TIMER : W_NONE;
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

static int unknown_word(struct trace_reader *r, const struct cursor *c, const char *s,
			const char *e, bool in_header)
{
	char q[200];

	if (find_binary(s, e))
		return bad_token(r, c, s, "");
	quote(q, sizeof(q), s, (size_t)(e - s));
	if (in_header)
		return fail_at(r, c, s,
			       "unknown directive or record '%s' (directives: cpus, hz, machine, "
			       "start, end, source; records: idle, timer, cancel, wake, busy)",
			       q);
	return fail_at(r, c, s, "unknown record '%s' (expected idle, timer, cancel, wake or busy)",
		       q);
}

static int text_next(struct trace_reader *r, struct trace_record *rec)
{
	struct cursor c;
	const char *s, *e;
	enum word w;
	int rc;

	for (;;) {
		rc = next_line(r, &c);
		if (rc <= 0)
			return rc;
		rc = at_eol(r, &c);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		s = c.p;
		e = token_end(s, c.end);
		w = classify(s, (size_t)(e - s));
		if (w == W_NONE)
			return unknown_word(r, &c, s, e, false);
		if (w >= W_CPUS)
			return fail_at(r, &c, s,
				       "a directive after the first record: '%s' must come before "
				       "the first record (line %d)",
				       directive_names[w - W_CPUS], r->family_line);
		c.p = e;
		return text_record(r, &c, (enum trace_kind)w, s, rec) ? -1 : 1;
	}
}

/* ---- text header ---- */

static int text_magic(struct trace_reader *r)
{
	static const char magic[] = TRACE_MAGIC;
	const size_t mlen = sizeof(magic) - 1;
	struct cursor c;
	const char *s, *e, *p, *b;
	int64_t v = 0;
	char q[200];

	if (next_line(r, &c) <= 0)
		return r->error.code ? -1
				     : fail(r, 1, 1, "empty file: expected '%s v%d'", magic,
					    TRACE_VERSION);
	e = token_end(c.p, c.end);
	if ((size_t)(e - c.p) != mlen || memcmp(c.p, magic, mlen)) {
		b = find_binary(c.line, c.end);
		if (b)
			return binary_error(r, &c, b);
		return fail_at(r, &c, c.line,
			       "not an idlesim trace: the first line must be '%s v%d' (kernel "
			       "traces: see idlesim import)",
			       magic, TRACE_VERSION);
	}
	c.p = e;
	if (at_eol(r, &c))
		return fail_at(r, &c, c.p, "expected the format version 'v%d' after '%s'",
			       TRACE_VERSION, magic);
	s = c.p;
	e = token_end(s, c.end);
	for (p = s + 1; p < e && p - s <= 18 && *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	if (*s != 'v' || p == s + 1 || p != e) {
		if (find_binary(s, e))
			return bad_token(r, &c, s, "");
		return fail_at(r, &c, s, "expected the format version 'v%d' after '%s', got '%s'",
			       TRACE_VERSION, magic, quote(q, sizeof(q), s, (size_t)(e - s)));
	}
	if (v != TRACE_VERSION)
		return fail_at(r, &c, s,
			       "unsupported trace format version %" PRId64
			       " (this idlesim reads v%d)",
			       v, TRACE_VERSION);
	r->hdr.version = TRACE_VERSION;
	c.p = e;
	return expect_eol(r, &c, "the format version");
}

static int dir_num(struct trace_reader *r, struct cursor *c, const char *name, const char *what,
		   int64_t lo, int64_t hi, int64_t *v)
{
	const char *s;

	skip_ws(c);
	s = c->p;
	if (s == c->end || *s == '#')
		return fail_at(r, c, s, "expected %s after '%s'", what, name);
	if (parse_u63(r, c, what, v))
		return -1;
	if (*v < lo || *v > hi)
		return fail_at(r, c, s,
			       "%s %" PRId64 " is out of range (%" PRId64 " to %" PRId64 ")", name,
			       *v, lo, hi);
	return 0;
}

/* machine NAME: one token. source TEXT: the rest of the line, trimmed. */
static int dir_text(struct trace_reader *r, struct cursor *c, const char *name, bool rest,
		    char *out, size_t size)
{
	const char *s, *e;

	skip_ws(c);
	s = c->p;
	if (rest) {
		e = c->end;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
	} else {
		e = token_end(s, c->end);
	}
	if (s == e || (!rest && *s == '#'))
		return fail_at(r, c, s, "expected a %s after '%s'", rest ? "text" : "name", name);
	if (check_text(r, c, s, e))
		return -1;
	if ((size_t)(e - s) >= size)
		return fail_at(r, c, s, "the %s is longer than %zu bytes", name, size - 1);
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	c->p = e;
	return 0;
}

static int text_directive(struct trace_reader *r, struct cursor *c, enum word w, const char *kw)
{
	struct trace_header *h = &r->hdr;
	int i = w - W_CPUS;
	const char *name = directive_names[i];
	int64_t v;
	int rc;

	if (r->dir_line[i])
		return fail_at(r, c, kw, "duplicate directive '%s' (first on line %d)", name,
			       r->dir_line[i]);
	r->dir_line[i] = c->lineno;
	switch (w) {
	case W_CPUS:
		rc = dir_num(r, c, name, "the number of CPUs", 1, TRACE_MAX_CPUS, &v);
		h->cpus = (int)v;
		break;
	case W_HZ:
		rc = dir_num(r, c, name, "a tick rate", 1, HZ_MAX, &v);
		h->hz = (int)v;
		break;
	case W_START:
		rc = dir_num(r, c, name, "a time (ns)", 0, INT64_MAX, &h->start_ns);
		h->has_start = true;
		break;
	case W_END:
		skip_ws(c);
		r->end_col = col_of(c, c->p);
		rc = dir_num(r, c, name, "a time (ns)", 0, INT64_MAX, &h->end_ns);
		h->has_end = true;
		break;
	case W_MACHINE:
		rc = dir_text(r, c, name, false, h->machine, sizeof(h->machine));
		break;
	default:
		return dir_text(r, c, name, true, h->source, sizeof(h->source));
	}
	return rc ? -1 : expect_eol(r, c, "the value of the directive");
}

/* After the header: cross-checks, and the per-CPU state, sized now that cpus is known. */
static int header_done(struct trace_reader *r)
{
	const struct trace_header *h = &r->hdr;

	if (h->has_start && h->has_end && h->end_ns < h->start_ns) {
		if (r->root)
			return fail_json(r, "end",
					 "end (%" PRId64 ") is before start (%" PRId64 ")",
					 h->end_ns, h->start_ns);
		return fail(r, r->dir_line[W_END - W_CPUS], r->end_col,
			    "end (%" PRId64 ") is before start (%" PRId64 ")", h->end_ns,
			    h->start_ns);
	}
	r->cpu = sim_calloc((size_t)h->cpus, sizeof(*r->cpu));
	return r->cpu ? 0 : fail_nomem(r);
}

static int text_header(struct trace_reader *r)
{
	struct cursor c;
	const char *s = NULL, *e;
	enum word w;
	int rc;

	if (text_magic(r))
		return -1;
	for (;;) {
		rc = next_line(r, &c);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		rc = at_eol(r, &c);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		s = c.p;
		e = token_end(s, c.end);
		w = classify(s, (size_t)(e - s));
		if (w == W_NONE)
			return unknown_word(r, &c, s, e, true);
		if (w < W_CPUS) {
			r->pending = true; /* the first record: trace_next() reads it */
			break;
		}
		c.p = e;
		if (text_directive(r, &c, w, s))
			return -1;
	}
	if (!r->hdr.cpus) {
		if (r->pending)
			return fail_at(r, &c, s,
				       "missing 'cpus' directive before the first record");
		return fail(r, r->lineno, 0,
			    "missing 'cpus' directive: the header must say how many CPUs the trace "
			    "describes");
	}
	return header_done(r);
}

/* ---- JSON scenarios ---- */

static bool json_time_field(enum field f)
{
	return f == F_TIME || f == F_LENGTH || f == F_NEXT_TIMER || f == F_EXPIRY || f == F_PERIOD;
}

/* A non-negative integer member; *present tells whether it is there. */
static int json_uint(struct trace_reader *r, const struct trace_record *rec, json_t *o,
		     enum field f, int64_t *v, bool *present)
{
	const char *name = field_name(rec->kind, f);
	json_t *j = json_object_get(o, name);

	*present = j != NULL;
	if (!j)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return fail_field(r, rec, f, "%s must be a non-negative integer%s", name,
				  json_time_field(f) ? " (ns)" : "");
	*v = json_integer_value(j);
	return 0;
}

static int json_str(struct trace_reader *r, const struct trace_record *rec, json_t *o, enum field f,
		    const char **s, size_t *n)
{
	json_t *j = json_object_get(o, field_name(rec->kind, f));

	if (!json_is_string(j))
		return fail_field(r, rec, f, "%s must be a string: %s", field_name(rec->kind, f),
				  field_what(rec->kind, f));
	*s = json_string_value(j);
	*n = json_string_length(j);
	return 0;
}

/* The members of a record: known for its kind, and the fixed ones present. */
static int json_members(struct trace_reader *r, const struct trace_record *rec, json_t *o)
{
	const struct kind_info *k = &kinds[rec->kind];
	char path[96], q[200];
	const char *key;
	json_t *v;
	enum field f;

	json_object_foreach(o, key, v)
	{
		if (key_field(rec->kind, FB(F_KIND) | k->fixed | k->keys, key, strlen(key)) ==
		    F_NR) {
			snprintf(path, sizeof(path), "records[%ld].%s", rec->index, key);
			return fail_json(r, path, "unknown field '%s' for %s records (expected %s)",
					 quote(q, sizeof(q), key, strlen(key)), k->name,
					 k->json_list);
		}
	}
	for (f = F_CPU; f < F_NR; f++) {
		if ((k->fixed & FB(f)) && !json_object_get(o, field_name(rec->kind, f))) {
			snprintf(path, sizeof(path), "records[%ld]", rec->index);
			return fail_json(r, path, "missing field '%s' in %s record",
					 field_name(rec->kind, f), k->name);
		}
	}
	return 0;
}

static int json_cause(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	const char *s = NULL;
	size_t n = 0;
	int cause;
	char q[200];

	if (json_str(r, rec, o, F_CAUSE, &s, &n))
		return -1;
	cause = cause_from(s, n, rec->kind == TRACE_IDLE);
	if (cause < 0)
		return fail_field(r, rec, F_CAUSE, "expected %s, got '%s'",
				  field_what(rec->kind, F_CAUSE), quote(q, sizeof(q), s, n));
	rec->cause = (enum wake_cause)cause;
	return 0;
}

static int json_id(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	const char *s = NULL;
	size_t n = 0;
	char q[200];

	if (json_str(r, rec, o, F_ID, &s, &n))
		return -1;
	if (!id_valid(s, n))
		return fail_field(r, rec, F_ID, "expected %s, got '%s'",
				  field_what(rec->kind, F_ID), quote(q, sizeof(q), s, n));
	memcpy(rec->id, s, n + 1);
	return 0;
}

/* iowait and load, optional on idle, wake and busy records. */
static int json_iowait_load(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	json_t *j = json_object_get(o, "load");
	bool present;
	int64_t v;
	double x;

	if (json_uint(r, rec, o, F_IOWAIT, &v, &present) || (present && check_iowait(r, rec, v)))
		return -1;
	if (!j)
		return 0;
	if (!json_is_number(j))
		return fail_field(r, rec, F_LOAD, "load must be a number");
	x = json_number_value(j);
	if (!(x >= 0 && x < LOAD_LIMIT))
		return fail_field(r, rec, F_LOAD, "load %g is out of range (0 <= load < %d)", x,
				  LOAD_LIMIT);
	/* x * 2048 is exact in binary; adding a half and truncating rounds halves up */
	rec->load = (unsigned long)(x * LOAD_ONE + 0.5);
	rec->has_load = true;
	return 0;
}

static int json_kind(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	json_t *t = json_object_get(o, "type");
	char path[96], q[200];
	enum word w;

	snprintf(path, sizeof(path), "records[%ld]", rec->index);
	if (!json_is_object(o))
		return fail_json(r, path, "a record must be an object");
	if (!t)
		return fail_json(r, path,
				 "missing field 'type' (idle, timer, cancel, wake or busy)");
	if (!json_is_string(t))
		return fail_field(r, rec, F_KIND,
				  "type must be a string (idle, timer, cancel, wake or busy)");
	w = json_string_length(t) ? classify(json_string_value(t), json_string_length(t)) : W_NONE;
	if (w > W_BUSY)
		return fail_field(
			r, rec, F_KIND,
			"unknown record '%s' (expected idle, timer, cancel, wake or busy)",
			quote(q, sizeof(q), json_string_value(t), json_string_length(t)));
	rec->kind = (enum trace_kind)w;
	return 0;
}

static int json_record(struct trace_reader *r, struct trace_record *rec)
{
	json_t *o = json_array_get(r->records, (size_t)r->nrec);
	unsigned int seen = 0;
	bool present;
	int64_t v;
	int rc = 0;

	record_init(r, rec, TRACE_IDLE);
	if (json_kind(r, rec, o) || check_family(r, rec) || json_members(r, rec, o))
		return -1;
	if (json_uint(r, rec, o, F_CPU, &v, &present) || check_cpu(r, rec, v) ||
	    json_uint(r, rec, o, F_TIME, &rec->time_ns, &present))
		return -1;
	switch (rec->kind) {
	case TRACE_IDLE:
		rc = json_uint(r, rec, o, F_LENGTH, &rec->length_ns, &present) ||
		     check_length(r, rec) || json_cause(r, rec, o) ||
		     json_uint(r, rec, o, F_NEXT_TIMER, &rec->next_timer_ns, &present);
		if (present)
			seen |= FB(F_NEXT_TIMER);
		rc = rc || json_iowait_load(r, rec, o);
		break;
	case TRACE_TIMER:
		rc = json_id(r, rec, o) ||
		     json_uint(r, rec, o, F_EXPIRY, &rec->expiry_ns, &present) ||
		     json_uint(r, rec, o, F_PERIOD, &v, &present) ||
		     (present && check_period(r, rec, v));
		break;
	case TRACE_CANCEL:
		rc = json_id(r, rec, o);
		break;
	case TRACE_WAKE:
		rc = json_cause(r, rec, o) || json_iowait_load(r, rec, o);
		break;
	case TRACE_BUSY:
		rc = json_uint(r, rec, o, F_LENGTH, &rec->length_ns, &present) ||
		     check_length(r, rec) || json_iowait_load(r, rec, o);
		break;
	}
	if (rc)
		return -1;
	return check_record(r, rec, seen);
}

static int json_next(struct trace_reader *r, struct trace_record *rec)
{
	if (!r->records || (size_t)r->nrec >= json_array_size(r->records))
		return 0;
	return json_record(r, rec) ? -1 : 1;
}

/* An integer header member in [lo, hi] (a time if hi is INT64_MAX); absent leaves *v alone. */
static int json_hdr_int(struct trace_reader *r, const char *name, int64_t lo, int64_t hi,
			int64_t *v, bool *present)
{
	json_t *j = json_object_get(r->root, name);

	*present = j != NULL;
	if (!j)
		return 0;
	if (hi == INT64_MAX && (!json_is_integer(j) || json_integer_value(j) < 0))
		return fail_json(r, name, "%s must be a non-negative integer (ns)", name);
	if (!json_is_integer(j))
		return fail_json(r, name, "%s must be an integer (%" PRId64 " to %" PRId64 ")",
				 name, lo, hi);
	*v = json_integer_value(j);
	if (*v < lo || *v > hi)
		return fail_json(r, name,
				 "%s %" PRId64 " is out of range (%" PRId64 " to %" PRId64 ")",
				 name, *v, lo, hi);
	return 0;
}

/*
 * machine (a word) and source (a line of text): held to what the text form can say, so that
 * a scenario converted to text reads back the same.
 */
static int json_hdr_str(struct trace_reader *r, const char *name, bool word, char *out, size_t size)
{
	json_t *j = json_object_get(r->root, name);
	const char *s = json_string_value(j);
	size_t i, n = json_string_length(j);

	if (!j)
		return 0;
	if (!json_is_string(j))
		return fail_json(r, name, "%s must be a string", name);
	if (n >= size)
		return fail_json(r, name, "the %s is longer than %zu bytes", name, size - 1);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f || (word && s[i] == ' '))
			return fail_json(r, name, "the %s must be %s", name,
					 word ? "one word" : "one line of text");
	if (word && (!n || s[0] == '#'))
		return fail_json(r, name, "the %s must be one word", name);
	memcpy(out, s, n + 1);
	return 0;
}

static int json_hdr_keys(struct trace_reader *r)
{
	static const char *const keys[] = {"format", "version", "cpus",	  "hz",	    "machine",
					   "start",  "end",	"source", "records"};
	const char *key;
	json_t *v;
	size_t i;
	char q[200];

	json_object_foreach(r->root, key, v)
	{
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(key, keys[i]))
				break;
		if (i == sizeof(keys) / sizeof(keys[0]))
			return fail_json(r, key,
					 "unknown field '%s' (expected format, version, cpus, hz, "
					 "machine, start, end, source or records)",
					 quote(q, sizeof(q), key, strlen(key)));
	}
	return 0;
}

static int json_header(struct trace_reader *r)
{
	struct trace_header *h = &r->hdr;
	json_error_t je;
	json_t *j;
	int64_t v = 0;
	bool present;

	r->root = json_loadb(r->buf, r->len, JSON_REJECT_DUPLICATES, &je);
	if (!r->root)
		return fail(r, je.line, je.column, "%s", je.text);
	if (!json_is_object(r->root))
		return fail_json(r, "", "a JSON scenario must be an object");
	if (json_hdr_keys(r))
		return -1;
	j = json_object_get(r->root, "format");
	if (!j)
		return fail_json(r, "", "not an idlesim scenario: missing \"format\": \"%s\"",
				 TRACE_MAGIC);
	if (!json_is_string(j) || strcmp(json_string_value(j), TRACE_MAGIC))
		return fail_json(r, "format", "not an idlesim scenario: format must be \"%s\"",
				 TRACE_MAGIC);
	j = json_object_get(r->root, "version");
	if (!j)
		return fail_json(r, "", "missing \"version\": %d", TRACE_VERSION);
	if (!json_is_integer(j))
		return fail_json(r, "version", "version must be an integer");
	if (json_integer_value(j) != TRACE_VERSION)
		return fail_json(r, "version",
				 "unsupported trace format version %" JSON_INTEGER_FORMAT
				 " (this idlesim reads v%d)",
				 json_integer_value(j), TRACE_VERSION);
	h->version = TRACE_VERSION;
	if (json_hdr_int(r, "cpus", 1, TRACE_MAX_CPUS, &v, &present))
		return -1;
	if (!present)
		return fail_json(r, "", "missing field 'cpus' (the number of CPUs, 1 to %d)",
				 TRACE_MAX_CPUS);
	h->cpus = (int)v;
	if (json_hdr_int(r, "hz", 1, HZ_MAX, &v, &present))
		return -1;
	h->hz = present ? (int)v : 0;
	if (json_hdr_int(r, "start", 0, INT64_MAX, &h->start_ns, &h->has_start) ||
	    json_hdr_int(r, "end", 0, INT64_MAX, &h->end_ns, &h->has_end) ||
	    json_hdr_str(r, "machine", true, h->machine, sizeof(h->machine)) ||
	    json_hdr_str(r, "source", false, h->source, sizeof(h->source)))
		return -1;
	r->records = json_object_get(r->root, "records");
	if (r->records && !json_is_array(r->records))
		return fail_json(r, "records", "records must be an array");
	return header_done(r);
}

/* Read the rest of the input: a JSON scenario is parsed whole. */
static int read_all(struct trace_reader *r)
{
	while (!r->eof) {
		if (r->cap - r->len < BUF_SIZE / 2 &&
		    sim_grow((void **)&r->buf, &r->cap, r->cap * 2, 1))
			return fail_nomem(r);
		if (fill(r))
			return -1;
	}
	r->buf[r->len] = '\0';
	return 0;
}

/* ---- opening and closing ---- */

static struct trace_reader *reader_new(const char *name, struct sim_error *err)
{
	struct trace_reader *r = sim_calloc(1, sizeof(*r));

	if (!r) {
		sim_error_nomem(err, name);
		return NULL;
	}
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->fd = -1;
	return r;
}

/* Copy the reader's error to the caller's (first error wins there too). */
static int report(struct sim_error *err, const struct sim_error *e)
{
	return sim_error_set(err, e->code, e->source, e->line, e->column, "%s", e->text);
}

/* Text or JSON, by the first non-blank byte; then the header. */
static struct trace_reader *reader_start(struct trace_reader *r, struct sim_error *err)
{
	size_t i = 0;
	int rc;

	for (;;) {
		while (i < r->len && (r->buf[i] == ' ' || r->buf[i] == '\t' || r->buf[i] == '\n' ||
				      r->buf[i] == '\r'))
			i++;
		if (i < r->len)
			break;
		if (r->eof) {
			fail(r, 1, 1, "empty file: expected '%s v%d'", TRACE_MAGIC, TRACE_VERSION);
			goto fail;
		}
		if (r->len + 1 >= r->cap)
			break; /* a buffer full of blanks: not JSON, and too much to skip */
		if (fill(r))
			goto fail;
	}
	if (i < r->len && r->buf[i] == '{')
		rc = read_all(r) || json_header(r);
	else
		rc = text_header(r);
	if (!rc)
		return r;
fail:
	report(err, &r->error);
	trace_close(r);
	return NULL;
}

struct trace_reader *trace_open(const char *path, struct sim_error *err)
{
	bool std_in = !strcmp(path, "-");
	struct trace_reader *r = reader_new(std_in ? "<stdin>" : path, err);

	if (!r)
		return NULL;
	r->cap = BUF_SIZE;
	r->buf = sim_malloc(r->cap);
	if (!r->buf) {
		sim_error_nomem(err, path);
		trace_close(r);
		return NULL;
	}
	if (std_in) {
		r->fd = STDIN_FILENO;
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open: %s",
				      strerror(errno));
			trace_close(r);
			return NULL;
		}
		r->close_fd = true;
	}
	return reader_start(r, err);
}

struct trace_reader *trace_open_string(const char *name, const char *text, struct sim_error *err)
{
	struct trace_reader *r = reader_new(name, err);
	size_t n = strlen(text);

	if (!r)
		return NULL;
	/* a private copy: the caller's string need not outlive the reader */
	r->buf = sim_malloc(n + 1);
	if (!r->buf) {
		sim_error_nomem(err, name);
		trace_close(r);
		return NULL;
	}
	memcpy(r->buf, text, n + 1);
	r->cap = n + 1;
	r->len = n;
	r->eof = true;
	return reader_start(r, err);
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->close_fd)
		close(r->fd);
	json_decref(r->root);
	sim_free(r->cpu);
	sim_free(r->buf);
	sim_free(r);
}

const struct trace_header *trace_header(const struct trace_reader *r)
{
	return &r->hdr;
}

const char *trace_source_name(const struct trace_reader *r)
{
	return r->name;
}

int trace_next(struct trace_reader *r, struct trace_record *rec, struct sim_error *err)
{
	int rc;

	if (r->error.code != SIM_OK)
		return report(err, &r->error);
	rc = r->root ? json_next(r, rec) : text_next(r, rec);
	if (rc < 0)
		return report(err, &r->error);
	return rc;
}

int trace_record_error(struct trace_reader *r, const struct trace_record *rec,
		       struct sim_error *err, const char *fmt, ...)
{
	char text[sizeof(err->text)], path[48];
	int line = rec->line, col = rec->column;
	va_list ap;

	if (r->root) {
		snprintf(path, sizeof(path), "records[%ld]", rec->index);
		jsonpos_find(r->buf, path, &line, &col);
	}
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return sim_error_set(err, SIM_ERR_INPUT, r->name, line, col, "%s", text);
}

/* ---- writer ---- */

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(p, tmp + i, sizeof(tmp) - (size_t)i);
	return p + sizeof(tmp) - i;
}

static char *put_s64(char *p, int64_t v)
{
	if (v >= 0)
		return put_u64(p, (uint64_t)v);
	*p++ = '-';
	return put_u64(p, 0 - (uint64_t)v);
}

/*
 * load/2048 exactly: the fraction f/2048 is f * 5^11 / 10^11, so 11 decimals always
 * suffice; trailing zeros are dropped. Reading it back gives the same fixed-point value.
 */
static char *put_load(char *p, unsigned long load)
{
	uint64_t frac = (uint64_t)(load & (LOAD_ONE - 1)) * 48828125u;
	char d[11];
	int i, n = 11;

	p = put_u64(p, load / LOAD_ONE);
	if (!frac)
		return p;
	for (i = 10; i >= 0; i--) {
		d[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	while (d[n - 1] == '0')
		n--;
	*p++ = '.';
	memcpy(p, d, (size_t)n);
	return p + n;
}

static char *put_iowait_load(char *p, const struct trace_record *rec)
{
	if (rec->has_iowait) {
		p = put_str(p, " iowait=");
		p = put_u64(p, rec->iowait);
	}
	if (rec->has_load) {
		p = put_str(p, " load=");
		p = put_load(p, rec->load);
	}
	return p;
}

static char *put_id(char *p, const char *id)
{
	size_t n = strnlen(id, TRACE_ID_LEN - 1);

	*p++ = ' ';
	memcpy(p, id, n);
	return p + n;
}

int trace_write_header(FILE *f, const struct trace_header *h)
{
	char src[sizeof(h->source)];
	size_t i;

	if (fprintf(f, "%s v%d\ncpus %d\n", TRACE_MAGIC, TRACE_VERSION, h->cpus) < 0)
		return -1;
	if (h->hz > 0 && fprintf(f, "hz %d\n", h->hz) < 0)
		return -1;
	if (h->machine[0] &&
	    fprintf(f, "machine %.*s\n", (int)sizeof(h->machine) - 1, h->machine) < 0)
		return -1;
	if (h->has_start && fprintf(f, "start %" PRId64 "\n", h->start_ns) < 0)
		return -1;
	if (h->has_end && fprintf(f, "end %" PRId64 "\n", h->end_ns) < 0)
		return -1;
	if (h->source[0]) {
		/* one line: a control character would end the directive or break the reader */
		for (i = 0; i < sizeof(src) - 1 && h->source[i]; i++)
			src[i] = (unsigned char)h->source[i] < 0x20 || h->source[i] == 0x7f
					 ? ' '
					 : h->source[i];
		src[i] = '\0';
		if (fprintf(f, "source %s\n", src) < 0)
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

/* One record, canonical form: formatted by hand into a line buffer, one fwrite. */
int trace_write_record(FILE *f, const struct trace_record *rec)
{
	char buf[320], *p = buf;

	p = put_str(p, rec->kind <= TRACE_BUSY ? kinds[rec->kind].name : "?");
	*p++ = ' ';
	p = put_s64(p, rec->cpu);
	*p++ = ' ';
	p = put_s64(p, rec->time_ns);
	switch (rec->kind) {
	case TRACE_IDLE:
		*p++ = ' ';
		p = put_s64(p, rec->length_ns);
		*p++ = ' ';
		p = put_str(p, wake_cause_name(rec->cause));
		if (rec->cause != WAKE_TIMER && rec->next_timer_ns >= 0) {
			p = put_str(p, " next_timer=");
			p = put_s64(p, rec->next_timer_ns);
		}
		p = put_iowait_load(p, rec);
		break;
	case TRACE_TIMER:
		p = put_id(p, rec->id);
		*p++ = ' ';
		p = put_s64(p, rec->expiry_ns);
		if (rec->period_ns > 0) {
			p = put_str(p, " period=");
			p = put_s64(p, rec->period_ns);
		}
		break;
	case TRACE_CANCEL:
		p = put_id(p, rec->id);
		break;
	case TRACE_WAKE:
		*p++ = ' ';
		p = put_str(p, wake_cause_name(rec->cause));
		p = put_iowait_load(p, rec);
		break;
	case TRACE_BUSY:
		*p++ = ' ';
		p = put_s64(p, rec->length_ns);
		p = put_iowait_load(p, rec);
		break;
	}
	*p++ = '\n';
	return fwrite(buf, 1, (size_t)(p - buf), f) == (size_t)(p - buf) ? 0 : -1;
}
