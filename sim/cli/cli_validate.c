// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_validate.c - idlesim validate: a governor asked at every entry of a kernel trace, its
 * choice against the kernel's (sim/run/validate.h). TRACE may be a directory written by
 * scripts/record.sh: its trace, machine snapshot, governor and kernel release.
 */
#include "sim/cli/cli_int.h"
#include "sim/cli/cli_opt.h"
#include "sim/base/common.h"
#include "sim/base/outfile.h"
#include "sim/report/report.h"
#include "sim/report/validate_report.h"
#include "sim/run/kgov.h"
#include "sim/run/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A recording directory (scripts/record.sh): what it holds, paths into bufs. */
struct recording {
	char trace[4200], snapshot[4200], governor[64];
};

/* The first line of DIR/name into buf ("" if absent). */
static void read_word(const char *dir, const char *name, char *buf, size_t n)
{
	char path[4200];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)n, f))
		buf[strcspn(buf, " \t\r\n")] = '\0';
	fclose(f);
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/*
 * The governor the recording kernel ran: the family in DIR/governor at the newest release
 * idlesim models that is not newer than DIR/release (uname -r); the family's newest when
 * the release is not known or older than every model.
 */
static void recorded_governor(const char *dir, char *out, size_t n)
{
	char fam[32], rel[64];
	int maj = 0, min = 0, best_maj = -1, best_min = -1;
	unsigned int k;

	read_word(dir, "governor", fam, sizeof(fam));
	read_word(dir, "release", rel, sizeof(rel));
	out[0] = '\0';
	if (!fam[0])
		return;
	snprintf(out, n, "%s", fam);
	if (sscanf(rel, "%d.%d", &maj, &min) != 2)
		return;
	for (k = 0; k < gov_count(); k++) {
		const char *name = gov_get(k)->name;
		size_t fl = gov_family_len(name);
		int a, b;

		if (fl != strlen(fam) || strncmp(name, fam, fl) || name[fl] != '@' ||
		    sscanf(name + fl + 1, "%d.%d", &a, &b) != 2)
			continue;
		if ((a < maj || (a == maj && b <= min)) &&
		    (a > best_maj || (a == best_maj && b > best_min))) {
			best_maj = a;
			best_min = b;
			snprintf(out, n, "%s", name);
		}
	}
}

static void recording_dir(const char *dir, struct recording *r)
{
	static const char *const traces[] = { "trace.dat", "trace.txt" };
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < SIM_ARRAY_SIZE(traces) && !r->trace[0]; i++) {
		snprintf(r->trace, sizeof(r->trace), "%s/%s", dir, traces[i]);
		if (!exists(r->trace))
			r->trace[0] = '\0';
	}
	snprintf(r->snapshot, sizeof(r->snapshot), "%s/snapshot.tar.gz", dir);
	if (!exists(r->snapshot))
		r->snapshot[0] = '\0';
	recorded_governor(dir, r->governor, sizeof(r->governor));
}

int cmd_validate(int argc, char **argv)
{
	struct sim_error err = { 0 };
	struct args a = { argc, argv, 1, "validate", &err, false, 0 };
	struct validate_request req;
	struct validate_result res;
	struct recording rec;
	struct outfile out;
	const char *v, *output = NULL, *trace = NULL, *govs[RUN_MAX_ITEMS];
	int nr_govs = 0, nr_machines = 0;
	const char *machines[RUN_MAX_ITEMS];
	bool json = false, keep_given = false;
	struct stat st;
	int64_t n;

	memset(&req, 0, sizeof(req));
	run_request_defaults(&req.run);
	req.run.nr_governors = 0;
	req.keep = VALIDATE_KEEP_DEFAULT;
	while (more(&a)) {
		if (operand(&a)) {
			if (trace)
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "validate: one trace (got '%s' and '%s')", trace,
					      argv[a.i]);
			trace = argv[a.i++];
		} else if (opt(&a, "--governor", "-g", &v))
			list_add(&a, govs, &nr_govs, v, "--governor");
		else if (opt(&a, "--machine", "-m", &v))
			list_add(&a, machines, &nr_machines, v, "--machine");
		else if (run_knob_opt(&a, &req.run))
			continue;
		else if (opt(&a, "--disagreements", NULL, &v)) {
			if (!num_arg(&a, "--disagreements", v, 0, 0, 100000, &n))
				req.keep = (long)n;
			keep_given = true;
		} else if (opt(&a, "--format", "-f", &v)) {
			if (v && !strcmp(v, "json"))
				json = true;
			else if (v && strcmp(v, "text"))
				sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
					      "validate --format: '%s' is not text or json", v);
		} else if (opt(&a, "--output", "-o", &v))
			output = v;
		else
			bad_option(&a);
	}
	(void)keep_given;
	if (err.code == SIM_OK && !trace)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "validate: give a kernel trace (or a directory of scripts/record.sh)");
	if (err.code == SIM_OK && (nr_govs > 1 || nr_machines > 1))
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "validate: one --governor and one --machine (diff compares governors)");
	memset(&rec, 0, sizeof(rec));
	if (err.code == SIM_OK && !stat(trace, &st) && S_ISDIR(st.st_mode)) {
		recording_dir(trace, &rec);
		if (!rec.trace[0])
			sim_error_set(&err, SIM_ERR_INPUT, trace, 0, 0,
				      "a recording directory holds trace.dat or trace.txt: neither "
				      "is here (scripts/record.sh writes them)");
	}
	req.trace = rec.trace[0] ? rec.trace : trace;
	req.machine = nr_machines ? machines[0] : rec.snapshot[0] ? rec.snapshot : NULL;
	req.governor = nr_govs ? govs[0] : rec.governor[0] ? rec.governor : NULL;
	if (err.code == SIM_OK && !req.machine)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "validate: give the recording machine (--machine NAME, FILE.json or "
			      "a sysfs snapshot): its table numbers the trace's states");
	if (err.code == SIM_OK && !req.governor)
		sim_error_set(&err, SIM_ERR_INPUT, "", 0, 0,
			      "validate: give the governor the recording kernel ran (--governor "
			      "menu@6.12, or a kernel file)");
	if (err.code != SIM_OK || kgov_resolve(&req.governor, 1, stderr, &err))
		return finish(&err);
	if (validate_run(&req, &res, &err))
		return finish(&err);
	if (!outfile_open(&out, output, &err)) {
		int w = validate_report_write(out.f, &res, json);

		if (w == REPORT_ERR_NOMEM)
			sim_error_nomem(&err, "");
		if (w)
			outfile_fail(&out, &err);
		else
			outfile_commit(&out, &err);
	}
	validate_result_free(&res);
	return finish(&err);
}
