// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_datcheck.c - the structure of a trace.dat, checked before libtracecmd reads it.
 *
 * libtracecmd trusts the sizes and offsets a trace.dat holds: a size that runs past the end
 * of the file, a page whose events overrun it, or a failure half-way through opening (after
 * which its own clean-up walks lists it never set up) ends in SIGSEGV, not in an error. So
 * every size, offset, count and string that libtracecmd or libtraceevent acts on is checked
 * here first, against the file's length and against the limits below, and the first one
 * wrong is reported as
 *
 *	FILE: trace.dat damaged: WHAT (offset N)
 *
 * with N the byte of the file where the wrong value is (exit status 2; nothing is written).
 * The layouts are those of trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt and
 * .v7.5.txt, read the way libtracecmd (trace-input.c) and libtraceevent (kbuffer-parse.c)
 * read them:
 *
 *   version 6  magic, "6", endianness, long size, page size; header_page (parsed: the ring
 *              buffer page header the pages are read with), header_event; the ftrace and
 *              the per-system event formats (counts, sizes, NUL-terminated system names);
 *              kallsyms, printk formats, saved command lines (sizes); the CPU count; the
 *              options (each known option's content); "flyrecord" and the (offset, size) of
 *              each CPU's data, then the trace_clock text when the TRACECLOCK option is set;
 *   version 7  the same up to the page size, the compression name and version, the first
 *              options section's offset; then every section header from there to the end of
 *              the file (as libtracecmd walks them for the strings section: id, flags and
 *              size, each section inside the file, the last ending at its end); the chain of
 *              options sections (each offset a section of id 0, strictly increasing, so no
 *              loop), each option inside its section, DONE last; the metadata sections the
 *              options point to (of the id they name; their content as for version 6 when
 *              not compressed); the top instance's BUFFER option (CPU ids, page size) and
 *              its flyrecord section, each CPU's data inside it;
 *   CPU data   every page of every CPU (uncompressed): the commit size inside the page's
 *              data area, the stored lost-events count inside the page, and each event, as
 *              kbuffer walks them (type_len, time extends, padding, array lengths), inside
 *              the commit size and moving forward.
 *
 * Compressed content (version 7 with zstd or zlib) cannot be checked without decompressing
 * it: for those sections and chunks only the compression headers are checked here (sizes
 * inside the section, each chunk's uncompressed size a whole number of pages), and
 * dat_layout.compressed tells import_dat.c to read the file once in a child process first
 * (the second line of defence; docs/import.md).
 *
 * Not trace.dat damage but refused here as well, because libtracecmd would crash on them or
 * they hold nothing to import: a header_page of an old kernel (before 2.6.31, empty), a
 * latency-tracer trace.dat (text, no per-CPU events), an event-hook option (trace-cmd record
 * -H: libtracecmd dereferences NULL on a malformed one), a compressed options section.
 */
#include "sim/import/import_datcheck.h"
#include "sim/base/alloc.h"
#include "sim/trace/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- version 6 ---- */

static int check_v6(struct rd *r, struct cur *c)
{
	uint64_t next = 0, buf_at = 0, table, clock;
	uint32_t cpus, i;
	char mark[10];
	int cpu;

	if (datck_headers(c) || datck_ftrace(c) || datck_events(c) ||
	    datck_blob32(c, "kallsyms", DAT_KALLSYMS) ||
	    datck_blob32(c, "printk formats", DAT_PRINTK) || datck_cmdlines(c) ||
	    datck_r32(c, "the CPU count", &cpus))
		return -1;
	if (!cpus)
		return datck_damaged(r, c->pos - 4, "the CPU count is 0");
	if (cpus > TRACE_MAX_CPUS)
		return datck_refused(r, c->pos - 4, "%u CPUs: idlesim simulates at most %d", cpus,
				     TRACE_MAX_CPUS);
	r->lay->data_cpus = (int)cpus;
	for (i = 0;; i++) {
		if (datck_need(c, 10, "\"options\", \"latency\" or \"flyrecord\"") ||
		    datck_get(r, c->pos, mark, 10))
			return -1;
		if (!memcmp(mark, "options  \0", 10) && !i) {
			c->pos += 10;
			if (datck_options(c, &next, &buf_at))
				return -1;
			continue;
		}
		if (!memcmp(mark, "latency  \0", 10))
			return datck_refused(
				r, c->pos,
				"a latency-tracer trace.dat (its data is text, not per-CPU "
				"events): nothing to import");
		if (memcmp(mark, "flyrecord\0", 10))
			return datck_damaged(r, c->pos, "%s\"latency\" or \"flyrecord\" expected",
					     i ? "" : "\"options\", ");
		c->pos += 10;
		break;
	}
	if (r->cpucount && r->cpucount != cpus)
		return datck_damaged(r, c->pos, "option CPUCOUNT says %u CPUs, the header %u",
				     r->cpucount, cpus);
	table = c->pos;
	if (datck_need(c, 16ull * cpus, "the per-CPU offsets and sizes"))
		return -1;
	c->pos += 16ull * cpus;
	if (r->traceclock) {
		clock = c->pos;
		if (datck_r64(c, "the trace_clock size", &next))
			return -1;
		if (next > MAX_OPTION)
			return datck_damaged(r, clock,
					     "a trace_clock text of %llu bytes (at most %u)",
					     (unsigned long long)next, MAX_OPTION);
		if (datck_need(c, next, "the trace_clock text"))
			return -1;
		if (next) {
			unsigned char *t = sim_malloc((size_t)next);
			bool ok;

			if (!t)
				return sim_error_nomem(r->err, r->name);
			ok = !datck_get(r, c->pos, t, (size_t)next);
			if (ok && !datck_clock_ok(t, (size_t)next)) {
				sim_free(t);
				return datck_damaged(r, c->pos,
						     "the trace_clock text: a \"[]\" with no "
						     "clock name in it");
			}
			sim_free(t);
			if (!ok)
				return -1;
		}
		c->pos += next;
	}
	for (cpu = 0; cpu < (int)cpus; cpu++) {
		struct cur e = {r, table + 16ull * (unsigned)cpu, r->len, "the file"};
		uint64_t off, size;

		if (datck_r64(&e, "a CPU's data offset", &off) ||
		    datck_r64(&e, "a CPU's data size", &size) ||
		    datck_cpu_pages(r, e.pos - 16, cpu, off, size, 0, r->len))
			return -1;
	}
	return 0;
}

/* ---- version 7 ---- */

/* Every section header from `pos` to the end of the file, as read_metadata_strings walks. */
static int walk_sections(struct rd *r, uint64_t pos)
{
	size_t cap = 0;

	while (pos < r->len) {
		struct cur c = {r, pos, r->len, "the file"};
		uint64_t id, flags, desc, size;
		uint32_t zsize, usize;
		struct section *s;

		if (r->nsec == MAX_SECTIONS)
			return datck_damaged(r, pos, "more than %d sections", MAX_SECTIONS);
		if (datck_need(&c, 16, "a section header") || datck_rnum(&c, 2, "", &id) ||
		    datck_rnum(&c, 2, "", &flags) || datck_rnum(&c, 4, "", &desc) ||
		    datck_rnum(&c, 8, "", &size))
			return -1;
		if (flags & ~(uint64_t)SEC_COMPRESSED)
			return datck_damaged(r, pos + 2, "section id %llu: unknown flags 0x%llx",
					     (unsigned long long)id, (unsigned long long)flags);
		if ((flags & SEC_COMPRESSED) && !r->compressed)
			return datck_damaged(
				r, pos + 2,
				"section id %llu is compressed in a file without compression",
				(unsigned long long)id);
		if (size > r->len - c.pos)
			return datck_damaged(
				r, pos + 8,
				"section %s (id %llu) of %llu bytes from byte %llu runs past "
				"the end of the file (%llu bytes)",
				datck_option_name((unsigned)id), (unsigned long long)id,
				(unsigned long long)size, (unsigned long long)c.pos,
				(unsigned long long)r->len);
		if (id == OPT_STRINGS) { /* read whole, into an int-sized buffer */
			struct cur s8 = {r, c.pos, c.pos + size, "its section"};

			if (flags & SEC_COMPRESSED) {
				if (datck_r32(&s8, "the compressed size", &zsize) ||
				    datck_r32(&s8, "the uncompressed size", &usize))
					return -1;
				if (zsize > size - 8 || usize > MAX_OPTION)
					return datck_damaged(
						r, c.pos,
						"the strings section: %u bytes compressed in "
						"%llu, %u uncompressed (at most %u)",
						zsize, (unsigned long long)(size - 8), usize,
						MAX_OPTION);
			} else if (size > MAX_OPTION) {
				return datck_damaged(r, pos + 8,
						     "a strings section of %llu bytes (at most %u)",
						     (unsigned long long)size, MAX_OPTION);
			}
		}
		if (r->nsec == cap) {
			struct section *n =
				sim_realloc(r->sec, (cap = cap ? 2 * cap : 64) * sizeof(*n));

			if (!n)
				return sim_error_nomem(r->err, r->name);
			r->sec = n;
		}
		s = &r->sec[r->nsec++];
		s->at = pos, s->data = c.pos, s->size = size;
		s->id = (unsigned)id, s->flags = (unsigned)flags;
		pos = c.pos + size;
	}
	return 0;
}

/* A metadata section's content, through the same checks as version 6's. */
static int check_meta(struct rd *r, unsigned id)
{
	const struct section *s;
	struct cur c;

	if (!r->opt_sec[id])
		return 0;
	s = datck_section_at(r, r->opt_sec[id] - 1);
	c = (struct cur){r, s->data, s->data + s->size, "its section"};
	if (s->flags & SEC_COMPRESSED) {
		uint32_t zsize, usize;

		if (datck_r32(&c, "the compressed size", &zsize) ||
		    datck_r32(&c, "the uncompressed size", &usize))
			return -1;
		if (zsize > datck_left(&c) || usize > MAX_INFLATED)
			return datck_damaged(
				r, s->data,
				"section %s: %u bytes compressed in %llu, %u uncompressed",
				datck_option_name(id), zsize, (unsigned long long)datck_left(&c),
				usize);
		if (!r->lay->compressed_at || s->at < r->lay->compressed_at)
			r->lay->compressed_at = s->at;
		r->lay->compressed = true; /* and if it is HEADER_INFO, the pages go unchecked */
		return 0;
	}
	switch (id) {
	case OPT_HEADER_INFO:
		return datck_headers(&c);
	case OPT_FTRACE_EVENTS:
		return datck_ftrace(&c);
	case OPT_EVENT_FORMATS:
		return datck_events(&c);
	case OPT_KALLSYMS:
		return datck_blob32(&c, "kallsyms", DAT_KALLSYMS);
	case OPT_PRINTK:
		return datck_blob32(&c, "printk formats", DAT_PRINTK);
	default:
		return datck_cmdlines(&c);
	}
}

/* The top instance's flyrecord section and each CPU's data in it. */
static int check_buffer(struct rd *r, uint64_t buf_at)
{
	uint64_t opt_at = r->buf_opt;
	const struct section *s = datck_section_at(r, buf_at);
	uint64_t pos = r->buf_table;
	uint32_t i;

	if (!s)
		return datck_damaged(r, opt_at,
				     "option BUFFER: offset %llu is not the start of a section",
				     (unsigned long long)buf_at);
	if (s->id != OPT_BUFFER)
		return datck_damaged(r, opt_at,
				     "option BUFFER: the section at %llu has id %u, not 3",
				     (unsigned long long)buf_at, s->id);
	for (i = 0; i < r->buf_cpus; i++, pos += 20) {
		struct cur e = {r, pos, r->len, "the file"};
		uint64_t cpu, off, size;
		int rc;

		if (datck_rnum(&e, 4, "a CPU id", &cpu) ||
		    datck_r64(&e, "a CPU's data offset", &off) ||
		    datck_r64(&e, "a CPU's data size", &size))
			return -1;
		rc = s->flags & SEC_COMPRESSED ? datck_cpu_chunks(r, pos, (int)cpu, off, size,
								  s->data, s->data + s->size)
					       : datck_cpu_pages(r, pos, (int)cpu, off, size,
								 s->data, s->data + s->size);
		if (rc)
			return -1;
	}
	return 0;
}

static int check_v7(struct rd *r, struct cur *c)
{
	char zname[64], zver[64];
	uint64_t first, at, prev = 0, buf_at = 0;
	unsigned id;

	if (datck_rstr(c, "the compression name", 63, zname, sizeof(zname)) ||
	    datck_rstr(c, "the compression version", 63, zver, sizeof(zver)) ||
	    datck_r64(c, "the first options section's offset", &first))
		return -1;
	r->compressed = strcmp(zname, "none") != 0;
	if (r->compressed && strcmp(zname, "zstd") && strcmp(zname, "zlib")) {
		uint64_t zat = c->pos - 8 - strlen(zver) - 1 - strlen(zname) - 1;
		char shown[80];

		return datck_damaged(r, zat, "compression \"%s\" (none, zstd or zlib)",
				     datck_printable(zname, shown, sizeof(shown)));
	}
	if (walk_sections(r, c->pos))
		return -1;
	for (at = first;;) {
		const struct section *s = datck_section_at(r, at);
		struct cur o;
		uint64_t next = 0, b = 0;

		if (!s)
			return datck_damaged(
				r, prev ? prev : c->pos - 8,
				"the options section offset %llu is not the start of a section",
				(unsigned long long)at);
		if (s->id != OPT_DONE)
			return datck_damaged(r, prev ? prev : c->pos - 8,
					     "the section at %llu has id %u, not 0 (options)",
					     (unsigned long long)at, s->id);
		if (s->flags & SEC_COMPRESSED)
			return datck_refused(r, at, "a compressed options section: not supported");
		o = (struct cur){r, s->data, s->data + s->size, "its options section"};
		if (datck_options(&o, &next, &b))
			return -1;
		if (b)
			buf_at = b;
		if (!next)
			break;
		if (next <= at)
			return datck_damaged(
				r, o.pos - 8,
				"the next options section (at %llu) is not after this one (%llu)",
				(unsigned long long)next, (unsigned long long)at);
		prev = o.pos - 8;
		at = next;
	}
	if (!r->opt_sec[OPT_HEADER_INFO])
		return datck_damaged(r, first, "no HEADER_INFO option: the page header is unknown");
	for (id = OPT_HEADER_INFO; id <= OPT_CMDLINES; id++)
		if (check_meta(r, id))
			return -1;
	if (!r->top_buffer)
		return datck_damaged(r, first,
				     "no BUFFER option for the top instance: no CPU data");
	return check_buffer(r, buf_at);
}

/* ---- the entry point ---- */

static int not_dat(struct rd *r)
{
	return sim_error_set(r->err, SIM_ERR_INPUT, r->name, 0, 0,
			     "not a trace.dat: it does not start with trace-cmd's magic "
			     "\\x17\\x08\\x44tracing (offset 0)");
}

static int check(struct rd *r)
{
	static const char magic[] = "\x17\x08\x44tracing";
	char shown[80];
	struct cur c = {r, 0, r->len, "the file"};
	char version[17];
	uint64_t v;
	unsigned char b[2];

	if (r->len >= 3 && r->len < 10 && !datck_get(r, 0, version, (size_t)r->len) &&
	    !memcmp(version, magic, (size_t)r->len))
		return datck_damaged(r, r->len,
				     "the file ends after %llu bytes, inside the 10-byte magic",
				     (unsigned long long)r->len);
	if (r->len < 10 || datck_get(r, 0, version, 10))
		return not_dat(r);
	if (memcmp(version, magic, 10)) {
		int i = 0;

		/* one half right (as import_sniff finds it): a damaged magic, else not trace.dat */
		if (memcmp(version, magic, 3) && memcmp(version + 3, magic + 3, 7))
			return not_dat(r);
		while (version[i] == magic[i])
			i++;
		return datck_damaged(r, (uint64_t)i,
				     "the magic \\x17\\x08\\x44tracing is wrong at byte %d", i);
	}
	c.pos = 10;
	if (datck_rstr(&c, "the file version", 16, version, sizeof(version)))
		return -1;
	if (strcmp(version, "6") && strcmp(version, "7"))
		return sim_error_set(r->err, SIM_ERR_INPUT, r->name, 0, 0,
				     "trace.dat damaged or too new: file version \"%s\" (idlesim "
				     "reads versions 6 and 7) (offset 10)",
				     datck_printable(version, shown, sizeof(shown)));
	r->version = r->lay->version = version[0] - '0';
	if (datck_need(&c, 2, "the endianness and long size") || datck_get(r, c.pos, b, 2))
		return -1;
	if (b[0] > 1)
		return datck_damaged(r, c.pos, "endianness byte %u (0 little, 1 big)", b[0]);
	if (b[1] != 4 && b[1] != 8)
		return datck_damaged(r, c.pos + 1, "long size %u (4 or 8)", b[1]);
	r->big = r->lay->big = b[0] == 1;
	r->lay->long_size = b[1];
	c.pos += 2;
	if (datck_rnum(&c, 4, "the page size", &v))
		return -1;
	if (v < MIN_PAGE || v > MAX_PAGE || (v & (v - 1)))
		return datck_damaged(r, c.pos - 4, "page size %llu (a power of two, %u to %u)",
				     (unsigned long long)v, MIN_PAGE, MAX_PAGE);
	r->page = (uint32_t)v;
	r->pagebuf = sim_malloc(r->page);
	if (!r->pagebuf)
		return sim_error_nomem(r->err, r->name);
	return r->version == 6 ? check_v6(r, &c) : check_v7(r, &c);
}

int dat_check(const char *path, const char *name, struct dat_layout *lay, struct sim_error *err)
{
	struct rd r = {.fd = -1, .name = name, .err = err, .lay = lay};
	struct stat st;
	int rc;

	memset(lay, 0, sizeof(*lay));
	r.fd = open(path, O_RDONLY);
	if (r.fd < 0)
		return sim_error_set(err, SIM_ERR_IO, name, 0, 0, "cannot open: %s",
				     strerror(errno));
	if (fstat(r.fd, &st) || !S_ISREG(st.st_mode)) {
		close(r.fd);
		return sim_error_set(err, SIM_ERR_IO, name, 0, 0,
				     "cannot read a trace.dat that is not a regular file");
	}
	r.len = (uint64_t)st.st_size;
	r.cache = sim_malloc(RD_CACHE);
	rc = r.cache ? check(&r) : sim_error_nomem(err, name);
	if (rc)
		dat_layout_release(lay);
	sim_free(r.cache);
	sim_free(r.pagebuf);
	sim_free(r.sec);
	close(r.fd);
	return rc;
}
