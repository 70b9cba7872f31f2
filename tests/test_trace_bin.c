// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_trace_bin.c - the binary trace form (sim/trace/trace_binr.c, trace_binw.c) against
 * traces/FORMAT.md, "Binary form".
 *
 * The files are composed here byte by byte from the format's rules (the CRCs with zlib's
 * crc32(), as the format says), not by the writer: the writer is checked against the same
 * bytes. Every offset in the expected messages is counted by hand from the layout below.
 *
 * The base file: cpus 2, hz 250, no other header field. Header payload 02 fa01 00 00 00 (6
 * bytes): magic, version, length and payload are bytes 0-21, the header CRC 22-25. The block
 * starts at 26: 'B', count 2, length 14 (26-34), payload 35-48, CRC 49-52. Its records:
 *   35: idle 0 1000 500 timer  00 | 00 | d007 -> zigzag 2000 = d0 0f | 500 -> e8 07 | 00
 *   42: idle 1 1200 300 irq    08 | 01 | delta 200 -> 90 03 | 300 -> d8 04 | 00
 * The end block: 53 'E', 54-61 the total 2, 62-65 the CRC of bytes 0-61. 66 bytes in all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "sim/run/cfgrec.h"
#include "sim/trace/trace.h"

struct bytes {
	unsigned char b[1024];
	size_t n;
};

static void put(struct bytes *x, const void *p, size_t n)
{
	memcpy(x->b + x->n, p, n);
	x->n += n;
}

static void put8(struct bytes *x, unsigned int v)
{
	x->b[x->n++] = (unsigned char)v;
}

static void put32(struct bytes *x, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		put8(x, (v >> (8 * i)) & 0xff);
}

static void put64(struct bytes *x, uint64_t v)
{
	put32(x, (uint32_t)v);
	put32(x, (uint32_t)(v >> 32));
}

static uint32_t crc_of(const unsigned char *p, size_t n)
{
	return (uint32_t)crc32(0, p, (uInt)n);
}

/* magic, version, the header payload {02 fa01 00 00 00} (cpus 2, hz 250) and its CRC */
static void header(struct bytes *x, uint32_t version)
{
	static const unsigned char payload[] = { 0x02, 0xfa, 0x01, 0x00, 0x00, 0x00 };

	x->n = 0;
	put(x, "\x89ITB\r\n\x1a\n", 8);
	put32(x, version);
	put32(x, sizeof(payload));
	put(x, payload, sizeof(payload));
	put32(x, crc_of(x->b, x->n));
}

/* A block of `count` records holding payload[0, len), with the CRC of its bytes. */
static void block(struct bytes *x, uint32_t count, const unsigned char *payload, size_t len)
{
	size_t at = x->n;

	put8(x, 'B');
	put32(x, count);
	put32(x, (uint32_t)len);
	put(x, payload, len);
	put32(x, crc_of(x->b + at, x->n - at));
}

static void end_block(struct bytes *x, uint64_t total)
{
	put8(x, 'E');
	put64(x, total);
	put32(x, crc_of(x->b, x->n));
}

static const unsigned char two_records[] = {
	0x00, 0x00, 0xd0, 0x0f, 0xe8, 0x07, 0x00, /* idle 0 1000 500 timer */
	0x08, 0x01, 0x90, 0x03, 0xd8, 0x04, 0x00, /* idle 1 1200 300 irq */
};

static void base_file(struct bytes *x)
{
	header(x, 1);
	block(x, 2, two_records, sizeof(two_records));
	end_block(x, 2);
}

static char path[256];

static const char *write_file(const struct bytes *x, size_t n)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/test_trace_bin-%d.itb",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(x->b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Read the first n bytes of x to the end; the error's "byte N: ..." text, or "" if none. */
static const char *read_error(const struct bytes *x, size_t n)
{
	static struct sim_error err;
	struct trace_reader *r;
	struct trace_record rec;
	int rc;

	memset(&err, 0, sizeof(err));
	r = trace_open(write_file(x, n), &err);
	if (r) {
		while ((rc = trace_next(r, &rec, &err)) > 0)
			;
		trace_close(r);
	}
	unlink(path);
	if (err.code != SIM_OK) {
		assert_int_equal(err.code, SIM_ERR_INPUT);
		assert_string_equal(err.source, path);
		assert_int_equal(err.line, 0); /* no line:column, the offset is in the text */
	}
	return err.text;
}

