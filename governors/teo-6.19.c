// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-6.19.c - teo@6.19: the TEO cpuidle governor of Linux v6.19 (the pm-6.19-rc1 changes),
 * drivers/cpuidle/governors/teo.c. Functions in the kernel file's order.
 *
 * What it models. Per-bin "hits" and "intercepts"; teo_decay() ages a metric by
 * x >> DECAY_SHIFT and clears it below 1 << DECAY_SHIFT; total is the sum of the decayed bins
 * plus PULSE.
 *   teo_update(): a POLL time-limit wakeup counts as S64_MAX; otherwise last_residency_ns
 *     minus half the exit latency (halved below it), short idles (< RESIDENCY_THRESHOLD_NS)
 *     counted. Tick wakeups go to total_tick and, above 2/3 of total, count only as a hit on
 *     the deepest bin; else a hit when the measured time lands in the sleep length's bin, or
 *     an intercept (also in tick_intercepts when measured_ns <= TICK_NSEC).
 *   teo_select(): the candidate is the deepest enabled state (the sleep length is not known
 *     yet); if the intercepts below it outweigh everything at or above it, walk down and stop
 *     at the first enabled state whose bins (from it up to the candidate) hold more than half
 *     of them, never below the first state with a target residency >= TICK_NSEC when the tick
 *     is stopped; constraint_idx caps. The sleep length is skipped when the result is state 0
 *     or shallower than RESIDENCY_THRESHOLD_NS *and* short idles are at least half of the
 *     events or the QoS limit is below LATENCY_THRESHOLD_NS (then sleep_length_ns = KTIME_MAX,
 *     delta_tick = TICK_NSEC/2, tick kept). Otherwise a state deeper than the sleep length is
 *     lowered; tick_intercepts above total/2 + total/8 keep the tick.
 * Modelled from a full copy of the v6.19 file, cross-checked with the posted patches.
 *
 * Quirks reproduced: with the sleep length skipped, the wakeup is classified against
 * KTIME_MAX, a hit only if it reaches the deepest bin; the first select after enable has
 * total == short_idles == 0, so a shallow candidate skips the sleep length; a tick-wakeup hit
 * goes to the deepest bin even if that state is disabled; `total - idx_hit_sum` is unsigned.
 * Known consequence, not a modelling error: on a 1 ms periodic timer with HZ=250 it settles
 * on C6 rather than C8 (skl): hits in the deepest bin do not count against the intercepts the
 * kept tick produces (v7.0-rc1's 60836533b4c7 targets this).
 *
 * Deviations: PULSE, DECAY_SHIFT, RESIDENCY_THRESHOLD_NS and LATENCY_THRESHOLD_NS are tunables
 * (teo-common.h, kernel values by default), so teo_decay() takes the device; its if/else is
 * one masked subtraction (same result; the branch mispredicted about once per wakeup);
 * dev->last_state_idx is -1 before enable(); "no timer" (KTIME_MAX) exists only in the
 * simulator.
 *
 * Decision log (--explain), emitted once by teo_trace_select() on the way out:
 * sleep_length_ns ("skipped" when not read), candidate, rule,
 * tick_rule (also stop and already-stopped), expected_ns, constraint_idx, idx_intercept_sum,
 * idx_hit_sum, total, intercepts_idx, short_idles, timer_idx, tick_intercepts. It has no
 * kernel counterpart.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/teo-common.h"

/* ---- tunables (teo-common.h reads them): PULSE, DECAY_SHIFT and the two thresholds ---- */
static const struct gov_param teo_params[] = {
	{"decay_shift", 3, 1, 10, "DECAY_SHIFT: each update a metric x loses x >> decay_shift"},
	{"pulse", 1024, 1, 65536, "PULSE: added to a metric per counted event"},
	{"residency_threshold_ns", 15000, 0, 1000000000,
	 "RESIDENCY_THRESHOLD_NS (gov.h): short idle / shallow state threshold"},
	{"latency_threshold_ns", 7500, 0, 1000000000,
	 "LATENCY_THRESHOLD_NS (RESIDENCY_THRESHOLD_NS/2): skip the timer query below this QoS"},
};

/* struct teo_bin - one bin: aged hits and intercepts. */
struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
};

