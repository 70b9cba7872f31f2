// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sweep.c - idlesim sweep beyond test_cli's spec/resume/shard tests: the Pareto
 * frontier on hand-made points, `sweep summary` on a hand-written results file, the
 * workloads and listed points of a spec, merge in windows, and the configuration record
 * of the HTML pages. Expectations are worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/study/sweep.h"
#include "sim/study/sweep_int.h"

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("sweep");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

static int idlesim(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int idlesim(const char *fmt, ...)
{
	char args[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return run_idlesim(args);
}

/* The binary exits 2 and says msg on stderr. */
static void expect_error(const char *msg)
{
	char *err = slurp_tmp("err");

	if (!strstr(err, msg))
		fail_msg("expected '%s' in: %s", msg, err);
	free(err);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

/* ---- the frontier ---- */

static struct sweep_pt pt(long index, double x, double y)
{
	struct sweep_pt p = { .index = index, .has = 3 };

	p.v[0] = x;
	p.v[1] = y;
	return p;
}

static void expect_front(struct sweep_front *f, const long *idx, size_t n)
{
	size_t i;

	sweep_front_sort(f);
	assert_int_equal(f->n, n);
	for (i = 0; i < n; i++)
		assert_int_equal(f->p[i].index, idx[i]);
}

/*
 * Both objectives minimised. 2 (3,5) is worse than 1 (2,5) in x and equal in y: dominated;
 * 3 equals 1 and 6 equals 0: equal points dominate neither other, both stay; 5 (5,5) and
 * 7, 8 (3,6; a dominated point and its duplicate) lose to 1. Left: 0 and 6 (1,10), 1 and 3
 * (2,5), 4 (4,1), sorted by x then index. The order of adding does not matter.
 */
static void test_front_ties(void **state)
{
	const struct sweep_pt p[] = { pt(0, 1, 10), pt(1, 2, 5), pt(2, 3, 5), pt(3, 2, 5), pt(4, 4, 1),
				      pt(5, 5, 5),  pt(6, 1, 10), pt(7, 3, 6), pt(8, 3, 6) };
	const long want[] = { 0, 6, 1, 3, 4 };
	struct sweep_front f = { { false, false }, NULL, 0, 0 };
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(p); i++)
		assert_int_equal(sweep_front_add(&f, &p[i]), 0);
	expect_front(&f, want, SIM_ARRAY_SIZE(want));
	sweep_front_free(&f);
	for (i = SIM_ARRAY_SIZE(p); i-- > 0;)
		assert_int_equal(sweep_front_add(&f, &p[i]), 0);
	expect_front(&f, want, SIM_ARRAY_SIZE(want));
	sweep_front_free(&f);
}

/* One point is its own frontier; a point without both values is left out. */
static void test_front_one(void **state)
{
	struct sweep_front f = { { false, false }, NULL, 0, 0 };
	struct sweep_pt half = pt(1, 0, 0);
	const long want[] = { 7 };
	const struct sweep_pt one = pt(7, 3, 3);

	(void)state;
	half.has = 1; /* x only: would dominate everything if it counted */
	assert_int_equal(sweep_front_add(&f, &one), 0);
	assert_int_equal(sweep_front_add(&f, &half), 0);
	expect_front(&f, want, 1);
	sweep_front_free(&f);
}

/*
 * x minimised, y maximised (energy against hits_pct): 1 (2,60) beats 2 (2,55) on y at equal
 * x; 3 (0.5,40), 0 (1,50) and 1 each trade x for y. Sorted by x: 3, 0, 1.
 */
static void test_front_directions(void **state)
{
	const struct sweep_pt p[] = { pt(0, 1, 50), pt(1, 2, 60), pt(2, 2, 55), pt(3, 0.5, 40) };
	const long want[] = { 3, 0, 1 };
	struct sweep_front f = { { false, true }, NULL, 0, 0 };
	size_t i;

	(void)state;
	assert_true(sweep_metric_higher_is_better("hits_pct"));
	assert_true(sweep_metric_higher_is_better("throughput"));
	assert_false(sweep_metric_higher_is_better("energy_j"));
	for (i = 0; i < SIM_ARRAY_SIZE(p); i++)
		assert_int_equal(sweep_front_add(&f, &p[i]), 0);
	expect_front(&f, want, SIM_ARRAY_SIZE(want));
	sweep_front_free(&f);
}

/* ---- sweep summary on a hand-written results file ---- */

#define MENU_DEF "\"decay\":8,\"resolution\":1024,\"max_interesting_us\":50000,\"variance_max\":400,\"ratio_sq\":36"
#define TEO_REST "\"pulse\":1024,\"residency_threshold_ns\":15000,\"latency_threshold_ns\":7500"

/* One result line: trace, governor, tunables, set, and energy_j, p99, hits_pct. The
 * defaults of menu@6.19 and teo@6.19 as `idlesim governors` lists them. */
static void line(FILE *f, long index, const char *trace, const char *gov, const char *tun,
		 const char *set, double e, double p99, double hits)
{
	fprintf(f,
		"{\"spec\":\"0123456789abcdef\",\"idlesim_version\":\"0.1.0\",\"index\":%ld,"
		"\"total\":6,\"config\":{\"governor\":\"%s\",\"tunables\":{%s},\"set\":[%s],"
		"\"latency_limit_ns\":null,\"hz\":250,\"machine\":{\"name\":\"skl\"},"
		"\"trace\":{\"name\":\"%s\"}},\"metrics\":{\"energy_j\":%g,"
		"\"wake_latency_p99_ns\":%g,\"hits_pct\":%g}}\n",
		index, gov, tun, set, trace, e, p99, hits);
}

/*
 * Group t (points 0-4) and group u (point 5), written out of order:
 *   0 menu defaults            E 5.0  p99 100  hits 50
 *   1 menu threshold 5         E 4.0  p99 300  hits 60
 *   2 menu threshold 10        E 4.5  p99 300  hits 40   (1 beats it: less E, same p99)
 *   3 teo defaults             E 6.0  p99  50  hits 65
 *   4 teo decay_shift 2        E 6.0  p99  50  hits 70   (equal to 3 on E and p99)
 *   5 (u) menu defaults        E 1.0  p99   1  hits 10
 * Best E: 1 (4.0); best p99: 3 (50, tied with 4 on p99 and E: the lower index); frontier
 * over E and p99, by E: 1 (4,300), 0 (5,100), 3 and 4 (6,50); defaults: 0 and 3. Over
 * hits_pct (maximised) and E: 4 beats 3 (more hits, same E), 1 beats 0 and 2; 4 (70) and
 * 1 (60) trade hits for energy: frontier 4, 1. Over p99 and hits_pct: best p99 is 4 (tied
 * with 3 on p99, more hits), not the lower index 3.
 */
static void write_results(void)
{
	FILE *f = fopen(tmp_path("r.jsonl"), "w");

	assert_non_null(f);
	line(f, 5, "u", "menu@6.19", MENU_DEF ",\"residency_threshold_us\":15", "", 1, 1, 10);
	line(f, 3, "t", "teo@6.19", "\"decay_shift\":3," TEO_REST, "", 6, 50, 65);
	line(f, 0, "t", "menu@6.19", MENU_DEF ",\"residency_threshold_us\":15", "", 5, 100, 50);
	line(f, 4, "t", "teo@6.19", "\"decay_shift\":2," TEO_REST, "\"teo.decay_shift=2\"", 6, 50,
	     70);
	line(f, 2, "t", "menu@6.19", MENU_DEF ",\"residency_threshold_us\":10",
	     "\"menu.residency_threshold_us=10\"", 4.5, 300, 40);
	line(f, 1, "t", "menu@6.19", MENU_DEF ",\"residency_threshold_us\":5",
	     "\"menu.residency_threshold_us=5\"", 4, 300, 60);
	fclose(f);
}

static void expect_indexes(json_t *arr, const long *idx, size_t n)
{
	size_t i;

	assert_int_equal(json_array_size(arr), n);
	for (i = 0; i < n; i++)
		assert_int_equal(json_integer_value(json_object_get(json_array_get(arr, i), "index")),
				 idx[i]);
}

static void test_summary_json(void **state)
{
	const long front[] = { 1, 0, 3, 4 }, defs[] = { 0, 3 }, front_hits[] = { 4, 1 };
	json_t *root, *t, *best;

	(void)state;
	write_results();
	assert_int_equal(idlesim("sweep summary %s --format json -o %s", tmp_path("r.jsonl"),
				 tmp_path("s.json")),
			 0);
	root = load_json_tmp("s.json");
	assert_int_equal(json_integer_value(json_object_get(root, "points")), 6);
	assert_int_equal(json_array_size(json_object_get(root, "groups")), 2);
	t = json_array_get(json_object_get(root, "groups"), 0); /* t: point 0 comes first */
	assert_string_equal(json_string_value(json_object_get(t, "input")), "t");
	assert_int_equal(json_integer_value(json_object_get(t, "points")), 5);
	best = json_object_get(t, "best");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(best, "energy_j"), "index")), 1);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(best, "wake_latency_p99_ns"), "index")),
			 3);
	expect_indexes(json_object_get(t, "frontier"), front, SIM_ARRAY_SIZE(front));
	expect_indexes(json_object_get(t, "defaults"), defs, SIM_ARRAY_SIZE(defs));
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(t, "frontier"), 1),
						 "default")));
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(t, "frontier"), 0), "set")),
			    "menu.residency_threshold_us=5");
	json_decref(root);

	assert_int_equal(idlesim("sweep summary %s --objective hits_pct,energy_j --format json "
				 "-o %s",
				 tmp_path("r.jsonl"), tmp_path("s.json")),
			 0);
	root = load_json_tmp("s.json");
	t = json_array_get(json_object_get(root, "groups"), 0);
	expect_indexes(json_object_get(t, "frontier"), front_hits, SIM_ARRAY_SIZE(front_hits));
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(json_object_get(t, "best"), "hits_pct"), "index")),
			 4);
	json_decref(root);

	assert_int_equal(idlesim("sweep summary %s --objective wake_latency_p99_ns,hits_pct "
				 "--format json -o %s",
				 tmp_path("r.jsonl"), tmp_path("s.json")),
			 0);
	root = load_json_tmp("s.json");
	t = json_array_get(json_object_get(root, "groups"), 0);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(json_object_get(t, "best"), "wake_latency_p99_ns"),
				 "index")),
			 4);
	json_decref(root);
}

