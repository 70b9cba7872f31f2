// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - write to a temporary, then rename.
 */
#include "sim/outfile.h"
#include "sim/alloc.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A destination that is not a regular file (a device such as /dev/null, a FIFO) is
 * written in place: renaming a temporary over it would replace the device. */
static int open_special(struct outfile *o, const char *path, struct sim_error *err)
{
	o->f = fopen(path, "w");
	if (!o->f)
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open output file: %s",
				     strerror(errno));
	o->special = true;
	return 0;
}

int outfile_open(struct outfile *o, const char *path, struct sim_error *err)
{
	struct stat st;
	size_t n;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return open_special(o, path, err);
	n = strlen(path);
	o->path = sim_strdup(path);
	o->tmp = sim_malloc(n + sizeof(".tmp.XXXXXX"));
	if (!o->path || !o->tmp) {
		outfile_abort(o);
		return sim_error_nomem(err, path);
	}
	memcpy(o->tmp, path, n);
	memcpy(o->tmp + n, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;

		sim_free(o->tmp);
		o->tmp = NULL;
		outfile_abort(o);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot create output file: %s",
				     strerror(e));
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		outfile_abort(o);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open output file");
	}
	return 0;
}

int outfile_commit(struct outfile *o, struct sim_error *err)
{
	int rc = 0;

	if (o->special) {
		if (fflush(o->f) || ferror(o->f))
			rc = sim_error_set(err, SIM_ERR_IO, "", 0, 0, "write error: %s",
					   strerror(errno));
		fclose(o->f);
		memset(o, 0, sizeof(*o));
		return rc;
	}

	if (!o->path) {
		if (fflush(stdout) || ferror(stdout))
			rc = sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
		memset(o, 0, sizeof(*o));
		return rc;
	}
	if (fflush(o->f) || ferror(o->f)) {
		rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "write error: %s", strerror(errno));
	}
	if (fclose(o->f) && !rc)
		rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "write error: %s", strerror(errno));
	o->f = NULL;
	if (!rc && rename(o->tmp, o->path))
		rc = sim_error_set(err, SIM_ERR_IO, o->path, 0, 0, "cannot rename %s: %s", o->tmp,
				   strerror(errno));
	if (rc)
		unlink(o->tmp);
	sim_free(o->tmp);
	sim_free(o->path);
	memset(o, 0, sizeof(*o));
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->special) {
		memset(o, 0, sizeof(*o));
		return;
	}
	if (o->tmp) {
		unlink(o->tmp);
		sim_free(o->tmp);
	}
	sim_free(o->path);
	memset(o, 0, sizeof(*o));
}
