// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_check.c - idlesim check: the runs of an expectation file (sim/study/check.h) and
 * whether they meet it, as text, JSON, JUnit or TAP; exit status 3 when one does not.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/common.h"
#include "sim/base/outfile.h"
#include "sim/study/check.h"

#include <stdbool.h>
#include <stdio.h>

int cmd_check(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "check", &err, false, 0 };
	struct check_opts o = { 0 };
	struct check_file *cf;
	struct outfile out;
	const char *v, *path = NULL, *output = NULL;
	int64_t n;
	int failed;

	while (more(&a)) {
		if (opt(&a, "--threads", "-j", &v)) {
			if (!num_arg(&a, "--threads", v, 0, 1, 256, &n))
				o.threads = (int)n;
		} else if (opt(&a, "--verbose", "-v", NULL))
			o.verbose = true;
		else if (opt(&a, "--wake-latency", NULL, &v))
			o.wake_set = !parse_wake_model(&a, v, &o.wake_model);
		else if (opt(&a, "--housekeeping", NULL, &v))
			housekeeping_names(&a, v, o.worlds, &o.nr_worlds);
		else if (opt(&a, "--governor-timeout", NULL, &v))
			governor_timeout_arg(&a, v, &o.gov_timeout_ns);
		else if (opt(&a, "--format", "-f", &v)) {
			if (v && check_format_parse(v, &o.format))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "check --format: '%s' is not text, json, junit or tap",
					      v);
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else if (operand(&a) && !path)
			path = argv[a.i++];
		else
			bad_option(&a);
	}
	option_unused(&a, o.verbose && o.format != CHECK_TEXT, "--verbose",
		      "prints each comparison's table in the text report; --format %s has no "
		      "place for it",
		      o.format == CHECK_JSON ? "json" : o.format == CHECK_JUNIT ? "junit" : "tap");
	if (err.code == SIM_OK && !path)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "check: which expectation file? (idlesim check EXPECT.json)");
	if (err.code != SIM_OK)
		return finish(&err);
	cf = check_load(path, NULL, &err);
	if (!cf)
		return finish(&err);
	if (isatty_stderr())
		o.progress = stderr;
	failed = -1;
	if (!outfile_open(&out, output, &err)) {
		o.out = out.f;
		failed = check_run(cf, &o, &err);
		if (failed < 0)
			outfile_fail(&out, &err);
		else if (outfile_commit(&out, &err))
			failed = -1;
	}
	check_free(cf);
	if (failed < 0)
		return finish(&err);
	return failed ? CHECK_EXIT_FAILED : SIM_EXIT_OK;
}
