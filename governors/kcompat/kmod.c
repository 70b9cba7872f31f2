// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmod.c - the runtime half of the compatibility layer, linked into every governor module
 * idlesim builds from a kernel file (sim/run/kgov.c compiles it next to the file).
 *
 * It runs the file's initcalls once, at load, and keeps the governor they register; its
 * entry points (enable, disable, select, reflect) wrap that governor's. Each makes its `dev`
 * the thread's current device for the length of the call, which is all the kernel's
 * argument-less services (tick_nohz_get_sleep_length(), local_clock(), this_cpu_ptr(), ...)
 * need: the kernel runs a governor on the CPU it decides for, a simulation calls it on one
 * thread for one device at a time. Simulations on other threads have their own current
 * device, and their own per-CPU data (see linux/percpu.h): nothing here changes after load.
 */
#include <linux/cpuidle.h>
#include <linux/init.h>
#include <linux/percpu.h>

_Thread_local struct cpuidle_device *idlesim_kmod_current;

extern const idlesim_initcall_t __start_idlesim_initcall[] __attribute__((weak, visibility("hidden")));
extern const idlesim_initcall_t __stop_idlesim_initcall[] __attribute__((weak, visibility("hidden")));

/* Written only by the initcalls, during idlesim_kmod_init(), before any simulation. */
static struct cpuidle_governor *registered;
static unsigned int nr_registered;

int cpuidle_register_governor(struct cpuidle_governor *gov)
{
	if (!gov || !gov->select)
		return -EINVAL;
	if (!registered)
		registered = gov;
	nr_registered++;
	return 0;
}

/*
 * Make `dev` the thread's current device for one call and return the previous one. Also
 * derive what older kernels kept besides the engine's fields: dev->last_residency, the
 * measured residency in us, truncated and capped at INT_MAX as cpuidle_enter_state() of the
 * us era computed it (ktime_us_delta(), then `if (diff > INT_MAX) diff = INT_MAX`).
 */
static struct cpuidle_device *kmod_enter(struct cpuidle_device *dev)
{
	struct cpuidle_device *saved = idlesim_kmod_current;
	s64 us = dev->last_residency_ns / NSEC_PER_USEC;

	dev->last_residency = us > INT_MAX ? INT_MAX : (int)us;
	idlesim_kmod_current = dev;
	return saved;
}

static int kmod_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct cpuidle_device *saved;
	size_t size = (size_t)(__stop_idlesim_percpu - __start_idlesim_percpu);
	int ret = 0;

	/* A CPU's per-CPU data starts as the variables' initial values, as in the kernel. */
	if (size)
		memcpy(dev->governor_data, __start_idlesim_percpu, size);
	saved = kmod_enter(dev);
	if (registered->enable)
		ret = registered->enable(drv, dev);
	idlesim_kmod_current = saved;
	return ret;
}

static void kmod_disable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct cpuidle_device *saved = kmod_enter(dev);

	registered->disable(drv, dev);
	idlesim_kmod_current = saved;
}

static int kmod_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct cpuidle_device *saved = kmod_enter(dev);
	int idx;

	idx = registered->select(drv, dev, stop_tick);
	idlesim_kmod_current = saved;
	return idx;
}

static void kmod_reflect(struct cpuidle_device *dev, int index)
{
	struct cpuidle_device *saved = kmod_enter(dev);

	if (registered->reflect)
		registered->reflect(dev, index);
	idlesim_kmod_current = saved;
}

__attribute__((visibility("default"))) int idlesim_kmod_init(struct idlesim_kmod *out);

/* Runs the initcalls (once: a module loaded twice is the same object) and describes the result. */
__attribute__((visibility("default"))) int idlesim_kmod_init(struct idlesim_kmod *out)
{
	static int init_error;
	static bool done;
	const idlesim_initcall_t *call;

	if (!done) {
		done = true;
		for (call = __start_idlesim_initcall; call && call < __stop_idlesim_initcall; call++) {
			int ret = (*call)();

			if (ret && !init_error)
				init_error = ret;
		}
	}
	memset(out, 0, sizeof(*out));
	out->abi = IDLESIM_KMOD_ABI;
	out->gov = registered;
	out->nr_registered = nr_registered;
	out->init_error = init_error;
	out->percpu_size = idlesim_percpu_size();
	out->enable = kmod_enable;
	out->disable = registered && registered->disable ? kmod_disable : NULL;
	out->select = kmod_select;
	out->reflect = kmod_reflect;
	return 0;
}
