// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - reader of the native trace format (traces/FORMAT.md): opening a trace, telling
 * text from JSON, and the text reader.
 *
 * The rest of the trace module: sim/trace/trace_check.c, what the text and JSON readers share
 * (errors, field tables, the checks of each record; its opening comment says what the reader
 * checks); sim/trace/trace_json.c, the JSON scenarios; sim/trace/trace_write.c, the writer. What they
 * share is declared in sim/trace/trace_int.h.
 *
 * How it streams. A text trace is read with read(2) into one 64 KiB buffer. Lines are cut
 * out of it in place (memchr for the newline), and when no whole line is left, the unread
 * tail moves to the front and the rest of the buffer is refilled. A line may not exceed
 * TRACE_MAX_LINE, so the buffer always holds a whole one. Besides the buffer, the reader
 * allocates one array of per-CPU state after the header, and nothing while records are
 * read: memory does not grow with the trace.
 *
 * Why hand-written parsing. Traces of hundreds of MB are replayed many times; the reader
 * must not be the bottleneck. sscanf() and strtoll() accept what the format forbids (signs,
 * leading blanks, hex), need NUL-terminated text, and cannot say where a field went wrong.
 * Here each byte of a record is looked at once or twice, keywords are told apart by first
 * character and length, and every field keeps its column for the messages.
 */
#include "sim/trace/trace_int.h"
#include "sim/base/alloc.h"
#include "sim/base/jsonpos.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#define BUF_SIZE (64 * 1024)
#define U63_TENTH 922337203685477580ULL /* INT64_MAX / 10: more digits would overflow */
#define FRAC_DIGITS 12			/* decimals of a load that can change its rounding */
#define FRAC_ONE 1000000000000ULL	/* 10^FRAC_DIGITS */

static const char *const directive_names[NR_DIRECTIVES] = {"cpus",  "hz",  "machine",
							   "start", "end", "source",
							   "tick_phase"};

/* A line being parsed: [line, end), p is the next byte to look at. */
struct cursor {
	const char *line, *p, *end;
	int lineno;
};

/* ---- errors ---- */

