// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_import_bad.c - kernel-trace import (sim/import*.c) of bad input: malformed lines
 * (--skip-bad-lines), a line over the limit, the cases of tests/import/invalid, files that
 * are not kernel traces, out of memory anywhere, and mutated traces, which never crash.
 */
#include "tests/importtest.h"

/* ---- bad input ---- */

/* --skip-bad-lines: malformed lines become counted warnings; the rest is unchanged. */
static void test_skip_bad_lines(void **state)
{
	struct import_options o = { 0 };
	char *text = slurp(FIX "scenario.ftrace"), *bad, *expected = slurp(FIX "scenario.expected");
	struct conv c;
	size_t n = strlen(text);

	(void)state;
	bad = malloc(n + 512);
	/* three bad lines after the header (line 13 on) */
	snprintf(bad, n + 512, "%.*s%s%s%s%s", (int)(strstr(text, "           taskA") - text), text,
		 "garbage line\n",
		 "          <idle>-0       [000] d..1.   100.000001: cpu_idle: state=x cpu_id=0\n",
		 "          <idle>-0       [000] d..1.   100.000001: sched_switch: nonsense\n",
		 strstr(text, "           taskA"));
	write_tmp("bad.ftrace", bad);
	convert(tmp_path("bad.ftrace"), &o, false, &c);
	assert_int_equal(c.rc, -1);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	assert_int_equal(c.err.line, 13);
	assert_int_equal(c.err.column, 1);
	conv_free(&c);
	o.skip_bad_lines = true;
	convert_ok(tmp_path("bad.ftrace"), &o, false, &c);
	assert_string_equal(c.records, expected);
	assert_int_equal(c.bad, 3);
	assert_int_equal(ji(c.json, "bad_lines"), 3);
	assert_int_equal(json_array_size(jget(c.json, "warnings")), 3);
	assert_non_null(strstr(c.warning, "bad.ftrace:13:1: not an event line"));
	assert_non_null(strstr(js(c.json, "warnings.1"), ":14:68: cpu_idle: state="));
	assert_non_null(strstr(js(c.json, "warnings.2"), ":15:"));
	assert_int_equal(ji(c.json, "events_read"), 54);
	conv_free(&c);
	free(bad);
	free(text);
	free(expected);
}

/* A line longer than the limit: an error naming it, or skipped. */
static void test_long_line(void **state)
{
	struct import_options o = { 0 };
	size_t n = (1 << 20) + 100;
	char *text = malloc(n + 400);
	struct conv c;

	(void)state;
	strcpy(text, HDR2 ENTRY(0, 100, 1) "x");
	memset(text + strlen(text), 'y', n);
	strcpy(text + strlen(HDR2) + strlen(ENTRY(0, 100, 1)) + 1 + n,
	       "\n" EXIT(0, 200));
	write_tmp("long.ftrace", text);
	convert(tmp_path("long.ftrace"), &o, false, &c);
	assert_int_equal(c.rc, -1);
	assert_int_equal(c.err.line, 6);
	assert_string_equal(c.err.text, "line longer than 1 MiB");
	conv_free(&c);
	o.skip_bad_lines = true;
	convert_ok(tmp_path("long.ftrace"), &o, false, &c);
	assert_string_equal(c.records, "idle 0 1000100000 100000 irq\n"
				       "idle 1 1000100000 100001 irq\n");
	conv_free(&c);
	free(text);
}

/*
 * Every case of tests/import/invalid: the error of expected-error ("LINE:COLUMN: message"
 * for text traces, the message alone for the trace.dat cases dat-*, whose messages carry a
 * byte offset), in both ways.
 */
