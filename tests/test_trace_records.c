// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_trace_records.c - the trace format's newer record fields against traces/FORMAT.md:
 * the JSON form (equivalent to the text form, its errors at line and column), resched
 * records and the resched key (read, written, in JSON), and the timer kinds of idle and
 * timer records. The text format's basics are test_trace.c's. Expected values and
 * positions are written by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace/trace.h"
#include "tracetest.h"

/* resched=0 comes after the other optional keys; resched=1 is never written. */
static void test_writer_resched(void **state)
{
	struct trace_header h = {.cpus = 2};
	struct trace_record recs[] = {
		{.kind = TRACE_IDLE,
		 .time_ns = 30,
		 .length_ns = 5,
		 .cause = WAKE_IRQ,
		 .next_timer_ns = 7,
		 .has_iowait = true,
		 .iowait = 2,
		 .has_load = true,
		 .load = 3072,
		 .no_resched = true},
		{.kind = TRACE_IDLE,
		 .time_ns = 35,
		 .length_ns = 5,
		 .cause = WAKE_TIMER,
		 .next_timer_ns = 5,
		 .no_resched = true},
		{.kind = TRACE_IDLE,
		 .time_ns = 40,
		 .length_ns = 1,
		 .cause = WAKE_IPI,
		 .next_timer_ns = -1},
	};
	struct trace_record events[] = {
		{.kind = TRACE_TIMER,
		 .cpu = 1,
		 .time_ns = 40,
		 .id = "tick",
		 .expiry_ns = 50,
		 .period_ns = 4,
		 .no_resched = true},
		{.kind = TRACE_TIMER,
		 .time_ns = 41,
		 .id = "t",
		 .expiry_ns = 41,
		 .no_resched = true},
		{.kind = TRACE_WAKE,
		 .time_ns = 42,
		 .cause = WAKE_IRQ,
		 .has_load = true,
		 .load = 1024,
		 .no_resched = true},
		{.kind = TRACE_WAKE, .cpu = 1, .time_ns = 43, .cause = WAKE_IPI},
		{.kind = TRACE_BUSY, .time_ns = 44, .length_ns = 1},
		{.kind = TRACE_CANCEL, .cpu = 1, .time_ns = 45, .id = "tick"},
	};
	static const char idle_text[] =
		HDR "cpus 2\n"
		    "idle 0 30 5 irq next_timer=7 iowait=2 load=1.5 resched=0\n"
		    "idle 0 35 5 timer resched=0\n"
		    "idle 0 40 1 ipi\n";
	static const char event_text[] = HDR "cpus 2\n"
					     "timer 1 40 tick 50 period=4 resched=0\n"
					     "timer 0 41 t 41 resched=0\n"
					     "wake 0 42 irq load=0.5 resched=0\n"
					     "wake 1 43 ipi\n"
					     "busy 0 44 1\n"
					     "cancel 1 45 tick\n";
	struct trace_record odd = {.kind = TRACE_BUSY, .time_ns = 1, .no_resched = true};
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	(void)state;
	buf = written(&h, recs, sizeof(recs) / sizeof(recs[0]));
	assert_string_equal(buf, idle_text);
	free(buf);
	roundtrip(idle_text, &h, recs, 3);

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		events[i].next_timer_ns = -1;
	buf = written(&h, events, sizeof(events) / sizeof(events[0]));
	assert_string_equal(buf, event_text);
	free(buf);
	roundtrip(event_text, &h, events, 6);

	/* busy and cancel records have no such key: the flag is not written for them */
	memfile(&f, &buf, &len);
	assert_int_equal(trace_write_record(f, &odd), 0);
	odd.kind = TRACE_CANCEL;
	odd.id[0] = 'x';
	assert_int_equal(trace_write_record(f, &odd), 0);
	fclose(f);
	assert_string_equal(buf, "busy 0 1 0\ncancel 0 1 x\n");
	free(buf);
}





