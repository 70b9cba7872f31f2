/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_opt.h - private to sim/cli/: the option layer every command parses with
 * (sim/cli/cli_opt.c).
 *
 * A small re-entrant parser (--name VALUE, --name=VALUE, -o VALUE, flags, short options
 * bundled as with getopt), the checks of number and list values with the messages users
 * see, and the run options that run, report and compare share: the knobs of a struct
 * run_request, written once so the commands accept them alike.
 */
#ifndef IDLESIM_CLI_OPT_H
#define IDLESIM_CLI_OPT_H

#include "sim/base/error.h"
#include "sim/machine/machine.h"
#include "sim/run/compare.h"
#include "sim/run/run.h"
#include "sim/workload/workloads.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct workload;

/* One command's walk over its arguments; errors go to *err, the first one wins. */
struct args {
	int argc;
	char **argv;
	int i;
	const char *cmd;
	struct sim_error *err;
	bool operands_only; /* after "--": everything is an operand, even "-x" */
	size_t pos;	    /* in a cluster of short options (-vj4): at argv[i][pos] */
};

/* Whether the loop over argv goes on: arguments left and no error yet (takes a "--"). */
bool more(struct args *a);
/* Whether argv[a->i] is an operand (a file name, "-" for stdin) rather than an option. */
bool operand(const struct args *a);
/* If argv[a->i] is option `name` (short form `sname`, may be NULL), take it; flags: val NULL. */
bool opt(struct args *a, const char *name, const char *sname, const char **val);
/* An unknown option or argument at argv[a->i]; returns -1. */
int bad_option(struct args *a);
/* An unknown option of a command that runs workload model w: names the model's options. */
int bad_model_option(struct args *a, const struct workload *w);
/* A number option's value (scaled by 10^decimals) in lo..hi into *out, or -1 with an error. */
int num_arg(struct args *a, const char *name, const char *val, int decimals, int64_t lo,
	    int64_t hi, int64_t *out);
/* The value of workload w's parameter k (option `name`) from val: a number, or a word the
 * parameter takes (--placement pinned|sched). Returns 0, or -1 with the error set. */
int wl_param_arg(struct args *a, const struct workload *w, int k, const char *name,
		 const char *val, int64_t *out);
/* The value of the last --workload W (or --workload=W) in argv, or NULL: a workload's
 * options exist only once it is known, so it is found before the walk. */
const char *find_workload_arg(int argc, char **argv);
/*
 * If argv[a->i] is --NAME or --NAME=V for a parameter of w, take it: returns the parameter's
 * index, with "--NAME" in name and its value in *val (NULL when it has none: the error is
 * set); -1 when it is not one of w's (nothing taken).
 */
#define WL_OPT_NAME 64
int wl_param_take(struct args *a, const struct workload *w, char name[WL_OPT_NAME],
		  const char **val);
/* A comma-separated value appended to list[*n] (at most RUN_MAX_ITEMS), split in place. */
int list_add(struct args *a, const char **list, int *n, const char *val, const char *name);
/* A --set FAMILY.NAME=VALUE (option `name`: --set, --set-a, ...) appended to sets[*nr]. */
int set_arg(struct args *a, const char *name, const char *val, struct run_set *sets, int *nr);
/* --wake-latency worst|typical|measured */
int parse_wake_model(struct args *a, const char *val, enum wake_model *out);
/*
 * --housekeeping's comma-separated preset names into names[0..*nr) (their existence is
 * checked against the workload where it is known: compare_run()). 0, or -1 with the error.
 */
int housekeeping_names(struct args *a, const char *v, char (*names)[COMPARE_WORLD_LEN], int *nr);
/* --governor-timeout's SECONDS into *timeout_ns (run_request.gov_timeout_ns), else an error. */
void governor_timeout_arg(struct args *a, const char *v, int64_t *timeout_ns);
/*
 * The run knobs of `req` (--hz, --latency-limit-us, --disable, --enable, --topology,
 * --wake-latency, --set, --governor-timeout): returns whether argv[a->i] was one of them.
 */
bool run_knob_opt(struct args *a, struct run_request *req);

/*
 * An option given that the chosen format (or the other options) make no use of: an error
 * naming it and what it needs, never silence ("run --per-cpu: the text format's option,
 * not json's"). Sets the error (unless one is set) and returns -1; 0 when `given` is false.
 */
int option_unused(struct args *a, bool given, const char *option, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "idlesim CMD ARG..." into buf, without -o/--output and its value (a report's header). */
void command_line(char *buf, size_t n, int argc, char **argv);
/* Whether stderr is a terminal: progress bars go there, never into a pipe or a report. */
bool isatty_stderr(void);
/* The exit status of a command: prints the error, if any. */
int finish(struct sim_error *err);

#endif
