// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_gen.c - idlesim gen: a synthetic trace, of one of gen's patterns (sim/workload/gen.h)
 * or of a benchmark-like workload model (sim/workload/workloads.h), whose parameters are
 * options of their own.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/common.h"
#include "sim/base/alloc.h"
#include "sim/base/outfile.h"
#include "sim/import/import.h"
#include "sim/trace/trace.h"
#include "sim/workload/gen.h"
#include "sim/workload/gen_size.h"
#include "sim/workload/workloads.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* "periodic, irq-fixed, irq-poisson, mixed, netperf-udp, ..., powernightmares" */
static void gen_workload_list(char *buf, size_t n)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < GEN_NR_WORKLOADS + workload_count() && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
					 i < GEN_NR_WORKLOADS
						 ? gen_workload_name((enum gen_workload)i)
						 : workload_get(i - GEN_NR_WORKLOADS)->name);
}

/*
 * --timers-from TRACE: the periodic timers of a kernel trace's census (sim/import/import.h)
 * for the model's CPUs: model CPU i takes those of the trace's CPU i mod (its CPUs). They
 * replace the per-CPU housekeeping of the timer world (housekeeping-us, watchdog-ms,
 * vmstat-ms: the trace has the machine's own), not the benchmark's kernel timers.
 * Returns 0, or -1 with err set (the import's message for a bad trace).
 */
static int timers_from(struct args *a, const struct workload *w, int64_t *params,
		       const char *path, struct wl_timer **out, size_t *n)
{
	struct import_options io = { 0 };
	struct import_timer_list tl = { 0 };
	static const char *const hk[] = { "housekeeping-us", "watchdog-ms", "vmstat-ms" };
	int nr = w->nr_cpus(params), traced = 0, i;
	size_t k, m = 0;

	*out = NULL;
	*n = 0;
	if (import_periodic_timers(path, &io, &tl, a->err))
		return -1;
	for (k = 0; k < tl.n; k++)
		traced = tl.t[k].cpu + 1 > traced ? tl.t[k].cpu + 1 : traced;
	if (tl.n && nr > 0) {
		*out = sim_calloc((size_t)nr * tl.n, sizeof(**out));
		if (!*out) {
			import_timer_list_release(&tl);
			return sim_error_nomem(a->err, "");
		}
	}
	for (i = 0; i < nr && *out; i++)
		for (k = 0; k < tl.n; k++)
			if (tl.t[k].cpu == i % traced)
				(*out)[m++] = (struct wl_timer){ i, tl.t[k].period_ns, tl.t[k].hrtimer,
								 tl.t[k].pinned, tl.t[k].deferrable };
	*n = m;
	for (k = 0; k < SIM_ARRAY_SIZE(hk); k++)
		if (workload_param_index(w, hk[k]) >= 0)
			params[workload_param_index(w, hk[k])] = 0;
	fprintf(stderr,
		"idlesim: gen --timers-from %s: %zu periodic timers of %d traced CPUs on the model's "
		"%d, in place of its housekeeping (docs/workloads.md, \"Timers\")\n",
		path, tl.n, traced, nr);
	import_timer_list_release(&tl);
	return 0;
}

/* A model's timeline as a text trace (to the output, or to the temporary of a .itb one). */
struct model_out {
	const struct workload *w;
	const int64_t *params;
	const struct wl_timers *extra;
	int64_t duration_ns;
	uint64_t seed;
	const struct trace_header *hdr;
};

static int model_text(void *ctx, FILE *f, struct sim_error *err)
{
	const struct model_out *m = ctx;

	return workload_write_trace(m->w, m->params, m->extra, m->duration_ns, m->seed, m->hdr, f,
				    isatty_stderr() ? stderr : NULL, err);
}

/*
 * gen for a benchmark-like workload model (sim/workload/workloads.h): its timeline on CPUs without
 * exit latency, the one the oracle follows. Its parameters are options (--clients 4).
 */
