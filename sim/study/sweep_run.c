// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep_run.c - idlesim sweep (see sweep.h): run the points of a parsed spec (sweep_spec.c)
 * on a pool of threads, write each as one result line, and read result lines back: resume
 * skips the points already in the results file after dropping a partial last line, and a
 * shard runs only its own points.
 *
 * Reading result lines (sweep_each_line()) lives here, with the writing, so that the one
 * format has one home; sweep merge and sweep summary call it too. This file asks
 * sweep_spec.c for a point's request and never the other way round.
 */
#include "sim/study/sweep.h"
#include "sim/study/sweep_int.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/run/compare.h"
#include "sim/report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- running points ---- */

/* The metrics every point carries (units in the names). */
static json_t *idle_metrics_json(const struct run_stats *rs)
{
	struct stats_summary m;
	double dur = run_duration_s(rs);

	stats_summarize(rs, &rs->total, rs->nr_cpus, &m);
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I}", "energy_j", rs->energy_j,
			 "avg_power_w", dur > 0 ? rs->energy_j / dur : 0.0, "above_pct",
			 m.above_pct, "below_pct", m.below_pct, "hits_pct", m.hits_pct,
			 "wake_latency_mean_ns", m.lat_mean_ns, "wake_latency_p99_ns",
			 (json_int_t)m.lat_p99_ns);
}

/* A replay's metrics: the common ones and the regret (energy against oracle-energy, latency
 * against the oracle: docs/regret.md; the config record names both). */
static json_t *trace_metrics_json(const struct run_result *r)
{
	json_t *o = idle_metrics_json(&r->stats);

	json_object_set_new(o, "regret_energy_j", json_real(r->regret_energy_j));
	json_object_set_new(o, "regret_wake_latency_mean_ns", json_real(r->regret_lat_mean_ns));
	return o;
}

/* A closed-loop point's configuration record: run's keys, with the workload (its model
 * and every parameter), the seed and the duration in place of the trace. */
static json_t *workload_config_json(const struct sweep_spec *s, const struct sweep_workload *w,
				    const struct run_request *q, const struct machine *m,
				    uint32_t mask, const struct cpuidle_governor *g,
				    const long long *params, int hz)
{
	struct run_set applied[RUN_MAX_SETS];
	json_t *o = json_object(), *dis = json_array(), *wp = json_object();
	char h[17];
	unsigned int i;

	for (i = 0; i < (unsigned int)m->state_count; i++)
		if (mask & (1u << i))
			json_array_append_new(dis, json_string(m->states[i].name));
	for (i = 0; i < w->wl->nr_params; i++)
		json_object_set_new(wp, w->wl->params[i].name, json_integer(w->params[i]));
	cfgrec_hex(h, machine_hash(m));
	json_object_set_new(o, "idlesim_version", json_string(IDLESIM_VERSION));
	json_object_set_new(o, "governor", json_string(g->name));
	json_object_set_new(o, "tunables", cfgrec_tunables_json(g, params));
	json_object_set_new(
		o, "set",
		cfgrec_sets_json(applied, cfgrec_applied_sets(q->sets, q->nr_sets, g, applied)));
	json_object_set_new(o, "latency_limit_ns", q->latency_req_ns < 0
							   ? json_null()
							   : json_integer(q->latency_req_ns));
	json_object_set_new(o, "disabled", dis);
	json_object_set_new(o, "hz", json_integer(hz));
	json_object_set_new(o, "wake_latency_model", json_string(wake_model_name(q->wake_model)));
	json_object_set_new(o, "machine", json_pack("{s:s, s:s}", "name", m->name, "hash", h));
	json_object_set_new(o, "workload", json_pack("{s:s, s:s, s:o}", "name", w->wl->name,
						     "label", w->label, "params", wp));
	json_object_set_new(o, "seed", json_integer((json_int_t)s->seed));
	json_object_set_new(o, "duration_ns", json_integer(s->duration_ns));
	return o;
}

/* Run a closed-loop point as compare runs one iteration (HZ 250 unless the spec sweeps HZ). */
static int run_workload_point(const struct sweep_spec *s, const struct sweep_workload *w,
			      const struct run_request *q, json_t **config, json_t **metrics,
			      struct sim_error *err)
{
	const struct cpuidle_governor *g = gov_find(q->governors[0]);
	struct sim_config cfg = { 0 };
	struct loop_result r;
	struct machine m;
	long long *params = NULL;
	uint32_t mask;
	double tp;