static void test_base_file_reads(void **state)
{
	struct sim_error err = { 0 };
	struct trace_reader *r;
	struct trace_record rec;
	struct bytes x;

	(void)state;
	base_file(&x);
	assert_int_equal(x.n, 66);
	r = trace_open(write_file(&x, x.n), &err);
	assert_non_null(r);
	assert_true(trace_is_binary(r));
	assert_int_equal(trace_header(r)->cpus, 2);
	assert_int_equal(trace_header(r)->hz, 250);
	assert_false(trace_header(r)->has_start || trace_header(r)->has_end);
	assert_int_equal(trace_next(r, &rec, &err), 1);
	assert_int_equal(rec.kind, TRACE_IDLE);
	assert_int_equal(rec.cpu, 0);
	assert_int_equal(rec.time_ns, 1000);
	assert_int_equal(rec.length_ns, 500);
	assert_int_equal(rec.cause, WAKE_TIMER);
	assert_int_equal(rec.next_timer_ns, 500); /* cause timer: the length, as in text */
	assert_int_equal(rec.offset, 35);
	assert_int_equal(trace_next(r, &rec, &err), 1);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.time_ns, 1200);
	assert_int_equal(rec.length_ns, 300);
	assert_int_equal(rec.cause, WAKE_IRQ);
	assert_int_equal(rec.next_timer_ns, -1);
	assert_int_equal(rec.offset, 42);
	assert_int_equal(trace_next(r, &rec, &err), 0);
	assert_int_equal(err.code, SIM_OK);
	/* a later stage's error is placed at the record's offset */
	trace_record_error(r, &rec, &err, "a check of the engine");
	assert_string_equal(err.text, "byte 42: a check of the engine");
	trace_close(r);
	unlink(path);
}

/* The writer writes exactly the bytes composed by hand. */
static void test_writer_bytes(void **state)
{
	struct trace_header h = { 0 };
	struct trace_record a = { 0 }, b = { 0 };
	struct sim_error err = { 0 };
	struct trace_bin_writer *w;
	struct bytes x;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	h.version = 1;
	h.cpus = 2;
	h.hz = 250;
	a.kind = TRACE_IDLE, a.cpu = 0, a.time_ns = 1000, a.length_ns = 500, a.cause = WAKE_TIMER;
	a.next_timer_ns = 500, a.next_wheel_ns = -1;
	b.kind = TRACE_IDLE, b.cpu = 1, b.time_ns = 1200, b.length_ns = 300, b.cause = WAKE_IRQ;
	b.next_timer_ns = -1, b.next_wheel_ns = -1;
	w = trace_bin_open(f, &h, &err);
	assert_non_null(w);
	assert_int_equal(trace_bin_record(w, &a, &err), 0);
	assert_int_equal(trace_bin_record(w, &b, &err), 0);
	assert_int_equal(trace_bin_finish(w, &err), 0);
	assert_int_equal(fclose(f), 0);
	base_file(&x);
	assert_int_equal(len, x.n);
	assert_memory_equal(buf, x.b, x.n);
	free(buf);
}

static void test_truncated(void **state)
{
	struct bytes x;

	(void)state;
	base_file(&x);
	assert_string_equal(read_error(&x, 5),
			    "byte 0: truncated: the file ends at byte 5 inside the magic (8 bytes)");
	assert_string_equal(read_error(&x, 20), "byte 16: truncated: the file ends at byte 20 "
						"inside the header (10 bytes)");
	assert_string_equal(read_error(&x, 40), "byte 26: truncated: the file ends at byte 40 "
						"inside the block at byte 26 (27 bytes)");
	assert_string_equal(read_error(&x, 53), "byte 53: truncated: the end block is missing "
						"(the file ends after 2 records)");
	assert_string_equal(read_error(&x, 60), "byte 53: truncated: the file ends at byte 60 "
						"inside the end block (13 bytes)");
	x.b[x.n++] = 0;
	assert_string_equal(read_error(&x, x.n), "byte 66: data after the end block");
	x.n--;
	assert_string_equal(read_error(&x, x.n), "");
}

static void test_version_and_magic(void **state)
{
	struct bytes x;

	(void)state;
	header(&x, 2);
	assert_string_equal(read_error(&x, x.n),
			    "byte 8: unsupported binary trace version 2 (this idlesim reads 1)");
	base_file(&x);
	memcpy(x.b, "\x89PNG\r\n\x1a\n", 8);
	assert_string_equal(read_error(&x, x.n), "byte 0: not an idlesim trace: no text magic "
						 "'idlesim-trace', and not the binary form's magic");
}

static void test_checksums(void **state)
{
	struct bytes x;
	char want[200];

	(void)state;
	base_file(&x);
	x.b[44] ^= 0x01; /* in the second record's time */
	/* the CRC of the block's bytes 26-48 as they are now, against the one stored at 49 */
	snprintf(want, sizeof(want),
		 "byte 49: checksum mismatch in the block at byte 26 (CRC-32 %08x, stored %08x)",
		 crc_of(x.b + 26, 23),
		 (uint32_t)x.b[49] | (uint32_t)x.b[50] << 8 | (uint32_t)x.b[51] << 16 |
			 (uint32_t)x.b[52] << 24);
	assert_string_equal(read_error(&x, x.n), want);
	base_file(&x);
	x.b[19] ^= 0x80; /* the header's flags */
	assert_non_null(strstr(read_error(&x, x.n), "byte 22: checksum mismatch in the header"));
	base_file(&x);
	x.b[62] ^= 0x01; /* the end block's CRC */
	assert_non_null(strstr(read_error(&x, x.n), "byte 62: checksum mismatch in the end block"));
}

