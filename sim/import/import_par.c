// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_par.c - the parallel parse of a text trace (import --jobs N, docs/import.md).
 *
 * The file is cut into chunks of PAR_CHUNK bytes; chunk i holds the lines that START in
 * [i * PAR_CHUNK, (i + 1) * PAR_CHUNK), so each chunk finds its own edges from the bytes
 * around them (pread), without the chunks before it. The N - 1 lexing threads of -j N take
 * chunks in order, each reading its chunk into a slot of a ring of PAR_SLOTS(N - 1) and
 * lexing its event lines into compact records: the time, CPU and type, the payload parsed
 * into a struct kevent. The reconstruction (the thread that called par_step) consumes the
 * chunks in file order and the records in line order, as text_step consumes lines, so the
 * result is the one-thread result; while it waits for a chunk it lexes the next free one.
 *
 * What depends on the lines before (the header's CPU count, event names past IMP_MAX_NAMES,
 * timer callbacks numbered in order of first sight) is settled by the consumer: a record
 * holds where its name and callback are in the text, and the CPUs its payload named. Any line
 * that is not a plain event line (comments and header lines, lines the lexer refuses, payloads
 * that do not parse, ipi_raise with its mask of targets), and any record the consumer cannot
 * take as is (a CPU beyond the count, a name whose type differs), goes through the
 * one-thread lexing (struct par_feed) like a line of the one-thread reading: the same checks,
 * the same messages at the same line. A chunk holds at most PAR_MAX_RECS records; the
 * consumer lexes the rest of a chunk of very short lines itself. Memory: PAR_SLOTS chunks
 * and their records, whatever the length of the trace.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAR_CHUNK (256 * 1024)	     /* bytes of text a chunk starts lines in, by default */
#define PAR_MAX_RECS 8192	     /* records of a chunk; the consumer lexes the rest */
#define PAR_SLOTS(n) (2 * (n) + 2)   /* chunks read ahead or being read */
#define PAR_MAX_THREADS 16
#define PAR_READ_MORE (64 * 1024)    /* the last line of a chunk is read this much at a time */

enum { PR_EVENT, PR_LINE, PR_LONG }; /* a record: an event, a line to lex, a line too long */

struct par_rec {
	struct kevent ev; /* PR_EVENT: time, CPU, type and payload; fn not set */
	uint32_t line;	  /* 1-based, in the chunk */
	uint32_t off;	  /* of the line in the chunk's text */
	uint32_t len;	  /* of the line, without its newline and \r */
	uint32_t name_off; /* PR_EVENT: of the name in the line */
	uint32_t fn_off;   /* PR_EVENT: of the callback's name in the line, when fn_len */
	uint16_t fn_len;
	uint8_t name_len;
	uint8_t kind;
	int16_t named; /* PR_EVENT: the highest CPU the payload named, -1 none */
};

struct par_slot {
	long chunk; /* the chunk it holds, -1 none */
	bool ready; /* lexed: the consumer may take it */
	char *text; /* the chunk's lines */
	size_t len, cap;
	uint32_t nlines; /* lines in all, blank ones too */
	uint32_t rest;	 /* the consumer lexes the text from here (at PAR_MAX_RECS records) */
	uint32_t rest_line;
	bool long_tail; /* then its last line, longer than IMP_MAX_LINE, is not in text */
	struct par_rec *rec;
	size_t nrec;
	int read_errno; /* 0, or the read failed */
};

struct par_worker {
	struct par *P;
	pthread_t th;
	bool started;
	struct lexer lx;
	struct payload_ctx pc;
	struct name_table names;
};

struct par {
	int fd;
	off_t size;
	size_t chunk; /* PAR_CHUNK, or import_options.jobs_chunk */
	const struct par_feed *feed;
	long nchunks;
	int nslots, nworkers;
	struct par_slot *slot;
	struct par_worker *w;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	long next;  /* the next chunk a worker takes */
	long done;  /* chunks the consumer finished: slot of chunk c is free when c < done + nslots */
	bool stop;
	/* the consumer */
	long cur;    /* chunk being consumed, its slot held */
	size_t irec; /* its next record */
	bool have;   /* the current chunk is ready and taken */
	bool in_rest;
	size_t rest_pos;	/* in its rest: the next line's offset */
	long line_base;		/* lines of the chunks before */
	uint32_t line_seen;	/* lines of the current chunk counted so far */
};