/* The text table: a row per best point, frontier point and default, "(default)" marked. */
static void test_summary_text(void **state)
{
	char *out;

	(void)state;
	write_results();
	assert_int_equal(idlesim("sweep summary %s", tmp_path("r.jsonl")), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "t on skl: 5 points\n"));
	assert_non_null(strstr(out, "u on skl: 1 points\n"));
	/* t: 2 best rows, 4 frontier rows, 2 default rows; u: 2 + 1 + 1 */
	assert_int_equal(count(out, "\nbest energy_j "), 2);
	assert_int_equal(count(out, "\nfrontier "), 5);
	assert_int_equal(count(out, "\ndefault "), 3);
	/* point 0's frontier row: menu@6.19, HZ 250, no limit, its set empty, the defaults;
	 * columns as wide as their widest cell ("best wake_latency_p99_ns" 24, "point" 5,
	 * "menu@6.19" 9, "250" 3, "limit" 5), numbers right-aligned */
	assert_non_null(strstr(out, "\nfrontier                 |     0 | menu@6.19 | 250 |  none | "
				    "none (default)"));
	free(out);
}

/* The page: every point of a group drawn, the frontier joined, defaults framed; no script,
 * nothing fetched. */
static void test_summary_html(void **state)
{
	char *out;

	(void)state;
	write_results();
	assert_int_equal(idlesim("sweep summary %s --format html -o %s", tmp_path("r.jsonl"),
				 tmp_path("s.html")),
			 0);
	out = slurp_tmp("s.html");
	assert_int_equal(count(out, "<circle class=\"pt\""), 6); /* 5 in t, 1 in u */
	assert_int_equal(count(out, "<circle class=\"fr\""), 5); /* 4 in t, 1 in u */
	assert_int_equal(count(out, "<polyline class=\"fr\""), 2);
	assert_int_equal(count(out, "<rect class=\"def\""), 3);	/* 0, 3 and 5 */
	assert_non_null(strstr(out, "data-index=\"2\" data-x=\"4.5\" data-y=\"300\""));
	assert_null(strstr(out, "<script"));
	assert_null(strstr(out, "http"));
	free(out);
}

