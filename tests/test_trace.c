// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_trace.c - the trace reader and writer (sim/trace/trace.c) against traces/FORMAT.md.
 *
 * Expected values and positions are written by hand. The error cases of the text format
 * live in tests/traces/invalid/<case>/{input,expected-error}, one directory each, so that
 * other tools (the CLI tests) can reuse them; expected-error holds "LINE:COLUMN: message".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/alloc.h"
#include "sim/trace/trace.h"
#include "tracetest.h"

#ifndef IDLESIM_SOURCE_DIR
#error "IDLESIM_SOURCE_DIR must name the source root"
#endif


static void test_wake_cause_names(void **state)
{
	(void)state;
	assert_string_equal(wake_cause_name(WAKE_TIMER), "timer");
	assert_string_equal(wake_cause_name(WAKE_IRQ), "irq");
	assert_string_equal(wake_cause_name(WAKE_IPI), "ipi");
	assert_string_equal(wake_cause_name(WAKE_TICK), "tick");
	assert_string_equal(wake_cause_name(WAKE_POLL), "poll");
}

static void test_idle_records(void **state)
{
	struct trace_reader *r =
		open_ok(HDR "cpus 4\n"
			    "idle 0 100 500 timer\n"
			    "idle 3 200 1000 irq next_timer=1500 iowait=7 load=2.5\n"
			    "idle 1 300 40 ipi load=0.0001 iowait=65535\n"
			    "idle 2 300 40 irq\n"
			    "idle 0 600 9 timer next_timer=9 load=999999.9999\n");
	struct trace_record rec;

	(void)state;
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_IDLE);
	assert_int_equal(rec.cpu, 0);
	assert_int_equal(rec.time_ns, 100);
	assert_int_equal(rec.length_ns, 500);
	assert_int_equal(rec.cause, WAKE_TIMER);
	assert_int_equal(rec.next_timer_ns, 500); /* implied by cause timer */
	assert_false(rec.has_iowait);
	assert_false(rec.has_load);
	assert_int_equal(rec.index, 0);
	assert_int_equal(rec.line, 3);
	assert_int_equal(rec.column, 8);

	next_ok(r, &rec);
	assert_int_equal(rec.cpu, 3);
	assert_int_equal(rec.time_ns, 200);
	assert_int_equal(rec.length_ns, 1000);
	assert_int_equal(rec.cause, WAKE_IRQ);
	assert_int_equal(rec.next_timer_ns, 1500);
	assert_true(rec.has_iowait);
	assert_int_equal(rec.iowait, 7);
	assert_true(rec.has_load);
	assert_int_equal(rec.load, 5120);
	assert_int_equal(rec.index, 1);
	assert_int_equal(rec.line, 4);

	next_ok(r, &rec);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.cause, WAKE_IPI);
	assert_int_equal(rec.next_timer_ns, -1); /* no timer pending */
	assert_int_equal(rec.iowait, 65535);
	assert_int_equal(rec.load, 0); /* 0.2048 rounds to 0 */
	assert_true(rec.has_load);

	next_ok(r, &rec);
	assert_int_equal(rec.cpu, 2);
	assert_int_equal(rec.time_ns, 300); /* equal times are in order */
	assert_int_equal(rec.next_timer_ns, -1);

	next_ok(r, &rec);
	assert_int_equal(rec.time_ns, 600);
	assert_int_equal(rec.next_timer_ns, 9);
	assert_int_equal(rec.load, 2048000000UL); /* 999999.9999 * 2048 = 2047999999.8 */
	assert_int_equal(rec.index, 4);
	at_end(r);
	trace_close(r);
}

static void test_event_records(void **state)
{
	struct trace_reader *r = open_ok(HDR "cpus 2\n"
					     "timer 1 0 a.B_9:x-y 1000 period=250\n"
					     "timer 0 10 t 10\n"
					     "cancel 1 20 a.B_9:x-y\n"
					     "wake 0 30 irq iowait=2\n"
					     "wake 1 30 ipi load=1\n"
					     "busy 0 30 0\n"
					     "busy 1 40 500 load=0.75 iowait=0\n");
	struct trace_record rec;

	(void)state;
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_TIMER);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.time_ns, 0);
	assert_string_equal(rec.id, "a.B_9:x-y");
	assert_int_equal(rec.expiry_ns, 1000);
	assert_int_equal(rec.period_ns, 250);
	assert_int_equal(rec.column, 9);

	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_TIMER);
	assert_string_equal(rec.id, "t");
	assert_int_equal(rec.expiry_ns, 10); /* expiry == time is allowed */
	assert_int_equal(rec.period_ns, 0);

	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_CANCEL);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.time_ns, 20);
	assert_string_equal(rec.id, "a.B_9:x-y");
	assert_int_equal(rec.column, 10);

	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_WAKE);
	assert_int_equal(rec.cause, WAKE_IRQ);
	assert_true(rec.has_iowait);
	assert_int_equal(rec.iowait, 2);
	assert_false(rec.has_load);

	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_WAKE);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.cause, WAKE_IPI);
	assert_false(rec.has_iowait);
	assert_int_equal(rec.load, 2048);

	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_BUSY);
	assert_int_equal(rec.length_ns, 0);

	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_BUSY);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.time_ns, 40);
	assert_int_equal(rec.length_ns, 500);
	assert_int_equal(rec.load, 1536);
	assert_true(rec.has_iowait);
	assert_int_equal(rec.iowait, 0);
	assert_int_equal(rec.index, 6);
	at_end(r);
	trace_close(r);
}

