// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_html.c - `idlesim report` (sim/report/html.c), through the binary:
 *
 *  - the file is well-formed XML (XHTML-compatible): a small checker balances every tag,
 *    requires quoted attributes and escaped text;
 *  - nothing is fetched: no src or href leaves the file (only "#..." anchors), no url(),
 *    no @import, no <script> or <link>;
 *  - the residency bars' values (data-pct) are the run JSON's busy_pct, residency_pct of
 *    each state and truncated_pct, for every governor (the same trace, machine, governors);
 *  - the histogram's counts (data-count) add up to each run's idle_periods;
 *  - bad options exit with status 2 and leave no file.
 *
 * The browser test (a real renderer) is tests/test_browser.c.
 */
#include "sim/report/html.h"
#include "tests/testbin.h"
#include "tests/testjson.h"

#include <ctype.h>
#include <stdbool.h>
#include <jansson.h>
#include <math.h>
#include <unistd.h>

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("html");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

/* ---- a minimal XML well-formedness checker ---- */

#define XML_DEPTH 64

/* "" if the document is well-formed, else what is wrong and where (static buffer). */
static const char *xml_check(const char *s)
{
	static char msg[256];
	char stack[XML_DEPTH][32];
	int depth = 0, roots = 0;
	const char *p = s;

#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(msg, sizeof(msg), __VA_ARGS__);                                           \
		return msg;                                                                        \
	} while (0)

	while (*p) {
		if (*p == '&') {
			const char *q = p + 1;

			if (*q == '#')
				q++;
			while (isalnum((unsigned char)*q))
				q++;
			if (*q != ';' || q == p + 1)
				BAD("bare & at offset %ld", (long)(p - s));
			p = q + 1;
			continue;
		}
		if (*p == '>')
			BAD("bare > in text at offset %ld", (long)(p - s));
		if (*p != '<') {
			p++;
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			const char *e = strstr(p, "-->");

			if (!e)
				BAD("unterminated comment");
			p = e + 3;
			continue;
		}
		if (!strncmp(p, "<!DOCTYPE", 9)) {
			p = strchr(p, '>');
			if (!p)
				BAD("unterminated DOCTYPE");
			p++;
			continue;
		}
		if (p[1] == '/') {
			const char *n = p + 2;
			size_t len = strcspn(n, " >");

			if (!depth)
				BAD("closing tag with nothing open at offset %ld", (long)(p - s));
			if (strlen(stack[depth - 1]) != len || strncmp(stack[depth - 1], n, len))
				BAD("</%.*s> closes <%s> at offset %ld", (int)len, n, stack[depth - 1],
				    (long)(p - s));
			depth--;
			p = strchr(n, '>');
			if (!p)
				BAD("unterminated closing tag");
			p++;
			continue;
		}
		{
			const char *n = p + 1;
			size_t len = 0;
			bool selfclose = false;

			while (isalnum((unsigned char)n[len]))
				len++;
			if (!len || len >= sizeof(stack[0]))
				BAD("bad tag name at offset %ld", (long)(p - s));
			p = n + len;
			/* attributes: name="value" */
			for (;;) {
				while (*p == ' ' || *p == '\n')
					p++;
				if (*p == '>')
					break;
				if (p[0] == '/' && p[1] == '>') {
					selfclose = true;
					p++;
					break;
				}
				if (!isalpha((unsigned char)*p))
					BAD("bad attribute at offset %ld", (long)(p - s));
				while (isalnum((unsigned char)*p) || *p == '-' || *p == ':')
					p++;
				if (p[0] != '=' || p[1] != '"')
					BAD("unquoted attribute at offset %ld", (long)(p - s));
				p = strchr(p + 2, '"');
				if (!p)
					BAD("unterminated attribute value");
				p++;
			}
			p++;
			if (!depth && !selfclose)
				roots++;
			if (selfclose)
				continue;
			if (depth == XML_DEPTH)
				BAD("nesting too deep");
			memcpy(stack[depth], n, len);
			stack[depth][len] = '\0';
			depth++;
			/* raw text elements: their content has no tags (checked: no '<') */
			if (!strcmp(stack[depth - 1], "style")) {
				const char *e = strstr(p, "</style>");

				if (!e || memchr(p, '<', (size_t)(e - p)) || memchr(p, '&', (size_t)(e - p)))
					BAD("<style> holds markup");
				p = e;
			}
		}
	}
	if (depth)
		BAD("<%s> is never closed", stack[depth - 1]);
	if (roots != 1)
		BAD("%d root elements", roots);
	return "";
#undef BAD
}

