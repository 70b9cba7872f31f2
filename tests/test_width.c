// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_width.c - every text output fits 160 columns by layout (docs/cli.md, "Line width"):
 * each command's text on the demo and the test fixtures has no line over 160; the tables
 * split into parts still hold every number (parsed back and compared with the unsplit
 * table and with the JSON report); run --width is checked and applied.
 */
#include "tests/testbin.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("width");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

/* No line of text is wider than width; name the first that is. */
static void assert_fits(const char *what, const char *text, size_t width)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n > width)
			fail_msg("%s: a line of %zu columns (at most %zu): %.*s", what, n, width, (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* `idlesim ARGS` exits 0 and its stdout and stderr fit width. */
static void fits(const char *args, size_t width)
{
	char *out, *err;

	if (run_idlesim(args) != 0) {
		err = slurp_tmp("err");
		fail_msg("idlesim %s failed: %s", args, err);
	}
	out = slurp_tmp("out");
	err = slurp_tmp("err");
	assert_true(strlen(out) + strlen(err) > 0 || !strncmp(args, "gen", 3));
	assert_fits(args, out, width);
	assert_fits(args, err, width);
	free(out);
	free(err);
}

static void test_every_command_fits_160(void **state)
{
	static const char *const cmds[] = {
		"run",
		"run --per-cpu -m skl",
		"run --per-cpu",
		"run --explain 50",
		"run -m skl --explain 200",
		"compare --workload tbench --clients 1,2 -g menu,teo -n 2 -j 1",
		"compare --workload tbench --clients 1,2 -g menu,teo -n 2 -j 1 --style normalized",
		"check traces/expect-example.json -j 1",
		"check traces/expect-example.json -j 1 -v",
		"import tests/import/scenario.ftrace",
		"import tests/import/scenario.ftrace -m skl",
		"import tests/import/scenario-latency-us.ftrace -m skl",
		"import tests/import/scenario-unsorted.ftrace",
		"import tests/import/scenario.perf -m skl",
		"import tests/import/scenario-pt.perf",
		"import tests/import/scenario-pt.perf -m skl",
		"machines",
		"machines skl",
		"machines hsx",
		"machines bdx",
		"governors",
		"help",
		"help run",
	};
	char args[1024], spec[1024];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fits(cmds[i], 160);
	/* gen's messages, and a small sweep's summary */
	snprintf(args, sizeof(args), "gen --workload tbench -o %s/g.trace", tmpdir);
	fits(args, 160);
	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer\n");
	snprintf(spec, sizeof(spec),
		 "{\"traces\": [\"%s/one.trace\"], \"machines\": [\"skl\"],\n"
		 " \"governors\": [\"menu\", \"teo\"], \"hz\": [250, 1000],\n"
		 " \"tunables\": {\"teo.decay_shift\": [1, 2, 3]}}\n",
		 tmpdir);
	write_tmp("sw.json", spec);
	snprintf(args, sizeof(args), "sweep %s/sw.json -o %s/sw.jsonl", tmpdir, tmpdir);
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "sweep summary %s/sw.jsonl", tmpdir);
	fits(args, 160);
}

/*
 * compare with every registered governor (16): wider than 160 columns in one table, so
 * printed in parts that each repeat the baseline's column. Every governor's mean is there:
 * the Amean energy_j rows hold 16 cells plus the baseline once more per part after the
 * first, and the normalized style's rows hold 16 cells plus the same repeats.
 */
static void test_compare_many_governors(void **state)
{
	static const char govs[] = "oracle,oracle-energy,shallowest,deepest,menu@4.18,menu@5.4,"
				   "menu@6.1,menu@6.6,menu@6.12,menu@6.19,teo@5.1,teo@5.10,"
				   "teo@5.14,teo@6.12,teo@6.19,ladder@6.12";
	char args[1024];
	char *out, *p, *end;
	int cells = 0, parts = 0, norm_cells = 0, norm_parts = 0;

	(void)state;
	snprintf(args, sizeof(args),
		 "compare --workload idle -m skl -g %s -n 2 -j 1 --duration-s 0.05", govs);
	fits(args, 160);
	out = slurp_tmp("out");
	for (p = out; (p = strstr(p, "\nAmean     energy_j ")); p++) {
		parts++;
		/* each cell is "VALUE (PCT%)" or "VALUE *PCT%*": one % a cell */
		for (const char *q = p + 1; *q && *q != '\n'; q++)
			cells += *q == '%';
	}
	assert_int_equal(cells, 16 + parts - 1);
	assert_true(parts >= 4);
	free(out);
	strncat(args, " --style normalized", sizeof(args) - strlen(args) - 1);
	fits(args, 160);
	out = slurp_tmp("out");
	/* the first block (energy_j), up to the next: its "Case:" lines and the row after each */
	p = strstr(out, "Test          : idle on skl, energy_j");
	assert_non_null(p);
	end = strstr(p + 1, "Test          :");
	assert_non_null(end);
	for (; (p = strstr(p, "\nCase:")) && p < end; p++) {
		const char *row = strchr(p + 1, '\n') + 1;

		norm_parts++;
		for (; *row && *row != '\n'; row++)
			norm_cells += *row == '[';
	}
	assert_int_equal(norm_cells, 16 + norm_parts - 1);
	assert_true(norm_parts >= 2);
	free(out);
}

/* --width: applied to every line of run's text, and checked. */
static void test_width_option(void **state)
{
	char *err;

	(void)state;
	fits("run -m skl --per-cpu --explain 100 --width 80", 80);
	fits("run -m skl -g teo --explain 20 --width 60", 60);
	assert_int_equal(run_idlesim("run -m skl -g oracle --width 59"), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, "--width 59: must be 60..1000"));
	free(err);
	assert_int_equal(run_idlesim("run -m skl -g oracle --width wide"), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, "--width 'wide'"));
	free(err);
	/* to a file or a pipe, $COLUMNS does not matter: 160 */
	assert_int_equal(sh("cd " SRC " && COLUMNS=70 " BIN " run -m skl -g teo --explain 20 >"
			    "/dev/null"), 0);
}

