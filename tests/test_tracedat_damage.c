// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tracedat_damage.c - damaged trace.dat files never crash idlesim (docs/import.md,
 * "trace.dat"; sim/import/import_datcheck.c).
 *
 * Every damaged file must make `idlesim import FILE -o OUT` (and `idlesim run --trace FILE`)
 * exit with status 2, print one line "idlesim: FILE: trace.dat damaged: WHAT (offset N)" on
 * stderr and nothing on stdout, and leave no OUT behind. The binary is run as a user runs it
 * (fork and exec, no shell), so a crash shows as the signal that ended it.
 *
 * Where a cut must fail, from the format: trace.dat version 6 ends with each CPU's data, at
 * the offsets and sizes of the per-CPU table near the start, and the last CPU's data ends at
 * the end of the file (both files below do: checked). So no prefix of the file is complete:
 * every cut leaves a field, a section or a CPU's data that reaches past the new end, and the
 * message names the first one in reading order, which the test computes independently from
 * the intact file's layout (v6_walk) and compares word for word. Version 7 ends with the
 * strings section and every section lies whole in the file: every cut is damage too.
 *
 *   test_tracedat_damage         the small trace.dat files of tests/import/make-tracedat.py
 *                                (always): valid imports, every cut, each checked field
 *                                changed, every header byte flipped, tests/import/invalid/dat-*;
 *   test_tracedat_damage real    the real trace.dat of IDLESIM_SHARED_DIR/traces/real: cut at
 *                                every 1 kB from its end and at 50 random sizes, each checked
 *                                header field changed. Without the shared folder: exit 77 after
 *                                saying so (ctest: Skipped).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/error.h"
#include "sim/import/import.h"

#define FIX SRC "/tests/import/"
#define REAL IDLESIM_SHARED_DIR "/traces/real/trappy-trace_idle.dat"
#define SKIPPED 77

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("datdamage");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

/* ---- files ---- */

static unsigned char *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *d;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	d = malloc((size_t)n);
	assert_non_null(d);
	assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return d;
}

