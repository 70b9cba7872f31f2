/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_help.h - the command line's help texts (sim/cli/cli_help.c), apart from the parsing.
 */
#ifndef IDLESIM_CLI_HELP_H
#define IDLESIM_CLI_HELP_H

#include <stdio.h>

/* The list of commands, as `idlesim help` prints it. */
void cli_usage(FILE *f);

/* The help of command cmd (NULL: the list of commands) on f; -1 if there is no such command. */
int cli_help(FILE *f, const char *cmd);

#endif
