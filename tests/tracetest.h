/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracetest.h - helpers of the trace reader and writer tests (test_trace.c,
 * test_trace_records.c): open a trace given as text, read it record by record, expect an
 * error at a line and column, compare records and headers, write records to a string.
 */
#ifndef IDLESIM_TRACETEST_H
#define IDLESIM_TRACETEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "sim/trace/trace.h"

#define HDR "idlesim-trace v1\n"

static inline struct trace_reader *open_ok(const char *text)
{
	struct sim_error err = {0};
	struct trace_reader *r = trace_open_string("t", text, &err);

	if (!r)
		fail_msg("unexpected error: %d:%d: %s", err.line, err.column, err.text);
	return r;
}

static inline void next_ok(struct trace_reader *r, struct trace_record *rec)
{
	struct sim_error err = {0};
	int rc = trace_next(r, rec, &err);

	if (rc != 1)
		fail_msg("trace_next returned %d: %d:%d: %s", rc, err.line, err.column, err.text);
}

static inline void at_end(struct trace_reader *r)
{
	struct sim_error err = {0};
	struct trace_record rec;

	assert_int_equal(trace_next(r, &rec, &err), 0);
	assert_int_equal(err.code, SIM_OK);
}

/* Open text and read it to the end; the first error must be at line:col with message msg. */
static inline void expect_error(const char *text, int line, int col, const char *msg)
{
	struct sim_error err = {0};
	struct trace_reader *r = trace_open_string("t", text, &err);
	struct trace_record rec;
	int rc = 0;

	if (r) {
		while ((rc = trace_next(r, &rec, &err)) > 0)
			;
		trace_close(r);
		if (rc == 0)
			fail_msg("no error for: %s", text);
	}
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_string_equal(err.source, "t");
	assert_string_equal(err.text, msg);
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, col);
}

static inline char *memfile(FILE **f, char **buf, size_t *len)
{
	*f = open_memstream(buf, len);
	assert_non_null(*f);
	return *buf;
}

static inline void assert_same_record(const struct trace_record *a, const struct trace_record *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->time_ns, b->time_ns);
	assert_int_equal(a->length_ns, b->length_ns);
	assert_int_equal(a->next_timer_ns, b->next_timer_ns);
	assert_int_equal(a->expiry_ns, b->expiry_ns);
	assert_int_equal(a->period_ns, b->period_ns);
	assert_int_equal(a->cause, b->cause);
	assert_int_equal(a->has_iowait, b->has_iowait);
	assert_int_equal(a->has_load, b->has_load);
	assert_int_equal(a->no_resched, b->no_resched);
	assert_int_equal(a->iowait, b->iowait);
	assert_int_equal(a->load, b->load);
	assert_string_equal(a->id, b->id);
	assert_int_equal(a->index, b->index);
	assert_int_equal(a->timer_kind, b->timer_kind);
	if (a->kind == TRACE_IDLE && a->timer_kind == TIMER_HRTIMER)
		assert_int_equal(a->next_wheel_ns, b->next_wheel_ns);
}

static inline void assert_same_header(const struct trace_header *a, const struct trace_header *b)
{
	assert_int_equal(a->cpus, b->cpus);
	assert_int_equal(a->hz, b->hz);
	assert_string_equal(a->machine, b->machine);
	assert_int_equal(a->has_start, b->has_start);
	assert_int_equal(a->has_end, b->has_end);
	if (a->has_start)
		assert_int_equal(a->start_ns, b->start_ns);
	if (a->has_end)
		assert_int_equal(a->end_ns, b->end_ns);
	assert_string_equal(a->source, b->source);
}

/* The header and the records written by the writer, as one string (malloc'ed). */
static inline char *written(const struct trace_header *h, struct trace_record *recs, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	memfile(&f, &buf, &len);
	assert_int_equal(trace_write_header(f, h), 0);
	for (i = 0; i < n; i++) {
		recs[i].index = (long)i;
		assert_int_equal(trace_write_record(f, &recs[i]), 0);
	}
	fclose(f);
	return buf;
}

