// SPDX-License-Identifier: GPL-2.0-only
/*
 * toy_util.c - the shape of teo's util-awareness (v6.3..v6.10), written against the kernel's
 * interfaces: enable keeps arch_scale_cpu_capacity() >> 6 as the CPU's threshold; select
 * returns 1 if the file would ask the scheduler for the CPU's utilisation (CONFIG_SMP), else
 * 0. tests/test_kgov.c builds it as a kernel file.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/sched/topology.h>

struct toy_util_cpu {
	unsigned long util_threshold;
};

static DEFINE_PER_CPU(struct toy_util_cpu, toy_util_cpus);

static int toy_util_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			   bool *stop_tick)
{
#ifdef CONFIG_SMP
	return 1;
#else
	return 0;
#endif
}

static int toy_util_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	per_cpu(toy_util_cpus, dev->cpu).util_threshold = arch_scale_cpu_capacity(dev->cpu) >> 6;
	return 0;
}

static struct cpuidle_governor toy_util_governor = {
	.name = "toyutil",
	.rating = 1,
	.enable = toy_util_enable,
	.select = toy_util_select,
};

static int __init toy_util_init(void)
{
	return cpuidle_register_governor(&toy_util_governor);
}

postcore_initcall(toy_util_init);