static void test_summary_errors(void **state)
{
	(void)state;
	write_results();
	assert_int_equal(idlesim("sweep summary %s --objective energy_j,nosuch", tmp_path("r.jsonl")),
			 2);
	expect_error("unknown objective 'nosuch': no point of");
	expect_error("(metrics: energy_j, wake_latency_p99_ns, hits_pct)");
	assert_int_equal(idlesim("sweep summary %s --objective energy_j", tmp_path("r.jsonl")), 2);
	expect_error("at least two metrics");
	assert_int_equal(idlesim("sweep summary %s --objective energy_j,energy_j",
				 tmp_path("r.jsonl")),
			 2);
	expect_error("given twice");
	assert_int_equal(idlesim("sweep summary %s --format xml", tmp_path("r.jsonl")), 2);
	write_tmp("bad.jsonl", "{\"spec\":\"0123456789abcdef\",\"idlesim_version\":\"0.1.0\","
			       "\"index\":0,\"total\":2}\nnot json\n");
	assert_int_equal(idlesim("sweep summary %s -o %s", tmp_path("bad.jsonl"),
				 tmp_path("x.txt")),
			 2);
	expect_error("bad.jsonl:1:1: a result line without config.governor");
	write_tmp("bad.jsonl", "");
	assert_int_equal(idlesim("sweep summary %s -o %s", tmp_path("bad.jsonl"),
				 tmp_path("x.txt")),
			 2);
	expect_error("no results to summarize");
	assert_int_equal(access(tmp_path("x.txt"), F_OK), -1);
}