static void compare_json_text(const char *json, const char *text, int records)
{
	struct trace_reader *rj = open_ok(json), *rt = open_ok(text);
	struct sim_error err = {0};
	struct trace_record a, b;
	int n = 0;

	assert_same_header(trace_header(rj), trace_header(rt));
	for (;;) {
		int ra = trace_next(rj, &a, &err), rb = trace_next(rt, &b, &err);

		assert_int_equal(err.code, SIM_OK);
		assert_int_equal(ra, rb);
		if (ra == 0)
			break;
		assert_same_record(&a, &b);
		assert_int_equal(a.line, 0);
		assert_int_equal(a.column, 0);
		n++;
	}
	assert_int_equal(n, records);
	trace_close(rj);
	trace_close(rt);
}

static void test_json_equivalent(void **state)
{
	(void)state;
	compare_json_text(JSON_IDLE, TEXT_IDLE, 4);
	compare_json_text(JSON_EVENTS, TEXT_EVENTS, 6);
	compare_json_text("  \n{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1}",
			  HDR "cpus 1\n", 0);
}

/* A scenario whose fourth line holds the record under test, starting at column 3. */
#define JREC(rec)                                                                                  \
	"{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 2,\n"                           \
	" \"records\": [\n"                                                                        \
	"  {\"type\": \"idle\", \"cpu\": 0, \"start\": 100, \"length\": 50, "                      \
	"\"cause\": \"timer\"},\n"                                                                 \
	"  " rec "\n"                                                                              \
	" ]}\n"

static void test_json_errors(void **state)
{
	(void)state;
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 0, \"start\": -1, \"length\": 50, "
			  "\"cause\": \"timer\"}"),
		     4, 39, "start must be a non-negative integer (ns)");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 0, \"start\": 1.5, \"length\": 50, "
			  "\"cause\": \"timer\"}"),
		     4, 39, "start must be a non-negative integer (ns)");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 0, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"timer\", \"foo\": 1}"),
		     4, 83,
		     "unknown field 'foo' for idle records (expected type, cpu, start, length, "
		     "cause, next_timer, timer, next_wheel, iowait, load, resched, keep_tick or slack)");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 5, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"timer\"}"),
		     4, 27, "CPU 5 is out of range: the header says cpus 2");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 50, \"length\": 50, "
			  "\"cause\": \"timer\"}"),
		     4, 39, "records must be in time order: 50 is before 100 (records[0])");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 0, \"start\": 120, \"length\": 50, "
			  "\"cause\": \"timer\"}"),
		     4, 39,
		     "time goes backwards on CPU 0: idle period starts at 120, before the previous "
		     "one on this CPU ended at 150 (records[0])");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 0, \"start\": 200, \"cause\": \"timer\"}"),
		     4, 3, "missing field 'length' in idle record");
	expect_error(JREC("{\"type\": \"idel\", \"cpu\": 0, \"start\": 200}"), 4, 12,
		     "unknown record 'idel' (expected idle, timer, cancel, wake or busy)");
	expect_error(JREC("{\"type\": \"wake\", \"cpu\": 0, \"time\": 200, \"cause\": \"irq\"}"), 4,
		     12,
		     "this trace uses idle-interval records (records[0]); event records cannot be "
		     "mixed in");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"irq\", \"next_timer\": 10}"),
		     4, 88,
		     "next_timer (10) is shorter than the idle length (50) but the idle period was "
		     "ended by irq");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"timer\", \"load\": 1e6}"),
		     4, 84, "load 1e+06 is out of range (0 <= load < 1000000)");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"timer\", \"load\": \"1\"}"),
		     4, 84, "load must be a number");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"tick\"}"),
		     4, 67, "expected a wakeup cause (timer, irq or ipi), got 'tick'");
	expect_error(JREC("5"), 4, 3, "a record must be an object");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 4611686018427387905, "
			  "\"length\": 50, \"cause\": \"timer\"}"),
		     4, 39,
		     "start 4611686018427387905 is beyond 2^62 ns (4611686018427387904), the latest "
		     "time a trace may name");
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, "
		     "\"end\": 4611686018427387905}",
		     1, 61, "end 4611686018427387905 is out of range (0 to 4611686018427387904)");

	expect_error("{\"format\": \"foo\", \"version\": 1, \"cpus\": 1}", 1, 12,
		     "not an idlesim scenario: format must be \"idlesim-trace\"");
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 2, \"cpus\": 1}", 1, 40,
		     "unsupported trace format version 2 (this idlesim reads v1)");
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 1}", 1, 1,
		     "missing field 'cpus' (the number of CPUs, 1 to 4096)");
	expect_error(
		"{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, \"bogus\": true}", 1,
		63,
		"unknown field 'bogus' (expected format, version, cpus, hz, machine, start, "
		"end, source, tick_phase or records)");
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, \"hz\": 0}", 1,
		     60, "hz 0 is out of range (1 to 10000)");
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, \"start\": -5}",
		     1, 63, "start must be a non-negative integer (ns)");
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, \"machine\": "
		     "\"a b\"}",
		     1, 65, "the machine must be one word"); /* the text form could not say it */
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1, \"records\": 3}",
		     1, 65, "records must be an array");
	expect_error("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 1,\n"
		     " \"start\": 9, \"end\": 8}",
		     2, 21, "end (8) is before start (9)");
}

