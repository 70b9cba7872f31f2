/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_set.h - one --set FAMILY.NAME=VALUE option: a governor tunable given on the command
 * line (or by a sweep point, or an expectation file). Apart from run.h so that the
 * configuration record (sim/run/cfgrec.h), which run.c uses, can name it without run.h.
 */
#ifndef IDLESIM_RUN_SET_H
#define IDLESIM_RUN_SET_H

#define RUN_MAX_SETS 32

/* --set FAMILY.NAME=VALUE */
struct run_set {
	char family[32];
	char name[64];
	long long value;
};

#endif
