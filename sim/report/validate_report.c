// SPDX-License-Identifier: GPL-2.0-only
/*
 * validate_report.c - `idlesim validate` results in text and JSON: agreement with the
 * kernel's recorded choices, the confusion matrix by state, per CPU, and the first
 * disagreements with the governor's variables and the inputs the trace lacked.
 */
#include "sim/report/validate_report.h"
#include "sim/base/common.h"
#include "sim/base/version.h"
#include "sim/report/diff_report.h"
#include "sim/report/report.h"

#include <jansson.h>
#include <string.h>

static double pct(uint64_t a, uint64_t n)
{
	return n ? 100.0 * (double)a / (double)n : 0;
}

static const char *const lacked_key[] = { "no_timer_events", "tick_state_guessed",
					  "no_sched_switch", "qos_assumed" };

static void text_report(FILE *f, const struct validate_result *r)
{
	char line[1024], a[32], b[160], item[96];
	int i;
	size_t k, len;

	fprintf(f, "idlesim validate: %s on %s (%d CPUs, %d Hz) through %s\n", r->trace, r->mach.name,
		r->nr_cpus, r->hz, r->governor);
	fprintf(f, "%llu entries, %llu agree with the kernel's choice (%.3f %%)\n",
		(unsigned long long)r->entries, (unsigned long long)r->agree, pct(r->agree, r->entries));
	fprintf(f, "inputs the trace lacked (entries): sleep length %llu, tick state %llu, task "
		   "switches %llu, PM QoS limit %llu (never recorded: the request's)\n",
		(unsigned long long)r->lacked[0], (unsigned long long)r->lacked[1],
		(unsigned long long)r->lacked[2], (unsigned long long)r->lacked[3]);
	fprintf(f, "\nconfusion matrix (rows: the kernel's choice; columns: %s's)\n", r->governor);
	report_state_matrix(f, &r->mach, r->matrix, "kernel");
	fprintf(f, "\nper CPU\n%-5s %12s %12s %8s\n", "CPU", "entries", "agree", "%");
	for (i = 0; i < r->nr_cpus; i++)
		fprintf(f, "%-5d %12llu %12llu %8.3f\n", i, (unsigned long long)r->cpus[i].entries,
			(unsigned long long)r->cpus[i].agree, pct(r->cpus[i].agree, r->cpus[i].entries));
	if (!r->nr_dis)
		return;
	fprintf(f, "\nfirst %zu disagreement%s of %llu (the kernel's state, the governor's, what it "
		   "saw; the inputs the trace lacked)\n",
		r->nr_dis, r->nr_dis == 1 ? "" : "s", (unsigned long long)(r->entries - r->agree));
	for (k = 0; k < r->nr_dis; k++) {
		const struct validate_disagreement *d = &r->dis[k];

		report_fmt_ns(a, sizeof(a), d->sleep_length_ns == INT64_MAX ? -1 : d->sleep_length_ns);
		len = (size_t)snprintf(line, sizeof(line),
				       "%lld.%06llds cpu%d kernel %s, %s %s (tick %s, %s) sleep %s |",
				       (long long)(d->time_ns / SIM_NS_PER_S),
				       (long long)(d->time_ns % SIM_NS_PER_S / 1000), d->cpu,
				       r->mach.states[d->kernel].name, r->governor,
				       r->mach.states[d->ours].name, d->tick_stopped ? "off" : "on",
				       d->tick_stopped ? "stays off" : d->stop_tick ? "stop" : "keep", a);
		/* the rule first, then the other variables */
		for (int pass = 0; pass < 2; pass++)
			for (i = 0; i < d->ex.nr && len < sizeof(line); i++) {
				const char *key = d->ex.items[i].key;

				if (!strcmp(key, "sleep_length_ns") || !strcmp(key, "rule") != !pass)
					continue;
				report_fmt_explain_item(item, sizeof(item), &d->ex.items[i]);
				len += (size_t)snprintf(line + len, sizeof(line) - len, " %s", item);
			}
		if (strlen(line) > 160)
			snprintf(line + 156, sizeof(line) - 156, " ...");
		fprintf(f, "%s\n", line);
		validate_lacked_text(b, sizeof(b), d->lacked);
		fprintf(f, "    lacked: %s\n", b);
	}
}

