// SPDX-License-Identifier: GPL-2.0-only
/* enable() hits BUG() on CPU 1 (tests/test_kgov.c, isolation). */
#define MB_WHERE MB_ENABLE
#define MB_CPU 1
#define MB_AT 1
#define MB_WHAT MB_BUG
#include "misbehave.h"