static void test_header_defaults(void **state)
{
	struct trace_reader *r = open_ok(HDR "cpus 3\n");
	const struct trace_header *h = trace_header(r);

	(void)state;
	assert_int_equal(h->version, 1);
	assert_int_equal(h->cpus, 3);
	assert_int_equal(h->hz, 0);
	assert_string_equal(h->machine, "");
	assert_false(h->has_start);
	assert_false(h->has_end);
	assert_string_equal(h->source, "");
	assert_string_equal(trace_source_name(r), "t");
	at_end(r);
	at_end(r); /* and stays there */
	trace_close(r);
}

static void test_header_full(void **state)
{
	struct trace_reader *r = open_ok(HDR "source \t idlesim gen --seed 3 # all of it \t \n"
					     "end 9000\n"
					     "machine skylake-client # a comment\n"
					     "hz 10000\n"
					     "start 1000\n"
					     "cpus 4096\n"
					     "busy 4095 1000 5\n"
					     "wake 0 9000 irq\n");
	const struct trace_header *h = trace_header(r);
	struct trace_record rec;

	(void)state;
	assert_int_equal(h->cpus, 4096);
	assert_int_equal(h->hz, 10000);
	assert_string_equal(h->machine, "skylake-client");
	assert_true(h->has_start);
	assert_int_equal(h->start_ns, 1000);
	assert_true(h->has_end);
	assert_int_equal(h->end_ns, 9000);
	assert_string_equal(h->source, "idlesim gen --seed 3 # all of it");
	next_ok(r, &rec); /* at start: allowed */
	assert_int_equal(rec.cpu, 4095);
	next_ok(r, &rec); /* at end: allowed */
	assert_int_equal(rec.time_ns, 9000);
	at_end(r);
	trace_close(r);
}

static void test_crlf_comments_blank(void **state)
{
	struct trace_reader *r = open_ok("idlesim-trace v1 # the magic\r\n"
					 "\r\n"
					 "# caf\xc3\xa9 \xe2\x80\x94 UTF-8 in a comment\r\n"
					 "   \t  \r\n"
					 "cpus\t2\r\n"
					 "\tidle  1\t5 10 irq   iowait=1# not a comment\r\n");
	struct sim_error err = {0};
	struct trace_record rec;

	(void)state;
	/* '#' inside a token is part of it: iowait=1# is not a number */
	assert_int_equal(trace_next(r, &rec, &err), -1);
	assert_int_equal(err.line, 6);
	assert_int_equal(err.column, 28);
	assert_string_equal(err.text, "expected a number of tasks (0 to 65535), got '1#'");
	trace_close(r);

	r = open_ok("idlesim-trace v1\r\n"
		    "cpus 2 # two\r\n"
		    "\r\n"
		    "\tidle  1\t5 10 irq   iowait=1 # comment\r\n"
		    "# between\r\n"
		    "idle 0 20 10 timer"); /* no newline at the end: fine */
	next_ok(r, &rec);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.time_ns, 5);
	assert_int_equal(rec.length_ns, 10);
	assert_int_equal(rec.iowait, 1);
	assert_int_equal(rec.line, 4);
	assert_int_equal(rec.column, 10);
	next_ok(r, &rec);
	assert_int_equal(rec.cpu, 0);
	assert_int_equal(rec.time_ns, 20);
	assert_int_equal(rec.cause, WAKE_TIMER);
	assert_int_equal(rec.line, 6);
	at_end(r);
	trace_close(r);
	expect_error(HDR "cpus 1\r\nidle 0 5 10 timer#\r\n", 3, 13,
		     "expected a wakeup cause (timer, irq or ipi), got 'timer#'");

	r = open_ok("idlesim-trace v1\r\ncpus 1\r\nidle 0 20 10 timer\r\n\r\n");
	next_ok(r, &rec);
	assert_int_equal(rec.cause, WAKE_TIMER);
	assert_int_equal(rec.line, 3);
	at_end(r);
	trace_close(r);
}

struct load_case {
	const char *text;
	unsigned long fixed;
};