static void test_xml_checker(void **state)
{
	(void)state;
	assert_string_equal(xml_check("<!DOCTYPE html>\n<html><p a=\"1\">x &amp; y<br/></p></html>"), "");
	assert_string_not_equal(xml_check("<html><p></html>"), "");
	assert_string_not_equal(xml_check("<html><p a=1></p></html>"), "");
	assert_string_not_equal(xml_check("<html>a & b</html>"), "");
	assert_string_not_equal(xml_check("<html><p></p>"), "");
	assert_string_not_equal(xml_check("<html></html><html></html>"), "");
}

/* ---- attributes of the report's data elements ---- */

/* The value of attribute `name` in the tag starting at tag (up to its '>'), or "". */
static void attr(const char *tag, const char *name, char *out, size_t n)
{
	const char *end = strchr(tag, '>'), *p = tag;
	size_t nl = strlen(name);

	out[0] = '\0';
	while ((p = strstr(p, name)) && p < end) {
		if (p[-1] == ' ' && p[nl] == '=' && p[nl + 1] == '"') {
			const char *v = p + nl + 2, *q = strchr(v, '"');
			size_t len = (size_t)(q - v) < n - 1 ? (size_t)(q - v) : n - 1;

			memcpy(out, v, len);
			out[len] = '\0';
			return;
		}
		p += nl;
	}
}


static json_t *run_of(json_t *runs, const char *gov)
{
	size_t i;
	json_t *r;

	json_array_foreach(runs, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "governor")), gov))
			return r;
	fail_msg("no run of %s in the JSON", gov);
	return NULL;
}

/* The JSON value a residency bar must show: busy, truncated or a state's residency_pct. */
static double expected_pct(json_t *run, const char *what)
{
	json_t *totals = json_object_get(run, "totals"), *st;
	size_t i;

	if (!strcmp(what, "busy"))
		return json_number_value(json_object_get(totals, "busy_pct"));
	if (!strcmp(what, "truncated"))
		return json_number_value(json_object_get(totals, "truncated_pct"));
	json_array_foreach(json_object_get(run, "states"), i, st)
		if (!strcmp(json_string_value(json_object_get(st, "name")), what))
			return json_number_value(json_object_get(st, "residency_pct"));
	fail_msg("no state %s", what);
	return NAN;
}

static void test_report_demo(void **state)
{
	static const char *const govs[] = { "menu@6.19", "teo@6.19", "oracle" };
	char args[512], v[64], gov[64], what[64];
	const char *p, *bad;
	char *html;
	json_t *root, *runs;
	long long hist[3] = { 0 };
	double sum[3] = { 0 };
	int bars = 0, g;

	(void)state;
	snprintf(args, sizeof(args), "report -m skl -g menu@6.19,teo@6.19 -o %s", tmp_path("r.html"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "run -m skl -g menu@6.19,teo@6.19,oracle --format json -o %s",
		 tmp_path("r.json"));
	assert_int_equal(run_idlesim(args), 0);
	html = slurp_tmp("r.html");
	bad = xml_check(html);
	if (*bad)
		fail_msg("r.html is not well-formed: %s", bad);

	/* Self-contained. */
	for (p = html; (p = strstr(p, "href=\"")); p++)
		assert_int_equal(p[6], '#');
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "url("));
	assert_null(strstr(html, "@import"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	/* It says what wrote it. */
	assert_non_null(strstr(html, "idlesim report -m skl -g menu@6.19,teo@6.19"));
	assert_non_null(strstr(html, "(idlesim 0."));

	root = load_json_tmp("r.json");
	runs = json_object_get(root, "runs");
	for (p = html; (p = strstr(p, "<rect class=\"res\"")); p++) {
		double pct, want;

		attr(p, "data-gov", gov, sizeof(gov));
		attr(p, "data-state", what, sizeof(what));
		attr(p, "data-pct", v, sizeof(v));
		pct = strtod(v, NULL);
		want = expected_pct(run_of(runs, gov), what);
		if (fabs(pct - want) > 1e-9 * (1 + fabs(want)))
			fail_msg("%s %s: bar %.12g, JSON %.12g", gov, what, pct, want);
		for (g = 0; g < 3; g++)
			if (!strcmp(gov, govs[g]))
				sum[g] += pct;
		bars++;
	}
	assert_int_equal(bars, 3 * (9 + 2)); /* skl: 9 states, busy and truncated */
	for (g = 0; g < 3; g++)
		assert_true(fabs(sum[g] - 100.0) < 1e-6);

	for (p = html; (p = strstr(p, "<rect class=\"hist\"")); p++) {
		attr(p, "data-gov", gov, sizeof(gov));
		attr(p, "data-count", v, sizeof(v));
		for (g = 0; g < 3; g++)
			if (!strcmp(gov, govs[g]))
				hist[g] += atoll(v);
	}
	for (g = 0; g < 3; g++) {
		json_t *t = json_object_get(run_of(runs, govs[g]), "totals");

		assert_true(hist[g] > 1000);
		assert_int_equal(hist[g], json_integer_value(json_object_get(t, "idle_periods")));
	}
	/* The timeline has entries of every lane pair, and the decisions table rows. */
	assert_non_null(strstr(html, "<rect class=\"st\""));
	assert_non_null(strstr(html, "<title>oracle: "));
	assert_non_null(strstr(html, "<table class=\"dec\">"));
	json_decref(root);
	free(html);
}

/* A window: the axis starts there; a bad window or a second machine is refused, no file. */
static void test_report_window(void **state)
{
	char args[512];
	char *html, *err;

	(void)state;
	snprintf(args, sizeof(args), "report -g teo --from 0.25 --to 0.2501 -o %s",
		 tmp_path("w.html"));
	assert_int_equal(run_idlesim(args), 0);
	html = slurp_tmp("w.html");
	assert_string_equal(xml_check(html), "");
	assert_non_null(strstr(html, "Trace time 0.250000s to 0.250100s."));
	free(html);

	snprintf(args, sizeof(args), "report -g teo --from 0.3 --to 0.2 -o %s", tmp_path("bad.html"));
	assert_int_equal(run_idlesim(args), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, "--to must be after --from"));
	free(err);
	snprintf(args, sizeof(args), "report -m skl,hsx -o %s", tmp_path("bad.html"));
	assert_int_equal(run_idlesim(args), 2);
	assert_int_equal(access(tmp_path("bad.html"), F_OK), -1);
}

