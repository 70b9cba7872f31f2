// SPDX-License-Identifier: GPL-2.0-only
/*
 * Includes a header the compatibility layer does not have: tests/test_kgov.c checks that
 * the user sees the compiler's message about it, and not the preprocessed text.
 */
#include <linux/cpuidle.h>
#include <linux/no_such_header.h>

static int missing_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	return 0;
}
