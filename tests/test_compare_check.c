// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare_check.c - idlesim check: expectation files on the golden comparison of
 * tests/test_compare.c (pp, server 10 and 30 us, shallowest against deepest on skl, whose
 * numbers are derived there by hand): bounds that hold and bounds that fail with their
 * messages, the JUnit, TAP and JSON reports, "significant", the progress bar, and bad input
 * with its position.
 */
#include "tests/comparetest.h"

/* ---- check ---- */

static const char expect_head[] =
	"{\n"
	"  \"schema\": \"idlesim-expect/1\",\n"
	"  \"comparisons\": [\n"
	"    {\n"
	"      \"name\": \"pp\",\n"
	"      \"workload\": \"pp\",\n"
	"      \"params\": {\"server-us\": [10, 30]},\n"
	"      \"machines\": \"skl\",\n"
	"      \"governors\": [\"shallowest\", \"deepest\"],\n"
	"      \"iterations\": 2,\n"
	"      \"duration_s\": 0.01,\n"
	"      \"disable\": [\"C1E\", \"C3\", \"C6\", \"C7s\", \"C8\", \"C9\", \"C10\"],\n"
	"      \"expect\": [\n";

static const char expect_tail[] = "\n      ]\n    }\n  ]\n}\n";

/* Parse and run an expectation file made of head + expect + tail, reporting in format;
 * returns check_run(). */
static int run_check_as(const char *expect, enum check_format format, char **out,
			struct sim_error *err)
{
	char text[4096];
	/* worst: the golden comparison's exit latencies (golden_request, tests/test_compare.c) */
	struct check_opts o = { .threads = 2, .wake_set = true, .wake_model = WAKE_MODEL_WORST,
				.format = format };
	struct check_file *cf;
	size_t len = 0;
	int rc;

	snprintf(text, sizeof(text), "%s%s%s", expect_head, expect, expect_tail);
	memset(err, 0, sizeof(*err));
	*out = NULL;
	cf = check_parse(text, "expect.json", find_test_workload, err);
	if (!cf)
		return -2;
	o.out = open_memstream(out, &len);
	assert_non_null(o.out);
	rc = check_run(cf, &o, err);
	fclose(o.out);
	check_free(cf);
	return rc;
}

static int run_check(const char *expect, char **out, struct sim_error *err)
{
	return run_check_as(expect, CHECK_TEXT, out, err);
}

/* The bounds hold: deepest loses 17.49 % and 9.38 % of throughput (see the golden test of
 * tests/test_compare.c). */
static void test_check_pass(void **state)
{
	struct sim_error err;
	char *out;

	(void)state;
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"min_pct\": -20},\n"
				   "{\"metric\": \"latency_mean\", \"governor\": \"shallowest\", "
				   "\"max\": 34, \"value\": 30}",
				   &out, &err),
			 0);
	assert_config_then(out,
			  "ok   [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest >= min_pct -20.00%\n"
			  "ok   [pp] pp server-us=30 on skl: throughput of deepest: -9.38% "
			  "against shallowest >= min_pct -20.00%\n"
			  "ok   [pp] pp server-us=30 on skl: latency_mean of shallowest: "
			  "mean 34 us <= max 34\n"
			  "check: 0 of 3 checks failed\n");
	free(out);
}

/* A bound that does not hold fails, and its message names cell, metric, value and bound. */
static void test_check_fail(void **state)
{
	struct sim_error err;
	char *out;

	(void)state;
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"min_pct\": -10, \"no_significant_regression\": true},\n"
				   "{\"metric\": \"latency_mean\", \"governor\": \"deepest\", "
				   "\"machine\": \"skl\", \"min\": 15, \"max\": 37.5}",
				   &out, &err),
			 4);
	assert_config_then(out,
			  "FAIL [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest < min_pct -10.00%\n"
			  "FAIL [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest, p = 0: significant regression "
			  "(no_significant_regression)\n"
			  "ok   [pp] pp server-us=30 on skl: throughput of deepest: -9.38% "
			  "against shallowest >= min_pct -10.00%\n"
			  "FAIL [pp] pp server-us=30 on skl: throughput of deepest: -9.38% "
			  "against shallowest, p = 0: significant regression "
			  "(no_significant_regression)\n"
			  "ok   [pp] pp server-us=10 on skl: latency_mean of deepest: mean 18 us "
			  ">= min 15\n"
			  "ok   [pp] pp server-us=10 on skl: latency_mean of deepest: mean 18 us "
			  "<= max 37.5\n"
			  "ok   [pp] pp server-us=30 on skl: latency_mean of deepest: mean 38 us "
			  ">= min 15\n"
			  "FAIL [pp] pp server-us=30 on skl: latency_mean of deepest: mean 38 us "
			  "> max 37.5\n"
			  "check: 4 of 8 checks failed\n");
	free(out);
}