/*
 * report --workload: a closed-loop run. Well-formed; each CPU's lane has a band of task
 * rects (class "task"), each with a title "comm-tid ran T"; tbench's first client (tid 1,
 * "tbench") and its server (tid 2, "tbench_srv") both start in the first millisecond, so
 * both are in the band and the legend of the window [0, 1 ms); the oracle's lane is said
 * to be the no-exit-latency run's. Pinned, the band has "work" only, and no task legend.
 */
static void test_report_workload(void **state)
{
	char args[512];
	char *html;

	(void)state;
	snprintf(args, sizeof(args),
		 "report --workload tbench --clients 1 --duration-s 0.01 -m skl -g menu "
		 "--from 0 --to 0.001 -o %s",
		 tmp_path("wl.html"));
	assert_int_equal(run_idlesim(args), 0);
	html = slurp_tmp("wl.html");
	assert_string_equal(xml_check(html), "");
	assert_non_null(strstr(html, "<rect class=\"task\" data-tid=\"1\""));
	assert_non_null(strstr(html, "<title>tbench-1 ran "));
	assert_non_null(strstr(html, "<title>tbench_srv-2 ran "));
	assert_non_null(strstr(html, "<p class=\"legend\">Tasks ("));
	assert_non_null(strstr(html, "</span>tbench-1 <span"));
	assert_non_null(strstr(html, "</span>tbench_srv-2</p>"));
	assert_non_null(strstr(html, "a run without exit latency"));
	free(html);

	snprintf(args, sizeof(args),
		 "report --workload tbench --clients 1 --placement pinned --duration-s 0.01 -m skl "
		 "-g menu --from 0 --to 0.001 -o %s",
		 tmp_path("wlp.html"));
	assert_int_equal(run_idlesim(args), 0);
	html = slurp_tmp("wlp.html");
	assert_string_equal(xml_check(html), "");
	assert_non_null(strstr(html, "<rect class=\"task\" data-tid=\"-1\""));
	assert_null(strstr(html, "data-tid=\"1\""));
	assert_non_null(strstr(html, "Tasks (the band"));
	assert_non_null(strstr(html, "</span>work</p>"));
	free(html);
}

/*
 * The default window of a closed-loop run where no CPU idles (more tasks than CPUs): it
 * ends at the HTML_LANE_SEGS-th task segment of the busiest CPU, not at the end of the run.
 * By hand: CPU 0 runs task segments of 10 us back to back from 1 ms (1 000 of them), CPU 1
 * one of 10 ms; kernel work (tid 0) nested in CPU 0's segments is not counted. The 64th
 * segment of CPU 0 starts at 1 ms + 63 x 10 us = 1.63 ms; the window is [1 ms, 1.63 ms).
 */