/*
 * The tables of a text report as "RUN|COLUMN|ROW=VALUE" entries, sorted: every line that
 * starts with "trace " or "CPU " heads a table (part), the rows under it (as many fields as
 * the header) are its cells; the key columns (trace, machine and governor; or CPU) name the
 * row. RUN counts the "== " headers before the table (0 for the summary).
 */
struct cells {
	char **v;
	size_t n, cap;
};

static void cells_add(struct cells *c, const char *s)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		assert_non_null(c->v);
	}
	c->v[c->n] = strdup(s);
	assert_non_null(c->v[c->n]);
	c->n++;
}

static int split_fields(char *line, char **f, int max)
{
	int n = 0;
	char *tok;

	for (tok = strtok(line, " "); tok && n < max; tok = strtok(NULL, " "))
		f[n++] = tok;
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void parse_tables(const char *text, struct cells *c)
{
	char *copy = strdup(text), *line, *save = NULL, head[512], *hf[64], *rf[64], entry[1024];
	int run = 0, nh = 0, keys = 0, nr, k;

	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "== ", 3) || !strncmp(line, "\n== ", 4)) {
			run++;
			nh = 0;
			continue;
		}
		if (!strncmp(line, "trace ", 6) || !strncmp(line, "CPU ", 4)) {
			snprintf(head, sizeof(head), "%s", line);
			nh = split_fields(head, hf, 64);
			keys = line[0] == 't' ? 3 : 1;
			continue;
		}
		if (!nh)
			continue;
		{
			char row[512], key[256] = "";

			snprintf(row, sizeof(row), "%s", line);
			nr = split_fields(row, rf, 64);
			if (nr != nh) {
				nh = 0;
				continue;
			}
			for (k = 0; k < keys; k++)
				snprintf(key + strlen(key), sizeof(key) - strlen(key), "%s%s", k ? "/" : "", rf[k]);
			for (k = keys; k < nh; k++) {
				snprintf(entry, sizeof(entry), "%d|%s|%s=%s", run, hf[k], key, rf[k]);
				cells_add(c, entry);
			}
		}
	}
	free(copy);
	qsort(c->v, c->n, sizeof(*c->v), cmp_str);
}