/*
 * One failing and two passing bounds, from the golden comparison's numbers:
 *  1. throughput of deepest at server-us=10: -17.49 % >= min_pct -20: ok
 *  2. latency_mean of shallowest at server-us=30: mean 34 us <= max 34: ok
 *  3. latency_mean of deepest at server-us=30: mean 38 us > max 37.5: FAIL
 */
static const char expect_one_fail[] =
	"{\"metric\": \"throughput\", \"governor\": \"deepest\", \"value\": 10, "
	"\"min_pct\": -20},\n"
	"{\"metric\": \"latency_mean\", \"governor\": \"shallowest\", \"value\": 30, \"max\": 34},\n"
	"{\"metric\": \"latency_mean\", \"governor\": \"deepest\", \"value\": 30, \"max\": 37.5}";

/*
 * A minimal XML well-formedness check: every element closed in order, attributes quoted,
 * no '<' inside text or attributes, every '&' an entity. Returns the elements opened.
 */
static int xml_well_formed(const char *s)
{
	const char *stack[64];
	size_t len[64];
	int depth = 0, elements = 0;

	if (!strncmp(s, "<?xml ", 6)) {
		s = strstr(s, "?>");
		assert_non_null(s);
		s += 2;
	}
	for (; *s; s++) {
		if (*s == '&') {
			assert_true(!strncmp(s, "&amp;", 5) || !strncmp(s, "&lt;", 4) ||
				    !strncmp(s, "&gt;", 4) || !strncmp(s, "&quot;", 6) ||
				    !strncmp(s, "&#39;", 5));
			continue;
		}
		if (*s != '<')
			continue;
		if (s[1] == '/') { /* </name> closes the innermost element */
			assert_true(depth > 0);
			depth--;
			assert_memory_equal(s + 2, stack[depth], len[depth]);
			assert_int_equal(s[2 + len[depth]], '>');
			s += 2 + len[depth];
			continue;
		}
		assert_true(depth < 64);
		stack[depth] = s + 1;
		len[depth] = strcspn(s + 1, " />");
		assert_true(len[depth] > 0);
		elements++;
		for (s += 1 + len[depth]; *s != '>' && *s != '/'; s++) {
			if (*s == ' ' || *s == '\n')
				continue;
			/* name="value" */
			s += strcspn(s, "=");
			assert_int_equal(s[0], '=');
			assert_int_equal(s[1], '"');
			for (s += 2; *s != '"'; s++)
				assert_true(*s && *s != '<');
		}
		if (*s == '/') {
			assert_int_equal(s[1], '>');
			s++;
		} else {
			depth++;
		}
	}
	assert_int_equal(depth, 0);
	return elements;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* JUnit: well-formed, 3 tests and 1 failure, the failure's message, the config record. */
static void test_check_junit(void **state)
{
	struct sim_error err;
	char *out;

	(void)state;
	assert_int_equal(run_check_as(expect_one_fail, CHECK_JUNIT, &out, &err), 1);
	/* testsuites, testsuite, properties, 4 properties (config, machine, 2 governors),
	 * 3 testcases, 1 failure */
	assert_int_equal(xml_well_formed(out), 11);
	assert_non_null(strstr(out, "<testsuites name=\"idlesim check\" tests=\"3\" "
				    "failures=\"1\">\n"));
	assert_non_null(strstr(out, "<testsuite name=\"pp\" tests=\"3\" failures=\"1\" "
				    "errors=\"0\" skipped=\"0\">\n"));
	assert_int_equal(count(out, "<testcase classname=\"pp\" "), 3);
	assert_int_equal(count(out, "<failure "), 1);
	assert_non_null(strstr(out, "<testcase classname=\"pp\" name=\"pp server-us=30 on skl: "
				    "latency_mean of deepest: max\">\n"
				    "      <failure message=\"mean 38 us &gt; max 37.5\" "
				    "type=\"max\">"));
	assert_non_null(strstr(out, "<property name=\"machine skl\" value=\"table "));
	assert_non_null(strstr(out, "<property name=\"governor deepest\" value=\"none; "
				    "--set applied: none\"/>\n"));
	free(out);
}

/* TAP version 13, line by line; the failure's fields as YAML (a max bound compares no
 * governors: pct, p_value and significant are null). */
static void test_check_tap(void **state)
{
	struct sim_error err;
	char *out, head[1024], want[4096];

	(void)state;
	assert_int_equal(run_check_as(expect_one_fail, CHECK_TAP, &out, &err), 1);
	config_head(head, sizeof(head), "# ");
	snprintf(want, sizeof(want),
		 "TAP version 13\n"
		 "1..3\n"
		 "%s"
		 "ok 1 - [pp] pp server-us=10 on skl: throughput of deepest: -17.49%% against "
		 "shallowest >= min_pct -20.00%%\n"
		 "ok 2 - [pp] pp server-us=30 on skl: latency_mean of shallowest: mean 34 us "
		 "<= max 34\n"
		 "not ok 3 - [pp] pp server-us=30 on skl: latency_mean of deepest: mean 38 us "
		 "> max 37.5\n"
		 "  ---\n"
		 "  message: \"mean 38 us > max 37.5\"\n"
		 "  cell: \"pp server-us=30 on skl\"\n"
		 "  workload: \"pp\"\n"
		 "  param: \"server-us\"\n"
		 "  param_value: 30\n"
		 "  machine: \"skl\"\n"
		 "  metric: \"latency_mean\"\n"
		 "  unit: \"us\"\n"
		 "  governor: \"deepest\"\n"
		 "  bound: \"max\"\n"
		 "  limit: 37.5\n"
		 "  mean: 38.0\n"
		 "  pct: null\n"
		 "  p_value: null\n"
		 "  significant: null\n"
		 "  ...\n",
		 head);
	assert_text_equal(out, want);
	free(out);
}

/* JSON: the schema, the counts, each check's numbers, the config record. */
static void test_check_json(void **state)
{
	struct sim_error err;
	json_error_t je;
	json_t *doc, *k;
	char *out;

	(void)state;
	assert_int_equal(run_check_as(expect_one_fail, CHECK_JSON, &out, &err), 1);
	doc = json_loads(out, 0, &je);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "idlesim-check/1");
	assert_int_equal(json_integer_value(json_object_get(doc, "checks")), 3);
	assert_int_equal(json_integer_value(json_object_get(doc, "failed")), 1);
	k = json_object_get(json_array_get(json_object_get(doc, "comparisons"), 0), "config");
	assert_int_equal(json_integer_value(json_object_get(k, "hz")), 250);
	k = json_array_get(json_object_get(json_array_get(json_object_get(doc, "comparisons"), 0),
					   "checks"),
			   2);
	assert_false(json_is_true(json_object_get(k, "ok")));
	assert_string_equal(json_string_value(json_object_get(k, "bound")), "max");
	assert_true(json_real_value(json_object_get(k, "limit")) == 37.5);
	assert_true(json_real_value(json_object_get(k, "mean")) == 38.0);
	json_decref(doc);
	free(out);
}

