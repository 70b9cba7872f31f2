// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - the idlesim executable: everything else is in the library.
 */
#include "sim/cli/cli.h"

int main(int argc, char **argv)
{
	return idlesim_main(argc, argv);
}