/* ---- the workers ---- */

static int read_at(int fd, char *buf, size_t n, off_t at, size_t *got)
{
	ssize_t r = import_read_prefix(fd, buf, n, at);

	*got = r > 0 ? (size_t)r : 0;
	return r < 0 ? -1 : 0;
}

static int slot_reserve(struct par_slot *s, size_t cap)
{
	char *t;

	if (cap <= s->cap)
		return 0;
	t = sim_realloc(s->text, cap);
	if (!t)
		return -1;
	s->text = t;
	s->cap = cap;
	return 0;
}

/*
 * Read chunk c into s->text: from the first line start in the chunk to the end of the last
 * line started in it (its newline included), or to its start when that line is longer than
 * IMP_MAX_LINE (*long_tail: then one PR_LONG record ends the chunk). Returns -1 with errno.
 */
static int read_chunk(struct par *P, long c, struct par_slot *s, bool *long_tail)
{
	off_t from = c ? (off_t)c * (off_t)P->chunk - 1 : 0, end = (off_t)(c + 1) * (off_t)P->chunk;
	size_t got, start, scan, want;
	const char *nl;

	*long_tail = false;
	s->len = 0;
	if (end > P->size)
		end = P->size;
	want = (size_t)(end - from);
	if (slot_reserve(s, want + PAR_READ_MORE) || read_at(P->fd, s->text, want, from, &got))
		return -1;
	s->len = got;
	if (!got)
		return 0;
	start = 0;
	if (c) { /* the first line starting at or after the chunk's start */
		nl = memchr(s->text, '\n', got);
		start = nl ? (size_t)(nl - s->text) + 1 : got;
		if (start >= got) { /* no line starts in this chunk */
			s->len = 0;
			return 0;
		}
	}
	/* the end: the first newline at or after the chunk's last byte */
	scan = got - 1;
	for (;;) {
		nl = memchr(s->text + scan, '\n', s->len - scan);
		if (nl) {
			s->len = (size_t)(nl - s->text) + 1;
			break;
		}
		if (from + (off_t)s->len >= P->size)
			break; /* the last line of the file, without a newline */
		if (s->len - start > (size_t)IMP_MAX_LINE + P->chunk + 2) {
			/* the last line started in the chunk, so it is longer than that */
			/* the last line is longer than IMP_MAX_LINE: cut the chunk before it */
			const char *q = s->text + s->len;

			while (q > s->text + start && q[-1] != '\n')
				q--;
			s->len = (size_t)(q - s->text);
			*long_tail = true;
			break;
		}
		scan = s->len;
		if (slot_reserve(s, s->len + PAR_READ_MORE) ||
		    read_at(P->fd, s->text + s->len, PAR_READ_MORE, from + (off_t)s->len, &got))
			return -1;
		if (!got)
			break;
		s->len += got;
	}
	if (start) {
		memmove(s->text, s->text + start, s->len - start);
		s->len -= start;
	}
	return 0;
}

static bool blank_line(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return false;
	return true;
}

