// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_binr.c - the reader of the binary form of the native trace (traces/FORMAT.md,
 * "Binary form"): the same header and records as the text, in checksummed blocks.
 *
 * It streams as the text reader does: the 64 KiB buffer of the trace_reader holds the
 * framing (magic, header, block headers, checksums), each block's payload is read whole into
 * one buffer of its own (at most BIN_BLOCK_MAX bytes), and records are decoded from it one
 * at a time. Memory does not grow with the trace.
 *
 * What it checks: the framing (magic, version, lengths, checksums, record counts, the end
 * block, nothing after it) and the encoding (varints, kinds, causes, timer IDs, values that
 * the text could not hold such as negative times), each at its byte offset; then every
 * record goes through the checks the text and JSON readers use (sim/trace/trace_check.c),
 * so it means the same and fails with the same message, "byte N:" in place of line:column.
 */
#include "sim/trace/trace_int.h"
#include "sim/base/alloc.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct bin_id {
	uint32_t off; /* in the payload */
	uint32_t len;
};

struct bin_reader {
	int64_t base;	    /* file offset of r->buf[0] */
	unsigned char *blk; /* the current block's payload */
	size_t blk_cap, blk_len, p;
	int64_t blk_at;	    /* file offset of the payload */
	uint32_t left;	    /* records of the block not decoded yet */
	uint32_t count;	    /* records the block claims */
	int64_t prev_time;  /* of the block's previous record; 0 at its start */
	uint64_t total;	    /* records of the blocks read */
	uLong file_crc;	    /* CRC-32 of every byte so far */
	struct bin_id ids[BIN_IDS];
	int nids;
	bool done;
};

static int64_t at(const struct trace_reader *r)
{
	return r->bin->base + (int64_t)r->pos;
}

