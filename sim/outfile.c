// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - write to a temporary, then rename.
 */
#include "sim/outfile.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int outfile_open(struct outfile *o, const char *path, struct sim_error *err)
{
	size_t n;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
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
	if (o->tmp) {
		unlink(o->tmp);
		sim_free(o->tmp);
	}
	sim_free(o->path);
	memset(o, 0, sizeof(*o));
}