/* ---- the results reader ---- */

#define HEAD "{\"spec\":\"0123456789abcdef\",\"idlesim_version\":\"0.1.0\",\"index\":1,\"total\":6,\"config\":{"

/* The start of a result line is every prefix of its head, and anything after "config":{. */
static void test_tail_ok(void **state)
{
	static const struct sweep_want want = { "0123456789abcdef", "0.1.0", 6 },
					other = { "fedcba9876543210", "0.1.0", 6 },
					bigger = { "0123456789abcdef", "0.1.0", 60 };
	const char *head = HEAD "\"governor\":\"menu";
	size_t n;

	(void)state;
	for (n = 1; n <= strlen(head); n++) {
		assert_true(sweep_tail_ok(head, n, &want));
		assert_true(sweep_tail_ok(head, n, NULL));
		/* another spec's differs at its hash's first digit, the 10th byte */
		assert_int_equal(sweep_tail_ok(head, n, &other), n < 10);
	}
	/* "total":6 is a prefix of "total":60, but 6 then , is not */
	assert_false(sweep_tail_ok(head, strlen(HEAD), &bigger));
	assert_true(sweep_tail_ok(HEAD, strlen("{\"spec\":\"0123456789abcdef\",\"idlesim_version\":"
					       "\"0.1.0\",\"index\":1,\"total\":6"),
				  &bigger));
	assert_false(sweep_tail_ok("my notes", 8, NULL));
	assert_false(sweep_tail_ok("{\"spec\":\"0123456789abcdef0\"", 27, NULL)); /* 17 digits */
	assert_false(sweep_tail_ok("{\"spec\":\"ABC", 12, NULL)); /* lower-case hex only */
	head = "{\"spec\":\"0123456789abcdef\",\"idlesim_version\":\"0.1.0\",\"index\":,";
	assert_false(sweep_tail_ok(head, strlen(head), NULL)); /* an index without digits */
	assert_false(sweep_tail_ok(" {", 2, NULL));
}

static int count_cb(void *ud, const struct sweep_line *li, const char *line, size_t len,
		    long lineno, struct sim_error *err)
{
	(void)li;
	(void)line;
	(void)len;
	(void)lineno;
	(void)err;
	++*(int *)ud;
	return 0;
}

/* Read the file of n bytes: 0 or -1, with the error text in msg. */
static int read_results(const char *bytes, size_t n, const struct sweep_want *want,
			struct sweep_read *rd, int *lines, char *msg, size_t msglen)
{
	struct sim_error err = { 0 };
	FILE *f = fopen(tmp_path("rr.jsonl"), "wb");
	int rc;

	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	fclose(f);
	*lines = 0;
	rc = sweep_each_line(tmp_path("rr.jsonl"), want, false, rd, count_cb, lines, &err);
	snprintf(msg, msglen, "%d:%d: %s", err.line, err.column, err.text);
	return rc;
}

/* Complete lines are passed, a partial one counted apart; NUL, long lines and a partial
 * line that is no result's start are refused at their line (and column for a NUL). */