static int json_report(FILE *f, const struct validate_result *r)
{
	json_t *root = json_object(), *a, *m, *st, *lk;
	int i, j, rc;
	size_t k;

	if (!root)
		return REPORT_ERR_NOMEM;
	json_object_set_new(root, "schema", json_string(VALIDATE_JSON_SCHEMA));
	json_object_set_new(root, "idlesim_version", json_string(IDLESIM_VERSION));
	json_object_set_new(root, "trace", json_string(r->trace));
	json_object_set_new(root, "machine", json_string(r->mach.name));
	json_object_set_new(root, "governor", json_string(r->governor));
	json_object_set_new(root, "hz", json_integer(r->hz));
	json_object_set_new(root, "entries", json_integer((json_int_t)r->entries));
	json_object_set_new(root, "agree", json_integer((json_int_t)r->agree));
	json_object_set_new(root, "agreement_pct", json_real(pct(r->agree, r->entries)));
	lk = json_object();
	for (k = 0; k < SIM_ARRAY_SIZE(lacked_key); k++)
		json_object_set_new(lk, lacked_key[k], json_integer((json_int_t)r->lacked[k]));
	json_object_set_new(root, "lacked", lk);
	st = json_array();
	m = json_array();
	for (i = 0; i < r->mach.state_count; i++) {
		json_array_append_new(st, json_string(r->mach.states[i].name));
		a = json_array();
		for (j = 0; j < r->mach.state_count; j++)
			json_array_append_new(a, json_integer((json_int_t)r->matrix[i][j]));
		json_array_append_new(m, a);
	}
	json_object_set_new(root, "states", st);
	json_object_set_new(root, "matrix", m);
	a = json_array();
	for (i = 0; i < r->nr_cpus; i++)
		json_array_append_new(a, json_pack("{s:i, s:I, s:I, s:f}", "cpu", i, "entries",
						   (json_int_t)r->cpus[i].entries, "agree",
						   (json_int_t)r->cpus[i].agree, "agreement_pct",
						   pct(r->cpus[i].agree, r->cpus[i].entries)));
	json_object_set_new(root, "cpus", a);
	a = json_array();
	for (k = 0; k < r->nr_dis; k++) {
		const struct validate_disagreement *d = &r->dis[k];
		json_t *o = json_object(), *ex = json_object(), *l = json_array();
		size_t b;

		for (i = 0; i < d->ex.nr; i++)
			json_object_set_new(ex, d->ex.items[i].key,
					    d->ex.items[i].str ? json_string(d->ex.items[i].str)
							       : json_integer(d->ex.items[i].val));
		for (b = 0; b < SIM_ARRAY_SIZE(lacked_key); b++)
			if (d->lacked & (1u << b))
				json_array_append_new(l, json_string(lacked_key[b]));
		json_object_set_new(o, "time_ns", json_integer(d->time_ns));
		json_object_set_new(o, "cpu", json_integer(d->cpu));
		json_object_set_new(o, "kernel", json_string(r->mach.states[d->kernel].name));
		json_object_set_new(o, "ours", json_string(r->mach.states[d->ours].name));
		json_object_set_new(o, "sleep_length_ns", d->sleep_length_ns == INT64_MAX
								 ? json_null()
								 : json_integer(d->sleep_length_ns));
		json_object_set_new(o, "tick_stopped", json_boolean(d->tick_stopped));
		json_object_set_new(o, "stop_tick", json_boolean(d->stop_tick));
		json_object_set_new(o, "explain", ex);
		json_object_set_new(o, "lacked", l);
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "disagreements", a);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!rc)
		fputc('\n', f);
	json_decref(root);
	return rc ? REPORT_ERR_IO : 0;
}

int validate_report_write(FILE *f, const struct validate_result *r, bool json)
{
	if (json)
		return json_report(f, r);
	text_report(f, r);
	return ferror(f) ? REPORT_ERR_IO : 0;
}
