/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * validate_report.h - the result of `idlesim validate` (sim/run/validate.h) as text (160
 * columns) or JSON (schema idlesim-validate/1, docs/diff.md).
 */
#ifndef IDLESIM_VALIDATE_REPORT_H
#define IDLESIM_VALIDATE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/run/validate.h"

#define VALIDATE_JSON_SCHEMA "idlesim-validate/1"

/* 0, or REPORT_ERR_IO / REPORT_ERR_NOMEM (sim/report/report.h). */
int validate_report_write(FILE *f, const struct validate_result *r, bool json);

#endif
