/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snap_int.h - private to the snapshot loader (sim/machine/snap_read.c, snap_build.c): a
 * snapshot opened for reading, its files named by their logical paths.
 *
 * A logical path is the file's path on the machine, without the leading slash:
 * "sys/devices/system/cpu/cpu3/cpuidle/state2/latency", "sys/module/haltpoll/parameters/...",
 * "sys/devices/cpu_core/cpus". snap_read.c maps it to the directory or the archive member
 * that holds it (the layouts docs/machines.md describes).
 */
#ifndef IDLESIM_MACHINE_SNAP_INT_H
#define IDLESIM_MACHINE_SNAP_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/base/error.h"
#include "sim/machine/snapshot.h"

#define SNAP_CPU_DIR "sys/devices/system/cpu"
#define SNAP_PATH_LEN 256

struct snap;

/* Open a directory or an archive (read whole, every member checked). */
int snap_open(struct snap **out, const char *path, const struct snapshot_limits *lim,
	      struct sim_error *err);
void snap_close(struct snap *s);

/* Is there a file or a directory at the logical path? */
bool snap_has(const struct snap *s, const char *logical);

/*
 * The content of a file, NUL-terminated, in *text (valid until the next read). Returns 0;
 * 1 when the file is absent and not required; -1 with err set (absent and required,
 * unreadable, over the size limit, a link out of the snapshot).
 */
int snap_read(struct snap *s, const char *logical, bool required, const char **text,
	      struct sim_error *err);

/* How messages name a logical path: the directory's path or ARCHIVE/MEMBER. */
const char *snap_where(const struct snap *s, const char *logical, char *buf, size_t n);

#endif
