/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - the command line: parse arguments, call the library, map errors to exit
 * statuses (0 ok, 1 internal failure, 2 usage or input error).
 */
#ifndef IDLESIM_CLI_H
#define IDLESIM_CLI_H

/* Run `idlesim argv[1] ...`; returns the exit status. Re-entrant (no getopt state). */
int idlesim_main(int argc, char **argv);

#endif
