/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outfile.h - output files that appear whole or not at all.
 *
 * outfile_open() creates a temporary file next to the destination ("PATH.tmp.XXXXXX");
 * outfile_commit() flushes it and renames it over the destination; outfile_abort() removes
 * it. A run that fails half-way therefore never leaves a half-written file behind. The
 * path "-" (or NULL) means standard output, which is used directly; so is an existing
 * destination that is not a regular file (/dev/null, a FIFO), which a rename would replace.
 * A destination that is a symbolic link is written through: the file at the end of its
 * chain is replaced (its temporary beside it) and the link stays; a link to nothing is
 * refused, as cp refuses one. An empty path is refused.
 *
 * SIGINT, SIGTERM and SIGHUP while a temporary exists remove it, then terminate the process
 * by the same signal (its default action), so the exit status is the conventional one.
 */
#ifndef IDLESIM_OUTFILE_H
#define IDLESIM_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/base/error.h"

struct outfile {
	FILE *f;
	char *path; /* destination, NULL for stdout */
	char *tmp;  /* temporary, NULL for stdout */
	bool special; /* written in place: not a regular file */
	int slot;     /* tmp's slot in the signal handler's list, plus 1; 0 for none */
};

int outfile_open(struct outfile *o, const char *path, struct sim_error *err);
int outfile_commit(struct outfile *o, struct sim_error *err);
void outfile_abort(struct outfile *o);
/*
 * A writer failed on o->f. An I/O error (err unset, or of class SIM_ERR_IO) becomes
 * "DEST: write error: REASON", with the reason from errno (the stream is flushed once more
 * to learn it); any other error is kept. The temporary is removed. Returns -1.
 */
int outfile_fail(struct outfile *o, struct sim_error *err);

#endif
