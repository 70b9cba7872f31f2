// SPDX-License-Identifier: GPL-2.0-only
/* select() stores through NULL on CPU 1's third decision (tests/test_kgov.c, isolation). */
#define MB_WHERE MB_SELECT
#define MB_CPU 1
#define MB_AT 3
#define MB_WHAT MB_SEGV
#include "misbehave.h"