static void test_results_reader(void **state)
{
	static const struct sweep_want want = { "0123456789abcdef", "0.1.0", 6 };
	const char *one = HEAD "}}\n";
	struct sweep_read rd;
	struct sim_error err = { 0 };
	char msg[512], *buf;
	size_t n1 = strlen(one), n;
	int lines;

	(void)state;
	buf = malloc(3 * n1 + (2u << 20));
	assert_non_null(buf);
	sprintf(buf, "%s%s" HEAD "\"gov", one, one);
	n = strlen(buf);
	assert_int_equal(read_results(buf, n, &want, &rd, &lines, msg, sizeof(msg)), 0);
	assert_int_equal(lines, 2);
	assert_int_equal(rd.complete, (long long)(2 * n1));
	assert_int_equal(rd.partial, (long long)(n - 2 * n1));
	assert_int_equal(rd.longest, n1);
	/* a NUL in the partial line: line 3, its column */
	buf[2 * n1 + 5] = '\0';
	assert_int_equal(read_results(buf, n, &want, &rd, &lines, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "3:6: a NUL byte: not a sweep result line");
	/* an empty line, first or later (found by fuzz_sweep_results: it wrote through a NULL
	 * buffer) */
	assert_int_equal(read_results("\n9\",", 4, &want, &rd, &lines, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "1:1: not a sweep result line (spec"));
	sprintf(buf, "%s\n", one);
	assert_int_equal(read_results(buf, strlen(buf), NULL, &rd, &lines, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "2:1: not a sweep result line (spec"));
	/* garbage as the last line; as the last complete line */
	sprintf(buf, "%s%sgarbage", one, one);
	assert_int_equal(read_results(buf, strlen(buf), &want, &rd, &lines, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "3:1: not a sweep result line of this spec, nor the start"));
	assert_int_equal(read_results(buf, strlen(buf), NULL, &rd, &lines, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "3:1: not a sweep result line, nor the start"));
	/* the generic reader holds a partial line to the previous lines' spec */
	sprintf(buf, "%s{\"spec\":\"f", one);
	assert_int_equal(read_results(buf, strlen(buf), NULL, &rd, &lines, msg, sizeof(msg)), -1);
	sprintf(buf, "{\"spec\":\"f");
	assert_int_equal(read_results(buf, strlen(buf), NULL, &rd, &lines, msg, sizeof(msg)), 0);
	assert_int_equal(rd.partial, 10);
	/* a line of exactly 1 MiB is read (and is no result); one byte more is refused */
	memcpy(buf, one, n1);
	memset(buf + n1, ' ', 1u << 20);
	buf[n1 + (1u << 20)] = '\n';
	assert_int_equal(read_results(buf, n1 + (1u << 20) + 1, &want, &rd, &lines, msg,
				      sizeof(msg)),
			 -1);
	assert_non_null(strstr(msg, "2:1: not a sweep result line (spec"));
	buf[n1 + (1u << 20)] = ' ';
	buf[n1 + (1u << 20) + 1] = '\n';
	assert_int_equal(read_results(buf, n1 + (1u << 20) + 2, &want, &rd, &lines, msg,
				      sizeof(msg)),
			 -1);
	assert_string_equal(msg, "2:1: a line longer than 1 MiB (1048576 bytes): not a sweep "
				 "result line");
	free(buf);
	/* not regular files: refused before any read */
	assert_int_equal(sweep_each_line("/dev/zero", NULL, false, NULL, count_cb, &lines, &err),
			 -1);
	assert_non_null(strstr(err.text, "a character device, not a regular file"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(sweep_each_line(tmpdir, NULL, true, NULL, count_cb, &lines, &err), -1);
	assert_non_null(strstr(err.text, "a directory, not a regular file"));
	memset(&err, 0, sizeof(err));
	/* a missing file is empty when missing_ok */
	assert_int_equal(sweep_each_line(tmp_path("nosuch"), NULL, true, &rd, count_cb, &lines,
					 &err),
			 0);
	assert_int_equal(rd.complete + rd.partial, 0);
}

/* ---- spec: listed points, workloads ---- */

static const char one_trace[] = "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer\n";

/*
 * Listed points over menu and teo: {teo.decay_shift 2} fits teo only, {menu.decay 4} menu
 * only, {} both: menu runs 2 points ({menu.decay 4}, {}), teo 2 ({teo 2}, {}), per the
 * one trace and machine: 4 points, menu's first (governor order), each in listed order.
 */
static void test_listed_points(void **state)
{
	static const char *const sets[] = { "[\"menu.decay=4\"]", "[]", "[\"teo.decay_shift=2\"]",
					    "[]" };
	char spec[512], *out, *p;
	int i;

	(void)state;
	write_tmp("one.trace", one_trace);
	snprintf(spec, sizeof(spec),
		 "{\"traces\": [\"%s\"], \"machines\": [\"skl\"], \"governors\": [\"menu\", "
		 "\"teo\"],\n \"points\": [{\"teo.decay_shift\": 2}, {\"menu.decay\": 4}, {}]}\n",
		 tmp_path("one.trace"));
	write_tmp("p.json", spec);
	assert_int_equal(idlesim("sweep %s -o %s", tmp_path("p.json"), tmp_path("p.jsonl")), 0);
	out = slurp_tmp("p.jsonl");
	assert_int_equal(count(out, "\n"), 4);
	for (p = out, i = 0; i < 4; i++, p = strchr(p, '\n') + 1) {
		char want[96];

		snprintf(want, sizeof(want), "\"index\":%d,\"total\":4,", i);
		assert_non_null(strstr(p, want));
		snprintf(want, sizeof(want), "\"set\":%s,", sets[i]);
		assert_true(strstr(p, want) && strstr(p, want) < strchr(p, '\n'));
	}
	free(out);
}

/* file:line:column of each bad field of points and workloads; exit 2, no results file. */
static void test_spec_errors(void **state)
{
	static const struct {
		const char *fields, *msg;
	} bad[] = {
		/* line 2 is ` "points": [...]`: "points" 2-9, ": " 10-11, the list at 12, its
		 * first object at 13 */
		{ "\"points\": [{\"menu.nosuch\": 1}]",
		  "s.json:2:13: points[0]: unknown tunable 'menu.nosuch'" },
		{ "\"points\": [{\"menu.decay\": 1, \"teo.decay_shift\": 2}]",
		  "s.json:2:13: points[0] fits none of the swept governors" },
		{ "\"points\": [{\"menu.decay\": \"x\"}]", "s.json:2:13: points[0]: menu.decay must be an integer" },
		{ "\"points\": []", "s.json:2:12: points must be a non-empty list" },
		{ "\"points\": [{}], \"tunables\": {\"menu.decay\": [1]}",
		  "s.json:2:12: give either tunables" },
		/* "workloads" 2-12, ": " 13-14, the list at 15, its first entry at 16 */
		{ "\"workloads\": [\"nosuch\"]", "s.json:2:16: unknown workload 'nosuch'" },
		/* {"name": "tbench", "clientz": 1}: `{` at 16, `"name": "tbench", ` in 17-34,
		 * "clientz" in 35-43, ": " 44-45, its value at 46 */
		{ "\"workloads\": [{\"name\": \"tbench\", \"clientz\": 1}]",
		  "s.json:2:46: workload tbench has no parameter 'clientz'" },
		{ "\"workloads\": [{\"name\": \"tbench\", \"clients\": 0}]",
		  "s.json:2:16: workloads[0]: tbench --clients: 0 is out of range" },
		/* "duration_s" in 2-13, ": " 14-15, the value at 16 */
		{ "\"duration_s\": 0", "s.json:2:16: duration_s must be a number" },
	};
	char text[512];
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(bad); i++) {
		snprintf(text, sizeof(text),
			 "{\"traces\": [\"t\"], \"machines\": [\"skl\"], \"governors\": [\"menu\", "
			 "\"teo\"],\n %s}\n",
			 bad[i].fields);
		write_tmp("s.json", text);
		assert_int_equal(idlesim("sweep %s -o %s", tmp_path("s.json"), tmp_path("res.jsonl")),
				 2);
		expect_error(bad[i].msg);
		assert_int_equal(access(tmp_path("res.jsonl"), F_OK), -1);
	}
	write_tmp("s.json", "{\"machines\": [\"skl\"], \"governors\": [\"menu\"]}");
	assert_int_equal(idlesim("sweep %s -o %s", tmp_path("s.json"), tmp_path("res.jsonl")), 2);
	expect_error("missing required field 'traces' or 'workloads'");
	/* hackbench pinned (placement 0) wants 8 CPUs by default; skl 1x1x1 has 1 */
	{
		json_t *m;

		assert_int_equal(idlesim("machines skl --json"), 0);
		m = load_json_tmp("out");
		json_object_set_new(m, "name", json_string("tiny"));
		json_object_set_new(m, "topology", json_pack("{s:i, s:i, s:i}", "packages", 1,
							     "cores", 1, "threads", 1));
		assert_int_equal(json_dump_file(m, tmp_path("m.json"), 0), 0);
		json_decref(m);
	}
	snprintf(text, sizeof(text),
		 "{\"workloads\": [{\"name\": \"hackbench\", \"placement\": 0}], "
		 "\"machines\": [\"%s\"], \"governors\": [\"menu\"]}",
		 tmp_path("m.json"));
	write_tmp("s.json", text);
	assert_int_equal(idlesim("sweep %s -o %s", tmp_path("s.json"), tmp_path("res.jsonl")), 2);
	expect_error("workload hackbench placement=0 needs 8 CPUs, but machine");
	assert_int_equal(access(tmp_path("res.jsonl"), F_OK), -1);
}

/*
 * A workload and a trace as the input axis, traces first: point 0 the trace, point 1
 * cyclictest (1 CPU, period 500 us) for 0.05 s with seed 7, HZ 250 (compare's default when
 * the spec sweeps none); its record names the workload, every parameter, seed, duration.
 */
static void test_workload_points(void **state)
{
	char spec[512];
	json_t *o;
	json_error_t je;
	char *out, *second;

	(void)state;
	write_tmp("one.trace", one_trace);
	snprintf(spec, sizeof(spec),
		 "{\"traces\": [\"%s\"], \"workloads\": [{\"name\": \"cyclictest\", "
		 "\"period-us\": 500}],\n \"machines\": [\"skl\"], \"governors\": [\"teo\"], "
		 "\"duration_s\": 0.05, \"seed\": 7}\n",
		 tmp_path("one.trace"));
	write_tmp("w.json", spec);
	assert_int_equal(idlesim("sweep %s -o %s", tmp_path("w.json"), tmp_path("w.jsonl")), 0);
	out = slurp_tmp("w.jsonl");
	assert_int_equal(count(out, "\n"), 2);
	assert_non_null(strstr(out, "\"trace\":{\"name\":"));
	second = strchr(out, '\n') + 1;
	o = json_loads(second, 0, &je);
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_object_get(o, "index")), 1);
	{
		json_t *c = json_object_get(o, "config"), *w = json_object_get(c, "workload");

		assert_string_equal(json_string_value(json_object_get(w, "name")), "cyclictest");
		assert_string_equal(json_string_value(json_object_get(w, "label")),
				    "cyclictest period-us=500");
		assert_int_equal(json_integer_value(json_object_get(json_object_get(w, "params"),
								    "period-us")),
				 500);
		assert_int_equal(json_integer_value(json_object_get(c, "seed")), 7);
		assert_int_equal(json_integer_value(json_object_get(c, "duration_ns")), 50000000);
		assert_int_equal(json_integer_value(json_object_get(c, "hz")), 250);
		assert_string_equal(json_string_value(json_object_get(c, "governor")), "teo@6.19");
	}
	assert_true(json_is_number(json_object_get(json_object_get(o, "metrics"), "energy_j")));
	json_decref(o);
	free(out);
	/* the summary groups them apart: the trace and the workload, each on skl */
	assert_int_equal(idlesim("sweep summary %s", tmp_path("w.jsonl")), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "cyclictest period-us=500 on skl: 1 points"));
	assert_non_null(strstr(out, "one.trace on skl: 1 points"));
	free(out);
}

