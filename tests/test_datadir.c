// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_datadir.c - where the binary finds its data (sim/base/datadir.h) and the compatibility
 * layer (kgov_layer_dir): the environment first, then relative to the binary. This test
 * binary is BUILD/tests/test_datadir, so without the environment the data directory is
 * the build tree's BUILD/idlesim-data (rule 4: BINDIR/../idlesim-data). The installed
 * layout (BINDIR/../share/idlesim) is tested by install_test.sh on a moved install.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/base/datadir.h"
#include "sim/run/kgov.h"
#include "sim/run/run.h"

static void test_build_tree(void **state)
{
	char buf[4200];

	(void)state;
	unsetenv("IDLESIM_DATA_DIR");
	unsetenv("IDLESIM_KCOMPAT_DIR");
	assert_int_equal(datadir_find(buf, sizeof(buf)), 0);
	assert_string_equal(buf, IDLESIM_BINARY_DIR "/idlesim-data");
	assert_string_equal(datadir_path(buf, sizeof(buf), "traces/x.trace"),
			    IDLESIM_BINARY_DIR "/idlesim-data/traces/x.trace");
	assert_string_equal(run_default_trace(buf, sizeof(buf)),
			    IDLESIM_BINARY_DIR "/idlesim-data/traces/demo.trace");
	assert_string_equal(kgov_layer_dir(buf, sizeof(buf)),
			    IDLESIM_BINARY_DIR "/idlesim-data/kcompat");
}

/* The environment wins, taken as given (not checked for a demo trace). */
static void test_environment(void **state)
{
	char buf[4200];

	(void)state;
	setenv("IDLESIM_DATA_DIR", "/nonexistent/data", 1);
	assert_int_equal(datadir_find(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/nonexistent/data");
	assert_string_equal(run_default_trace(buf, sizeof(buf)),
			    "/nonexistent/data/traces/demo.trace");
	assert_string_equal(kgov_layer_dir(buf, sizeof(buf)), "/nonexistent/data/kcompat");
	setenv("IDLESIM_KCOMPAT_DIR", "/elsewhere/kc", 1);
	assert_string_equal(kgov_layer_dir(buf, sizeof(buf)), "/elsewhere/kc");
	/* Empty means unset. */
	setenv("IDLESIM_DATA_DIR", "", 1);
	setenv("IDLESIM_KCOMPAT_DIR", "", 1);
	assert_string_equal(kgov_layer_dir(buf, sizeof(buf)),
			    IDLESIM_BINARY_DIR "/idlesim-data/kcompat");
	unsetenv("IDLESIM_DATA_DIR");
	unsetenv("IDLESIM_KCOMPAT_DIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_tree),
		cmocka_unit_test(test_environment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
