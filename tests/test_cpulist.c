// SPDX-License-Identifier: GPL-2.0-only
/* test_cpulist.c - "0-3,8" CPU lists (sim/base/cpulist.h), as taskset -c reads them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "sim/base/cpulist.h"

static bool mask[CPULIST_MAX];

/* Each example's CPUs, and the highest + 1 returned. */
static void test_lists(void **state)
{
	char why[128];
	int i;

	(void)state;
	assert_int_equal(cpulist_parse("0-3,8,10-11", mask, why, sizeof(why)), 12);
	for (i = 0; i < 16; i++)
		assert_int_equal(mask[i], i <= 3 || i == 8 || i == 10 || i == 11);
	assert_int_equal(cpulist_parse("5", mask, why, sizeof(why)), 6);
	assert_true(mask[5] && !mask[4] && !mask[0]); /* cleared from the last list */
	assert_int_equal(cpulist_parse("7,2-2,7", mask, why, sizeof(why)), 8);
	assert_true(mask[2] && mask[7] && !mask[3]);
	assert_int_equal(cpulist_parse("8191", mask, why, sizeof(why)), CPULIST_MAX);
}

/* Bad lists: -1 and what is wrong, where. */
static void test_bad(void **state)
{
	static const struct {
		const char *s, *why;
	} bad[] = {
		{ "", "an empty CPU list" },
		{ ",", "column 1: ',' where a CPU number belongs" },
		{ "0-", "column 3: ' ' where a CPU number belongs" },
		{ "1,,2", "column 3: ',' where a CPU number belongs" },
		{ "0-3 ", "column 4: ' ' where a comma or a dash belongs" },
		{ "4-2", "the range 4-2 runs backwards" },
		{ "8192", "CPU numbers end at 8191" },
		{ "-1", "column 1: '-' where a CPU number belongs" },
	};
	char why[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cpulist_parse(bad[i].s, mask, why, sizeof(why)), -1);
		assert_string_equal(why, bad[i].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
