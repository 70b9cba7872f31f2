// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kcompat.c - the built-in mode of the kernel-compatibility layer, which the ports in
 * governors/ compile in (IDLESIM_BUILTIN, set for this file by tests/CMakeLists.txt): "this
 * CPU" is the `dev` in scope, the one per-CPU variable is dev->governor_data, CPU n's copy
 * n strides further, DEFINE_PER_CPU names its size; and the built-in table that the ports'
 * initcalls fill. Like a port, this file includes the layer's headers, not governor.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/tick.h>

/* governors/registry.c (governor.h is the engine's header, which a port does not include). */
unsigned int gov_count(void);
const struct cpuidle_governor *gov_get(unsigned int i);

/* 20 bytes: each CPU's copy starts 32 bytes after the previous one (rounded up to 16). */
struct five {
	u32 v[5];
};

static DEFINE_PER_CPU(struct five, fives);

/* What a port writes; `dev` is the device of the call. */
static struct five *this_of(struct cpuidle_device *dev)
{
	return this_cpu_ptr(&fives);
}

static struct five *cpu_of(struct cpuidle_device *dev, unsigned int cpu)
{
	return per_cpu_ptr(&fives, cpu);
}

static struct five *per_cpu_of(struct cpuidle_device *dev)
{
	return &per_cpu(fives, dev->cpu);
}

static void test_percpu(void **state)
{
	_Alignas(16) unsigned char buf[64];
	struct cpuidle_device d[2];

	(void)state;
	memset(d, 0, sizeof(d));
	d[0].cpu = 0;
	d[0].governor_data = buf;
	d[1].cpu = 1;
	d[1].governor_data = buf + 32;

	assert_int_equal(idlesim_builtin_percpu_size, 20);
	assert_ptr_equal(this_of(&d[0]), buf);
	assert_ptr_equal(this_of(&d[1]), buf + 32);
	/* From CPU 0 to CPU 1: + 1 * 32; from CPU 1 to CPU 0: - 1 * 32. */
	assert_ptr_equal(cpu_of(&d[0], 1), buf + 32);
	assert_ptr_equal(cpu_of(&d[1], 0), buf);
	assert_ptr_equal(per_cpu_of(&d[1]), buf + 32);
}

/* Each service, with the kernel's signature, answers for the device in scope. */
static void services(struct cpuidle_device *dev, s64 *sleep, s64 *delta_next, bool *stopped,
		     s64 *qos, unsigned long *iowait, u64 *clock, long *tick, bool *got1,
		     bool *got2)
{
	*sleep = tick_nohz_get_sleep_length(delta_next);
	*stopped = tick_nohz_tick_stopped();
	*qos = cpuidle_governor_latency_req(dev->cpu);
	*iowait = nr_iowait_cpu(dev->cpu);
	*clock = local_clock();
	*tick = TICK_NSEC;
	*got1 = tick_nohz_idle_got_tick();
	*got2 = tick_nohz_idle_got_tick();
}

static void test_services(void **state)
{
	struct cpuidle_device a, b;
	s64 sleep, delta_next, qos;
	unsigned long iowait;
	bool stopped, got1, got2;
	u64 clock;
	long tick;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.env.now_ns = 1000;
	a.env.next_timer_ns = 501000; /* sleep length 500 us */
	a.env.next_tick_ns = 201000;  /* tick first: delta_next 200 us */
	a.env.tick_nsec = 4000000;
	a.env.latency_req_ns = 30000;
	a.env.nr_iowait = 2;
	a.env.got_tick = true;
	b = a;
	b.cpu = 1;
	b.env.now_ns = 2000;
	b.env.tick_stopped = true; /* stopped tick: delta_next is the timer's, 499 us */
	b.env.tick_nsec = 1000000;
	b.env.got_tick = false;

	services(&a, &sleep, &delta_next, &stopped, &qos, &iowait, &clock, &tick, &got1, &got2);
	assert_int_equal(sleep, 500000);
	assert_int_equal(delta_next, 200000);
	assert_false(stopped);
	assert_int_equal(qos, 30000);
	assert_int_equal(iowait, 2);
	assert_int_equal(clock, 1000);
	assert_int_equal(tick, 4000000);
	assert_true(got1);
	assert_false(got2); /* once */

	services(&b, &sleep, &delta_next, &stopped, &qos, &iowait, &clock, &tick, &got1, &got2);
	assert_int_equal(sleep, 499000);
	assert_int_equal(delta_next, 499000);
	assert_true(stopped);
	assert_int_equal(clock, 2000);
	assert_int_equal(tick, 1000000);
	assert_false(got1);
}

/* The built-in table: the reference policies, then each port in registry.c's order, every
 * port with its per-CPU data size as priv_size. */
static void test_builtin_table(void **state)
{
	static const char *const names[] = {
		"oracle",   "oracle-energy", "shallowest", "deepest",  "menu@4.18",
		"menu@5.4", "menu@6.1",      "menu@6.6",   "menu@6.12", "menu@6.19",
		"teo@5.1",  "teo@5.10",      "teo@5.14",   "teo@6.12",  "teo@6.19",
		"ladder@6.12",
	};
	unsigned int i;

	(void)state;
	assert_true(gov_count() >= ARRAY_SIZE(names));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const struct cpuidle_governor *g = gov_get(i);

		assert_non_null(g);
		assert_string_equal(g->name, names[i]);
		if (i >= 4) { /* after the four reference policies */
			assert_true(g->priv_size > 0);
			assert_non_null(g->select);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percpu),
		cmocka_unit_test(test_services),
		cmocka_unit_test(test_builtin_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
