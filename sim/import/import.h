/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * import.h - real kernel traces as idle opportunities: ftrace text, `trace-cmd report` text,
 * `perf script` text, Android systrace HTML and trace.dat (through libtracecmd).
 *
 * An importer reads a kernel trace and yields native idle-interval records (traces/FORMAT.md,
 * "Importing kernel traces", states the reconstruction rules), one per idle opportunity, in
 * start order, with a native header. It works as a record source (sim/engine/replay.h), so `idlesim
 * run` replays a kernel trace without an intermediate file, and it can write the converted
 * trace. Alongside, it counts what it read and what the recording kernel did: per CPU and
 * state, the usage, time, above and below of the recorded choices against a machine table,
 * and, when the trace has cpu_idle_miss events, whether our classification agrees with the
 * kernel's.
 *
 * As a record source (import_open) a trace is read in two streaming passes, because the
 * header must come first: the first learns the CPU count, start and end, which event groups
 * exist, the tick rate and whether timestamps go backwards; the second converts. To write the
 * converted file (import_open_convert + import_convert) it is read once, the header written
 * last, unless the trace holds a surprise (sim/import/import.c). Both write the same file. Memory is
 * bounded by the CPUs, the pending timers and the records that wait to be written in start
 * order; only when timestamps go backwards are the used events of the whole trace held in
 * memory and sorted (the summary says so). Standard input ("-") is first copied to an
 * unlinked temporary file.
 */
#ifndef IDLESIM_IMPORT_H
#define IDLESIM_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/error.h"
#include "sim/machine/machine.h"
#include "sim/trace/trace.h"

enum import_format {
	IMPORT_AUTO = 0,
	IMPORT_NATIVE,	  /* an idlesim trace: nothing to import (import_probe only) */
	IMPORT_FTRACE,	  /* /sys/kernel/tracing/trace, trace_pipe, trace-cmd show */
	IMPORT_TRACE_CMD, /* trace-cmd report */
	IMPORT_PERF,	  /* perf script */
	IMPORT_SYSTRACE,  /* Android systrace / catapult HTML wrapping ftrace text */
	IMPORT_TRACE_DAT, /* trace-cmd's binary trace.dat */
	IMPORT_NR_FORMATS
};

const char *import_format_name(enum import_format f);
/* "auto", "ftrace", "trace-cmd", "perf", "systrace", "trace-dat"; returns 0 or -1. */
int import_format_parse(const char *s, enum import_format *f);
/* Whether trace.dat support was compiled in (CMake option IDLESIM_TRACEDAT). */
bool import_has_tracedat(void);

/*
 * What the recording kernel's governor saw and chose, entry by entry (idlesim validate,
 * sim/run/validate.h): called in each CPU's time order as the importer reads the trace.
 */
struct import_idle_entry {
	int cpu;
	int64_t time_ns;	/* the cpu_idle entry event (select ran just before it) */
	int state;		/* the state the kernel entered */
	bool first;		/* the CPU's first entry, or a task ran since its last exit */
	bool switches_known;	/* the trace records sched_switch (else `first` is a guess) */
	bool timers_known;	/* the trace records timer arming (hrtimer_start, timer_start) */
	int64_t next_timer_ns;	/* earliest non-tick timer pending, due at or after time_ns;
				 * INT64_MAX: none (or unknown) */
	int64_t next_wheel_ns;	/* the same, timer-wheel timers only */
	bool tick_stop_known;	/* the trace records timer:tick_stop */
	bool tick_stopped;	/* the tick as the CPU's last selection left it: a successful
				 * tick_stop since it last ran a task, before its last entry */
	int64_t tick_expiry_ns;	/* the tick's hrtimer pending at or after time_ns: INT64_MAX
				 * none (or no timer events) */
	int64_t tick_ns;	/* TICK_NSEC of the grid, 0 when unknown */
	int64_t tick_phase_ns;	/* an edge of the jiffy grid */
};

struct import_idle_exit {
	int cpu;
	int64_t entry_ns, time_ns; /* the entry and the exit event */
	int state;
	bool got_tick;		   /* the tick's hrtimer expired on this CPU during the entry */
};

struct import_hooks {
	void (*entry)(void *ud, const struct import_idle_entry *e);
	void (*exit)(void *ud, const struct import_idle_exit *x);
	void *ud;
};