static void test_load_parse(void **state)
{
	static const struct load_case cases[] = {
		{"0", 0},
		{"0.5", 1024},
		{"1", 2048},
		{"1.0", 2048},
		{"0001.5000", 3072},
		{"0.00048828125", 1},		/* exactly 1/2048 */
		{"0.000244140625", 1},		/* exactly half of 1/2048: halves round up */
		{"0.000244140624999999999", 0}, /* just below the half */
		{"0.000732421875", 2},		/* 1.5/2048 */
		{"0.1", 205},			/* 204.8 */
		{"0.75", 1536},
		{"3.14159", 6434}, /* 6433.97 */
		{"999999", 2047997952},
		{"999999.99951171875", 2047999999}, /* the largest value below the limit */
		{"999999.9999", 2048000000},
	};
	char text[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trace_reader *r;
		struct trace_record rec;

		snprintf(text, sizeof(text), HDR "cpus 1\nwake 0 0 irq load=%s\n", cases[i].text);
		r = open_ok(text);
		next_ok(r, &rec);
		if (rec.load != cases[i].fixed)
			fail_msg("load=%s: got %lu, expected %lu", cases[i].text, rec.load,
				 cases[i].fixed);
		trace_close(r);
	}
}


/* Every fixed-point load 0..4096 (and some large ones) is written so that it reads back. */
static void test_load_roundtrip(void **state)
{
	struct trace_header h = {.cpus = 1};
	struct trace_record rec = {.kind = TRACE_BUSY, .has_load = true};
	struct trace_reader *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	unsigned long v;

	(void)state;
	memfile(&f, &buf, &len);
	assert_int_equal(trace_write_header(f, &h), 0);
	for (v = 0; v <= 4096 + 3; v++) {
		rec.load = v <= 4096 ? v : v == 4097 ? 2047999999UL : v == 4098 ? 1234567 : 99;
		rec.time_ns = (int64_t)v;
		assert_int_equal(trace_write_record(f, &rec), 0);
	}
	fclose(f);
	assert_non_null(strstr(buf, "\nbusy 0 1 0 load=0.00048828125\n"));
	assert_non_null(strstr(buf, "\nbusy 0 1024 0 load=0.5\n"));
	assert_non_null(strstr(buf, "\nbusy 0 2048 0 load=1\n"));
	assert_non_null(strstr(buf, "\nbusy 0 0 0 load=0\n"));
	r = open_ok(buf);
	for (v = 0; v <= 4096 + 3; v++) {
		next_ok(r, &rec);
		assert_int_equal(rec.load, v <= 4096   ? v
					   : v == 4097 ? 2047999999UL
					   : v == 4098 ? 1234567
						       : 99);
	}
	at_end(r);
	trace_close(r);
	free(buf);
}

/* The error cases of tests/traces/invalid, read with trace_open(). */
static void test_invalid_dir(void **state)
{
	const char *dir = IDLESIM_SOURCE_DIR "/tests/traces/invalid";
	DIR *d = opendir(dir);
	struct dirent *de;
	int cases = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[1024], epath[1024], expected[1024], got[1024];
		struct sim_error err = {0};
		struct trace_reader *r;
		struct trace_record rec;
		FILE *f;
		int rc = 0;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/input", dir, de->d_name);
		snprintf(epath, sizeof(epath), "%s/%s/expected-error", dir, de->d_name);
		f = fopen(epath, "r");
		assert_non_null(f);
		assert_non_null(fgets(expected, sizeof(expected), f));
		fclose(f);
		expected[strcspn(expected, "\n")] = '\0';

		r = trace_open(path, &err);
		if (r) {
			while ((rc = trace_next(r, &rec, &err)) > 0)
				;
			trace_close(r);
		}
		if (rc == 0 && r)
			fail_msg("%s: no error", de->d_name);
		snprintf(got, sizeof(got), "%d:%d: %s", err.line, err.column, err.text);
		if (strcmp(got, expected))
			fail_msg("%s:\n  got      %s\n  expected %s", de->d_name, got, expected);
		assert_int_equal(err.code, SIM_ERR_INPUT);
		assert_string_equal(err.source, path);
		cases++;
	}
	closedir(d);
	assert_true(cases >= 40);
}

/* The valid traces of tests/traces/valid read to the end without an error. */
static void test_valid_dir(void **state)
{
	const char *dir = IDLESIM_SOURCE_DIR "/tests/traces/valid";
	DIR *d = opendir(dir);
	struct dirent *de;
	int cases = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[1024];
		struct sim_error err = {0};
		struct trace_reader *r;
		struct trace_record rec;
		int rc;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/input", dir, de->d_name);
		r = trace_open(path, &err);
		if (!r)
			fail_msg("%s: %d:%d: %s", path, err.line, err.column, err.text);
		while ((rc = trace_next(r, &rec, &err)) > 0)
			;
		if (rc < 0)
			fail_msg("%s: %d:%d: %s", path, err.line, err.column, err.text);
		trace_close(r);
		cases++;
	}
	closedir(d);
	assert_true(cases >= 5);
}