/*
 * The spec's wake_latency reaches closed-loop points too (the merge of the workload axis
 * with the wake-latency model once lost it). `deepest` on skl enters C10 every time, and
 * every tbench wakeup is an IPI from C10, so the wake latency is C10's exit exactly: the
 * table's 890 us under "worst", and the typical value, half of it (docs/wake-latency.md: no
 * measurement for skl C10), 445 us under "typical".
 */
static void test_workload_wake_model(void **state)
{
	static const struct {
		const char *model;
		double lat_ns;
	} cases[] = { { "worst", 890000.0 }, { "typical", 445000.0 } };
	char spec[512];
	json_t *o, *c;
	json_error_t je;
	char *out;
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(cases); i++) {
		snprintf(spec, sizeof(spec),
			 "{\"workloads\": [{\"name\": \"tbench\", \"clients\": 1}], "
			 "\"machines\": [\"skl\"], \"governors\": [\"deepest\"], "
			 "\"wake_latency\": \"%s\", \"duration_s\": 0.05}\n",
			 cases[i].model);
		write_tmp("wm.json", spec);
		unlink(tmp_path("wm.jsonl"));
		assert_int_equal(idlesim("sweep %s -o %s", tmp_path("wm.json"),
					 tmp_path("wm.jsonl")),
				 0);
		out = slurp_tmp("wm.jsonl");
		o = json_loads(out, JSON_DISABLE_EOF_CHECK, &je);
		assert_non_null(o);
		c = json_object_get(o, "config");
		assert_string_equal(json_string_value(json_object_get(c, "wake_latency_model")),
				    cases[i].model);
		assert_true(json_real_value(json_object_get(json_object_get(o, "metrics"),
							    "wake_latency_mean_ns")) ==
			    cases[i].lat_ns);
		json_decref(o);
		free(out);
	}
}