/* One line of a chunk into a record (or none for a blank line). */
static void lex_one(struct par_worker *w, struct par_slot *s, const char *p, size_t n,
		    uint32_t line)
{
	struct par_rec *r = &s->rec[s->nrec];
	struct name_entry *ne;
	struct lexed x;
	int rc;

	if (n && p[n - 1] == '\r')
		n--;
	if (blank_line(p, n))
		return;
	s->nrec++;
	r->line = line;
	r->off = (uint32_t)(p - s->text);
	r->len = (uint32_t)n;
	r->kind = PR_LINE;
	rc = lex_line(&w->lx, p, n, &x);
	if (rc != LEX_EVENT || x.name_len > IMP_NAME_MAX)
		return;
	ne = names_lookup(&w->names, x.name, x.name_len);
	if (!ne || ne == &w->names.invalid || ne == &w->names.other || ne->type == KEV_IPI_RAISE)
		return;
	memset(&r->ev, 0, sizeof(r->ev));
	r->ev.time_ns = x.time_ns;
	r->ev.cpu = x.cpu;
	r->ev.type = ne->type;
	w->pc.max_named = -1;
	w->pc.fn_at = NULL;
	w->pc.fn_len = 0;
	if (ne->type != KEV_OTHER && lex_payload(&w->lx, &w->pc, &x, &r->ev) != LEX_EVENT)
		return;
	if (w->pc.fn_len > UINT16_MAX)
		return;
	r->named = (int16_t)w->pc.max_named;
	r->name_off = (uint32_t)(x.name - p);
	r->name_len = (uint8_t)x.name_len;
	r->fn_off = w->pc.fn_at ? (uint32_t)(w->pc.fn_at - p) : 0;
	r->fn_len = (uint16_t)w->pc.fn_len;
	r->kind = PR_EVENT;
}

static void lex_chunk(struct par_worker *w, struct par_slot *s, bool long_tail)
{
	const char *p = s->text, *e = s->text + s->len, *nl;
	uint32_t line = 0;

	s->nrec = 0;
	s->rest = (uint32_t)s->len;
	while (p < e) {
		size_t n;

		if (s->nrec == PAR_MAX_RECS) {
			s->rest = (uint32_t)(p - s->text);
			s->rest_line = line;
			break;
		}
		nl = memchr(p, '\n', (size_t)(e - p));
		n = nl ? (size_t)(nl - p) : (size_t)(e - p);
		line++;
		if (n > IMP_MAX_LINE) { /* the last line of a chunk */
			s->rec[s->nrec].kind = PR_LONG;
			s->rec[s->nrec++].line = line;
		} else {
			lex_one(w, s, p, n, line);
		}
		p = nl ? nl + 1 : e;
	}
	if (s->rest < s->len) { /* count the lines the consumer lexes */
		for (p = s->text + s->rest; p < e; line++) {
			nl = memchr(p, '\n', (size_t)(e - p));
			p = nl ? nl + 1 : e;
		}
	}
	s->long_tail = long_tail;
	s->nlines = line + long_tail;
}

/* A chunk may be taken: one is left and its slot is free. Under P->mu. */
static bool chunk_free(const struct par *P)
{
	return P->next < P->nchunks && P->next < P->done + P->nslots;
}

/* Take the next chunk, read and lex it into its slot. Called and returns under P->mu. */
static void take_chunk(struct par_worker *w)
{
	struct par *P = w->P;
	long c = P->next++;
	struct par_slot *s = &P->slot[c % P->nslots];
	bool long_tail = false;

	pthread_mutex_unlock(&P->mu);
	s->read_errno = 0;
	if (read_chunk(P, c, s, &long_tail))
		s->read_errno = errno ? errno : EIO;
	else
		lex_chunk(w, s, long_tail);
	pthread_mutex_lock(&P->mu);
	s->chunk = c;
	s->ready = true;
	pthread_cond_broadcast(&P->cv);
}

static void *worker_main(void *arg)
{
	struct par_worker *w = arg;
	struct par *P = w->P;

	pthread_mutex_lock(&P->mu);
	for (;;) {
		while (!P->stop && P->next < P->nchunks && !chunk_free(P))
			pthread_cond_wait(&P->cv, &P->mu);
		if (P->stop || P->next >= P->nchunks)
			break;
		take_chunk(w);
	}
	pthread_mutex_unlock(&P->mu);
	return NULL;
}

/* ---- starting and stopping ---- */

