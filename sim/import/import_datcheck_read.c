// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_datcheck_read.c - the trace.dat structure check's reader: the file read through a
 * cache, numbers in the file's byte order, a cursor that never passes its limit (the file,
 * a section or an option), and the two messages, "damaged" and "refused". What is checked:
 * import_datcheck.c.
 */
#include "sim/import/import_datcheck.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* "FILE: trace.dat<what>: MESSAGE (offset N)" as the run's input error. */
static int report(struct rd *r, uint64_t off, const char *what, const char *fmt, va_list ap)
{
	char msg[256];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return sim_error_set(r->err, SIM_ERR_INPUT, r->name, 0, 0, "trace.dat%s: %s (offset %llu)",
			     what, msg, (unsigned long long)off);
}

int datck_damaged(struct rd *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = report(r, off, " damaged", fmt, ap);
	va_end(ap);
	return rc;
}

/* Not damage, but a trace.dat idlesim cannot read: the same form without "damaged". */
int datck_refused(struct rd *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = report(r, off, "", fmt, ap);
	va_end(ap);
	return rc;
}

/* A string for a message: printable ASCII kept, other bytes as \xNN. */
const char *datck_printable(const char *s, char *buf, size_t n)
{
	size_t k = 0;

	for (; *s && k + 5 < n; s++)
		k += (size_t)snprintf(buf + k, n - k,
				      *s >= 32 && *s < 127 && *s != '"' && *s != '\\' ? "%c"
										      : "\\x%02x",
				      (unsigned char)*s);
	buf[k] = '\0';
	return buf;
}

/* ---- reading ---- */

/* n bytes at off, which the caller has checked lie inside the file. */
int datck_get(struct rd *r, uint64_t off, void *dst, size_t n)
{
	unsigned char *d = dst;

	if (off >= r->coff && off + n <= r->coff + r->clen) {
		memcpy(d, r->cache + (off - r->coff), n);
		return 0;
	}
	if (n > RD_CACHE / 2) {
		while (n) {
			ssize_t k = pread(r->fd, d, n, (off_t)off);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return sim_error_set(r->err, SIM_ERR_IO, r->name, 0, 0,
						     "cannot read: %s",
						     k < 0 ? strerror(errno) : "the file shrank");
			d += k, off += (uint64_t)k, n -= (size_t)k;
		}
		return 0;
	}
	r->coff = off;
	r->clen = 0;
	while (r->clen < RD_CACHE && r->coff + r->clen < r->len) {
		size_t want = RD_CACHE - r->clen;
		ssize_t k;

		if (want > r->len - r->coff - r->clen)
			want = (size_t)(r->len - r->coff - r->clen);
		k = pread(r->fd, r->cache + r->clen, want, (off_t)(r->coff + r->clen));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return sim_error_set(r->err, SIM_ERR_IO, r->name, 0, 0, "cannot read: %s",
					     k < 0 ? strerror(errno) : "the file shrank");
		r->clen += (size_t)k;
	}
	if (r->clen < n)
		return sim_error_set(r->err, SIM_ERR_IO, r->name, 0, 0,
				     "cannot read: the file shrank");
	memcpy(d, r->cache, n);
	return 0;
}

uint64_t datck_num(const struct rd *r, const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = r->big ? v << 8 | p[i] : v | (uint64_t)p[i] << (8 * i);
	return v;
}

/* The next n bytes must lie before the cursor's end. */
int datck_need(struct cur *c, uint64_t n, const char *what)
{
	if (n <= c->end - c->pos)
		return 0;
	if (c->end == c->r->len)
		return datck_damaged(c->r, c->pos,
				     "%s: %llu bytes needed, but the file ends %llu bytes further "
				     "(it is %llu bytes long)",
				     what, (unsigned long long)n,
				     (unsigned long long)(c->end - c->pos),
				     (unsigned long long)c->r->len);
	return datck_damaged(c->r, c->pos, "%s: %llu bytes needed, but %s ends %llu bytes further",
			     what, (unsigned long long)n, c->within,
			     (unsigned long long)(c->end - c->pos));
}

int datck_rnum(struct cur *c, int n, const char *what, uint64_t *v)
{
	unsigned char b[8];

	if (datck_need(c, (uint64_t)n, what) || datck_get(c->r, c->pos, b, (size_t)n))
		return -1;
	*v = datck_num(c->r, b, n);
	c->pos += (uint64_t)n;
	return 0;
}

int datck_r32(struct cur *c, const char *what, uint32_t *v)
{
	uint64_t x;

	if (datck_rnum(c, 4, what, &x))
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int datck_r64(struct cur *c, const char *what, uint64_t *v)
{
	return datck_rnum(c, 8, what, v);
}

int datck_skip(struct cur *c, uint64_t n, const char *what)
{
	if (datck_need(c, n, what))
		return -1;
	c->pos += n;
	return 0;
}

/* A NUL-terminated string of at most max bytes before the NUL, copied (cut) into out. */
int datck_rstr(struct cur *c, const char *what, size_t max, char *out, size_t outsz)
{
	uint64_t start = c->pos;
	size_t n = 0;

	for (;;) {
		unsigned char ch = 0; /* set by datck_get() when it returns 0 */

		if (c->pos >= c->end)
			return datck_damaged(c->r, start, "%s: no terminating NUL before %s ends",
					     what, c->end == c->r->len ? "the file" : c->within);
		if (datck_get(c->r, c->pos, &ch, 1))
			return -1;
		c->pos++;
		if (!ch)
			break;
		if (n == max)
			return datck_damaged(c->r, start, "%s: longer than %zu bytes", what, max);
		if (n + 1 < outsz)
			out[n] = (char)ch;
		n++;
	}
	if (outsz)
		out[n < outsz ? n : outsz - 1] = '\0';
	return 0;
}

/* The next n bytes must be exactly these (a marker). */
int datck_expect(struct cur *c, const char *want, size_t n, const char *what)
{
	char b[16];

	if (datck_need(c, n, what) || datck_get(c->r, c->pos, b, n))
		return -1;
	if (memcmp(b, want, n))
		return datck_damaged(c->r, c->pos, "%s expected", what);
	c->pos += n;
	return 0;
}

uint64_t datck_left(const struct cur *c)
{
	return c->end - c->pos;
}

/* The section whose header is at offset `at` (version 7; r->sec is in file order). */
const struct section *datck_section_at(const struct rd *r, uint64_t at)
{
	size_t lo = 0, hi = r->nsec;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->sec[mid].at == at)
			return &r->sec[mid];
		if (r->sec[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
