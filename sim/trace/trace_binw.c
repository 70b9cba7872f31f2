// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_binw.c - the writer of the binary form of the native trace (traces/FORMAT.md,
 * "Binary form"), and trace_write_source(), which copies a record source to either form.
 *
 * Records are encoded into one block buffer of BIN_BLOCK_TARGET bytes and a margin (a record
 * takes at most ~200 bytes); a full block is written with one fwrite. Each record writes
 * what the text writer would write (sim/trace/trace_write.c): the same optional fields, under
 * the same conditions, so that a record read back from either form is the same record.
 */
#include "sim/trace/trace_int.h"
#include "sim/base/alloc.h"

#include <string.h>
#include <zlib.h>

#define BLOCK_CAP (BIN_BLOCK_TARGET + 512)
#define ID_SLOTS 2048 /* hash slots for the block's ID table: twice its size */

struct trace_bin_writer {
	FILE *f;
	unsigned char *blk; /* the block: 9 bytes of head, the payload, its CRC */
	size_t len;	    /* payload bytes */
	uint32_t count;
	int64_t prev_time;
	uint64_t total;
	uLong file_crc;
	int nids;
	char (*ids)[TRACE_ID_LEN];
	uint16_t *slots; /* 1 + the index in ids, 0 for none */
};

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static unsigned char *put_uv(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/* zigzag: small magnitudes of either sign take few bytes */
static unsigned char *put_sv(unsigned char *p, int64_t v)
{
	return put_uv(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static int write_fail(struct sim_error *err)
{
	return sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error");
}

static int emit(struct trace_bin_writer *w, const void *p, size_t n, struct sim_error *err)
{
	return fwrite(p, 1, n, w->f) == n ? 0 : write_fail(err);
}

/* Free text for the header: control characters become spaces, as the text writer makes them
 * (one line), and blanks at either end go, as the text reader drops them. */
static unsigned char *put_text(unsigned char *p, const char *s, size_t size)
{
	size_t n = strnlen(s, size - 1), i = 0, j;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || (unsigned char)s[n - 1] < 0x20))
		n--;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || (unsigned char)s[i] < 0x20))
		i++;
	p = put_uv(p, n - i);
	for (j = i; j < n; j++)
		*p++ = (unsigned char)s[j] < 0x20 || s[j] == 0x7f ? ' ' : (unsigned char)s[j];
	return p;
}

struct trace_bin_writer *trace_bin_open(FILE *f, const struct trace_header *h,
					struct sim_error *err)
{
	struct trace_bin_writer *w = sim_calloc(1, sizeof(*w));
	unsigned char head[BIN_HEADER_MAX], *p;
	uLong crc;

	if (!w || !(w->blk = sim_malloc(BLOCK_CAP)) ||
	    !(w->ids = sim_malloc(BIN_IDS * sizeof(*w->ids))) ||
	    !(w->slots = sim_calloc(ID_SLOTS, sizeof(*w->slots)))) {
		trace_bin_free(w);
		sim_error_nomem(err, "");
		return NULL;
	}
	w->f = f;
	memcpy(head, TRACE_BIN_MAGIC, TRACE_BIN_MAGIC_LEN);
	put_u32(head + 8, TRACE_BIN_VERSION);
	p = head + 16;
	p = put_uv(p, (uint64_t)h->cpus);
	p = put_uv(p, h->hz > 0 ? (uint64_t)h->hz : 0);
	p = put_uv(p, (h->has_start ? HF_START : 0) | (h->has_end ? HF_END : 0) |
			      (h->has_tick_phase ? HF_TICK_PHASE : 0));
	if (h->has_start)
		p = put_uv(p, (uint64_t)h->start_ns);
	if (h->has_end)
		p = put_uv(p, (uint64_t)h->end_ns);
	if (h->has_tick_phase)
		p = put_uv(p, (uint64_t)h->tick_phase_ns);
	p = put_text(p, h->machine, sizeof(h->machine));
	p = put_text(p, h->source, sizeof(h->source));
	put_u32(head + 12, (uint32_t)(p - head - 16));
	crc = crc32(0, head, (uInt)(p - head));
	put_u32(p, (uint32_t)crc);
	w->file_crc = crc32(crc, p, 4);
	p += 4;
	if (emit(w, head, (size_t)(p - head), err)) {
		trace_bin_free(w);
		return NULL;
	}
	return w;
}