/* Syntax errors come from jansson, with its line and column. */
static void test_json_syntax(void **state)
{
	struct sim_error err = {0};

	(void)state;
	assert_null(
		trace_open_string("j", "{\"format\": \"idlesim-trace\",\n \"cpus\": 1,,\n}", &err));
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_string_equal(err.source, "j");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 12);

	sim_error_clear(&err);
	assert_null(trace_open_string("j", "{\"cpus\": 1, \"cpus\": 2}", &err));
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "duplicate"));
	assert_int_equal(err.line, 1);
}

/* resched=0|1 on idle, timer and wake records; the default is resched=1. */
static void test_resched_parse(void **state)
{
	struct trace_reader *r = open_ok(HDR "cpus 2\n"
					     "idle 0 0 100 irq resched=0\n"
					     "idle 1 50 10 timer resched=1\n"
					     "idle 0 100 20 ipi resched=0 load=1 next_timer=30\n"
					     "idle 0 120 5 timer\n");
	struct trace_record rec;

	(void)state;
	next_ok(r, &rec);
	assert_true(rec.no_resched);
	assert_int_equal(rec.length_ns, 100);
	assert_int_equal(rec.cause, WAKE_IRQ);
	next_ok(r, &rec);
	assert_false(rec.no_resched);
	next_ok(r, &rec);
	assert_true(rec.no_resched);
	assert_int_equal(rec.load, 2048);
	assert_int_equal(rec.next_timer_ns, 30);
	next_ok(r, &rec); /* starts where the previous one of CPU 0 ended */
	assert_false(rec.no_resched);
	assert_int_equal(rec.time_ns, 120);
	at_end(r);
	trace_close(r);

	r = open_ok(HDR "cpus 2\n"
			"timer 0 0 tick 10 period=10 resched=0\n"
			"wake 1 5 irq resched=0 iowait=2\n"
			"wake 1 6 ipi resched=1\n"
			"busy 1 6 3\n"
			"timer 1 7 t 8 resched=1\n"
			"cancel 0 30 tick\n");
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_TIMER);
	assert_true(rec.no_resched);
	assert_int_equal(rec.period_ns, 10);
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_WAKE);
	assert_true(rec.no_resched);
	assert_int_equal(rec.iowait, 2);
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_WAKE);
	assert_false(rec.no_resched);
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_BUSY);
	assert_false(rec.no_resched);
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_TIMER);
	assert_false(rec.no_resched);
	next_ok(r, &rec);
	assert_int_equal(rec.kind, TRACE_CANCEL);
	assert_false(rec.no_resched);
	at_end(r);
	trace_close(r);
}

