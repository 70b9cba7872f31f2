// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli_output.c - output files as a user meets them: written whole or not at all
 * (write errors, an unwritable place, a signal during the write), through a symlink or to
 * a FIFO, with the mode a new file gets, and gen's size bound.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/study/sweep.h"


#include "tests/clitest.h"

/*
 * A destination that is not a regular file is written in place, never replaced by a rename:
 * a FIFO made here stands in for /dev/null (a device this test must not risk).
 */
static void test_output_to_fifo(void **state)
{
	char fifo[256], args[512], buf[4096];
	struct stat st;
	ssize_t got, total = 0;
	int rd;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* Hold the read end here (no other process), so the writer's open does not block;
	 * a one-run report fits in the pipe buffer. */
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	snprintf(args, sizeof(args), "run --machine skl --governor oracle -o %s", fifo);
	assert_int_equal(run_idlesim(args), 0);
	while ((got = read(rd, buf, sizeof(buf))) > 0)
		total += got;
	close(rd);
	assert_true(total > 100); /* the report went through the FIFO */
	assert_int_equal(stat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_no_tmp_files();
}

/*
 * -o LINK, where LINK is a symbolic link, writes through it as cp and sort -o do: the file
 * it names is replaced whole (its temporary in the target's directory, here another one)
 * and the link stays a link; a link to nothing is refused (exit 2, nothing created).
 */
static void test_output_through_symlink(void **state)
{
	char dir[256], target[256], link[256], dangling[256], args[768], *got, *direct;
	struct stat st;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/elsewhere", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(target, sizeof(target), "%s/report.txt", dir);
	snprintf(link, sizeof(link), "%s/link.txt", tmpdir);
	write_tmp("elsewhere/report.txt", "the user's old text\n");
	assert_int_equal(symlink("elsewhere/report.txt", link), 0);
	snprintf(args, sizeof(args), "run --machine skl --governor oracle -o %s", link);
	assert_int_equal(run_idlesim(args), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	got = slurp(target);
	assert_non_null(got);
	assert_int_equal(run_idlesim("run --machine skl --governor oracle"), 0);
	direct = slurp_tmp("out");
	assert_string_equal(got, direct);
	free(got);
	free(direct);
	assert_no_tmp_files();
	snprintf(args, sizeof(args), "test \"$(ls -A %s)\" = report.txt", dir);
	assert_int_equal(sh(args), 0); /* no temporary left beside the target */

	snprintf(dangling, sizeof(dangling), "%s/dangling.txt", tmpdir);
	assert_int_equal(symlink("no/such/dir/file.txt", dangling), 0);
	snprintf(args, sizeof(args), "run --machine skl --governor oracle -o %s", dangling);
	assert_int_equal(run_idlesim(args), 2);
	got = slurp_tmp("err");
	assert_non_null(strstr(got, "dangling.txt: a symbolic link to nothing ("));
	free(got);
	assert_int_equal(lstat(dangling, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_no_tmp_files();
}

/* An output file that cannot be written: exit 2, nothing left behind. */
static mode_t mode_of(const char *name)
{
	struct stat st;

	assert_int_equal(stat(tmp_path(name), &st), 0);
	return st.st_mode & 07777;
}

/*
 * Output files get the usual mode: a new one 0666 less the umask (022 -> 0644, 027 ->
 * 0640), a replaced one keeps its own (0640 stays 0640, 0604 stays 0604 under umask 022).
 */
static void test_output_mode(void **state)
{
	mode_t old = umask(022);
	char args[512];

	(void)state;
	snprintf(args, sizeof(args), "gen --workload periodic --duration-s 0.01 -o %s/new.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	assert_int_equal(mode_of("new.trace"), 0644);
	write_tmp("old.trace", "x");
	assert_int_equal(chmod(tmp_path("old.trace"), 0640), 0);
	snprintf(args, sizeof(args), "gen --workload periodic --duration-s 0.01 -o %s/old.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	assert_int_equal(mode_of("old.trace"), 0640);
	assert_int_equal(chmod(tmp_path("old.trace"), 0604), 0);
	snprintf(args, sizeof(args),
		 "run --trace traces/demo.trace --machine skl --governor oracle -o %s/old.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	assert_int_equal(mode_of("old.trace"), 0604);
	umask(027);
	snprintf(args, sizeof(args),
		 "run --trace traces/demo.trace --machine skl --governor oracle -o %s/r.txt",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	assert_int_equal(mode_of("r.txt"), 0640);
	umask(old);
	assert_no_tmp_files();
	unlink(tmp_path("new.trace"));
	unlink(tmp_path("old.trace"));
	unlink(tmp_path("r.txt"));
}

/* The size of the first file in tmpdir whose name starts with prefix, or -1. */
static long long tmp_file_size(const char *prefix)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	struct stat st;
	long long size = -1;

	assert_non_null(d);
	while (size < 0 && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
		    stat(tmp_path(e->d_name), &st) == 0)
			size = st.st_size;
	closedir(d);
	return size;
}

/*
 * `idlesim gen` writing a large trace to tmpdir/NAME gets sig once its temporary holds
 * data: it must die by that signal (the conventional status) and leave no temporary.
 * An interrupt every microsecond on 8 CPUs is about 8 x 10^6 records of ~23 bytes a
 * second: 3 s is about 550 MB, many seconds of work, and below gen's bound without --force.
 */
static void signal_during_gen(const char *name, int sig, const char *duration_s, bool force)
{
	char out[256], prefix[64];
	int status, i;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/%s", tmpdir, name);
	snprintf(prefix, sizeof(prefix), "%s.tmp.", name);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl(BIN, BIN, "gen", "--workload", "irq-fixed", "--interval-us", "1", "--cpus",
		      "8", "--duration-s", duration_s, "-o", out, force ? "--force" : NULL,
		      (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 20000 && tmp_file_size(prefix) <= 0; i++)
		nanosleep(&(struct timespec){0, 500000}, NULL);
	assert_true(tmp_file_size(prefix) > 0);
	assert_int_equal(kill(pid, sig), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), sig);
	assert_no_tmp_files();
}

/* SIGTERM and SIGINT while gen writes: no temporary left, the old file (if any) intact. */
static void test_signal_removes_tmp(void **state)
{
	char *text;

	(void)state;
	signal_during_gen("sig.trace", SIGTERM, "3", false);
	assert_false(exists("sig.trace"));
	write_tmp("old.trace", "old contents\n");
	signal_during_gen("old.trace", SIGINT, "3", false);
	text = slurp_tmp("old.trace");
	assert_string_equal(text, "old contents\n");
	free(text);
	unlink(tmp_path("old.trace"));
}

/*
 * gen refuses more than 1 GiB without --force: 10 s of the workload above is about
 * 8 x 10^7 records of ~23 bytes, 1.8 GB. With --force it writes (stopped once it has
 * begun). No file either way.
 */
static void test_gen_size_bound(void **state)
{
	char args[512], *err;

	(void)state;
	snprintf(args, sizeof(args),
		 "gen --workload irq-fixed --interval-us 1 --cpus 8 --duration-s 10 -o %s/huge.trace",
		 tmpdir);
	assert_int_equal(run_idlesim(args), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, "idlesim: gen: the trace would be about 1."));
	assert_non_null(strstr(err, "GiB that gen writes without --force"));
	free(err);
	assert_false(exists("huge.trace"));
	signal_during_gen("huge.trace", SIGTERM, "10", true);
	assert_false(exists("huge.trace"));
}

/* Every write error names the file and the reason; nothing is left behind. */
static void test_write_errors(void **state)
{
	static const char *const cmds[] = {
		"gen --workload periodic -o /dev/full",
		"gen --workload tbench --duration-s 0.1 -o /dev/full",
		"run --trace traces/demo.trace --machine skl --governor menu -o /dev/full",
		"import tests/import/scenario.ftrace -o /dev/full",
		"compare --workload tbench --governor menu,teo -n 1 --duration-s 0.01 -o /dev/full",
	};
	size_t i;
	char *err;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(cmds); i++) {
		assert_int_equal(run_idlesim(cmds[i]), 2);
		err = slurp_tmp("err");
		if (strcmp(err, "idlesim: /dev/full: write error: No space left on device\n"))
			fail_msg("%s: %s", cmds[i], err);
		free(err);
	}
	assert_no_tmp_files();
}

static void test_unwritable_output(void **state)
{
	(void)state;
	expect_usage_error("run --machine skl --governor oracle -o /nonexistent-dir/out.txt",
			   "/nonexistent-dir/out.txt");
	/* An empty name is an option error naming the option as given (it was a failed rename
	 * of ".tmp.XXXXXX"), and so is any empty value. */
	expect_usage_error("run --machine skl --governor oracle -o ''", "idlesim: run -o: the value is empty");
	expect_usage_error("gen --workload periodic --output=", "idlesim: gen --output: the value is empty");
	expect_usage_error("compare --workload tbench -g menu --hz ''",
			   "idlesim: compare --hz: the value is empty");
	assert_no_tmp_files();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_to_fifo),
		cmocka_unit_test(test_output_through_symlink),
		cmocka_unit_test(test_output_mode),
		cmocka_unit_test(test_signal_removes_tmp),
		cmocka_unit_test(test_gen_size_bound),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_unwritable_output),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