/*
 * struct teo_cpu - per-CPU data of v6.19 (its struct teo_cpu). sleep_length_ns is the
 * sleep length seen at select (KTIME_MAX when it was not read); state_bins[] per state; total
 * is the sum of all bins plus PULSE; total_tick counts tick wakeups; tick_intercepts counts
 * intercepts that ended within one tick; short_idles counts idle periods shorter than
 * RESIDENCY_THRESHOLD_NS; tick_wakeup records whether the tick caused the last wakeup.
 */
struct teo_cpu {
	s64 sleep_length_ns;
	struct teo_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	unsigned int total_tick;
	unsigned int tick_intercepts;
	unsigned int short_idles;
	bool tick_wakeup;
};

static DEFINE_PER_CPU(struct teo_cpu, teo_cpus);

static void teo_decay(const struct cpuidle_device *dev, unsigned int *metric)
{
	unsigned int delta = *metric >> DECAY_SHIFT;

	/* The kernel's "if (delta) *metric -= delta; else *metric = 0;" without a branch:
	 * which way it goes is data, so the branch mispredicted about once per wakeup. */
	*metric = (*metric - delta) & (0u - (unsigned int)(delta != 0));
}

/* teo_update - account the last wakeup in the v6.19 bins. */
static void teo_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int i, idx_timer = 0, idx_duration = 0;
	s64 target_residency_ns, measured_ns;
	unsigned int total = 0;

	teo_decay(dev, &cpu_data->short_idles);

	if (dev->poll_time_limit) {
		dev->poll_time_limit = false;
		/* POLL hit its time limit: count it as if the CPU had slept through (S64_MAX). */
		measured_ns = S64_MAX;
	} else {
		s64 lat_ns = drv->states[dev->last_state_idx].exit_latency_ns;

		measured_ns = dev->last_residency_ns;
		/*
		 * Take off half the exit latency: the full value is a worst case and the real
		 * delay before the CPU runs again is usually shorter. A measured time below the
		 * exit latency is halved instead. A result below RESIDENCY_THRESHOLD_NS, or any
		 * time shorter than the exit latency, counts as a short idle.
		 */
		if (measured_ns >= lat_ns) {
			measured_ns -= lat_ns / 2;
			if (measured_ns < RESIDENCY_THRESHOLD_NS)
				cpu_data->short_idles += PULSE;
		} else {
			measured_ns /= 2;
			cpu_data->short_idles += PULSE;
		}
	}

	/*
	 * Age every bin with teo_decay(), add the aged values into total, and find the bins of
	 * the sleep length (idx_timer) and of the measured time (idx_duration).
	 */
	for (i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];

		teo_decay(dev, &bin->hits);
		total += bin->hits;
		teo_decay(dev, &bin->intercepts);
		total += bin->intercepts;

		target_residency_ns = drv->states[i].target_residency_ns;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if (target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	cpu_data->total = total + PULSE;

	teo_decay(dev, &cpu_data->tick_intercepts);

	teo_decay(dev, &cpu_data->total_tick);
	if (cpu_data->tick_wakeup) {
		cpu_data->total_tick += PULSE;
		/*
		 * When tick wakeups exceed 2/3 of total, record this wakeup only as a hit on
		 * the deepest bin, which makes stopping the tick more likely next time.
		 */
		if (3 * cpu_data->total_tick > 2 * cpu_data->total) {
			cpu_data->state_bins[drv->state_count - 1].hits += PULSE;
			return;
		}
	}

	/*
	 * Same bin for both: a hit there. Otherwise an intercept in the bin of the measured
	 * time, also counted in tick_intercepts when it ended within one tick.
	 */
	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += PULSE;
		if (measured_ns <= TICK_NSEC)
			cpu_data->tick_intercepts += PULSE;
	}
}

/*
 * What the decision log needs beyond teo_select()'s own locals: how far the selection got
 * (which keys exist, and where) and the values that change after they were decided.
 */
struct teo_trace {
	bool walked;	 /* the state loop ran: candidate, constraint_idx */
	bool weighed;	 /* the metrics were compared: the sums, short_idles */
	bool searched;	 /* the shallower-state search ran: intercepts_idx */
	bool sleep_read; /* tick_nohz_get_sleep_length() was called (else "skipped") */
	bool ended;	 /* the expected duration was settled: expected_ns */
	int candidate;	 /* idx as the loop left it (-1: none enabled) */
	int intercepts_idx;
	int timer_idx;	 /* idx after the sleep-length check; -1: not reached */
	s64 expected_ns;
};

/*
 * teo_trace_select - the decision log of one teo_select(), emitted once on its way out (like
 * a tracepoint), in the order the keys have always had.
 */
