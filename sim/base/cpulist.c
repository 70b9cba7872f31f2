// SPDX-License-Identifier: GPL-2.0-only
/* cpulist.c - "0-3,8" CPU lists (cpulist.h). */
#include "sim/base/cpulist.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A CPU number at s[*i]; -1 if none (why set). */
static long number(const char *s, size_t *i, char *why, size_t n)
{
	long v = 0;

	if (!isdigit((unsigned char)s[*i])) {
		snprintf(why, n, "column %zu: '%c' where a CPU number belongs", *i + 1,
			 s[*i] ? s[*i] : ' ');
		return -1;
	}
	while (isdigit((unsigned char)s[*i])) {
		v = v * 10 + (s[(*i)++] - '0');
		if (v >= CPULIST_MAX) {
			snprintf(why, n, "CPU numbers end at %d", CPULIST_MAX - 1);
			return -1;
		}
	}
	return v;
}

int cpulist_parse(const char *s, bool *mask, char *why, size_t n)
{
	size_t i = 0;
	long lo, hi, c;
	int top = 0;

	memset(mask, 0, CPULIST_MAX * sizeof(*mask));
	if (!*s) {
		snprintf(why, n, "an empty CPU list");
		return -1;
	}
	for (;;) {
		lo = hi = number(s, &i, why, n);
		if (lo < 0)
			return -1;
		if (s[i] == '-') {
			i++;
			hi = number(s, &i, why, n);
			if (hi < 0)
				return -1;
			if (hi < lo) {
				snprintf(why, n, "the range %ld-%ld runs backwards", lo, hi);
				return -1;
			}
		}
		for (c = lo; c <= hi; c++)
			mask[c] = true;
		if (hi + 1 > top)
			top = (int)hi + 1;
		if (!s[i])
			return top;
		if (s[i] != ',') {
			snprintf(why, n, "column %zu: '%c' where a comma or a dash belongs", i + 1,
				 s[i]);
			return -1;
		}
		i++;
	}
}
