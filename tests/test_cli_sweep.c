// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli_sweep.c - `idlesim sweep` as a user runs it: spec errors with file, line and
 * column, resuming and sharding, the results file's integrity checks, merge and summary
 * inputs, and the progress line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/study/sweep.h"


#include "tests/clitest.h"

/* A sweep of 12 points over one.trace: menu with residency_threshold_us 5, 10, 15 and teo
 * with decay_shift 1, 2, 3 (3 + 3 per block), at HZ 250 and 1000 (2 blocks). */
static const char sweep_spec[] =
	"{\"traces\": [\"%s/one.trace\"], \"machines\": [\"skl\"],\n"
	" \"governors\": [\"menu\", \"teo\"], \"hz\": [250, 1000],\n"
	" \"tunables\": {\"teo.decay_shift\": [1, 2, 3],\n"
	"              \"menu.residency_threshold_us\": {\"from\": 5, \"to\": 15, \"step\": 5}}}\n";

static void write_sweep_spec(const char *name, const char *extra)
{
	char text[1024];

	snprintf(text, sizeof(text), sweep_spec, tmpdir);
	if (extra) /* another spec: a different text, so a different hash */
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s", extra);
	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n");
	write_tmp(name, text);
}

static int sweep(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sweep(const char *fmt, ...)
{
	char args[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run_idlesim(args);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A sweep's wake_latency applies to every point and is in each point's config record. */
static void test_sweep_wake_latency(void **state)
{
	char args[512], text[512];
	char *res;

	(void)state;
	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer timer=hrtimer\n");
	snprintf(text, sizeof(text),
		 "{\"traces\": [\"%s/one.trace\"], \"machines\": [\"skl\"], "
		 "\"governors\": [\"oracle\"], \"wake_latency\": \"worst\"}\n",
		 tmpdir);
	write_tmp("sw.json", text);
	snprintf(args, sizeof(args), "sweep %s/sw.json -o %s/sw.jsonl", tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	res = slurp_tmp("sw.jsonl");
	assert_non_null(strstr(res, "\"wake_latency_model\":\"worst\""));
	free(res);
}

/* Spec errors at file:line:column, exit 2, and no results file. */
static void test_sweep_spec_errors(void **state)
{
	static const struct {
		const char *tunables, *msg;
	} bad[] = {
		/* line 2 is ` "tunables": {"menu.decay": VALUE`: the value at column 29 */
		{ "{\"menu.decay\": {\"from\": 1, \"to\": 10, \"step\": 0}}",
		  "s.json:2:29: tunables.menu.decay.step must be positive" },
		{ "{\"menu.decay\": {\"from\": 10, \"to\": 1, \"step\": 1}}",
		  "s.json:2:29: tunables.menu.decay: an empty range (to 1 < from 10)" },
		{ "{\"menu.decay\": []}", "s.json:2:29: tunables.menu.decay: an empty list" },
		/* `[1], ` takes columns 29-33; "menu.nosuch" (13 with quotes) 34-46, ": " 47-48 */
		{ "{\"menu.decay\": [1], \"menu.nosuch\": [1]}",
		  "s.json:2:49: unknown tunable 'menu.nosuch'" },
		/* "teo.decay_shift" (17) 15-31, ": " 32-33: the value at 34 (only menu is swept) */
		{ "{\"teo.decay_shift\": [1]}", "s.json:2:34: unknown tunable 'teo.decay_shift'" },
		/* "menu.variance_max" (19) 15-33, value at 36; 10,000,001 values */
		/* `{"menu.decay": [1]}` 14-32, ", " 33-34, "wake_latency" (14) 35-48, ": " 49-50 */
		{ "{\"menu.decay\": [1]}, \"wake_latency\": \"best\"",
		  "s.json:2:51: wake_latency must be \"worst\", \"typical\" or \"measured\"" },
		{ "{\"menu.variance_max\": {\"from\": 0, \"to\": 10000000, \"step\": 1}}",
		  "s.json:2:36: tunables.menu.variance_max: 10000001 values (more than 1000000 need "
		  "--force)" },
	};
	char text[512], msg[256];
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(bad); i++) {
		snprintf(text, sizeof(text),
			 "{\"traces\": [\"t\"], \"machines\": [\"skl\"], \"governors\": [\"menu\"],\n"
			 " \"tunables\": %s}\n",
			 bad[i].tunables);
		write_tmp("s.json", text);
		snprintf(msg, sizeof(msg), "%s", bad[i].msg);
		{
			char args[512];

			snprintf(args, sizeof(args), "sweep %s/s.json -o %s/res.jsonl", tmpdir, tmpdir);
			expect_usage_error(args, msg);
		}
		assert_false(exists("res.jsonl"));
	}
	write_tmp("s.json", "{\"machines\": [\"skl\"], \"governors\": [\"menu\"]}");
	assert_int_equal(sweep("sweep %s/s.json -o %s/res.jsonl", tmpdir, tmpdir), 2);
	write_tmp("s.json", "{\"traces\": [\"t\"], \"machines\": [\"skl\"],\n \"governors\": [\"nosuch\"]}");
	assert_int_equal(sweep("sweep %s/s.json -o %s/res.jsonl", tmpdir, tmpdir), 2);
	assert_int_equal(sweep("sweep %s/s.json --shard 3/3 -o %s/res.jsonl", tmpdir, tmpdir), 2);
	/* a valid spec whose trace or machine does not exist: refused before any output */
	write_tmp("s.json", "{\"traces\": [\"/nonexistent.trace\"], \"machines\": [\"skl\"], "
			    "\"governors\": [\"menu\"]}");
	{
		char args[512];

		snprintf(args, sizeof(args), "sweep %s/s.json -o %s/res.jsonl", tmpdir, tmpdir);
		expect_usage_error(args, "/nonexistent.trace: cannot open");
		write_tmp("s.json", "{\"traces\": [\"/dev/null\"], \"machines\": [\"nosuch\"], "
				    "\"governors\": [\"menu\"]}");
		expect_usage_error(args, "unknown machine 'nosuch'");
	}
	assert_false(exists("res.jsonl"));
}

/*
 * One line per point, in index order: index 7 is block 1 (HZ 1000), its second point:
 * menu with residency_threshold_us 10. A killed sweep (simulated: the file cut in the
 * middle of a line) resumes: the partial line is dropped, its point and the rest rerun,
 * and the file ends up byte-identical to the uninterrupted one.
 */
static void test_sweep_resume(void **state)
{
	char *full, *again, path[512];
	json_error_t je;
	json_t *line;
	const char *p;
	int i;
	FILE *f;

	(void)state;
	write_sweep_spec("spec.json", NULL);
	assert_int_equal(sweep("sweep %s/spec.json -o %s/full.jsonl", tmpdir, tmpdir), 0);
	full = slurp_tmp("full.jsonl");
	assert_int_equal(count_lines(full), 12);
	for (p = full, i = 0; i < 7; i++)
		p = strchr(p, '\n') + 1;
	line = json_loadb(p, (size_t)(strchr(p, '\n') - p), 0, &je);
	assert_non_null(line);
	assert_int_equal(json_integer_value(json_object_get(line, "index")), 7);
	assert_int_equal(json_integer_value(json_object_get(line, "total")), 12);
	assert_string_equal(jstr(line, "config.governor"), "menu@6.19");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(line, "config"), "hz")),
			 1000);
	assert_string_equal(jstr(line, "config.set.0"), "menu.residency_threshold_us=10");
	assert_non_null(json_object_get(json_object_get(line, "metrics"), "energy_j"));
	json_decref(line);

	/* cut in the middle of line 6 */
	for (p = full, i = 0; i < 5; i++)
		p = strchr(p, '\n') + 1;
	snprintf(path, sizeof(path), "%s/cut.jsonl", tmpdir);
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(full, 1, (size_t)(p - full) + 40, f);
	fclose(f);
	assert_int_equal(sweep("sweep %s/spec.json -o %s/cut.jsonl", tmpdir, tmpdir), 0);
	again = slurp_tmp("cut.jsonl");
	assert_string_equal(again, full);
	free(again);
	/* a complete file: nothing to run, nothing changes; -j 2 gives the same lines */
	assert_int_equal(sweep("sweep %s/spec.json -j 2 -o %s/cut.jsonl", tmpdir, tmpdir), 0);
	again = slurp_tmp("cut.jsonl");
	assert_string_equal(again, full);
	free(again);
	/* another spec's results are not resumed */
	write_sweep_spec("other.json", " ");
	assert_int_equal(sweep("sweep %s/other.json -o %s/cut.jsonl", tmpdir, tmpdir), 2);
	free(full);
}

