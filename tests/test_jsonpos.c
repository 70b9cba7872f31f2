// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_jsonpos.c - positions of values in JSON text, counted by hand.
 *
 * Every expected line:column below was counted on the literal text, character by character
 * (columns from 1, UTF-8 characters counting one each, as jansson counts them), never taken
 * from jsonpos itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <string.h>

#include "sim/base/jsonpos.h"

#define check_pos(text, path, rc, line, col) check_pos_at(text, path, rc, line, col, __LINE__)

static void check_pos_at(const char *text, const char *path, int want_rc, int want_line,
			 int want_col, int src_line)
{
	int line = -7, col = -7, rc;

	rc = jsonpos_find(text, path, &line, &col);
	if (rc != want_rc || line != want_line || col != want_col)
		fail_msg("line %d: path '%s': got rc %d at %d:%d, want rc %d at %d:%d", src_line,
			 path, rc, line, col, want_rc, want_line, want_col);
}

static void test_whole_document(void **state)
{
	(void)state;
	check_pos("{\"a\": 1}", "", 0, 1, 1);
	check_pos("  \n {\"a\": 1}", "", 0, 2, 2);
}

static void test_nested_objects(void **state)
{
	const char *t = "{\"a\": {\"b\": {\"c\": 42}}}";

	(void)state;
	check_pos(t, "a", 0, 1, 7);
	check_pos(t, "a.b", 0, 1, 13);
	check_pos(t, "a.b.c", 0, 1, 19);
}

static void test_arrays(void **state)
{
	const char *t = "{\"x\": [10, [20, 30], {\"y\": 5}]}";

	(void)state;
	check_pos(t, "x", 0, 1, 7);
	check_pos(t, "x[0]", 0, 1, 8);
	check_pos(t, "x[1]", 0, 1, 12);
	check_pos(t, "x[1][1]", 0, 1, 17);
	check_pos(t, "x[2].y", 0, 1, 28);
	check_pos("[1, [2, 3]]", "[1][0]", 0, 1, 6);
}

static void test_strings_with_escapes_and_braces(void **state)
{
	(void)state;
	/* {"s": "a\"}{[", "t": 1} */
	check_pos("{\"s\": \"a\\\"}{[\", \"t\": 1}", "t", 0, 1, 22);
	/* {"s": "x\\", "t": 2}: an escaped backslash right before the closing quote */
	check_pos("{\"s\": \"x\\\\\", \"t\": 2}", "t", 0, 1, 19);
	/* {"s": "]}", "t": [3]} */
	check_pos("{\"s\": \"]}\", \"t\": [3]}", "t[0]", 0, 1, 19);
}

static void test_escaped_member_names(void **state)
{
	/* {"k\"}": 1, "k": 2} */
	const char *t = "{\"k\\\"}\": 1, \"k\": 2}";

	(void)state;
	check_pos(t, "k", 0, 1, 18);
	check_pos(t, "k\"}", 0, 1, 10);
	/* {"caf\u00e9": 1}: the path names the decoded key, in UTF-8 */
	check_pos("{\"caf\\u00e9\": 1}", "caf\xc3\xa9", 0, 1, 15);
	/* a surrogate pair, U+1F600 */
	check_pos("{\"\\ud83d\\ude00\": 3}", "\xf0\x9f\x98\x80", 0, 1, 18);
	/* {"a\/b\tc": 4} */
	check_pos("{\"a\\/b\\tc\": 4}", "a/b\tc", 0, 1, 13);
}

static void test_multi_line(void **state)
{
	const char *t = "{\n"
			"  \"states\": [\n"
			"    {\"name\": \"C1\"},\n"
			"    {\n"
			"      \"name\": \"C6\",\n"
			"      \"lat\": 133\n"
			"    }\n"
			"  ]\n"
			"}\n";

	(void)state;
	check_pos(t, "states", 0, 2, 13);
	check_pos(t, "states[0].name", 0, 3, 14);
	check_pos(t, "states[1]", 0, 4, 5);
	check_pos(t, "states[1].name", 0, 5, 15);
	check_pos(t, "states[1].lat", 0, 6, 14);
	/* CR LF line ends and tabs: a tab is one column, as in jansson */
	check_pos("{\r\n\t\"a\":\t1}", "a", 0, 2, 7);
}

static void test_utf8_columns(void **state)
{
	/* {"é": "ü", "b": 2} */
	const char *t = "{\"\xc3\xa9\": \"\xc3\xbc\", \"b\": 2}";
	/* the same text with the value of "b" missing: jansson's error column */
	const char *bad = "{\"\xc3\xa9\": \"\xc3\xbc\", \"b\": }";
	json_error_t jerr;
	json_t *root;

	(void)state;
	check_pos(t, "b", 0, 1, 17);
	root = json_loads(bad, 0, &jerr);
	assert_null(root);
	assert_int_equal(jerr.line, 1);
	assert_int_equal(jerr.column, 17);
}

static void test_literals_and_empty_containers(void **state)
{
	const char *t =
		"{\"a\": [], \"b\": {}, \"c\": true, \"d\": null, \"e\": -1.5e+3, \"f\": \"x\"}";

	(void)state;
	check_pos(t, "b", 0, 1, 16);
	check_pos(t, "c", 0, 1, 25);
	check_pos(t, "e", 0, 1, 47);
	check_pos(t, "f", 0, 1, 61);
}

static void test_missing_path_gives_deepest(void **state)
{
	const char *t = "{\"a\": {\"b\": 1}}";

	(void)state;
	check_pos(t, "z", -1, 1, 1);
	check_pos(t, "a.c", -1, 1, 7);
	check_pos(t, "a.b.c", -1, 1, 13);
	check_pos(t, "a[0]", -1, 1, 7);
	check_pos("{\"x\": [10, 20]}", "x[2]", -1, 1, 7);
	check_pos("{\"x\": [10, 20]}", "x[-1]", -1, 1, 7);
	check_pos("{\"x\": []}", "x[0]", -1, 1, 7);
}

/* jansson keeps the last of two equal names, so the position must be the last one's. */
static void test_duplicate_name_last_wins(void **state)
{
	const char *t = "{\"a\": 1, \"a\": 2}";
	json_t *root = json_loads(t, 0, NULL);

	(void)state;
	assert_non_null(root);
	assert_int_equal(json_integer_value(json_object_get(root, "a")), 2);
	json_decref(root);
	check_pos(t, "a", 0, 1, 15);
}

/* Long names are compared in full: no prefix of a long name matches. */
static void test_long_names(void **state)
{
	char text[400], key[200], other[200];

	(void)state;
	memset(key, 'k', 150);
	key[150] = '\0';
	memcpy(other, key, sizeof(key));
	other[149] = 'x';
	snprintf(text, sizeof(text), "{\"%s\": 1}", key);
	check_pos(text, key, 0, 1, 156); /* '{' + 152 for the quoted name + ':' + ' ' */
	check_pos(text, other, -1, 1, 1);
	key[140] = '\0';
	check_pos(text, key, -1, 1, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_document),
		cmocka_unit_test(test_nested_objects),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_strings_with_escapes_and_braces),
		cmocka_unit_test(test_escaped_member_names),
		cmocka_unit_test(test_multi_line),
		cmocka_unit_test(test_utf8_columns),
		cmocka_unit_test(test_literals_and_empty_containers),
		cmocka_unit_test(test_missing_path_gives_deepest),
		cmocka_unit_test(test_duplicate_name_last_wins),
		cmocka_unit_test(test_long_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
