/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * import_datcheck.h - what the two files of the trace.dat structure check share: the
 * limits, the reader over the file (struct rd, struct cur) and its primitives
 * (import_datcheck.c), and the checks of the contents (import_datcheck_content.c: the
 * header_page, the metadata, the options, the CPU data). The layouts checked are described
 * at the top of import_datcheck.c.
 */
#ifndef IDLESIM_IMPORT_DATCHECK_H
#define IDLESIM_IMPORT_DATCHECK_H

#include "sim/import/import_int.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RD_CACHE (1 << 16)	  /* read cache */
#define MAX_TEXT (1u << 16)	  /* header_page, header_event */
#define MAX_FORMAT (1u << 20)	  /* one event format */
#define MAX_FORMATS (1u << 20)	  /* formats per system, ftrace formats */
#define MAX_SYSTEMS (1u << 16)	  /* event systems */
#define MAX_SYSTEM_NAME 255	  /* libtracecmd's read_string overflows beyond BUFSIZ */
#define MAX_BLOB (256u << 20)	  /* kallsyms, printk formats, command lines */
#define MAX_OPTION (16u << 20)	  /* one option's data */
#define MAX_SECTIONS 100000	  /* version 7 */
#define MAX_CHUNK (64u << 20)	  /* a compressed chunk's uncompressed size */
#define MAX_CHUNKS (1u << 24)	  /* per CPU */
#define MAX_INFLATED (1ull << 30) /* a compressed metadata section, uncompressed */
#define MIN_PAGE 4096u		  /* page sizes: powers of two in this range */
#define MAX_PAGE (16u << 20)
#define COMMIT_MASK ((1u << 27) - 1) /* the ring buffer page's commit field */
#define MISSING_EVENTS (1u << 31)
#define MISSING_STORED (1u << 30)
#define SEC_COMPRESSED 1u

enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_HOOK = 6,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
	OPT_PROCMAPS = 10,
	OPT_TRACEID = 11,
	OPT_TIME_SHIFT = 12,
	OPT_GUEST = 13,
	OPT_TSC2NSEC = 14,
	OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

struct section {
	uint64_t at, data, size; /* header offset, data offset, data size */
	unsigned id, flags;
};

struct rd {
	int fd;
	uint64_t len; /* the file's length */
	bool big;     /* big-endian file */
	int version;
	uint32_t page;
	unsigned commit_size; /* the page header's commit field: 4 or 8 bytes */
	bool has_header_page;
	bool compressed; /* version 7: a compression other than "none" */
	bool traceclock; /* version 6: the TRACECLOCK option is set */
	bool top_buffer;
	uint64_t buf_opt;   /* the top BUFFER option in the file */
	uint64_t buf_table; /* its CPU table */
	uint32_t buf_cpus;
	uint32_t cpucount; /* the CPUCOUNT option, 0 if none */
	unsigned char *cache;
	uint64_t coff;
	size_t clen;
	struct section *sec; /* version 7: every section, in file order */
	size_t nsec;
	uint64_t opt_sec[OPT_CMDLINES + 1]; /* version 7: a metadata option's section offset + 1 */
	unsigned char *pagebuf;
	const char *name;
	struct sim_error *err;
	struct dat_layout *lay;
};

/* A position and a limit: the file's end, or a section's, or an option's. */
struct cur {
	struct rd *r;
	uint64_t pos, end;
	const char *within; /* "the file", "its section", "the option" */
};

int datck_damaged(struct rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int datck_refused(struct rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *datck_printable(const char *s, char *buf, size_t n);
int datck_get(struct rd *r, uint64_t off, void *dst, size_t n);
uint64_t datck_num(const struct rd *r, const unsigned char *p, int n);
int datck_need(struct cur *c, uint64_t n, const char *what);
int datck_rnum(struct cur *c, int n, const char *what, uint64_t *v);
int datck_r32(struct cur *c, const char *what, uint32_t *v);
int datck_r64(struct cur *c, const char *what, uint64_t *v);
int datck_skip(struct cur *c, uint64_t n, const char *what);
int datck_rstr(struct cur *c, const char *what, size_t max, char *out, size_t outsz);
int datck_expect(struct cur *c, const char *want, size_t n, const char *what);
uint64_t datck_left(const struct cur *c);
int datck_note_text(struct rd *r, enum dat_text_kind kind, uint64_t at, uint64_t size,
		    uint64_t sys_at);
int datck_header_page(struct rd *r, uint64_t at, const char *text, size_t n);
int datck_headers(struct cur *c);
int datck_formats(struct cur *c, const char *what, uint64_t sys_at);
int datck_ftrace(struct cur *c);
int datck_events(struct cur *c);
int datck_blob32(struct cur *c, const char *what, enum dat_text_kind kind);
int datck_cmdlines(struct cur *c);
int datck_options(struct cur *c, uint64_t *next, uint64_t *buf_at);
int datck_cpu_pages(struct rd *r, uint64_t entry, int cpu, uint64_t off, uint64_t size, uint64_t lo,
		    uint64_t hi);
int datck_cpu_chunks(struct rd *r, uint64_t entry, int cpu, uint64_t off, uint64_t size,
		     uint64_t lo, uint64_t hi);
const char *datck_option_name(unsigned id);
bool datck_clock_ok(const unsigned char *t, size_t n);
const struct section *datck_section_at(const struct rd *r, uint64_t at);

#endif
