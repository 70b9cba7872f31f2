// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_governors.c - idlesim governors: the registered governors, their ratings and
 * summaries, and the tunables each takes with --set.
 */
#include "sim/cli/cli_int.h"
#include "sim/base/common.h"
#include "governors/governor.h"

#include <stdio.h>
#include <string.h>

int cmd_governors(int argc, char **argv)
{
	unsigned int i, k;
	int w = 12; /* the name column fits the longest name (haltpoll@6.12: 13) */

	if (argc > 1) {
		fprintf(stderr, "idlesim: governors takes no arguments\n");
		return SIM_EXIT_INPUT;
	}
	(void)argv;
	for (i = 0; i < gov_count(); i++)
		if ((int)strlen(gov_get(i)->name) > w)
			w = (int)strlen(gov_get(i)->name);
	printf("%-*s %6s  %s\n", w, "name", "rating", "summary");
	for (i = 0; i < gov_count(); i++) {
		const struct cpuidle_governor *g = gov_get(i);

		printf("%-*s %6u  %s\n", w, g->name, g->rating, g->summary);
		for (k = 0; k < g->nr_params; k++)
			printf("%-*s %6s    --set %.*s.%s=%lld  (%s)\n", w, "", "",
			       (int)gov_family_len(g->name), g->name, g->params[k].name,
			       g->params[k].def, g->params[k].help);
	}
	return 0;
}
