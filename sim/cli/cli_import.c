// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_import.c - idlesim import: a kernel trace (ftrace, trace-cmd, perf, systrace,
 * trace.dat) converted to a native trace (sim/import/import.h), its summary and warnings.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/outfile.h"
#include "sim/import/import.h"
#include "sim/machine/machine.h"
#include "sim/run/run.h"
#include "sim/trace/trace.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int convert_text(void *im, FILE *f, struct sim_error *err)
{
	return import_convert(im, f, err);
}

/*
 * The converted trace to `output` (binary when its name ends in .itb: cli_binary_name()) (atomically through a temporary for a regular file; a
 * device such as /dev/null is written directly, never renamed over), the summary to stdout
 * (stderr when the trace goes to stdout).
 */
static int import_output(struct importer *im, const char *output, bool json, struct sim_error *err)
{
	struct outfile out = { 0 };
	FILE *summary = stdout, *dev = NULL, *dst;
	struct stat sb;

	if (output && !strcmp(output, "-")) {
		summary = stderr; /* the converted trace takes standard output */
	} else if (output && stat(output, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		dev = fopen(output, "w");
		if (!dev)
			return sim_error_set(err, SIM_ERR_IO, output, 0, 0,
					     "cannot open for writing: %s", strerror(errno));
	} else if (output && outfile_open(&out, output, err)) {
		return -1;
	}
	dst = !output ? NULL : dev ? dev : out.f ? out.f : stdout;
	if (dst && cli_binary_name(output) ? cli_binary_via_text(dst, convert_text, im, err)
					   : import_convert(im, dst, err)) {
		if (out.path)
			return outfile_fail(&out, err);
		if (dev && err->code == SIM_ERR_IO) {
			fflush(dev); /* sets errno again if the device still fails */
			sim_error_clear(err);
			sim_error_set(err, SIM_ERR_IO, output, 0, 0, "write error: %s",
				      strerror(errno));
		}
		if (dev)
			fclose(dev);
		return -1;
	}
	if (dev ? fclose(dev) != 0
		: output && (out.path ? outfile_commit(&out, err) : fflush(stdout) ? -1 : 0)) {
		sim_error_set(err, SIM_ERR_IO, output, 0, 0, "write error: %s", strerror(errno));
		return -1;
	}
	if (import_write_summary(summary, im, json) || fflush(summary))
		return sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "import", &err, false, 0 };
	struct import_options io = { 0 };
	struct run_request req;
	struct importer *im;
	struct machine m;
	const char *v, *trace = NULL, *output = NULL, *machine = NULL;
	char cmd[512];
	bool json = false;
	int64_t n;

	run_request_defaults(&req);
	command_line(cmd, sizeof(cmd), argc, argv);
	while (more(&a)) {
		if (opt(&a, "--machine", "-m", &v))
			machine = v;
		else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (opt(&a, "--format", "-f", &v)) {
			if (v && (strcmp(v, "text") && strcmp(v, "json")))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "import --format: '%s' is not text or json", v);
			json = v && !strcmp(v, "json");
		} else if (opt(&a, "--input-format", NULL, &v)) {
			if (v && import_format_parse(v, &io.format))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "import --input-format: '%s' is not one of auto, "
					      "ftrace, trace-cmd, perf, systrace, trace-dat",
					      v);
		} else if (opt(&a, "--skip-bad-lines", NULL, NULL))
			io.skip_bad_lines = true;
		else if (opt(&a, "--hz", NULL, &v)) {
			if (!num_arg(&a, "--hz", v, 0, 1, 10000, &n))
				io.hz = (int)n;
		} else if (opt(&a, "--jobs", "-j", &v)) {
			if (!num_arg(&a, "--jobs", v, 0, 1, 64, &n))
				io.jobs = (int)n;
		} else if (opt(&a, "--cpus", NULL, &v)) {
			if (!num_arg(&a, "--cpus", v, 0, 1, TRACE_MAX_CPUS, &n))
				io.cpus = (int)n;
		} else if (opt(&a, "--disable", NULL, &v))
			list_add(&a, req.disable, &req.nr_disable, v, "--disable");
		else if (opt(&a, "--enable", NULL, &v))
			list_add(&a, req.enable, &req.nr_enable, v, "--enable");
		else if (operand(&a) && !trace)
			trace = argv[a.i++];
		else
			bad_option(&a);
	}
	if (err.code == SIM_OK && !trace)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "import: which trace? (idlesim import TRACE [-o OUT.trace])");
	if (err.code == SIM_OK && !machine && (req.nr_disable || req.nr_enable))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "import --disable/--enable need --machine");
	if (err.code == SIM_OK && machine && !strcmp(machine, "-") && !strcmp(trace, "-"))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "import - and --machine - both read standard input; give one of "
			      "them as a file");
	if (err.code == SIM_OK && machine &&
	    !run_load_machine(&req, machine, &m, &err) &&
	    !run_disabled_mask(&req, &m, &io.disabled, &err))
		io.machine = &m;
	if (err.code != SIM_OK)
		return finish(&err);
	io.command = cmd;
	im = import_open_convert(trace, &io, &err);
	if (im) {
		import_output(im, output, json, &err);
		for (n = 0; import_warning(im, (int)n); n++)
			fprintf(stderr, "idlesim: warning: %s (skipped)\n",
				import_warning(im, (int)n));
		if (import_bad_lines(im) > (unsigned long long)n)
			fprintf(stderr,
				"idlesim: warning: ... and %llu more malformed lines skipped\n",
				import_bad_lines(im) - (unsigned long long)n);
		import_close(im);
	}
	return finish(&err);
}