static void test_counts(void **state)
{
	struct bytes x;

	(void)state;
	/* a block claiming 3 records, with a right CRC: the third would start at 49 */
	header(&x, 1);
	block(&x, 3, two_records, sizeof(two_records));
	end_block(&x, 3);
	assert_string_equal(read_error(&x, x.n), "byte 49: the block at byte 26 claims 3 records "
						 "but holds 2");
	/* an end block counting 3 records of 2 */
	header(&x, 1);
	block(&x, 2, two_records, sizeof(two_records));
	end_block(&x, 3);
	assert_string_equal(read_error(&x, x.n), "byte 54: the end block counts 3 records, the "
						 "blocks hold 2");
	/* a block claiming 1 record of 2: the second is left over */
	header(&x, 1);
	block(&x, 1, two_records, sizeof(two_records));
	end_block(&x, 1);
	assert_string_equal(read_error(&x, x.n), "byte 42: 7 bytes after the last of the block's 1 "
						 "records");
}

static void test_bad_records(void **state)
{
	static const unsigned char garbage[] = { 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const unsigned char cpu2[] = { 0x00, 0x02, 0xd0, 0x0f, 0xe8, 0x07, 0x00 };
	static const unsigned char later[] = { 0x00, 0x00, 0xd0, 0x0f, 0xe8, 0x07, 0x00 };
	/* idle 1 900 300 irq: zigzag 1800 = 88 0e */
	static const unsigned char earlier[] = { 0x08, 0x01, 0x88, 0x0e, 0xd8, 0x04, 0x00 };
	static const unsigned char kind7[] = { 0x07, 0x00, 0x00 };
	struct bytes x;

	(void)state;
	header(&x, 1);
	block(&x, 1, garbage, sizeof(garbage));
	end_block(&x, 1);
	assert_string_equal(read_error(&x, x.n), "byte 36: bad varint (CPU)");
	header(&x, 1);
	block(&x, 1, cpu2, sizeof(cpu2));
	end_block(&x, 1);
	assert_string_equal(read_error(&x, x.n),
			    "byte 35: CPU 2 is out of range: the header says cpus 2");
	/* two blocks, the second's record (at 46 + 9 = 55) before the first's */
	header(&x, 1);
	block(&x, 1, later, sizeof(later));
	block(&x, 1, earlier, sizeof(earlier));
	end_block(&x, 2);
	assert_string_equal(read_error(&x, x.n), "byte 55: records must be in time order: 900 is "
						 "before 1000 (record 1)");
	header(&x, 1);
	block(&x, 1, kind7, sizeof(kind7));
	end_block(&x, 1);
	assert_string_equal(read_error(&x, x.n), "byte 35: unknown record kind 7");
}

/*
 * The content hash of the config record (cfgrec_file_hash()): for a binary trace, FNV-1a 64
 * over its first bytes (all 66 here), its size as 8 bytes little-endian and its end block
 * (13 bytes, whose CRC covers the file); for anything else, or a binary file without an end
 * block, over every byte.
 */
static void test_content_hash(void **state)
{
	struct bytes x = { .n = 0 }, y = { .n = 0 };
	unsigned char size[8] = { 66 };
	struct sim_error err = { 0 };
	uint64_t h, want;

	(void)state;
	base_file(&x);
	assert_int_equal(x.n, 66);
	want = cfgrec_fnv1a(CFGREC_FNV_OFFSET, x.b, 66);
	want = cfgrec_fnv1a(want, size, 8);
	want = cfgrec_fnv1a(want, x.b + 53, 13);
	assert_int_equal(cfgrec_file_hash(write_file(&x, x.n), &h, &err), 0);
	assert_true(h == want);
	/* another record time: other CRCs, another hash */
	header(&y, 1);
	block(&y, 2, two_records, sizeof(two_records));
	y.b[36] ^= 1;
	y.n -= 4;
	put32(&y, crc_of(y.b + 26, 23));
	end_block(&y, 2);
	assert_int_equal(cfgrec_file_hash(write_file(&y, y.n), &h, &err), 0);
	assert_true(h != want);
	/* no end block: every byte */
	assert_int_equal(cfgrec_file_hash(write_file(&x, 53), &h, &err), 0);
	assert_true(h == cfgrec_fnv1a(CFGREC_FNV_OFFSET, x.b, 53));
	unlink(path);
	assert_int_equal(err.code, SIM_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_file_reads), cmocka_unit_test(test_writer_bytes),
		cmocka_unit_test(test_truncated),	cmocka_unit_test(test_version_and_magic),
		cmocka_unit_test(test_checksums),	cmocka_unit_test(test_counts),
		cmocka_unit_test(test_bad_records),	cmocka_unit_test(test_content_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