static void save(const char *path, const void *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* ---- running the binary ---- */

/* Start `idlesim ARGV...` with stdout and stderr to files; its pid. */
static pid_t start(const char *const *argv, const char *out, const char *err)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execv(BIN, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Its exit status, or minus the signal that ended it. */
static int finish(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

static int run_args(const char *const *argv, const char *out, const char *err)
{
	return finish(start(argv, out, err));
}

/*
 * One finished run on a damaged file: status 2, stdout empty, stderr exactly
 * "idlesim: FILE: WANT\n" (want) or, with want NULL, one "idlesim: FILE: trace.dat damaged:
 * ... (offset N)\n" line with N <= max_off; the output file absent. Prints why not.
 */
static bool refused_ok(int status, const char *file, const char *outf, const char *errf,
		       const char *output, const char *want, uint64_t max_off, const char *what)
{
	char *out = slurp(outf), *err = slurp(errf), head[700];
	bool ok = true;

	assert_non_null(out);
	assert_non_null(err);
	snprintf(head, sizeof(head), "idlesim: %s: ", file);
	if (status != 2) {
		fprintf(stderr, "%s: exit %d%s, not 2\n", what, status < 0 ? -status : status,
			status < 0 ? " (signal)" : "");
		ok = false;
	}
	if (out[0]) {
		fprintf(stderr, "%s: stdout not empty: %.200s\n", what, out);
		ok = false;
	}
	if (want) {
		size_t h = strlen(head);

		if (strncmp(err, head, h) || strncmp(err + h, want, strlen(want)) ||
		    strcmp(err + h + strlen(want), "\n")) {
			fprintf(stderr, "%s:\n want: %s%s\n got:  %s", what, head, want, err);
			ok = false;
		}
	} else {
		const char *m = strncmp(err, head, strlen(head)) ? NULL : err + strlen(head);
		const char *o = m ? strstr(m, " (offset ") : NULL;
		unsigned long long n = 0;
		char tail[8] = "";

		if (!m || strncmp(m, "trace.dat damaged", 17) || !o ||
		    sscanf(o, " (offset %llu%7s", &n, tail) != 2 || strcmp(tail, ")") ||
		    strchr(err, '\n') != err + strlen(err) - 1 || n > max_off) {
			fprintf(stderr, "%s: not one \"%strace.dat damaged: ... (offset N <= %llu)\" "
				"line: %s", what, head, (unsigned long long)max_off, err);
			ok = false;
		}
	}
	if (output && access(output, F_OK) == 0) {
		fprintf(stderr, "%s: %s was left behind\n", what, output);
		ok = false;
		unlink(output);
	}
	free(out);
	free(err);
	return ok;
}

/* `idlesim import FILE -o OUT` and, if run_too, `idlesim run --trace FILE -o OUT`. */
static bool import_refused(const char *file, const char *want, uint64_t max_off, bool run_too,
			   const char *what)
{
	char out[128], err[128], o[128];
	const char *imp[] = { BIN, "import", file, "-o", o, NULL };
	const char *run[] = { BIN, "run", "--trace", file, "--machine", "skl", "-o", o, NULL };
	bool ok;

	snprintf(out, sizeof(out), "%s/r.out", tmpdir);
	snprintf(err, sizeof(err), "%s/r.err", tmpdir);
	snprintf(o, sizeof(o), "%s/r.trace", tmpdir);
	ok = refused_ok(run_args(imp, out, err), file, out, err, o, want, max_off, what);
	if (run_too)
		ok &= refused_ok(run_args(run, out, err), file, out, err, o, want, max_off, what);
	return ok;
}

/* ---- the layout of an intact version 6 file, field by field ---- */

enum { F_NEED, F_STRING };

struct field {
	uint64_t at, len;
	int kind;
	char what[200];
};

struct v6 {
	struct field *f;
	size_t n, cap;
	uint64_t len, table, page;
	int cpus;
	uint64_t off[64], size[64];
};

static void add(struct v6 *L, uint64_t at, uint64_t len, int kind, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void add(struct v6 *L, uint64_t at, uint64_t len, int kind, const char *fmt, ...)
{
	va_list ap;

	if (L->n == L->cap) {
		L->f = realloc(L->f, (L->cap = L->cap ? 2 * L->cap : 256) * sizeof(*L->f));
		assert_non_null(L->f);
	}
	L->f[L->n].at = at;
	L->f[L->n].len = len;
	L->f[L->n].kind = kind;
	va_start(ap, fmt);
	vsnprintf(L->f[L->n].what, sizeof(L->f[L->n].what), fmt, ap);
	va_end(ap);
	L->n++;
}

/* The fields in the order they are read, as trace-cmd.dat.v6.5.txt lays them out. */
static void v6_walk(const unsigned char *d, size_t len, struct v6 *L)
{
	static const char *mark = "\"options\", \"latency\" or \"flyrecord\"";
	uint64_t p, s, i, j, c, n;
	bool clock = false;

	memset(L, 0, sizeof(*L));
	L->len = len;
	assert_memory_equal(d, "\x17\x08\x44tracing6", 12);
	add(L, 10, 2, F_STRING, "the file version");
	add(L, 12, 2, F_NEED, "the endianness and long size");
	add(L, 14, 4, F_NEED, "the page size");
	L->page = le(d + 14, 4);
	add(L, 18, 12, F_NEED, "the \"header_page\" marker");
	add(L, 30, 8, F_NEED, "the header_page size");
	s = le(d + 30, 8);
	add(L, 38, s, F_NEED, "the header_page text");
	p = 38 + s;
	add(L, p, 13, F_NEED, "the \"header_event\" marker");
	add(L, p + 13, 8, F_NEED, "the header_event size");
	s = le(d + p + 13, 8);
	add(L, p + 21, s, F_NEED, "the header_event text");
	p += 21 + s;
	add(L, p, 4, F_NEED, "the number of ftrace event formats");
	n = le(d + p, 4);
	for (p += 4, i = 0; i < n; i++) {
		add(L, p, 8, F_NEED, "the size of ftrace event formats %llu", (unsigned long long)i + 1);
		s = le(d + p, 8);
		add(L, p + 8, s, F_NEED, "ftrace event formats %llu", (unsigned long long)i + 1);
		p += 8 + s;
	}
	add(L, p, 4, F_NEED, "the number of event systems");
	n = le(d + p, 4);
	for (p += 4, i = 0; i < n; i++) {
		const char *sys = (const char *)d + p;
		uint64_t l = strlen(sys) + 1;

		add(L, p, l, F_STRING, "an event system's name");
		p += l;
		add(L, p, 4, F_NEED, "the number of event formats of system \"%s\"", sys);
		c = le(d + p, 4);
		for (p += 4, j = 0; j < c; j++) {
			add(L, p, 8, F_NEED, "the size of event formats of system \"%s\" %llu", sys,
			    (unsigned long long)j + 1);
			s = le(d + p, 8);
			add(L, p + 8, s, F_NEED, "event formats of system \"%s\" %llu", sys,
			    (unsigned long long)j + 1);
			p += 8 + s;
		}
	}
	add(L, p, 4, F_NEED, "the kallsyms size");
	s = le(d + p, 4);
	add(L, p + 4, s, F_NEED, "kallsyms");
	p += 4 + s;
	add(L, p, 4, F_NEED, "the printk formats size");
	s = le(d + p, 4);
	add(L, p + 4, s, F_NEED, "printk formats");
	p += 4 + s;
	add(L, p, 8, F_NEED, "the saved command lines size");
	s = le(d + p, 8);
	add(L, p + 8, s, F_NEED, "the saved command lines");
	p += 8 + s;
	add(L, p, 4, F_NEED, "the CPU count");
	L->cpus = (int)le(d + p, 4);
	assert_true(L->cpus >= 1 && L->cpus <= 64);
	p += 4;
	add(L, p, 10, F_NEED, "%s", mark);
	if (!memcmp(d + p, "options  \0", 10)) {
		for (p += 10;;) {
			uint64_t id = le(d + p, 2);

			add(L, p, 2, F_NEED, "an option id");
			p += 2;
			if (!id)
				break;
			add(L, p, 4, F_NEED, "an option size");
			s = le(d + p, 4);
			add(L, p + 4, s, F_NEED, "an option's data");
			clock |= id == 4;
			p += 4 + s;
		}
		add(L, p, 10, F_NEED, "%s", mark);
	}
	assert_memory_equal(d + p, "flyrecord\0", 10);
	L->table = p += 10;
	add(L, p, 16ull * (unsigned)L->cpus, F_NEED, "the per-CPU offsets and sizes");
	for (c = 0; c < (uint64_t)L->cpus; c++) {
		L->off[c] = le(d + p + 16 * c, 8);
		L->size[c] = le(d + p + 16 * c + 8, 8);
	}
	p += 16ull * (unsigned)L->cpus;
	if (clock) {
		add(L, p, 8, F_NEED, "the trace_clock size");
		s = le(d + p, 8);
		add(L, p + 8, s, F_NEED, "the trace_clock text");
	}
	/* the premise of "every cut is damage": the last CPU's data ends the file */
	for (n = 0, c = 0; c < (uint64_t)L->cpus; c++)
		if (L->off[c] + L->size[c] > n)
			n = L->off[c] + L->size[c];
	assert_true(n == len);
}

static uint64_t fat(const struct v6 *L, const char *what)
{
	size_t i;

	for (i = 0; i < L->n; i++)
		if (!strcmp(L->f[i].what, what))
			return L->f[i].at;
	fail_msg("no field \"%s\"", what);
	return 0;
}

/*
 * The message `idlesim import` must give for the file cut to k bytes (k < its length), or
 * NULL for "not a kernel trace" (k < 3: too little of the magic to know it).
 */
static const char *v6_expect(const struct v6 *L, uint64_t k, char *buf, size_t n)
{
	size_t i;
	int c;

	if (k < 3)
		return NULL;
	if (k < 10) {
		snprintf(buf, n, "trace.dat damaged: the file ends after %llu bytes, inside the "
			 "10-byte magic (offset %llu)", (unsigned long long)k, (unsigned long long)k);
		return buf;
	}
	for (i = 0; i < L->n; i++) {
		const struct field *f = &L->f[i];

		if (k >= f->at + f->len)
			continue;
		if (f->kind == F_STRING)
			snprintf(buf, n, "trace.dat damaged: %s: no terminating NUL before the file "
				 "ends (offset %llu)", f->what, (unsigned long long)f->at);
		else
			snprintf(buf, n, "trace.dat damaged: %s: %llu bytes needed, but the file ends "
				 "%llu bytes further (it is %llu bytes long) (offset %llu)", f->what,
				 (unsigned long long)f->len, (unsigned long long)(k - f->at),
				 (unsigned long long)k, (unsigned long long)f->at);
		return buf;
	}
	for (c = 0; c < L->cpus; c++)
		if (L->size[c] && L->off[c] + L->size[c] > k) {
			snprintf(buf, n, "trace.dat damaged: CPU %d's data (%llu bytes from byte %llu) "
				 "runs past the end of the file (%llu bytes) (offset %llu)", c,
				 (unsigned long long)L->size[c], (unsigned long long)L->off[c],
				 (unsigned long long)k, (unsigned long long)(L->table + 16ull * (unsigned)c));
			return buf;
		}
	fail_msg("a cut at %llu leaves a complete file", (unsigned long long)k);
	return NULL;
}

/* ---- cuts through the binary, two at a time ---- */

struct slot {
	pid_t pid;
	uint64_t k;
	int fd; /* a copy of the file, cut shorter and shorter */
	char file[256], out[256], err[256], trace[256];
};

/*
 * Cut the file at each of ks[] (in decreasing order) and check `idlesim import` (and every
 * run_every-th, `idlesim run --trace`) refuses it with the message v6_expect computes.
 * Returns the number of cuts that failed.
 */
static int cut_all(const unsigned char *d, size_t len, const struct v6 *L, const uint64_t *ks,
		   size_t nk, int run_every)
{
	struct slot s[2];
	size_t next = 0, done = 0;
	int i, bad = 0;

	for (i = 0; i < 2; i++) {
		snprintf(s[i].file, sizeof(s[i].file), "%s/cut%d.dat", tmpdir, i);
		snprintf(s[i].out, sizeof(s[i].out), "%s/cut%d.out", tmpdir, i);
		snprintf(s[i].err, sizeof(s[i].err), "%s/cut%d.err", tmpdir, i);
		snprintf(s[i].trace, sizeof(s[i].trace), "%s/cut%d.trace", tmpdir, i);
		save(s[i].file, d, len);
		s[i].fd = open(s[i].file, O_WRONLY);
		assert_true(s[i].fd >= 0);
		s[i].pid = 0;
	}
	while (done < nk) {
		for (i = 0; i < 2; i++) {
			if (s[i].pid || next >= nk)
				continue;
			s[i].k = ks[next++];
			assert_int_equal(ftruncate(s[i].fd, (off_t)s[i].k), 0);
			{
				const char *argv[] = { BIN, "import", s[i].file, "-o", s[i].trace, NULL };

				s[i].pid = start(argv, s[i].out, s[i].err);
			}
		}
		for (i = 0; i < 2; i++) {
			char want[700], what[64];
			const char *w;
			int st;

			if (!s[i].pid)
				continue;
			st = finish(s[i].pid);
			s[i].pid = 0;
			done++;
			w = v6_expect(L, s[i].k, want, sizeof(want));
			snprintf(what, sizeof(what), "cut at %llu", (unsigned long long)s[i].k);
			if (!w) {
				char *e = slurp(s[i].err);

				if (st != 2 || !strstr(e, "not a kernel trace")) {
					fprintf(stderr, "%s: exit %d: %s", what, st, e);
					bad++;
				}
				free(e);
				continue;
			}
			if (!refused_ok(st, s[i].file, s[i].out, s[i].err, s[i].trace, w, 0, what))
				bad++;
			else if (run_every && done % (size_t)run_every == 0) {
				const char *argv[] = { BIN, "run", "--trace", s[i].file, "--machine",
						       "skl", "-o", s[i].trace, NULL };

				if (!refused_ok(run_args(argv, s[i].out, s[i].err), s[i].file,
						s[i].out, s[i].err, s[i].trace, w, 0, what))
					bad++;
			}
		}
	}
	for (i = 0; i < 2; i++) {
		close(s[i].fd);
		unlink(s[i].file);
	}
	return bad;
}

/* ---- one field changed ---- */

struct edit {
	uint64_t at;
	uint64_t value;
	int width; /* bytes, little-endian; 0: `value` is ignored and `bytes` written */
	const char *bytes;
	size_t nbytes;
};

/* Write the file with the edits applied and check the exact message. */
static bool edited(const char *name, const unsigned char *d, size_t len, const struct edit *e,
		   size_t ne, const char *want, bool run_too)
{
	unsigned char *m = malloc(len);
	char path[256];
	size_t i;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	assert_non_null(m);
	memcpy(m, d, len);
	for (i = 0; i < ne; i++) {
		assert_true(e[i].at + (e[i].width ? (unsigned)e[i].width : e[i].nbytes) <= len);
		if (e[i].width)
			put(m + e[i].at, e[i].value, e[i].width);
		else
			memcpy(m + e[i].at, e[i].bytes, e[i].nbytes);
	}
	save(path, m, len);
	free(m);
	ok = import_refused(path, want, 0, run_too, name);
	unlink(path);
	return ok;
}

#define ONE(at_, v_, w_) ((struct edit[]){ { (at_), (v_), (w_), NULL, 0 } }), 1
#define TEXT(at_, s_) ((struct edit[]){ { (at_), 0, 0, (s_), sizeof(s_) - 1 } }), 1

static char want[700];

static const char *W(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static const char *W(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	return want;
}

/* Length of the kbuffer event at p (type_len rules), for the page cases. */
static uint64_t event_len(const unsigned char *p)
{
	uint32_t w = (uint32_t)le(p, 4), t = w & 31;

	if (t == 0)
		return 8 + ((le(p + 4, 4) - 4 + 3) & ~3ull);
	if (t >= 29)
		return t == 29 ? 4 + le(p + 4, 4) : 8;
	return 4 + 4ull * t;
}

/*
 * Each field of a version 6 file that the check reads, changed: the exact message. The
 * same cases for the real file and tiny-v6.dat; `name` prefixes the temporary files.
 */
static int v6_fields(const unsigned char *d, size_t len, const struct v6 *L)
{
	uint64_t hp = fat(L, "the header_page text"), sys1 = 0, page = L->off[0], ev, first;
	const char *sysw = NULL; /* "event formats of system \"...\"" of the first system */
	int bad = 0;
	size_t i;

	for (i = 0; i < L->n && !sysw; i++)
		if (!strncmp(L->f[i].what, "the number of event formats of system", 37)) {
			sys1 = L->f[i].at;
			sysw = L->f[i].what + strlen("the number of ");
		}
	assert_non_null(sysw);
	bad += !edited("magic.dat", d, len, ONE(4, 'R', 1),
		       "trace.dat damaged: the magic \\x17\\x08\\x44tracing is wrong at byte 4 "
		       "(offset 4)", true);
	bad += !edited("magic0.dat", d, len, ONE(0, 0x16, 1),
		       "trace.dat damaged: the magic \\x17\\x08\\x44tracing is wrong at byte 0 "
		       "(offset 0)", false);
	bad += !edited("version.dat", d, len, ONE(10, '9', 1),
		       "trace.dat damaged or too new: file version \"9\" (idlesim reads versions 6 "
		       "and 7) (offset 10)", true);
	bad += !edited("version2.dat", d, len, ONE(10, 0xc9, 1),
		       "trace.dat damaged or too new: file version \"\\xc9\" (idlesim reads "
		       "versions 6 and 7) (offset 10)", false);
	bad += !edited("endian.dat", d, len, ONE(12, 2, 1),
		       "trace.dat damaged: endianness byte 2 (0 little, 1 big) (offset 12)", true);
	bad += !edited("long.dat", d, len, ONE(13, 5, 1),
		       "trace.dat damaged: long size 5 (4 or 8) (offset 13)", false);
	bad += !edited("page.dat", d, len, ONE(14, 4095, 4),
		       "trace.dat damaged: page size 4095 (a power of two, 4096 to 16777216) "
		       "(offset 14)", true);
	bad += !edited("page2.dat", d, len, ONE(14, 1u << 25, 4),
		       "trace.dat damaged: page size 33554432 (a power of two, 4096 to 16777216) "
		       "(offset 14)", false);
	bad += !edited("hpmark.dat", d, len, TEXT(18, "header_pagX"),
		       "trace.dat damaged: the \"header_page\" marker expected (offset 18)", true);
	bad += !edited("hpsize.dat", d, len, ONE(30, 65537, 8),
		       "trace.dat damaged: a header_page text of 65537 bytes (at most 65536) "
		       "(offset 30)", true);
	bad += !edited("hpsize0.dat", d, len, ONE(30, 0, 8),
		       "trace.dat: an empty header_page (a kernel before 2.6.31): not supported "
		       "(offset 30)", false);
	bad += !edited("hptext.dat", d, len, TEXT(hp + 1, "fiXld"),
		       W("trace.dat damaged: the header_page text is not \"field: TYPE NAME; "
			 "offset:N; size:N; signed:N;\" lines for timestamp, commit, [overwrite,] "
			 "data (offset %llu)", (unsigned long long)hp), true);
	bad += !edited("hpts.dat", d, len,
		       TEXT(hp + (uint64_t)(strstr((const char *)d + hp, "size:8") -
					    (const char *)d - hp) + 5, "9"),
		       W("trace.dat damaged: header_page: the page time stamp is 9 bytes at 0, not "
			 "8 at 0 (offset %llu)", (unsigned long long)hp), false);
	bad += !edited("hpcommit.dat", d, len,
		       TEXT(hp + (uint64_t)(strstr((const char *)d + hp, "commit;\toffset:8;\tsize:8") -
					    (const char *)d - hp) + 23, "2"),
		       W("trace.dat damaged: header_page: the commit field is 2 bytes at 8, not 4 "
			 "or 8 at 8 (offset %llu)", (unsigned long long)hp), false);
	bad += !edited("hemark.dat", d, len, TEXT(fat(L, "the \"header_event\" marker"), "X"),
		       W("trace.dat damaged: the \"header_event\" marker expected (offset %llu)",
			 (unsigned long long)fat(L, "the \"header_event\" marker")), false);
	bad += !edited("hesize.dat", d, len, ONE(fat(L, "the header_event size"), 1u << 20, 8),
		       W("trace.dat damaged: a header_event text of 1048576 bytes (at most 65536) "
			 "(offset %llu)", (unsigned long long)fat(L, "the header_event size")), false);
	bad += !edited("ftrace.dat", d, len,
		       ONE(fat(L, "the number of ftrace event formats"), 0x7fffffff, 4),
		       W("trace.dat damaged: 2147483647 ftrace event formats (at most 1048576) "
			 "(offset %llu)", (unsigned long long)fat(L, "the number of ftrace event formats")),
		       true);
	bad += !edited("systems.dat", d, len, ONE(fat(L, "the number of event systems"), 65537, 4),
		       W("trace.dat damaged: 65537 event systems (at most 65536) (offset %llu)",
			 (unsigned long long)fat(L, "the number of event systems")), false);
	bad += !edited("sysfmts.dat", d, len, ONE(sys1, 1u << 21, 4),
		       W("trace.dat damaged: 2097152 %s (at most 1048576) (offset %llu)", sysw,
			 (unsigned long long)sys1), false);
	bad += !edited("fmtsize.dat", d, len, ONE(sys1 + 4, (1u << 20) + 1, 8),
		       W("trace.dat damaged: %s 1: 1048577 bytes (at most 1048576) (offset %llu)",
			 sysw, (unsigned long long)(sys1 + 4)), true);
	bad += !edited("kallsyms.dat", d, len, ONE(fat(L, "the kallsyms size"), 0xffffffff, 4),
		       W("trace.dat damaged: kallsyms of 4294967295 bytes (at most 268435456) "
			 "(offset %llu)", (unsigned long long)fat(L, "the kallsyms size")), true);
	bad += !edited("printk.dat", d, len, ONE(fat(L, "the printk formats size"), 0x10000001, 4),
		       W("trace.dat damaged: printk formats of 268435457 bytes (at most 268435456) "
			 "(offset %llu)", (unsigned long long)fat(L, "the printk formats size")), false);
	bad += !edited("cmdlines.dat", d, len,
		       ONE(fat(L, "the saved command lines size"), 1ull << 63, 8),
		       W("trace.dat damaged: saved command lines of 9223372036854775808 bytes (at "
			 "most 268435456) (offset %llu)",
			 (unsigned long long)fat(L, "the saved command lines size")), true);
	bad += !edited("cpus0.dat", d, len, ONE(fat(L, "the CPU count"), 0, 4),
		       W("trace.dat damaged: the CPU count is 0 (offset %llu)",
			 (unsigned long long)fat(L, "the CPU count")), true);
	bad += !edited("cpus5000.dat", d, len, ONE(fat(L, "the CPU count"), 5000, 4),
		       W("trace.dat: 5000 CPUs: idlesim simulates at most 4096 (offset %llu)",
			 (unsigned long long)fat(L, "the CPU count")), false);
	bad += !edited("options.dat", d, len, TEXT(L->table - 10, "flyrecorX"),
		       W("trace.dat damaged: \"latency\" or \"flyrecord\" expected (offset %llu)",
			 (unsigned long long)(L->table - 10)), true);
	bad += !edited("latency.dat", d, len, TEXT(L->table - 10, "latency  "),
		       W("trace.dat: a latency-tracer trace.dat (its data is text, not per-CPU "
			 "events): nothing to import (offset %llu)",
			 (unsigned long long)(L->table - 10)), true);
	bad += !edited("cpuoff.dat", d, len, ONE(L->table, L->off[0] + 8, 8),
		       W("trace.dat damaged: CPU 0's data (%llu bytes from byte %llu) is not whole "
			 "%llu-byte pages (offset %llu)", (unsigned long long)L->size[0],
			 (unsigned long long)L->off[0] + 8, (unsigned long long)L->page,
			 (unsigned long long)L->table), true);
	bad += !edited("cpusize.dat", d, len, ONE(L->table + 8, 1ull << 40, 8),
		       W("trace.dat damaged: CPU 0's data (1099511627776 bytes from byte %llu) "
			 "runs past the end of the file (%llu bytes) (offset %llu)",
			 (unsigned long long)L->off[0], (unsigned long long)len,
			 (unsigned long long)L->table), true);
	/* CPU 0's first page: its commit size, lost-events count, events */
	bad += !edited("commit.dat", d, len, ONE(page + 8, L->page - 15, 8),
		       W("trace.dat damaged: CPU 0's page at byte %llu: %llu bytes of events, more "
			 "than its %llu-byte data area (offset %llu)", (unsigned long long)page,
			 (unsigned long long)L->page - 15, (unsigned long long)L->page - 16,
			 (unsigned long long)page + 8), true);
	bad += !edited("lost.dat", d, len, ONE(page + 8, 0xc0000000ull | (L->page - 20), 8),
		       W("trace.dat damaged: CPU 0's page at byte %llu: its lost-events count lies "
			 "past the page (offset %llu)", (unsigned long long)page,
			 (unsigned long long)page + 8), false);
	first = page + 16;
	ev = event_len(d + first);
	bad += !edited("evcut.dat", d, len, ONE(page + 8, ev + 2, 8),
		       W("trace.dat damaged: CPU 0's page at byte %llu: an event header cut by the "
			 "end of its events (offset %llu)", (unsigned long long)page,
			 (unsigned long long)(first + ev)), true);
	bad += !edited("evlen.dat", d, len,
		       (struct edit[]){ { page + 8, 8, 8, NULL, 0 }, { first, 2, 4, NULL, 0 } }, 2,
		       W("trace.dat damaged: CPU 0's page at byte %llu: an event of 12 bytes in 8 "
			 "bytes left (offset %llu)", (unsigned long long)page,
			 (unsigned long long)first), false);
	{
		struct edit e[] = { { first, 0, 4, NULL, 0 }, { first + 4, 2, 4, NULL, 0 } };

		bad += !edited("evarr.dat", d, len, e, 2,
			       W("trace.dat damaged: CPU 0's page at byte %llu: an event of 2 bytes "
				 "in %llu bytes left (offset %llu)", (unsigned long long)page,
				 (unsigned long long)le(d + page + 8, 4), (unsigned long long)first),
			       true);
	}
	{
		struct edit e[] = { { first, 29, 4, NULL, 0 }, { first + 4, 0x80000000u, 4, NULL, 0 } };

		bad += !edited("evpad.dat", d, len, e, 2,
			       W("trace.dat damaged: CPU 0's page at byte %llu: a padding of 2147483648 "
				 "bytes (offset %llu)", (unsigned long long)page,
				 (unsigned long long)first), false);
	}
	{
		struct edit e[] = { { page + 8, 100, 8, NULL, 0 },
				    { first, 28 | (le(d + first, 4) & ~31ull), 4, NULL, 0 } };

		bad += !edited("evtype.dat", d, len, e, 2,
			       W("trace.dat damaged: CPU 0's page at byte %llu: an event of 116 bytes "
				 "in 100 bytes left (offset %llu)", (unsigned long long)page,
				 (unsigned long long)first), true);
	}
	return bad;
}

/* ---- the layout of an intact version 7 file: its sections and options ---- */

struct v7 {
	uint64_t zname, first_field, first; /* compression name, first options offset */
	struct {
		uint64_t at, size;
		unsigned id, flags;
	} s[64];
	int n;
};

static void v7_walk(const unsigned char *d, size_t len, struct v7 *L)
{
	uint64_t p = 18;

	memset(L, 0, sizeof(*L));
	assert_memory_equal(d, "\x17\x08\x44tracing7", 12);
	L->zname = p;
	p += strlen((const char *)d + p) + 1;
	p += strlen((const char *)d + p) + 1;
	L->first_field = p;
	L->first = le(d + p, 8);
	for (p += 8; p < len; L->n++) {
		assert_true(L->n < 64);
		L->s[L->n].at = p;
		L->s[L->n].id = (unsigned)le(d + p, 2);
		L->s[L->n].flags = (unsigned)le(d + p + 2, 2);
		L->s[L->n].size = le(d + p + 8, 8);
		p += 16 + L->s[L->n].size;
	}
	assert_true(p == len);
}

/* The k-th (from 0) section of this id. */
static uint64_t sec(const struct v7 *L, unsigned id, int k)
{
	int i;

	for (i = 0; i < L->n; i++)
		if (L->s[i].id == id && !k--)
			return L->s[i].at;
	fail_msg("no section %u", id);
	return 0;
}

/* The option of this id in the options sections (its id field), and its data size. */
static uint64_t opt(const unsigned char *d, const struct v7 *L, unsigned id, uint64_t *size)
{
	int i;

	for (i = 0; i < L->n; i++) {
		uint64_t p = L->s[i].at + 16, end = p + L->s[i].size;

		if (L->s[i].id)
			continue;
		while (p < end) {
			if (le(d + p, 2) == id) {
				if (size)
					*size = le(d + p + 2, 4);
				return p;
			}
			p += 6 + le(d + p + 2, 4);
		}
	}
	fail_msg("no option %u", id);
	return 0;
}

/* Each field of the version 7 layout that the check reads, changed: the exact message. */
static int v7_fields(const unsigned char *d, size_t len, bool z)
{
	struct v7 L;
	uint64_t hdr, ftr, o1, done, hi, cc, buf, bufd, table, bsec, bsz, sz, uname, clock, sec0;
	int bad = 0;

	v7_walk(d, len, &L);
	hdr = sec(&L, 16, 0);
	ftr = sec(&L, 17, 0);
	o1 = L.first;
	hi = opt(d, &L, 16, NULL);
	cc = opt(d, &L, 8, NULL);
	uname = opt(d, &L, 5, NULL);
	clock = opt(d, &L, 4, &sz);
	buf = opt(d, &L, 3, NULL);
	bufd = buf + 6;
	table = bufd + 8 + 1 + strlen((const char *)d + bufd + 9) + 1 + 8;
	bsec = le(d + bufd, 8);
	bsz = le(d + bsec + 8, 8);
	/* the first options section's DONE: the last option in it */
	for (done = o1 + 16; done + 6 + le(d + done + 2, 4) < o1 + 16 + le(d + o1 + 8, 8);)
		done += 6 + le(d + done + 2, 4);
	sec0 = sec(&L, 16, 0);

	bad += !edited("v7zname.dat", d, len, /* one byte: TEXT() takes sizeof of a literal, not of a pointer */
		       ((struct edit[]){ { L.zname + 3, 0, 0, z ? "x" : "f", 1 } }), 1,
		       W("trace.dat damaged: compression \"%s\" (none, zstd or zlib) (offset %llu)",
			 z ? "zstx" : "nonf", (unsigned long long)L.zname), true);
	bad += !edited("v7first.dat", d, len, ONE(L.first_field, sec0 + 1, 8),
		       W("trace.dat damaged: the options section offset %llu is not the start of a "
			 "section (offset %llu)", (unsigned long long)sec0 + 1,
			 (unsigned long long)L.first_field), true);
	bad += !edited("v7first2.dat", d, len, ONE(L.first_field, sec0, 8),
		       W("trace.dat damaged: the section at %llu has id 16, not 0 (options) (offset "
			 "%llu)", (unsigned long long)sec0, (unsigned long long)L.first_field), false);
	bad += !edited("v7secsize.dat", d, len, ONE(hdr + 8, 1ull << 40, 8),
		       W("trace.dat damaged: section HEADER_INFO (id 16) of 1099511627776 bytes from "
			 "byte %llu runs past the end of the file (%llu bytes) (offset %llu)",
			 (unsigned long long)hdr + 16, (unsigned long long)len,
			 (unsigned long long)hdr + 8), true);
	bad += !edited("v7secflags.dat", d, len, ONE(hdr + 2, 2, 2),
		       W("trace.dat damaged: section id 16: unknown flags 0x2 (offset %llu)",
			 (unsigned long long)hdr + 2), false);
	if (!z)
		bad += !edited("v7seccomp.dat", d, len, ONE(hdr + 2, 1, 2),
			       W("trace.dat damaged: section id 16 is compressed in a file without "
				 "compression (offset %llu)", (unsigned long long)hdr + 2), false);
	bad += !edited("v7loop.dat", d, len, ONE(done + 6, o1, 8),
		       W("trace.dat damaged: the next options section (at %llu) is not after this "
			 "one (%llu) (offset %llu)", (unsigned long long)o1, (unsigned long long)o1,
			 (unsigned long long)done + 6), true);
	bad += !edited("v7hi.dat", d, len, ONE(hi + 6, hdr + 1, 8),
		       W("trace.dat damaged: option HEADER_INFO: offset %llu is not the start of a "
			 "section (offset %llu)", (unsigned long long)hdr + 1, (unsigned long long)hi),
		       true);
	bad += !edited("v7hi2.dat", d, len, ONE(hi + 6, ftr, 8),
		       W("trace.dat damaged: option HEADER_INFO: the section at %llu has id 17, not "
			 "16 (offset %llu)", (unsigned long long)ftr, (unsigned long long)hi), false);
	bad += !edited("v7nohi.dat", d, len, ONE(hi, 99, 2),
		       W("trace.dat damaged: no HEADER_INFO option: the page header is unknown "
			 "(offset %llu)", (unsigned long long)o1), true);
	bad += !edited("v7cpucount.dat", d, len, ONE(cc + 6, 0, 4),
		       W("trace.dat damaged: option CPUCOUNT: 0 CPUs (1..4096) (offset %llu)",
			 (unsigned long long)cc), false);
	bad += !edited("v7optsize.dat", d, len, ONE(uname + 2, 1000, 4),
		       W("trace.dat damaged: an option's data: 1000 bytes needed, but its options "
			 "section ends %llu bytes further (offset %llu)",
			 (unsigned long long)(o1 + 16 + le(d + o1 + 8, 8) - uname - 6),
			 (unsigned long long)uname + 6), false);
	bad += !edited("v7hook.dat", d, len, ONE(uname, 6, 2),
		       W("trace.dat: an event-hook option (trace-cmd record -H): not supported "
			 "(offset %llu)", (unsigned long long)uname), true);
	{
		struct edit e[] = { { clock + 6, 0, 0, "[]", 2 }, { clock + 8, 0, 1, NULL, 0 } };

		bad += !edited("v7clock.dat", d, len, e, 2,
			       W("trace.dat damaged: option TRACECLOCK: a \"[]\" with no clock name in "
				 "it (offset %llu)", (unsigned long long)clock), false);
	}
	bad += !edited("v7clocknul.dat", d, len, ONE(clock + 6 + sz - 1, 'x', 1),
		       W("trace.dat damaged: option TRACECLOCK: its text has no terminating NUL "
			 "(offset %llu)", (unsigned long long)clock), false);
	bad += !edited("v7bufpage.dat", d, len, ONE(table - 8, 8192, 4),
		       W("trace.dat damaged: option BUFFER: page size 8192, but the file's is 4096 "
			 "(offset %llu)", (unsigned long long)buf), true);
	bad += !edited("v7bufcpus.dat", d, len, ONE(table - 4, 5000, 4),
		       W("trace.dat damaged: option BUFFER: 5000 CPUs in 40 bytes (at most 4096) "
			 "(offset %llu)", (unsigned long long)buf), false);
	bad += !edited("v7buftwice.dat", d, len, ONE(table + 20, 0, 4),
		       W("trace.dat damaged: option BUFFER: CPU 0 listed twice (offset %llu)",
			 (unsigned long long)table + 20), true);
	bad += !edited("v7bufid.dat", d, len, ONE(table, 4096, 4),
		       W("trace.dat damaged: option BUFFER: CPU id 4096 (at most 4095) (offset %llu)",
			 (unsigned long long)table), false);
	bad += !edited("v7bufoff.dat", d, len, ONE(bufd, bsec + 1, 8),
		       W("trace.dat damaged: option BUFFER: offset %llu is not the start of a "
			 "section (offset %llu)", (unsigned long long)bsec + 1,
			 (unsigned long long)buf), true);
	bad += !edited("v7bufsec.dat", d, len, ONE(bufd, hdr, 8),
		       W("trace.dat damaged: option BUFFER: the section at %llu has id 16, not 3 "
			 "(offset %llu)", (unsigned long long)hdr, (unsigned long long)buf), false);
	bad += !edited("v7latency.dat", d, len, ONE(buf, 22, 2),
		       W("trace.dat: a latency-tracer trace.dat (its data is text, not per-CPU "
			 "events): nothing to import (offset %llu)", (unsigned long long)buf), true);
	bad += !edited("v7cpuoff.dat", d, len, ONE(table + 24, 0, 8),
		       W("trace.dat damaged: CPU 1's %sdata (%llu bytes from byte 0) lies outside "
			 "its section (bytes %llu to %llu) (offset %llu)", z ? "compressed " : "",
			 (unsigned long long)le(d + table + 32, 8), (unsigned long long)bsec + 16,
			 (unsigned long long)(bsec + 16 + bsz), (unsigned long long)table + 20), true);
	if (!z) {
		uint64_t page = le(d + table + 4, 8);

		bad += !edited("v7commit.dat", d, len, ONE(page + 8, 4081, 8),
			       W("trace.dat damaged: CPU 0's page at byte %llu: 4081 bytes of events, "
				 "more than its 4080-byte data area (offset %llu)",
				 (unsigned long long)page, (unsigned long long)page + 8), true);
	} else {
		uint64_t c0 = le(d + table + 4, 8), hd = hdr + 16;

		bad += !edited("v7zusize.dat", d, len, ONE(c0 + 8, 4095, 4),
			       W("trace.dat damaged: CPU 0, chunk 1: 4095 bytes uncompressed, not whole "
				 "4096-byte pages (at most 67108864) (offset %llu)",
				 (unsigned long long)c0 + 8), true);
		bad += !edited("v7zcount.dat", d, len, ONE(c0, (1u << 24) + 1, 4),
			       W("trace.dat damaged: CPU 0: 16777217 compressed chunks (at most "
				 "16777216) (offset %llu)", (unsigned long long)c0), false);
		bad += !edited("v7zchunk.dat", d, len, ONE(c0 + 4, 1u << 30, 4),
			       W("trace.dat damaged: a compressed chunk: 1073741824 bytes needed, but "
				 "its section ends %llu bytes further (offset %llu)",
				 (unsigned long long)(bsec + 16 + bsz - c0 - 12),
				 (unsigned long long)c0 + 12), true);
		bad += !edited("v7zsec.dat", d, len, ONE(hd, 0xffffffffu, 4),
			       W("trace.dat damaged: section HEADER_INFO: 4294967295 bytes compressed in "
				 "%llu, %llu uncompressed (offset %llu)",
				 (unsigned long long)le(d + hdr + 8, 8) - 8,
				 (unsigned long long)le(d + hd + 4, 4), (unsigned long long)hd), false);
		if (import_has_tracedat()) {
			/* what the check cannot see: a broken zstd frame, read by the child first */
			bad += !edited("v7zframe.dat", d, len, ONE(hd + 8, 0, 4),
				       W("trace.dat damaged: libtracecmd cannot read its compressed data "
					 "(or it is compressed in a way libtracecmd does not know) "
					 "(offset %llu)", (unsigned long long)hdr), true);
			{
				unsigned char *m = malloc(len);
				const char *path = tmp_path("v7zcpu.dat");

				assert_non_null(m);
				memcpy(m, d, len);
				put(m + c0 + 12, 0, 4); /* CPU 0's zstd magic */
				save(path, m, len);
				free(m);
				/* crash or clean failure in the child: libtracecmd's choice */
				bad += !import_refused(path, NULL, hdr, true, "v7zcpu.dat");
			}
		}
	}
	return bad;
}

/* ---- in process: cuts and flips, any outcome but a crash or a wrong error class ---- */

struct outcome {
	int ok, refused, other;
};

/* Convert path in one pass; 0, or -1 with *err. */
static int convert(const char *path, struct sim_error *err)
{
	struct import_options o = { 0 };
	struct importer *im;
	FILE *null = fopen("/dev/null", "w");
	int rc = -1;

	assert_non_null(null);
	memset(err, 0, sizeof(*err));
	im = import_open_convert(path, &o, err);
	if (im) {
		rc = import_convert(im, null, err);
		import_close(im);
	}
	fclose(null);
	return rc;
}

/* The text must be "trace.dat damaged...: ... (offset N)" with N <= max. */
static bool damaged_text(const char *t, uint64_t max)
{
	const char *o = strrchr(t, '(');
	unsigned long long n;
	char tail[4] = "";

	return !strncmp(t, "trace.dat damaged", 17) && o &&
	       sscanf(o, "(offset %llu%3s", &n, tail) == 2 && !strcmp(tail, ")") && n <= max;
}

/*
 * Every cut of a small file, in process: each one damaged, the offset inside the cut; but
 * the cut at whole_at, which leaves a complete file (0: none).
 */
static void cuts_in_process(const char *name, const struct v6 *L, uint64_t whole_at)
{
	size_t len, k;
	unsigned char *d = load(name, &len);
	const char *path = tmp_path("inproc.dat");
	int fd, rc;

	save(path, d, len);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	for (k = len - 1; k > 0; k--) {
		struct sim_error err;
		char w[700];

		assert_int_equal(ftruncate(fd, (off_t)k), 0);
		rc = convert(path, &err);
		if (k == whole_at) {
			if (import_has_tracedat())
				assert_int_equal(rc, 0);
			else
				assert_non_null(strstr(err.text, "without trace.dat support"));
			continue;
		}
		if (rc == 0)
			fail_msg("%s cut at %zu: imported", name, k);
		if (k < 3) {
			assert_non_null(strstr(err.text, "not a kernel trace"));
			continue;
		}
		if (err.code != SIM_ERR_INPUT || !damaged_text(err.text, k))
			fail_msg("%s cut at %zu: %d %s", name, k, err.code, err.text);
		if (L && strcmp(err.text, v6_expect(L, k, w, sizeof(w))))
			fail_msg("%s cut at %zu:\n want %s\n got  %s", name, k, w, err.text);
	}
	close(fd);
	unlink(path);
	free(d);
}

/*
 * Every stride-th byte in [from, to) flipped (xor 0xff), in process: imported, or refused as
 * an input error; never a crash, never another error class.
 */
static void flips(const char *name, const unsigned char *d, size_t len, uint64_t from,
		  uint64_t to, uint64_t stride, struct outcome *n)
{
	const char *path = tmp_path("flip.dat");
	unsigned char *m = malloc(len);
	uint64_t i;
	int fd;

	assert_non_null(m);
	memcpy(m, d, len);
	save(path, m, len);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	for (i = from; i < to && i < len; i += stride) {
		struct sim_error err;
		unsigned char b = (unsigned char)(d[i] ^ 0xff);

		assert_int_equal(pwrite(fd, &b, 1, (off_t)i), 1);
		if (convert(path, &err) == 0)
			n->ok++;
		else if (err.code == SIM_ERR_INPUT)
			n->refused++;
		else {
			n->other++;
			fprintf(stderr, "%s byte %llu flipped: error class %d: %s\n", name,
				(unsigned long long)i, err.code, err.text);
		}
		assert_int_equal(pwrite(fd, d + i, 1, (off_t)i), 1);
	}
	close(fd);
	unlink(path);
	free(m);
}

/* ---- the small files (always) ---- */

/* They import, and give the records computed by hand (or: this build cannot read them). */
static void test_tiny_valid(void **state)
{
	static const char *const files[] = { "tiny-v6.dat", "tiny-v7.dat", "tiny-v7z.dat" };
	char *expected = slurp(FIX "tiny.expected");
	size_t i;

	(void)state;
	assert_non_null(expected);
	for (i = 0; i < 3; i++) {
		char path[512];
		const char *o = tmp_path("tiny.trace");
		const char *imp[] = { BIN, "import", path, "-o", o, NULL };
		const char *run[] = { BIN, "run", "--trace", path, "--machine", "skl", NULL };
		char *t, *idle;
		int st;

		snprintf(path, sizeof(path), FIX "%s", files[i]);
		st = run_args(imp, tmp_path("out"), tmp_path("err"));
		if (!import_has_tracedat()) {
			t = slurp(tmp_path("err"));
			assert_int_equal(st, 2);
			assert_non_null(strstr(t, "built without trace.dat support"));
			free(t);
			continue;
		}
		assert_int_equal(st, 0);
		t = slurp(o);
		assert_non_null(t);
		idle = strstr(t, "\nidle ");
		assert_non_null(idle);
		assert_string_equal(idle + 1, expected);
		free(t);
		unlink(o);
		assert_int_equal(run_args(run, tmp_path("out"), tmp_path("err")), 0);
	}
	free(expected);
}

/* Every cut of each small file, in process; tiny-v6's messages word for word. */
static void test_tiny_cuts(void **state)
{
	size_t len, i;
	unsigned char *d = load(FIX "tiny-v6.dat", &len);
	struct v6 L;

	(void)state;
	v6_walk(d, len, &L);
	cuts_in_process(FIX "tiny-v6.dat", &L, 0);
	free(L.f);
	free(d);
	/*
	 * Version 7: a cut exactly before the strings section, the last one, leaves every
	 * section whole and the file complete (the strings only describe the sections); every
	 * other cut leaves a section, or the chain of options sections, reaching past the end.
	 */
	for (i = 0; i < 2; i++) {
		struct v7 L7;
		char path[512];

		snprintf(path, sizeof(path), FIX "%s", i ? "tiny-v7z.dat" : "tiny-v7.dat");
		d = load(path, &len);
		v7_walk(d, len, &L7);
		assert_int_equal(L7.s[L7.n - 1].id, 15);
		cuts_in_process(path, NULL, L7.s[L7.n - 1].at);
		free(d);
	}
}

/* Cuts through the binary: every 256 bytes and the last bytes of each small file. */
static void test_tiny_cuts_binary(void **state)
{
	static const char *const files[] = { "tiny-v6.dat", "tiny-v7.dat", "tiny-v7z.dat" };
	size_t f;
	int bad = 0;

	(void)state;
	for (f = 0; f < 3; f++) {
		char path[512];
		size_t len, k;
		unsigned char *d;
		char cut[256];

		snprintf(cut, sizeof(cut), "%s/bincut.dat", tmpdir);

		snprintf(path, sizeof(path), FIX "%s", files[f]);
		d = load(path, &len);
		for (k = 3; k < len; k = k + 256 < len ? k + 256 : k < len - 1 ? len - 1 : len) {
			char what[64];

			save(cut, d, k);
			snprintf(what, sizeof(what), "%s cut at %zu", files[f], k);
			bad += !import_refused(cut, NULL, k, k % 1024 == 3, what);
		}
		unlink(cut);
		free(d);
	}
	assert_int_equal(bad, 0);
}

/* Each checked field of the small files changed: the exact messages. */
static void test_tiny_fields(void **state)
{
	size_t len;
	unsigned char *d = load(FIX "tiny-v6.dat", &len);
	struct v6 L;
	int bad;
	uint64_t o;

	(void)state;
	v6_walk(d, len, &L);
	bad = v6_fields(d, len, &L);
	/* tiny-v6's options (UNAME VERSION CPUSTAT CPUSTAT TRACECLOCK) and trace_clock text */
	o = fat(&L, "an option id");
	bad += !edited("optsize.dat", d, len, ONE(o + 2, 0xffffffff, 4),
		       W("trace.dat damaged: option UNAME (id 5): 4294967295 bytes (at most "
			 "16777216) (offset %llu)", (unsigned long long)o), true);
	bad += !edited("hook.dat", d, len, ONE(o, 6, 2),
		       W("trace.dat: an event-hook option (trace-cmd record -H): not supported "
			 "(offset %llu)", (unsigned long long)o), true);
	bad += !edited("unamenul.dat", d, len, ONE(o + 6 + le(d + o + 2, 4) - 1, 'x', 1),
		       W("trace.dat damaged: option UNAME: its text has no terminating NUL (offset "
			 "%llu)", (unsigned long long)o), false);
	bad += !edited("cpucount.dat", d, len, ONE(o, 8, 2),
		       W("trace.dat damaged: option CPUCOUNT: %llu bytes, not 4 (offset %llu)",
			 (unsigned long long)le(d + o + 2, 4), (unsigned long long)o), false);
	{
		uint64_t cs = fat(&L, "the trace_clock size"), ct = cs + 8;

		bad += !edited("clocksize.dat", d, len, ONE(cs, 1ull << 32, 8),
			       W("trace.dat damaged: a trace_clock text of 4294967296 bytes (at most "
				 "16777216) (offset %llu)", (unsigned long long)cs), true);
		bad += !edited("clocktext.dat", d, len, TEXT(ct, "[] "),
			       W("trace.dat damaged: the trace_clock text: a \"[]\" with no clock name "
				 "in it (offset %llu)", (unsigned long long)ct), false);
	}
	if (import_has_tracedat()) {
		/*
		 * A record the page check lets through (a data event whose length word says 0
		 * bytes) but too short for libtraceevent to read its event type from: refused
		 * when read, with the record's position.
		 */
		uint64_t page = L.off[0];
		struct edit e[] = { { page + 8, 8, 8, NULL, 0 }, { page + 16, 0, 4, NULL, 0 },
				    { page + 20, 4, 4, NULL, 0 } };

		bad += !edited("short.dat", d, len, e, 3,
			       W("trace.dat damaged: record at byte %llu (CPU 0): 0 bytes, too short "
				 "for its event type (2 bytes at 0) (offset %llu)",
				 (unsigned long long)page + 16, (unsigned long long)page + 16), true);
	}
	free(L.f);
	free(d);
	d = load(FIX "tiny-v7.dat", &len);
	bad += v7_fields(d, len, false);
	free(d);
	d = load(FIX "tiny-v7z.dat", &len);
	bad += v7_fields(d, len, true);
	free(d);
	assert_int_equal(bad, 0);
}

/*
 * Bytes of the small files flipped: every byte of every number, marker, section header,
 * option and page header, every 64th byte of the texts and of compressed data. Each file
 * imports or is refused, never a crash; both outcomes occur.
 */
static void test_tiny_flips(void **state)
{
	struct outcome n = { 0 };
	size_t len, i;
	unsigned char *d = load(FIX "tiny-v6.dat", &len);
	struct v6 L;
	int f, c;

	(void)state;
	v6_walk(d, len, &L);
	for (i = 0; i < L.n; i++)
		flips("tiny-v6.dat", d, len, L.f[i].at, L.f[i].at + L.f[i].len,
		      L.f[i].len <= 16 || !strcmp(L.f[i].what, "an option's data") ? 1 : 64, &n);
	for (c = 0; c < L.cpus; c++)
		flips("tiny-v6.dat", d, len, L.off[c], L.off[c] + 64, 1, &n);
	free(L.f);
	free(d);
	for (f = 0; f < 2; f++) {
		const char *name = f ? "tiny-v7z.dat" : "tiny-v7.dat";
		char path[512];
		struct v7 L7;
		uint64_t table, p;

		snprintf(path, sizeof(path), FIX "%s", name);
		d = load(path, &len);
		v7_walk(d, len, &L7);
		flips(name, d, len, 0, L7.s[0].at, 1, &n);
		for (c = 0; c < L7.n; c++) {
			uint64_t at = L7.s[c].at, end = at + 16 + L7.s[c].size;

			flips(name, d, len, at, at + 16, 1, &n);
			flips(name, d, len, at + 16, end, L7.s[c].id ? 64 : 1, &n);
		}
		/* each CPU's first bytes: page header and first events, or chunk header */
		p = opt(d, &L7, 3, NULL) + 6 + 8;
		table = p + strlen((const char *)d + p) + 1;
		table += strlen((const char *)d + table) + 1 + 8;
		for (c = 0; c < (int)le(d + table - 4, 4); c++) {
			uint64_t off = le(d + table + 20 * (unsigned)c + 4, 8);

			flips(name, d, len, off, off + 64, 1, &n);
		}
		free(d);
	}
	printf("flipped bytes: %d imported, %d refused, %d other\n", n.ok, n.refused, n.other);
	assert_int_equal(n.other, 0);
	assert_true(n.refused > 500);
	if (import_has_tracedat())
		assert_true(n.ok > 100);
}

/* tests/import/invalid/dat-*: each input through the binary, its expected-error exactly. */
static void test_corpus(void **state)
{
	DIR *dir = opendir(FIX "invalid");
	struct dirent *e;
	int n = 0, bad = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir))) {
		char path[512], *w, *nl;

		if (strncmp(e->d_name, "dat-", 4))
			continue;
		snprintf(path, sizeof(path), FIX "invalid/%s/expected-error", e->d_name);
		w = slurp(path);
		assert_non_null(w);
		nl = strchr(w, '\n');
		assert_non_null(nl);
		*nl = '\0';
		snprintf(path, sizeof(path), FIX "invalid/%s/input", e->d_name);
		bad += !import_refused(path, w, 0, true, e->d_name);
		free(w);
		n++;
	}
	closedir(dir);
	assert_int_equal(bad, 0);
	assert_true(n >= 6);
}

/* ---- the real trace.dat (IDLESIM_SHARED_DIR) ---- */

/* Cut at every 1 kB from its end and at 50 random sizes: the exact message each time. */
/* The cuts of test_real_cuts: every STRIDE kB from the end; 1 unless the command line says
 * (the sanitizer builds pass 16: there each idlesim run is 20 to 50 times slower). */
static size_t cut_stride_kb = 1;

static void test_real_cuts(void **state)
{
	size_t len, nk = 0, i;
	unsigned char *d = load(REAL, &len);
	uint64_t *ks = malloc((len / 1024 + 60) * sizeof(*ks)), seed = 29, t;
	struct v6 L;

	(void)state;
	assert_non_null(ks);
	v6_walk(d, len, &L);
	for (i = cut_stride_kb; i * 1024 < len; i += cut_stride_kb)
		ks[nk++] = len - i * 1024;
	printf("cuts every %zu kB from the end: %zu\n", cut_stride_kb, nk);
	/* 50 random sizes (a fixed seed), in decreasing order with the others */
	for (i = 0; i < 50; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		ks[nk++] = (seed >> 11) % len;
	}
	for (i = 1; i < nk; i++) /* insertion sort, decreasing */
		for (size_t j = i; j > 0 && ks[j - 1] < ks[j]; j--)
			t = ks[j], ks[j] = ks[j - 1], ks[j - 1] = t;
	assert_int_equal(cut_all(d, len, &L, ks, nk, 64), 0);
	printf("%zu cuts of %s: each refused with its message\n", nk, REAL);
	free(ks);
	free(L.f);
	free(d);
}

/* Each header field the check reads, changed in the real file: the exact messages. */
static void test_real_fields(void **state)
{
	size_t len;
	unsigned char *d = load(REAL, &len);
	struct v6 L;

	(void)state;
	v6_walk(d, len, &L);
	assert_int_equal(v6_fields(d, len, &L), 0);
	free(L.f);
	free(d);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tiny[] = {
		cmocka_unit_test(test_tiny_valid),	 cmocka_unit_test(test_tiny_cuts),
		cmocka_unit_test(test_tiny_cuts_binary), cmocka_unit_test(test_tiny_fields),
		cmocka_unit_test(test_tiny_flips),	 cmocka_unit_test(test_corpus),
	};
	const struct CMUnitTest real[] = {
		cmocka_unit_test(test_real_fields),
		cmocka_unit_test(test_real_cuts),
	};

	if (argc == 3 && !strcmp(argv[1], "real")) {
		cut_stride_kb = strtoul(argv[2], NULL, 10);
		if (cut_stride_kb < 1)
			cut_stride_kb = 1;
		argc = 2;
	}
	if (argc == 2 && !strcmp(argv[1], "real")) {
		if (access(REAL, R_OK)) {
			printf("SKIPPED: the damaged real trace.dat: " REAL " not found (no shared "
			       "folder next to the clone; cmake -DIDLESIM_SHARED_DIR=DIR points "
			       "elsewhere)\n");
			return SKIPPED;
		}
		return cmocka_run_group_tests(real, setup, teardown);
	}
	return cmocka_run_group_tests(tiny, setup, teardown);
}