/* The current block, if it holds records: head, payload, CRC. */
static int flush_block(struct trace_bin_writer *w, struct sim_error *err)
{
	uLong crc;

	if (!w->count)
		return 0;
	w->blk[0] = 'B';
	put_u32(w->blk + 1, w->count);
	put_u32(w->blk + 5, (uint32_t)w->len);
	crc = crc32(0, w->blk, (uInt)(BIN_BLOCK_HEAD + w->len));
	put_u32(w->blk + BIN_BLOCK_HEAD + w->len, (uint32_t)crc);
	w->file_crc = crc32_combine(w->file_crc, crc, (z_off_t)(BIN_BLOCK_HEAD + w->len));
	w->file_crc = crc32(w->file_crc, w->blk + BIN_BLOCK_HEAD + w->len, 4);
	if (emit(w, w->blk, BIN_BLOCK_HEAD + w->len + 4, err))
		return -1;
	w->len = 0;
	w->count = 0;
	w->prev_time = 0;
	w->nids = 0;
	memset(w->slots, 0, ID_SLOTS * sizeof(*w->slots));
	return 0;
}

static uint32_t id_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* A timer ID: its index in the block's table, else the bytes (and a place in the table). */
static unsigned char *put_id(struct trace_bin_writer *w, unsigned char *p, const char *id)
{
	size_t n = strnlen(id, TRACE_ID_LEN - 1);
	uint32_t h = id_hash(id, n) & (ID_SLOTS - 1);

	while (w->slots[h]) {
		const char *t = w->ids[w->slots[h] - 1];

		if (!strncmp(t, id, n) && !t[n])
			return put_uv(p, w->slots[h]);
		h = (h + 1) & (ID_SLOTS - 1);
	}
	if (w->nids < BIN_IDS) {
		memcpy(w->ids[w->nids], id, n);
		w->ids[w->nids][n] = '\0';
		w->slots[h] = (uint16_t)++w->nids;
	}
	p = put_uv(p, 0);
	p = put_uv(p, n);
	memcpy(p, id, n);
	return p + n;
}

/* The first byte: kind, cause, and flags (only the kinds that have them set them). */
static unsigned int first_byte(const struct trace_record *rec)
{
	unsigned int b = (unsigned int)rec->kind;
	bool wl = rec->kind == TRACE_IDLE || rec->kind == TRACE_WAKE;

	if (wl)
		b |= (unsigned int)(rec->cause & 3) << 3;
	if (rec->no_resched && (wl || rec->kind == TRACE_TIMER))
		b |= RF_NO_RESCHED;
	if (wl || rec->kind == TRACE_BUSY) {
		b |= rec->has_iowait ? RF_IOWAIT : 0;
		b |= rec->has_load ? RF_LOAD : 0;
	}
	return b;
}

int trace_bin_record(struct trace_bin_writer *w, const struct trace_record *rec,
		     struct sim_error *err)
{
	unsigned char *p = w->blk + BIN_BLOCK_HEAD + w->len, *fl;
	unsigned int b0 = first_byte(rec), f = 0;