static void cells_free(struct cells *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static char *run_text(const char *args)
{
	if (run_idlesim(args) != 0)
		fail_msg("idlesim %s failed", args);
	return slurp_tmp("out");
}

/* The summary table cell of column col in the row trace/machine/governor, or NULL. */
static const char *cell(const struct cells *c, const char *col, const char *row)
{
	char want[512];
	size_t i, n;

	n = (size_t)snprintf(want, sizeof(want), "0|%s|%s=", col, row);
	for (i = 0; i < c->n; i++)
		if (!strncmp(c->v[i], want, n))
			return c->v[i] + n;
	return NULL;
}

/* The number in text agrees with the JSON's to the decimals it is printed with. */
static void assert_close(const char *what, const char *text, double want, int decimals)
{
	double got;

	assert_non_null(text);
	got = strtod(text, NULL);
	if (fabs(got - want) > 0.5 * pow(10, -decimals) * 1.0001 + 1e-12)
		fail_msg("%s: text %s, JSON %.12g", what, text, want);
}

/*
 * The summary table, split at --width 80 and at the default 160, holds the same cells as
 * unsplit (--width 1000), and they are the JSON report's numbers; the state tables split at
 * --width 60 hold the same cells as unsplit, per CPU.
 */
static void test_split_tables_keep_every_number(void **state)
{
	static const char *const widths[] = { "80", "160" };
	struct cells whole = { 0 }, split = { 0 };
	char *text, *js, args[256];
	json_error_t je;
	json_t *root, *run;
	size_t i, r;

	(void)state;
	text = run_text("run -m skl,hsx --per-cpu --width 1000");
	parse_tables(text, &whole);
	free(text);
	/* 32 runs: 15 numbers each in the summary; per run the state tables of every CPU */
	assert_true(whole.n > 32 * 15);
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		snprintf(args, sizeof(args), "run -m skl,hsx --per-cpu --width %s", widths[i]);
		text = run_text(args);
		parse_tables(text, &split);
		free(text);
		assert_int_equal(split.n, whole.n);
		for (r = 0; r < whole.n; r++)
			assert_string_equal(split.v[r], whole.v[r]);
		cells_free(&split);
	}
	/* skl's 10 states: its above/below table is split even at 160; at 60 every table is */
	{
		struct cells one = { 0 };

		text = run_text("run -m skl --per-cpu --width 1000");
		parse_tables(text, &one);
		free(text);
		text = run_text("run -m skl --per-cpu --width 60");
		parse_tables(text, &split);
		free(text);
		assert_int_equal(split.n, one.n);
		for (r = 0; r < one.n; r++)
			assert_string_equal(split.v[r], one.v[r]);
		cells_free(&split);
		cells_free(&one);
	}
	/* The summary's numbers against the JSON report. */
	js = run_text("run -m skl,hsx --format json");
	root = json_loads(js, 0, &je);
	assert_non_null(root);
	json_array_foreach(json_object_get(root, "runs"), r, run) {
		json_t *t = json_object_get(run, "totals"), *g = json_object_get(run, "regret");
		json_t *lat = json_object_get(t, "wake_latency_ns");
		char row[256];

		snprintf(row, sizeof(row), "%s/%s/%s", json_string_value(json_object_get(run, "trace")),
			 json_string_value(json_object_get(run, "machine")),
			 json_string_value(json_object_get(run, "governor")));
		assert_close(row, cell(&whole, "HZ", row), (double)json_integer_value(json_object_get(run, "hz")), 0);
		assert_close(row, cell(&whole, "entries", row),
			     (double)json_integer_value(json_object_get(t, "idle_entries")), 0);
		assert_close(row, cell(&whole, "above%", row), json_number_value(json_object_get(t, "above_pct")), 2);
		assert_close(row, cell(&whole, "below%", row), json_number_value(json_object_get(t, "below_pct")), 2);
		assert_close(row, cell(&whole, "hits%", row), json_number_value(json_object_get(t, "hits_pct")), 2);
		assert_close(row, cell(&whole, "energy_J", row), json_number_value(json_object_get(t, "energy_j")), 6);
		assert_close(row, cell(&whole, "avg_W", row), json_number_value(json_object_get(t, "avg_power_w")), 3);
		assert_close(row, cell(&whole, "idle_W", row), json_number_value(json_object_get(t, "idle_power_w")), 3);
		assert_close(row, cell(&whole, "wlat_mean_us", row),
			     json_number_value(json_object_get(lat, "mean")) / 1000, 3);
		assert_close(row, cell(&whole, "wlat_p99_us", row),
			     (double)json_integer_value(json_object_get(lat, "p99")) / 1000, 3);
		assert_close(row, cell(&whole, "regret_J", row), json_number_value(json_object_get(g, "energy_j")), 6);
		assert_close(row, cell(&whole, "regret_E%", row), json_number_value(json_object_get(g, "energy_pct")), 2);
		assert_close(row, cell(&whole, "regret_pkg_J", row),
			     json_number_value(json_object_get(g, "package_energy_j")), 6);
		assert_close(row, cell(&whole, "regret_us", row),
			     json_number_value(json_object_get(g, "wake_latency_mean_ns")) / 1000, 3);
		assert_non_null(cell(&whole, "negative", row));
	}
	assert_int_equal(r, 32); /* 16 governors and references on 2 machines */
	json_decref(root);
	free(js);
	cells_free(&whole);
}

/* The wrapped lines keep every item: config: joined back is the unwrapped line. */
static void test_wrapped_lines_keep_every_item(void **state)
{
	char *narrow, *wide, *p, *q, joined[2048], line[2048];
	size_t n;

	(void)state;
	wide = run_text("run -m skl -g menu --width 1000");
	narrow = run_text("run -m skl -g menu --width 60");
	p = strstr(wide, "\nconfig: ");
	assert_non_null(p);
	n = strcspn(p + 1, "\n");
	snprintf(line, sizeof(line), "%.*s", (int)n, p + 1);
	q = strstr(narrow, "\nconfig: ");
	assert_non_null(q);
	/* the continuation lines, indented, joined with one space */
	joined[0] = '\0';
	for (q++;;) {
		size_t k = strcspn(q, "\n");

		snprintf(joined + strlen(joined), sizeof(joined) - strlen(joined), "%s%.*s",
			 joined[0] ? " " : "", (int)k, q);
		q += k + 1;
		if (*q != ' ')
			break;
		while (*q == ' ')
			q++;
	}
	assert_string_equal(joined, line);
	free(wide);
	free(narrow);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_command_fits_160),
		cmocka_unit_test(test_width_option),
		cmocka_unit_test(test_compare_many_governors),
		cmocka_unit_test(test_split_tables_keep_every_number),
		cmocka_unit_test(test_wrapped_lines_keep_every_item),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