static void test_resched_errors(void **state)
{
	(void)state;
	/* not for busy and cancel records */
	expect_error(HDR "cpus 1\nbusy 0 0 5 resched=0\n", 3, 12,
		     "unknown key 'resched' for busy records (expected iowait or load)");
	expect_error(HDR "cpus 1\ncancel 0 0 t resched=0\n", 3, 14,
		     "unexpected 'resched=0' after the timer ID of a cancel record");
	expect_error(HDR "cpus 1\nwake 0 0 irq r=0\n", 3, 14,
		     "unknown key 'r' for wake records (expected iowait, load or resched)");
	expect_error(HDR "cpus 1\nwake 0 0 irq Resched=0\n", 3, 14,
		     "unknown key 'Resched' for wake records (expected iowait, load or resched)");
	expect_error(HDR "cpus 1\ntimer 0 0 t 5 reschedule=0\n", 3, 15,
		     "unknown key 'reschedule' for timer records (expected period, resched, kind, "
		     "deferrable, slack or global)");
	/* values: 0 or 1, at the value's column */
	expect_error(HDR "cpus 1\nwake 0 0 irq resched=2\n", 3, 22,
		     "resched must be 0 or 1, got '2'");
	expect_error(HDR "cpus 1\nwake 0 0 irq resched=01\n", 3, 22,
		     "resched must be 0 or 1, got '01'");
	expect_error(HDR "cpus 1\nwake 0 0 irq resched=true\n", 3, 22,
		     "resched must be 0 or 1, got 'true'");
	expect_error(HDR "cpus 1\nwake 0 0 irq resched=-1 # no\n", 3, 22,
		     "resched must be 0 or 1, got '-1'");
	expect_error(HDR "cpus 1\nwake 0 0 irq resched=0#\n", 3, 22,
		     "resched must be 0 or 1, got '0#'");
	expect_error(HDR "cpus 1\nwake 0 0 irq resched=\n", 3, 22,
		     "expected 0 or 1 after 'resched='");
	expect_error(HDR "cpus 1\nwake 0 0 irq resched=\x01\n", 3, 22,
		     "binary data in a text trace (byte 0x01)");
	expect_error(HDR "cpus 1\nidle 0 0 5 irq resched=2\n", 3, 24,
		     "resched must be 0 or 1, got '2'");
	expect_error(HDR "cpus 1\ntimer 0 0 t 5 resched=1.0\n", 3, 23,
		     "resched must be 0 or 1, got '1.0'");
	expect_error(HDR "cpus 1\ntimer 0 0 t 5 resched=1 resched=1\n", 3, 25,
		     "duplicate key 'resched'");
	expect_error(HDR "cpus 1\nidle 0 0 5 irq resched=0 iowait=1 resched=0\n", 3, 35,
		     "duplicate key 'resched'");

	/* after resched=0, the next idle period of the CPU starts when the previous one ended */
	expect_error(HDR "cpus 4\n# after resched=0 the CPU stays in the idle loop\n"
			 "idle 0 0 100 timer\nidle 1 500 100 timer\n\n"
			 "idle 2 1000000 500000 irq resched=0\nidle 2 1500001 10 timer\n",
		     8, 8,
		     "after a wakeup with resched=0 the CPU stays idle: this idle period of CPU 2 "
		     "must start at 1500000, when the previous one (line 7) ended");
	/* other CPUs' records may come between */
	expect_error(HDR "cpus 2\nidle 0 0 100 irq resched=0\nidle 1 100 5 ipi\n"
			 "idle 0 105 10 timer\n",
		     5, 8,
		     "after a wakeup with resched=0 the CPU stays idle: this idle period of CPU 0 "
		     "must start at 100, when the previous one (line 3) ended");
	/* an earlier start is the overlap it always was */
	expect_error(
		HDR "cpus 4\nidle 2 1000 1000 irq resched=0\nidle 2 1500 10 timer\n", 4, 8,
		"time goes backwards on CPU 2: idle period starts at 1500, before the previous "
		"one on this CPU ended at 2000 (line 3)");
	/* the trace must not end there; the first such record is named, at its key */
	expect_error(HDR "cpus 4\nidle 2 0 10 irq resched=0\n", 3, 17,
		     "the trace ends after a wakeup with resched=0 on CPU 2 (line 3): the idle "
		     "period that follows it is missing");
	expect_error(HDR "cpus 4\nidle 3 0 10 irq resched=0\nidle 1 5 10 irq resched=0\n"
			 "idle 3 10 10 timer\tload=1 resched=0 # x\nidle 0 30 1 timer\n",
		     4, 17,
		     "the trace ends after a wakeup with resched=0 on CPU 1 (line 4): the idle "
		     "period that follows it is missing");
	expect_error(HDR "cpus 4\nidle 3 0 10 irq resched=0\nidle 3 10 10 timer\tload=1 "
			 "resched=0 # x\nidle 0 30 1 timer\n",
		     4, 27,
		     "the trace ends after a wakeup with resched=0 on CPU 3 (line 4): the idle "
		     "period that follows it is missing");
}

