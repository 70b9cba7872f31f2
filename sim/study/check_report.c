// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_report.c - the reports of `idlesim check` for CI systems: JSON, JUnit XML, TAP.
 *
 * While the comparisons run, check_run.c hands every comparison's configuration record and
 * every check here; they are kept as one JSON document (schema "idlesim-check/1"), and the
 * three formats are written from it at the end, so they always carry the same facts:
 *
 *   json   the document: the counts, and per comparison its name (null if none), config
 *          record and checks
 *          (cell, metric, governor, bound and limit, mean, percentage, p-value, message;
 *          the last three are null for min and max, which do not compare governors)
 *   junit  <testsuites> with the counts; one <testsuite> per comparison with its config
 *          record as <properties>; one <testcase> per check, classname the comparison,
 *          a <failure message="..."> for a failed bound
 *   tap    TAP version 13: the plan, the config records as comments, "ok N - ..." or
 *          "not ok N - ..." per check, a failed one followed by its fields as YAML
 */
#include "sim/study/check.h"
#include "sim/base/alloc.h"
#include "sim/study/check_int.h"
#include "sim/report/compare_report.h"
#include "sim/report/html.h"
#include "sim/base/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct check_report {
	enum check_format format;
	json_t *doc;
	json_t *cmps;	     /* doc.comparisons */
	json_t *cfg_text;    /* per comparison, its config record as text (JUnit, TAP) */
	int checks, failed;
};

int check_format_parse(const char *name, enum check_format *out)
{
	static const char *const names[] = { "text", "json", "junit", "tap" };
	int i;

	for (i = 0; i < 4; i++) {
		if (name && !strcmp(name, names[i])) {
			*out = (enum check_format)i;
			return 0;
		}
	}
	return -1;
}

void check_report_free(struct check_report *r)
{
	if (!r)
		return;
	json_decref(r->doc);
	json_decref(r->cfg_text);
	sim_free(r);
}

struct check_report *check_report_begin(enum check_format format)
{
	struct check_report *r = sim_calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->format = format;
	r->doc = json_object();
	r->cmps = json_array();
	r->cfg_text = json_array();
	if (!r->doc || !r->cmps || !r->cfg_text ||
	    json_object_set_new(r->doc, "schema", json_string(CHECK_REPORT_SCHEMA)) ||
	    json_object_set_new(r->doc, "idlesim_version", json_string(IDLESIM_VERSION)) ||
	    json_object_set_new(r->doc, "checks", json_integer(0)) ||
	    json_object_set_new(r->doc, "failed", json_integer(0)) ||
	    json_object_set_new(r->doc, "comparisons", r->cmps)) {
		check_report_free(r);
		return NULL;
	}
	return r;
}

int check_report_comparison(struct check_report *r, const char *name,
			    const struct compare_result *res)
{
	json_t *c = json_object();
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc = -1;

	if (m) {
		compare_write_config(m, res);
		if (!fclose(m) && c && !json_array_append_new(r->cfg_text, json_string(text)) &&
		    !json_object_set_new(c, "name", name ? json_string(name) : json_null()) &&
		    !json_object_set_new(c, "config", compare_config_json(res)) &&
		    !json_object_set_new(c, "checks", json_array()))
			rc = json_array_append(r->cmps, c);
	}
	json_decref(c);
	free(text); /* open_memstream's: plain malloc */
	return rc;
}

static json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

int check_report_add(struct check_report *r, const struct check_line *l)
{
	json_t *c = json_array_get(r->cmps, json_array_size(r->cmps) - 1);
	json_t *o = json_object();
	bool pct = l->b != B_MIN && l->b != B_MAX;

	if (!o)
		return -1;
	r->checks++;
	r->failed += !l->ok;
	json_object_set_new(o, "ok", json_boolean(l->ok));
	json_object_set_new(o, "message", json_string(l->what));
	json_object_set_new(o, "cell", json_string(l->where));
	json_object_set_new(o, "workload", json_string(l->workload));
	json_object_set_new(o, "param", l->param ? json_string(l->param) : json_null());
	json_object_set_new(o, "param_value",
			    l->param ? json_integer((json_int_t)l->param_value) : json_null());
	json_object_set_new(o, "machine", json_string(l->machine));
	json_object_set_new(o, "metric", json_string(l->metric));
	json_object_set_new(o, "unit", json_string(l->unit));
	json_object_set_new(o, "governor", json_string(l->governor));
	json_object_set_new(o, "bound", json_string(check_bound_key[l->b]));
	json_object_set_new(o, "limit", jnum(l->limit));
	json_object_set_new(o, "mean", jnum(l->gov->sum.mean));
	json_object_set_new(o, "pct", pct ? jnum(l->gov->pct) : json_null());
	json_object_set_new(o, "p_value", pct ? jnum(l->gov->p) : json_null());
	json_object_set_new(o, "significant", pct ? json_boolean(l->gov->significant) : json_null());
	/* a failed json_object_set_new leaves the field out; the size tells */
	if (json_object_size(o) != 16 || json_array_append_new(json_object_get(c, "checks"), o))
		return -1;
	return 0;
}

/* The name of a check inside its comparison: "pp server-us=10 on skl: throughput of
 * deepest: min_pct". */
