// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_import_par.c - import --jobs (sim/import/import_par.c): the parallel parse gives the
 * one-thread result, byte for byte: the converted trace, the summary, the error (same text,
 * same line and column) or the warnings of --skip-bad-lines. Chunks of 1 to 4096 bytes put
 * chunk edges everywhere in the small traces: inside lines, on newlines, inside \r\n, inside
 * runs of blank lines, inside lines longer than IMP_MAX_LINE.
 */
#include "tests/importtest.h"
#include "sim/base/common.h"

static const size_t chunks[] = {1, 2, 7, 64, 333, 4096, 0};

struct outcome {
	struct conv c;
	char err[600];
};

static void run(const char *path, const struct import_options *o, bool two, struct outcome *r)
{
	convert(path, o, two, &r->c);
	r->err[0] = '\0';
	if (r->c.rc)
		sim_error_format(&r->c.err, r->err, sizeof(r->err));
}

/* `path` read with --jobs 1, then with 1, 2 and 3 lexing threads (-j 2..4) at every chunk
 * size from `least` (and the default): the same. */
static void same_chunked(const char *path, bool skip_bad, size_t least)
{
	struct import_options o = {.skip_bad_lines = skip_bad};
	struct outcome one, par;
	size_t i;
	int two, jobs;

	for (two = 0; two < 2; two++) {
		o.jobs = 1;
		o.jobs_chunk = 0;
		run(path, &o, two, &one);
		for (jobs = 2; jobs <= 4; jobs++) {
			for (i = 0; i < SIM_ARRAY_SIZE(chunks); i++) {
				if (chunks[i] && chunks[i] < least)
					continue;
				o.jobs = jobs;
				o.jobs_chunk = chunks[i];
				run(path, &o, two, &par);
				if (par.c.rc != one.c.rc || strcmp(par.err, one.err) ||
				    strcmp(par.c.trace ? par.c.trace : "", one.c.trace ? one.c.trace : "") ||
				    (!one.c.rc && strcmp(par.c.summary, one.c.summary)) ||
				    par.c.bad != one.c.bad || strcmp(par.c.warning, one.c.warning))
					fail_msg("%s (%s, -j %d, chunks of %zu bytes): differs from -j 1"
						 " (rc %d/%d, error '%s' / '%s')",
						 path, two ? "two passes" : "one pass", jobs, chunks[i],
						 par.c.rc, one.c.rc, par.err, one.err);
				conv_free(&par.c);
			}
		}
		conv_free(&one.c);
	}
}

static void same_in_parallel(const char *path, bool skip_bad)
{
	same_chunked(path, skip_bad, 1);
}

static bool text_fixture(const char *name)
{
	size_t n = strlen(name);
	static const char *ext[] = {".ftrace", ".perf", ".report", ".txt", ".html"};
	size_t i;

	for (i = 0; i < SIM_ARRAY_SIZE(ext); i++)
		if (n > strlen(ext[i]) && !strcmp(name + n - strlen(ext[i]), ext[i]))
			return true;
	return false;
}

/* same_in_parallel on each file of `dir` that `want` names, with and without
 * --skip-bad-lines; returns how many. */
static int each_file(const char *dir, bool (*want)(const char *name))
{
	char path[600];
	struct dirent *d;
	DIR *dh = opendir(dir);
	int n = 0;

	assert_non_null(dh);
	while ((d = readdir(dh))) {
		if (!want(d->d_name))
			continue;
		snprintf(path, sizeof(path), "%s%s", dir, d->d_name);
		same_in_parallel(path, false);
		same_in_parallel(path, true);
		n++;
	}
	closedir(dh);
	return n;
}

static void test_fixtures(void **state)
{
	(void)state;
	assert_true(each_file(FIX, text_fixture) >= 8);
}

static bool text_invalid(const char *name)
{
	return name[0] != '.' && strncmp(name, "dat-", 4);
}

/* The bad-input corpus: each file's error (the first in file order) and its warnings. */
static void test_invalid(void **state)
{
	(void)state;
	assert_true(each_file(FIX "invalid/", text_invalid) >= 20);
}

/* Blank lines, \r\n, header lines late, comments between events, a last line without a
 * newline: the line numbers of the errors and the line count of the summary. */
