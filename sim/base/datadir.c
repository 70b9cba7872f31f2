// SPDX-License-Identifier: GPL-2.0-only
/*
 * datadir.c - find idlesim's data relative to the binary (sim/base/datadir.h).
 *
 * Nothing is cached: the lookup costs a readlink and a few access() calls, and callers ask
 * once per command (no global state).
 */
#include "sim/base/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* From bindir to datadir/idlesim in an install (CMakeLists.txt computes it from the
 * GNUInstallDirs layout). */
#ifndef IDLESIM_BIN_TO_DATA
#define IDLESIM_BIN_TO_DATA "../share/idlesim"
#endif

/* Whether dir looks like a data directory: it has the demo trace. */
static int is_data_dir(const char *dir)
{
	char marker[PATH_MAX + 32];

	snprintf(marker, sizeof(marker), "%s/traces/demo.trace", dir);
	return access(marker, R_OK) == 0;
}

/* dir joined with rel, each leading "../" of rel taking off a component of dir (so
 * messages name /opt/x/share/idlesim, not /opt/x/bin/../share/idlesim). */
static void join(char *buf, size_t n, const char *dir, const char *rel)
{
	size_t len = strlen(dir);

	while (!strncmp(rel, "../", 3)) {
		while (len > 1 && dir[len - 1] != '/')
			len--;
		if (len > 1)
			len--; /* the slash, unless it is the root's */
		rel += 3;
	}
	snprintf(buf, n, "%.*s%s%s", (int)len, dir, len && dir[len - 1] == '/' ? "" : "/", rel);
}

int datadir_find(char *buf, size_t n)
{
	static const char *const rel[] = { IDLESIM_BIN_TO_DATA, "idlesim-data", "../idlesim-data" };
	const char *env = getenv("IDLESIM_DATA_DIR");
	char exe[PATH_MAX], cand[PATH_MAX + 32];
	ssize_t len;
	char *slash;
	size_t i;

	buf[0] = '\0';
	if (env && *env) {
		snprintf(buf, n, "%s", env);
		return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	slash[slash == exe] = '\0'; /* the directory; "/" for a binary in the root */
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		join(cand, sizeof(cand), exe, rel[i]);
		if (is_data_dir(cand)) {
			snprintf(buf, n, "%s", cand);
			return 0;
		}
	}
	return -1;
}

const char *datadir_path(char *buf, size_t n, const char *rel)
{
	char dir[PATH_MAX];

	if (datadir_find(dir, sizeof(dir)))
		snprintf(buf, n, "%s", rel);
	else
		snprintf(buf, n, "%s/%s", dir, rel);
	return buf;
}
