// SPDX-License-Identifier: GPL-2.0-only
/*
 * jsonpos.c - a path-following scanner over already-valid JSON text.
 *
 * Member names are compared after decoding their escapes, and a name given twice resolves to
 * its last occurrence, so a path finds the value jansson returned for it.
 */
#include "sim/base/jsonpos.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const char *p;
	int line, col;
};

static void adv(struct scan *s)
{
	if (!*s->p)
		return;
	if (*s->p == '\n') {
		s->line++;
		s->col = 1;
	} else if ((*s->p & 0xC0) != 0x80) { /* count UTF-8 characters, not bytes */
		s->col++;
	}
	s->p++;
}

static void skip_ws(struct scan *s)
{
	while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')
		adv(s);
}

/*
 * Comparing a JSON string with a path key, byte by byte as the string is decoded: escapes
 * are resolved as jansson resolves them, and no buffer limits the key's length.
 */
struct keymatch {
	const char *key; /* NULL: skip only */
	size_t len, n;
	int equal;
};

static void match_byte(struct keymatch *k, unsigned char b)
{
	if (k->equal && k->n < k->len && (unsigned char)k->key[k->n] == b)
		k->n++;
	else
		k->equal = 0;
}

static void match_code_point(struct keymatch *k, unsigned long cp)
{
	if (cp < 0x80) {
		match_byte(k, (unsigned char)cp);
	} else if (cp < 0x800) {
		match_byte(k, (unsigned char)(0xC0 | (cp >> 6)));
		match_byte(k, (unsigned char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		match_byte(k, (unsigned char)(0xE0 | (cp >> 12)));
		match_byte(k, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
		match_byte(k, (unsigned char)(0x80 | (cp & 0x3F)));
	} else {
		match_byte(k, (unsigned char)(0xF0 | (cp >> 18)));
		match_byte(k, (unsigned char)(0x80 | ((cp >> 12) & 0x3F)));
		match_byte(k, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
		match_byte(k, (unsigned char)(0x80 | (cp & 0x3F)));
	}
}

/* The four hex digits after "\u", with s->p on the 'u'. */
static unsigned long read_hex4(struct scan *s)
{
	unsigned long v = 0;
	int i;

	adv(s); /* 'u' */
	for (i = 0; i < 4 && isxdigit((unsigned char)*s->p); i++) {
		char c = *s->p;

		v = v * 16 + (unsigned long)(isdigit((unsigned char)c)
						     ? c - '0'
						     : tolower((unsigned char)c) - 'a' + 10);
		adv(s);
	}
	return v;
}

/* A \u escape, with s->p on the 'u'; a surrogate pair makes one code point. */
static unsigned long read_unicode_escape(struct scan *s)
{
	unsigned long cp = read_hex4(s), lo;

	if (cp < 0xD800 || cp > 0xDBFF || s->p[0] != '\\' || s->p[1] != 'u')
		return cp;
	adv(s); /* '\\' */
	lo = read_hex4(s);
	return 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
}

/* One escape, with s->p on the character after the backslash. */
static void read_escape(struct scan *s, struct keymatch *k)
{
	static const char from[] = "bfnrt", to[] = "\b\f\n\r\t";
	const char *e;

	if (*s->p == 'u') {
		match_code_point(k, read_unicode_escape(s));
		return;
	}
	e = *s->p ? strchr(from, *s->p) : NULL;
	match_byte(k, (unsigned char)(e ? to[e - from] : *s->p)); /* '"', '\\', '/' */
	adv(s);
}

/* Skip a string starting at '"'; with k->key set, also compare its decoded text with it. */
static void scan_string(struct scan *s, struct keymatch *k)
{
	adv(s); /* opening quote */
	while (*s->p && *s->p != '"') {
		if (*s->p == '\\') {
			adv(s);
			read_escape(s, k);
		} else {
			match_byte(k, (unsigned char)*s->p);
			adv(s);
		}
	}
	adv(s); /* closing quote */
}

static void skip_string(struct scan *s)
{
	struct keymatch k = {NULL, 0, 0, 0};

	scan_string(s, &k);
}

/* Skip a member name and compare it with key[0..len). */
static int member_name_is(struct scan *s, const char *key, size_t len)
{
	struct keymatch k = {key, len, 0, 1};

	scan_string(s, &k);
	return k.equal && k.n == len;
}

static void skip_value(struct scan *s);

static void skip_container(struct scan *s, char close)
{
	adv(s);
	skip_ws(s);
	while (*s->p && *s->p != close) {
		if (close == '}') {
			skip_string(s);
			skip_ws(s);
			adv(s); /* ':' */
			skip_ws(s);
		}
		skip_value(s);
		skip_ws(s);
		if (*s->p == ',') {
			adv(s);
			skip_ws(s);
		}
	}
	adv(s);
}

static void skip_value(struct scan *s)
{
	skip_ws(s);
	if (*s->p == '{')
		skip_container(s, '}');
	else if (*s->p == '[')
		skip_container(s, ']');
	else if (*s->p == '"')
		skip_string(s);
	else
		while (*s->p && !strchr(",]} \t\r\n", *s->p))
			adv(s);
}

/*
 * Read the next path component: a member name (*key, *len) or an array index (*index >= 0).
 * Returns 0 at the end of the path.
 */
static int next_component(const char **path, const char **key, size_t *len, long *index)
{
	const char *p = *path;

	if (*p == '.')
		p++;
	if (!*p)
		return 0;
	if (*p == '[') {
		char *end;

		*index = strtol(p + 1, &end, 10);
		if (*index < 0)
			*index = LONG_MAX; /* no such element, and not a member name either */
		p = end;
		if (*p == ']')
			p++;
		*path = p;
		*len = 0;
		return 1;
	}
	*key = p;
	while (*p && *p != '.' && *p != '[')
		p++;
	*len = (size_t)(p - *key);
	*index = -1;
	*path = p;
	return 1;
}

/*
 * Find member key in the object at s->p and leave s on its value. When a name occurs twice,
 * the last one wins, as it does in jansson (unless JSON_REJECT_DUPLICATES).
 */
static int find_member(struct scan *s, const char *key, size_t len)
{
	struct scan at = *s;
	int found = 0;

	adv(s);
	skip_ws(s);
	while (*s->p == '"') {
		int match = member_name_is(s, key, len);

		skip_ws(s);
		adv(s); /* ':' */
		skip_ws(s);
		if (match) {
			at = *s;
			found = 1;
		}
		skip_value(s);
		skip_ws(s);
		if (*s->p == ',') {
			adv(s);
			skip_ws(s);
		}
	}
	*s = at;
	return found;
}

/* Find element index of the array at s->p and leave s on it. */
static int find_element(struct scan *s, long index)
{
	long i = 0;

	adv(s);
	skip_ws(s);
	while (*s->p && *s->p != ']') {
		if (i == index)
			return 1;
		skip_value(s);
		skip_ws(s);
		if (*s->p == ',') {
			adv(s);
			skip_ws(s);
		}
		i++;
	}
	return 0;
}

int jsonpos_find(const char *text, const char *path, int *line, int *column)
{
	struct scan s = {text, 1, 1};
	const char *key = NULL;
	size_t len;
	long index;

	skip_ws(&s);
	while (next_component(&path, &key, &len, &index)) {
		struct scan at = s;
		int found = 0;

		if (index < 0 && *s.p == '{')
			found = find_member(&s, key, len);
		else if (index >= 0 && *s.p == '[')
			found = find_element(&s, index);
		if (!found) {
			*line = at.line;
			*column = at.col;
			return -1;
		}
	}
	*line = s.line;
	*column = s.col;
	return 0;
}

size_t jsonpos_put_byte(char *out, unsigned char ch)
{
	static const char hex[] = "0123456789abcdef";

	if (ch >= 0x20 && ch < 0x7f) {
		out[0] = (char)ch;
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[ch >> 4];
	out[3] = hex[ch & 15];
	return 4;
}

const char *jsonpos_clean_message(char *buf, size_t cap, const char *msg)
{
	size_t o = 0;

	if (!cap)
		return buf;
	for (; *msg && o + 5 < cap; msg++)
		o += jsonpos_put_byte(buf + o, (unsigned char)*msg);
	buf[o] = '\0';
	return buf;
}

int jsonpos_fail_v(struct sim_error *err, const char *source, const char *text, const char *path,
		   const char *fmt, va_list ap)
{
	char msg[sizeof(err->text)];
	int line = 0, column = 0;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (text && path)
		jsonpos_find(text, path, &line, &column);
	return sim_error_set(err, SIM_ERR_INPUT, source, line, column, "%s", msg);
}

/* A member named w->key: its value's position, or NULL (keys with dots: a sweep's tunables). */
static const char *key_value(const char *text, const char *key)
{
	char q[96];
	const char *c;

	snprintf(q, sizeof(q), "\"%s\"", key);
	for (c = strstr(text, q); c; c = strstr(c + 1, q)) {
		const char *v = c + strlen(q) + strspn(c + strlen(q), " \t\r\n");

		if (*v == ':')
			return v + 1 + strspn(v + 1, " \t\r\n");
	}
	return NULL;
}

int jsonpos_fail(const struct json_where *w, const char *path, const char *fmt, ...)
{
	char msg[sizeof(w->err->text)];
	const char *at, *c;
	int line = 1, col = 1, rc;
	va_list ap;

	va_start(ap, fmt);
	if (!w->key || !w->text) {
		rc = jsonpos_fail_v(w->err, w->source, w->text, path, fmt, ap);
		va_end(ap);
		return rc;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	at = key_value(w->text, w->key);
	for (c = w->text; at && c < at; c++, col++)
		if (*c == '\n') {
			line++;
			col = 0;
		}
	return sim_error_set(w->err, SIM_ERR_INPUT, w->source, at ? line : 0, at ? col : 0, "%s",
			     msg);
}