static void test_window_segments(void **state)
{
	struct loop_segment segs[2001];
	struct run_result r = { 0 };
	struct run_results res = { &r, 1 };
	int64_t from = -1, to = -1;
	int k, n = 0;

	(void)state;
	for (k = 0; k < 1000; k++) {
		segs[n++] = (struct loop_segment){ 1000000 + k * 10000, 1010000 + k * 10000, 0, 1 + k % 3, false };
		segs[n++] = (struct loop_segment){ 1002000 + k * 10000, 1003000 + k * 10000, 0, 0, false };
	}
	segs[n++] = (struct loop_segment){ 1000000, 11000000, 1, 4, false };
	r.segs = segs;
	r.nr_segs = (size_t)n;
	html_default_window(&res, &from, &to);
	assert_int_equal(from, 1000000);
	assert_int_equal(to, 1000000 + (HTML_LANE_SEGS - 1) * 10000);
}

/*
 * The same end to end: tbench with 8 clients on skl (16 tasks on 8 CPUs: no CPU idles once
 * the pairs are placed) without --from/--to draws at most HTML_LANE_SEGS task rects per
 * lane and kernel work in them, not every segment of the run (was 84 000 rects, 11.5 MB).
 */
static void test_report_workload_busy_window(void **state)
{
	char args[512];
	char *html, *p;
	long rects = 0;

	(void)state;
	snprintf(args, sizeof(args),
		 "report --workload tbench --clients 8 --duration-s 0.05 -m skl -g menu -o %s",
		 tmp_path("busy.html"));
	assert_int_equal(run_idlesim(args), 0);
	html = slurp_tmp("busy.html");
	assert_string_equal(xml_check(html), "");
	for (p = html; (p = strstr(p, "<rect class=\"task\"")); p++)
		rects++;
	assert_true(rects > 8);
	/* 8 CPUs x 2 lanes (menu, oracle) x 64 tasks, each with kernel work, + one at each edge */
	assert_true(rects <= 8 * 2 * (2 * HTML_LANE_SEGS + 2));
	free(html);
}

/*
 * compare --format html: well-formed and self-contained; one bar per cell and governor,
 * each with the JSON's mean, stddev and significance (the same comparison in JSON).
 */
/* Control characters (but tab, newline, CR) cannot appear in XML 1.0, even as references:
 * they become U+FFFD; markup characters are escaped as entities. */
static void test_escape_control(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	html_escape(f, "a\001b<\177\tc\"&");
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "a&#xFFFD;b&lt;&#xFFFD;\tc&quot;&amp;");
	free(buf);
}

static void test_compare_html(void **state)
{
	static const char cmp[] = "compare --workload tbench --clients 1,2 -g menu@6.19,teo@6.19 "
				  "-n 2 --duration-s 0.05 --metric throughput --metric latency_mean";
	char args[512], v[64];
	const char *p;
	char *html;
	json_t *root, *cells;
	size_t bars = 0;

	(void)state;
	snprintf(args, sizeof(args), "%s --format html -o %s", cmp, tmp_path("c.html"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "%s --format json -o %s", cmp, tmp_path("c.json"));
	assert_int_equal(run_idlesim(args), 0);
	html = slurp_tmp("c.html");
	assert_string_equal(xml_check(html), "");
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "http"));
	assert_non_null(strstr(html, "idlesim compare --workload tbench --clients 1,2"));
	root = load_json_tmp("c.json");
	cells = json_object_get(root, "cells");
	assert_int_equal(json_array_size(cells), 4); /* 2 metrics x 2 values */
	/* The bars come in the JSON's order: cell by cell, the baseline first. */
	for (p = html; (p = strstr(p, "<rect class=\"bar\"")); p++, bars++) {
		json_t *g = json_array_get(json_object_get(json_array_get(cells, bars / 2), "governors"),
					   bars % 2);

		assert_non_null(g);
		attr(p, "data-gov", v, sizeof(v));
		assert_string_equal(v, json_string_value(json_object_get(g, "governor")));
		attr(p, "data-mean", v, sizeof(v));
		assert_true(fabs(strtod(v, NULL) - json_number_value(json_object_get(g, "mean"))) <
			    1e-9 * (1 + fabs(strtod(v, NULL))));
		attr(p, "data-stddev", v, sizeof(v));
		assert_true(fabs(strtod(v, NULL) - json_number_value(json_object_get(g, "stddev"))) <
			    1e-9 * (1 + fabs(strtod(v, NULL))));
		attr(p, "data-significant", v, sizeof(v));
		assert_int_equal(atoi(v), json_is_true(json_object_get(g, "significant")));
	}
	assert_int_equal(bars, 8);
	json_decref(root);
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml_checker),
		cmocka_unit_test(test_report_demo),
		cmocka_unit_test(test_report_window),
		cmocka_unit_test(test_report_workload),
		cmocka_unit_test(test_window_segments),
		cmocka_unit_test(test_report_workload_busy_window),
		cmocka_unit_test(test_compare_html),
		cmocka_unit_test(test_escape_control),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
