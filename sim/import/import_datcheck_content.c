// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_datcheck_content.c - the trace.dat structure check, part two: the contents the
 * headers point to. The ring buffer page header (header_page, parsed as libtraceevent
 * does), the metadata (header_event, the event formats, kallsyms, printk formats, command
 * lines), every option and its content, and every page of every CPU's data, event by
 * event as kbuffer walks them. The reader and the file's layout: import_datcheck.c.
 */
#include "sim/import/import_datcheck.h"
#include "sim/base/alloc.h"
#include "sim/trace/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int datck_header_page(struct rd *r, uint64_t at, const char *text, size_t n)
{
	struct tok t = {.p = text, .end = text + n};
	long ts_off, ts_size, c_off, c_size, o_off, o_size, d_off, d_size;

	if (memchr(text, '\0', n))
		return datck_damaged(r, at, "the header_page text holds a NUL byte");
	if (header_field(&t, "timestamp", false, &ts_off, &ts_size) != 1 ||
	    header_field(&t, "commit", false, &c_off, &c_size) != 1 ||
	    header_field(&t, "overwrite", true, &o_off, &o_size) < 0 ||
	    header_field(&t, "data", false, &d_off, &d_size) != 1)
		return datck_damaged(
			r, at,
			"the header_page text is not \"field: TYPE NAME; offset:N; size:N; "
			"signed:N;\" lines for timestamp, commit, [overwrite,] data");
	if (ts_off != 0 || ts_size != 8)
		return datck_damaged(
			r, at, "header_page: the page time stamp is %ld bytes at %ld, not 8 at 0",
			ts_size, ts_off);
	if (c_off != 8 || (c_size != 4 && c_size != 8))
		return datck_damaged(
			r, at, "header_page: the commit field is %ld bytes at %ld, not 4 or 8 at 8",
			c_size, c_off);
	if (d_off != 8 + c_size)
		return datck_damaged(
			r, at,
			"header_page: the data start at %ld, not right after the commit "
			"field (%ld)",
			d_off, 8 + c_size);
	r->commit_size = (unsigned)c_size;
	r->has_header_page = true;
	return 0;
}

/* ---- the metadata: headers, formats, kallsyms, printk, command lines ---- */