/* Errors that are easier to build here than as files. */
static void test_inline_errors(void **state)
{
	char *text;

	(void)state;
	expect_error(HDR "hz 250\n", 2, 0,
		     "missing 'cpus' directive: the header must say how many CPUs the trace "
		     "describes");
	expect_error("idlesim-trace v1 x\n", 1, 18, "unexpected 'x' after the format version");
	expect_error("idlesim-trace 1\n", 1, 15,
		     "expected the format version 'v1' after 'idlesim-trace', got '1'");
	expect_error(" idlesim-trace v1\n", 1, 1,
		     "not an idlesim trace: the first line must be 'idlesim-trace v1' (kernel "
		     "traces: see idlesim import)");
	expect_error(" \n\t\r\n", 1, 1, "empty file: expected 'idlesim-trace v1'");
	expect_error(
		HDR "cpus 1\ncancel 0 5\n", 3, 11,
		"expected a timer ID (1 to 63 letters, digits, '_', '.', ':' or '-') at end of "
		"line");
	expect_error(HDR "cpus 1\nbusy 0 5 # done\n", 3, 10,
		     "expected a duration (ns) at end of line");
	expect_error(HDR "cpus 1\nmachine\n", 3, 8, "expected a name after 'machine'");
	expect_error(HDR "cpus 1\nstart -5\n", 3, 7, "expected a time (ns), got '-5'");
	expect_error(HDR "cpus 1\nidle 0 +5 1 timer\n", 3, 8,
		     "expected a start time (ns), got '+5'");
	expect_error(HDR "cpus 1\nidle 0 0x10 1 timer\n", 3, 8,
		     "expected a start time (ns), got '0x10'");
	expect_error(HDR "cpus 1\nwake 0 5 irq load=1e3\n", 3, 19,
		     "expected a load (a decimal number such as 0.75), got '1e3'");
	expect_error(HDR "cpus 1\nidle 0 0 1 irq\nidle 0 1 1 irq next_timer=1 next_timer=2\n", 4,
		     29, "duplicate key 'next_timer'");
	expect_error(
		HDR "cpus 1\nwake 0 0 irq next_timer=5\n", 3, 14,
		"unknown key 'next_timer' for wake records (expected iowait, load or resched)");
	expect_error(HDR "cpus 1\nbusy 0 0 5 \x01\n", 3, 12,
		     "binary data in a text trace (byte 0x01)");
	expect_error(HDR "cpus 1\nidle 0 0 5 irq\nidle 0 5 5 irq\nbusy 0 10 5\n", 5, 1,
		     "this trace uses idle-interval records (line 3); event records cannot be "
		     "mixed in");
	/* 2^62 = 4611686018427387904 is the latest time (sim/base/common.h); columns: "wake 0 " and
	 * "busy 0 " put the time at 8, its 19 digits end at 26, the duration is at 28 */
	expect_error(HDR "cpus 1\nwake 0 4611686018427387904 irq\nwake 0 1 irq\n", 4, 8,
		     "records must be in time order: 1 is before 4611686018427387904 (line 3)");
	expect_error(HDR "cpus 1\nwake 0 4611686018427387905 irq\n", 3, 8,
		     "time 4611686018427387905 is beyond 2^62 ns (4611686018427387904), the "
		     "latest time a trace may name");
	expect_error(HDR "cpus 1\nidle 0 9223372036854775807 1 timer\n", 3, 8,
		     "start 9223372036854775807 is beyond 2^62 ns (4611686018427387904), the "
		     "latest time a trace may name");
	/* 4611686018427387000 + 905 = 2^62 + 1 */
	expect_error(HDR "cpus 1\nbusy 0 4611686018427387000 905\n", 3, 28,
		     "time + duration is beyond 2^62 ns (4611686018427387904), the latest time "
		     "a trace may name");
	expect_error(HDR "cpus 1\nidle 0 4611686018427387904 1 timer\n", 3, 28,
		     "start + length is beyond 2^62 ns (4611686018427387904), the latest time a "
		     "trace may name");
	/* (end - start) x cpus <= 2^62: with 4 CPUs a trace spans at most 2^62 / 4 =
	 * 1152921504606846976 ns; 5 + that + 1 = 1152921504606846982 is 1 ns too far */
	expect_error(HDR "cpus 4\nstart 5\nend 1152921504606846982\n", 4, 5,
		     "end is 1152921504606846977 ns after start, but a trace of 4 CPUs spans at "
		     "most 1152921504606846976 ns (2^62 ns of CPU time)");
	expect_error(HDR "cpus 4\nend 1152921504606846982\nwake 0 5 irq\n", 4, 8,
		     "the trace starts with this record, 1152921504606846977 ns before its end, "
		     "but a trace of 4 CPUs spans at most 1152921504606846976 ns (2^62 ns of CPU "
		     "time)");
	/* "busy 0 5 " puts the duration at column 10 */
	expect_error(HDR "cpus 4\nwake 0 5 irq\nbusy 0 5 1152921504606846977\n", 4, 10,
		     "this record ends 1152921504606846977 ns after the trace's start 5, but a "
		     "trace of 4 CPUs spans at most 1152921504606846976 ns (2^62 ns of CPU time)");
	/* no record, no start: the trace starts at 0, and 2 CPUs span at most 2^61 ns */
	expect_error(HDR "cpus 2\nend 4611686018427387904\n", 3, 5,
		     "end 4611686018427387904 is more than 2305843009213693952 ns after the start "
		     "(0 without records or a start directive): a trace of 2 CPUs spans at most "
		     "that (2^62 ns of CPU time)");
	expect_error(HDR "cpus 1\nend 4611686018427387905\n", 3, 5,
		     "end 4611686018427387905 is out of range (0 to 4611686018427387904)");
	expect_error(HDR "cpus 1\nstart 9223372036854775807\n", 3, 7,
		     "start 9223372036854775807 is out of range (0 to 4611686018427387904)");

	/* a line of exactly 4096 bytes is fine, 4097 is not; in the middle of a stream too */
	text = malloc(3 * 5000);
	assert_non_null(text);
	snprintf(text, 3 * 5000, HDR "cpus 1\n#%4095s\nwake 0 0 irq\n#%4096s\n", "", "");
	expect_error(text, 5, 4097, "line is longer than 4096 bytes");
	snprintf(text, 3 * 5000, HDR "cpus 1\n#%4095s\r\nwake 0 0 irq\n#%4096s", "", "");
	expect_error(text, 5, 4097, "line is longer than 4096 bytes");
	free(text);
}

