// SPDX-License-Identifier: GPL-2.0-only
/*
 * alloc.c - allocation wrappers with a thread-local fault-injection switch.
 */
#define _DEFAULT_SOURCE /* madvise() */
#include "sim/base/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static _Thread_local long fail_after = -1; /* allocations left before failing; -1 = never */
static _Thread_local long nr_allocs;
static _Thread_local long nr_live; /* blocks allocated minus blocks freed */
static _Thread_local unsigned long nr_failed;

static int should_fail(void)
{
	nr_allocs++;
	if (fail_after < 0)
		return 0;
	if (fail_after == 0) {
		nr_failed++;
		return 1;
	}
	fail_after--;
	return 0;
}

void *sim_malloc(size_t size)
{
	void *p;

	if (should_fail())
		return NULL;
	p = malloc(size ? size : 1);
	nr_failed += p == NULL;
	nr_live += p != NULL;
	return p;
}

void *sim_calloc(size_t nmemb, size_t size)
{
	void *p;

	if (should_fail())
		return NULL;
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	nr_failed += p == NULL;
	nr_live += p != NULL;
	return p;
}

void *sim_realloc(void *ptr, size_t size)
{
	void *p;

	if (should_fail())
		return NULL;
	p = realloc(ptr, size ? size : 1);
	nr_failed += p == NULL;
	nr_live += p && !ptr;
	return p;
}

void *sim_alloc_big(size_t size, int zero)
{
	size_t align = size < SIM_BIG_BYTES ? 64 : SIM_BIG_BYTES;
	size_t bytes = (size + align - 1) & ~(align - 1);
	void *p;

	if (bytes < size || should_fail())
		return NULL;
	p = aligned_alloc(align, bytes ? bytes : align);
	nr_failed += p == NULL;
	if (!p)
		return NULL;
	nr_live++;
	if (align == SIM_BIG_BYTES) /* advice only: a kernel without it ignores it */
		(void)madvise(p, bytes, MADV_HUGEPAGE);
	if (zero)
		memset(p, 0, size);
	return p;
}

void sim_free(void *ptr)
{
	nr_live -= ptr != NULL;
	free(ptr);
}

char *sim_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = sim_malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

int sim_grow(void **buf, size_t *cap, size_t need, size_t elsize)
{
	size_t ncap = *cap ? *cap : 8;
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if (elsize && ncap > SIZE_MAX / elsize)
		return -1;
	p = sim_realloc(*buf, ncap * elsize);
	if (!p)
		return -1;
	*buf = p;
	*cap = ncap;
	return 0;
}

long sim_alloc_fail_after(long n)
{
	long made = nr_allocs;

	nr_allocs = 0;
	fail_after = n;
	return made;
}

long sim_alloc_live(void)
{
	return nr_live;
}

unsigned long sim_alloc_failures(void)
{
	return nr_failed;
}
