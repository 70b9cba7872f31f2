// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_badinput.c - the bad-input corpus of machine files (tests/machines/invalid), through
 * the binary as a user runs it, the way test_cli_usage.c runs tests/traces/invalid.
 *
 * Each case is a directory with `input` (the machine file) and `expected-error` (one line,
 * "LINE:COLUMN: message"). Both `idlesim machines FILE` and `idlesim run --machine FILE -o
 * REPORT` must exit with status 2, print "idlesim: FILE:LINE:COLUMN: message" on stderr and
 * nothing on stdout, and leave no file behind: neither the report nor a temporary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CORPUS SRC "/tests/machines/invalid"
#define TRACE SRC "/tests/traces/valid/format-example/input"

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("badinput");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

static char *tmp_text(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return slurp(path);
}

/* Only the captured stdout and stderr may be in tmpdir: no report, no temporary. */
static bool only_captures_left(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	bool ok = true;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "out") && strcmp(e->d_name, "err")) {
			fprintf(stderr, "left behind: %s/%s\n", tmpdir, e->d_name);
			ok = false;
		}
	closedir(d);
	return ok;
}

/* Run one command line on a case; returns true if it failed the way it must. */
static bool check_case(const char *name, const char *args, const char *want)
{
	char *out, *err;
	bool ok = true;
	int st = run_idlesim(args);

	out = tmp_text("out");
	err = tmp_text("err");
	assert_non_null(out);
	assert_non_null(err);
	if (st != 2) {
		fprintf(stderr, "case %s: `idlesim %s` exited with %d, not 2\n", name, args, st);
		ok = false;
	}
	if (!strstr(err, want)) {
		fprintf(stderr, "case %s: `idlesim %s`\n want: %s\n got:  %s", name, args, want,
			err);
		ok = false;
	}
	if (out[0]) {
		fprintf(stderr, "case %s: `idlesim %s` wrote to stdout:\n%s", name, args, out);
		ok = false;
	}
	free(out);
	free(err);
	return only_captures_left() && ok;
}

static void test_machine_corpus(void **state)
{
	DIR *d = opendir(CORPUS);
	struct dirent *e;
	int n = 0, bad = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512], args[1024], want[1024], *expected, *nl;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/expected-error", CORPUS, e->d_name);
		expected = slurp(path);
		if (!expected) {
			fprintf(stderr, "case %s: no expected-error\n", e->d_name);
			bad++;
			continue;
		}
		nl = strchr(expected, '\n');
		if (nl)
			*nl = '\0';
		snprintf(want, sizeof(want), "idlesim: %s/%s/input:%s\n", CORPUS, e->d_name,
			 expected);

		snprintf(args, sizeof(args), "machines %s/%s/input", CORPUS, e->d_name);
		bad += !check_case(e->d_name, args, want);
		snprintf(args, sizeof(args), "machines %s/%s/input --json", CORPUS, e->d_name);
		bad += !check_case(e->d_name, args, want);
		snprintf(args, sizeof(args),
			 "run --trace %s --machine %s/%s/input --governor menu -o %s/report.txt",
			 TRACE, CORPUS, e->d_name, tmpdir);
		bad += !check_case(e->d_name, args, want);
		free(expected);
		n++;
	}
	closedir(d);
	assert_int_equal(bad, 0);
	assert_true(n >= 15);
}

/* Every expected-error is a single "LINE:COLUMN: message" line (so it is an exact check). */
static void test_corpus_format(void **state)
{
	DIR *d = opendir(CORPUS);
	struct dirent *e;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512], *t;
		int line = 0, col = 0, off = 0;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/expected-error", CORPUS, e->d_name);
		t = slurp(path);
		assert_non_null(t);
		if (sscanf(t, "%d:%d: %n", &line, &col, &off) != 2 || line < 1 || col < 1 ||
		    !off || !t[off] || strchr(t, '\n') != t + strlen(t) - 1) {
			fprintf(stderr, "case %s: expected-error is not one LINE:COLUMN: line: %s",
				e->d_name, t);
			fail();
		}
		free(t);
	}
	closedir(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_format),
		cmocka_unit_test(test_machine_corpus),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
