/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpulist.h - CPU lists as the kernel prints and taskset -c takes them: "0-3,8,10-11"
 * (lib/bitmap.c bitmap_parselist(), without the ":used/group" strides).
 */
#ifndef IDLESIM_BASE_CPULIST_H
#define IDLESIM_BASE_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

/* The highest CPU number + 1 a list may name. */
#define CPULIST_MAX 8192

/*
 * Parse `s` into mask[0..CPULIST_MAX-1] (cleared first). Returns the highest CPU named + 1,
 * or -1 with a message in why[n] (an empty list, a character that is not a digit, comma
 * or dash, with its 1-based column; a range that runs backwards; a CPU >= CPULIST_MAX).
 */
int cpulist_parse(const char *s, bool *mask, char *why, size_t n);

#endif
