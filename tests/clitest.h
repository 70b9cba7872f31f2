/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clitest.h - what the command-line tests share (tests/test_cli.c, tests/test_cli_usage.c,
 * tests/test_cli_stdin.c, tests/test_cli_sweep.c): their scratch directory, and checks on
 * the files a command leaves there.
 */
#ifndef IDLESIM_CLITEST_H
#define IDLESIM_CLITEST_H

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/testbin.h"

static inline int setup(void **state)
{
	(void)state;
	return tmpdir_make("cli");
}

static inline int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

static inline bool exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return access(path, F_OK) == 0;
}

/* No temporary output file may be left in tmpdir. */
static inline void assert_no_tmp_files(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		assert_null(strstr(e->d_name, ".tmp."));
	closedir(d);
}

/* The string at a path of "."-separated object keys and array indexes. */
static inline const char *jstr(json_t *o, const char *path)
{
	char key[64];
	const char *dot;

	for (;;) {
		dot = strchr(path, '.');
		snprintf(key, sizeof(key), "%.*s", dot ? (int)(dot - path) : (int)strlen(path), path);
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(key)) : json_object_get(o, key);
		if (!dot)
			break;
		path = dot + 1;
	}
	return json_string_value(o);
}

/* The command fails with exit status 2 and says msg. */
static inline void expect_usage_error(const char *args, const char *msg)
{
	char *err;

	assert_int_equal(run_idlesim(args), 2);
	err = slurp_tmp("err");
	if (!strstr(err, msg)) {
		fprintf(stderr, "expected '%s' in: %s", msg, err);
		fail();
	}
	free(err);
}

#endif
