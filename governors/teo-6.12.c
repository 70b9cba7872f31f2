// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-6.12.c - teo@6.12: the TEO cpuidle governor as in the teo.c of Debian's
 * linux-source-6.12 (6.12.118), drivers/cpuidle/governors/teo.c. Functions in that file's
 * order. Checked against the packaged file decision by decision (tests/test_kgov.c, README
 * "Kernel governor files").
 *
 * What it models. Per-bin "hits" and "intercepts" plus a hits-only "tick_hits" bin beyond the
 * deepest state when that state is shallower than a tick; metrics grow by PULSE and lose
 * x >> DECAY_SHIFT per update.
 *   teo_update(): measures last_residency_ns minus half the exit latency unless the
 *     select-to-reflect span reached the sleep length; same bin as the sleep length: a hit,
 *     else an intercept in the measured time's bin.
 *   teo_select(): the candidate is the deepest enabled state; if the intercepts below it
 *     outweigh everything at or above it, walk down to the deepest state whose bins hold more
 *     than half of them, honouring teo_state_ok() (a state below a tick is no good with the
 *     tick stopped); constraint_idx caps; state 0, or a candidate below
 *     RESIDENCY_THRESHOLD_NS after a polling state 0, skips the sleep length; otherwise a
 *     state beyond the sleep length is lowered; tick intercepts above 5/8 of the total keep
 *     the tick.
 *   teo_reflect(): a POLL time-limit or tick wakeup (sleep length beyond a tick) counts as a
 *     full sleep length; got_tick is not read when poll_time_limit is set.
 *
 * Quirks reproduced: the truncating decay leaves a metric below 8 (shift 3) for ever.
 *
 * Deviations: PULSE, DECAY_SHIFT and RESIDENCY_THRESHOLD_NS are tunables (teo-common.h,
 * kernel values by default); dev->last_state_idx is -1
 * before enable(); "no timer" (KTIME_MAX) exists only in the simulator.
 *
 * Decision log (--explain), from teo_explain() on every way out of teo_select():
 * sleep_length_ns ("skipped" when not read), candidate, constraint_idx, idx_intercept_sum,
 * tick_intercept_sum, total, rule. It has no kernel counterpart.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/teo-common.h"

/* ---- tunables (teo-common.h reads them): PULSE, DECAY_SHIFT, RESIDENCY_THRESHOLD_NS ---- */
static const struct gov_param teo_params[] = {
	{"decay_shift", 3, 1, 10, "DECAY_SHIFT: each update a metric x loses x >> decay_shift"},
	{"pulse", 1024, 1, 65536, "PULSE: added to a metric per counted event"},
	{"residency_threshold_ns", 15000, 0, 1000000000,
	 "RESIDENCY_THRESHOLD_NS (gov.h): no timer query for a shallower candidate after POLL"},
};

/* struct teo_bin - one bin: aged hits and intercepts. */
struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
};

/*
 * struct teo_cpu - per-CPU data of the 6.12 file. time_span_ns holds the select
 * timestamp, then the select-to-reflect span (or the sleep length after a safety net);
 * sleep_length_ns is the sleep length seen at select (KTIME_MAX if not read); state_bins[]
 * per state (struct teo_bin, as in v6.19); total is the sum of the bins plus tick_hits plus
 * PULSE; tick_hits counts hits beyond TICK_NSEC when the deepest state is shallower than a
 * tick (an extra bin).
 */
struct teo_cpu {
	s64 time_span_ns;
	s64 sleep_length_ns;
	struct teo_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	unsigned int tick_hits;
};

static DEFINE_PER_CPU(struct teo_cpu, teo_cpus);