#define JSON_RESCHED_IDLE                                                                          \
	"{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 2,\n"                           \
	" \"records\": [\n"                                                                        \
	"  {\"type\": \"idle\", \"cpu\": 0, \"start\": 0, \"length\": 100, \"cause\": \"irq\", "   \
	"\"resched\": 0},\n"                                                                       \
	"  {\"type\": \"idle\", \"cpu\": 1, \"start\": 50, \"length\": 10, \"cause\": \"timer\", " \
	"\"resched\": 1},\n"                                                                       \
	"  {\"type\": \"idle\", \"cpu\": 0, \"start\": 100, \"length\": 20, \"cause\": \"ipi\", "  \
	"\"resched\": 0, \"load\": 1},\n"                                                          \
	"  {\"type\": \"idle\", \"cpu\": 0, \"start\": 120, \"length\": 5, \"cause\": "            \
	"\"timer\"}\n"                                                                             \
	" ]}\n"

#define JSON_RESCHED_EVENTS                                                                        \
	"{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 2,\n"                           \
	" \"records\": [\n"                                                                        \
	"  {\"type\": \"timer\", \"cpu\": 0, \"time\": 0, \"id\": \"tick\", \"expiry\": 10, "      \
	"\"period\": 10, \"resched\": 0},\n"                                                       \
	"  {\"type\": \"wake\", \"cpu\": 1, \"time\": 5, \"cause\": \"irq\", \"resched\": 0, "     \
	"\"iowait\": 2},\n"                                                                        \
	"  {\"type\": \"wake\", \"cpu\": 1, \"time\": 6, \"cause\": \"ipi\", \"resched\": 1},\n"   \
	"  {\"type\": \"busy\", \"cpu\": 1, \"time\": 6, \"duration\": 3},\n"                      \
	"  {\"type\": \"cancel\", \"cpu\": 0, \"time\": 30, \"id\": \"tick\"}\n"                   \
	" ]}\n"

/* A scenario whose third line holds the record under test, starting at column 3. */
#define JREC1(rec)                                                                                 \
	"{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 2,\n"                           \
	" \"records\": [\n"                                                                        \
	"  " rec "\n"                                                                              \
	" ]}\n"

static void test_resched_json(void **state)
{
	struct sim_error err = {0};

	(void)state;
	compare_json_text(JSON_RESCHED_IDLE,
			  HDR "cpus 2\nidle 0 0 100 irq resched=0\nidle 1 50 10 timer resched=1\n"
			      "idle 0 100 20 ipi load=1 resched=0\nidle 0 120 5 timer\n",
			  4);
	compare_json_text(JSON_RESCHED_EVENTS,
			  HDR "cpus 2\ntimer 0 0 tick 10 period=10 resched=0\n"
			      "wake 1 5 irq iowait=2 resched=0\nwake 1 6 ipi\nbusy 1 6 3\n"
			      "cancel 0 30 tick\n",
			  5);

	/* values, at the member's value */
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"irq\", \"resched\": 2}"),
		     4, 85, "resched must be 0 or 1, got '2'");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"irq\", \"resched\": -1}"),
		     4, 85, "resched must be 0 or 1, got '-1'");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"irq\", \"resched\": \"0\"}"),
		     4, 85, "resched must be the integer 0 or 1");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"irq\", \"resched\": 1.0}"),
		     4, 85, "resched must be the integer 0 or 1");
	expect_error(JREC("{\"type\": \"idle\", \"cpu\": 1, \"start\": 200, \"length\": 50, "
			  "\"cause\": \"irq\", \"resched\": false}"),
		     4, 85, "resched must be the integer 0 or 1");
	expect_error(JREC1("{\"type\": \"timer\", \"cpu\": 0, \"time\": 0, \"id\": \"t\", "
			   "\"expiry\": 5, \"resched\": 3}"),
		     3, 77, "resched must be 0 or 1, got '3'");
	expect_error(JREC1("{\"type\": \"wake\", \"cpu\": 0, \"time\": 0, \"cause\": \"irq\", "
			   "\"resched\": 3}"),
		     3, 68, "resched must be 0 or 1, got '3'");
	/* not for busy and cancel records */
	expect_error(
		JREC1("{\"type\": \"busy\", \"cpu\": 0, \"time\": 0, \"duration\": 5, "
		      "\"resched\": 0}"),
		3, 67,
		"unknown field 'resched' for busy records (expected type, cpu, time, duration, "
		"iowait or load)");
	expect_error(JREC1("{\"type\": \"cancel\", \"cpu\": 0, \"time\": 0, \"id\": \"t\", "
			   "\"resched\": 0}"),
		     3, 65,
		     "unknown field 'resched' for cancel records (expected type, cpu, time or id)");
	/* a duplicate member is jansson's error */
	assert_null(trace_open_string(
		"j",
		JREC1("{\"type\": \"wake\", \"cpu\": 0, \"time\": 0, \"cause\": \"irq\", "
		      "\"resched\": 0, \"resched\": 0}"),
		&err));
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "duplicate"));
	assert_int_equal(err.line, 3);

	/* the idle period after resched=0, as in text */
	expect_error(JREC1("{\"type\": \"idle\", \"cpu\": 0, \"start\": 100, \"length\": 50, "
			   "\"cause\": \"irq\", \"resched\": 0},\n"
			   "  {\"type\": \"idle\", \"cpu\": 0, \"start\": 160, \"length\": 50, "
			   "\"cause\": \"timer\"}"),
		     4, 39,
		     "after a wakeup with resched=0 the CPU stays idle: this idle period of CPU 0 "
		     "must start at 150, when the previous one (records[0]) ended");
	expect_error(JREC1("{\"type\": \"idle\", \"cpu\": 0, \"start\": 100, \"length\": 50, "
			   "\"cause\": \"irq\", \"resched\": 0}"),
		     3, 85,
		     "the trace ends after a wakeup with resched=0 on CPU 0 (records[0]): the idle "
		     "period that follows it is missing");
}