static void case_name(FILE *f, json_t *k)
{
	char buf[600];

	snprintf(buf, sizeof(buf), "%s: %s of %s: %s",
		 json_string_value(json_object_get(k, "cell")),
		 json_string_value(json_object_get(k, "metric")),
		 json_string_value(json_object_get(k, "governor")),
		 json_string_value(json_object_get(k, "bound")));
	html_escape(f, buf);
}

/* The config record's text lines "KEY: VALUE" as <property name="KEY" value="VALUE"/>. */
static void junit_properties(FILE *f, const char *text)
{
	char line[2048];
	const char *colon;
	size_t n;

	fputs("    <properties>\n", f);
	for (; *text; text += n + (text[n] == '\n')) {
		n = strcspn(text, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		colon = strstr(line, ": ");
		if (!colon)
			continue;
		line[colon - line] = '\0';
		fputs("      <property name=\"", f);
		html_escape(f, line);
		fputs("\" value=\"", f);
		html_escape(f, colon + 2);
		fputs("\"/>\n", f);
	}
	fputs("    </properties>\n", f);
}

static void write_junit(FILE *f, const struct check_report *r)
{
	size_t i, j;
	json_t *c, *k;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites name=\"idlesim check\" tests=\"%d\" failures=\"%d\">\n",
		r->checks, r->failed);
	json_array_foreach(r->cmps, i, c) {
		json_t *ks = json_object_get(c, "checks");
		const char *name = json_string_value(json_object_get(c, "name"));
		char unnamed[40];
		int failed = 0;

		if (!name) { /* as the file's messages call it */
			snprintf(unnamed, sizeof(unnamed), "comparisons[%zu]", i);
			name = unnamed;
		}

		json_array_foreach(ks, j, k)
			failed += !json_is_true(json_object_get(k, "ok"));
		fputs("  <testsuite name=\"", f);
		html_escape(f, name);
		fprintf(f, "\" tests=\"%zu\" failures=\"%d\" errors=\"0\" skipped=\"0\">\n",
			json_array_size(ks), failed);
		junit_properties(f, json_string_value(json_array_get(r->cfg_text, i)));
		json_array_foreach(ks, j, k) {
			const char *msg = json_string_value(json_object_get(k, "message"));

			fputs("    <testcase classname=\"", f);
			html_escape(f, name);
			fputs("\" name=\"", f);
			case_name(f, k);
			if (json_is_true(json_object_get(k, "ok"))) {
				fputs("\"/>\n", f);
				continue;
			}
			fputs("\">\n      <failure message=\"", f);
			html_escape(f, msg);
			fputs("\" type=\"", f);
			html_escape(f, json_string_value(json_object_get(k, "bound")));
			fputs("\">", f);
			case_name(f, k);
			fputs(": ", f);
			html_escape(f, msg);
			fputs("</failure>\n    </testcase>\n", f);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

/* A failed check's fields, but ok, as a YAML block; JSON scalars are YAML scalars. */
static int tap_yaml(FILE *f, json_t *k)
{
	const char *key;
	json_t *v;
	char *s;

	fputs("  ---\n", f);
	json_object_foreach(k, key, v) {
		if (!strcmp(key, "ok"))
			continue;
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(6));
		if (!s)
			return -1;
		fprintf(f, "  %s: %s\n", key, s);
		sim_free(s);
	}
	fputs("  ...\n", f);
	return 0;
}

static int write_tap(FILE *f, const struct check_report *r)
{
	int nr = 0;
	size_t i, j;
	json_t *c, *k;

	fprintf(f, "TAP version 13\n1..%d\n", r->checks);
	json_array_foreach(r->cmps, i, c) {
		const char *name = json_string_value(json_object_get(c, "name"));
		const char *t = json_string_value(json_array_get(r->cfg_text, i));
		size_t n;

		for (; *t; t += n + (t[n] == '\n')) {
			n = strcspn(t, "\n");
			fprintf(f, "# %.*s\n", (int)n, t);
		}
		json_array_foreach(json_object_get(c, "checks"), j, k) {
			bool ok = json_is_true(json_object_get(k, "ok"));

			/* the text report's line, ok/FAIL aside */
			fprintf(f, "%s %d - %s%s%s%s: %s of %s: %s\n", ok ? "ok" : "not ok", ++nr,
				name ? "[" : "", name ? name : "", name ? "] " : "",
				json_string_value(json_object_get(k, "cell")),
				json_string_value(json_object_get(k, "metric")),
				json_string_value(json_object_get(k, "governor")),
				json_string_value(json_object_get(k, "message")));
			if (!ok && tap_yaml(f, k))
				return -1;
		}
	}
	return 0;
}

int check_report_write(struct check_report *r, FILE *f)
{
	switch (r->format) {
	case CHECK_JUNIT:
		write_junit(f, r);
		return 0;
	case CHECK_TAP:
		return write_tap(f, r);
	default:
		if (json_object_set_new(r->doc, "checks", json_integer(r->checks)) ||
		    json_object_set_new(r->doc, "failed", json_integer(r->failed)))
			return -1;
		/* a write error shows in ferror(f), which the caller tests */
		json_dumpf(r->doc, f, JSON_INDENT(2));
		fputc('\n', f);
		return 0;
	}
}