/*
 * Merge in windows: with a budget smaller than a line, each window holds one point and
 * the shards are read once per point; the output is the same bytes as in one window.
 */
static void test_merge_windows(void **state)
{
	struct sim_error err = { 0 };
	const char *in[3];
	char spec[512], *a, *b;
	int i;

	(void)state;
	write_tmp("one.trace", one_trace);
	snprintf(spec, sizeof(spec),
		 "{\"traces\": [\"%s\"], \"machines\": [\"skl\"], \"governors\": [\"menu\"], "
		 "\"tunables\": {\"menu.decay\": {\"from\": 2, \"to\": 12, \"step\": 1}}}\n",
		 tmp_path("one.trace"));
	write_tmp("m.json", spec);
	for (i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "sh%d.jsonl", i);
		assert_int_equal(idlesim("sweep %s --shard %d/3 -o %s", tmp_path("m.json"), i,
					 tmp_path(name)),
				 0);
	}
	in[0] = strdup(tmp_path("sh0.jsonl"));
	in[1] = strdup(tmp_path("sh1.jsonl"));
	in[2] = strdup(tmp_path("sh2.jsonl"));
	assert_int_equal(sweep_merge(in, 3, tmp_path("one.jsonl"), &err), 0);
	assert_int_equal(sweep_merge_budget(in, 3, tmp_path("many.jsonl"), 1, &err), 0);
	a = slurp_tmp("one.jsonl");
	b = slurp_tmp("many.jsonl");
	assert_int_equal(count(a, "\n"), 11); /* decay 2..12 */
	assert_string_equal(a, b);
	free(a);
	free(b);
	for (i = 0; i < 3; i++)
		free((void *)in[i]);
}

