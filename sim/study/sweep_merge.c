// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep_merge.c - idlesim sweep merge (see sweep.h): join the results files of the shards
 * of one sweep into one, every point exactly once and in point order.
 *
 * A file of its own because merging only reads result lines (sweep_each_line(), see
 * sweep_int.h) and writes them back: it needs neither the spec nor the runner, and its
 * memory rules (a bit per point, a window of lines) are its own.
 */
#include "sim/study/sweep.h"
#include "sim/study/sweep_int.h"
#include "sim/base/alloc.h"
#include "sim/base/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Merge streams: a first pass over the shards checks them (same spec, version and size;
 * each point once, none missing) with a bit per point; then each further pass collects the
 * lines of a window of point indices, as many as `budget` bytes hold at the longest line,
 * and writes them in order. Memory is the bitmap plus the window, whatever the number of
 * points; a sweep that fits the window is read twice (8 MiB: about 8,000 points of a
 * trace; a million points take about 130 quick passes that only look for the index).
 */
struct merged {
	const char *source;
	char spec[17], version[32];
	long total;
	unsigned char *seen;
	/* the window [lo, lo + n) of a writing pass */
	long lo, n;
	char **line;
	size_t *len;
};

static int merge_check(void *ud, const struct sweep_line *li, const char *line, size_t len,
		       long lineno, struct sim_error *err)
{
	struct merged *m = ud;

	(void)line;
	(void)len;
	if (!m->seen) {
		snprintf(m->spec, sizeof(m->spec), "%s", li->spec);
		snprintf(m->version, sizeof(m->version), "%s", li->version);
		m->total = li->total;
		m->seen = sweep_bits_new(li->total);
		if (!m->seen)
			return sim_error_nomem(err, m->source);
	}
	if (strcmp(li->spec, m->spec) || strcmp(li->version, m->version) || li->total != m->total)
		return sim_error_set(err, SIM_ERR_INPUT, m->source, (int)lineno, 1,
				     "a foreign shard: spec %s, idlesim %s, %ld points (the first "
				     "shard: spec %s, idlesim %s, %ld points)",
				     li->spec, li->version, li->total, m->spec, m->version,
				     m->total);
	if (sweep_bit(m->seen, li->index))
		return sim_error_set(err, SIM_ERR_INPUT, m->source, (int)lineno, 1,
				     "point %ld is already in a shard", li->index);
	sweep_bit_set(m->seen, li->index);
	return 0;
}

/*
 * A writing pass over one shard: the lines of the window [m->lo, m->lo + m->n). The first
 * pass parsed and checked every line, so this one only reads the index, the first
 * top-level "index" key of a line as sweep writes it (spec and version come before it and
 * cannot contain it): a merge of many windows reads the shards many times.
 */
static int merge_collect(struct merged *m, const char *path, size_t max_line,
			 struct sim_error *err)
{
	char *line = sim_malloc(max_line + 1), *at, *end;
	size_t n;
	long k;
	int rc = 0;
	FILE *f;

	if (!line)
		return sim_error_nomem(err, path);
	if (sweep_open_results(path, false, &f, err)) {
		sim_free(line);
		return -1;
	}
	/* every line is at most max_line bytes long (the first pass measured them) */
	while (!rc && fgets(line, (int)max_line + 1, f)) {
		n = strlen(line);
		if (!n || line[n - 1] != '\n') {
			if (!feof(f))
				rc = sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
						   "changed while merging (a longer line)");
			break;
		}
		at = strstr(line, "\"index\":");
		k = at ? strtol(at + 8, &end, 10) - m->lo : -1;
		if (!at || end == at + 8) {
			rc = sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
					   "changed while merging (a line without an index)");
			break;
		}
		if (k < 0 || k >= m->n || m->line[k])
			continue;
		m->line[k] = sim_malloc(n);
		if (!m->line[k]) {
			rc = sim_error_nomem(err, path);
			break;
		}
		memcpy(m->line[k], line, n);
		m->len[k] = n;
	}
	if (!rc && ferror(f))
		rc = sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
	sim_free(line);
	fclose(f);
	return rc ? -1 : 0;
}

static void merge_window_free(struct merged *m)
{
	long k;

	for (k = 0; m->line && k < m->n; k++) {
		sim_free(m->line[k]);
		m->line[k] = NULL;
	}
}

int sweep_merge_budget(const char *const *in, int n, const char *out, size_t budget,
		       struct sim_error *err)
{
	struct merged m = { 0 };
	struct outfile of;
	struct sweep_read rd;
	size_t max_line = 1;
	long i;
	int k, rc = -1;

	for (k = 0; k < n; k++) {
		m.source = in[k];
		if (sweep_each_line(in[k], NULL, false, &rd, merge_check, &m, err))
			goto out;
		if (rd.partial) {
			sim_error_set(err, SIM_ERR_INPUT, in[k], 0, 0,
				      "ends in a partial line: rerun its shard to complete it");
			goto out;
		}
		if (rd.longest > max_line)
			max_line = rd.longest;
	}
	if (!m.seen) {
		sim_error_set(err, SIM_ERR_INPUT, n ? in[0] : "", 0, 0, "no results to merge");
		goto out;
	}
	for (i = 0; i < m.total; i++)
		if (!sweep_bit(m.seen, i)) {
			sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				      "point %ld of %ld is in no shard: the sweep is incomplete", i,
				      m.total);
			goto out;
		}
	m.n = (long)(budget / max_line);
	m.n = m.n < 1 ? 1 : m.n > m.total ? m.total : m.n;
	m.line = sim_calloc((size_t)m.n, sizeof(*m.line));
	m.len = sim_calloc((size_t)m.n, sizeof(*m.len));
	if (!m.line || !m.len) {
		sim_error_nomem(err, out);
		goto out;
	}
	if (outfile_open(&of, out, err))
		goto out;
	for (m.lo = 0; m.lo < m.total; m.lo += m.n) {
		for (k = 0; k < n; k++) {
			m.source = in[k];
			if (merge_collect(&m, in[k], max_line, err)) {
				merge_window_free(&m);
				outfile_abort(&of);
				goto out;
			}
		}
		for (i = 0; i < m.n && m.lo + i < m.total; i++) {
			if (!m.line[i]) { /* checked in the first pass: a shard changed since */
				sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					      "point %ld vanished from the shards while merging",
					      m.lo + i);
				merge_window_free(&m);
				outfile_abort(&of);
				goto out;
			}
			fwrite(m.line[i], 1, m.len[i], of.f);
		}
		merge_window_free(&m);
	}
	rc = ferror(of.f) ? outfile_fail(&of, err) : outfile_commit(&of, err);
out:
	sim_free(m.seen);
	sim_free(m.line);
	sim_free(m.len);
	return rc;
}

int sweep_merge(const char *const *in, int n, const char *out, struct sim_error *err)
{
	return sweep_merge_budget(in, n, out, SWEEP_MERGE_BUDGET, err);
}
