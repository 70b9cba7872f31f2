// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_convert.c - idlesim convert: a native trace from text to the binary form or back
 * (traces/FORMAT.md, "Binary form"); and the binary output of gen and import, which write
 * binary when their output's name ends in .itb.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/outfile.h"
#include "sim/base/spool.h"
#include "sim/trace/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool cli_binary_name(const char *path)
{
	size_t n = path ? strlen(path) : 0, m = strlen(TRACE_BIN_SUFFIX);

	return n > m && !strcmp(path + n - m, TRACE_BIN_SUFFIX);
}

/* An unlinked temporary file in $TMPDIR (else /tmp), open for writing and reading. */
static FILE *temp_file(struct sim_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[512];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/idlesim-text-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot create a temporary file");
		return NULL;
	}
	unlink(path);
	f = fdopen(fd, "w+");
	if (!f) {
		close(fd);
		sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open a temporary file");
	}
	return f;
}

/*
 * The writers of a model's timeline and of an import produce text: they write it to a
 * temporary file, which is then read back and written to out in the binary form. The
 * temporary holds the text trace on disk; memory stays that of the two streams.
 */
int cli_binary_via_text(FILE *out, int (*write_text)(void *ctx, FILE *f, struct sim_error *err),
			void *ctx, struct sim_error *err)
{
	struct record_source src;
	struct trace_reader *r;
	char path[64];
	FILE *tmp = temp_file(err);
	int rc = -1;

	if (!tmp)
		return -1;
	if (write_text(ctx, tmp, err))
		goto out;
	if (fflush(tmp)) {
		sim_error_set(err, SIM_ERR_IO, "<temporary text>", 0, 0, "write error");
		goto out;
	}
	r = trace_open_as(spool_path(fileno(tmp), path, sizeof(path)), "<temporary text>", err);
	if (!r)
		goto out;
	record_source_from_trace(&src, r);
	rc = trace_write_source(&src, out, true, err);
	trace_close(r);
out:
	fclose(tmp);
	return rc;
}

int cmd_convert(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "convert", &err, false, 0 };
	const char *v, *in = NULL, *output = NULL;
	struct record_source src;
	struct trace_reader *r;
	struct outfile out;
	int to = -1; /* -1: the other form than the input's; 0 text; 1 binary */

	while (more(&a)) {
		if (opt(&a, "--to", NULL, &v)) {
			if (v && strcmp(v, "text") && strcmp(v, "binary"))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "convert --to: '%s' is not text or binary", v);
			to = v && !strcmp(v, "binary");
		} else if (operand(&a) && !in)
			in = argv[a.i++];
		else if (operand(&a) && !output)
			output = argv[a.i++];
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && !output)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "convert: which files? (idlesim convert IN OUT [--to text|binary])");
	if (err.code != SIM_OK)
		return finish(&err);
	r = trace_open(in, &err);
	if (!r)
		return finish(&err);
	if (to < 0)
		to = !trace_is_binary(r);
	record_source_from_trace(&src, r);
	if (!outfile_open(&out, output, &err)) {
		if (trace_write_source(&src, out.f, to, &err))
			outfile_fail(&out, &err);
		else
			outfile_commit(&out, &err);
	}
	trace_close(r);
	return finish(&err);
}
