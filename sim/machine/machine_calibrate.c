// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_calibrate.c - measured wake-latency distributions from wult (intel/wult): each
 * row of its datapoints.csv is one measured wake-up, with WakeLatency in us and the
 * C-state the CPU requested (ReqCState); every other column is ignored.
 *
 * Rows are matched to the machine's states by name (case-insensitive); a polling state
 * has no exit to model, and names the machine lacks are counted and reported, not fatal.
 * Each state with samples gets the quantiles MACHINE_CALIBRATE_P of its samples (linear
 * between order statistics: for p, h = (n - 1) p and x[floor h] + (h - floor h) (x[floor
 * h + 1] - x[floor h]), "type 7" of Hyndman and Fan, numpy's default) in integer ns, and
 * the median as its typical value. docs/wake-latency.md shows the arithmetic on an example.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CSV_LINE_MAX 4096
#define MAX_UNMATCHED 16

static const double calibrate_p[] = {0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0};

struct samples {
	double *v; /* ns */
	size_t n, cap;
};

struct unmatched {
	char name[CPUIDLE_NAME_LEN];
	unsigned long count;
};

struct calib {
	const char *path;
	struct samples s[CPUIDLE_STATE_MAX];
	struct unmatched un[MAX_UNMATCHED];
	int nr_un;
	unsigned long un_other; /* rows of names beyond MAX_UNMATCHED */
	unsigned long rows;
};

/* Split line in place at commas; returns the number of fields (at most max). */
static int split_csv(char *line, char **field, int *col, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		if (n == max)
			return max + 1;
		field[n] = p;
		col[n] = (int)(p - line) + 1;
		n++;
		if (!c)
			return n;
		*c = '\0';
		p = c + 1;
	}
}

/* The header's columns: where WakeLatency and ReqCState are, and how many there are. */
static int read_header(struct calib *c, char *line, int *lat_col, int *req_col, int *ncols,
		       struct sim_error *err)
{
	char *field[256];
	int col[256], n = split_csv(line, field, col, 256), i;

	if (n > 256)
		return sim_error_set(err, SIM_ERR_INPUT, c->path, 1, 1,
				     "more than 256 columns: is this wult's datapoints.csv?");
	*lat_col = *req_col = -1;
	for (i = 0; i < n; i++) {
		if (!strcmp(field[i], "WakeLatency"))
			*lat_col = i;
		else if (!strcmp(field[i], "ReqCState"))
			*req_col = i;
	}
	*ncols = n;
	if (*lat_col < 0 || *req_col < 0)
		return sim_error_set(err, SIM_ERR_INPUT, c->path, 1, 1,
				     "the header row has no %s column: expected wult's "
				     "datapoints.csv, whose header names WakeLatency (us) and "
				     "ReqCState",
				     *lat_col < 0 ? "WakeLatency" : "ReqCState");
	return 0;
}

static void note_unmatched(struct calib *c, const char *name)
{
	int i;

	for (i = 0; i < c->nr_un; i++)
		if (!strcmp(c->un[i].name, name)) {
			c->un[i].count++;
			return;
		}
	if (c->nr_un == MAX_UNMATCHED) {
		c->un_other++;
		return;
	}
	snprintf(c->un[c->nr_un].name, sizeof(c->un[c->nr_un].name), "%s", name);
	c->un[c->nr_un++].count = 1;
}

/* One data row: its latency goes to the samples of the state it requested. */
static int read_row(struct calib *c, const struct machine *m, char *line, int lineno,
		    int lat_col, int req_col, int ncols, struct sim_error *err)
{
	char *field[256], *end;
	int col[256], n = split_csv(line, field, col, 256), k;
	double us;

	if (n != ncols)
		return sim_error_set(err, SIM_ERR_INPUT, c->path, lineno, 1,
				     "%d fields where the header has %d", n > 256 ? 257 : n, ncols);
	errno = 0;
	us = strtod(field[lat_col], &end);
	if (end == field[lat_col] || *end || errno || !isfinite(us) || us < 0 ||
	    us * SIM_NS_PER_US > (double)STATE_MAX_NS)
		return sim_error_set(err, SIM_ERR_INPUT, c->path, lineno, col[lat_col],
				     "WakeLatency '%s' is not a latency in us (a number >= 0)",
				     field[lat_col]);
	k = machine_state_lookup(m, field[req_col]);
	/* a decimal ReqCState would look up an index: only names count */
	if (k >= 0 && strcasecmp(m->states[k].name, field[req_col]))
		k = -1;
	if (k < 0 || (m->states[k].flags & CPUIDLE_FLAG_POLLING)) {
		note_unmatched(c, field[req_col]);
		return 0;
	}
	if (sim_grow((void **)&c->s[k].v, &c->s[k].cap, c->s[k].n + 1, sizeof(double)))
		return sim_error_nomem(err, c->path);
	c->s[k].v[c->s[k].n++] = us * SIM_NS_PER_US;
	c->rows++;
	return 0;
}

