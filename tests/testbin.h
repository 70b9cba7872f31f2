/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testbin.h - helpers for the tests that run the idlesim binary or work with files: one
 * scratch directory per test program (tmpdir, made by the group setup and removed by its
 * teardown), running a command, and reading a file whole.
 */
#ifndef IDLESIM_TESTBIN_H
#define IDLESIM_TESTBIN_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define BIN IDLESIM_BINARY_DIR "/idlesim"
#define SRC IDLESIM_SOURCE_DIR

static char tmpdir[64];

/* Make tmpdir, /tmp/idlesim-TAG-XXXXXX; 0 or -1 (a cmocka group setup's result). */
static inline int tmpdir_make(const char *tag)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/idlesim-%s-XXXXXX", tag);
	return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int tmpdir_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

/* Run a shell command; its exit status, or -1 if it did not exit. */
static inline int sh(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run `idlesim ARGS` from the source tree, stdout and stderr to tmpdir/out and tmpdir/err. */
static inline int run_idlesim(const char *args)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "cd %s && %s %s >%s/out 2>%s/err", SRC, BIN, args, tmpdir,
		 tmpdir);
	return sh(cmd);
}

/* A file's bytes with a NUL after them (malloc'ed), or NULL if it cannot be opened. */
static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0, cap = 4096, got;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	assert_non_null(buf);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			buf = realloc(buf, cap *= 2);
			assert_non_null(buf);
		}
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* tmpdir/NAME whole; the test fails if it does not exist. */
static inline char *slurp_tmp(const char *name)
{
	char path[256], *s;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	s = slurp(path);
	assert_non_null(s);
	return s;
}

/* tmpdir/NAME, in one of four rotating buffers (so a few can be held at once). */
static inline const char *tmp_path(const char *name)
{
	static char path[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", tmpdir, name);
	return path[k];
}

/* Write text to tmpdir/NAME; returns its path (tmp_path). */
static inline const char *write_tmp(const char *name, const char *text)
{
	const char *path = tmp_path(name);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/*
 * A run's CSV without what names its trace: the first field of every line (the trace name)
 * and the third from last (trace_hash, before seed and idlesim_version), so two traces with
 * the same content in different files compare equal.
 */
static inline char *drop_trace_fields(const char *s)
{
	char *out = malloc(strlen(s) + 1), *q = out;

	while (*s) {
		const char *nl = strchr(s, '\n'), *comma = strchr(s, ','), *c[3] = { 0 }, *p;
		int k = 0;

		if (!nl)
			nl = s + strlen(s);
		if (comma && comma < nl)
			s = comma;
		for (p = nl; p > s && k < 3;)
			if (*--p == ',')
				c[k++] = p;
		while (s < nl) {
			if (k == 3 && s == c[2] + 1)
				s = c[1]; /* skip trace_hash */
			*q++ = *s++;
		}
		if (*s)
			*q++ = *s++;
	}
	*q = '\0';
	return out;
}

#endif
