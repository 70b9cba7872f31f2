/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracedattest.h - what the damaged trace.dat tests share (tests/test_tracedat_damage.c,
 * tests/test_tracedat_cuts.c, tests/test_tracedat_flips.c): the fixtures, files read and
 * written whole, the binary run on a damaged file, the layout of an intact version 6 or 7
 * file, and a conversion in process.
 *
 * Every damaged file must make `idlesim import FILE -o OUT` (and `idlesim run --trace FILE`)
 * exit with status 2, print one line "idlesim: FILE: trace.dat damaged: WHAT (offset N)" on
 * stderr and nothing on stdout, and leave no OUT behind. The binary is run as a user runs it
 * (fork and exec, no shell), so a crash shows as the signal that ended it.
 */
#ifndef IDLESIM_TRACEDATTEST_H
#define IDLESIM_TRACEDATTEST_H

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

static inline int setup(void **state)
{
	(void)state;
	return tmpdir_make("datdamage");
}

static inline int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

/* Whether the real trace.dat is absent; if so, the tests of the real file say so first. */
static inline bool real_missing(void)
{
	if (!access(REAL, R_OK))
		return false;
	printf("SKIPPED: the damaged real trace.dat: " REAL " not found (no shared "
	       "folder next to the clone; cmake -DIDLESIM_SHARED_DIR=DIR points "
	       "elsewhere)\n");
	return true;
}

/* ---- files ---- */

static inline unsigned char *load(const char *path, size_t *len)
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

static inline void save(const char *path, const void *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static inline uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* ---- running the binary ---- */

/* Start `idlesim ARGV...` with stdout and stderr to files; its pid. */
static inline pid_t start(const char *const *argv, const char *out, const char *err)
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
static inline int finish(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

static inline int run_args(const char *const *argv, const char *out, const char *err)
{
	return finish(start(argv, out, err));
}

/*
 * One finished run on a damaged file: status 2, stdout empty, stderr exactly
 * "idlesim: FILE: WANT\n" (want) or, with want NULL, one "idlesim: FILE: trace.dat damaged:
 * ... (offset N)\n" line with N <= max_off; the output file absent. Prints why not.
 */
static inline bool refused_ok(int status, const char *file, const char *outf, const char *errf,
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
static inline bool import_refused(const char *file, const char *want, uint64_t max_off,
				  bool run_too, const char *what)
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

static inline void add(struct v6 *L, uint64_t at, uint64_t len, int kind, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static inline void add(struct v6 *L, uint64_t at, uint64_t len, int kind, const char *fmt, ...)
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
static inline void v6_walk(const unsigned char *d, size_t len, struct v6 *L)
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

/* ---- the layout of an intact version 7 file: its sections and options ---- */

struct v7 {
	uint64_t zname, first_field, first; /* compression name, first options offset */
	struct {
		uint64_t at, size;
		unsigned id, flags;
	} s[64];
	int n;
};

static inline void v7_walk(const unsigned char *d, size_t len, struct v7 *L)
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

/* The option of this id in the options sections (its id field), and its data size. */
static inline uint64_t opt(const unsigned char *d, const struct v7 *L, unsigned id, uint64_t *size)
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

/* ---- in process ---- */

/* Convert path in one pass; 0, or -1 with *err. */
static inline int convert(const char *path, struct sim_error *err)
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

#endif