/*
 * "significant": true makes min_pct and max_pct fail only when the bound is crossed AND
 * the t-test calls the difference significant. By hand, min_pct -1 and max_pct 5:
 *   pct -3, not significant: crossed, not significant: holds
 *   pct -3, significant: fails;  pct -0.5, significant: not crossed: holds
 *   pct 7 against max_pct 5: holds unless significant
 * Without "significant", -3 fails whatever the t-test says.
 */
static void test_check_significant_bound(void **state)
{
	struct check_expect x = { .significant = true };
	struct compare_gov g = { 0 };
	struct sim_error err;
	char *out;

	(void)state;
	x.bound[B_MIN_PCT] = -1;
	x.bound[B_MAX_PCT] = 5;
	g.pct = -3;
	assert_true(check_bound_holds(&x, B_MIN_PCT, &g));
	g.significant = true;
	assert_false(check_bound_holds(&x, B_MIN_PCT, &g));
	g.pct = -0.5;
	assert_true(check_bound_holds(&x, B_MIN_PCT, &g));
	g.pct = 7;
	assert_false(check_bound_holds(&x, B_MAX_PCT, &g));
	g.significant = false;
	assert_true(check_bound_holds(&x, B_MAX_PCT, &g));
	x.significant = false;
	g.pct = -3;
	assert_false(check_bound_holds(&x, B_MIN_PCT, &g));

	/* In a run: deepest's -17.49 % at server-us=10 is worse than -10 and significant
	 * (p = 0, see test_check_fail), so it fails, and the line says why. */
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"value\": 10, \"min_pct\": -10, \"significant\": true}",
				   &out, &err),
			 1);
	assert_config_then(out,
			  "FAIL [pp] pp server-us=10 on skl: throughput of deepest: -17.49% "
			  "against shallowest < min_pct -10.00% and significant\n"
			  "check: 1 of 1 checks failed\n");
	free(out);
	/* "significant" qualifies a percentage bound: alone, or with max, it is an error */
	assert_int_equal(run_check("{\"metric\": \"throughput\", \"governor\": \"deepest\", "
				   "\"max\": 1, \"significant\": true}",
				   &out, &err),
			 -2);
	assert_non_null(strstr(err.text, "qualifies min_pct or max_pct"));
}

