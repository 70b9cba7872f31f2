/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * datadir.h - where idlesim's data is: the demo trace, the scenarios, the expectation
 * example (traces/) and the kernel-compatibility layer for --governor PATH.c (kcompat/).
 *
 * Found relative to the running binary (/proc/self/exe), never through a path compiled
 * into it, so an installed tree can be moved: see datadir_find() for the order.
 */
#ifndef IDLESIM_DATADIR_H
#define IDLESIM_DATADIR_H

#include <stddef.h>

/*
 * The data directory into buf, tried in this order:
 *   1. $IDLESIM_DATA_DIR, if set and not empty (taken as given);
 *   2. BINDIR/../share/idlesim, an installed tree (bin/idlesim, share/idlesim/; the
 *      relative path follows the install layout);
 *   3. BINDIR/idlesim-data, a build tree (CMake makes it next to the idlesim binary);
 *   4. BINDIR/../idlesim-data, a build tree's tests/ or other subdirectory.
 * A candidate counts when it holds traces/demo.trace. Returns 0, or -1 when none does
 * (buf then holds "", and callers fall back to paths relative to the current directory).
 */
int datadir_find(char *buf, size_t n);

/*
 * The data file `rel` (e.g. "traces/demo.trace") into buf: under the data directory when
 * there is one, else `rel` itself (relative to the current directory). Returns buf.
 */
const char *datadir_path(char *buf, size_t n, const char *rel);

#endif
