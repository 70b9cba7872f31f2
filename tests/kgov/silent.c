// SPDX-License-Identifier: GPL-2.0-only
/* Compiles, but registers no governor: loading it must fail with a clear message. */
#include <linux/cpuidle.h>

int silent_unused(void);
int silent_unused(void)
{
	return 0;
}