	if (rec->kind > TRACE_BUSY || rec->cpu < 0 ||
	    ((rec->kind == TRACE_IDLE || rec->kind == TRACE_WAKE) && rec->cause > WAKE_IPI))
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "record %ld cannot be written in the binary form", rec->index);
	*p++ = (unsigned char)b0;
	p = put_uv(p, (uint64_t)rec->cpu);
	p = put_sv(p, rec->time_ns - w->prev_time);
	switch (rec->kind) {
	case TRACE_IDLE:
		p = put_sv(p, rec->length_ns);
		fl = p++;
		if (rec->cause != WAKE_TIMER && rec->next_timer_ns >= 0) {
			f |= IF_NEXT_TIMER;
			p = put_sv(p, rec->next_timer_ns);
		}
		if (rec->timer_kind == TIMER_HRTIMER &&
		    (rec->cause == WAKE_TIMER || rec->next_timer_ns >= 0)) {
			f |= IF_HRTIMER;
			if (rec->next_wheel_ns >= 0) {
				f |= IF_NEXT_WHEEL;
				p = put_sv(p, rec->next_wheel_ns);
			}
		}
		if (rec->keep_tick_ns > 0) {
			f |= IF_KEEP_TICK;
			p = put_sv(p, rec->keep_tick_ns);
		}
		if (rec->slack_ns > 0) {
			f |= IF_SLACK;
			p = put_sv(p, rec->slack_ns);
		}
		*fl = (unsigned char)f;
		break;
	case TRACE_TIMER:
		p = put_id(w, p, rec->id);
		p = put_sv(p, rec->expiry_ns - rec->time_ns);
		fl = p++;
		if (rec->period_ns > 0) {
			f |= TF_PERIOD;
			p = put_sv(p, rec->period_ns);
		}
		f |= (rec->timer_kind == TIMER_HRTIMER ? TF_HRTIMER : 0) |
		     (rec->deferrable ? TF_DEFERRABLE : 0) | (rec->global ? TF_GLOBAL : 0);
		if (rec->slack_ns > 0) {
			f |= TF_SLACK;
			p = put_sv(p, rec->slack_ns);
		}
		*fl = (unsigned char)f;
		break;
	case TRACE_CANCEL:
		p = put_id(w, p, rec->id);
		break;
	case TRACE_WAKE:
		break;
	case TRACE_BUSY:
		p = put_sv(p, rec->length_ns);
		break;
	}
	if (b0 & RF_IOWAIT)
		p = put_sv(p, rec->iowait);
	if (b0 & RF_LOAD)
		p = put_sv(p, (int64_t)rec->load);
	w->len = (size_t)(p - w->blk) - BIN_BLOCK_HEAD;
	w->count++;
	w->total++;
	w->prev_time = rec->time_ns;
	return w->len >= BIN_BLOCK_TARGET ? flush_block(w, err) : 0;
}

int trace_bin_finish(struct trace_bin_writer *w, struct sim_error *err)
{
	unsigned char end[BIN_END_SIZE];
	int rc;

	rc = flush_block(w, err);
	if (!rc) {
		end[0] = 'E';
		put_u32(end + 1, (uint32_t)w->total);
		put_u32(end + 5, (uint32_t)(w->total >> 32));
		put_u32(end + 9, (uint32_t)crc32(w->file_crc, end, 9));
		rc = emit(w, end, sizeof(end), err);
	}
	if (!rc && ferror(w->f))
		rc = write_fail(err);
	trace_bin_free(w);
	return rc;
}

void trace_bin_free(struct trace_bin_writer *w)
{
	if (!w)
		return;
	sim_free(w->blk);
	sim_free(w->ids);
	sim_free(w->slots);
	sim_free(w);
}

int trace_write_source(const struct record_source *src, FILE *f, bool binary,
		       struct sim_error *err)
{
	struct trace_bin_writer *w = NULL;
	struct trace_record rec;
	int rc;

	if (binary) {
		w = trace_bin_open(f, src->hdr, err);
		if (!w)
			return -1;
	} else if (trace_write_header(f, src->hdr)) {
		return write_fail(err);
	}
	while ((rc = src->next(src->ctx, &rec, err)) > 0) {
		if (w ? trace_bin_record(w, &rec, err) : trace_write_record(f, &rec) ? write_fail(err) : 0)
			break;
	}
	if (rc == 0)
		return w ? trace_bin_finish(w, err) : ferror(f) ? write_fail(err) : 0;
	trace_bin_free(w);
	return -1;
}