	if (run_load_machine(q, q->machines[0], &m, err) ||
	    run_disabled_mask(q, &m, &mask, err) || run_gov_params(q, g, &params, err))
		return -1;
	cfg.machine = &m;
	cfg.gov = g;
	cfg.gov_params = params;
	cfg.hz = q->hz ? q->hz : COMPARE_DEFAULT_HZ;
	cfg.latency_req_ns = q->latency_req_ns;
	cfg.disabled = mask;
	cfg.queue = q->queue;
	cfg.wake_model = q->wake_model;
	cfg.gov_timeout_ns = q->gov_timeout_ns;
	if (workload_run(w->wl, w->params, &cfg, s->duration_ns, s->seed, &r, err)) {
		sim_free(params);
		return -1;
	}
	*config = workload_config_json(s, w, q, &m, mask, g, params, cfg.hz);
	*metrics = idle_metrics_json(&r.stats);
	tp = workload_throughput(w->wl, &r);
	if (w->wl->throughput_unit && isfinite(tp)) {
		json_object_set_new(*metrics, "throughput", json_real(tp));
		json_object_set_new(*metrics, "request_latency_mean_us",
				    json_real(lat_hist_mean(&r.latency) / 1e3));
		json_object_set_new(*metrics, "request_latency_p99_us",
				    json_real((double)lat_hist_percentile(&r.latency, 99.0) / 1e3));
	}
	loop_result_release(&r);
	sim_free(params);
	return 0;
}

/* Point i's result line, with the newline (free it); takes config and metrics. */
static int point_line(const struct sweep_spec *s, long i, json_t *config, json_t *metrics,
		      char **line, struct sim_error *err)
{
	json_t *o;
	char *text;

	o = json_pack("{s:s, s:s, s:I, s:I, s:o, s:o}", "spec", s->hash, "idlesim_version",
		      IDLESIM_VERSION, "index", (json_int_t)i, "total", (json_int_t)s->total,
		      "config", config, "metrics", metrics);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))
		 : NULL;
	json_decref(o);
	if (!text)
		return sim_error_nomem(err, "");
	if (strlen(text) > (size_t)SWEEP_MAX_LINE) { /* the reader would refuse it */
		free(text);
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "point %ld: a result line longer than 1 MiB", i);
	}
	*line = sim_malloc(strlen(text) + 2);
	if (!*line) {
		free(text);
		return sim_error_nomem(err, "");
	}
	sprintf(*line, "%s\n", text);
	free(text);
	return 0;
}

/* Point i's request, with the run's knobs; its workload, NULL for a trace point. */
static const struct sweep_workload *point_request(const struct sweep_spec *s,
						  const struct sweep_opts *so,
						  struct run_refcache *refs, long i,
						  struct run_request *q)
{
	const struct sweep_workload *wl;

	sweep_point_request(s, i, q, &wl);
	q->gov_timeout_ns = so->gov_timeout_ns;
	q->refs = refs;
	return wl;
}

/*
 * Run the n points idx[] (one point, or trace points replayed alike: run_same_replay()),
 * the trace points in one pass over their trace; lines[k] is point idx[k]'s result line.
 */
static int run_points(const struct sweep_spec *s, const struct sweep_opts *so,
		      struct run_refcache *refs, const long *idx, int n, char **lines,
		      struct sim_error *err)
{
	const struct sweep_workload *wl = NULL;
	struct run_request *q = sim_calloc((size_t)n, sizeof(*q));
	struct run_results res = { 0 };
	json_t *config = NULL, *metrics = NULL;
	int k, rc = -1;

	if (!q)
		return sim_error_nomem(err, "");
	for (k = 0; k < n; k++)
		wl = point_request(s, so, refs, idx[k], &q[k]);
	if (wl) { /* a closed-loop point: never batched */
		if (!run_workload_point(s, wl, &q[0], &config, &metrics, err))
			rc = point_line(s, idx[0], config, metrics, &lines[0], err);
		sim_free(q);
		return rc;
	}
	if (n == 1 ? run_grid(&q[0], &res, err) : run_grid_batch(q, n, &res, err))
		goto out;
	for (k = 0; k < n; k++)
		if (point_line(s, idx[k], report_config_json(&res.r[k]),
			       trace_metrics_json(&res.r[k]), &lines[k], err))
			goto out;
	rc = 0;
out:
	if (rc)
		for (k = 0; k < n; k++) {
			sim_free(lines[k]);
			lines[k] = NULL;
		}
	run_results_free(&res);
	sim_free(q);
	return rc;
}