/* 3 shards merged equal the unsharded sweep byte for byte; merge refuses duplicates,
 * foreign shards and missing points. */
static void test_sweep_shards(void **state)
{
	char *full, *merged;
	int i;

	(void)state;
	write_sweep_spec("spec.json", NULL);
	assert_int_equal(sweep("sweep %s/spec.json -o %s/all.jsonl", tmpdir, tmpdir), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(sweep("sweep %s/spec.json --shard %d/3 -o %s/s%d.jsonl", tmpdir, i,
				       tmpdir, i),
				 0);
	merged = slurp_tmp("s1.jsonl");
	assert_int_equal(count_lines(merged), 4); /* indexes 1, 4, 7, 10 */
	free(merged);
	assert_int_equal(sweep("sweep merge %s/s2.jsonl %s/s0.jsonl %s/s1.jsonl -o %s/m.jsonl",
			       tmpdir, tmpdir, tmpdir, tmpdir),
			 0);
	full = slurp_tmp("all.jsonl");
	merged = slurp_tmp("m.jsonl");
	assert_string_equal(merged, full);
	free(merged);
	/* more shards than RUN_MAX_ITEMS (64): 65, most of them empty, merge all the same */
	for (i = 0; i < 65; i++)
		assert_int_equal(sweep("sweep %s/spec.json --shard %d/65 -o %s/t%02d.jsonl", tmpdir, i,
				       tmpdir, i),
				 0);
	/* the shell expands the glob */
	assert_int_equal(sweep("sweep merge %s/t*.jsonl -o %s/m65.jsonl", tmpdir, tmpdir), 0);
	merged = slurp_tmp("m65.jsonl");
	assert_string_equal(merged, full);
	free(merged);
	free(full);
	assert_int_equal(sweep("sweep merge %s/s0.jsonl %s/s1.jsonl %s/s1.jsonl %s/s2.jsonl -o "
			       "%s/x.jsonl",
			       tmpdir, tmpdir, tmpdir, tmpdir, tmpdir),
			 2);
	assert_int_equal(sweep("sweep merge %s/s0.jsonl %s/s1.jsonl -o %s/x.jsonl", tmpdir, tmpdir,
			       tmpdir),
			 2);
	write_sweep_spec("other.json", " ");
	assert_int_equal(sweep("sweep %s/other.json --shard 2/3 -o %s/o2.jsonl", tmpdir, tmpdir), 0);
	assert_int_equal(sweep("sweep merge %s/s0.jsonl %s/s1.jsonl %s/o2.jsonl -o %s/x.jsonl",
			       tmpdir, tmpdir, tmpdir, tmpdir),
			 2);
	assert_false(exists("x.jsonl"));
}

/* Run `timeout 10 idlesim ARGS` (an endless read would hang the test otherwise). */
static int sweep_timed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sweep_timed(const char *fmt, ...)
{
	char args[1024], cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "cd %s && timeout 10 %s %s </dev/null >%s/out 2>%s/err", SRC,
		 BIN, args, tmpdir, tmpdir);
	return sh(cmd);
}