/* teo_update - account the last wakeup in the 6.12 bins. */
static void teo_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int i, idx_timer = 0, idx_duration = 0;
	s64 target_residency_ns = 0;
	u64 measured_ns;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		/* A safety net fired, or the wakeup came close enough to the timer: no
		 * measurement to use, the whole sleep length counts. */
		measured_ns = U64_MAX;
	} else {
		u64 lat_ns = (u64)drv->states[dev->last_state_idx].exit_latency_ns;

		/* The measured residency (not the span, which has the overhead), less half
		 * the exit latency, or halved when shorter than it. */
		measured_ns = (u64)dev->last_residency_ns;
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	cpu_data->total = 0;

	/* Age every bin; find the bins of the sleep length and of the measured duration. */
	for (i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> DECAY_SHIFT;

		cpu_data->total += bin->hits + bin->intercepts;

		target_residency_ns = drv->states[i].target_residency_ns;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if ((u64)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	/*
	 * The deepest state shallower than a tick: one more, hits-only bin beyond it, for the
	 * tick decision of teo_select().
	 */
	if (target_residency_ns < TICK_NSEC) {
		cpu_data->tick_hits -= cpu_data->tick_hits >> DECAY_SHIFT;

		cpu_data->total += cpu_data->tick_hits;

		if (TICK_NSEC <= cpu_data->sleep_length_ns) {
			idx_timer = drv->state_count;
			if ((u64)TICK_NSEC <= measured_ns) {
				cpu_data->tick_hits += PULSE;
				goto end;
			}
		}
	}

	/* Same bin for the sleep length and the measured time: a hit; else an intercept. */
	if (idx_timer == idx_duration)
		cpu_data->state_bins[idx_timer].hits += PULSE;
	else
		cpu_data->state_bins[idx_duration].intercepts += PULSE;

end:
	cpu_data->total += PULSE;
}

/* A state is usable with the tick stopped only if its target residency reaches a tick. */
static bool teo_state_ok(int i, struct cpuidle_driver *drv, const struct cpuidle_device *dev)
{
	return !tick_nohz_tick_stopped() || drv->states[i].target_residency_ns >= TICK_NSEC;
}

/* The decision log of teo@6.12: one call on every way out of teo_select(). */
static int teo_explain(struct cpuidle_device *dev, int idx, const char *rule,
			    int constraint_idx, unsigned int idx_intercept_sum,
			    unsigned int tick_intercept_sum)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	if (!dev->explain)
		return idx;
	if (cpu_data->sleep_length_ns == KTIME_MAX)
		gov_explain_str(dev, "sleep_length_ns", "skipped");
	else
		gov_explain(dev, "sleep_length_ns", cpu_data->sleep_length_ns);
	gov_explain(dev, "constraint_idx", constraint_idx);
	gov_explain(dev, "idx_intercept_sum", idx_intercept_sum);
	gov_explain(dev, "tick_intercept_sum", tick_intercept_sum);
	gov_explain(dev, "total", cpu_data->total);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

static int teo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t delta_tick = TICK_NSEC / 2;
	unsigned int tick_intercept_sum = 0;
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	int prev_intercept_idx;
	const char *rule = "timer";
	s64 duration_ns;
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev);
		dev->last_state_idx = -1;
	}

	cpu_data->time_span_ns = (s64)local_clock();
	/* KTIME_MAX unless the sleep length is read below. */
	cpu_data->sleep_length_ns = KTIME_MAX;

	if (drv->state_count < 2) {
		idx = 0;
		rule = "single-state";
		goto out_tick;
	}

	if (!dev->states_usage[0].disable)
		idx = 0;

	/* Sums of the bins below each enabled state; the deepest enabled one is the candidate. */
	for (i = 1; i < drv->state_count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		struct cpuidle_state *s = &drv->states[i];

		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;

		if (dev->states_usage[i].disable)
			continue;

		if (idx < 0)
			idx0 = i; /* first enabled state */

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}

	if (idx < 0) {
		idx = 0; /* nothing enabled: state 0 */
		rule = "no-state-enabled";
		goto out_tick;
	}

	if (idx == idx0) {
		/* One enabled state: use it; the tick may stop only if it is deep enough. */
		duration_ns = drv->states[idx].target_residency_ns;
		rule = "single-state";
		goto end;
	}

	tick_intercept_sum = intercept_sum + cpu_data->state_bins[drv->state_count - 1].intercepts;

	/*
	 * Intercepts below the candidate outweigh everything at or above it (unsigned
	 * arithmetic, as in the kernel): look for the deepest state whose bins, from it up to
	 * the candidate, took more than half of those intercepts.
	 */
	prev_intercept_idx = idx;
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		int first_suitable_idx = idx;

		intercept_sum = 0;

		for (i = idx - 1; i >= 0; i--) {
			struct teo_bin *bin = &cpu_data->state_bins[i];

			intercept_sum += bin->intercepts;

			if (2 * intercept_sum > idx_intercept_sum) {
				/* This one, unless too shallow for a stopped tick or disabled:
				 * then the first deep enough enabled one seen so far. */
				if (teo_state_ok(i, drv, dev) && !dev->states_usage[i].disable)
					idx = i;
				else
					idx = first_suitable_idx;
				break;
			}

			if (dev->states_usage[i].disable)
				continue;

			if (!teo_state_ok(i, drv, dev)) {
				/* Too shallow; a candidate already found may still win. */
				if (first_suitable_idx != idx)
					continue;
				break;
			}

			first_suitable_idx = i;
		}
		rule = "intercepts";
	}
	if (!idx && prev_intercept_idx) {
		/* State 0 after the lookup: the sleep length is still read, for teo_update(). */
		duration_ns = tick_nohz_get_sleep_length(&delta_tick);
		cpu_data->sleep_length_ns = duration_ns;
		goto out_tick;
	}

	if (idx > constraint_idx) {
		idx = constraint_idx;
		rule = "latency-constraint";
	}

	/* State 0: an immediate non-timer wakeup is expected, the timers do not matter. */
	if (!idx)
		goto out_tick;

	/* A shallow candidate after a polling state 0: skip the timer query too. */
	if (teo_polling(drv, 0) &&
	    drv->states[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS)
		goto out_tick;

	duration_ns = tick_nohz_get_sleep_length(&delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/* The closest timer comes before the candidate's target residency: go shallower. */
	if (drv->states[idx].target_residency_ns > duration_ns) {
		idx = teo_find_shallower_state(drv, dev, idx, duration_ns);
		rule = "timer";
	}

	/*
	 * A state shallower than a tick, and intercepts before the tick above 5/8 of all
	 * events: expect a short idle period, so that the tick is kept.
	 */
	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    tick_intercept_sum > cpu_data->total / 2 + cpu_data->total / 8)
		duration_ns = TICK_NSEC / 2;

end:
	/* The tick may stop unless the state polls or the expected time is below a tick. */
	if ((!teo_polling(drv, idx) && duration_ns >= TICK_NSEC) || tick_nohz_tick_stopped())
		return teo_explain(dev, idx, rule, constraint_idx, idx_intercept_sum,
					tick_intercept_sum);

	/* The tick stays on: fit the state into the time to the next event, tick included. */
	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick) {
		idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
		rule = "tick";
	}

