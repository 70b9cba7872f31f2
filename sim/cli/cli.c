// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - idlesim_main(): the command table, --version, and help.
 *
 * Subcommands come from one table, as in perf and cpupower; each is a file of its own
 * (sim/cli/cli_int.h lists them) and parses its own options with the small re-entrant
 * parser of sim/cli/cli_opt.c, so tests can call idlesim_main() many times in one process.
 * The CLI only parses and calls functions that tests call too (run_grid, report_write,
 * gen_write, machine_*).
 */
#include "sim/cli/cli.h"
#include "sim/cli/cli_help.h"
#include "sim/cli/cli_int.h"
#include "sim/base/common.h"
#include "sim/base/init.h"
#include "sim/base/version.h"

#include <stdio.h>
#include <string.h>

static int cmd_help(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : NULL;

	if (cli_help(stdout, c)) {
		fprintf(stderr, "idlesim: no help for '%s'\n", c);
		return SIM_EXIT_INPUT;
	}
	return 0;
}

struct command {
	const char *name;
	int (*main)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "run", cmd_run },
	{ "gen", cmd_gen },
	{ "import", cmd_import },
	{ "convert", cmd_convert },
	{ "report", cmd_report },
	{ "machines", cmd_machines },
	{ "governors", cmd_governors },
	{ "compare", cmd_compare },
	{ "diff", cmd_diff },
	{ "validate", cmd_validate },
	{ "check", cmd_check },
	{ "sweep", cmd_sweep },
	{ "help", cmd_help },
};

int idlesim_main(int argc, char **argv)
{
	size_t i;

	idlesim_init();
	if (argc < 2) {
		cli_usage(stderr);
		return SIM_EXIT_INPUT;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("idlesim %s\n", IDLESIM_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage(stdout);
		return 0;
	}
	for (i = 0; i < SIM_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			char *h[2] = { argv[0], argv[1] };

			return cmd_help(2, h);
		}
		return commands[i].main(argc - 1, argv + 1);
	}
	fprintf(stderr, "idlesim: unknown command '%s' (see idlesim help)\n", argv[1]);
	return SIM_EXIT_INPUT;
}
