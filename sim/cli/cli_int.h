/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_int.h - private to sim/cli/: the commands that sim/cli/cli.c's table dispatches to.
 *
 * One file per command, each parsing its options with sim/cli/cli_opt.h:
 *   sim/cli/cli_run.c       run, report (replays through run_grid);
 *   sim/cli/cli_gen.c       gen;
 *   sim/cli/cli_import.c    import;
 *   sim/cli/cli_convert.c   convert, and the binary output of gen and import;
 *   sim/cli/cli_machines.c  machines, machines calibrate;
 *   sim/cli/cli_governors.c governors;
 *   sim/cli/cli_compare.c   compare;
 *   sim/cli/cli_diff.c      diff;
 *   sim/cli/cli_validate.c  validate;
 *   sim/cli/cli_check.c     check;
 *   sim/cli/cli_sweep.c     sweep, sweep merge, sweep summary.
 * Each takes the command's arguments (argv[0] is the command's name) and returns the exit
 * status.
 */
#ifndef IDLESIM_CLI_INT_H
#define IDLESIM_CLI_INT_H

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_machines(int argc, char **argv);
int cmd_governors(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_convert(int argc, char **argv);

#include <stdbool.h>
#include <stdio.h>

#include "sim/base/error.h"

/* gen and import write the binary trace form when their output's name ends in .itb. */
bool cli_binary_name(const char *path);
/* What write_text writes (a text trace), written to out in the binary form, through an
 * unlinked temporary file. 0, or -1 with err set. */
int cli_binary_via_text(FILE *out, int (*write_text)(void *ctx, FILE *f, struct sim_error *err),
			void *ctx, struct sim_error *err);

#endif