static int gen_model(struct args *a, const struct workload *w)
{
	struct sim_error *err = a->err;
	struct trace_header hdr = { 0 };
	int64_t params[WL_MAX_PARAMS], duration_ns = SIM_NS_PER_S, n;
	uint64_t seed = 1;
	struct outfile out;
	const char *v, *output = NULL, *from = NULL, *preset = NULL;
	struct wl_timer *xt = NULL;
	struct wl_timers extra = { 0 };
	char name[64];
	bool force = false;
	int preset_hz = 0;

	workload_defaults(w, params);
	command_line(hdr.source, sizeof(hdr.source), a->argc, a->argv);
	while (more(a)) {
		const char *s = a->argv[a->i];
		size_t len = strncmp(s, "--", 2) ? 0 : strcspn(s + 2, "=");
		int k = -1;

		if (len && len < sizeof(name) - 2) {
			snprintf(name, sizeof(name), "--%.*s", (int)len, s + 2);
			k = workload_param_index(w, name + 2);
		}
		if (opt(a, "--workload", NULL, &v))
			continue;
		else if (opt(a, "--housekeeping", NULL, &v)) {
			if (v && !workload_preset(w, v, params, err))
				preset = v;
		} else if (k >= 0 && opt(a, name, NULL, &v))
			wl_param_arg(a, w, k, name, v, &params[k]);
		else if (opt(a, "--duration-s", NULL, &v))
			num_arg(a, "--duration-s", v, 9, 1, 3600 * SIM_NS_PER_S, &duration_ns);
		else if (opt(a, "--seed", NULL, &v)) {
			if (!num_arg(a, "--seed", v, 0, 0, INT64_MAX / 1000, &n))
				seed = (uint64_t)n;
		} else if (opt(a, "--hz", NULL, &v)) {
			if (!num_arg(a, "--hz", v, 0, 1, 10000, &n))
				hdr.hz = (int)n;
		} else if (opt(a, "--output", "-o", &v))
			output = v;
		else if (opt(a, "--timers-from", NULL, &v))
			from = v;
		else if (opt(a, "--force", NULL, NULL))
			force = true;
		else
			bad_model_option(a, w);
	}
	/* a periodic-tick preset is a tick at its HZ: the header says it, unless --hz agrees */
	if (err->code == SIM_OK && preset &&
	    !workload_preset_run_hz("gen", preset, hdr.hz, &preset_hz, err))
		hdr.hz = preset_hz;
	if (err->code == SIM_OK && from && workload_param_index(w, "watchdog-ms") < 0)
		sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			      "gen --timers-from: workload %s has no timer world to replace", w->name);
	if (err->code == SIM_OK && from && !timers_from(a, w, params, from, &xt, &extra.n))
		extra.t = xt;
	if (err->code != SIM_OK || workload_check_params(w, params, err) ||
	    gen_size_check_model(w, params, &extra, duration_ns, seed, &hdr, force, err)) {
		sim_free(xt);
		return finish(err);
	}
	if (!outfile_open(&out, output, err)) {
		struct model_out mo = { w, params, &extra, duration_ns, seed, &hdr };

		if (cli_binary_name(output) ? cli_binary_via_text(out.f, model_text, &mo, err)
					    : model_text(&mo, out.f, err))
			outfile_fail(&out, err);
		else
			outfile_commit(&out, err);
	}
	sim_free(xt);
	return finish(err);
}

/* The open-loop generator's records straight to the binary form (a .itb output). */
static int gen_binary(const struct gen_config *c, FILE *f, struct sim_error *err)
{
	struct gen_stream *g = gen_open(c, err);
	struct record_source src;
	int rc;

	if (!g)
		return -1;
	record_source_from_gen(&src, g);
	rc = trace_write_source(&src, f, true, err);
	gen_close(g);
	return rc;
}

