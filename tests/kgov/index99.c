// SPDX-License-Identifier: GPL-2.0-only
/* select() returns 99 on CPU 0's first decision (tests/test_kgov.c, isolation). */
#define MB_WHERE MB_SELECT
#define MB_CPU 0
#define MB_AT 1
#define MB_WHAT MB_INDEX
#include "misbehave.h"
