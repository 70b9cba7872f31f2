// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_datcheck.c - the structure of a trace.dat, checked before libtracecmd reads it.
 *
 * libtracecmd trusts the sizes and offsets a trace.dat holds: a size that runs past the end
 * of the file, a page whose events overrun it, or a failure half-way through opening (after
 * which its own clean-up walks lists it never set up) ends in SIGSEGV, not in an error. So
 * every size, offset, count and string that libtracecmd or libtraceevent acts on is checked
 * here first, against the file's length and against the limits below, and the first one
 * wrong is reported as
 *
 *	FILE: trace.dat damaged: WHAT (offset N)
 *
 * with N the byte of the file where the wrong value is (exit status 2; nothing is written).
 * The layouts are those of trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt and
 * .v7.5.txt, read the way libtracecmd (trace-input.c) and libtraceevent (kbuffer-parse.c)
 * read them:
 *
 *   version 6  magic, "6", endianness, long size, page size; header_page (parsed: the ring
 *              buffer page header the pages are read with), header_event; the ftrace and
 *              the per-system event formats (counts, sizes, NUL-terminated system names);
 *              kallsyms, printk formats, saved command lines (sizes); the CPU count; the
 *              options (each known option's content); "flyrecord" and the (offset, size) of
 *              each CPU's data, then the trace_clock text when the TRACECLOCK option is set;
 *   version 7  the same up to the page size, the compression name and version, the first
 *              options section's offset; then every section header from there to the end of
 *              the file (as libtracecmd walks them for the strings section: id, flags and
 *              size, each section inside the file, the last ending at its end); the chain of
 *              options sections (each offset a section of id 0, strictly increasing, so no
 *              loop), each option inside its section, DONE last; the metadata sections the
 *              options point to (of the id they name; their content as for version 6 when
 *              not compressed); the top instance's BUFFER option (CPU ids, page size) and
 *              its flyrecord section, each CPU's data inside it;
 *   CPU data   every page of every CPU (uncompressed): the commit size inside the page's
 *              data area, the stored lost-events count inside the page, and each event, as
 *              kbuffer walks them (type_len, time extends, padding, array lengths), inside
 *              the commit size and moving forward.
 *
 * Compressed content (version 7 with zstd or zlib) cannot be checked without decompressing
 * it: for those sections and chunks only the compression headers are checked here (sizes
 * inside the section, each chunk's uncompressed size a whole number of pages), and
 * dat_layout.compressed tells import_dat.c to read the file once in a child process first
 * (the second line of defence; docs/import.md).
 *
 * Not trace.dat damage but refused here as well, because libtracecmd would crash on them or
 * they hold nothing to import: a header_page of an old kernel (before 2.6.31, empty), a
 * latency-tracer trace.dat (text, no per-CPU events), an event-hook option (trace-cmd record
 * -H: libtracecmd dereferences NULL on a malformed one), a compressed options section.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"
#include "sim/trace/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RD_CACHE (1 << 16)	  /* read cache */
#define MAX_TEXT (1u << 16)	  /* header_page, header_event */
#define MAX_FORMAT (1u << 20)	  /* one event format */
#define MAX_FORMATS (1u << 20)	  /* formats per system, ftrace formats */
#define MAX_SYSTEMS (1u << 16)	  /* event systems */
#define MAX_SYSTEM_NAME 255	  /* libtracecmd's read_string overflows beyond BUFSIZ */
#define MAX_BLOB (256u << 20)	  /* kallsyms, printk formats, command lines */
#define MAX_OPTION (16u << 20)	  /* one option's data */
#define MAX_SECTIONS 100000	  /* version 7 */
#define MAX_CHUNK (64u << 20)	  /* a compressed chunk's uncompressed size */
#define MAX_CHUNKS (1u << 24)	  /* per CPU */
#define MAX_INFLATED (1ull << 30) /* a compressed metadata section, uncompressed */
#define MIN_PAGE 4096u		  /* page sizes: powers of two in this range */
#define MAX_PAGE (16u << 20)
#define COMMIT_MASK ((1u << 27) - 1) /* the ring buffer page's commit field */
#define MISSING_EVENTS (1u << 31)
#define MISSING_STORED (1u << 30)
#define SEC_COMPRESSED 1u

enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_HOOK = 6,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
	OPT_PROCMAPS = 10,
	OPT_TRACEID = 11,
	OPT_TIME_SHIFT = 12,
	OPT_GUEST = 13,
	OPT_TSC2NSEC = 14,
	OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

struct section {
	uint64_t at, data, size; /* header offset, data offset, data size */
	unsigned id, flags;
};

struct rd {
	int fd;
	uint64_t len; /* the file's length */
	bool big;     /* big-endian file */
	int version;
	uint32_t page;
	unsigned commit_size; /* the page header's commit field: 4 or 8 bytes */
	bool has_header_page;
	bool compressed; /* version 7: a compression other than "none" */
	bool traceclock; /* version 6: the TRACECLOCK option is set */
	bool top_buffer;
	uint64_t buf_opt;   /* the top BUFFER option in the file */
	uint64_t buf_table; /* its CPU table */
	uint32_t buf_cpus;
	uint32_t cpucount; /* the CPUCOUNT option, 0 if none */
	unsigned char *cache;
	uint64_t coff;
	size_t clen;
	struct section *sec; /* version 7: every section, in file order */
	size_t nsec;
	uint64_t opt_sec[OPT_CMDLINES + 1]; /* version 7: a metadata option's section offset + 1 */
	unsigned char *pagebuf;
	const char *name;
	struct sim_error *err;
	struct dat_layout *lay;
};

/* A position and a limit: the file's end, or a section's, or an option's. */
struct cur {
	struct rd *r;
	uint64_t pos, end;
	const char *within; /* "the file", "its section", "the option" */
};

static int damaged(struct rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int damaged(struct rd *r, uint64_t off, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sim_error_set(r->err, SIM_ERR_INPUT, r->name, 0, 0,
			     "trace.dat damaged: %s (offset %llu)", msg, (unsigned long long)off);
}

/* Not damage, but a trace.dat idlesim cannot read: the same form without "damaged". */
static int refused(struct rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refused(struct rd *r, uint64_t off, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sim_error_set(r->err, SIM_ERR_INPUT, r->name, 0, 0, "trace.dat: %s (offset %llu)",
			     msg, (unsigned long long)off);
}

/* A string for a message: printable ASCII kept, other bytes as \xNN. */
static const char *printable(const char *s, char *buf, size_t n)
{
	size_t k = 0;

	for (; *s && k + 5 < n; s++)
		k += (size_t)snprintf(buf + k, n - k,
				      *s >= 32 && *s < 127 && *s != '"' && *s != '\\' ? "%c"
										      : "\\x%02x",
				      (unsigned char)*s);
	buf[k] = '\0';
	return buf;
}

/* ---- reading ---- */

/* n bytes at off, which the caller has checked lie inside the file. */
static int get(struct rd *r, uint64_t off, void *dst, size_t n)
{
	unsigned char *d = dst;

	if (off >= r->coff && off + n <= r->coff + r->clen) {
		memcpy(d, r->cache + (off - r->coff), n);
		return 0;
	}
	if (n > RD_CACHE / 2) {
		while (n) {
			ssize_t k = pread(r->fd, d, n, (off_t)off);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return sim_error_set(r->err, SIM_ERR_IO, r->name, 0, 0,
						     "cannot read: %s",
						     k < 0 ? strerror(errno) : "the file shrank");
			d += k, off += (uint64_t)k, n -= (size_t)k;
		}
		return 0;
	}
	r->coff = off;
	r->clen = 0;
	while (r->clen < RD_CACHE && r->coff + r->clen < r->len) {
		size_t want = RD_CACHE - r->clen;
		ssize_t k;

		if (want > r->len - r->coff - r->clen)
			want = (size_t)(r->len - r->coff - r->clen);
		k = pread(r->fd, r->cache + r->clen, want, (off_t)(r->coff + r->clen));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return sim_error_set(r->err, SIM_ERR_IO, r->name, 0, 0, "cannot read: %s",
					     k < 0 ? strerror(errno) : "the file shrank");
		r->clen += (size_t)k;
	}
	if (r->clen < n)
		return sim_error_set(r->err, SIM_ERR_IO, r->name, 0, 0,
				     "cannot read: the file shrank");
	memcpy(d, r->cache, n);
	return 0;
}

static uint64_t num(const struct rd *r, const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = r->big ? v << 8 | p[i] : v | (uint64_t)p[i] << (8 * i);
	return v;
}

/* The next n bytes must lie before the cursor's end. */
static int need(struct cur *c, uint64_t n, const char *what)
{
	if (n <= c->end - c->pos)
		return 0;
	if (c->end == c->r->len)
		return damaged(c->r, c->pos,
			       "%s: %llu bytes needed, but the file ends %llu bytes further "
			       "(it is %llu bytes long)",
			       what, (unsigned long long)n, (unsigned long long)(c->end - c->pos),
			       (unsigned long long)c->r->len);
	return damaged(c->r, c->pos, "%s: %llu bytes needed, but %s ends %llu bytes further", what,
		       (unsigned long long)n, c->within, (unsigned long long)(c->end - c->pos));
}

static int rnum(struct cur *c, int n, const char *what, uint64_t *v)
{
	unsigned char b[8];

	if (need(c, (uint64_t)n, what) || get(c->r, c->pos, b, (size_t)n))
		return -1;
	*v = num(c->r, b, n);
	c->pos += (uint64_t)n;
	return 0;
}

static int r32(struct cur *c, const char *what, uint32_t *v)
{
	uint64_t x;

	if (rnum(c, 4, what, &x))
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int r64(struct cur *c, const char *what, uint64_t *v)
{
	return rnum(c, 8, what, v);
}

static int skip(struct cur *c, uint64_t n, const char *what)
{
	if (need(c, n, what))
		return -1;
	c->pos += n;
	return 0;
}

/* A NUL-terminated string of at most max bytes before the NUL, copied (cut) into out. */
static int rstr(struct cur *c, const char *what, size_t max, char *out, size_t outsz)
{
	uint64_t start = c->pos;
	size_t n = 0;

	for (;;) {
		unsigned char ch;

		if (c->pos >= c->end)
			return damaged(c->r, start, "%s: no terminating NUL before %s ends", what,
				       c->end == c->r->len ? "the file" : c->within);
		if (get(c->r, c->pos, &ch, 1))
			return -1;
		c->pos++;
		if (!ch)
			break;
		if (n == max)
			return damaged(c->r, start, "%s: longer than %zu bytes", what, max);
		if (n + 1 < outsz)
			out[n] = (char)ch;
		n++;
	}
	if (outsz)
		out[n < outsz ? n : outsz - 1] = '\0';
	return 0;
}

/* The next n bytes must be exactly these (a marker). */
static int expect(struct cur *c, const char *want, size_t n, const char *what)
{
	char b[16];

	if (need(c, n, what) || get(c->r, c->pos, b, n))
		return -1;
	if (memcmp(b, want, n))
		return damaged(c->r, c->pos, "%s expected", what);
	c->pos += n;
	return 0;
}

static uint64_t left(const struct cur *c)
{
	return c->end - c->pos;
}

/* ---- header_page: the ring buffer page header (libtraceevent's parse_header_field) ---- */

struct tok {
	const char *p, *end;
	char word[32];
	long val;
};

/* The next token: 'w' (a word: letters, digits, '_'), ':' ';' '\n', 0 at the end, '?'. */
static int next_tok(struct tok *t)
{
	size_t n = 0;

	while (t->p < t->end && strchr(" \t\r\v\f", *t->p) && *t->p)
		t->p++;
	if (t->p == t->end)
		return 0;
	if (*t->p == ':' || *t->p == ';' || *t->p == '\n')
		return *t->p++;
	if (!(*t->p == '_' || (*t->p >= '0' && *t->p <= '9') || (*t->p >= 'a' && *t->p <= 'z') ||
	      (*t->p >= 'A' && *t->p <= 'Z')))
		return '?';
	while (t->p < t->end &&
	       (*t->p == '_' || (*t->p >= '0' && *t->p <= '9') || (*t->p >= 'a' && *t->p <= 'z') ||
		(*t->p >= 'A' && *t->p <= 'Z'))) {
		if (n + 1 < sizeof(t->word))
			t->word[n++] = *t->p;
		t->p++;
	}
	t->word[n] = '\0';
	return 'w';
}

static bool tok_is(struct tok *t, int kind, const char *word)
{
	return next_tok(t) == kind && (!word || !strcmp(t->word, word));
}

static bool tok_num(struct tok *t, long *v)
{
	size_t i;

	if (next_tok(t) != 'w' || !t->word[0] || strlen(t->word) > 7)
		return false;
	for (i = 0; t->word[i]; i++)
		if (t->word[i] < '0' || t->word[i] > '9')
			return false;
	*v = strtol(t->word, NULL, 10);
	return true;
}

/*
 * "field: TYPE NAME; offset:N; size:N; [signed:N;]\n", TYPE one word, as libtraceevent
 * parses it. Returns 1 with *off and *size, 0 if the line names another field (optional
 * fields only: the position is kept), -1 if it does not parse.
 */
static int header_field(struct tok *t, const char *name, bool optional, long *off, long *size)
{
	const char *save = t->p;
	long sign;

	if (!tok_is(t, 'w', "field") || !tok_is(t, ':', NULL) || !tok_is(t, 'w', NULL))
		return -1;
	if (next_tok(t) != 'w')
		return -1;
	if (strcmp(t->word, name)) {
		if (!optional)
			return -1;
		t->p = save;
		return 0;
	}
	if (!tok_is(t, ';', NULL) || !tok_is(t, 'w', "offset") || !tok_is(t, ':', NULL) ||
	    !tok_num(t, off) || !tok_is(t, ';', NULL) || !tok_is(t, 'w', "size") ||
	    !tok_is(t, ':', NULL) || !tok_num(t, size) || !tok_is(t, ';', NULL))
		return -1;
	switch (next_tok(t)) {
	case '\n':
		return 1;
	case 'w':
		if (strcmp(t->word, "signed") || !tok_is(t, ':', NULL) || !tok_num(t, &sign) ||
		    !tok_is(t, ';', NULL) || !tok_is(t, '\n', NULL))
			return -1;
		return 1;
	default:
		return -1;
	}
}

static int check_header_page(struct rd *r, uint64_t at, const char *text, size_t n)
{
	struct tok t = {.p = text, .end = text + n};
	long ts_off, ts_size, c_off, c_size, o_off, o_size, d_off, d_size;

	if (memchr(text, '\0', n))
		return damaged(r, at, "the header_page text holds a NUL byte");
	if (header_field(&t, "timestamp", false, &ts_off, &ts_size) != 1 ||
	    header_field(&t, "commit", false, &c_off, &c_size) != 1 ||
	    header_field(&t, "overwrite", true, &o_off, &o_size) < 0 ||
	    header_field(&t, "data", false, &d_off, &d_size) != 1)
		return damaged(r, at,
			       "the header_page text is not \"field: TYPE NAME; offset:N; size:N; "
			       "signed:N;\" lines for timestamp, commit, [overwrite,] data");
	if (ts_off != 0 || ts_size != 8)
		return damaged(r, at,
			       "header_page: the page time stamp is %ld bytes at %ld, not 8 at 0",
			       ts_size, ts_off);
	if (c_off != 8 || (c_size != 4 && c_size != 8))
		return damaged(r, at,
			       "header_page: the commit field is %ld bytes at %ld, not 4 or 8 at 8",
			       c_size, c_off);
	if (d_off != 8 + c_size)
		return damaged(r, at,
			       "header_page: the data start at %ld, not right after the commit "
			       "field (%ld)",
			       d_off, 8 + c_size);
	r->commit_size = (unsigned)c_size;
	r->has_header_page = true;
	return 0;
}

/* ---- the metadata: headers, formats, kallsyms, printk, command lines ---- */

/* Note a text libtraceevent will parse (for the child process of import_dat.c). */
static int note_text(struct rd *r, enum dat_text_kind kind, uint64_t at, uint64_t size,
		     uint64_t sys_at)
{
	struct dat_layout *l = r->lay;

	if (l->ntext == l->captext) {
		struct dat_text *n = sim_realloc(
			l->text, (l->captext = l->captext ? 2 * l->captext : 64) * sizeof(*n));

		if (!n)
			return sim_error_nomem(r->err, r->name);
		l->text = n;
	}
	l->text[l->ntext++] = (struct dat_text){at, size, sys_at, kind};
	return 0;
}

void dat_layout_release(struct dat_layout *lay)
{
	sim_free(lay->text);
	lay->text = NULL;
	lay->ntext = lay->captext = 0;
}

static int check_headers(struct cur *c)
{
	struct rd *r = c->r;
	uint64_t size, at;
	char *text;

	if (expect(c, "header_page", 12, "the \"header_page\" marker") ||
	    r64(c, "the header_page size", &size))
		return -1;
	at = c->pos - 8;
	if (!size)
		return refused(r, at,
			       "an empty header_page (a kernel before 2.6.31): not supported");
	if (size > MAX_TEXT)
		return damaged(r, at, "a header_page text of %llu bytes (at most %u)",
			       (unsigned long long)size, MAX_TEXT);
	if (need(c, size, "the header_page text"))
		return -1;
	text = sim_malloc((size_t)size);
	if (!text)
		return sim_error_nomem(r->err, r->name);
	if (get(r, c->pos, text, (size_t)size) ||
	    check_header_page(r, c->pos, text, (size_t)size) ||
	    note_text(r, DAT_HEADER_PAGE, c->pos, size, 0)) {
		sim_free(text);
		return -1;
	}
	sim_free(text);
	c->pos += size;
	if (expect(c, "header_event", 13, "the \"header_event\" marker") ||
	    r64(c, "the header_event size", &size))
		return -1;
	if (size > MAX_TEXT)
		return damaged(r, c->pos - 8, "a header_event text of %llu bytes (at most %u)",
			       (unsigned long long)size, MAX_TEXT);
	return skip(c, size, "the header_event text");
}

/* count, then count times a u64 size and that many bytes (sys_at: the system's name). */
static int check_formats(struct cur *c, const char *what, uint64_t sys_at)
{
	char w[MAX_SYSTEM_NAME + 96];
	uint32_t count, i;
	uint64_t size;

	snprintf(w, sizeof(w), "the number of %s", what);
	if (r32(c, w, &count))
		return -1;
	if (count > MAX_FORMATS)
		return damaged(c->r, c->pos - 4, "%u %s (at most %u)", count, what, MAX_FORMATS);
	for (i = 0; i < count; i++) {
		snprintf(w, sizeof(w), "the size of %s %u", what, i + 1);
		if (r64(c, w, &size))
			return -1;
		if (size > MAX_FORMAT)
			return damaged(c->r, c->pos - 8, "%s %u: %llu bytes (at most %u)", what,
				       i + 1, (unsigned long long)size, MAX_FORMAT);
		snprintf(w, sizeof(w), "%s %u", what, i + 1);
		if (need(c, size, w) ||
		    note_text(c->r, sys_at ? DAT_EVENT_FORMAT : DAT_FTRACE_FORMAT, c->pos, size,
			      sys_at))
			return -1;
		c->pos += size;
	}
	return 0;
}

static int check_ftrace(struct cur *c)
{
	return check_formats(c, "ftrace event formats", 0);
}

static int check_events(struct cur *c)
{
	char sys[MAX_SYSTEM_NAME + 1], what[MAX_SYSTEM_NAME + 64];
	uint32_t systems, i;

	if (r32(c, "the number of event systems", &systems))
		return -1;
	if (systems > MAX_SYSTEMS)
		return damaged(c->r, c->pos - 4, "%u event systems (at most %u)", systems,
			       MAX_SYSTEMS);
	for (i = 0; i < systems; i++) {
		uint64_t at = c->pos;

		if (rstr(c, "an event system's name", MAX_SYSTEM_NAME, sys, sizeof(sys)))
			return -1;
		snprintf(what, sizeof(what), "event formats of system \"%s\"", sys);
		if (check_formats(c, what, at))
			return -1;
	}
	return 0;
}

static int check_blob32(struct cur *c, const char *what, enum dat_text_kind kind)
{
	char w[64];
	uint32_t size;

	snprintf(w, sizeof(w), "the %s size", what);
	if (r32(c, w, &size))
		return -1;
	if (size > MAX_BLOB)
		return damaged(c->r, c->pos - 4, "%s of %u bytes (at most %u)", what, size,
			       MAX_BLOB);
	if (need(c, size, what) || (size && note_text(c->r, kind, c->pos, size, 0)))
		return -1;
	c->pos += size;
	return 0;
}

static int check_cmdlines(struct cur *c)
{
	uint64_t size;

	if (r64(c, "the saved command lines size", &size))
		return -1;
	if (size > MAX_BLOB)
		return damaged(c->r, c->pos - 8, "saved command lines of %llu bytes (at most %u)",
			       (unsigned long long)size, MAX_BLOB);
	if (need(c, size, "the saved command lines") ||
	    note_text(c->r, DAT_CMDLINES, c->pos, size, 0))
		return -1;
	c->pos += size;
	return 0;
}

/* ---- options ---- */

static const char *option_name(unsigned id)
{
	static const char *const names[] = {
		"DONE",		 "DATE",     "CPUSTAT",	 "BUFFER",   "TRACECLOCK",  "UNAME",
		"HOOK",		 "OFFSET",   "CPUCOUNT", "VERSION",  "PROCMAPS",    "TRACEID",
		"TIME_SHIFT",	 "GUEST",    "TSC2NSEC", "STRINGS",  "HEADER_INFO", "FTRACE_EVENTS",
		"EVENT_FORMATS", "KALLSYMS", "PRINTK",	 "CMDLINES", "BUFFER_TEXT",
	};

	return id < sizeof(names) / sizeof(names[0]) ? names[id] : "unknown";
}

/*
 * libtracecmd's tracecmd_parse_trace_clock: the first space-separated word starting with '['
 * is cut at '[' and ']' and the first piece handed to sscanf, NULL when there is none.
 */
static bool clock_ok(const unsigned char *t, size_t n)
{
	size_t i = 0, j;

	for (;;) {
		while (i < n && t[i] == ' ')
			i++;
		if (i == n || !t[i])
			return true;
		for (j = i; j < n && t[j] && t[j] != ' '; j++)
			;
		if (t[i] == '[') {
			for (; i < j; i++)
				if (t[i] != '[' && t[i] != ']')
					return true;
			return false;
		}
		i = j;
	}
}

static int opt_text(struct rd *r, uint64_t at, unsigned id, const unsigned char *d, uint32_t n)
{
	if (!n || !memchr(d, '\0', n))
		return damaged(r, at, "option %s: its text has no terminating NUL",
			       option_name(id));
	if (id == OPT_TRACECLOCK && !clock_ok(d, n))
		return damaged(r, at, "option TRACECLOCK: a \"[]\" with no clock name in it");
	return 0;
}

/* TIME_SHIFT: peer id, flags, CPU count, per CPU (count, times, offsets, scalings), fractions. */
static int opt_time_shift(struct rd *r, uint64_t at, const unsigned char *d, uint32_t n)
{
	uint64_t pos = 12, cpus, i, k, *counts;

	if (n < 16)
		return 0; /* libtracecmd ignores it */
	cpus = num(r, d + pos, 4);
	pos += 4;
	if (cpus > TRACE_MAX_CPUS)
		return damaged(r, at, "option TIME_SHIFT: %llu CPUs (at most %d)",
			       (unsigned long long)cpus, TRACE_MAX_CPUS);
	counts = sim_calloc(cpus ? (size_t)cpus : 1, sizeof(*counts));
	if (!counts)
		return sim_error_nomem(r->err, r->name);
	for (i = 0; i < cpus; i++) {
		if (n - pos < 4)
			goto short_option;
		k = num(r, d + pos, 4);
		pos += 4;
		/* libtracecmd reads sample 0 and 1 of a CPU without checking there are any */
		if (!k || k > (n - pos) / 24) {
			sim_free(counts);
			return damaged(r, at,
				       "option TIME_SHIFT: CPU %llu has %llu samples (1..%llu)",
				       (unsigned long long)i, (unsigned long long)k,
				       (unsigned long long)((n - pos) / 24));
		}
		counts[i] = k;
		pos += 24 * k;
	}
	if (pos < n)
		for (i = 0; i < cpus; i++) {
			if ((n - pos) / 8 < counts[i])
				goto short_option;
			pos += 8 * counts[i];
		}
	sim_free(counts);
	return 0;
short_option:
	sim_free(counts);
	return damaged(r, at, "option TIME_SHIFT: its samples run past its %u bytes", n);
}

/* GUEST: name, trace id, vCPU count, per vCPU (id, host pid); the ids index an array. */
static int opt_guest(struct rd *r, uint64_t at, const unsigned char *d, uint32_t n)
{
	const unsigned char *nul = memchr(d, '\0', n);
	uint64_t pos, vcpus, i, cpu;

	if (!nul)
		return damaged(r, at, "option GUEST: its name has no terminating NUL");
	pos = (uint64_t)(nul - d) + 1;
	if (n - pos < 12)
		return damaged(r, at,
			       "option GUEST: %u bytes, too short for its trace id and CPU count",
			       n);
	vcpus = num(r, d + pos + 8, 4);
	pos += 12;
	if (vcpus > TRACE_MAX_CPUS || vcpus > (n - pos) / 8)
		return damaged(r, at, "option GUEST: %llu guest CPUs in %llu bytes",
			       (unsigned long long)vcpus, (unsigned long long)(n - pos));
	for (i = 0; i < vcpus; i++, pos += 8)
		if ((cpu = num(r, d + pos, 4)) >= vcpus)
			return damaged(r, at, "option GUEST: guest CPU id %lld of %llu",
				       (long long)(int32_t)cpu, (unsigned long long)vcpus);
	return 0;
}

static const struct section *section_at(const struct rd *r, uint64_t at);

/*
 * BUFFER (version 7): the flyrecord section's offset, instance name, clock, page size, CPU
 * count, then per CPU (id, offset, size). BUFFER_TEXT: offset, name, clock (latency data).
 * Version 6: offset and name only. The top instance's CPU data is checked by check_buffer.
 */
static int opt_buffer(struct rd *r, uint64_t at, unsigned id, const unsigned char *d, uint32_t n,
		      uint64_t *buf_at)
{
	const unsigned char *name, *nul;
	unsigned char seen[TRACE_MAX_CPUS / 8] = {0};
	uint64_t pos, cpus, i;

	if (n < 9)
		return damaged(r, at, "option %s: %u bytes, too short for its offset and name",
			       option_name(id), n);
	name = d + 8;
	if (!(nul = memchr(name, '\0', n - 8)))
		return damaged(r, at, "option %s: the instance name has no terminating NUL",
			       option_name(id));
	pos = (uint64_t)(nul - d) + 1;
	if (r->version < 7)
		return 0;
	if (pos >= n || !(nul = memchr(d + pos, '\0', n - pos)))
		return damaged(r, at, "option %s: the clock name has no terminating NUL",
			       option_name(id));
	pos = (uint64_t)(nul - d) + 1;
	if (id == OPT_BUFFER_TEXT) {
		if (*name)
			return 0;
		return refused(r, at,
			       "a latency-tracer trace.dat (its data is text, not per-CPU events): "
			       "nothing to import");
	}
	if (n - pos < 8)
		return damaged(r, at,
			       "option BUFFER: %u bytes, too short for its page size and CPU "
			       "count",
			       n);
	if (*name)
		return 0; /* another instance: libtracecmd keeps its table, reads no data */
	if (r->top_buffer)
		return damaged(r, at, "a second BUFFER option for the top instance");
	r->top_buffer = true;
	if (num(r, d + pos, 4) != r->page)
		return damaged(r, at, "option BUFFER: page size %llu, but the file's is %u",
			       (unsigned long long)num(r, d + pos, 4), r->page);
	cpus = num(r, d + pos + 4, 4);
	pos += 8;
	if (cpus > TRACE_MAX_CPUS || cpus > (n - pos) / 20)
		return damaged(r, at, "option BUFFER: %llu CPUs in %llu bytes (at most %d)",
			       (unsigned long long)cpus, (unsigned long long)(n - pos),
			       TRACE_MAX_CPUS);
	if (!cpus)
		return damaged(r, at, "option BUFFER: no CPU data");
	*buf_at = num(r, d, 8);
	r->buf_opt = at;
	r->buf_table = at + 6 + pos;
	r->buf_cpus = (uint32_t)cpus;
	r->lay->data_cpus = 0;
	for (i = 0; i < cpus; i++, pos += 20) {
		uint64_t cpu = num(r, d + pos, 4);

		if (cpu >= TRACE_MAX_CPUS)
			return damaged(r, at + 6 + pos, "option BUFFER: CPU id %llu (at most %d)",
				       (unsigned long long)cpu, TRACE_MAX_CPUS - 1);
		if (seen[cpu / 8] & (1u << (cpu % 8)))
			return damaged(r, at + 6 + pos, "option BUFFER: CPU %llu listed twice",
				       (unsigned long long)cpu);
		seen[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
		if ((int)cpu + 1 > r->lay->data_cpus)
			r->lay->data_cpus = (int)cpu + 1;
	}
	return 0;
}

/* One option's data (n bytes at file offset at + 6, read into d); sets *next for DONE. */
static int check_option(struct rd *r, uint64_t at, unsigned id, const unsigned char *d, uint32_t n,
			uint64_t *next, uint64_t *buf_at)
{
	uint64_t v;

	switch (id) {
	case OPT_DONE: /* version 7: the next options section */
		if (n < 8)
			return damaged(r, at, "option DONE: %u bytes, not 8", n);
		*next = num(r, d, 8);
		return 0;
	case OPT_DATE:
	case OPT_OFFSET:
	case OPT_UNAME:
	case OPT_VERSION:
	case OPT_TRACECLOCK:
		if (id == OPT_TRACECLOCK)
			r->traceclock = true;
		return opt_text(r, at, id, d, n);
	case OPT_CPUSTAT:
	case OPT_PROCMAPS:
		if (!n) /* libtracecmd writes or reads byte size - 1 */
			return damaged(r, at, "option %s: empty", option_name(id));
		return 0;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		if (id == OPT_BUFFER_TEXT && r->version < 7)
			return 0;
		return opt_buffer(r, at, id, d, n, buf_at);
	case OPT_HOOK:
		return refused(r, at, "an event-hook option (trace-cmd record -H): not supported");
	case OPT_CPUCOUNT:
		if (n != 4)
			return damaged(r, at, "option CPUCOUNT: %u bytes, not 4", n);
		v = num(r, d, 4);
		if (!v || v > TRACE_MAX_CPUS)
			return damaged(r, at, "option CPUCOUNT: %llu CPUs (1..%d)",
				       (unsigned long long)v, TRACE_MAX_CPUS);
		r->cpucount = (uint32_t)v;
		return 0;
	case OPT_TIME_SHIFT:
		return opt_time_shift(r, at, d, n);
	case OPT_GUEST:
		return opt_guest(r, at, d, n);
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES:
		if (r->version < 7)
			return 0; /* libtracecmd records them, but reads version 6 in order */
		if (n != 8)
			return damaged(r, at, "option %s: %u bytes, not 8", option_name(id), n);
		if (r->opt_sec[id])
			return damaged(r, at, "a second %s option", option_name(id));
		v = num(r, d, 8);
		if (!section_at(r, v))
			return damaged(r, at,
				       "option %s: offset %llu is not the start of a section",
				       option_name(id), (unsigned long long)v);
		if (section_at(r, v)->id != id)
			return damaged(r, at, "option %s: the section at %llu has id %u, not %u",
				       option_name(id), (unsigned long long)v, section_at(r, v)->id,
				       id);
		r->opt_sec[id] = v + 1;
		return 0;
	default: /* TRACEID, TSC2NSEC, unknown: libtracecmd checks their size or ignores them */
		return 0;
	}
}

/*
 * Options from c->pos until DONE, each inside the cursor. Version 6: DONE is an id 0 with no
 * size. Version 7: DONE has the next options section's offset.
 */
static int check_options(struct cur *c, uint64_t *next, uint64_t *buf_at)
{
	struct rd *r = c->r;

	for (;;) {
		uint64_t at = c->pos, id;
		uint32_t size;
		unsigned char *d;
		int rc;

		if (rnum(c, 2, "an option id", &id))
			return -1;
		if (!id && r->version < 7)
			return 0;
		if (r32(c, "an option size", &size))
			return -1;
		if (size > MAX_OPTION)
			return damaged(r, at, "option %s (id %u): %u bytes (at most %u)",
				       option_name((unsigned)id), (unsigned)id, size, MAX_OPTION);
		if (need(c, size, "an option's data"))
			return -1;
		d = sim_malloc(size ? size : 1);
		if (!d)
			return sim_error_nomem(r->err, r->name);
		rc = get(r, c->pos, d, size) ||
		     check_option(r, at, (unsigned)id, d, size, next, buf_at);
		sim_free(d);
		if (rc)
			return -1;
		c->pos += size;
		if (!id)
			return 0;
	}
}

/* ---- CPU data ---- */

/* One ring-buffer page, as kbuffer reads it (kbuffer_load_subbuffer, __next_event). */
static int check_page(struct rd *r, const unsigned char *p, uint64_t at, int cpu)
{
	unsigned cs = r->commit_size, hdr = 8 + cs;
	uint64_t flags = num(r, p + 8, (int)cs), curr, next = 0, a;
	uint32_t size = (uint32_t)flags & COMMIT_MASK, avail = r->page - hdr, type_len;
	const unsigned char *d = p + hdr;

	if (size > avail)
		return damaged(
			r, at + 8,
			"CPU %d's page at byte %llu: %u bytes of events, more than its %u-byte "
			"data area",
			cpu, (unsigned long long)at, size, avail);
	if ((flags & MISSING_EVENTS) && (flags & MISSING_STORED) && size + cs > avail)
		return damaged(
			r, at + 8,
			"CPU %d's page at byte %llu: its lost-events count lies past the page", cpu,
			(unsigned long long)at);
	for (;;) {
		curr = next;
		if (curr >= size)
			return 0;
		if (size - curr < 4)
			return damaged(
				r, at + hdr + curr,
				"CPU %d's page at byte %llu: an event header cut by the end of "
				"its events",
				cpu, (unsigned long long)at);
		a = num(r, d + curr, 4);
		type_len = r->big ? (uint32_t)(a >> 27) & 31 : (uint32_t)a & 31;
		if (type_len == 0 || type_len >= 29) {
			if (size - curr < 8)
				return damaged(r, at + hdr + curr,
					       "CPU %d's page at byte %llu: an event's length word "
					       "cut by the end of its events",
					       cpu, (unsigned long long)at);
			a = num(r, d + curr + 4, 4);
		}
		switch (type_len) {
		case 29: /* padding: the next event is a bytes after the length word's start */
			if (a > INT32_MAX)
				return damaged(
					r, at + hdr + curr,
					"CPU %d's page at byte %llu: a padding of %llu bytes", cpu,
					(unsigned long long)at, (unsigned long long)a);
			next = curr + 4 + a;
			break;
		case 30: /* time extend */
		case 31: /* absolute time stamp */
			next = curr + 8;
			break;
		case 0: /* length in the array word, which counts itself */
			if (a < 4 || curr + 8 + ((a - 4 + 3) & ~3ull) > size)
				return damaged(
					r, at + hdr + curr,
					"CPU %d's page at byte %llu: an event of %llu bytes in "
					"%llu bytes left",
					cpu, (unsigned long long)at, (unsigned long long)a,
					(unsigned long long)(size - curr));
			next = curr + 8 + ((a - 4 + 3) & ~3ull);
			break;
		default:
			next = curr + 4 + 4ull * type_len;
			if (next > size)
				return damaged(
					r, at + hdr + curr,
					"CPU %d's page at byte %llu: an event of %u bytes in %llu "
					"bytes left",
					cpu, (unsigned long long)at, 4 + 4 * type_len,
					(unsigned long long)(size - curr));
			break;
		}
	}
}

/* An uncompressed CPU's data: [off, off + size) inside [lo, hi), whole pages, each sound. */
static int check_cpu_pages(struct rd *r, uint64_t entry, int cpu, uint64_t off, uint64_t size,
			   uint64_t lo, uint64_t hi)
{
	uint64_t k;

	if (!size)
		return 0;
	if (off < lo || off > hi || size > hi - off) {
		if (hi == r->len)
			return damaged(
				r, entry,
				"CPU %d's data (%llu bytes from byte %llu) runs past the end "
				"of the file (%llu bytes)",
				cpu, (unsigned long long)size, (unsigned long long)off,
				(unsigned long long)r->len);
		return damaged(r, entry,
			       "CPU %d's data (%llu bytes from byte %llu) lies outside its section "
			       "(bytes %llu to %llu)",
			       cpu, (unsigned long long)size, (unsigned long long)off,
			       (unsigned long long)lo, (unsigned long long)hi);
	}
	if (off % r->page || size % r->page)
		return damaged(
			r, entry,
			"CPU %d's data (%llu bytes from byte %llu) is not whole %u-byte pages", cpu,
			(unsigned long long)size, (unsigned long long)off, r->page);
	if (!r->has_header_page) { /* compressed: the child process reads them (dat_layout) */
		r->lay->compressed = true;
		if (!r->lay->compressed_at || off < r->lay->compressed_at)
			r->lay->compressed_at = off;
		return 0;
	}
	for (k = 0; k < size; k += r->page)
		if (get(r, off + k, r->pagebuf, r->page) || check_page(r, r->pagebuf, off + k, cpu))
			return -1;
	return 0;
}

/* A compressed CPU's data: the chunk count, then (size, uncompressed size, data) chunks. */
static int check_cpu_chunks(struct rd *r, uint64_t entry, int cpu, uint64_t off, uint64_t size,
			    uint64_t lo, uint64_t hi)
{
	struct cur c = {r, off, hi, "its section"};
	uint32_t count, i, zsize, usize;

	if (!size)
		return 0;
	if (off < lo || off > hi || size > hi - off)
		return damaged(r, entry,
			       "CPU %d's compressed data (%llu bytes from byte %llu) lies outside "
			       "its section (bytes %llu to %llu)",
			       cpu, (unsigned long long)size, (unsigned long long)off,
			       (unsigned long long)lo, (unsigned long long)hi);
	if (r32(&c, "a CPU's chunk count", &count))
		return -1;
	if (count > MAX_CHUNKS)
		return damaged(r, off, "CPU %d: %u compressed chunks (at most %u)", cpu, count,
			       MAX_CHUNKS);
	for (i = 0; i < count; i++) {
		uint64_t at = c.pos;

		if (r32(&c, "a chunk's compressed size", &zsize) ||
		    r32(&c, "a chunk's size", &usize))
			return -1;
		if (!usize || usize % r->page || usize > MAX_CHUNK)
			return damaged(r, at + 4,
				       "CPU %d, chunk %u: %u bytes uncompressed, not whole %u-byte "
				       "pages (at most %u)",
				       cpu, i + 1, usize, r->page, MAX_CHUNK);
		if (skip(&c, zsize, "a compressed chunk"))
			return -1;
		r->lay->inflated += usize;
	}
	if (!r->lay->compressed_at || off < r->lay->compressed_at)
		r->lay->compressed_at = off;
	r->lay->compressed = true;
	return 0;
}

/* ---- version 6 ---- */

static int check_v6(struct rd *r, struct cur *c)
{
	uint64_t next = 0, buf_at = 0, table, clock;
	uint32_t cpus, i;
	char mark[10];
	int cpu;

	if (check_headers(c) || check_ftrace(c) || check_events(c) ||
	    check_blob32(c, "kallsyms", DAT_KALLSYMS) ||
	    check_blob32(c, "printk formats", DAT_PRINTK) || check_cmdlines(c) ||
	    r32(c, "the CPU count", &cpus))
		return -1;
	if (!cpus)
		return damaged(r, c->pos - 4, "the CPU count is 0");
	if (cpus > TRACE_MAX_CPUS)
		return refused(r, c->pos - 4, "%u CPUs: idlesim simulates at most %d", cpus,
			       TRACE_MAX_CPUS);
	r->lay->data_cpus = (int)cpus;
	for (i = 0;; i++) {
		if (need(c, 10, "\"options\", \"latency\" or \"flyrecord\"") ||
		    get(r, c->pos, mark, 10))
			return -1;
		if (!memcmp(mark, "options  \0", 10) && !i) {
			c->pos += 10;
			if (check_options(c, &next, &buf_at))
				return -1;
			continue;
		}
		if (!memcmp(mark, "latency  \0", 10))
			return refused(r, c->pos,
				       "a latency-tracer trace.dat (its data is text, not per-CPU "
				       "events): nothing to import");
		if (memcmp(mark, "flyrecord\0", 10))
			return damaged(r, c->pos, "%s\"latency\" or \"flyrecord\" expected",
				       i ? "" : "\"options\", ");
		c->pos += 10;
		break;
	}
	if (r->cpucount && r->cpucount != cpus)
		return damaged(r, c->pos, "option CPUCOUNT says %u CPUs, the header %u",
			       r->cpucount, cpus);
	table = c->pos;
	if (need(c, 16ull * cpus, "the per-CPU offsets and sizes"))
		return -1;
	c->pos += 16ull * cpus;
	if (r->traceclock) {
		clock = c->pos;
		if (r64(c, "the trace_clock size", &next))
			return -1;
		if (next > MAX_OPTION)
			return damaged(r, clock, "a trace_clock text of %llu bytes (at most %u)",
				       (unsigned long long)next, MAX_OPTION);
		if (need(c, next, "the trace_clock text"))
			return -1;
		if (next) {
			unsigned char *t = sim_malloc((size_t)next);
			bool ok;

			if (!t)
				return sim_error_nomem(r->err, r->name);
			ok = !get(r, c->pos, t, (size_t)next);
			if (ok && !clock_ok(t, (size_t)next)) {
				sim_free(t);
				return damaged(r, c->pos,
					       "the trace_clock text: a \"[]\" with no "
					       "clock name in it");
			}
			sim_free(t);
			if (!ok)
				return -1;
		}
		c->pos += next;
	}
	for (cpu = 0; cpu < (int)cpus; cpu++) {
		struct cur e = {r, table + 16ull * (unsigned)cpu, r->len, "the file"};
		uint64_t off, size;

		if (r64(&e, "a CPU's data offset", &off) || r64(&e, "a CPU's data size", &size) ||
		    check_cpu_pages(r, e.pos - 16, cpu, off, size, 0, r->len))
			return -1;
	}
	return 0;
}

/* ---- version 7 ---- */

static const struct section *section_at(const struct rd *r, uint64_t at)
{
	size_t lo = 0, hi = r->nsec;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->sec[mid].at == at)
			return &r->sec[mid];
		if (r->sec[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Every section header from `pos` to the end of the file, as read_metadata_strings walks. */
static int walk_sections(struct rd *r, uint64_t pos)
{
	size_t cap = 0;

	while (pos < r->len) {
		struct cur c = {r, pos, r->len, "the file"};
		uint64_t id, flags, desc, size;
		uint32_t zsize, usize;
		struct section *s;

		if (r->nsec == MAX_SECTIONS)
			return damaged(r, pos, "more than %d sections", MAX_SECTIONS);
		if (need(&c, 16, "a section header") || rnum(&c, 2, "", &id) ||
		    rnum(&c, 2, "", &flags) || rnum(&c, 4, "", &desc) || rnum(&c, 8, "", &size))
			return -1;
		if (flags & ~(uint64_t)SEC_COMPRESSED)
			return damaged(r, pos + 2, "section id %llu: unknown flags 0x%llx",
				       (unsigned long long)id, (unsigned long long)flags);
		if ((flags & SEC_COMPRESSED) && !r->compressed)
			return damaged(
				r, pos + 2,
				"section id %llu is compressed in a file without compression",
				(unsigned long long)id);
		if (size > r->len - c.pos)
			return damaged(
				r, pos + 8,
				"section %s (id %llu) of %llu bytes from byte %llu runs past "
				"the end of the file (%llu bytes)",
				option_name((unsigned)id), (unsigned long long)id,
				(unsigned long long)size, (unsigned long long)c.pos,
				(unsigned long long)r->len);
		if (id == OPT_STRINGS) { /* read whole, into an int-sized buffer */
			struct cur s8 = {r, c.pos, c.pos + size, "its section"};

			if (flags & SEC_COMPRESSED) {
				if (r32(&s8, "the compressed size", &zsize) ||
				    r32(&s8, "the uncompressed size", &usize))
					return -1;
				if (zsize > size - 8 || usize > MAX_OPTION)
					return damaged(
						r, c.pos,
						"the strings section: %u bytes compressed in "
						"%llu, %u uncompressed (at most %u)",
						zsize, (unsigned long long)(size - 8), usize,
						MAX_OPTION);
			} else if (size > MAX_OPTION) {
				return damaged(r, pos + 8,
					       "a strings section of %llu bytes (at most %u)",
					       (unsigned long long)size, MAX_OPTION);
			}
		}
		if (r->nsec == cap) {
			struct section *n =
				sim_realloc(r->sec, (cap = cap ? 2 * cap : 64) * sizeof(*n));

			if (!n)
				return sim_error_nomem(r->err, r->name);
			r->sec = n;
		}
		s = &r->sec[r->nsec++];
		s->at = pos, s->data = c.pos, s->size = size;
		s->id = (unsigned)id, s->flags = (unsigned)flags;
		pos = c.pos + size;
	}
	return 0;
}

/* A metadata section's content, through the same checks as version 6's. */
static int check_meta(struct rd *r, unsigned id)
{
	const struct section *s;
	struct cur c;

	if (!r->opt_sec[id])
		return 0;
	s = section_at(r, r->opt_sec[id] - 1);
	c = (struct cur){r, s->data, s->data + s->size, "its section"};
	if (s->flags & SEC_COMPRESSED) {
		uint32_t zsize, usize;

		if (r32(&c, "the compressed size", &zsize) ||
		    r32(&c, "the uncompressed size", &usize))
			return -1;
		if (zsize > left(&c) || usize > MAX_INFLATED)
			return damaged(r, s->data,
				       "section %s: %u bytes compressed in %llu, %u uncompressed",
				       option_name(id), zsize, (unsigned long long)left(&c), usize);
		if (!r->lay->compressed_at || s->at < r->lay->compressed_at)
			r->lay->compressed_at = s->at;
		r->lay->compressed = true; /* and if it is HEADER_INFO, the pages go unchecked */
		return 0;
	}
	switch (id) {
	case OPT_HEADER_INFO:
		return check_headers(&c);
	case OPT_FTRACE_EVENTS:
		return check_ftrace(&c);
	case OPT_EVENT_FORMATS:
		return check_events(&c);
	case OPT_KALLSYMS:
		return check_blob32(&c, "kallsyms", DAT_KALLSYMS);
	case OPT_PRINTK:
		return check_blob32(&c, "printk formats", DAT_PRINTK);
	default:
		return check_cmdlines(&c);
	}
}

/* The top instance's flyrecord section and each CPU's data in it. */
static int check_buffer(struct rd *r, uint64_t buf_at)
{
	uint64_t opt_at = r->buf_opt;
	const struct section *s = section_at(r, buf_at);
	uint64_t pos = r->buf_table;
	uint32_t i;

	if (!s)
		return damaged(r, opt_at,
			       "option BUFFER: offset %llu is not the start of a section",
			       (unsigned long long)buf_at);
	if (s->id != OPT_BUFFER)
		return damaged(r, opt_at, "option BUFFER: the section at %llu has id %u, not 3",
			       (unsigned long long)buf_at, s->id);
	for (i = 0; i < r->buf_cpus; i++, pos += 20) {
		struct cur e = {r, pos, r->len, "the file"};
		uint64_t cpu, off, size;
		int rc;

		if (rnum(&e, 4, "a CPU id", &cpu) || r64(&e, "a CPU's data offset", &off) ||
		    r64(&e, "a CPU's data size", &size))
			return -1;
		rc = s->flags & SEC_COMPRESSED ? check_cpu_chunks(r, pos, (int)cpu, off, size,
								  s->data, s->data + s->size)
					       : check_cpu_pages(r, pos, (int)cpu, off, size,
								 s->data, s->data + s->size);
		if (rc)
			return -1;
	}
	return 0;
}

static int check_v7(struct rd *r, struct cur *c)
{
	char zname[64], zver[64];
	uint64_t first, at, prev = 0, buf_at = 0;
	unsigned id;

	if (rstr(c, "the compression name", 63, zname, sizeof(zname)) ||
	    rstr(c, "the compression version", 63, zver, sizeof(zver)) ||
	    r64(c, "the first options section's offset", &first))
		return -1;
	r->compressed = strcmp(zname, "none") != 0;
	if (r->compressed && strcmp(zname, "zstd") && strcmp(zname, "zlib")) {
		uint64_t zat = c->pos - 8 - strlen(zver) - 1 - strlen(zname) - 1;
		char shown[80];

		return damaged(r, zat, "compression \"%s\" (none, zstd or zlib)",
			       printable(zname, shown, sizeof(shown)));
	}
	if (walk_sections(r, c->pos))
		return -1;
	for (at = first;;) {
		const struct section *s = section_at(r, at);
		struct cur o;
		uint64_t next = 0, b = 0;

		if (!s)
			return damaged(
				r, prev ? prev : c->pos - 8,
				"the options section offset %llu is not the start of a section",
				(unsigned long long)at);
		if (s->id != OPT_DONE)
			return damaged(r, prev ? prev : c->pos - 8,
				       "the section at %llu has id %u, not 0 (options)",
				       (unsigned long long)at, s->id);
		if (s->flags & SEC_COMPRESSED)
			return refused(r, at, "a compressed options section: not supported");
		o = (struct cur){r, s->data, s->data + s->size, "its options section"};
		if (check_options(&o, &next, &b))
			return -1;
		if (b)
			buf_at = b;
		if (!next)
			break;
		if (next <= at)
			return damaged(
				r, o.pos - 8,
				"the next options section (at %llu) is not after this one (%llu)",
				(unsigned long long)next, (unsigned long long)at);
		prev = o.pos - 8;
		at = next;
	}
	if (!r->opt_sec[OPT_HEADER_INFO])
		return damaged(r, first, "no HEADER_INFO option: the page header is unknown");
	for (id = OPT_HEADER_INFO; id <= OPT_CMDLINES; id++)
		if (check_meta(r, id))
			return -1;
	if (!r->top_buffer)
		return damaged(r, first, "no BUFFER option for the top instance: no CPU data");
	return check_buffer(r, buf_at);
}

/* ---- the entry point ---- */

static int not_dat(struct rd *r)
{
	return sim_error_set(r->err, SIM_ERR_INPUT, r->name, 0, 0,
			     "not a trace.dat: it does not start with trace-cmd's magic "
			     "\\x17\\x08\\x44tracing (offset 0)");
}

static int check(struct rd *r)
{
	static const char magic[] = "\x17\x08\x44tracing";
	char shown[80];
	struct cur c = {r, 0, r->len, "the file"};
	char version[17];
	uint64_t v;
	unsigned char b[2];

	if (r->len >= 3 && r->len < 10 && !get(r, 0, version, (size_t)r->len) &&
	    !memcmp(version, magic, (size_t)r->len))
		return damaged(r, r->len,
			       "the file ends after %llu bytes, inside the 10-byte magic",
			       (unsigned long long)r->len);
	if (r->len < 10 || get(r, 0, version, 10))
		return not_dat(r);
	if (memcmp(version, magic, 10)) {
		int i = 0;

		/* one half right (as import_sniff finds it): a damaged magic, else not trace.dat */
		if (memcmp(version, magic, 3) && memcmp(version + 3, magic + 3, 7))
			return not_dat(r);
		while (version[i] == magic[i])
			i++;
		return damaged(r, (uint64_t)i,
			       "the magic \\x17\\x08\\x44tracing is wrong at byte %d", i);
	}
	c.pos = 10;
	if (rstr(&c, "the file version", 16, version, sizeof(version)))
		return -1;
	if (strcmp(version, "6") && strcmp(version, "7"))
		return sim_error_set(r->err, SIM_ERR_INPUT, r->name, 0, 0,
				     "trace.dat damaged or too new: file version \"%s\" (idlesim "
				     "reads versions 6 and 7) (offset 10)",
				     printable(version, shown, sizeof(shown)));
	r->version = r->lay->version = version[0] - '0';
	if (need(&c, 2, "the endianness and long size") || get(r, c.pos, b, 2))
		return -1;
	if (b[0] > 1)
		return damaged(r, c.pos, "endianness byte %u (0 little, 1 big)", b[0]);
	if (b[1] != 4 && b[1] != 8)
		return damaged(r, c.pos + 1, "long size %u (4 or 8)", b[1]);
	r->big = r->lay->big = b[0] == 1;
	r->lay->long_size = b[1];
	c.pos += 2;
	if (rnum(&c, 4, "the page size", &v))
		return -1;
	if (v < MIN_PAGE || v > MAX_PAGE || (v & (v - 1)))
		return damaged(r, c.pos - 4, "page size %llu (a power of two, %u to %u)",
			       (unsigned long long)v, MIN_PAGE, MAX_PAGE);
	r->page = (uint32_t)v;
	r->pagebuf = sim_malloc(r->page);
	if (!r->pagebuf)
		return sim_error_nomem(r->err, r->name);
	return r->version == 6 ? check_v6(r, &c) : check_v7(r, &c);
}

int dat_check(const char *path, const char *name, struct dat_layout *lay, struct sim_error *err)
{
	struct rd r = {.fd = -1, .name = name, .err = err, .lay = lay};
	struct stat st;
	int rc;

	memset(lay, 0, sizeof(*lay));
	r.fd = open(path, O_RDONLY);
	if (r.fd < 0)
		return sim_error_set(err, SIM_ERR_IO, name, 0, 0, "cannot open: %s",
				     strerror(errno));
	if (fstat(r.fd, &st) || !S_ISREG(st.st_mode)) {
		close(r.fd);
		return sim_error_set(err, SIM_ERR_IO, name, 0, 0,
				     "cannot read a trace.dat that is not a regular file");
	}
	r.len = (uint64_t)st.st_size;
	r.cache = sim_malloc(RD_CACHE);
	rc = r.cache ? check(&r) : sim_error_nomem(err, name);
	if (rc)
		dat_layout_release(lay);
	sim_free(r.cache);
	sim_free(r.pagebuf);
	sim_free(r.sec);
	close(r.fd);
	return rc;
}