void par_stop(struct importer *im)
{
	struct par *P = im->par;
	int i;

	if (!P)
		return;
	pthread_mutex_lock(&P->mu);
	P->stop = true;
	pthread_cond_broadcast(&P->cv);
	pthread_mutex_unlock(&P->mu);
	for (i = 0; P->w && i <= P->nworkers; i++) {
		if (i < P->nworkers && P->w[i].started)
			pthread_join(P->w[i].th, NULL);
		names_release(&P->w[i].names);
	}
	for (i = 0; i < P->nslots; i++) {
		sim_free(P->slot[i].text);
		sim_free(P->slot[i].rec);
	}
	pthread_cond_destroy(&P->cv);
	pthread_mutex_destroy(&P->mu);
	sim_free(P->slot);
	sim_free(P->w);
	sim_free(P);
	im->par = NULL;
}

int par_start(struct importer *im, const struct par_feed *feed)
{
	struct stat st;
	struct par *P;
	/* -j N: N threads in all, the calling one (the reconstruction) and N - 1 lexing; with
	 * one more, the lexers took the reconstruction's core on two cores (-j 2: 0.84x the CPU
	 * time, 0.88x the wall time of two lexing threads, docs/speed.md) */
	int i, n = im->opt.jobs - 1 < PAR_MAX_THREADS ? im->opt.jobs - 1 : PAR_MAX_THREADS;

	if (fstat(im->ls.fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return 0; /* read one line after the other */
	P = sim_calloc(1, sizeof(*P));
	if (!P)
		return -1;
	im->par = P;
	P->fd = im->ls.fd;
	P->feed = feed;
	P->size = st.st_size;
	P->chunk = im->opt.jobs_chunk ? im->opt.jobs_chunk : PAR_CHUNK;
	P->nchunks = (long)((st.st_size + (off_t)P->chunk - 1) / (off_t)P->chunk);
	P->nworkers = n;
	P->nslots = PAR_SLOTS(n);
	P->slot = sim_calloc((size_t)P->nslots, sizeof(*P->slot));
	P->w = sim_calloc((size_t)n + 1, sizeof(*P->w)); /* w[n]: the consumer's, when it helps */
	pthread_mutex_init(&P->mu, NULL);
	pthread_cond_init(&P->cv, NULL);
	if (!P->slot || !P->w) {
		P->nworkers = P->w ? n : 0;
		P->nslots = P->slot ? P->nslots : 0;
		goto fail;
	}
	for (i = 0; i < P->nslots; i++) {
		P->slot[i].chunk = -1;
		P->slot[i].rec = sim_malloc(PAR_MAX_RECS * sizeof(*P->slot[i].rec));
		if (!P->slot[i].rec)
			goto fail;
	}
	for (i = 0; i <= n; i++) {
		struct par_worker *w = &P->w[i];

		w->P = P;
		w->lx.fmt = im->lx.fmt;
		w->pc.tick_ns = im->pc.tick_ns;
		w->pc.cpus = TRACE_MAX_CPUS; /* the consumer checks against the count it knows */
		if (names_init(&w->names))
			goto fail;
	}
	for (i = 0; i < n; i++) {
		if (pthread_create(&P->w[i].th, NULL, worker_main, &P->w[i]))
			goto fail;
		P->w[i].started = true;
	}
	return 0;
fail:
	par_stop(im);
	return -1;
}

/* ---- the consumer ---- */

/* The next line of the current chunk's rest, lexed here: 1, 0 at its end. */
static int rest_line(struct importer *im, struct par_slot *s, bool pass2, struct sim_error *err)
{
	struct par *P = im->par;
	const char *p = s->text + P->rest_pos, *e = s->text + s->len, *nl;
	size_t n;

	if (p >= e)
		return 0;
	nl = memchr(p, '\n', (size_t)(e - p));
	n = nl ? (size_t)(nl - p) : (size_t)(e - p);
	P->rest_pos = (size_t)((nl ? nl + 1 : e) - s->text);
	im->ls.lineno = P->line_base + ++P->line_seen;
	if (n > IMP_MAX_LINE)
		return P->feed->long_line(im, pass2, err) ? -1 : 1;
	if (n && p[n - 1] == '\r')
		n--;
	return P->feed->line(im, p, n, pass2, err) ? -1 : 1;
}

/* A record of the current chunk, as text_step takes a line: 0, or -1 with err set. */
static int take(struct importer *im, const struct par_slot *s, const struct par_rec *r,
		bool pass2, struct sim_error *err)
{
	const struct par *P = im->par;
	const char *line = s->text + r->off;
	struct name_entry *ne;
	struct kevent ev;
	int limit = im->opt.cpus		? im->opt.cpus
		    : im->lx.declared_cpus	? im->lx.declared_cpus
						: TRACE_MAX_CPUS;

	im->ls.lineno = P->line_base + r->line;
	if (r->kind == PR_LONG)
		return P->feed->long_line(im, pass2, err);
	if (r->kind == PR_EVENT && r->ev.cpu < limit && r->named < limit) {
		ne = names_lookup(&im->names, line + r->name_off, r->name_len);
		if (ne && ne->type == r->ev.type && ne != &im->names.invalid) {
			if (pass2)
				im->t.lines++;
			im->pc.cpus = limit;
			if (r->named > im->pc.max_named)
				im->pc.max_named = r->named;
			ev = r->ev;
			ev.line = im->ls.lineno;
			if (r->fn_len)
				ev.fn = fn_intern(im->pc.fns, line + r->fn_off, r->fn_len);
			return P->feed->event(im, ne, &ev, pass2, err);
		}
	}
	return P->feed->line(im, line, r->len, pass2, err);
}

/* Blank lines before line `upto` of the current chunk: counted, as text_step counts them. */
static void blanks(struct importer *im, bool pass2, uint32_t upto)
{
	struct par *P = im->par;

	if (pass2 && upto > P->line_seen + 1)
		im->t.lines += upto - P->line_seen - 1;
	if (upto > P->line_seen)
		P->line_seen = upto;
}

int par_step(struct importer *im, bool pass2, struct sim_error *err)
{
	struct par *P = im->par;

	for (;;) {
		struct par_slot *s;
		int rc;

		if (P->cur >= P->nchunks) {
			im->ls.lineno = P->line_base;
			return 0;
		}
		s = &P->slot[P->cur % P->nslots];
		if (!P->have) {
			/* waiting for the lexers: lex a chunk ahead meanwhile (on two cores the one
			 * lexer is the slower side) */
			pthread_mutex_lock(&P->mu);
			while (!s->ready || s->chunk != P->cur) {
				if (chunk_free(P))
					take_chunk(&P->w[P->nworkers]);
				else
					pthread_cond_wait(&P->cv, &P->mu);
			}
			pthread_mutex_unlock(&P->mu);
			P->have = true;
			if (s->read_errno) {
				errno = s->read_errno;
				return sim_error_set(err, SIM_ERR_IO, im->name, 0, 0,
						     "read error: %s", strerror(errno));
			}
		}
		if (P->irec < s->nrec) {
			const struct par_rec *r = &s->rec[P->irec++];

			blanks(im, pass2, r->line);
			return take(im, s, r, pass2, err) ? -1 : 1;
		}
		if (s->rest < s->len) {
			if (!P->in_rest) {
				blanks(im, pass2, s->rest_line + 1);
				P->line_seen = s->rest_line;
				P->in_rest = true;
				P->rest_pos = s->rest;
			}
			rc = rest_line(im, s, pass2, err);
			if (rc)
				return rc;
		}
		if (s->long_tail && P->line_seen < s->nlines) {
			blanks(im, pass2, s->nlines);
			P->line_seen = s->nlines;
			im->ls.lineno = P->line_base + s->nlines;
			return P->feed->long_line(im, pass2, err) ? -1 : 1;
		}
		/* the chunk is done: its trailing blank lines, then its slot is free */
		blanks(im, pass2, s->nlines + 1);
		P->line_base += s->nlines;
		P->line_seen = 0;
		P->irec = 0;
		P->in_rest = P->have = false;
		pthread_mutex_lock(&P->mu);
		s->ready = false;
		P->cur++;
		P->done = P->cur;
		pthread_cond_broadcast(&P->cv);
		pthread_mutex_unlock(&P->mu);
	}
}