static int read_csv(struct calib *c, const struct machine *m, struct sim_error *err)
{
	FILE *f = fopen(c->path, "r");
	char line[CSV_LINE_MAX];
	int lineno = 0, lat_col = -1, req_col = -1, ncols = 0, rc = 0;

	if (!f)
		return sim_error_set(err, SIM_ERR_IO, c->path, 0, 0, "cannot open: %s",
				     strerror(errno));
	while (!rc && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n' && !feof(f)) {
			rc = sim_error_set(err, SIM_ERR_INPUT, c->path, lineno, 1,
					   "line longer than %d bytes", CSV_LINE_MAX - 2);
			break;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (lineno == 1)
			rc = read_header(c, line, &lat_col, &req_col, &ncols, err);
		else if (len)
			rc = read_row(c, m, line, lineno, lat_col, req_col, ncols, err);
	}
	if (!rc && ferror(f))
		rc = sim_error_set(err, SIM_ERR_IO, c->path, 0, 0, "read error: %s",
				   strerror(errno));
	if (!rc && !lineno)
		rc = sim_error_set(err, SIM_ERR_INPUT, c->path, 1, 1,
				   "empty file: expected wult's datapoints.csv with a header row");
	fclose(f);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double machine_sample_quantile(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p, lo = floor(h);
	size_t i = (size_t)lo;

	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

/* The state's distribution from its sorted samples. */
static void fill_dist(struct machine_wake *w, const struct samples *s)
{
	size_t k;

	memset(w, 0, sizeof(*w));
	w->kind = MACHINE_WAKE_DIST;
	w->nr_quantiles = (int)SIM_ARRAY_SIZE(calibrate_p);
	for (k = 0; k < SIM_ARRAY_SIZE(calibrate_p); k++) {
		w->q_p[k] = calibrate_p[k];
		w->q_ns[k] = llround(machine_sample_quantile(s->v, s->n, calibrate_p[k]));
	}
	w->typical_ns = llround(machine_sample_quantile(s->v, s->n, 0.5));
}

static void report(const struct calib *c, const struct machine *m, FILE *note)
{
	int i;

	if (!note)
		return;
	for (i = 0; i < m->state_count; i++)
		if (c->s[i].n)
			fprintf(note, "calibrate: %s: %zu wake-ups, median %.3f us\n",
				m->states[i].name, c->s[i].n,
				(double)m->states[i].wake.typical_ns / SIM_NS_PER_US);
	for (i = 0; i < c->nr_un; i++)
		fprintf(note,
			"calibrate: %lu wake-up(s) requested '%s', which is no state of %s with "
			"an exit to model: ignored\n",
			c->un[i].count, c->un[i].name, m->name);
	if (c->un_other)
		fprintf(note, "calibrate: %lu more wake-up(s) of other unmatched states ignored\n",
			c->un_other);
}

int machine_calibrate_wult(struct machine *m, const char *csv_path, FILE *note,
			   struct sim_error *err)
{
	struct calib *c = sim_calloc(1, sizeof(*c));
	int i, rc;

	if (!c)
		return sim_error_nomem(err, csv_path);
	c->path = csv_path;
	rc = read_csv(c, m, err);
	if (!rc && !c->rows)
		rc = sim_error_set(err, SIM_ERR_INPUT, csv_path, 0, 0,
				   "no wake-up matches a state of %s (ReqCState names such as "
				   "C1E or C6 must be the machine's state names)",
				   m->name);
	for (i = 0; !rc && i < m->state_count; i++) {
		if (!c->s[i].n)
			continue;
		qsort(c->s[i].v, c->s[i].n, sizeof(double), cmp_double);
		fill_dist(&m->states[i].wake, &c->s[i]);
	}
	if (!rc)
		report(c, m, note);
	for (i = 0; i < CPUIDLE_STATE_MAX; i++)
		sim_free(c->s[i].v);
	sim_free(c);
	return rc;
}