/* After an error, trace_next() keeps failing with the same message. */
/* Every instant may be 2^62 = 4611686018427387904 ns exactly (sim/base/common.h), no later. */
static void test_time_limit(void **state)
{
	struct trace_reader *r = open_ok(HDR "cpus 1\nstart 4611686018427386904\n"
					     "end 4611686018427387904\n"
					     "wake 0 4611686018427387000 irq\n"
					     "busy 0 4611686018427387000 904\n" /* ends at 2^62 */
					     "timer 0 4611686018427387904 t 9223372036854775807\n");
	struct trace_record rec;

	(void)state;
	next_ok(r, &rec);
	next_ok(r, &rec);
	assert_int_equal(rec.time_ns + rec.length_ns, 4611686018427387904LL);
	next_ok(r, &rec);
	assert_int_equal(rec.time_ns, 4611686018427387904LL);
	assert_int_equal(rec.expiry_ns, INT64_MAX); /* an expiry is not an instant of the trace */
	at_end(r);
	trace_close(r);

	/* 4 CPUs over exactly 2^62 / 4 ns: 2^62 ns of CPU time */
	r = open_ok(HDR "cpus 4\nstart 5\nend 1152921504606846981\nwake 0 5 irq\n"
			"busy 0 5 1152921504606846976\n");
	next_ok(r, &rec);
	next_ok(r, &rec);
	at_end(r);
	trace_close(r);
}

static void test_error_sticks(void **state)
{
	struct trace_reader *r = open_ok(HDR "cpus 1\nidle 0 0 x timer\nidle 0 100 1 timer\n");
	struct sim_error err = {0}, err2 = {0};
	struct trace_record rec;

	(void)state;
	assert_int_equal(trace_next(r, &rec, &err), -1);
	assert_int_equal(trace_next(r, &rec, &err2), -1);
	assert_int_equal(err2.code, SIM_ERR_INPUT);
	assert_string_equal(err2.text, err.text);
	assert_int_equal(err2.line, 3);
	assert_int_equal(err2.column, 10);
	assert_int_equal(trace_next(r, &rec, NULL), -1);
	trace_close(r);
}

static void test_missing_file(void **state)
{
	struct sim_error err = {0};
	const char *path = "/nonexistent/dir/no.trace";

	(void)state;
	assert_null(trace_open(path, &err));
	assert_int_equal(err.code, SIM_ERR_IO);
	assert_string_equal(err.source, path);
	assert_non_null(strstr(err.text, "No such file"));

	sim_error_clear(&err);
	assert_null(trace_open("/", &err)); /* a directory: open works, read does not */
	assert_int_equal(err.code, SIM_ERR_IO);
	assert_string_equal(err.source, "/");
}