/* check's progress bar names the comparison: 1 of 4 runs is 40 / 4 = 10 '#' of 40; a long
 * name is cut at 30 characters so that the bar still fits. */
static void test_check_progress_named(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	compare_progress_bar_named(f, "tbench", 1, 4);
	compare_progress_bar_named(f, "a-name-of-forty-characters-0123456789abc", 4, 4);
	fclose(f);
	assert_string_equal(text, "\rtbench [##########..............................] 1/4 runs"
				  "\ra-name-of-forty-characters-012 "
				  "[########################################] 4/4 runs\n");
	free(text);
}

/* Bad expectations are input errors at the line and column of the offending field. */
static void test_check_bad_input(void **state)
{
	static const struct {
		const char *expect;
		int line, column;
		const char *msg;
	} cases[] = {
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min_pc\": 1}", 14, 59,
		  "unknown field 'min_pc'" },
		{ "{\"metric\": \"tput\", \"governor\": \"deepest\", \"min\": 1}", 14, 12,
		  "unknown metric 'tput'" },
		{ "{\"metric\": \"throughput\", \"governor\": \"teo\", \"min\": 1}", 14, 38,
		  "not one of this comparison's governors" },
		{ "{\"metric\": \"throughput\", \"governor\": \"shallowest\", \"min_pct\": 1}", 14,
		  1, "is the baseline" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\"}", 14, 1,
		  "states no bound" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min\": 1, "
		  "\"value\": 20}",
		  14, 68, "no cell of this comparison has the parameter value 20" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min\": 2, "
		  "\"max\": 1}",
		  14, 1, "a lower bound is above its upper bound" },
		{ "{\"metric\": \"throughput\", \"governor\": \"deepest\", \"min\": \"1\"}", 14, 56,
		  "must be a number" },
	};
	struct sim_error err;
	unsigned int i;
	char *out;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(cases); i++) {
		assert_int_equal(run_check(cases[i].expect, &out, &err), -2);
		if (!strstr(err.text, cases[i].msg) || err.line != cases[i].line ||
		    err.column != cases[i].column) {
			fprintf(stderr, "case %u: ", i);
			sim_error_print(stderr, &err);
			fail();
		}
		assert_int_equal(err.code, SIM_ERR_INPUT);
		assert_string_equal(err.source, "expect.json");
	}

	/* A residency metric of a state the machine lacks is found when the cells exist. */
	assert_int_equal(run_check("{\"metric\": \"residency_pct.C42\", \"governor\": \"deepest\", "
				   "\"max\": 1}",
				   &out, &err),
			 -1);
	assert_non_null(strstr(err.text, "no compared machine has idle state 'C42'"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_pass),
		cmocka_unit_test(test_check_fail),
		cmocka_unit_test(test_check_bad_input),
		cmocka_unit_test(test_check_junit),
		cmocka_unit_test(test_check_tap),
		cmocka_unit_test(test_check_json),
		cmocka_unit_test(test_check_significant_bound),
		cmocka_unit_test(test_check_progress_named),
	};

	idlesim_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
