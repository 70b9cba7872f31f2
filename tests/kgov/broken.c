// SPDX-License-Identifier: GPL-2.0-only
/* Does not compile: tests/test_kgov.c checks that the compiler's message reaches the user. */
#include <linux/cpuidle.h>

static int broken_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	return no_such_variable;
}
