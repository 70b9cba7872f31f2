/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * alloc.h - the one road every allocation of idlesim takes.
 *
 * sim_malloc() and friends behave like their libc namesakes. Tests can make the Nth
 * allocation of the calling thread fail (sim_alloc_fail_after), to check that every loader
 * reports an out-of-memory condition cleanly and leaks nothing. The failure switch is
 * thread-local, so concurrent simulations in other threads are not affected.
 */
#ifndef IDLESIM_ALLOC_H
#define IDLESIM_ALLOC_H

#include <stddef.h>

void *sim_malloc(size_t size);
void *sim_calloc(size_t nmemb, size_t size);
void *sim_realloc(void *ptr, size_t size);
void sim_free(void *ptr);
char *sim_strdup(const char *s);

/*
 * A large block of the simulation's per-CPU state (zeroed if zero): from SIM_BIG_BYTES on,
 * aligned to and rounded up to whole 2 MiB pages, and the kernel advised to back it with
 * huge pages (madvise(MADV_HUGEPAGE), where transparent huge pages are on "madvise"): on
 * thousands of CPUs the state spans tens of MB, touched at random, and 4 KiB pages made
 * each touch a TLB miss too (docs/speed.md, "Scale with CPUs"). Smaller blocks are aligned
 * to a cache line (64 bytes), for structures that ask for it. Freed with sim_free().
 */
#define SIM_BIG_BYTES ((size_t)2 << 20)
void *sim_alloc_big(size_t size, int zero);

/* Grow *buf (of *cap elements of elsize bytes) to hold at least need elements.
 * Returns 0, or -1 with *buf unchanged if memory is exhausted or the size overflows. */
int sim_grow(void **buf, size_t *cap, size_t need, size_t elsize);

/*
 * Test hook: after n more successful allocations on this thread, every allocation fails
 * (n < 0 switches failures off, the default). Returns the number of allocations made since
 * the last call, so a test can learn how many a loader needs.
 */
long sim_alloc_fail_after(long n);

/*
 * Test hook: the number of blocks this thread allocated through sim_* (jansson's included,
 * see sim/base/init.c) and has not freed. A loader that leaks nothing leaves it where it found it,
 * on success and on failure. Only meaningful while no block crosses threads.
 */
long sim_alloc_live(void);

/*
 * How many allocations have failed on this thread so far (injected or real). A caller of a
 * library that may turn an allocation failure into some other error (jansson reports a
 * failed string allocation as a syntax error) compares it before and after the call.
 */
unsigned long sim_alloc_failures(void);

#endif
