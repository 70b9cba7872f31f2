/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testjson.h - tmpdir/NAME (tests/testbin.h) parsed as JSON, for the tests that read the
 * binary's JSON output; the test fails, naming the position, if it is not JSON.
 */
#ifndef IDLESIM_TESTJSON_H
#define IDLESIM_TESTJSON_H

#include "tests/testbin.h"

#include <jansson.h>

static inline json_t *load_json_tmp(const char *name)
{
	json_error_t je;
	char *text = slurp_tmp(name);
	json_t *root = json_loads(text, 0, &je);

	if (!root)
		fail_msg("%s: %d:%d: %s", name, je.line, je.column, je.text);
	free(text);
	return root;
}

#endif
