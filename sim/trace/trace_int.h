/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_int.h - private to the trace reader; not for other modules.
 *
 * The reader of the native trace format is split in four files that share what is declared
 * here: sim/trace/trace.c (opening, the text reader), sim/trace/trace_check.c (what the text and JSON
 * readers share: errors, field tables, the checks of each record), sim/trace/trace_json.c (JSON
 * scenarios) and sim/trace/trace_write.c (the writer, which needs the record kinds' names).
 */
#ifndef IDLESIM_TRACE_INT_H
#define IDLESIM_TRACE_INT_H

#include "sim/base/common.h"
#include "sim/trace/trace.h"

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>

#define LOAD_ONE 2048	   /* FIXED_1 of governors/governor.h */
#define LOAD_LIMIT 1000000 /* a load must be below this */
#define HZ_MAX 10000

/* The fields of a record, to point messages at them: a column in text, a member in JSON. */
enum field {
	F_KIND,
	F_CPU,
	F_TIME,
	F_LENGTH,
	F_CAUSE,
	F_NEXT_TIMER,
	F_IOWAIT,
	F_LOAD,
	F_ID,
	F_EXPIRY,
	F_PERIOD,
	F_RESCHED,
	F_TKIND,      /* idle: timer= (kind of the next timer); timer: kind= */
	F_NEXT_WHEEL, /* idle: next_wheel= */
	F_KEEP_TICK,  /* idle: keep_tick= */
	F_DEFERRABLE, /* timer: deferrable= */
	F_SLACK,      /* idle, timer: slack= (hrtimers) */
	F_GLOBAL,     /* timer: global= (timer migration) */
	F_NR
};

#define FB(f) (1u << (f))

struct kind_info {
	const char *name;
	unsigned int fixed;   /* fields every record of this kind has */
	unsigned int keys;    /* its optional key=value fields */
	const char *key_list; /* the keys, for messages */
	const char *json_list;
};

extern const struct kind_info trace_kinds[TRACE_BUSY + 1];

/* First words of a line: the record kinds (same values as enum trace_kind), then directives. */
enum word {
	W_IDLE = TRACE_IDLE,
	W_TIMER = TRACE_TIMER,
	W_CANCEL = TRACE_CANCEL,
	W_WAKE = TRACE_WAKE,
	W_BUSY = TRACE_BUSY,
	W_CPUS,
	W_HZ,
	W_MACHINE,
	W_START,
	W_END,
	W_SOURCE,
	W_TICK_PHASE,
	W_NONE
};

#define NR_DIRECTIVES (W_NONE - W_CPUS)

enum family { FAMILY_NONE, FAMILY_IDLE, FAMILY_EVENT };

struct cpu_state {
	int64_t idle_end; /* START+LENGTH of the CPU's last idle record, 0 before the first */
	long index;	  /* that record, for messages */
	int line;
	int resched_col; /* that record has resched=0: the column of its key (text), else 0 */
	bool stay_idle;	 /* that record has resched=0: the next one must start at idle_end */
};

struct trace_reader {
	char name[256];
	struct trace_header hdr;
	struct sim_error error; /* the first error; every later call repeats it */

	/* input: a file descriptor, or (fd < 0) a string copied whole into buf */
	int fd;
	bool close_fd, eof;
	char *buf;
	size_t cap, len, pos; /* buf[pos, len) is not consumed yet */
	size_t scanned;	      /* bytes after pos known to hold no newline */
	int lineno;
	const char *line; /* the last line cut out; pending: not handled yet */
	size_t line_len;
	bool pending;
	int dir_line[NR_DIRECTIVES]; /* where each directive was, 0 if absent */
	int end_col;

	/* JSON scenarios: the document, and its text in buf for jsonpos */
	json_t *root, *records;

	/* the binary form (sim/trace/trace_binr.c): its state, and the byte offset that
	 * messages name (that of the record or block being read) */
	struct bin_reader *bin;
	int64_t bin_at;

	/* record state */
	long nrec; /* records delivered */
	enum family family;
	int family_line;
	long family_index;
	int64_t last_time;
	int64_t first_time; /* of the first record: the start without a start directive */
	int last_line;
	long last_index;
	struct cpu_state *cpu;
	int stay_idle; /* CPUs whose last idle record has resched=0 */
	int col[F_NR]; /* columns of the fields of the text record being parsed */
};

/* ---- errors (sim/trace/trace_check.c) ---- */

int trace_vfail(struct trace_reader *r, enum sim_error_code code, int line, int column,
		const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
int trace_fail(struct trace_reader *r, int line, int column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int trace_fail_nomem(struct trace_reader *r);
int trace_fail_json(struct trace_reader *r, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int trace_fail_field(struct trace_reader *r, const struct trace_record *rec, enum field f,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *trace_quote(char *buf, size_t size, const char *s, size_t n);

/* ---- record fields, shared by text and JSON (sim/trace/trace_check.c) ---- */

const char *trace_field_name(enum trace_kind kind, enum field f);
const char *trace_field_what(enum trace_kind kind, enum field f);
enum field trace_key_field(enum trace_kind kind, unsigned int allowed, const char *s, size_t n);
int trace_cause_from(const char *s, size_t n, bool timer_ok);
bool trace_id_valid(const char *s, size_t n);
enum word trace_classify(const char *s, size_t n);
void trace_record_init(const struct trace_reader *r, struct trace_record *rec,
		       enum trace_kind kind);
int trace_check_family(struct trace_reader *r, const struct trace_record *rec);
int trace_check_cpu(struct trace_reader *r, struct trace_record *rec, int64_t v);
int trace_check_time(struct trace_reader *r, struct trace_record *rec);
int trace_check_length(struct trace_reader *r, struct trace_record *rec);
int trace_check_iowait(struct trace_reader *r, struct trace_record *rec, int64_t v);
int trace_check_period(struct trace_reader *r, struct trace_record *rec, int64_t v);
int trace_check_resched(struct trace_reader *r, struct trace_record *rec, const char *s, size_t n);
int trace_check_deferrable(struct trace_reader *r, struct trace_record *rec, const char *s,
			   size_t n);
int trace_check_global(struct trace_reader *r, struct trace_record *rec, const char *s, size_t n);
int trace_check_tkind(struct trace_reader *r, struct trace_record *rec, const char *s, size_t n);
int trace_check_record(struct trace_reader *r, struct trace_record *rec, unsigned int seen);
int trace_check_end(struct trace_reader *r);
int trace_header_done(struct trace_reader *r);

/* ---- JSON scenarios (sim/trace/trace_json.c), once read_all() has loaded the whole text ---- */

int trace_json_header(struct trace_reader *r);
int trace_json_next(struct trace_reader *r, struct trace_record *rec);

/* ---- the binary form: its framing and flags (traces/FORMAT.md, "Binary form") ---- */

#define BIN_HEADER_MAX 4096	    /* the header's payload */
#define BIN_BLOCK_MAX (1024 * 1024) /* a block's payload, for readers */
#define BIN_BLOCK_TARGET (60 * 1024) /* the writer ends a block from this many bytes on */
#define BIN_BLOCK_HEAD 9	    /* tag, u32 count, u32 length */
#define BIN_END_SIZE 13		    /* tag, u64 total, u32 CRC */
#define BIN_IDS 1024		    /* timer IDs a block's table holds */
#define HF_START 1u		    /* header flags */
#define HF_END 2u
#define HF_TICK_PHASE 4u
#define RF_NO_RESCHED 0x20u /* record flags, beside the kind (bits 0-2) and cause (3-4) */
#define RF_IOWAIT 0x40u
#define RF_LOAD 0x80u
#define IF_NEXT_TIMER 1u /* idle flags */
#define IF_HRTIMER 2u
#define IF_NEXT_WHEEL 4u
#define IF_KEEP_TICK 8u
#define IF_SLACK 16u
#define TF_PERIOD 1u /* timer flags */
#define TF_HRTIMER 2u
#define TF_DEFERRABLE 4u
#define TF_GLOBAL 8u
#define TF_SLACK 16u

/* ---- the binary form (sim/trace/trace_binr.c), once buf starts with its magic's first byte ---- */

int trace_bin_header(struct trace_reader *r);
int trace_bin_next(struct trace_reader *r, struct trace_record *rec);
void trace_bin_close(struct trace_reader *r);

#endif
