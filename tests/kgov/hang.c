// SPDX-License-Identifier: GPL-2.0-only
/* select() never returns on CPU 0's second decision (tests/test_kgov.c, isolation). */
#define MB_WHERE MB_SELECT
#define MB_CPU 0
#define MB_AT 2
#define MB_WHAT MB_LOOP
#include "misbehave.h"