static void test_edges(void **state)
{
	static const char *const texts[] = {
		HDR2 "\n\n" ENTRY(0, 100, 1) "  \t \r\n" EXIT(0, 200) "\n\n\n" ENTRY(1, 300, 2)
			"# a comment\n" EXIT(1, 400) ENTRY(0, 500, 1) "\n" EXIT(0, 600),
		"\r\n\r\n" HDR2 ENTRY(0, 100, 1) EXIT(0, 200) ENTRY(1, 300, 1) EXIT(1, 400)
			"# tracer: nop #P:1\n" ENTRY(1, 500, 1) EXIT(1, 600) "\n",
		/* a CPU beyond the count the header gives only after the first events */
		ENTRY(0, 100, 1) EXIT(0, 200) "#P:1\n" ENTRY(1, 300, 1) EXIT(1, 400),
		HDR1 ENTRY(0, 100, 1) EXIT(0, 200) "garbage line here\n" ENTRY(0, 300, 1)
			EXIT(0, 400) L(0, 500, "sched_wakeup", "comm=a pid=1 prio=120 target_cpu=005"),
	};
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(texts); i++) {
		write_tmp("edge.ftrace", texts[i]);
		same_in_parallel(tmp_path("edge.ftrace"), false);
		same_in_parallel(tmp_path("edge.ftrace"), true);
	}
}

/* Lines longer than IMP_MAX_LINE (1 MiB) between events, one of exactly IMP_MAX_LINE, and
 * more lines than a chunk holds records (its rest is lexed by the reconstruction). */
static void test_long_and_many_lines(void **state)
{
	size_t cap = 8u << 20, n = 0, i;
	char *t = malloc(cap);
	const char *ev[] = {HDR2, ENTRY(0, 100, 1), EXIT(0, 200), ENTRY(1, 300, 2), EXIT(1, 400)};
	struct import_options o = {.skip_bad_lines = true};
	struct outcome one, par;
	int k;

	(void)state;
	assert_non_null(t);
	n += (size_t)sprintf(t + n, "%s%s", ev[0], ev[1]);
	memset(t + n, 'x', (1u << 20) + 5); /* too long: skipped, counted */
	n += (1u << 20) + 5;
	t[n++] = '\n';
	n += (size_t)sprintf(t + n, "%s", ev[2]);
	t[n++] = '#';
	memset(t + n, ' ', (1u << 20) - 1); /* exactly IMP_MAX_LINE: a comment */
	n += (1u << 20) - 1;
	t[n++] = '\n';
	for (i = 0; i < 30000; i++)
		n += (size_t)sprintf(t + n, "#\n");
	n += (size_t)sprintf(t + n, "%s%s", ev[3], ev[4]);
	memset(t + n, 'y', (3u << 20) / 2); /* too long, at the end, no newline */
	n += (3u << 20) / 2;
	t[n] = '\0';
	write_tmp("long.ftrace", t);
	free(t);
	same_chunked(tmp_path("long.ftrace"), true, 4096);
	same_chunked(tmp_path("long.ftrace"), false, 4096);
	/* the default chunk (the 30000 comment lines in one chunk) */
	for (k = 0; k < 2; k++) {
		o.jobs = 1;
		o.jobs_chunk = 0;
		run(tmp_path("long.ftrace"), &o, k, &one);
		o.jobs = 2;
		run(tmp_path("long.ftrace"), &o, k, &par);
		assert_int_equal(one.c.rc, 0);
		assert_int_equal(par.c.rc, 0);
		assert_string_equal(par.c.trace, one.c.trace);
		assert_string_equal(par.c.summary, one.c.summary);
		/* by hand: 4 header lines, 4 events, 2 too long, 1 + 30000 comments */
		assert_int_equal(ji(one.c.json, "lines"), 4 + 4 + 2 + 1 + 30000);
		assert_int_equal(one.c.bad, 2);
		assert_string_equal(js(par.c.json, "format"), "ftrace");
		conv_free(&one.c);
		conv_free(&par.c);
	}
}

/* The real traces of the shared folder (skipped without it, as test_import_real is). */
static void test_real(void **state)
{
	(void)state;
	if (!real_traces()) {
		/* the prefix .ci/run looks for: with the shared folder present, a skip fails CI */
		print_message("SKIPPED: the real kernel traces: " REAL "README.md not found (no "
			      "shared folder next to the clone; cmake -DIDLESIM_SHARED_DIR=DIR)\n");
		skip();
	}
	same_in_parallel(REAL "trappy-trace_idle_unsorted.txt", false);
	same_in_parallel(REAL "trappy-trace_idle.report.txt", false);
	same_chunked(REAL "trappy-trace_surfaceflinger.html", false, 333);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_long_and_many_lines),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