static int teo_trace_select(struct cpuidle_device *dev, const struct teo_trace *tr, int idx,
			    int constraint_idx, unsigned int idx_intercept_sum,
			    unsigned int idx_hit_sum, const char *tick_rule, const char *rule)
{
	const struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	if (!dev->explain)
		return idx;
	if (tr->walked) {
		gov_explain(dev, "candidate", tr->candidate);
		gov_explain(dev, "constraint_idx", constraint_idx);
	}
	if (tr->weighed) {
		gov_explain(dev, "idx_intercept_sum", idx_intercept_sum);
		gov_explain(dev, "idx_hit_sum", idx_hit_sum);
		gov_explain(dev, "total", cpu_data->total);
		if (tr->searched)
			gov_explain(dev, "intercepts_idx", tr->intercepts_idx);
		gov_explain(dev, "short_idles", cpu_data->short_idles);
	}
	if (tr->sleep_read)
		teo_explain_sleep_length(dev, cpu_data->sleep_length_ns);
	else
		gov_explain_str(dev, "sleep_length_ns", "skipped");
	if (tr->timer_idx >= 0) {
		gov_explain(dev, "timer_idx", tr->timer_idx);
		gov_explain(dev, "tick_intercepts", cpu_data->tick_intercepts);
	}
	if (tr->ended)
		gov_explain(dev, "expected_ns", tr->expected_ns == KTIME_MAX ? -1 : tr->expected_ns);
	gov_explain_str(dev, "tick_rule", tick_rule);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/* teo_select - choose the state for the next idle period (v6.19 logic, ns). */
static int teo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t delta_tick = TICK_NSEC / 2;
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	const char *rule = "timer";
	const char *tick_rule = "stop";
	bool tick_intercepts_rule = false;
	struct teo_trace tr = {.timer_idx = -1};
	s64 duration_ns;
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev);
		dev->last_state_idx = -1;
	}

	/*
	 * KTIME_MAX stands for "not read" if the query below is skipped. The next update then
	 * cannot recognise a timer wakeup and counts the wakeup as an intercept unless it
	 * reaches the deepest bin; that costs little, except on a CPU woken mostly by timers,
	 * where it can hide chances to use a deeper state.
	 */
	cpu_data->sleep_length_ns = KTIME_MAX;

	/* A single state leaves nothing to decide. */
	if (drv->state_count < 2) {
		idx = 0;
		rule = "single-state";
		tick_rule = "single-state";
		goto out_tick;
	}

	if (!dev->states_usage[0].disable)
		idx = 0;

	/*
	 * One pass: the candidate (the deepest enabled state), constraint_idx, and the bin sums
	 * below the candidate.
	 */
	for (i = 1; i < drv->state_count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		struct cpuidle_state *s = &drv->states[i];

		/* running sums over the bins of the states below state i */
		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;

		if (dev->states_usage[i].disable)
			continue;

		if (idx < 0)
			idx0 = i; /* remember the first enabled state */

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		/* sums over the bins below the candidate */
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}

	tr.walked = true;
	tr.candidate = idx;

	/* Nothing left to weigh if no state is enabled. */
	if (idx < 0) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "no-state-enabled";
		tick_rule = "no-state-enabled";
		goto out_tick;
	}

	if (idx == idx0) {
		/*
		 * The only enabled state: use it, with its target residency as the expected
		 * duration, so the tick is kept when that is below one tick.
		 */
		duration_ns = drv->states[idx].target_residency_ns;
		rule = "single-state";
		goto end;
	}

	tr.weighed = true;

	/*
	 * Look for a shallower state if the intercepts below the candidate outweigh the hits
	 * and intercepts at or above it (2 * idx_intercept_sum > total - idx_hit_sum).
	 */
	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum) {
		int min_idx = idx0;
		int cand = idx;

		if (tick_nohz_tick_stopped()) {
			/*
			 * The tick is stopped: do not go below the first state with a target
			 * residency of at least TICK_NSEC (or below the candidate itself).
			 */
			while (min_idx < idx &&
			       drv->states[min_idx].target_residency_ns < TICK_NSEC)
				min_idx++;
		}

		/*
		 * Walk down to min_idx and stop at the first enabled state where the bins from
		 * it up to the candidate hold more than half of idx_intercept_sum; without such
		 * a state, the walk ends at the shallowest enabled state it reached.
		 */
		for (i = idx - 1, intercept_sum = 0; i >= min_idx; i--) {
			intercept_sum += cpu_data->state_bins[i].intercepts;

			if (dev->states_usage[i].disable)
				continue;

			idx = i;
			if (2 * intercept_sum > idx_intercept_sum)
				break;
		}
		tr.searched = true;
		tr.intercepts_idx = idx;
		if (idx != cand)
			rule = "intercepts";
	}

	/* The latency limit caps the result at constraint_idx. */
	if (idx > constraint_idx) {
		idx = constraint_idx;
		rule = "latency-constraint";
	}

	/*
	 * Should the sleep length be read? For state 0, or a state with a target residency
	 * below RESIDENCY_THRESHOLD_NS, there is little left to gain, but an unread sleep
	 * length makes the next wakeup count against KTIME_MAX, which on a CPU woken mostly by
	 * timers can hold back deeper states for good.
	 *
	 * So for such a state the read is skipped only in two cases. One: idle periods shorter
	 * than RESIDENCY_THRESHOLD_NS are at least half of the events. Timers that close
	 * together are rare on one CPU (user-space hrtimers get 50 us of slack by default and
	 * few kernel timers are shorter), and a deep state would hardly pay off for them given
	 * the latency, so such wakeups are taken to come from elsewhere. Two: the latency limit
	 * is below LATENCY_THRESHOLD_NS, which forces a shallow state whatever the wakeup
	 * source.
	 */
	if ((!idx || drv->states[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS) &&
	    (2 * cpu_data->short_idles >= cpu_data->total || latency_req < LATENCY_THRESHOLD_NS)) {
		tick_rule = "sleep-length-skipped";
		goto out_tick;
	}

	duration_ns = tick_nohz_get_sleep_length(&delta_tick);
	cpu_data->sleep_length_ns = duration_ns;
	tr.sleep_read = true;

	if (!idx) {
		tick_rule = "state-0";
		goto out_tick;
	}

	/*
	 * The next timer comes before the candidate's target residency: step down to a state
	 * that fits.
	 */
	if (drv->states[idx].target_residency_ns > duration_ns) {
		idx = teo_find_shallower_state(drv, dev, idx, duration_ns);
		rule = "timer";
	}
	tr.timer_idx = idx;

	/*
	 * Keep the tick for a state below TICK_NSEC when intercepts within one tick exceed 5/8
	 * of total (total / 2 + total / 8); the expected duration then becomes half a tick.
	 */
	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    cpu_data->tick_intercepts > cpu_data->total / 2 + cpu_data->total / 8) {
		duration_ns = TICK_NSEC / 2;
		tick_rule = "tick-intercepts";
		tick_intercepts_rule = true;
	}

