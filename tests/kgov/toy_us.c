// SPDX-License-Identifier: GPL-2.0-only
/*
 * toy_us.c - a governor written against the kernel API of the microsecond era (before v5.7:
 * the us fields of struct cpuidle_state, an int latency limit in us, dev->last_residency,
 * drv->states[i].disabled of <= v5.4). tests/test_kgov.c builds it as a kernel file.
 *
 * select: the deepest state, not disabled either way, whose exit latency meets the PM QoS
 * limit and whose target residency fits the sleep length (both in us); it records the limit
 * and dev->last_residency it saw in its per-CPU data.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/tick.h>

struct toy_us_cpu {
	int latency_req;
	int last_residency;
};

static DEFINE_PER_CPU(struct toy_us_cpu, toy_us_cpus);

static int toy_us_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct toy_us_cpu *c = this_cpu_ptr(&toy_us_cpus);
	int latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t delta_tick;
	unsigned int sleep_us = ktime_to_us(tick_nohz_get_sleep_length(&delta_tick));
	int i, idx = 0;

	c->latency_req = latency_req;
	c->last_residency = dev->last_residency;
	for (i = 1; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (s->disabled || dev->states_usage[i].disable)
			continue;
		if (s->exit_latency > latency_req)
			break;
		if (s->target_residency <= sleep_us)
			idx = i;
	}
	*stop_tick = true;
	return idx;
}

static struct cpuidle_governor toy_us_governor = {
	.name = "toyus",
	.rating = 1,
	.select = toy_us_select,
};

static int __init toy_us_init(void)
{
	return cpuidle_register_governor(&toy_us_governor);
}

postcore_initcall(toy_us_init);