struct import_options {
	enum import_format format;     /* IMPORT_AUTO: detect */
	const struct machine *machine; /* recorded-governor statistics against it; NULL = none */
	uint32_t disabled;	       /* states disabled on the recording machine (bit i) */
	bool skip_bad_lines;	       /* malformed lines are counted warnings, not errors */
	int hz;			       /* tick rate of the recording; 0 = infer from the trace */
	int cpus;		       /* CPU count; 0 = from the trace header or the highest CPU */
	const char *command;	       /* the command line, for the converted trace's source line */
	const char *name;	       /* the input's name in messages; NULL = its path */
	const struct import_hooks *hooks; /* each complete entry and exit; NULL = none */
	int jobs; /* threads lexing a text trace read from a file, ahead of the reconstruction;
		   * 0 or 1: none (the result is the same; docs/import.md) */
	size_t jobs_chunk; /* with jobs: bytes of text per chunk; 0 = the default (tests) */
};

struct importer;

/*
 * Detect the format of `path` from its first bytes: IMPORT_NATIVE for an idlesim trace
 * (text or JSON), a kernel trace format, or IMPORT_AUTO when it cannot tell (or cannot read
 * the file; opening it again reports why).
 */
enum import_format import_probe(const char *path);

/*
 * Open a kernel trace and run the first pass. Returns NULL with err set on failure
 * (FILE:LINE:COLUMN for malformed input, exit status 2).
 */
struct importer *import_open(const char *path, const struct import_options *o,
			     struct sim_error *err);
/*
 * Open a kernel trace for import_convert() alone: no first pass (the converted file's header
 * is written last), so a trace is read once unless it holds a surprise (see sim/import/import.c).
 */
struct importer *import_open_convert(const char *path, const struct import_options *o,
				     struct sim_error *err);
void import_close(struct importer *im);

/* The native header of the converted trace: valid after import_open(). */
const struct trace_header *import_header(const struct importer *im);

/*
 * The next idle-interval record, in start order: 1 with *rec filled, 0 at the end (the
 * statistics are complete then), -1 with err set.
 */
int import_next(struct importer *im, struct trace_record *rec, struct sim_error *err);

/* The importer as a record source for replay_run(). */
void record_source_from_import(struct record_source *src, struct importer *im);

/* Read everything (writing the converted trace to out when it is not NULL). */
int import_convert(struct importer *im, FILE *out, struct sim_error *err);

/* With --skip-bad-lines, after the end: the i-th of the first malformed lines skipped
 * ("FILE:LINE:COL: message"), NULL past them; and how many were skipped in all. */
const char *import_warning(const struct importer *im, int i);
unsigned long long import_bad_lines(const struct importer *im);

/* The summary, as text or JSON (schema idlesim-import/1); call after the end. */
int import_write_summary(FILE *f, const struct importer *im, bool json);

/*
 * The periodic timers of a trace, from its timer census (docs/import.md, "Timer census"):
 * one per (CPU, kind, callback) row with at least 3 expiries, a median interval between them
 * above 0, and at least half of its sampled intervals within a tenth of that median; the
 * tick's own hrtimer (tick_sched_timer, tick_nohz_handler, tick_nohz_highres_handler) and
 * the "(unknown)" and "(other)" rows are left out.
 */
struct import_periodic_timer {
	int cpu;	       /* the CPU it expired on */
	char function[64];     /* callback name, as the census prints it (cut to 63 bytes) */
	bool hrtimer;	       /* kind: hrtimer, else timer-wheel */
	bool pinned;	       /* TIMER_PINNED at an arming (an hrtimer: a PINNED mode) */
	bool deferrable;       /* TIMER_DEFERRABLE at an arming */
	int64_t period_ns;     /* median interval between its expiries */
	uint64_t expired;      /* how many expiries the trace holds */
};

struct import_timer_list {
	struct import_periodic_timer *t; /* sorted by CPU, then function, hrtimers first */
	size_t n;
};

/*
 * Read the kernel trace at `path` as `idlesim import` does (options as import_open_convert;
 * nothing written) and fill *out with its periodic timers. Returns 0, or -1 with err set as
 * the import's (FILE:LINE:COLUMN, exit status 2, for malformed input); *out is then empty.
 */
int import_periodic_timers(const char *path, const struct import_options *o,
			   struct import_timer_list *out, struct sim_error *err);
void import_timer_list_release(struct import_timer_list *l);

#endif