/* Read text back, check that it gives recs[0..n), then write it out again identically. */
static inline void roundtrip(const char *text, const struct trace_header *h,
		      const struct trace_record *recs, long n)
{
	struct trace_reader *r = open_ok(text);
	struct trace_record rec;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	long i;

	memfile(&f, &buf, &len);
	assert_same_header(trace_header(r), h);
	assert_int_equal(trace_write_header(f, trace_header(r)), 0);
	for (i = 0; i < n; i++) {
		next_ok(r, &rec);
		assert_same_record(&rec, &recs[i]);
		assert_int_equal(trace_write_record(f, &rec), 0);
	}
	at_end(r);
	trace_close(r);
	fclose(f);
	assert_string_equal(buf, text); /* canonical form is a fixed point */
	free(buf);
}

/* The same trace in JSON and text: idle records, and event records. */
#define JSON_IDLE                                                                                  \
	"{\n"                                                                                      \
	"  \"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 2, \"hz\": 1000,\n"            \
	"  \"machine\": \"test-box\", \"start\": 0, \"end\": 10000000,\n"                          \
	"  \"source\": \"hand written\",\n"                                                        \
	"  \"records\": [\n"                                                                       \
	"    {\"type\": \"idle\", \"cpu\": 0, \"start\": 0, \"length\": 500000, \"cause\": "       \
	"\"timer\"},\n"                                                                            \
	"    {\"cpu\": 1, \"type\": \"idle\", \"start\": 100, \"length\": 50000, \"cause\": "      \
	"\"irq\",\n"                                                                               \
	"     \"next_timer\": 900000, \"iowait\": 3, \"load\": 0.25},\n"                           \
	"    {\"type\": \"idle\", \"cpu\": 0, \"start\": 600000, \"length\": 50000, "              \
	"\"cause\": \"ipi\", \"load\": 1.5},\n"                                                    \
	"    {\"type\": \"idle\", \"cpu\": 1, \"start\": 700000, \"length\": 1000, "               \
	"\"cause\": \"timer\", \"iowait\": 0, \"load\": 2}\n"                                      \
	"  ]\n"                                                                                    \
	"}\n"

#define TEXT_IDLE                                                                                  \
	HDR "cpus 2\nhz 1000\nmachine test-box\nstart 0\nend 10000000\nsource hand written\n"      \
	    "idle 0 0 500000 timer\n"                                                              \
	    "idle 1 100 50000 irq next_timer=900000 iowait=3 load=0.25\n"                          \
	    "idle 0 600000 50000 ipi load=1.5\n"                                                   \
	    "idle 1 700000 1000 timer iowait=0 load=2\n"

#define JSON_EVENTS                                                                                \
	"{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 2, \"end\": 4000000,\n"         \
	" \"records\": [\n"                                                                        \
	"  {\"type\": \"timer\", \"cpu\": 0, \"time\": 0, \"id\": \"tick.0\", \"expiry\": "        \
	"1000000, \"period\": 1000000},\n"                                                         \
	"  {\"type\": \"timer\", \"cpu\": 1, \"time\": 0, \"id\": \"net:rx-1\", \"expiry\": "      \
	"2500000},\n"                                                                              \
	"  {\"type\": \"busy\", \"cpu\": 0, \"time\": 0, \"duration\": 20000, \"iowait\": 1, "     \
	"\"load\": 0.75},\n"                                                                       \
	"  {\"type\": \"wake\", \"cpu\": 1, \"time\": 1200000, \"cause\": \"ipi\"},\n"             \
	"  {\"type\": \"cancel\", \"cpu\": 1, \"time\": 1300000, \"id\": \"net:rx-1\"},\n"         \
	"  {\"type\": \"wake\", \"cpu\": 0, \"time\": 3999999, \"cause\": \"irq\", \"load\": 0}\n" \
	" ]}\n"

#define TEXT_EVENTS                                                                                \
	HDR "cpus 2\nend 4000000\n"                                                                \
	    "timer 0 0 tick.0 1000000 period=1000000\n"                                            \
	    "timer 1 0 net:rx-1 2500000\n"                                                         \
	    "busy 0 0 20000 iowait=1 load=0.75\n"                                                  \
	    "wake 1 1200000 ipi\n"                                                                 \
	    "cancel 1 1300000 net:rx-1\n"                                                          \
	    "wake 0 3999999 irq load=0\n"

#endif