static void test_invalid_corpus(void **state)
{
	DIR *d = opendir(FIX "invalid");
	struct dirent *e;
	int n = 0, two;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512], want[512], got[700], *expected, *nl;
		struct conv c;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), FIX "invalid/%s/expected-error", e->d_name);
		expected = slurp(path);
		assert_non_null(expected);
		nl = strchr(expected, '\n');
		if (nl)
			*nl = '\0';
		snprintf(want, sizeof(want), "%s", expected);
		snprintf(path, sizeof(path), FIX "invalid/%s/input", e->d_name);
		for (two = 0; two < 2; two++) {
			convert(path, NULL, two, &c);
			/* a text trace's errors have a line and column; trace.dat's a byte offset */
			if (c.err.line)
				snprintf(got, sizeof(got), "%d:%d: %s", c.err.line, c.err.column,
					 c.err.text);
			else
				snprintf(got, sizeof(got), "%s", c.err.text);
			if (c.rc != -1 || c.err.code != SIM_ERR_INPUT || strcmp(got, want))
				fail_msg("case %s: want %s\n got %s", e->d_name, want, got);
			assert_string_equal(c.err.source, path);
			conv_free(&c);
		}
		free(expected);
		n++;
	}
	closedir(d);
	assert_true(n >= 25);
}

static void test_not_traces(void **state)
{
	struct import_options o = { 0 };
	struct conv c;

	(void)state;
	convert(write_tmp("empty", ""), NULL, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(c.err.text, "not a kernel trace"));
	conv_free(&c);
	convert(write_tmp("native.trace", "idlesim-trace v1\ncpus 1\n"), NULL, false, &c);
	assert_non_null(strstr(c.err.text, "idlesim trace already"));
	conv_free(&c);
	convert(write_tmp("page.html", "<!DOCTYPE html>\n<html><body>hi</body></html>\n"), NULL,
		false, &c);
	assert_non_null(strstr(c.err.text, "trace-data"));
	conv_free(&c);
	convert(tmp_path("nothing"), NULL, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_IO);
	conv_free(&c);
	/* forcing a format that does not fit */
	o.format = IMPORT_PERF;
	convert(FIX "scenario.ftrace", &o, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	assert_string_equal(c.err.text, "perf script event names are SYSTEM:EVENT:");
	conv_free(&c);
	o.format = IMPORT_TRACE_DAT;
	convert(FIX "scenario.ftrace", &o, false, &c);
	assert_int_equal(c.err.code, SIM_ERR_INPUT);
	conv_free(&c);
	o.format = IMPORT_SYSTRACE;
	convert_ok(FIX "scenario.html", &o, false, &c);
	conv_free(&c);
	assert_int_equal(import_probe(FIX "scenario.perf"), IMPORT_PERF);
	assert_int_equal(import_probe(SRC "/traces/demo.trace"), IMPORT_NATIVE);
	assert_int_equal(import_probe(tmp_path("nothing")), IMPORT_AUTO);
}
/* Out of memory anywhere: a clean NOMEM error, nothing leaked (valgrind, ASan). */
static void test_out_of_memory(void **state)
{
	long n;
	int ok = 0;

	(void)state;
	for (n = 0; n < 200 && !ok; n++) {
		struct conv c;

		sim_alloc_fail_after(n);
		convert(FIX "scenario.report", NULL, n % 2, &c);
		sim_alloc_fail_after(-1);
		if (c.rc == 0)
			ok = 1;
		else
			assert_int_equal(c.err.code, SIM_ERR_NOMEM);
		conv_free(&c);
	}
	assert_true(ok);
}

/* Mutated scenarios never crash: each is imported or rejected with a position. */
static void test_mutations(void **state)
{
	char *text = slurp(FIX "scenario.report");
	size_t n = strlen(text), i;
	unsigned long long seed = 42;
	int k, accepted = 0;

	(void)state;
	for (k = 0; k < 300; k++) {
		char *m = malloc(n + 64);
		struct conv c;
		struct import_options o = { 0 };

		memcpy(m, text, n + 1);
		for (i = 0; i < 1 + (size_t)k % 8; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			m[(seed >> 33) % n] = "0123456789 :[]=.-\nx\t\xff"[(seed >> 20) % 22];
		}
		write_tmp("mut.report", m);
		o.skip_bad_lines = k % 2;
		convert(tmp_path("mut.report"), &o, k % 3 == 0, &c);
		if (c.rc == 0)
			accepted++;
		else
			assert_true(c.err.code == SIM_ERR_INPUT);
		conv_free(&c);
		free(m);
	}
	assert_true(accepted > 30);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skip_bad_lines),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_invalid_corpus),
		cmocka_unit_test(test_not_traces),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
