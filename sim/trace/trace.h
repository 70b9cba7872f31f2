/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - the native trace format (traces/FORMAT.md): streaming reader and writer.
 *
 * A reader yields the header, then records one at a time. It knows nothing of the engine:
 * it checks syntax, ranges, time order (global, and per CPU for idle intervals), CPU
 * numbers and that a file does not mix idle-interval and event records. Everything it
 * reports carries source:line:column. Text files are read in fixed-size chunks (memory
 * does not grow with the trace); JSON scenarios are loaded whole with jansson.
 */
#ifndef IDLESIM_TRACE_H
#define IDLESIM_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/error.h"

#define TRACE_MAGIC "idlesim-trace"
#define TRACE_VERSION 1
#define TRACE_MAX_LINE 4096
#define TRACE_MAX_CPUS 4096
#define TRACE_ID_LEN 64

/* The binary form (traces/FORMAT.md, "Binary form"): its magic, its version, its file suffix. */
#define TRACE_BIN_MAGIC "\x89ITB\r\n\x1a\n"
#define TRACE_BIN_MAGIC_LEN 8
#define TRACE_BIN_VERSION 1
#define TRACE_BIN_SUFFIX ".itb"

enum trace_kind {
	TRACE_IDLE,   /* idle CPU START LENGTH CAUSE [next_timer=] [timer=] [next_wheel=] ... */
	TRACE_TIMER,  /* timer CPU TIME ID EXPIRY [period=] [resched=] [kind=] */
	TRACE_CANCEL, /* cancel CPU TIME ID */
	TRACE_WAKE,   /* wake CPU TIME CAUSE [iowait=] [load=] */
	TRACE_BUSY,   /* busy CPU TIME DURATION [iowait=] [load=] */
};

/* Why an idle period ended. The first three appear in traces; the others are the engine's. */
enum wake_cause {
	WAKE_TIMER,
	WAKE_IRQ,
	WAKE_IPI,
	WAKE_TICK, /* the scheduler tick: no work, the governor is asked again */
	WAKE_POLL, /* the POLL time limit: no work, the governor is asked again */
	WAKE_NR_CAUSES
};

const char *wake_cause_name(enum wake_cause c);

/*
 * The kind of a timer. It matters for the tick-stop rule only: in high-resolution mode
 * tick_nohz_next_event() looks at timer-wheel timers, not at hrtimers (FORMAT.md).
 * TIMER_WHEEL is 0: a zeroed record, or one without the keys, has wheel timers.
 */
enum timer_kind { TIMER_WHEEL, TIMER_HRTIMER };

const char *timer_kind_name(enum timer_kind k);

struct trace_record {
	enum trace_kind kind;
	int cpu;
	int64_t time_ns;     /* START for idle records */
	int64_t length_ns;   /* idle: LENGTH; busy: DURATION */
	int64_t next_timer_ns; /* idle: time from START to the next timer; -1 = none */
	enum timer_kind timer_kind; /* idle: kind of that next timer (timer=); timer: kind= */
	int64_t next_wheel_ns; /* idle with TIMER_HRTIMER only: time from START to the earliest
				* timer-wheel timer (next_wheel=), >= next_timer_ns; -1 = none */
	int64_t keep_tick_ns; /* idle: keep_tick=, time from START during which
			       * tick_nohz_next_event() keeps the next tick; 0 = none */
	int64_t expiry_ns;   /* timer: absolute expiry */
	int64_t period_ns;   /* timer: 0 = one-shot */
	bool deferrable;     /* timer: deferrable=1, TIMER_DEFERRABLE (wheel timers only) */
	bool global;	     /* timer: global=1, not TIMER_PINNED: migrates (v6.9+ pull model) */
	/* slack=: the hrtimer may run from this long before its (hard) expiry, at an earlier
	 * hrtimer interrupt (its soft expiry, hrtimer_set_expires_range_ns()); idle: of the
	 * hrtimer that ends a timer record; timer: of an hrtimer. 0 = none. */
	int64_t slack_ns;
	enum wake_cause cause; /* idle, wake */
	bool has_iowait, has_load;
	bool no_resched;     /* idle, wake, timer: resched=0, the wakeup wakes no task */
	unsigned int iowait;
	unsigned long load;  /* FIXED_1 (2048) fixed point */
	char id[TRACE_ID_LEN]; /* timer, cancel */
	/* where the record is, for messages: */
	long index;	     /* 0-based record number */
	int line, column;    /* of the record's time field (text); 0 for JSON and binary */
	int64_t offset;	     /* binary form: the record's byte offset in the file; else 0 */
};