/* ---- the configuration record of the HTML pages ---- */

/* report: --set menu.decay=4, a 100 us limit (100000 ns), C6 disabled, HZ 1000. */
static void test_html_config(void **state)
{
	char *out;

	(void)state;
	write_tmp("one.trace", one_trace);
	assert_int_equal(idlesim("report --trace %s --machine skl --governor menu --set menu.decay=4 "
				 "--latency-limit-us 100 --disable C6 --hz 1000 -o %s",
				 tmp_path("one.trace"), tmp_path("r.html")),
			 0);
	out = slurp_tmp("r.html");
	assert_non_null(strstr(out, "<h2 id=\"config\">Configuration</h2>"));
	assert_non_null(strstr(out, "<tr><th>--set applied</th><td>menu.decay=4</td></tr>"));
	assert_non_null(strstr(out, "<tr><th>latency limit</th><td>100000 ns</td></tr>"));
	assert_non_null(strstr(out, "<tr><th>disabled states</th><td>C6</td></tr>"));
	assert_non_null(strstr(out, "<tr><th>HZ</th><td>1000</td></tr>"));
	assert_non_null(strstr(out, "<td>decay=4 resolution=1024"));
	free(out);
	assert_int_equal(idlesim("compare --workload idle --governor menu,teo --iterations 1 "
				 "--duration-s 0.05 --set teo.decay_shift=2 --format html -o %s",
				 tmp_path("c.html")),
			 0);
	out = slurp_tmp("c.html");
	assert_non_null(strstr(out, "<h2 id=\"config\">Configuration</h2>"));
	assert_non_null(strstr(out, "--set applied: teo.decay_shift=2"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_front_ties),
		cmocka_unit_test(test_front_one),
		cmocka_unit_test(test_front_directions),
		cmocka_unit_test(test_summary_json),
		cmocka_unit_test(test_summary_text),
		cmocka_unit_test(test_summary_html),
		cmocka_unit_test(test_summary_errors),
		cmocka_unit_test(test_tail_ok),
		cmocka_unit_test(test_results_reader),
		cmocka_unit_test(test_listed_points),
		cmocka_unit_test(test_spec_errors),
		cmocka_unit_test(test_workload_points),
		cmocka_unit_test(test_workload_wake_model),
		cmocka_unit_test(test_merge_windows),
		cmocka_unit_test(test_html_config),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