static void expect_err(const char *msg)
{
	char *e = slurp_tmp("err");

	if (!strstr(e, msg))
		fail_msg("expected '%s' in: %s", msg, e);
	free(e);
}

/* Write name with n bytes and an mtime of 2001-09-09; then sweep -o it must exit 2 with
 * msg (after "DIR/name") and leave its bytes and mtime as they were. */
static void expect_refused(const char *name, const char *bytes, size_t n, const char *msg)
{
	struct timespec t[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	char want[512];
	struct stat st;
	char *after;
	FILE *f = fopen(tmp_path(name), "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(utimensat(AT_FDCWD, tmp_path(name), t, 0), 0);
	assert_int_equal(sweep_timed("sweep %s/spec.json -o %s/%s", tmpdir, tmpdir, name), 2);
	snprintf(want, sizeof(want), "%s/%s%s", tmpdir, name, msg);
	expect_err(want);
	assert_int_equal(stat(tmp_path(name), &st), 0);
	assert_int_equal(st.st_mtim.tv_sec, 1000000000);
	assert_int_equal(st.st_mtim.tv_nsec, 0);
	assert_int_equal((size_t)st.st_size, n);
	after = slurp_tmp(name);
	assert_memory_equal(after, bytes, n);
	free(after);
}

/*
 * Only a regular file of this spec's result lines is resumed (docs/sweep.md): a device,
 * FIFO or directory is refused before it is read, a file holding anything else is refused
 * naming the line, and the file is left as it was, bytes and mtime.
 */
static void test_sweep_result_files(void **state)
{
	char *full, *other, *buf, *p;
	size_t n3, n;
	struct stat st;

	(void)state;
	write_sweep_spec("spec.json", NULL);
	write_sweep_spec("other.json", " ");
	assert_int_equal(sweep("sweep %s/other.json -o %s/other.jsonl", tmpdir, tmpdir), 0);
	assert_int_equal(sweep("sweep %s/spec.json -o %s/full.jsonl", tmpdir, tmpdir), 0);
	full = slurp_tmp("full.jsonl");
	other = slurp_tmp("other.jsonl");
	for (p = full, n3 = 0; n3 < 3; n3++) /* n3: the bytes of the first 3 lines */
		p = strchr(p, '\n') + 1;
	n3 = (size_t)(p - full);

	/* endless devices: refused at once, not read */
	assert_int_equal(sweep_timed("sweep %s/spec.json -o /dev/full", tmpdir), 2);
	expect_err("/dev/full: a character device, not a regular file");
	assert_int_equal(sweep_timed("sweep %s/spec.json -o /dev/zero", tmpdir), 2);
	expect_err("/dev/zero: a character device, not a regular file");
	/* a FIFO is not opened (that would wait for a writer), a directory not read */
	unlink(tmp_path("fifo"));
	assert_int_equal(mkfifo(tmp_path("fifo"), 0600), 0);
	assert_int_equal(sweep_timed("sweep %s/spec.json -o %s/fifo", tmpdir, tmpdir), 2);
	expect_err("/fifo: a FIFO, not a regular file");
	assert_int_equal(stat(tmp_path("fifo"), &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	rmdir(tmp_path("dir"));
	assert_int_equal(mkdir(tmp_path("dir"), 0700), 0);
	assert_int_equal(sweep_timed("sweep %s/spec.json -o %s/dir", tmpdir, tmpdir), 2);
	expect_err("/dir: a directory, not a regular file");
	/* standard output is no results file: '-' is refused, and creates no file '-' */
	assert_int_equal(sweep_timed("sweep %s/spec.json -o -", tmpdir), 2);
	expect_err("sweep: -o must name a results file, not '-'");
	assert_int_equal(access(SRC "/-", F_OK), -1);

	/* a user's file: one line without a newline; NUL bytes */
	expect_refused("notes.txt", "my notes, no newline", 20,
		       ":1:1: not a sweep result line of this spec, nor the start of one");
	buf = calloc(1, 100);
	assert_non_null(buf);
	expect_refused("nul.bin", buf, 100, ":1:1: a NUL byte: not a sweep result line");
	free(buf);
	/* a first line that is not a result, then results */
	buf = malloc(strlen(full) + 16);
	assert_non_null(buf);
	n = (size_t)sprintf(buf, "# my notes\n%s", full);
	expect_refused("first.jsonl", buf, n, ":1:1: not a sweep result line");
	/* valid lines, then garbage: a complete line, a partial one, a NUL in a partial one */
	memcpy(buf, full, n3);
	memcpy(buf + n3, "garbage\n", 8);
	expect_refused("garbage.jsonl", buf, n3 + 8, ":4:1: not a sweep result line");
	expect_refused("garbage2.jsonl", buf, n3 + 7,
		       ":4:1: not a sweep result line of this spec, nor the start of one");
	memcpy(buf + n3, "{\"spec\":\"0\0", 11);
	expect_refused("nul2.jsonl", buf, n3 + 11, ":4:11: a NUL byte");
	free(buf);
	/* a whole results file of another spec; the start of one of its lines */
	expect_refused("other.jsonl", other, strlen(other), ":1:1: written by another spec");
	expect_refused("other2.jsonl", other, 30,
		       ":1:1: not a sweep result line of this spec, nor the start of one");
	/* a line longer than 1 MiB, complete or not */
	n = n3 + (2u << 20);
	buf = malloc(n + 1);
	assert_non_null(buf);
	memcpy(buf, full, n3);
	memset(buf + n3, 'x', n - n3);
	buf[n - 1] = '\n';
	expect_refused("long.jsonl", buf, n, ":4:1: a line longer than 1 MiB");
	expect_refused("long2.jsonl", buf, n - 1, ":4:1: a line longer than 1 MiB");
	free(buf);

	/* the start of a line of this spec is what a kill leaves: dropped, its point rerun */
	for (n = 1; n < 120; n += 37) {
		{
			FILE *f = fopen(tmp_path("cut.jsonl"), "wb");

			assert_non_null(f);
			fwrite(full, 1, n3 + n, f);
			fclose(f);
		}
		assert_int_equal(sweep("sweep %s/spec.json -o %s/cut.jsonl", tmpdir, tmpdir), 0);
		buf = slurp_tmp("cut.jsonl");
		assert_string_equal(buf, full);
		free(buf);
	}
	free(full);
	free(other);
}

/* merge and summary read their inputs by the same rules. */
static void test_sweep_merge_summary_inputs(void **state)
{
	char *full, *buf;
	size_t n;

	(void)state;
	write_sweep_spec("spec.json", NULL);
	assert_int_equal(sweep("sweep %s/spec.json -o %s/full.jsonl", tmpdir, tmpdir), 0);
	full = slurp_tmp("full.jsonl");
	assert_int_equal(sweep_timed("sweep merge %s/full.jsonl /dev/zero -o %s/mz.jsonl", tmpdir,
				     tmpdir),
			 2);
	expect_err("/dev/zero: a character device, not a regular file");
	assert_false(exists("mz.jsonl"));
	unlink(tmp_path("fifo"));
	assert_int_equal(mkfifo(tmp_path("fifo"), 0600), 0);
	assert_int_equal(sweep_timed("sweep summary %s/fifo", tmpdir), 2);
	expect_err("/fifo: a FIFO, not a regular file");
	assert_int_equal(sweep_timed("sweep summary /dev/zero"), 2);
	expect_err("/dev/zero: a character device");
	/* a partial last line: summary ignores the start of a result line, not garbage */
	n = strlen(full);
	buf = malloc(n + 32);
	assert_non_null(buf);
	sprintf(buf, "%s{\"spec\":\"", full);
	write_tmp("tail.jsonl", buf);
	assert_int_equal(sweep_timed("sweep summary %s/tail.jsonl -o %s/s.txt", tmpdir, tmpdir), 0);
	sprintf(buf, "%sgarbage", full);
	write_tmp("tail.jsonl", buf);
	assert_int_equal(sweep_timed("sweep summary %s/tail.jsonl -o %s/s.txt", tmpdir, tmpdir), 2);
	expect_err("tail.jsonl:13:1: not a sweep result line, nor the start of one");
	assert_int_equal(sweep_timed("sweep merge %s/tail.jsonl -o %s/mz.jsonl", tmpdir, tmpdir), 2);
	expect_err("tail.jsonl:13:1: not a sweep result line, nor the start of one");
	sprintf(buf, "%s{\"spec\":\"", full);
	write_tmp("tail.jsonl", buf);
	assert_int_equal(sweep_timed("sweep merge %s/tail.jsonl -o %s/mz.jsonl", tmpdir, tmpdir), 2);
	expect_err("tail.jsonl: ends in a partial line");
	assert_false(exists("mz.jsonl"));
	free(buf);
	/* merge to a full device: a write error, exit 2 */
	assert_int_equal(sweep_timed("sweep merge %s/full.jsonl -o /dev/full", tmpdir), 2);
	expect_err("/dev/full: write error");
	free(full);
}

/* The progress line: 10 of 40 points in 4 s is 2.5 points/s, 30 left take 12 s. */
static void test_sweep_progress_text(void **state)
{
	char buf[128];

	(void)state;
	sweep_progress_text(buf, sizeof(buf), 10, 40, 4.0);
	assert_string_equal(buf, "10/40 points, 2.5/s, 12s left");
	sweep_progress_text(buf, sizeof(buf), 0, 40, 1.0);
	assert_string_equal(buf, "0/40 points");
	sweep_progress_text(buf, sizeof(buf), 40, 40, 8.0); /* 5/s, nothing left */
	assert_string_equal(buf, "40/40 points, 5/s, 0s left");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_wake_latency),
		cmocka_unit_test(test_sweep_spec_errors),
		cmocka_unit_test(test_sweep_resume),
		cmocka_unit_test(test_sweep_shards),
		cmocka_unit_test(test_sweep_result_files),
		cmocka_unit_test(test_sweep_merge_summary_inputs),
		cmocka_unit_test(test_sweep_progress_text),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