struct trace_header {
	int version;
	int cpus;
	int hz;		/* 0 if not given */
	char machine[64];
	bool has_start, has_end, has_tick_phase;
	int64_t start_ns, end_ns;
	/* tick_phase: the jiffy grid's edges are at tick_phase_ns + k * TICK_NSEC (FORMAT.md);
	 * without it, at start + k * TICK_NSEC */
	int64_t tick_phase_ns;
	/* Not in a file: the idle periods of a run whose timers already fired (a closed
	 * loop's, replayed for its oracle): replay moves none of their times to the grid. */
	bool as_recorded;
	char source[512];
};

struct trace_reader;

/*
 * Open a trace file (binary by its magic, else text or JSON, told apart by the first
 * non-blank byte) and read its header. "-" reads standard input. Returns NULL with err set
 * on failure. Errors in a binary trace name the byte offset: "FILE: byte N: message".
 */
struct trace_reader *trace_open(const char *path, struct sim_error *err);
/* The same, naming the file `name` in messages (a spooled standard input, sim/base/spool.h). */
struct trace_reader *trace_open_as(const char *path, const char *name, struct sim_error *err);
/* The same from a string; `name` is used in messages. */
struct trace_reader *trace_open_string(const char *name, const char *text, struct sim_error *err);
void trace_close(struct trace_reader *r);

const struct trace_header *trace_header(const struct trace_reader *r);
const char *trace_source_name(const struct trace_reader *r);
/* The trace is in the binary form. */
bool trace_is_binary(const struct trace_reader *r);

/*
 * Read the next record. Returns 1 with *rec filled, 0 at the end of the trace, -1 with
 * err set on bad input.
 */
int trace_next(struct trace_reader *r, struct trace_record *rec, struct sim_error *err);

/* Set err to `message` at the position of rec (for checks done by later stages). */
int trace_record_error(struct trace_reader *r, const struct trace_record *rec,
		       struct sim_error *err, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A record source: anything that yields trace records in time order with a header (the
 * native reader below, an importer: sim/import/import.h, the generator: sim/workload/gen.h),
 * for the engine's replay (sim/engine/replay.h) to consume without knowing which.
 */
struct record_source {
	const struct trace_header *hdr;
	/* 1 = record, 0 = end, -1 = error (err set) */
	int (*next)(void *ctx, struct trace_record *rec, struct sim_error *err);
	/* Report `msg` at the position of rec. Always returns -1. */
	int (*error_at)(void *ctx, const struct trace_record *rec, struct sim_error *err,
			const char *msg);
	void *ctx;
};

void record_source_from_trace(struct record_source *src, struct trace_reader *r);

/*
 * Writer. Writes text format v1 to f (the caller opens and closes f, see sim/base/outfile.h).
 * Header first, then records in time order. Returns 0, or -1 if the stream failed.
 */
int trace_write_header(FILE *f, const struct trace_header *h);
int trace_write_record(FILE *f, const struct trace_record *rec);
/* The line trace_write_record() writes, newline included, into buf (at least
 * TRACE_RECORD_MAX bytes): its length. For writers that batch records themselves. */
#define TRACE_RECORD_MAX 320
size_t trace_format_record(char *buf, const struct trace_record *rec);

/*
 * Writer of the binary form (sim/trace/trace_binw.c), to f, which the caller opens and
 * closes. trace_bin_open() writes the header; trace_bin_record() buffers a record into the
 * current block (written when full); trace_bin_finish() writes the last block and the end
 * block, and frees the writer, as trace_bin_free() does without writing. -1 with err set
 * (a write error, or a record the format cannot hold) on failure.
 */
struct trace_bin_writer;

struct trace_bin_writer *trace_bin_open(FILE *f, const struct trace_header *h,
					struct sim_error *err);
int trace_bin_record(struct trace_bin_writer *w, const struct trace_record *rec,
		     struct sim_error *err);
int trace_bin_finish(struct trace_bin_writer *w, struct sim_error *err);
void trace_bin_free(struct trace_bin_writer *w);

/*
 * Every record of src, with its header, to f: the binary form if `binary`, else text.
 * Errors of src are src's; write errors are SIM_ERR_IO without a source (outfile_fail()
 * names the file). Returns 0 or -1.
 */
int trace_write_source(const struct record_source *src, FILE *f, bool binary,
		       struct sim_error *err);

#endif