/* A temporary file for generated traces; the caller unlinks it. */
static FILE *temp_file(char *path, size_t size)
{
	int fd;
	FILE *f;

	snprintf(path, size, "/tmp/test_trace.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	return f;
}

static void idle_record(struct trace_record *rec, long i)
{
	memset(rec, 0, sizeof(*rec));
	rec->kind = TRACE_IDLE;
	rec->cpu = (int)(i % 4);
	rec->time_ns = 1000 * i;
	rec->length_ns = 3000 + i % 1000;
	rec->cause = (enum wake_cause)(i % 3);
	rec->next_timer_ns = rec->cause == WAKE_TIMER ? rec->length_ns
			     : i % 2		      ? rec->length_ns + i
						      : -1;
	rec->has_iowait = i % 5 == 0;
	rec->iowait = rec->has_iowait ? (unsigned int)(i % 7) : 0;
	rec->has_load = i % 3 == 1;
	rec->load = rec->has_load ? (unsigned long)(i * 37 % 100000) : 0;
}

/* 200k records read with a constant number of allocations: the reader streams. */
static void test_streaming(void **state)
{
	struct trace_header h = {.cpus = 4};
	struct sim_error err = {0};
	struct trace_reader *r;
	struct trace_record rec, want;
	char path[64];
	FILE *f = temp_file(path, sizeof(path));
	long i, n = 200000;

	(void)state;
	assert_int_equal(trace_write_header(f, &h), 0);
	for (i = 0; i < n; i++) {
		idle_record(&rec, i);
		assert_int_equal(trace_write_record(f, &rec), 0);
	}
	assert_int_equal(fclose(f), 0);

	r = trace_open(path, &err);
	assert_non_null(r);
	for (i = 0; i < 1000; i++)
		next_ok(r, &rec);
	sim_alloc_fail_after(-1); /* count from here */
	for (; i < n; i++) {
		next_ok(r, &rec);
		idle_record(&want, i);
		if (rec.time_ns != want.time_ns || rec.load != want.load ||
		    rec.next_timer_ns != want.next_timer_ns)
			fail_msg("record %ld differs", i);
		assert_int_equal(rec.index, i);
		assert_int_equal(rec.line, i + 3);
	}
	at_end(r);
	assert_int_equal(sim_alloc_fail_after(-1), 0);
	trace_close(r);
	unlink(path);
}

/* A long line that straddles a refill of the 64 KiB buffer is still caught, at its line. */
static void test_long_line_stream(void **state)
{
	struct trace_header h = {.cpus = 1};
	struct sim_error err = {0};
	struct trace_reader *r;
	struct trace_record rec;
	char path[64];
	FILE *f = temp_file(path, sizeof(path));
	long i, n = 3000; /* about 70 KiB of records */
	int rc;

	(void)state;
	assert_int_equal(trace_write_header(f, &h), 0);
	for (i = 0; i < n; i++) {
		idle_record(&rec, i);
		rec.cpu = 0;
		rec.time_ns = 10000 * i;
		assert_int_equal(trace_write_record(f, &rec), 0);
	}
	fputc('#', f);
	for (i = 0; i < 10000; i++)
		fputc('x', f);
	fputs("\nidle 0 999999999 1 timer\n", f);
	assert_int_equal(fclose(f), 0);

	r = trace_open(path, &err);
	assert_non_null(r);
	for (i = 0; (rc = trace_next(r, &rec, &err)) > 0; i++)
		;
	assert_int_equal(rc, -1);
	assert_int_equal(i, n);
	assert_int_equal(err.line, n + 3);
	assert_int_equal(err.column, 4097);
	assert_string_equal(err.text, "line is longer than 4096 bytes");
	trace_close(r);
	unlink(path);
}


static void test_writer_roundtrip(void **state)
{
	enum { N = 3000 };
	struct trace_header h = {.cpus = 4,
				 .hz = 300,
				 .machine = "m-1",
				 .has_start = true,
				 .start_ns = 0,
				 .has_end = true,
				 .end_ns = 1000000000,
				 .source = "idlesim gen --x \xc3\xa9"};
	struct trace_record *recs = calloc(N, sizeof(*recs));
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	long i;

	(void)state;
	assert_non_null(recs);
	/* idle intervals */
	memfile(&f, &buf, &len);
	assert_int_equal(trace_write_header(f, &h), 0);
	for (i = 0; i < N; i++) {
		idle_record(&recs[i], i);
		recs[i].index = i;
		if (i % 7 == 3 && i + 4 < N) {
			/* resched=0: the next period of the CPU (record i + 4) starts at W */
			recs[i].length_ns = 4000;
			if (recs[i].next_timer_ns >= 0)
				recs[i].next_timer_ns =
					recs[i].cause == WAKE_TIMER ? 4000 : 4000 + i;
			recs[i].no_resched = true;
		}
		assert_int_equal(trace_write_record(f, &recs[i]), 0);
	}
	fclose(f);
	assert_non_null(strstr(buf, "\nidle 3 3000 4000 timer resched=0\n"));
	assert_non_null(strstr(buf, "\nidle 1 17000 4000 ipi next_timer=4017 resched=0\n"));
	roundtrip(buf, &h, recs, N);
	free(buf);

	/* events */
	h.has_start = false;
	h.hz = 0;
	h.machine[0] = '\0';
	memfile(&f, &buf, &len);
	assert_int_equal(trace_write_header(f, &h), 0);
	for (i = 0; i < N; i++) {
		struct trace_record *rec = &recs[i];

		memset(rec, 0, sizeof(*rec));
		rec->kind = (enum trace_kind)(1 + i % 4);
		rec->cpu = (int)(i % 4);
		rec->time_ns = 100 * i;
		rec->next_timer_ns = -1;
		rec->index = i;
		switch (rec->kind) {
		case TRACE_TIMER:
			snprintf(rec->id, sizeof(rec->id), "t%ld.%s", i % 17,
				 i % 8 ? "x:y-z_W"
				       : "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstu"
					 "vw");
			rec->expiry_ns = rec->time_ns + i * 3;
			rec->period_ns = i % 3 ? 0 : 1000 + i;
			break;
		case TRACE_CANCEL:
			snprintf(rec->id, sizeof(rec->id), "t%ld", i % 17);
			break;
		case TRACE_WAKE:
			rec->cause = i % 8 == 2 ? WAKE_IRQ : WAKE_IPI;
			/* fall through */
		case TRACE_BUSY:
			rec->length_ns = rec->kind == TRACE_BUSY ? i * 11 : 0;
			rec->has_iowait = i % 3 == 0;
			rec->iowait = rec->has_iowait ? (unsigned int)(i * 13 % 65536) : 0;
			rec->has_load = i % 5 != 0;
			rec->load = rec->has_load ? (unsigned long)(i * 7919 % 2048000000) : 0;
			break;
		default:
			break;
		}
		rec->no_resched = (rec->kind == TRACE_TIMER && i % 8 == 4) ||
				  (rec->kind == TRACE_WAKE && i % 3 == 1);
		assert_int_equal(trace_write_record(f, rec), 0);
	}
	fclose(f);
	assert_non_null(strstr(buf, "\ntimer 0 400 t4.x:y-z_W 412 resched=0\n"));
	assert_non_null(strstr(buf, "\nwake 2 1000 irq resched=0\n"));
	assert_int_equal(strlen(recs[16].id), 63); /* the longest ID */
	assert_string_equal(recs[4].id, "t4.x:y-z_W");
	roundtrip(buf, &h, recs, N);
	free(buf);
	free(recs);
}

/* Canonical form, written by hand. */
/* Numbers at every digit count's edges, against printf's: the writer makes its own digits. */
static void test_writer_numbers(void **state)
{
	char got[TRACE_RECORD_MAX + 1], want[TRACE_RECORD_MAX];
	int64_t v[64];
	int64_t p = 1;
	size_t n = 0, i, len;

	(void)state;
	v[n++] = 0;
	v[n++] = INT64_MAX;
	for (int k = 1; k <= 18; k++) {
		p *= 10;
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
	}
	for (i = 0; i < n; i++) {
		struct trace_record r = {.kind = TRACE_IDLE,
					 .cpu = (int)(i % 11),
					 .time_ns = v[i],
					 .length_ns = v[n - 1 - i],
					 .cause = WAKE_IRQ,
					 .next_timer_ns = v[i] / 3};

		len = trace_format_record(got, &r);
		got[len] = '\0';
		snprintf(want, sizeof(want), "idle %d %" PRId64 " %" PRId64 " irq next_timer=%" PRId64 "\n",
			 r.cpu, r.time_ns, r.length_ns, r.next_timer_ns);
		assert_string_equal(got, want);
	}
}

static void test_writer_format(void **state)
{
	struct trace_header h = {.cpus = 2,
				 .hz = 250,
				 .machine = "skl",
				 .has_end = true,
				 .end_ns = 5000,
				 .source = "a\nb"};
	struct trace_record idle = {.kind = TRACE_IDLE,
				    .cpu = 1,
				    .time_ns = 10,
				    .length_ns = 20,
				    .cause = WAKE_TIMER,
				    .next_timer_ns = 20,
				    .has_load = true,
				    .load = 3072};
	struct trace_record irq = {.kind = TRACE_IDLE,
				   .time_ns = 30,
				   .length_ns = 5,
				   .cause = WAKE_IRQ,
				   .next_timer_ns = 7,
				   .has_iowait = true,
				   .iowait = 2};
	struct trace_record ipi = {.kind = TRACE_IDLE,
				   .time_ns = 30,
				   .length_ns = 5,
				   .cause = WAKE_IPI,
				   .next_timer_ns = -1};
	struct trace_record timer = {
		.kind = TRACE_TIMER, .time_ns = 40, .id = "tick", .expiry_ns = 50, .period_ns = 4};
	struct trace_record cancel = {.kind = TRACE_CANCEL, .cpu = 1, .time_ns = 41, .id = "x"};
	struct trace_record wake = {.kind = TRACE_WAKE,
				    .time_ns = 42,
				    .cause = WAKE_IPI,
				    .has_iowait = true,
				    .has_load = true,
				    .load = 1};
	struct trace_record busy = {
		.kind = TRACE_BUSY, .time_ns = 9223372036854775807LL, .length_ns = 0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memfile(&f, &buf, &len);
	assert_int_equal(trace_write_header(f, &h), 0);
	assert_int_equal(trace_write_record(f, &idle), 0);
	assert_int_equal(trace_write_record(f, &irq), 0);
	assert_int_equal(trace_write_record(f, &ipi), 0);
	assert_int_equal(trace_write_record(f, &timer), 0);
	assert_int_equal(trace_write_record(f, &cancel), 0);
	assert_int_equal(trace_write_record(f, &wake), 0);
	assert_int_equal(trace_write_record(f, &busy), 0);
	fclose(f);
	assert_string_equal(buf, "idlesim-trace v1\n"
				 "cpus 2\n"
				 "hz 250\n"
				 "machine skl\n"
				 "end 5000\n"
				 "source a b\n"
				 "idle 1 10 20 timer load=1.5\n"
				 "idle 0 30 5 irq next_timer=7 iowait=2\n"
				 "idle 0 30 5 ipi\n"
				 "timer 0 40 tick 50 period=4\n"
				 "cancel 1 41 x\n"
				 "wake 0 42 ipi iowait=0 load=0.00048828125\n"
				 "busy 0 9223372036854775807 0\n");
	free(buf);
}


/* tick_phase: read from the text and JSON headers, written back by the writer; a second one
 * is an error at its line. */
static void test_tick_phase(void **state)
{
	struct sim_error err = { 0 };
	struct trace_reader *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	r = trace_open_string("t", "idlesim-trace v1\ncpus 1\ntick_phase 1500000\n", &err);
	assert_non_null(r);
	assert_true(trace_header(r)->has_tick_phase);
	assert_int_equal(trace_header(r)->tick_phase_ns, 1500000);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(trace_write_header(f, trace_header(r)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\ntick_phase 1500000\n"));
	free(buf);
	trace_close(r);

	r = trace_open_string("j", "{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, "
				   "\"tick_phase\": 7}",
			      &err);
	assert_non_null(r);
	assert_true(trace_header(r)->has_tick_phase);
	assert_int_equal(trace_header(r)->tick_phase_ns, 7);
	trace_close(r);

	r = trace_open_string("t", "idlesim-trace v1\ncpus 1\n", &err);
	assert_non_null(r);
	assert_false(trace_header(r)->has_tick_phase);
	trace_close(r);

	assert_null(trace_open_string("t", "idlesim-trace v1\ncpus 1\ntick_phase 1\ntick_phase 2\n",
				      &err));
	assert_int_equal(err.line, 4);
}


static void test_record_error(void **state)
{
	struct trace_reader *r = open_ok(HDR "cpus 1\n\nwake 0 5 irq\n  busy 0 7 1\n");
	struct sim_error err = {0};
	struct trace_record rec;

	(void)state;
	next_ok(r, &rec);
	next_ok(r, &rec);
	assert_int_equal(trace_record_error(r, &rec, &err, "bad %s", "busy"), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_string_equal(err.source, "t");
	assert_int_equal(err.line, 5);
	assert_int_equal(err.column, 10);
	assert_string_equal(err.text, "bad busy");
	trace_close(r);

	sim_error_clear(&err);
	r = open_ok(JSON_EVENTS);
	next_ok(r, &rec);
	next_ok(r, &rec);
	assert_int_equal(trace_record_error(r, &rec, &err, "second"), -1);
	assert_int_equal(err.line, 4);
	assert_int_equal(err.column, 3);
	trace_close(r);
}

/* "-" reads standard input, for text and JSON alike. */
static void test_stdin(void **state)
{
	static const char *const inputs[] = {TEXT_EVENTS, JSON_EVENTS};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct sim_error err = {0};
		struct trace_reader *r;
		struct trace_record rec;
		char path[64];
		FILE *f = temp_file(path, sizeof(path));
		int saved = dup(STDIN_FILENO), n = 0;

		fputs(inputs[i], f);
		fclose(f);
		assert_non_null(freopen(path, "r", stdin));
		r = trace_open("-", &err);
		assert_non_null(r);
		assert_string_equal(trace_source_name(r), "<stdin>");
		while (trace_next(r, &rec, &err) > 0)
			n++;
		assert_int_equal(err.code, SIM_OK);
		assert_int_equal(n, 6);
		trace_close(r);
		dup2(saved, STDIN_FILENO);
		close(saved);
		unlink(path);
	}
}

/* Every allocation may fail: the reader reports it and leaks nothing (see valgrind). */
static void test_alloc_failures(void **state)
{
	static const char *const inputs[] = {TEXT_IDLE, JSON_IDLE};
	size_t i;
	long n;

	(void)state;
	for (i = 0; i < 2; i++) {
		for (n = 0;; n++) {
			struct sim_error err = {0};
			struct trace_reader *r;
			struct trace_record rec;
			int rc = 0;

			sim_alloc_fail_after(n);
			r = trace_open_string("t", inputs[i], &err);
			if (r) {
				while ((rc = trace_next(r, &rec, &err)) > 0)
					;
				trace_close(r);
			}
			sim_alloc_fail_after(-1);
			if (r && rc == 0)
				break;
			assert_int_equal(err.code, SIM_ERR_NOMEM);
			assert_true(n < 10);
		}
		assert_true(n >= 2); /* the reader and its buffer, at least */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wake_cause_names),
		cmocka_unit_test(test_idle_records),
		cmocka_unit_test(test_event_records),
		cmocka_unit_test(test_header_defaults),
		cmocka_unit_test(test_header_full),
		cmocka_unit_test(test_crlf_comments_blank),
		cmocka_unit_test(test_load_parse),
		cmocka_unit_test(test_load_roundtrip),
		cmocka_unit_test(test_invalid_dir),
		cmocka_unit_test(test_valid_dir),
		cmocka_unit_test(test_inline_errors),
		cmocka_unit_test(test_time_limit),
		cmocka_unit_test(test_error_sticks),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_streaming),
		cmocka_unit_test(test_long_line_stream),
		cmocka_unit_test(test_writer_roundtrip),
		cmocka_unit_test(test_writer_format),
		cmocka_unit_test(test_writer_numbers),
		cmocka_unit_test(test_record_error),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_tick_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
