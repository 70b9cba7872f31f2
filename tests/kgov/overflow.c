// SPDX-License-Identifier: GPL-2.0-only
/* select() recurses without end on CPU 0's first decision (tests/test_kgov.c, isolation). */
#define MB_WHERE MB_SELECT
#define MB_CPU 0
#define MB_AT 1
#define MB_WHAT MB_RECURSE
#include "misbehave.h"
