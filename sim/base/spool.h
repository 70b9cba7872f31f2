/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spool.h - standard input as a file that can be read more than once.
 *
 * Standard input is not seekable, but several readers need their input more than once: the
 * importer's two passes, libtracecmd (which wants a file), and `run --trace -`, which
 * replays the trace for every governor. spool_stdin() copies it to an unlinked temporary
 * file (in $TMPDIR, else /tmp), rewound; spool_path() names that file as /proc/self/fd/N,
 * which open() reopens with an offset of its own.
 */
#ifndef IDLESIM_SPOOL_H
#define IDLESIM_SPOOL_H

#include <stddef.h>

#include "sim/base/error.h"

/* The copy's file descriptor (the caller closes it), or -1 with err set. */
int spool_stdin(struct sim_error *err);

/* "/proc/self/fd/FD" in buf. */
const char *spool_path(int fd, char *buf, size_t size);

#endif
