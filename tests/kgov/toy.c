// SPDX-License-Identifier: GPL-2.0-only
/*
 * toy.c - a governor written against the kernel's interfaces only (tests/test_kgov.c builds
 * it with idlesim's compatibility layer, as it would a kernel tree's file).
 *
 * select: the deepest enabled state whose target residency fits the sleep length and whose
 * exit latency meets the PM QoS limit; stop the tick if the sleep length is at least a tick
 * and no task waits for I/O. It counts its calls per CPU (from 100 * (cpu + 1), set by
 * enable) and records local_clock() and the sleep length, so a test can see whose per-CPU
 * data a call used; reflect adds (index + 1) and, if the tick woke the CPU, 1000.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/tick.h>

#include "toy.h"

struct toy_cpu {
	u64 calls;
	u64 clock_ns;
	s64 sleep_ns;
};

static DEFINE_PER_CPU(struct toy_cpu, toy_cpus);

static int toy_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct toy_cpu *c = this_cpu_ptr(&toy_cpus);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t delta_tick;
	s64 sleep = tick_nohz_get_sleep_length(&delta_tick);
	int i, idx = 0;

	c->calls++;
	c->clock_ns = local_clock();
	c->sleep_ns = sleep;
	for (i = 1; i < drv->state_count; i++) {
		if (dev->states_usage[i].disable)
			continue;
		if (drv->states[i].exit_latency_ns > latency_req)
			break;
		if (drv->states[i].target_residency_ns <= sleep)
			idx = i;
	}
	*stop_tick = sleep >= TICK_NSEC && !nr_iowait_cpu(dev->cpu);
	return idx;
}

static void toy_reflect(struct cpuidle_device *dev, int index)
{
	struct toy_cpu *c = per_cpu_ptr(&toy_cpus, dev->cpu);

	c->calls += index + 1;
	if (tick_nohz_idle_got_tick())
		c->calls += 1000;
}

static int toy_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	per_cpu(toy_cpus, dev->cpu).calls = 100 * (dev->cpu + 1);
	return 0;
}

static struct cpuidle_governor toy_governor = {
	.name = "toy",
	.rating = TOY_RATING,
	.enable = toy_enable,
	.select = toy_select,
	.reflect = toy_reflect,
};

static int __init toy_init(void)
{
	return cpuidle_register_governor(&toy_governor);
}

postcore_initcall(toy_init);
