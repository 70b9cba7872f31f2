/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wltest.h - what the workload tests share: a model with its parameters, a closed-loop run
 * on a machine, its zero-exit-latency timeline as a trace, and `idlesim gen` through the
 * binary.
 */
#ifndef IDLESIM_WLTEST_H
#define IDLESIM_WLTEST_H

#include "tests/testutil.h"
#include "tests/testbin.h"
#include "sim/base/common.h"
#include "sim/workload/workloads.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define C10_EXIT_NS 890000

struct wl_setup {
	const struct workload *w;
	int64_t p[WL_MAX_PARAMS];
};

/*
 * A workload with its defaults, then NAME=VALUE pairs ending with NULL. Placement is
 * pinned unless a pair sets it: these tests work the models' arithmetic out by hand on
 * fixed CPUs (thread j on CPU j mod N); the scheduler's cases set "placement" 1
 * (tests/test_loop_sched.c has the scheduler's own).
 */
static inline void setup_wl(struct wl_setup *s, const char *name, ...)
{
	const char *key;
	va_list ap;
	int k;

	s->w = workload_find(name);
	assert_non_null(s->w);
	workload_defaults(s->w, s->p);
	k = workload_param_index(s->w, "placement");
	if (k >= 0)
		s->p[k] = 0;
	va_start(ap, name);
	while ((key = va_arg(ap, const char *))) {
		k = workload_param_index(s->w, key);

		if (k < 0) {
			fprintf(stderr, "%s has no parameter %s\n", name, key);
			fail();
		}
		s->p[k] = va_arg(ap, long long);
	}
	va_end(ap);
}

static inline int run_on(const struct wl_setup *s, const char *machine, const char *gov,
		  int64_t duration_ns, uint64_t seed, struct loop_result *r, struct sim_error *err)
{
	struct sim_config cfg = { 0 };
	struct machine m;

	assert_int_equal(machine_load(machine, &m, err), 0);
	cfg.machine = &m;
	cfg.gov = gov_find(gov);
	assert_non_null(cfg.gov);
	cfg.hz = 250;
	cfg.latency_req_ns = -1;
	return workload_run(s->w, s->p, &cfg, duration_ns, seed, r, err);
}

static inline void run_skl(const struct wl_setup *s, const char *gov, int64_t duration_ns,
		    uint64_t seed, struct loop_result *r)
{
	struct sim_error err = { 0 };

	if (run_on(s, "skl", gov, duration_ns, seed, r, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
}

/* The zero-exit-latency timeline as a trace, opened for reading. */
static inline struct trace_reader *ideal_trace(const struct wl_setup *s, int64_t duration_ns,
					char **buf)
{
	struct sim_error err = { 0 };
	struct trace_header hdr = { 0 };
	struct trace_reader *tr;
	size_t len = 0;
	FILE *f = open_memstream(buf, &len);

	assert_non_null(f);
	assert_int_equal(
		workload_write_trace(s->w, s->p, NULL, duration_ns, 1, &hdr, f, NULL, &err), 0);
	fclose(f);
	tr = trace_open_string("<ideal>", *buf, &err);
	assert_non_null(tr);
	return tr;
}

/* `idlesim gen ARGS -o DIR/NAME` (stderr to DIR/err), which must succeed; the trace's text. */
static inline char *gen_text(const char *dir, const char *name, const char *args)
{
	char cmd[1024], path[256];

	snprintf(cmd, sizeof(cmd), BIN " gen %s -o %s/%s 2>%s/err", args, dir, name, dir);
	assert_int_equal(sh(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return slurp(path);
}

#endif