/* Note a text libtraceevent will parse (for the child process of import_dat.c). */
int datck_note_text(struct rd *r, enum dat_text_kind kind, uint64_t at, uint64_t size,
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

int datck_headers(struct cur *c)
{
	struct rd *r = c->r;
	uint64_t size, at;
	char *text;

	if (datck_expect(c, "header_page", 12, "the \"header_page\" marker") ||
	    datck_r64(c, "the header_page size", &size))
		return -1;
	at = c->pos - 8;
	if (!size)
		return datck_refused(
			r, at, "an empty header_page (a kernel before 2.6.31): not supported");
	if (size > MAX_TEXT)
		return datck_damaged(r, at, "a header_page text of %llu bytes (at most %u)",
				     (unsigned long long)size, MAX_TEXT);
	if (datck_need(c, size, "the header_page text"))
		return -1;
	text = sim_malloc((size_t)size);
	if (!text)
		return sim_error_nomem(r->err, r->name);
	if (datck_get(r, c->pos, text, (size_t)size) ||
	    datck_header_page(r, c->pos, text, (size_t)size) ||
	    datck_note_text(r, DAT_HEADER_PAGE, c->pos, size, 0)) {
		sim_free(text);
		return -1;
	}
	sim_free(text);
	c->pos += size;
	if (datck_expect(c, "header_event", 13, "the \"header_event\" marker") ||
	    datck_r64(c, "the header_event size", &size))
		return -1;
	if (size > MAX_TEXT)
		return datck_damaged(r, c->pos - 8,
				     "a header_event text of %llu bytes (at most %u)",
				     (unsigned long long)size, MAX_TEXT);
	return datck_skip(c, size, "the header_event text");
}

/* count, then count times a u64 size and that many bytes (sys_at: the system's name). */
int datck_formats(struct cur *c, const char *what, uint64_t sys_at)
{
	char w[MAX_SYSTEM_NAME + 96];
	uint32_t count, i;
	uint64_t size;

	snprintf(w, sizeof(w), "the number of %s", what);
	if (datck_r32(c, w, &count))
		return -1;
	if (count > MAX_FORMATS)
		return datck_damaged(c->r, c->pos - 4, "%u %s (at most %u)", count, what,
				     MAX_FORMATS);
	for (i = 0; i < count; i++) {
		snprintf(w, sizeof(w), "the size of %s %u", what, i + 1);
		if (datck_r64(c, w, &size))
			return -1;
		if (size > MAX_FORMAT)
			return datck_damaged(c->r, c->pos - 8, "%s %u: %llu bytes (at most %u)",
					     what, i + 1, (unsigned long long)size, MAX_FORMAT);
		snprintf(w, sizeof(w), "%s %u", what, i + 1);
		if (datck_need(c, size, w) ||
		    datck_note_text(c->r, sys_at ? DAT_EVENT_FORMAT : DAT_FTRACE_FORMAT, c->pos,
				    size, sys_at))
			return -1;
		c->pos += size;
	}
	return 0;
}

int datck_ftrace(struct cur *c)
{
	return datck_formats(c, "ftrace event formats", 0);
}

int datck_events(struct cur *c)
{
	char sys[MAX_SYSTEM_NAME + 1], what[MAX_SYSTEM_NAME + 64];
	uint32_t systems, i;

	if (datck_r32(c, "the number of event systems", &systems))
		return -1;
	if (systems > MAX_SYSTEMS)
		return datck_damaged(c->r, c->pos - 4, "%u event systems (at most %u)", systems,
				     MAX_SYSTEMS);
	for (i = 0; i < systems; i++) {
		uint64_t at = c->pos;

		if (datck_rstr(c, "an event system's name", MAX_SYSTEM_NAME, sys, sizeof(sys)))
			return -1;
		snprintf(what, sizeof(what), "event formats of system \"%s\"", sys);
		if (datck_formats(c, what, at))
			return -1;
	}
	return 0;
}

int datck_blob32(struct cur *c, const char *what, enum dat_text_kind kind)
{
	char w[64];
	uint32_t size;

	snprintf(w, sizeof(w), "the %s size", what);
	if (datck_r32(c, w, &size))
		return -1;
	if (size > MAX_BLOB)
		return datck_damaged(c->r, c->pos - 4, "%s of %u bytes (at most %u)", what, size,
				     MAX_BLOB);
	if (datck_need(c, size, what) || (size && datck_note_text(c->r, kind, c->pos, size, 0)))
		return -1;
	c->pos += size;
	return 0;
}

int datck_cmdlines(struct cur *c)
{
	uint64_t size;

	if (datck_r64(c, "the saved command lines size", &size))
		return -1;
	if (size > MAX_BLOB)
		return datck_damaged(c->r, c->pos - 8,
				     "saved command lines of %llu bytes (at most %u)",
				     (unsigned long long)size, MAX_BLOB);
	if (datck_need(c, size, "the saved command lines") ||
	    datck_note_text(c->r, DAT_CMDLINES, c->pos, size, 0))
		return -1;
	c->pos += size;
	return 0;
}

/* ---- options ---- */

const char *datck_option_name(unsigned id)
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
bool datck_clock_ok(const unsigned char *t, size_t n)
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
		return datck_damaged(r, at, "option %s: its text has no terminating NUL",
				     datck_option_name(id));
	if (id == OPT_TRACECLOCK && !datck_clock_ok(d, n))
		return datck_damaged(r, at, "option TRACECLOCK: a \"[]\" with no clock name in it");
	return 0;
}