out_tick:
	*stop_tick = false;
	return teo_explain(dev, idx, rule, constraint_idx, idx_intercept_sum, tick_intercept_sum);
}

/* teo_reflect - note the state entered and how long the CPU was away. */
static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	dev->last_state_idx = state;
	/*
	 * A wakeup by a safety net (the POLL time limit, or the tick while the sleep length
	 * was beyond it) says nothing about the idle duration: count the whole sleep length.
	 * tick_nohz_idle_got_tick() is read only when poll_time_limit is not set, as in the
	 * kernel's short-circuit.
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick() && cpu_data->sleep_length_ns > TICK_NSEC)) {
		dev->poll_time_limit = false;
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	} else {
		cpu_data->time_span_ns = (s64)local_clock() - cpu_data->time_span_ns;
	}
}

static int teo_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));
	return 0;
}

static struct cpuidle_governor teo_governor = {
	.name = "teo@6.12",
	.rating = 19,
	.enable = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "TEO 6.12 (Debian 6.12.118): hits/intercepts bins, tick_hits bin, teo_state_ok",
	.params = teo_params,
	.nr_params = ARRAY_SIZE(teo_params),
};

static int __init teo_governor_init(void)
{
	return cpuidle_register_governor(&teo_governor);
}

postcore_initcall(teo_governor_init);
