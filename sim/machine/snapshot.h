/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snapshot.h - a machine from a sysfs snapshot: a copy of a running machine's
 * /sys/devices/system/cpu (and the cpuidle modules' parameters and the hybrid PMU CPU lists),
 * as a directory, a .tar or a .tar.gz (docs/machines.md, "Your own machine"; made by
 * scripts/snapshot.sh).
 *
 * sim/machine/snap_read.c reads the snapshot (a directory, or an archive through libarchive,
 * with its members checked: no absolute or ".." names, no link out of it, no member over
 * member_max_bytes, at most max_members); sim/machine/snap_build.c makes the machine: the
 * topology from cpuN/topology, the table from cpuN/cpuidle/stateK (every CPU's compared), and
 * the values sysfs does not give (powers, wake latencies) from the closest built-in of the
 * same driver, recorded in machine.assumed.
 */
#ifndef IDLESIM_MACHINE_SNAPSHOT_H
#define IDLESIM_MACHINE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/base/error.h"
#include "sim/machine/machine.h"

/* sysfs files are a line or two: 64 KiB is far beyond any of them. */
#define SNAPSHOT_MEMBER_MAX_BYTES (64 * 1024)
/* A 4096-CPU machine with 10 states has about 4096 x 80 files and directories. */
#define SNAPSHOT_MAX_MEMBERS (512 * 1024)

struct snapshot_limits {
	size_t member_max_bytes;
	size_t max_members;
};

/* A directory, or a name ending in .tar, .tar.gz or .tgz. */
bool machine_is_snapshot_path(const char *path);

/*
 * Load the machine of a snapshot. `name` names it (NULL: the snapshot's file name without
 * .tar/.tar.gz/.tgz, with "-snapshot" added when that is a built-in's name); `note` gets
 * what the import found worth saying (NULL: nothing). Returns 0, or -1 with err set to the
 * path inside the snapshot (line and column where the content is at fault).
 */
int machine_load_snapshot(const char *path, const char *name, struct machine *m, FILE *note,
			  struct sim_error *err);
/* The same with limits other than the defaults (tests). */
int machine_load_snapshot_limits(const char *path, const char *name, struct machine *m,
				 FILE *note, const struct snapshot_limits *lim,
				 struct sim_error *err);

#endif