/* ---- reading results ---- */

unsigned char *sweep_bits_new(long n)
{
	return sim_calloc((size_t)n / 8 + 1, 1);
}

/* Parse one complete result line into li (li->root owned by the caller). Returns 0, or -1
 * with err set at source:lineno. */
static int parse_line(const char *text, size_t len, const char *source, long lineno,
		      struct sweep_line *li, struct sim_error *err)
{
	json_error_t je;
	json_t *o = json_loadb(text, len, 0, &je);
	const char *spec, *ver;
	json_int_t idx = -1, tot = -1;

	if (o && !json_unpack(o, "{s:s, s:s, s:I, s:I}", "spec", &spec, "idlesim_version", &ver,
			       "index", &idx, "total", &tot) &&
	    idx >= 0 && idx < tot && strlen(spec) == 16) {
		li->index = (long)idx;
		li->total = (long)tot;
		snprintf(li->spec, sizeof(li->spec), "%s", spec);
		snprintf(li->version, sizeof(li->version), "%s", ver);
		li->root = o;
		return 0;
	}
	json_decref(o);
	return sim_error_set(err, SIM_ERR_INPUT, source, (int)lineno, 1,
			     "not a sweep result line (spec, idlesim_version, index, total)");
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

static int not_regular(const char *path, mode_t m, struct sim_error *err)
{
	return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
			     "%s, not a regular file: sweep results are kept in a regular file",
			     file_kind(m));
}

int sweep_open_results(const char *path, bool missing_ok, FILE **f, struct sim_error *err)
{
	struct stat st;
	int fd;

	*f = NULL;
	/* stat first: opening a FIFO would wait for a writer, a device read forever */
	if (stat(path, &st)) {
		if (missing_ok && errno == ENOENT)
			return 0;
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open: %s",
				     strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return not_regular(path, st.st_mode, err);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open: %s",
				     strerror(errno));
	memset(&st, 0, sizeof(st));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) { /* replaced since the stat */
		close(fd);
		return not_regular(path, st.st_mode, err);
	}
	*f = fdopen(fd, "rb");
	if (!*f) {
		close(fd);
		return sim_error_nomem(err, path);
	}
	return 0;
}

/* Match t against s as far as t goes: 1 all of s matched, 0 t ended first, -1 a mismatch. */
static int tail_lit(const char **t, const char *end, const char *s)
{
	for (; *s; s++, (*t)++) {
		if (*t == end)
			return 0;
		if (**t != *s)
			return -1;
	}
	return 1;
}

/* 1 to max characters of set, then a character not in it: 1; t ended: 0; else -1. */
static int tail_span(const char **t, const char *end, const char *set, size_t max)
{
	size_t k = 0;

	for (; *t < end && **t && strchr(set, **t); (*t)++)
		if (++k > max)
			return -1;
	if (*t == end)
		return 0;
	return k ? 1 : -1;
}

