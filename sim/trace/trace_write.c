// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_write.c - the writer of the native trace format: text format v1 (traces/FORMAT.md),
 * one record a line in canonical form.
 *
 * It shares nothing with the reader but the names of the record kinds and the fixed point of
 * loads (sim/trace/trace_int.h). Records are formatted by hand into a line buffer and written with
 * one fwrite each.
 */
#include "sim/trace/trace_int.h"

#include <inttypes.h>
#include <string.h>

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* "00" to "99": two digits a division (the writer's numbers are mostly 7 to 13 digits long) */
static const char digit_pairs[201] =
	"00010203040506070809"
	"10111213141516171819"
	"20212223242526272829"
	"30313233343536373839"
	"40414243444546474849"
	"50515253545556575859"
	"60616263646566676869"
	"70717273747576777879"
	"80818283848586878889"
	"90919293949596979899";

static int u64_digits(uint64_t v)
{
	int n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

/* The digits written from the last, two at a time, straight to their place. */
static char *put_u64(char *p, uint64_t v)
{
	int n = u64_digits(v);
	char *q = p + n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(q - 2, digit_pairs + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return p + n;
}

static char *put_s64(char *p, int64_t v)
{
	if (v >= 0)
		return put_u64(p, (uint64_t)v);
	*p++ = '-';
	return put_u64(p, 0 - (uint64_t)v);
}

/*
 * load/2048 exactly: the fraction f/2048 is f * 5^11 / 10^11, so 11 decimals always
 * suffice; trailing zeros are dropped. Reading it back gives the same fixed-point value.
 */
static char *put_load(char *p, unsigned long load)
{
	uint64_t frac = (uint64_t)(load & (LOAD_ONE - 1)) * 48828125u;
	char d[11];
	int i, n = 11;

	p = put_u64(p, load / LOAD_ONE);
	if (!frac)
		return p;
	for (i = 10; i >= 0; i--) {
		d[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	while (d[n - 1] == '0')
		n--;
	*p++ = '.';
	memcpy(p, d, (size_t)n);
	return p + n;
}

static char *put_iowait_load(char *p, const struct trace_record *rec)
{
	if (rec->has_iowait) {
		p = put_str(p, " iowait=");
		p = put_u64(p, rec->iowait);
	}
	if (rec->has_load) {
		p = put_str(p, " load=");
		p = put_load(p, rec->load);
	}
	return p;
}

/* resched=1 is the default: only resched=0 is written. */
static char *put_resched(char *p, const struct trace_record *rec)
{
	return rec->no_resched ? put_str(p, " resched=0") : p;
}

static char *put_slack(char *p, const struct trace_record *rec)
{
	if (rec->slack_ns <= 0)
		return p;
	p = put_str(p, " slack=");
	return put_s64(p, rec->slack_ns);
}

static char *put_id(char *p, const char *id)
{
	size_t n = strnlen(id, TRACE_ID_LEN - 1);

	*p++ = ' ';
	memcpy(p, id, n);
	return p + n;
}

int trace_write_header(FILE *f, const struct trace_header *h)
{
	char src[sizeof(h->source)];
	size_t i;

	if (fprintf(f, "%s v%d\ncpus %d\n", TRACE_MAGIC, TRACE_VERSION, h->cpus) < 0)
		return -1;
	if (h->hz > 0 && fprintf(f, "hz %d\n", h->hz) < 0)
		return -1;
	if (h->machine[0] &&
	    fprintf(f, "machine %.*s\n", (int)sizeof(h->machine) - 1, h->machine) < 0)
		return -1;
	if (h->has_start && fprintf(f, "start %" PRId64 "\n", h->start_ns) < 0)
		return -1;
	if (h->has_end && fprintf(f, "end %" PRId64 "\n", h->end_ns) < 0)
		return -1;
	if (h->has_tick_phase && fprintf(f, "tick_phase %" PRId64 "\n", h->tick_phase_ns) < 0)
		return -1;
	if (h->source[0]) {
		/* one line: a control character would end the directive or break the reader */
		for (i = 0; i < sizeof(src) - 1 && h->source[i]; i++)
			src[i] = (unsigned char)h->source[i] < 0x20 || h->source[i] == 0x7f
					 ? ' '
					 : h->source[i];
		src[i] = '\0';
		if (fprintf(f, "source %s\n", src) < 0)
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

/* One record, canonical form, formatted by hand. */
size_t trace_format_record(char *buf, const struct trace_record *rec)
{
	char *p = buf;

	p = put_str(p, rec->kind <= TRACE_BUSY ? trace_kinds[rec->kind].name : "?");
	*p++ = ' ';
	p = put_s64(p, rec->cpu);
	*p++ = ' ';
	p = put_s64(p, rec->time_ns);
	switch (rec->kind) {
	case TRACE_IDLE:
		*p++ = ' ';
		p = put_s64(p, rec->length_ns);
		*p++ = ' ';
		p = put_str(p, wake_cause_name(rec->cause));
		if (rec->cause != WAKE_TIMER && rec->next_timer_ns >= 0) {
			p = put_str(p, " next_timer=");
			p = put_s64(p, rec->next_timer_ns);
		}
		/* wheel is the default; an hrtimer first names the earliest wheel timer, if any */
		if (rec->timer_kind == TIMER_HRTIMER &&
		    (rec->cause == WAKE_TIMER || rec->next_timer_ns >= 0)) {
			p = put_str(p, " timer=hrtimer");
			if (rec->next_wheel_ns >= 0) {
				p = put_str(p, " next_wheel=");
				p = put_s64(p, rec->next_wheel_ns);
			}
		}
		p = put_iowait_load(p, rec);
		p = put_resched(p, rec);
		if (rec->keep_tick_ns > 0) {
			p = put_str(p, " keep_tick=");
			p = put_s64(p, rec->keep_tick_ns);
		}
		p = put_slack(p, rec);
		break;
	case TRACE_TIMER:
		p = put_id(p, rec->id);
		*p++ = ' ';
		p = put_s64(p, rec->expiry_ns);
		if (rec->period_ns > 0) {
			p = put_str(p, " period=");
			p = put_s64(p, rec->period_ns);
		}
		p = put_resched(p, rec);
		if (rec->timer_kind == TIMER_HRTIMER)
			p = put_str(p, " kind=hrtimer");
		if (rec->deferrable)
			p = put_str(p, " deferrable=1");
		if (rec->global)
			p = put_str(p, " global=1");
		p = put_slack(p, rec);
		break;
	case TRACE_CANCEL:
		p = put_id(p, rec->id);
		break;
	case TRACE_WAKE:
		*p++ = ' ';
		p = put_str(p, wake_cause_name(rec->cause));
		p = put_iowait_load(p, rec);
		p = put_resched(p, rec);
		break;
	case TRACE_BUSY:
		*p++ = ' ';
		p = put_s64(p, rec->length_ns);
		p = put_iowait_load(p, rec);
		break;
	}
	*p++ = '\n';
	return (size_t)(p - buf);
}

/* One record: formatted into a line buffer, one fwrite. */
int trace_write_record(FILE *f, const struct trace_record *rec)
{
	char buf[TRACE_RECORD_MAX];
	size_t n = trace_format_record(buf, rec);

	return fwrite(buf, 1, n, f) == n ? 0 : -1;
}