static int fail_io(struct trace_reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct trace_reader *r, const struct cursor *c, const char *p, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

static int fail_io(struct trace_reader *r, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_vfail(r, SIM_ERR_IO, line, 0, fmt, ap);
	va_end(ap);
	return -1;
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
	trace_vfail(r, SIM_ERR_INPUT, c->lineno, col_of(c, p), fmt, ap);
	va_end(ap);
	return -1;
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
	return trace_fail(r, lineno, TRACE_MAX_LINE + 1, "line is longer than %d bytes",
			  TRACE_MAX_LINE);
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

/* Read the rest of the input: a JSON scenario is parsed whole. */
static int read_all(struct trace_reader *r)
{
	while (!r->eof) {
		if (r->cap - r->len < BUF_SIZE / 2 &&
		    sim_grow((void **)&r->buf, &r->cap, r->cap * 2, 1))
			return trace_fail_nomem(r);
		if (fill(r))
			return -1;
	}
	r->buf[r->len] = '\0';
	return 0;
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
	return fail_at(r, c, s, "expected %s, got '%s'", what, trace_quote(q, sizeof(q), s, e - s));
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
		       trace_quote(q, sizeof(q), c->p, token_end(c->p, c->end) - c->p), after);
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

/* ---- text records ---- */

/* Skip to field f; it must be there. Remembers its column. */
static int text_expect(struct trace_reader *r, struct cursor *c, const struct trace_record *rec,
		       enum field f)
{
	skip_ws(c);
	r->col[f] = (int)(c->p - c->line) + 1; /* the fields before are ASCII: bytes are columns */
	if (c->p == c->end || *c->p == '#')
		return fail_at(r, c, c->p, "expected %s at end of line",
			       trace_field_what(rec->kind, f));
	return 0;
}

static int text_num(struct trace_reader *r, struct cursor *c, const struct trace_record *rec,
		    enum field f, int64_t *v)
{
	if (text_expect(r, c, rec, f))
		return -1;
	return parse_u63(r, c, trace_field_what(rec->kind, f), v);
}

static int text_cause(struct trace_reader *r, struct cursor *c, struct trace_record *rec)
{
	const char *s, *e;
	int cause;

	if (text_expect(r, c, rec, F_CAUSE))
		return -1;
	s = c->p;
	e = token_end(s, c->end);
	cause = trace_cause_from(s, (size_t)(e - s), rec->kind == TRACE_IDLE);
	if (cause < 0)
		return bad_token(r, c, s, trace_field_what(rec->kind, F_CAUSE));
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
	if (!trace_id_valid(s, (size_t)(e - s)))
		return bad_token(r, c, s, trace_field_what(rec->kind, F_ID));
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
		return bad_token(r, c, s, trace_field_what(rec->kind, F_LOAD));
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
			return bad_token(r, c, s, trace_field_what(rec->kind, F_LOAD));
	}
	if (p < c->end && *p != ' ' && *p != '\t')
		return bad_token(r, c, s, trace_field_what(rec->kind, F_LOAD));
	if (ip >= LOAD_LIMIT)
		return fail_at(r, c, s, "load %s is out of range (0 <= load < %d)",
			       trace_quote(buf, sizeof(buf), s, (size_t)(p - s)), LOAD_LIMIT);
	for (; nfrac < FRAC_DIGITS; nfrac++)
		frac *= 10;
	q = frac * LOAD_ONE;
	rec->load = (unsigned long)(ip * LOAD_ONE + q / FRAC_ONE + (q % FRAC_ONE >= FRAC_ONE / 2));
	rec->has_load = true;
	c->p = p;
	return 0;
}

/* A value that is a word, checked by `check` (resched=, timer=, kind=). */
static int text_word(struct trace_reader *r, struct cursor *c, struct trace_record *rec,
		     int (*check)(struct trace_reader *, struct trace_record *, const char *,
				  size_t))
{
	const char *e = token_end(c->p, c->end);
	int rc;

	if (find_binary(c->p, e))
		return bad_token(r, c, c->p, "");
	rc = check(r, rec, c->p, (size_t)(e - c->p));
	c->p = e;
	return rc;
}

static int text_value(struct trace_reader *r, struct cursor *c, struct trace_record *rec,
		      enum field f)
{
	int64_t v;

	switch (f) {
	case F_NEXT_TIMER:
		return parse_u63(r, c, trace_field_what(rec->kind, f), &rec->next_timer_ns);
	case F_NEXT_WHEEL:
		return parse_u63(r, c, trace_field_what(rec->kind, f), &rec->next_wheel_ns);
	case F_KEEP_TICK:
		return parse_u63(r, c, trace_field_what(rec->kind, f), &rec->keep_tick_ns);
	case F_SLACK:
		return parse_u63(r, c, trace_field_what(rec->kind, f), &rec->slack_ns);
	case F_IOWAIT:
		return parse_u63(r, c, trace_field_what(rec->kind, f), &v) ||
				       trace_check_iowait(r, rec, v)
			       ? -1
			       : 0;
	case F_LOAD:
		return text_load(r, c, rec);
	case F_PERIOD:
		return parse_u63(r, c, trace_field_what(rec->kind, f), &v) ||
				       trace_check_period(r, rec, v)
			       ? -1
			       : 0;
	case F_RESCHED:
		return text_word(r, c, rec, trace_check_resched);
	case F_DEFERRABLE:
		return text_word(r, c, rec, trace_check_deferrable);
	case F_GLOBAL:
		return text_word(r, c, rec, trace_check_global);
	case F_TKIND:
		return text_word(r, c, rec, trace_check_tkind);
	default:
		return -1;
	}
}

/* The optional key=value fields, in any order, each at most once. */
static int text_keys(struct trace_reader *r, struct cursor *c, struct trace_record *rec,
		     unsigned int *seen)
{
	const struct kind_info *k = &trace_kinds[rec->kind];
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
		f = trace_key_field(rec->kind, k->keys, s, (size_t)(q - s));
		if (f == F_NR) {
			if (find_binary(s, q))
				return bad_token(r, c, s, "key=value");
			return fail_at(r, c, s, "unknown key '%s' for %s records (expected %s)",
				       trace_quote(buf, sizeof(buf), s, (size_t)(q - s)), k->name,
				       k->key_list);
		}
		if (*seen & FB(f))
			return fail_at(r, c, s, "duplicate key '%s'",
				       trace_field_name(rec->kind, f));
		*seen |= FB(f);
		c->p = q + 1;
		r->col[f] = (int)(c->p - c->line) + 1; /* messages point at the value */
		if (c->p == c->end || *c->p == ' ' || *c->p == '\t')
			return fail_at(r, c, c->p, "expected %s after '%s='",
				       trace_field_what(rec->kind, f),
				       trace_field_name(rec->kind, f));
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

	trace_record_init(r, rec, kind);
	rec->line = c->lineno;
	r->col[F_KIND] = (int)(kw - c->line) + 1;
	if (trace_check_family(r, rec))
		return -1;
	if (text_num(r, c, rec, F_CPU, &v) || trace_check_cpu(r, rec, v) ||
	    text_num(r, c, rec, F_TIME, &rec->time_ns) || trace_check_time(r, rec))
		return -1;
	rec->column = r->col[F_TIME];
	switch (kind) {
	case TRACE_IDLE:
		rc = text_num(r, c, rec, F_LENGTH, &rec->length_ns) || trace_check_length(r, rec) ||
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
		rc = text_num(r, c, rec, F_LENGTH, &rec->length_ns) || trace_check_length(r, rec);
		break;
	}
	if (rc || (kind != TRACE_CANCEL && text_keys(r, c, rec, &seen)))
		return -1;
	return trace_check_record(r, rec, seen);
}

static int unknown_word(struct trace_reader *r, const struct cursor *c, const char *s,
			const char *e, bool in_header)
{
	char q[200];

	if (find_binary(s, e))
		return bad_token(r, c, s, "");
	trace_quote(q, sizeof(q), s, (size_t)(e - s));
	if (in_header)
		return fail_at(r, c, s,
			       "unknown directive or record '%s' (directives: cpus, hz, machine, "
			       "start, end, source, tick_phase; records: idle, timer, cancel, wake, busy)",
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
		w = trace_classify(s, (size_t)(e - s));
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
				     : trace_fail(r, 1, 1, "empty file: expected '%s v%d'", magic,
						  TRACE_VERSION);
	e = token_end(c.p, c.end);
	if ((size_t)(e - c.p) != mlen || memcmp(c.p, magic, mlen)) {
		if (sim_has_bom(c.line, (size_t)(c.end - c.line)))
			return fail_at(r, &c, c.line, SIM_BOM_MESSAGE);
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
			       TRACE_VERSION, magic, trace_quote(q, sizeof(q), s, (size_t)(e - s)));
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
		rc = dir_num(r, c, name, "a time (ns)", 0, SIM_TIME_MAX_NS, &h->start_ns);
		h->has_start = true;
		break;
	case W_TICK_PHASE:
		rc = dir_num(r, c, name, "a time (ns)", 0, SIM_TIME_MAX_NS, &h->tick_phase_ns);
		h->has_tick_phase = true;
		break;
	case W_END:
		skip_ws(c);
		r->end_col = col_of(c, c->p);
		rc = dir_num(r, c, name, "a time (ns)", 0, SIM_TIME_MAX_NS, &h->end_ns);
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
		w = trace_classify(s, (size_t)(e - s));
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
		return trace_fail(
			r, r->lineno, 0,
			"missing 'cpus' directive: the header must say how many CPUs the trace "
			"describes");
	}
	return trace_header_done(r);
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

/* Binary by its magic's first byte, else text or JSON by the first non-blank one; then the header. */
static struct trace_reader *reader_start(struct trace_reader *r, struct sim_error *err)
{
	size_t i = 0;
	int rc;

	if (!r->len && fill(r))
		goto fail;
	/* 0x89 starts no text line (it is not valid UTF-8), nor JSON: the binary form's magic */
	if (r->len && (unsigned char)r->buf[0] == (unsigned char)TRACE_BIN_MAGIC[0]) {
		if (!trace_bin_header(r))
			return r;
		goto fail;
	}
	for (;;) {
		while (i < r->len && (r->buf[i] == ' ' || r->buf[i] == '\t' || r->buf[i] == '\n' ||
				      r->buf[i] == '\r'))
			i++;
		if (i < r->len)
			break;
		if (r->eof) {
			trace_fail(r, 1, 1, "empty file: expected '%s v%d'", TRACE_MAGIC,
				   TRACE_VERSION);
			goto fail;
		}
		if (r->len + 1 >= r->cap)
			break; /* a buffer full of blanks: not JSON, and too much to skip */
		if (fill(r))
			goto fail;
	}
	if (i < r->len && r->buf[i] == '{')
		rc = read_all(r) || trace_json_header(r);
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
	return trace_open_as(path, strcmp(path, "-") ? path : "<stdin>", err);
}

struct trace_reader *trace_open_as(const char *path, const char *name, struct sim_error *err)
{
	bool std_in = !strcmp(path, "-");
	struct trace_reader *r = reader_new(name, err);

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
	trace_bin_close(r);
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

bool trace_is_binary(const struct trace_reader *r)
{
	return r->bin != NULL;
}

int trace_next(struct trace_reader *r, struct trace_record *rec, struct sim_error *err)
{
	int rc;

	if (r->error.code != SIM_OK)
		return report(err, &r->error);
	rc = r->bin ? trace_bin_next(r, rec) : r->root ? trace_json_next(r, rec) : text_next(r, rec);
	if (rc < 0 || (rc == 0 && trace_check_end(r)))
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
	if (r->bin)
		return sim_error_set(err, SIM_ERR_INPUT, r->name, 0, 0, "byte %" PRId64 ": %s",
				     rec->offset, text);
	return sim_error_set(err, SIM_ERR_INPUT, r->name, line, col, "%s", text);
}

/* ---- the native reader as a record source ---- */

static int trace_src_next(void *ctx, struct trace_record *rec, struct sim_error *err)
{
	return trace_next(ctx, rec, err);
}

static int trace_src_error(void *ctx, const struct trace_record *rec, struct sim_error *err,
			   const char *msg)
{
	return trace_record_error(ctx, rec, err, "%s", msg);
}

void record_source_from_trace(struct record_source *src, struct trace_reader *r)
{
	src->hdr = trace_header(r);
	src->next = trace_src_next;
	src->error_at = trace_src_error;
	src->ctx = r;
}