/*
 * Timer kinds (FORMAT.md): timer=hrtimer|wheel on idle records qualifies the next timer
 * (default wheel), next_wheel= the earliest wheel timer behind an hrtimer; kind= on timer
 * records. The writer writes them back; bad values fail at their column, in text and JSON.
 */
static void test_timer_kinds(void **state)
{
	struct trace_header h = {.cpus = 2};
	struct trace_record recs[] = {
		/* an hrtimer wakes the CPU at 500; a wheel timer is pending at 800 */
		{.kind = TRACE_IDLE, .time_ns = 0, .length_ns = 500, .cause = WAKE_TIMER,
		 .next_timer_ns = 500, .timer_kind = TIMER_HRTIMER, .next_wheel_ns = 800},
		/* an irq at 100 after the start (600); next an hrtimer at 300, no wheel timer */
		{.kind = TRACE_IDLE, .cpu = 1, .time_ns = 600, .length_ns = 100, .cause = WAKE_IRQ,
		 .next_timer_ns = 300, .timer_kind = TIMER_HRTIMER, .next_wheel_ns = -1},
		/* timer=wheel is the default: read, and written as nothing */
		{.kind = TRACE_IDLE, .time_ns = 700, .length_ns = 50, .cause = WAKE_IPI,
		 .next_timer_ns = 60},
	};
	struct trace_record events[] = {
		{.kind = TRACE_TIMER, .time_ns = 0, .id = "hr", .expiry_ns = 9, .period_ns = 3,
		 .timer_kind = TIMER_HRTIMER, .next_timer_ns = -1},
		{.kind = TRACE_TIMER, .time_ns = 1, .id = "w", .expiry_ns = 5, .next_timer_ns = -1},
	};
	static const char idle_text[] = HDR "cpus 2\n"
					    "idle 0 0 500 timer timer=hrtimer next_wheel=800\n"
					    "idle 1 600 100 irq next_timer=300 timer=hrtimer\n"
					    "idle 0 700 50 ipi next_timer=60\n";
	static const char event_text[] = HDR "cpus 2\n"
					     "timer 0 0 hr 9 period=3 kind=hrtimer\n"
					     "timer 0 1 w 5\n";
	struct trace_reader *r;
	struct trace_record rec;
	char *buf;

	(void)state;
	buf = written(&h, recs, sizeof(recs) / sizeof(recs[0]));
	assert_string_equal(buf, idle_text);
	free(buf);
	roundtrip(idle_text, &h, recs, 3);
	buf = written(&h, events, sizeof(events) / sizeof(events[0]));
	assert_string_equal(buf, event_text);
	free(buf);
	roundtrip(event_text, &h, events, 2);

	/* explicit wheel, in any order with the other keys; next_wheel equal to next_timer */
	r = open_ok(HDR "cpus 1\nidle 0 0 5 irq timer=wheel next_timer=9\n"
			"idle 0 10 5 ipi next_wheel=7 timer=hrtimer next_timer=7\n");
	next_ok(r, &rec);
	assert_int_equal(rec.timer_kind, TIMER_WHEEL);
	assert_int_equal(rec.next_timer_ns, 9);
	next_ok(r, &rec);
	assert_int_equal(rec.timer_kind, TIMER_HRTIMER);
	assert_int_equal(rec.next_wheel_ns, 7);
	at_end(r);
	trace_close(r);

	/* JSON: the same members by the same names */
	compare_json_text("{\"format\": \"idlesim-trace\", \"version\": 1, \"cpus\": 2,\n"
			  " \"records\": [\n"
			  "  {\"type\": \"idle\", \"cpu\": 0, \"start\": 0, \"length\": 500, "
			  "\"cause\": \"timer\", \"timer\": \"hrtimer\", \"next_wheel\": 800},\n"
			  "  {\"type\": \"idle\", \"cpu\": 1, \"start\": 600, \"length\": 100, "
			  "\"cause\": \"irq\", \"next_timer\": 300, \"timer\": \"hrtimer\"},\n"
			  "  {\"type\": \"idle\", \"cpu\": 0, \"start\": 700, \"length\": 50, "
			  "\"cause\": \"ipi\", \"next_timer\": 60, \"timer\": \"wheel\"}\n"
			  " ]}\n",
			  idle_text, 3);

	/* errors, at the value's column ("idle 0 0 5 irq " is 15 characters) */
	expect_error(HDR "cpus 1\nidle 0 0 5 timer timer=hr\n", 3, 24,
		     "timer must be hrtimer or wheel, got 'hr'");
	expect_error(HDR "cpus 1\ntimer 0 0 t 5 kind=Wheel\n", 3, 20,
		     "kind must be hrtimer or wheel, got 'Wheel'");
	expect_error(HDR "cpus 1\nidle 0 0 5 irq timer=hrtimer\n", 3, 22,
		     "timer= gives the kind of the next timer, and this irq record has none "
		     "(no next_timer)");
	expect_error(HDR "cpus 1\nidle 0 0 5 irq next_timer=9 next_wheel=10\n", 3, 40,
		     "next_wheel needs timer=hrtimer: when the next timer is a timer-wheel timer, "
		     "it is next_wheel");
	expect_error(HDR "cpus 1\nidle 0 0 5 timer timer=hrtimer next_wheel=4\n", 3, 43,
		     "next_wheel (4) is before the next timer (5), which is the earliest timer of "
		     "any kind");
	expect_error(HDR "cpus 1\nidle 0 0 5 timer timer=hrtimer timer=wheel\n", 3, 32,
		     "duplicate key 'timer'");
	expect_error(HDR "cpus 1\nwake 0 0 irq kind=hrtimer\n", 3, 14,
		     "unknown key 'kind' for wake records (expected iowait, load or resched)");
	expect_error(JREC1("{\"type\": \"timer\", \"cpu\": 0, \"time\": 0, \"id\": \"t\", "
			   "\"expiry\": 5, \"kind\": 1}"),
		     3, 74, "kind must be a string: a timer kind (hrtimer or wheel)");
	expect_error(JREC1("{\"type\": \"idle\", \"cpu\": 0, \"start\": 0, \"length\": 5, "
			   "\"cause\": \"timer\", \"timer\": \"soft\"}"),
		     3, 82, "timer must be hrtimer or wheel, got 'soft'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_equivalent),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_syntax),
		cmocka_unit_test(test_resched_parse),
		cmocka_unit_test(test_resched_errors),
		cmocka_unit_test(test_resched_json),
		cmocka_unit_test(test_writer_resched),
		cmocka_unit_test(test_timer_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