/* An error at byte offset off. */
static int __attribute__((format(printf, 3, 4))) bfail(struct trace_reader *r, int64_t off,
						       const char *fmt, ...)
{
	va_list ap;

	r->bin_at = off;
	va_start(ap, fmt);
	trace_vfail(r, SIM_ERR_INPUT, 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* Make n bytes available at r->buf + r->pos (n <= cap). 1, 0 if the file ends first, -1. */
static int need(struct trace_reader *r, size_t n)
{
	ssize_t got;

	if (r->len - r->pos >= n)
		return 1;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->bin->base += (int64_t)r->pos;
		r->len -= r->pos;
		r->pos = 0;
	}
	while (r->len < n && !r->eof && r->fd >= 0) {
		got = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (got > 0)
			r->len += (size_t)got;
		else if (got == 0)
			r->eof = true;
		else if (errno != EINTR)
			return bfail(r, at(r) + (int64_t)r->len, "cannot read: %s", strerror(errno));
	}
	return r->len >= n;
}

static int truncated(struct trace_reader *r, const char *what, size_t n)
{
	return bfail(r, at(r),
		     "truncated: the file ends at byte %" PRId64 " inside %s (%zu bytes)",
		     at(r) + (int64_t)(r->len - r->pos), what, n);
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const unsigned char *p)
{
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* A LEB128 varint from [*p, e): 1, or 0 if it runs past e or past 10 bytes. */
static int varint(const unsigned char **p, const unsigned char *e, uint64_t *v)
{
	const unsigned char *q = *p;
	uint64_t x = 0;
	int shift = 0;

	*v = 0;
	while (q < e) {
		unsigned char b = *q++;

		if (shift == 63 && b > 1)
			return 0;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*p = q;
			*v = x;
			return 1;
		}
		shift += 7;
		if (shift > 63)
			return 0;
	}
	return 0;
}

/* ---- header ---- */

static int hdr_num(struct trace_reader *r, const unsigned char **p, const unsigned char *e,
		   const char *name, uint64_t lo, uint64_t hi, int64_t *v)
{
	int64_t off = r->bin->base + (int64_t)(*p - (const unsigned char *)r->buf);
	uint64_t x;

	if (!varint(p, e, &x))
		return bfail(r, off, "bad varint in the header (%s)", name);
	if (x < lo || x > hi)
		return bfail(r, off, "%s %" PRIu64 " is out of range (%" PRIu64 " to %" PRIu64 ")",
			     name, x, lo, hi);
	*v = (int64_t)x;
	return 0;
}

static int hdr_text(struct trace_reader *r, const unsigned char **p, const unsigned char *e,
		    const char *name, char *out, size_t size)
{
	int64_t off = r->bin->base + (int64_t)(*p - (const unsigned char *)r->buf);
	uint64_t n, i;

	if (!varint(p, e, &n))
		return bfail(r, off, "bad varint in the header (length of the %s)", name);
	if (n >= size || n > (uint64_t)(e - *p))
		return bfail(r, off, "the %s's length %" PRIu64 " is out of range (at most %zu)",
			     name, n, n >= size ? size - 1 : (size_t)(e - *p));
	for (i = 0; i < n; i++)
		if ((*p)[i] < 0x20 || (*p)[i] == 0x7f)
			return bfail(r, off, "control character 0x%02x in the %s", (*p)[i], name);
	memcpy(out, *p, n);
	out[n] = '\0';
	*p += n;
	return 0;
}

int trace_bin_header(struct trace_reader *r)
{
	struct trace_header *h = &r->hdr;
	const unsigned char *p, *e, *s;
	uint32_t version, len, crc;
	int64_t v;
	unsigned int flags;
	int rc;

	r->bin = sim_calloc(1, sizeof(*r->bin));
	if (!r->bin)
		return trace_fail_nomem(r);
	rc = need(r, TRACE_BIN_MAGIC_LEN);
	if (rc < 0)
		return -1;
	if (memcmp(r->buf, TRACE_BIN_MAGIC, rc ? TRACE_BIN_MAGIC_LEN : r->len))
		return bfail(r, 0, "not an idlesim trace: no text magic '%s', and not the binary "
				   "form's magic",
			     TRACE_MAGIC);
	if (!rc)
		return truncated(r, "the magic", TRACE_BIN_MAGIC_LEN);
	r->pos = TRACE_BIN_MAGIC_LEN;
	rc = need(r, 8);
	if (rc <= 0)
		return rc ? -1 : truncated(r, "the version and header length", 8);
	s = (const unsigned char *)r->buf + r->pos;
	version = get_u32(s);
	if (version != TRACE_BIN_VERSION)
		return bfail(r, at(r),
			     "unsupported binary trace version %" PRIu32 " (this idlesim reads %d)",
			     version, TRACE_BIN_VERSION);
	len = get_u32(s + 4);
	if (len > BIN_HEADER_MAX)
		return bfail(r, at(r) + 4, "header length %" PRIu32 " is out of range (at most %d)",
			     len, BIN_HEADER_MAX);
	r->pos += 8;
	rc = need(r, len + 4);
	if (rc <= 0)
		return rc ? -1 : truncated(r, "the header", len + 4);
	p = (const unsigned char *)r->buf + r->pos;
	e = p + len;
	crc = (uint32_t)crc32(0, (const unsigned char *)r->buf, (uInt)(r->pos + len));
	if (crc != get_u32(e))
		return bfail(r, at(r) + len,
			     "checksum mismatch in the header (CRC-32 %08" PRIx32 ", stored %08" PRIx32
			     ")",
			     crc, get_u32(e));
	h->version = TRACE_VERSION;
	if (hdr_num(r, &p, e, "cpus", 1, TRACE_MAX_CPUS, &v))
		return -1;
	h->cpus = (int)v;
	if (hdr_num(r, &p, e, "hz", 0, HZ_MAX, &v))
		return -1;
	h->hz = (int)v;
	if (hdr_num(r, &p, e, "header flags", 0, 7, &v))
		return -1;
	flags = (unsigned int)v;
	h->has_start = flags & HF_START;
	h->has_end = flags & HF_END;
	h->has_tick_phase = flags & HF_TICK_PHASE;
	if ((h->has_start && hdr_num(r, &p, e, "start", 0, SIM_TIME_MAX_NS, &h->start_ns)) ||
	    (h->has_end && hdr_num(r, &p, e, "end", 0, SIM_TIME_MAX_NS, &h->end_ns)) ||
	    (h->has_tick_phase &&
	     hdr_num(r, &p, e, "tick_phase", 0, SIM_TIME_MAX_NS, &h->tick_phase_ns)) ||
	    hdr_text(r, &p, e, "machine", h->machine, sizeof(h->machine)) ||
	    hdr_text(r, &p, e, "source", h->source, sizeof(h->source)))
		return -1;
	if (p != e)
		return bfail(r, r->bin->base + (int64_t)(p - (const unsigned char *)r->buf),
			     "%td bytes after the header's last field", e - p);
	r->bin->file_crc = crc32(crc, e, 4);
	r->bin_at = at(r);
	r->pos += len + 4;
	return trace_header_done(r);
}

/* ---- blocks ---- */

/* The next block, or the end block (then returns 0 and done is set). 1, 0, or -1. */
static int next_block(struct trace_reader *r)
{
	struct bin_reader *b = r->bin;
	const unsigned char *s;
	size_t have;
	uint32_t count, len, crc;
	int64_t off;
	int rc;

	if (b->left)
		return bfail(r, b->blk_at + (int64_t)b->p,
			     "the block at byte %" PRId64 " claims %" PRIu32 " records but holds %" PRIu32,
			     b->blk_at - BIN_BLOCK_HEAD, b->count, b->count - b->left);
	if (b->p != b->blk_len)
		return bfail(r, b->blk_at + (int64_t)b->p,
			     "%zu bytes after the last of the block's %" PRIu32 " records",
			     b->blk_len - b->p, b->count);
	rc = need(r, 1);
	if (rc <= 0)
		return rc ? -1
			  : bfail(r, at(r),
				  "truncated: the end block is missing (the file ends after %" PRIu64
				  " records)",
				  b->total);
	off = at(r);
	s = (const unsigned char *)r->buf + r->pos;
	if (*s == 'E') {
		rc = need(r, BIN_END_SIZE);
		if (rc <= 0)
			return rc ? -1 : truncated(r, "the end block", BIN_END_SIZE);
		s = (const unsigned char *)r->buf + r->pos;
		b->file_crc = crc32(b->file_crc, s, 9);
		if (get_u32(s + 9) != (uint32_t)b->file_crc)
			return bfail(r, off + 9,
				     "checksum mismatch in the end block (CRC-32 of the file %08" PRIx32
				     ", stored %08" PRIx32 ")",
				     (uint32_t)b->file_crc, get_u32(s + 9));
		if (get_u64(s + 1) != b->total)
			return bfail(r, off + 1,
				     "the end block counts %" PRIu64 " records, the blocks hold %" PRIu64,
				     get_u64(s + 1), b->total);
		r->pos += BIN_END_SIZE;
		rc = need(r, 1);
		if (rc)
			return rc < 0 ? -1 : bfail(r, at(r), "data after the end block");
		b->done = true;
		r->bin_at = off;
		return 0;
	}
	if (*s != 'B')
		return bfail(r, off, "unknown block tag 0x%02x (expected 'B' or 'E')", *s);
	rc = need(r, BIN_BLOCK_HEAD);
	if (rc <= 0)
		return rc ? -1 : truncated(r, "a block header", BIN_BLOCK_HEAD);
	s = (const unsigned char *)r->buf + r->pos;
	count = get_u32(s + 1);
	len = get_u32(s + 5);
	if (len > BIN_BLOCK_MAX)
		return bfail(r, off + 5, "block length %" PRIu32 " is out of range (at most %d)", len,
			     BIN_BLOCK_MAX);
	if (!count)
		return bfail(r, off + 1, "a block of 0 records");
	crc = (uint32_t)crc32(0, s, BIN_BLOCK_HEAD);
	r->pos += BIN_BLOCK_HEAD;
	if (len + 4 > b->blk_cap) {
		unsigned char *nb = sim_realloc(b->blk, len + 4);

		if (!nb)
			return trace_fail_nomem(r);
		b->blk = nb;
		b->blk_cap = len + 4;
	}
	/* the payload and its CRC: what the buffer holds, then straight from the file */
	have = r->len - r->pos < len + 4 ? r->len - r->pos : len + 4;
	memcpy(b->blk, r->buf + r->pos, have);
	r->pos += have;
	while (have < len + 4 && !r->eof && r->fd >= 0) {
		ssize_t got = read(r->fd, b->blk + have, len + 4 - have);

		if (got > 0) {
			have += (size_t)got;
			b->base += got; /* consumed past the buffer: r->buf[0] moves on */
		} else if (got == 0) {
			r->eof = true;
		} else if (errno != EINTR) {
			return bfail(r, off, "cannot read: %s", strerror(errno));
		}
	}
	if (have < len + 4)
		return bfail(r, off,
			     "truncated: the file ends at byte %" PRId64 " inside the block at byte %" PRId64
			     " (%" PRIu32 " bytes)",
			     off + BIN_BLOCK_HEAD + (int64_t)have, off, BIN_BLOCK_HEAD + len + 4);
	crc = (uint32_t)crc32(crc, b->blk, len);
	if (crc != get_u32(b->blk + len))
		return bfail(r, off + BIN_BLOCK_HEAD + len,
			     "checksum mismatch in the block at byte %" PRId64 " (CRC-32 %08" PRIx32
			     ", stored %08" PRIx32 ")",
			     off, crc, get_u32(b->blk + len));
	b->file_crc = crc32_combine(b->file_crc, crc, BIN_BLOCK_HEAD + len);
	b->file_crc = crc32(b->file_crc, b->blk + len, 4);
	b->blk_at = off + BIN_BLOCK_HEAD;
	b->blk_len = len;
	b->p = 0;
	b->count = b->left = count;
	b->prev_time = 0;
	b->nids = 0;
	return 1;
}

/* ---- records ---- */

struct dec {
	const unsigned char *p, *e, *blk;
	int64_t at; /* file offset of blk */
};

static int bad_varint(struct trace_reader *r, const struct dec *d, const char *what)
{
	return bfail(r, d->at + (d->p - d->blk), "bad varint (%s)", what);
}

static inline int get_uv(struct trace_reader *r, struct dec *d, const char *what, uint64_t *v)
{
	if (d->p < d->e && *d->p < 0x80) { /* the common one-byte case */
		*v = *d->p++;
		return 0;
	}
	return varint(&d->p, d->e, v) ? 0 : bad_varint(r, d, what);
}

/* A signed value (zigzag) that the text form would hold: 0 to 2^63 - 1. */
static inline int get_sv(struct trace_reader *r, struct dec *d, const char *what, int64_t *v)
{
	const unsigned char *p0 = d->p;
	uint64_t x;

	if (get_uv(r, d, what, &x))
		return -1;
	*v = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
	if (*v < 0)
		return bfail(r, d->at + (p0 - d->blk), "%s %" PRId64 " is negative", what, *v);
	return 0;
}

/* A value given relative to base (zigzag): base + delta, which must not pass 2^63 - 1. */
static int get_rel(struct trace_reader *r, struct dec *d, const char *what, int64_t base,
		   int64_t *v)
{
	const unsigned char *p0 = d->p;
	uint64_t x;
	int64_t delta;

	if (get_uv(r, d, what, &x))
		return -1;
	delta = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
	if (__builtin_add_overflow(base, delta, v) || *v < 0)
		return bfail(r, d->at + (p0 - d->blk), "%s is out of range (%" PRId64 " %+" PRId64 ")",
			     what, base, delta);
	return 0;
}

/* A timer ID: 0 and the bytes (added to the block's table), or 1 + its index in the table. */
static int get_id(struct trace_reader *r, struct dec *d, struct trace_record *rec)
{
	struct bin_reader *b = r->bin;
	const unsigned char *p0 = d->p;
	uint64_t k, n;
	const unsigned char *s;

	if (get_uv(r, d, "timer ID", &k))
		return -1;
	if (k) {
		if (k > (uint64_t)b->nids)
			return bfail(r, d->at + (p0 - d->blk),
				     "timer ID %" PRIu64 " is not in the block's table (%d IDs)", k,
				     b->nids);
		s = b->blk + b->ids[k - 1].off;
		n = b->ids[k - 1].len;
	} else {
		if (get_uv(r, d, "timer ID length", &n))
			return -1;
		s = d->p;
		if (n > (uint64_t)(d->e - s))
			return bfail(r, d->at + (p0 - d->blk), "timer ID of %" PRIu64 " bytes runs past the block", n);
		if (!trace_id_valid((const char *)s, (size_t)n))
			return bfail(r, d->at + (p0 - d->blk), "bad timer ID (expected %s)",
				     trace_field_what(rec->kind, F_ID));
		d->p += n;
		if (b->nids < BIN_IDS)
			b->ids[b->nids++] = (struct bin_id){ (uint32_t)(s - b->blk), (uint32_t)n };
	}
	memcpy(rec->id, s, (size_t)n);
	rec->id[n] = '\0';
	return 0;
}

/* The optional fields of an idle record, present as its flags byte says. */
static int idle_fields(struct trace_reader *r, struct dec *d, struct trace_record *rec,
		       unsigned int *seen)
{
	uint64_t f;

	if (get_uv(r, d, "idle flags", &f))
		return -1;
	if (f > 0x1f)
		return bfail(r, d->at + (d->p - 1 - d->blk), "unknown idle flags 0x%02" PRIx64, f);
	if ((f & IF_NEXT_TIMER) && get_sv(r, d, "next_timer", &rec->next_timer_ns))
		return -1;
	if (f & IF_HRTIMER) {
		rec->timer_kind = TIMER_HRTIMER;
		*seen |= FB(F_TKIND);
	}
	if ((f & IF_NEXT_WHEEL) && get_sv(r, d, "next_wheel", &rec->next_wheel_ns))
		return -1;
	if ((f & IF_KEEP_TICK) && get_sv(r, d, "keep_tick", &rec->keep_tick_ns))
		return -1;
	if ((f & IF_SLACK) && get_sv(r, d, "slack", &rec->slack_ns))
		return -1;
	*seen |= (f & IF_NEXT_TIMER ? FB(F_NEXT_TIMER) : 0) | (f & IF_NEXT_WHEEL ? FB(F_NEXT_WHEEL) : 0) |
		 (f & IF_KEEP_TICK ? FB(F_KEEP_TICK) : 0) | (f & IF_SLACK ? FB(F_SLACK) : 0);
	return 0;
}

static int timer_fields(struct trace_reader *r, struct dec *d, struct trace_record *rec,
			unsigned int *seen)
{
	uint64_t f;
	int64_t v;

	if (get_id(r, d, rec) || get_rel(r, d, "expiry", rec->time_ns, &rec->expiry_ns) ||
	    get_uv(r, d, "timer flags", &f))
		return -1;
	if (f > 0x1f)
		return bfail(r, d->at + (d->p - 1 - d->blk), "unknown timer flags 0x%02" PRIx64, f);
	if (f & TF_PERIOD) {
		if (get_sv(r, d, "period", &v) || trace_check_period(r, rec, v))
			return -1;
		*seen |= FB(F_PERIOD);
	}
	rec->timer_kind = f & TF_HRTIMER ? TIMER_HRTIMER : TIMER_WHEEL;
	rec->deferrable = f & TF_DEFERRABLE;
	rec->global = f & TF_GLOBAL;
	if ((f & TF_SLACK) && get_sv(r, d, "slack", &rec->slack_ns))
		return -1;
	return 0;
}

/* One record from the block; rec->offset and r->bin_at are its byte offset. */
static int decode(struct trace_reader *r, struct dec *d, struct trace_record *rec)
{
	unsigned int seen = 0, kind, cause;
	unsigned char b0;
	uint64_t x;
	int64_t v;
	int rc = 0;

	if (d->p >= d->e)
		return bfail(r, d->at + (d->p - d->blk),
			     "the block at byte %" PRId64 " claims %" PRIu32 " records but holds %" PRIu32,
			     d->at - BIN_BLOCK_HEAD, r->bin->count, r->bin->count - r->bin->left);
	b0 = *d->p++;
	kind = b0 & 7;
	cause = b0 >> 3 & 3;
	if (kind > TRACE_BUSY)
		return bfail(r, r->bin_at, "unknown record kind %u", kind);
	trace_record_init(r, rec, (enum trace_kind)kind);
	rec->offset = r->bin_at;
	if ((kind == TRACE_IDLE || kind == TRACE_WAKE) &&
	    (cause > WAKE_IPI || (kind == TRACE_WAKE && cause == WAKE_TIMER)))
		return bfail(r, r->bin_at, "bad wakeup cause %u for a %s record", cause,
			     trace_kinds[kind].name);
	if (kind != TRACE_IDLE && kind != TRACE_WAKE && cause)
		return bfail(r, r->bin_at, "a %s record has no wakeup cause", trace_kinds[kind].name);
	if (((b0 & (RF_IOWAIT | RF_LOAD)) && kind != TRACE_IDLE && kind != TRACE_WAKE &&
	     kind != TRACE_BUSY) ||
	    ((b0 & RF_NO_RESCHED) && kind != TRACE_IDLE && kind != TRACE_WAKE && kind != TRACE_TIMER))
		return bfail(r, r->bin_at, "flags 0x%02x do not apply to a %s record", b0,
			     trace_kinds[kind].name);
	rec->cause = (enum wake_cause)cause;
	rec->no_resched = b0 & RF_NO_RESCHED;
	if (trace_check_family(r, rec) || get_uv(r, d, "CPU", &x))
		return -1;
	if (x > INT64_MAX)
		x = INT64_MAX;
	if (trace_check_cpu(r, rec, (int64_t)x) ||
	    get_rel(r, d, "time", r->bin->prev_time, &rec->time_ns) || trace_check_time(r, rec))
		return -1;
	switch (rec->kind) {
	case TRACE_IDLE:
		rc = get_sv(r, d, "length", &rec->length_ns) || trace_check_length(r, rec) ||
		     idle_fields(r, d, rec, &seen);
		break;
	case TRACE_TIMER:
		rc = timer_fields(r, d, rec, &seen);
		break;
	case TRACE_CANCEL:
		rc = get_id(r, d, rec);
		break;
	case TRACE_WAKE:
		break;
	case TRACE_BUSY:
		rc = get_sv(r, d, "duration", &rec->length_ns) || trace_check_length(r, rec);
		break;
	}
	if (rc)
		return -1;
	if (b0 & RF_IOWAIT) {
		if (get_sv(r, d, "iowait", &v) || trace_check_iowait(r, rec, v))
			return -1;
	}
	if (b0 & RF_LOAD) {
		if (get_sv(r, d, "load", &v))
			return -1;
		/* the text's largest, 999999.9999999 rounded to the fixed point, is the limit */
		if (v > (int64_t)LOAD_LIMIT * LOAD_ONE)
			return bfail(r, r->bin_at, "load %" PRId64 "/%d is out of range (below %d)", v,
				     LOAD_ONE, LOAD_LIMIT);
		rec->load = (unsigned long)v;
		rec->has_load = true;
	}
	if (trace_check_record(r, rec, seen))
		return -1;
	r->bin->prev_time = rec->time_ns;
	return 0;
}

int trace_bin_next(struct trace_reader *r, struct trace_record *rec)
{
	struct bin_reader *b = r->bin;
	struct dec d;
	int rc;

	if (b->done)
		return 0;
	if (!b->left) {
		rc = next_block(r);
		if (rc <= 0)
			return rc;
	}
	d.blk = b->blk;
	d.p = b->blk + b->p;
	d.e = b->blk + b->blk_len;
	d.at = b->blk_at;
	r->bin_at = b->blk_at + (int64_t)b->p;
	if (decode(r, &d, rec))
		return -1;
	b->p = (size_t)(d.p - b->blk);
	b->left--;
	b->total++;
	return 1;
}

void trace_bin_close(struct trace_reader *r)
{
	if (!r->bin)
		return;
	sim_free(r->bin->blk);
	sim_free(r->bin);
	r->bin = NULL;
}