end:
	tr.ended = true;
	tr.expected_ns = duration_ns;
	/*
	 * The tick may be stopped unless the state polls or the expected idle time is below one
	 * tick; a tick that is already stopped stays stopped.
	 */
	if ((!teo_polling(drv, idx) && duration_ns >= TICK_NSEC) || tick_nohz_tick_stopped()) {
		if (tick_nohz_tick_stopped())
			tick_rule = "already-stopped";
		goto out;
	}
	if (teo_polling(drv, idx))
		tick_rule = "polling-state";
	else if (!tick_intercepts_rule)
		tick_rule = "short-duration";

	/*
	 * The tick stays on and will wake the CPU within delta_tick at the latest: if the
	 * chosen state's target residency does not fit in that time, step down to a state that
	 * does.
	 */
	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick) {
		idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
		rule = "tick";
	}

out_tick:
	*stop_tick = false;
out:
	return teo_trace_select(dev, &tr, idx, constraint_idx, idx_intercept_sum, idx_hit_sum,
				tick_rule, rule);
}

/* teo_reflect - remember the state entered and whether the tick woke the CPU. */
static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	cpu_data->tick_wakeup = tick_nohz_idle_got_tick();

	dev->last_state_idx = state;
}

/* teo_enable_device - zero the metrics. */
static int teo_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));

	return 0;
}

static struct cpuidle_governor teo_governor = {
	.name = "teo@6.19",
	.rating = 19,
	.enable = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "TEO v6.19: teo_decay, tick-wakeup accounting, sleep length read lazily",
	.params = teo_params,
	.nr_params = ARRAY_SIZE(teo_params),
};

static int __init teo_governor_init(void)
{
	return cpuidle_register_governor(&teo_governor);
}

postcore_initcall(teo_governor_init);
