// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen_size.c - estimating a generated trace's size from its beginning.
 *
 * The generators stream, so the size is learnt by writing a prefix to memory: the first
 * 1 ms of the trace, then 4, 16, ... times as long, until the prefix holds at least
 * SAMPLE_BYTES (then its size scaled by duration / prefix is the estimate: within a few per
 * cent for every workload, whose rates are constant) or is the whole trace (then the size
 * is exact). Each prefix costs at most about 4 x SAMPLE_BYTES of output.
 */
#include "sim/workload/gen_size.h"
#include "sim/base/common.h"

#include <stdio.h>
#include <stdlib.h>

#define SAMPLE_BYTES (64 * 1024)
#define FIRST_PREFIX_NS SIM_NS_PER_MS

typedef int prefix_fn(const void *ctx, int64_t duration_ns, FILE *f, struct sim_error *err);

/* The bytes written by fn over duration_ns, or -1 with err. */
static int64_t prefix_bytes(prefix_fn *fn, const void *ctx, int64_t duration_ns,
			    struct sim_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return sim_error_nomem(err, "");
	rc = fn(ctx, duration_ns, f, err);
	if (fclose(f) && !rc)
		rc = sim_error_nomem(err, "");
	free(buf);
	return rc ? -1 : (int64_t)len;
}

static int check(prefix_fn *fn, const void *ctx, int64_t duration_ns, bool force,
		 struct sim_error *err)
{
	int64_t prefix_ns = sim_min64(duration_ns, FIRST_PREFIX_NS), bytes;
	double estimate;

	if (force)
		return 0;
	for (;;) {
		bytes = prefix_bytes(fn, ctx, prefix_ns, err);
		if (bytes < 0)
			return -1;
		if (prefix_ns == duration_ns || bytes >= SAMPLE_BYTES)
			break;
		prefix_ns = duration_ns / 4 < prefix_ns ? duration_ns : prefix_ns * 4;
	}
	estimate = (double)bytes * ((double)duration_ns / (double)prefix_ns);
	if (estimate <= (double)GEN_MAX_BYTES)
		return 0;
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "gen: the trace would be about %.2f GiB (%.0f bytes, estimated from "
			     "its first %.3f s), more than the %.0f GiB that gen writes without "
			     "--force; shorten --duration-s, lower the rates, or add --force",
			     estimate / (double)GEN_MAX_BYTES, estimate, (double)prefix_ns / 1e9,
			     (double)GEN_MAX_BYTES / (1 << 30));
}

static int open_loop_prefix(const void *ctx, int64_t duration_ns, FILE *f, struct sim_error *err)
{
	struct gen_config c = *(const struct gen_config *)ctx;

	c.duration_ns = duration_ns;
	c.progress = NULL; /* an estimate: no bar */
	return gen_write(&c, f, err);
}

int gen_size_check(const struct gen_config *c, bool force, struct sim_error *err)
{
	return check(open_loop_prefix, c, c->duration_ns, force, err);
}

struct model_ctx {
	const struct workload *w;
	const int64_t *params;
	const struct wl_timers *extra;
	uint64_t seed;
	const struct trace_header *hdr;
};

static int model_prefix(const void *ctx, int64_t duration_ns, FILE *f, struct sim_error *err)
{
	const struct model_ctx *m = ctx;

	return workload_write_trace(m->w, m->params, m->extra, duration_ns, m->seed, m->hdr, f, NULL,
				    err);
}

int gen_size_check_model(const struct workload *w, const int64_t *params,
			 const struct wl_timers *extra, int64_t duration_ns, uint64_t seed,
			 const struct trace_header *hdr, bool force, struct sim_error *err)
{
	struct model_ctx m = {w, params, extra, seed, hdr};

	return check(model_prefix, &m, duration_ns, force, err);
}
