// SPDX-License-Identifier: GPL-2.0-only
/* the initcall stores through NULL (tests/test_kgov.c, isolation). */
#define MB_WHERE MB_INIT
#define MB_CPU 0
#define MB_AT 1
#define MB_WHAT MB_SEGV
#include "misbehave.h"