int cmd_gen(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "gen", &err, false, 0 };
	const struct workload *model;
	struct gen_config c;
	struct outfile out;
	const char *v, *output = NULL, *workload = NULL;
	char names[512];
	bool force = false;
	int64_t n;
	int i;

	/* The workload sets the defaults, so find it first. */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			workload = argv[i + 1];
		else if (!strncmp(argv[i], "--workload=", 11))
			workload = argv[i] + 11;
	}
	gen_workload_list(names, sizeof(names));
	if (!workload) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0, "gen: --workload is required (%s)",
			      names);
		return finish(&err);
	}
	model = workload_find(workload);
	if (model)
		return gen_model(&a, model);
	if (gen_workload_parse(workload, &c.workload)) {
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0, "gen: unknown workload '%s' (%s)",
			      workload, names);
		return finish(&err);
	}
	gen_config_defaults(&c, c.workload);
	command_line(c.source, sizeof(c.source), argc, argv);
	while (more(&a)) {
		if (opt(&a, "--workload", NULL, &v))
			continue;
		else if (opt(&a, "--cpus", NULL, &v)) {
			if (!num_arg(&a, "--cpus", v, 0, 1, TRACE_MAX_CPUS, &n))
				c.cpus = (int)n;
		} else if (opt(&a, "--duration-s", NULL, &v))
			num_arg(&a, "--duration-s", v, 9, 1, INT64_MAX / 1000, &c.duration_ns);
		else if (opt(&a, "--seed", NULL, &v)) {
			if (!num_arg(&a, "--seed", v, 0, 0, INT64_MAX / 1000, &n))
				c.seed = (uint64_t)n;
		} else if (opt(&a, "--period-us", NULL, &v))
			num_arg(&a, "--period-us", v, 3, 1, INT64_MAX / 1000, &c.period_ns);
		else if (opt(&a, "--interval-us", NULL, &v))
			num_arg(&a, "--interval-us", v, 3, 1, INT64_MAX / 1000, &c.interval_ns);
		else if (opt(&a, "--mean-us", NULL, &v))
			num_arg(&a, "--mean-us", v, 3, 1, INT64_MAX / 1000, &c.mean_ns);
		else if (opt(&a, "--timer-period-us", NULL, &v))
			num_arg(&a, "--timer-period-us", v, 3, 1, INT64_MAX / 1000, &c.timer_period_ns);
		else if (opt(&a, "--timer-slack-us", NULL, &v))
			num_arg(&a, "--timer-slack-us", v, 3, 0, INT64_MAX / 1000, &c.timer_slack_ns);
		else if (opt(&a, "--busy-us", NULL, &v))
			num_arg(&a, "--busy-us", v, 3, 0, INT64_MAX / 1000, &c.busy_ns);
		else if (opt(&a, "--iowait", NULL, &v)) {
			if (!num_arg(&a, "--iowait", v, 0, 0, 65535, &n))
				c.iowait = (unsigned int)n;
		} else if (opt(&a, "--no-wake-pct", NULL, &v)) {
			if (!num_arg(&a, "--no-wake-pct", v, 0, 0, 100, &n))
				c.no_wake_pct = (unsigned int)n;
		} else if (opt(&a, "--timer-kind", NULL, &v)) {
			if (v && gen_timer_kind_parse(v, &c.timer_kind))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "%s --timer-kind: '%s' is not a valid value (expected "
					      "wheel, hrtimer or mix)",
					      a.cmd, v);
		} else if (opt(&a, "--hz", NULL, &v)) {
			if (!num_arg(&a, "--hz", v, 0, 1, 10000, &n))
				c.hz = (int)n;
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (opt(&a, "--force", NULL, NULL))
			force = true;
		else
			bad_option(&a);
	}
	if (err.code != SIM_OK || gen_validate(&c, &err) || gen_size_check(&c, force, &err))
		return finish(&err);
	c.progress = isatty_stderr() ? stderr : NULL;
	if (!outfile_open(&out, output, &err)) {
		if (cli_binary_name(output) ? gen_binary(&c, out.f, &err) : gen_write(&c, out.f, &err))
			outfile_fail(&out, &err);
		else
			outfile_commit(&out, &err);
	}
	return finish(&err);
}
