// SPDX-License-Identifier: GPL-2.0-only
/*
 * spool.c - standard input copied to an unlinked temporary file (see spool.h).
 */
#include "sim/base/spool.h"
#include "sim/base/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPOOL_CHUNK (1024 * 1024)

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int spool_stdin(struct sim_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[512], *buf;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/idlesim-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return sim_error_set(err, SIM_ERR_IO, "<stdin>", 0, 0,
				     "cannot create a temporary file");
	unlink(path);
	buf = sim_malloc(SPOOL_CHUNK);
	if (!buf) {
		close(fd);
		return sim_error_nomem(err, "<stdin>");
	}
	while ((n = read(STDIN_FILENO, buf, SPOOL_CHUNK)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write_all(fd, buf, (size_t)n)) {
			sim_free(buf);
			close(fd);
			return sim_error_set(err, SIM_ERR_IO, "<stdin>", 0, 0,
					     "cannot copy standard input: %s", strerror(errno));
		}
	}
	sim_free(buf);
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return sim_error_set(err, SIM_ERR_IO, "<stdin>", 0, 0, "cannot rewind");
	}
	return fd;
}

const char *spool_path(int fd, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
	return buf;
}
