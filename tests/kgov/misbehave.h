/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * misbehave.h - a governor that goes wrong on purpose, for the isolation tests of
 * tests/test_kgov.c (written for them against the kernel's interfaces; no kernel code).
 *
 * It picks state 0 and keeps the tick. Each misbehave file defines MB_WHERE (which call
 * goes wrong: MB_SELECT, MB_REFLECT, MB_ENABLE or MB_INIT), MB_CPU and MB_AT (on that CPU,
 * that call, counted from 1; enable and the initcall go wrong at once) and MB_WHAT (how),
 * then includes this file.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <stdlib.h>

#define MB_SELECT 1
#define MB_REFLECT 2
#define MB_ENABLE 3
#define MB_INIT 4

#define MB_SEGV 1	/* a store through a NULL pointer */
#define MB_ABORT 2	/* abort() */
#define MB_FPE 3	/* an integer division by zero */
#define MB_BUG 4	/* BUG(): a trap instruction */
#define MB_LOOP 5	/* a loop that never ends */
#define MB_RECURSE 6	/* a recursion that never ends: the stack overflows */
#define MB_INDEX 7	/* select() returns 99 */

struct mb_cpu {
	unsigned long selects, reflects;
};

static DEFINE_PER_CPU(struct mb_cpu, mb_cpus);

/* Read through volatiles, so the compiler cannot see what happens and fold it away. */
static int *volatile mb_null;
static volatile int mb_zero, mb_seven = 7;
static volatile unsigned long mb_spin;

static int mb_recurse(int depth)
{
	volatile char pad[512];

	pad[0] = (char)depth;
	return mb_recurse(depth + 1) + pad[0];
}

static int mb_go_wrong(void)
{
	switch (MB_WHAT) {
	case MB_SEGV:
		*mb_null = 1;
		break;
	case MB_ABORT:
		abort();
	case MB_FPE:
		mb_spin = (unsigned long)(mb_seven / mb_zero); /* 1 / x compiles to no division */
		break;
	case MB_BUG:
		BUG();
	case MB_LOOP:
		for (;;)
			mb_spin++;
	case MB_RECURSE:
		return mb_recurse(0);
	case MB_INDEX:
		return 99;
	}
	return 0;
}

static int mb_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct mb_cpu *c = this_cpu_ptr(&mb_cpus);

	*stop_tick = false;
	if (MB_WHERE == MB_SELECT && dev->cpu == MB_CPU && ++c->selects == MB_AT)
		return mb_go_wrong();
	return 0;
}

static void mb_reflect(struct cpuidle_device *dev, int index)
{
	struct mb_cpu *c = this_cpu_ptr(&mb_cpus);

	if (MB_WHERE == MB_REFLECT && dev->cpu == MB_CPU && ++c->reflects == MB_AT)
		mb_go_wrong();
}

static int mb_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	if (MB_WHERE == MB_ENABLE && dev->cpu == MB_CPU)
		mb_go_wrong();
	return 0;
}

static struct cpuidle_governor mb_governor = {
	.name = "misbehave",
	.rating = 1,
	.enable = mb_enable,
	.select = mb_select,
	.reflect = mb_reflect,
};

static int __init mb_init(void)
{
	if (MB_WHERE == MB_INIT)
		mb_go_wrong();
	return cpuidle_register_governor(&mb_governor);
}

postcore_initcall(mb_init);