/* TIME_SHIFT: peer id, flags, CPU count, per CPU (count, times, offsets, scalings), fractions. */
static int opt_time_shift(struct rd *r, uint64_t at, const unsigned char *d, uint32_t n)
{
	uint64_t pos = 12, cpus, i, k, *counts;

	if (n < 16)
		return 0; /* libtracecmd ignores it */
	cpus = datck_num(r, d + pos, 4);
	pos += 4;
	if (cpus > TRACE_MAX_CPUS)
		return datck_damaged(r, at, "option TIME_SHIFT: %llu CPUs (at most %d)",
				     (unsigned long long)cpus, TRACE_MAX_CPUS);
	counts = sim_calloc(cpus ? (size_t)cpus : 1, sizeof(*counts));
	if (!counts)
		return sim_error_nomem(r->err, r->name);
	for (i = 0; i < cpus; i++) {
		if (n - pos < 4)
			goto short_option;
		k = datck_num(r, d + pos, 4);
		pos += 4;
		/* libtracecmd reads sample 0 and 1 of a CPU without checking there are any */
		if (!k || k > (n - pos) / 24) {
			sim_free(counts);
			return datck_damaged(
				r, at, "option TIME_SHIFT: CPU %llu has %llu samples (1..%llu)",
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
	return datck_damaged(r, at, "option TIME_SHIFT: its samples run past its %u bytes", n);
}

/* GUEST: name, trace id, vCPU count, per vCPU (id, host pid); the ids index an array. */
static int opt_guest(struct rd *r, uint64_t at, const unsigned char *d, uint32_t n)
{
	const unsigned char *nul = memchr(d, '\0', n);
	uint64_t pos, vcpus, i, cpu;

	if (!nul)
		return datck_damaged(r, at, "option GUEST: its name has no terminating NUL");
	pos = (uint64_t)(nul - d) + 1;
	if (n - pos < 12)
		return datck_damaged(
			r, at, "option GUEST: %u bytes, too short for its trace id and CPU count",
			n);
	vcpus = datck_num(r, d + pos + 8, 4);
	pos += 12;
	if (vcpus > TRACE_MAX_CPUS || vcpus > (n - pos) / 8)
		return datck_damaged(r, at, "option GUEST: %llu guest CPUs in %llu bytes",
				     (unsigned long long)vcpus, (unsigned long long)(n - pos));
	for (i = 0; i < vcpus; i++, pos += 8)
		if ((cpu = datck_num(r, d + pos, 4)) >= vcpus)
			return datck_damaged(r, at, "option GUEST: guest CPU id %lld of %llu",
					     (long long)(int32_t)cpu, (unsigned long long)vcpus);
	return 0;
}

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
		return datck_damaged(r, at,
				     "option %s: %u bytes, too short for its offset and name",
				     datck_option_name(id), n);
	name = d + 8;
	if (!(nul = memchr(name, '\0', n - 8)))
		return datck_damaged(r, at, "option %s: the instance name has no terminating NUL",
				     datck_option_name(id));
	pos = (uint64_t)(nul - d) + 1;
	if (r->version < 7)
		return 0;
	if (pos >= n || !(nul = memchr(d + pos, '\0', n - pos)))
		return datck_damaged(r, at, "option %s: the clock name has no terminating NUL",
				     datck_option_name(id));
	pos = (uint64_t)(nul - d) + 1;
	if (id == OPT_BUFFER_TEXT) {
		if (*name)
			return 0;
		return datck_refused(
			r, at,
			"a latency-tracer trace.dat (its data is text, not per-CPU events): "
			"nothing to import");
	}
	if (n - pos < 8)
		return datck_damaged(r, at,
				     "option BUFFER: %u bytes, too short for its page size and CPU "
				     "count",
				     n);
	if (*name)
		return 0; /* another instance: libtracecmd keeps its table, reads no data */
	if (r->top_buffer)
		return datck_damaged(r, at, "a second BUFFER option for the top instance");
	r->top_buffer = true;
	if (datck_num(r, d + pos, 4) != r->page)
		return datck_damaged(r, at, "option BUFFER: page size %llu, but the file's is %u",
				     (unsigned long long)datck_num(r, d + pos, 4), r->page);
	cpus = datck_num(r, d + pos + 4, 4);
	pos += 8;
	if (cpus > TRACE_MAX_CPUS || cpus > (n - pos) / 20)
		return datck_damaged(r, at, "option BUFFER: %llu CPUs in %llu bytes (at most %d)",
				     (unsigned long long)cpus, (unsigned long long)(n - pos),
				     TRACE_MAX_CPUS);
	if (!cpus)
		return datck_damaged(r, at, "option BUFFER: no CPU data");
	*buf_at = datck_num(r, d, 8);
	r->buf_opt = at;
	r->buf_table = at + 6 + pos;
	r->buf_cpus = (uint32_t)cpus;
	r->lay->data_cpus = 0;
	for (i = 0; i < cpus; i++, pos += 20) {
		uint64_t cpu = datck_num(r, d + pos, 4);

		if (cpu >= TRACE_MAX_CPUS)
			return datck_damaged(r, at + 6 + pos,
					     "option BUFFER: CPU id %llu (at most %d)",
					     (unsigned long long)cpu, TRACE_MAX_CPUS - 1);
		if (seen[cpu / 8] & (1u << (cpu % 8)))
			return datck_damaged(r, at + 6 + pos,
					     "option BUFFER: CPU %llu listed twice",
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
			return datck_damaged(r, at, "option DONE: %u bytes, not 8", n);
		*next = datck_num(r, d, 8);
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
			return datck_damaged(r, at, "option %s: empty", datck_option_name(id));
		return 0;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		if (id == OPT_BUFFER_TEXT && r->version < 7)
			return 0;
		return opt_buffer(r, at, id, d, n, buf_at);
	case OPT_HOOK:
		return datck_refused(r, at,
				     "an event-hook option (trace-cmd record -H): not supported");
	case OPT_CPUCOUNT:
		if (n != 4)
			return datck_damaged(r, at, "option CPUCOUNT: %u bytes, not 4", n);
		v = datck_num(r, d, 4);
		if (!v || v > TRACE_MAX_CPUS)
			return datck_damaged(r, at, "option CPUCOUNT: %llu CPUs (1..%d)",
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
			return datck_damaged(r, at, "option %s: %u bytes, not 8",
					     datck_option_name(id), n);
		if (r->opt_sec[id])
			return datck_damaged(r, at, "a second %s option", datck_option_name(id));
		v = datck_num(r, d, 8);
		if (!datck_section_at(r, v))
			return datck_damaged(r, at,
					     "option %s: offset %llu is not the start of a section",
					     datck_option_name(id), (unsigned long long)v);
		if (datck_section_at(r, v)->id != id)
			return datck_damaged(r, at,
					     "option %s: the section at %llu has id %u, not %u",
					     datck_option_name(id), (unsigned long long)v,
					     datck_section_at(r, v)->id, id);
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
int datck_options(struct cur *c, uint64_t *next, uint64_t *buf_at)
{
	struct rd *r = c->r;

	for (;;) {
		uint64_t at = c->pos, id;
		uint32_t size;
		unsigned char *d;
		int rc;

		if (datck_rnum(c, 2, "an option id", &id))
			return -1;
		if (!id && r->version < 7)
			return 0;
		if (datck_r32(c, "an option size", &size))
			return -1;
		if (size > MAX_OPTION)
			return datck_damaged(r, at, "option %s (id %u): %u bytes (at most %u)",
					     datck_option_name((unsigned)id), (unsigned)id, size,
					     MAX_OPTION);
		if (datck_need(c, size, "an option's data"))
			return -1;
		d = sim_malloc(size ? size : 1);
		if (!d)
			return sim_error_nomem(r->err, r->name);
		rc = datck_get(r, c->pos, d, size) ||
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
	uint64_t flags = datck_num(r, p + 8, (int)cs), curr, next = 0, a;
	uint32_t size = (uint32_t)flags & COMMIT_MASK, avail = r->page - hdr, type_len;
	const unsigned char *d = p + hdr;

	if (size > avail)
		return datck_damaged(
			r, at + 8,
			"CPU %d's page at byte %llu: %u bytes of events, more than its %u-byte "
			"data area",
			cpu, (unsigned long long)at, size, avail);
	if ((flags & MISSING_EVENTS) && (flags & MISSING_STORED) && size + cs > avail)
		return datck_damaged(
			r, at + 8,
			"CPU %d's page at byte %llu: its lost-events count lies past the page", cpu,
			(unsigned long long)at);
	for (;;) {
		curr = next;
		if (curr >= size)
			return 0;
		if (size - curr < 4)
			return datck_damaged(
				r, at + hdr + curr,
				"CPU %d's page at byte %llu: an event header cut by the end of "
				"its events",
				cpu, (unsigned long long)at);
		a = datck_num(r, d + curr, 4);
		type_len = r->big ? (uint32_t)(a >> 27) & 31 : (uint32_t)a & 31;
		if (type_len == 0 || type_len >= 29) {
			if (size - curr < 8)
				return datck_damaged(
					r, at + hdr + curr,
					"CPU %d's page at byte %llu: an event's length word "
					"cut by the end of its events",
					cpu, (unsigned long long)at);
			a = datck_num(r, d + curr + 4, 4);
		}
		switch (type_len) {
		case 29: /* padding: the next event is a bytes after the length word's start */
			if (a > INT32_MAX)
				return datck_damaged(
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
				return datck_damaged(
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
				return datck_damaged(
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
int datck_cpu_pages(struct rd *r, uint64_t entry, int cpu, uint64_t off, uint64_t size, uint64_t lo,
		    uint64_t hi)
{
	uint64_t k;

	if (!size)
		return 0;
	if (off < lo || off > hi || size > hi - off) {
		if (hi == r->len)
			return datck_damaged(
				r, entry,
				"CPU %d's data (%llu bytes from byte %llu) runs past the end "
				"of the file (%llu bytes)",
				cpu, (unsigned long long)size, (unsigned long long)off,
				(unsigned long long)r->len);
		return datck_damaged(
			r, entry,
			"CPU %d's data (%llu bytes from byte %llu) lies outside its section "
			"(bytes %llu to %llu)",
			cpu, (unsigned long long)size, (unsigned long long)off,
			(unsigned long long)lo, (unsigned long long)hi);
	}
	if (off % r->page || size % r->page)
		return datck_damaged(
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
		if (datck_get(r, off + k, r->pagebuf, r->page) ||
		    check_page(r, r->pagebuf, off + k, cpu))
			return -1;
	return 0;
}

/* A compressed CPU's data: the chunk count, then (size, uncompressed size, data) chunks. */
int datck_cpu_chunks(struct rd *r, uint64_t entry, int cpu, uint64_t off, uint64_t size,
		     uint64_t lo, uint64_t hi)
{
	struct cur c = {r, off, hi, "its section"};
	uint32_t count, i, zsize, usize;

	if (!size)
		return 0;
	if (off < lo || off > hi || size > hi - off)
		return datck_damaged(
			r, entry,
			"CPU %d's compressed data (%llu bytes from byte %llu) lies outside "
			"its section (bytes %llu to %llu)",
			cpu, (unsigned long long)size, (unsigned long long)off,
			(unsigned long long)lo, (unsigned long long)hi);
	if (datck_r32(&c, "a CPU's chunk count", &count))
		return -1;
	if (count > MAX_CHUNKS)
		return datck_damaged(r, off, "CPU %d: %u compressed chunks (at most %u)", cpu,
				     count, MAX_CHUNKS);
	for (i = 0; i < count; i++) {
		uint64_t at = c.pos;

		if (datck_r32(&c, "a chunk's compressed size", &zsize) ||
		    datck_r32(&c, "a chunk's size", &usize))
			return -1;
		if (!usize || usize % r->page || usize > MAX_CHUNK)
			return datck_damaged(
				r, at + 4,
				"CPU %d, chunk %u: %u bytes uncompressed, not whole %u-byte "
				"pages (at most %u)",
				cpu, i + 1, usize, r->page, MAX_CHUNK);
		if (datck_skip(&c, zsize, "a compressed chunk"))
			return -1;
		r->lay->inflated += usize;
	}
	if (!r->lay->compressed_at || off < r->lay->compressed_at)
		r->lay->compressed_at = off;
	r->lay->compressed = true;
	return 0;
}