bool sweep_tail_ok(const char *t, size_t n, const struct sweep_want *want)
{
	static const char hex[] = "0123456789abcdef", digits[] = "0123456789",
			  ver[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ.-+_~";
	const char *end = t + n;
	char total[32];
	int r;

	if (want && want->total >= 0)
		snprintf(total, sizeof(total), "%ld", want->total);
	if ((r = tail_lit(&t, end, "{\"spec\":\"")) <= 0 ||
	    (r = want && want->spec ? tail_lit(&t, end, want->spec) : tail_span(&t, end, hex, 16)) <=
		    0 ||
	    (r = tail_lit(&t, end, "\",\"idlesim_version\":\"")) <= 0 ||
	    (r = want && want->version ? tail_lit(&t, end, want->version)
				       : tail_span(&t, end, ver, 31)) <= 0 ||
	    (r = tail_lit(&t, end, "\",\"index\":")) <= 0 ||
	    (r = tail_span(&t, end, digits, 19)) <= 0 || (r = tail_lit(&t, end, ",\"total\":")) <= 0 ||
	    (r = want && want->total >= 0 ? tail_lit(&t, end, total)
					  : tail_span(&t, end, digits, 19)) <= 0)
		return r == 0;
	return tail_lit(&t, end, ",\"config\":{") >= 0;
}

/* Is this complete line one of want's sweep? */
static int want_line(const struct sweep_want *want, const struct sweep_line *li,
		     const char *path, long lineno, struct sim_error *err)
{
	if (!want || (!strcmp(li->spec, want->spec) && !strcmp(li->version, want->version) &&
		      li->total == want->total))
		return 0;
	return sim_error_set(err, SIM_ERR_INPUT, path, (int)lineno, 1,
			     "written by another spec or idlesim version (spec %s, idlesim %s, "
			     "%ld points; this sweep: spec %s, idlesim %s, %ld points)",
			     li->spec, li->version, li->total, want->spec, want->version,
			     want->total);
}

int sweep_each_line(const char *path, const struct sweep_want *want, bool missing_ok,
		    struct sweep_read *rd, sweep_line_fn *fn, void *ud, struct sim_error *err)
{
	struct sweep_read r = { 0 };
	struct sweep_want seen = { NULL, NULL, -1 }; /* the last line's, for a partial one */
	struct sweep_line li;
	char *line = NULL, *grown, spec[17] = "", version[32] = "";
	size_t len, cap = 0;
	long lineno = 0;
	FILE *f;
	int c = 0, rc = 0;

	if (rd)
		*rd = r;
	if (sweep_open_results(path, missing_ok, &f, err))
		return -1;
	if (!f)
		return 0;
	cap = 4096; /* grown up to SWEEP_MAX_LINE + 1; never NULL, even for an empty line */
	line = sim_malloc(cap);
	if (!line)
		rc = sim_error_nomem(err, path);
	while (!rc && c != EOF) {
		for (len = 0; (c = getc_unlocked(f)) != EOF && c != '\n'; len++) {
			if (!c) {
				rc = sim_error_set(err, SIM_ERR_INPUT, path, (int)lineno + 1,
						   len < INT_MAX ? (int)len + 1 : 0,
						   "a NUL byte: not a sweep result line");
				break;
			}
			if (len == (size_t)SWEEP_MAX_LINE) {
				rc = sim_error_set(err, SIM_ERR_INPUT, path, (int)lineno + 1, 1,
						   "a line longer than 1 MiB (%ld bytes): not a "
						   "sweep result line",
						   SWEEP_MAX_LINE);
				break;
			}
			if (len + 2 > cap) { /* room for this byte, then a newline */
				cap = 2 * cap;
				cap = cap > (size_t)SWEEP_MAX_LINE + 1 ? (size_t)SWEEP_MAX_LINE + 1
								      : cap;
				grown = sim_realloc(line, cap);
				if (!grown) {
					rc = sim_error_nomem(err, path);
					break;
				}
				line = grown;
			}
			line[len] = (char)c;
		}
		if (rc || (c == EOF && !len))
			break;
		lineno++;
		if (c == EOF) { /* a partial last line: a kill's, or not a results file */
			if (!sweep_tail_ok(line, len, want ? want : lineno > 1 ? &seen : NULL))
				rc = sim_error_set(err, SIM_ERR_INPUT, path, (int)lineno, 1,
						   "not a sweep result line%s, nor the start of one "
						   "(the last line, without a newline)",
						   want ? " of this spec" : "");
			r.partial = (long long)len;
			break;
		}
		line[len++] = '\n';
		rc = parse_line(line, len - 1, path, lineno, &li, err);
		if (rc)
			break;
		rc = want_line(want, &li, path, lineno, err);
		if (!rc)
			rc = fn(ud, &li, line, len, lineno, err);
		snprintf(spec, sizeof(spec), "%s", li.spec);
		snprintf(version, sizeof(version), "%s", li.version);
		seen = (struct sweep_want){ spec, version, li.total };
		json_decref(li.root);
		r.complete += (long long)len;
		if (len > r.longest)
			r.longest = len;
	}
	if (!rc && ferror(f))
		rc = sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
	sim_free(line);
	fclose(f);
	if (rd)
		*rd = r;
	return rc ? -1 : 0;
}

struct resume {
	unsigned char *done; /* a bit per point */
};

static int resume_line(void *ud, const struct sweep_line *li, const char *line, size_t len,
		       long lineno, struct sim_error *err)
{
	struct resume *r = ud;

	(void)line;
	(void)len;
	(void)lineno;
	(void)err;
	sweep_bit_set(r->done, li->index);
	return 0;
}

int sweep_resume_scan(const struct sweep_spec *s, const char *out, unsigned char *done,
		      long long *keep, struct sim_error *err)
{
	struct sweep_want want = { s->hash, IDLESIM_VERSION, s->total };
	struct resume r = { done };
	struct sweep_read rd;

	*keep = 0;
	if (sweep_each_line(out, &want, true, &rd, resume_line, &r, err))
		return -1;
	*keep = rd.complete;
	return 0;
}

/* ---- progress ---- */

void sweep_progress_text(char *buf, size_t n, long done, long total, double elapsed_s)
{
	double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;

	if (!done || rate <= 0)
		snprintf(buf, n, "%ld/%ld points", done, total);
	else
		snprintf(buf, n, "%ld/%ld points, %.3g/s, %.0fs left", done, total, rate,
			 (double)(total - done) / rate);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the pool ---- */

struct pool {
	const struct sweep_spec *s;
	const struct sweep_opts *o;
	const unsigned char *done;
	FILE *f;
	struct run_refcache *refs; /* the references of every point, once each */
	pthread_mutex_t lock;
	long next, ran, todo;
	long passes; /* run_points() calls: replay passes and closed-loop points */
	int batch;   /* points per pass at most */
	double start_s;
	bool failed;
	struct sim_error err;
};

/* Under the lock: redraw the progress line. */
static void progress(struct pool *p)
{
	char line[128];

	if (!p->o->progress)
		return;
	sweep_progress_text(line, sizeof(line), p->ran, p->todo, now_s() - p->start_s);
	fprintf(p->o->progress, "\r%-60s", line);
	if (p->ran == p->todo)
		fputc('\n', p->o->progress);
	fflush(p->o->progress);
}

/* Under the lock: is point i one this run does? */
static bool todo_point(const struct pool *p, long i)
{
	return !sweep_bit(p->done, i) && i % p->o->nr_shards == p->o->shard;
}

/*
 * Under the lock: the next points to run, into idx (at most p->batch): the next point of
 * this run and, if it is a trace point, the following ones replayed alike (the same block
 * of the spec: trace, machine, HZ, latency limit), so that one pass over the trace feeds
 * them all. Returns how many.
 */
static int take_points(struct pool *p, long *idx)
{
	struct run_request first, q;
	int n = 0;

	while (p->next < p->s->total && !todo_point(p, p->next))
		p->next++;
	if (p->failed || p->next >= p->s->total)
		return 0;
	idx[n++] = p->next++;
	if (point_request(p->s, p->o, p->refs, idx[0], &first))
		return n;
	while (n < p->batch && p->next < p->s->total) {
		if (!todo_point(p, p->next)) {
			p->next++;
			continue;
		}
		if (point_request(p->s, p->o, p->refs, p->next, &q) || !run_same_replay(&first, &q))
			break;
		idx[n++] = p->next++;
	}
	return n;
}

static void *worker(void *ud)
{
	struct pool *p = ud;
	struct sim_error err = { 0 };
	long idx[SWEEP_MAX_BATCH];
	char *lines[SWEEP_MAX_BATCH] = { 0 };
	int n, k;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		n = take_points(p, idx);
		if (n)
			p->passes++;
		pthread_mutex_unlock(&p->lock);
		if (!n)
			return NULL;
		if (run_points(p->s, p->o, p->refs, idx, n, lines, &err)) {
			pthread_mutex_lock(&p->lock);
			if (!p->failed)
				p->err = err;
			p->failed = true;
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		pthread_mutex_lock(&p->lock);
		/* each line appended and flushed whole: a kill loses at most the points in flight */
		for (k = 0; k < n && !p->failed; k++) {
			if (fputs(lines[k], p->f) == EOF || fflush(p->f)) {
				sim_error_set(&p->err, SIM_ERR_IO, "", 0, 0, "write error: %s",
					      strerror(errno));
				p->failed = true;
			} else {
				p->ran++;
				progress(p);
			}
		}
		pthread_mutex_unlock(&p->lock);
		for (k = 0; k < n; k++) {
			sim_free(lines[k]);
			lines[k] = NULL;
		}
	}
}

/* Every machine loads and every trace opens before the results file is touched. */
static int check_inputs(const struct sweep_spec *s, struct sim_error *err)
{
	struct run_request q;
	struct machine m;
	FILE *f;
	int i, k;

	run_request_defaults(&q);
	q.wake_model = s->wake;
	for (i = 0; i < s->nr_machines; i++) {
		if (run_load_machine(&q, s->machines[i], &m, err))
			return -1;
		for (k = 0; k < s->nr_wl; k++)
			if (workload_nr_cpus(s->wl[k].wl, s->wl[k].params, &m) > machine_nr_cpus(&m))
				return sim_error_set(err, SIM_ERR_INPUT, s->source, 0, 0,
						     "workload %s needs %d CPUs, but machine %s "
						     "has %d", s->wl[k].label,
						     workload_nr_cpus(s->wl[k].wl, s->wl[k].params,
								      &m),
						     m.name, machine_nr_cpus(&m));
	}
	for (i = 0; i < s->nr_traces; i++) {
		f = fopen(s->traces[i], "r");
		if (!f)
			return sim_error_set(err, SIM_ERR_INPUT, s->traces[i], 0, 0,
					     "cannot open: %s", strerror(errno));
		fclose(f);
	}
	return 0;
}

/* Open the results file to append, created if missing, after cutting it to keep bytes (a
 * partial last line, its point run again). A regular file only; O_NONBLOCK so that a FIFO
 * put there since the scan is not waited for. */
static FILE *open_append(const char *out, long long keep, struct sim_error *err)
{
	struct stat st;
	FILE *f;
	int fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);

	if (fd < 0) {
		sim_error_set(err, SIM_ERR_IO, out, 0, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	memset(&st, 0, sizeof(st));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		not_regular(out, st.st_mode, err);
	} else if (st.st_size > keep && ftruncate(fd, (off_t)keep)) {
		sim_error_set(err, SIM_ERR_IO, out, 0, 0, "cannot truncate: %s", strerror(errno));
	} else if (!(f = fdopen(fd, "a"))) {
		sim_error_nomem(err, out);
	} else {
		return f;
	}
	close(fd);
	return NULL;
}

long sweep_run(const struct sweep_spec *s, const struct sweep_opts *o, const char *out,
	       struct sim_error *err)
{
	struct pool p = { .s = s, .o = o };
	unsigned char *done;
	pthread_t th[256];
	long long keep;
	int t, n = o->threads < 1 ? 1 : o->threads > 256 ? 256 : o->threads;
	long i;

	if (!strcmp(out, "-"))
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "sweep: -o must name a results file, not '-' (standard "
				     "output): a sweep appends to it and resumes from it");
	if (check_inputs(s, err))
		return -1;
	done = sweep_bits_new(s->total);
	if (!done)
		return sim_error_nomem(err, out);
	/* everything in the file is checked before it is touched */
	if (sweep_resume_scan(s, out, done, &keep, err)) {
		sim_free(done);
		return -1;
	}
	p.f = open_append(out, keep, err);
	if (!p.f) {
		sim_free(done);
		return -1;
	}
	p.done = done;
	p.refs = o->refs ? o->refs : run_refcache_new();
	if (!p.refs) {
		fclose(p.f);
		sim_free(done);
		return sim_error_nomem(err, out);
	}
	for (i = 0; i < s->total; i++) /* the points this run will do */
		p.todo += todo_point(&p, i);
	/* a pass per thread at least, while there are points enough */
	p.batch = o->batch > 0 ? o->batch : (int)((p.todo + n - 1) / n);
	p.batch = p.batch < 1 ? 1 : p.batch > SWEEP_MAX_BATCH ? SWEEP_MAX_BATCH : p.batch;
	p.start_s = now_s();
	pthread_mutex_init(&p.lock, NULL);
	for (t = 0; t < n; t++)
		if (pthread_create(&th[t], NULL, worker, &p))
			break;
	if (!t)
		worker(&p);
	while (t-- > 0)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&p.lock);
	if (!o->refs)
		run_refcache_free(p.refs);
	sim_free(done);
	if (fclose(p.f) && !p.failed) {
		p.failed = true;
		sim_error_set(&p.err, SIM_ERR_IO, out, 0, 0, "write error: %s", strerror(errno));
	}
	if (o->passes)
		*o->passes = p.passes;
	if (p.failed) {
		*err = p.err;
		return -1;
	}
	return p.ran;
}
