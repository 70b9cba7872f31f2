// SPDX-License-Identifier: GPL-2.0-only
/*
 * teo-5.14.c - teo@5.14: the TEO cpuidle governor after the bins rework (commits 77577558f25d
 * and c410a9a142f1, v5.14; the same logic up to v6.2), drivers/cpuidle/governors/teo.c.
 * Functions in the kernel file's order.
 *
 * What it models. Nanoseconds. Bin i spans [target_residency(i), target_residency(i+1)) and
 * holds "hits", "intercepts" and "recent" (how many of the NR_RECENT (9) latest wakeups were
 * intercepts landing in it); metrics grow by PULSE and lose x >> DECAY_SHIFT per update.
 *   teo_update(): a select-to-reflect span reaching the sleep length is a timer wakeup (a
 *     hit in the sleep length's bin); otherwise the measured time (span minus half the exit
 *     latency) is a hit if it lands in the same bin as the sleep length, else an intercept
 *     (also recorded in the recent ring) in its own bin.
 *   teo_select(): the candidate is the deepest enabled state fitting the sleep length; the
 *     intercepts below it are compared with the hits+intercepts at or above it
 *     (alt_intercepts), and the recent intercepts below it with NR_RECENT/2 (alt_recent); if
 *     either says "early", walk down to the deepest state whose bins collected more than half
 *     of them (first_suitable_idx when that state is disabled or too short for a stopped
 *     tick), with teo_middle_of_bin() as the new expected duration; constraint_idx (deepest
 *     state within the latency limit) caps the result. The tick is kept for a polling state
 *     or an expected duration below TICK_NSEC, the state then capped by delta_tick.
 * Modelled from a full v5.14-era copy of the file, not compared with the v5.14 tag itself.
 *
 * Quirks reproduced: the truncating decay leaves a metric below 8 (shift 3) for ever;
 * constraint_idx starts at 0, so with every state >= 1 over the latency limit state 0 is
 * returned even if disabled; alt_* sums include disabled states' bins; `total - idx_hit_sum`
 * is unsigned arithmetic.
 *
 * Deviations: PULSE and DECAY_SHIFT are tunables (teo-common.h, kernel values by default);
 * dev->last_state_idx is -1 before enable() (the kernel's
 * zeroed device may run one teo_update() on state 0 at boot: not modelled); "no timer"
 * (KTIME_MAX) exists only in the simulator.
 *
 * Decision log (--explain), emitted once by teo_trace_select() on the way out: sleep_length_ns,
 * candidate, rule, tick_rule, expected_ns,
 * constraint_idx, idx_intercept_sum, idx_hit_sum, idx_recent_sum, total, alt_intercepts,
 * alt_recent, alt_idx. It has no kernel counterpart.
 */
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>
#include <idlesim/gov.h>

#include "governors/teo-common.h"

/* v5.14: how many of the latest wakeups feed the "recent" counts of the bins. */
#define NR_RECENT 9

/*
 * struct teo_bin - one v5.14 bin, from a state's target residency up to the next state's:
 * aged hits and intercepts, and how many of the NR_RECENT latest wakeups were intercepts that
 * landed in it.
 */
struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
	unsigned int recent;
};

/*
 * struct teo_cpu - per-CPU data of v5.14 (its struct teo_cpu). time_span_ns and
 * sleep_length_ns as in v5.1; state_bins[] per state; total is the sum of hits and intercepts
 * over all bins; recent_idx[] is the ring of the bins of the NR_RECENT latest wakeups (-1 for a
 * hit) and next_recent_idx its next slot.
 */
struct teo_cpu {
	s64 time_span_ns;
	s64 sleep_length_ns;
	struct teo_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	int next_recent_idx;
	int recent_idx[NR_RECENT];
};

static DEFINE_PER_CPU(struct teo_cpu, teo_cpus);

/* teo_update - account the last wakeup in the v5.14 bins. */
static void teo_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int i, idx_timer = 0, idx_duration = 0;
	u64 measured_ns;

	if (cpu_data->time_span_ns >= cpu_data->sleep_length_ns) {
		/*
		 * Treated as a timer wakeup: U64_MAX puts the measured time in the bin of the
		 * sleep length, so it counts as a hit.
		 */
		measured_ns = U64_MAX;
	} else {
		u64 lat_ns = (u64)drv->states[dev->last_state_idx].exit_latency_ns;

		/*
		 * Use the residency measured by the cpuidle core (last_residency_ns) to pick
		 * the bin; time_span_ns would also include the governor and cpuidle overhead.
		 */
		measured_ns = (u64)dev->last_residency_ns;
		/*
		 * Take off half the exit latency: the full value is a worst case and the real
		 * delay before the CPU runs again is usually shorter. A measured time below the
		 * exit latency is halved instead.
		 */
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	cpu_data->total = 0;

	/*
	 * Age hits and intercepts in every bin, recompute total from the aged values, and find
	 * the bins of the sleep length (idx_timer) and of the measured time (idx_duration).
	 */
	for (i = 0; i < drv->state_count; i++) {
		s64 target_residency_ns = drv->states[i].target_residency_ns;
		struct teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> DECAY_SHIFT;

		cpu_data->total += bin->hits + bin->intercepts;

		if (target_residency_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			/* s64 against u64: compared as u64, as in the kernel. */
			if ((u64)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	i = cpu_data->next_recent_idx++;
	if (cpu_data->next_recent_idx >= NR_RECENT)
		cpu_data->next_recent_idx = 0;

	if (cpu_data->recent_idx[i] >= 0)
		cpu_data->state_bins[cpu_data->recent_idx[i]].recent--;

	/*
	 * Same bin for both: a hit there. Otherwise an intercept in the bin of the measured
	 * time, which is also recorded in the recent ring.
	 */
	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += PULSE;
		cpu_data->recent_idx[i] = -1;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += PULSE;
		cpu_data->state_bins[idx_duration].recent++;
		cpu_data->recent_idx[i] = idx_duration;
	}

	cpu_data->total += PULSE;
}

static bool teo_time_ok(const struct cpuidle_device *dev, u64 interval_ns)
{
	return !tick_nohz_tick_stopped() || interval_ns >= (u64)TICK_NSEC;
}

static s64 teo_middle_of_bin(int idx, struct cpuidle_driver *drv)
{
	return (drv->states[idx].target_residency_ns + drv->states[idx + 1].target_residency_ns) /
	       2;
}

/*
 * What the decision log needs beyond teo_select()'s own locals: how far the selection got
 * (which keys exist) and the values that change after they were decided.
 */
struct teo_trace {
	bool walked;		/* the state loop ran: candidate, constraint_idx */
	bool weighed;		/* the metrics were compared: the sums and alt_* */
	bool searched;		/* the shallower-state search ran: alt_idx */
	int candidate;		/* idx as the loop left it (-1: none enabled) */
	int alt_idx;		/* idx as the search left it */
	const char *tick_rule;	/* why the tick is kept; NULL: not kept */
};

/*
 * teo_trace_select - the decision log of one teo_select(), emitted once on its way out (like
 * a tracepoint), in the order the keys have always had.
 */
static int teo_trace_select(struct cpuidle_device *dev, const struct teo_trace *tr, int idx,
			    int constraint_idx, unsigned int idx_intercept_sum,
			    unsigned int idx_hit_sum, unsigned int idx_recent_sum,
			    bool alt_intercepts, bool alt_recent, s64 duration_ns, const char *rule)
{
	const struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	if (!dev->explain)
		return idx;
	teo_explain_sleep_length(dev, cpu_data->sleep_length_ns);
	if (tr->walked) {
		gov_explain(dev, "candidate", tr->candidate);
		gov_explain(dev, "constraint_idx", constraint_idx);
	}
	if (tr->weighed) {
		gov_explain(dev, "idx_intercept_sum", idx_intercept_sum);
		gov_explain(dev, "idx_hit_sum", idx_hit_sum);
		gov_explain(dev, "idx_recent_sum", idx_recent_sum);
		gov_explain(dev, "total", cpu_data->total);
		gov_explain(dev, "alt_intercepts", alt_intercepts);
		gov_explain(dev, "alt_recent", alt_recent);
	}
	if (tr->searched)
		gov_explain(dev, "alt_idx", tr->alt_idx);
	if (tr->tick_rule)
		gov_explain_str(dev, "tick_rule", tr->tick_rule);
	gov_explain(dev, "expected_ns", duration_ns == KTIME_MAX ? -1 : duration_ns);
	gov_explain_str(dev, "rule", rule);
	return idx;
}

/* teo_select - choose the state for the next idle period (v5.14 logic, ns). */
static int teo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	unsigned int idx_intercept_sum = 0;
	unsigned int intercept_sum = 0;
	unsigned int idx_recent_sum = 0;
	unsigned int recent_sum = 0;
	unsigned int idx_hit_sum = 0;
	unsigned int hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	bool alt_intercepts = false, alt_recent = false;
	struct teo_trace tr = {0};
	ktime_t delta_tick;
	s64 duration_ns;
	const char *rule = "timer";
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev);
		dev->last_state_idx = -1;
	}

	cpu_data->time_span_ns = (s64)local_clock();

	duration_ns = tick_nohz_get_sleep_length(&delta_tick);
	cpu_data->sleep_length_ns = duration_ns;

	/*
	 * Nothing to choose with a single state, or with state 0 enabled and state 1 beyond the
	 * sleep length.
	 */
	if (drv->state_count < 2) {
		idx = 0;
		rule = "single-state";
		goto end;
	}
	if (!dev->states_usage[0].disable) {
		idx = 0;
		if (drv->states[1].target_residency_ns > duration_ns)
			goto end;
	}

	/*
	 * One pass over states 1..N-1: idx becomes the deepest enabled state that fits the
	 * sleep length, constraint_idx the deepest of those within the latency limit, and the
	 * idx_* sums cover the bins below idx.
	 */
	for (i = 1; i < drv->state_count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		struct cpuidle_state *s = &drv->states[i];

		/* running sums over the bins of the states below state i */
		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;
		recent_sum += prev_bin->recent;

		if (dev->states_usage[i].disable)
			continue;

		if (idx < 0) {
			idx = i; /* fallback: the shallowest enabled state */
			idx0 = i;
		}

		if (s->target_residency_ns > duration_ns)
			break;

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;

		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
		idx_recent_sum = recent_sum;
	}

	tr.walked = true;
	tr.candidate = idx;

	/* Nothing left to weigh: no state enabled, or the candidate is the first enabled state. */
	if (idx < 0) {
		idx = 0; /* nothing enabled: fall back to state 0 */
		rule = "no-state-enabled";
		goto end;
	} else if (idx == idx0) {
		goto end;
	}

	/*
	 * Expect an early wakeup, and look for a shallower state, if the intercepts below the
	 * candidate outweigh the hits and intercepts at or above it (2 * idx_intercept_sum >
	 * total - idx_hit_sum), or if more than NR_RECENT / 2 of the last NR_RECENT wakeups
	 * were intercepts below it.
	 */
	alt_intercepts = 2 * idx_intercept_sum > cpu_data->total - idx_hit_sum;
	alt_recent = idx_recent_sum > NR_RECENT / 2;
	tr.weighed = true;
	if (alt_recent || alt_intercepts) {
		s64 first_suitable_span_ns = duration_ns;
		int first_suitable_idx = idx;
		int cand = idx;

		/*
		 * Walk down from the candidate, adding up bins, to the first state where the
		 * bins from it up to the candidate hold more than half of the intercepts (and
		 * of the recent ones) that started the search. That state is used if it is
		 * enabled and its bin middle is long enough for a stopped tick; otherwise the
		 * last suitable deeper state found is.
		 */
		intercept_sum = 0;
		recent_sum = 0;

		for (i = idx - 1; i >= 0; i--) {
			struct teo_bin *bin = &cpu_data->state_bins[i];
			s64 span_ns;

			intercept_sum += bin->intercepts;
			recent_sum += bin->recent;

			span_ns = teo_middle_of_bin(i, drv);

			if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
			    (!alt_intercepts || 2 * intercept_sum > idx_intercept_sum)) {
				if (teo_time_ok(dev, (u64)span_ns) &&
				    !dev->states_usage[i].disable) {
					idx = i;
					duration_ns = span_ns;
				} else {
					/*
					 * State i is unusable (disabled, or too short for a
					 * stopped tick): fall back to the last suitable state
					 * found above it.
					 */
					idx = first_suitable_idx;
					duration_ns = first_suitable_span_ns;
				}
				break;
			}

			if (dev->states_usage[i].disable)
				continue;

			if (!teo_time_ok(dev, (u64)span_ns)) {
				/*
				 * Too short for a stopped tick. If a suitable state was already
				 * found above, go on (the sums may still reach their
				 * threshold); otherwise stop here.
				 */
				if (first_suitable_idx != idx)
					continue;

				break;
			}

			first_suitable_span_ns = span_ns;
			first_suitable_idx = i;
		}
		tr.searched = true;
		tr.alt_idx = idx;
		if (idx != cand)
			rule = alt_intercepts ? (alt_recent ? "intercepts+recent" : "intercepts")
					      : "recent";
	}

	/* The latency limit caps the result at constraint_idx. */
	if (idx > constraint_idx) {
		idx = constraint_idx;
		rule = "latency-constraint";
	}

end:
	/* Keep the tick for a polling state or for an expected idle time below one tick. */
	if ((teo_polling(drv, idx) || duration_ns < TICK_NSEC) && !tick_nohz_tick_stopped()) {
		*stop_tick = false;
		tr.tick_rule = teo_polling(drv, idx) ? "polling-state" : "short-duration";

		/*
		 * The tick stays on and will wake the CPU within delta_tick at the latest: if
		 * the chosen state's target residency does not fit in that time, step down to a
		 * state that does.
		 */
		if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick) {
			idx = teo_find_shallower_state(drv, dev, idx, delta_tick);
			rule = "tick";
		}
	}

	return teo_trace_select(dev, &tr, idx, constraint_idx, idx_intercept_sum, idx_hit_sum,
				idx_recent_sum, alt_intercepts, alt_recent, duration_ns, rule);
}

/*
 * teo_reflect - remember the state entered and measure the select-to-reflect span for the
 * next update.
 */
static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);

	dev->last_state_idx = state;
	/*
	 * A POLL time limit, or a tick wakeup with a sleep length beyond one tick, is not a
	 * real wakeup event: clear the poll flag and count the whole sleep length as idle time.
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick() && cpu_data->sleep_length_ns > TICK_NSEC)) {
		dev->poll_time_limit = false;
		cpu_data->time_span_ns = cpu_data->sleep_length_ns;
	} else {
		cpu_data->time_span_ns = (s64)(local_clock() - (u64)cpu_data->time_span_ns);
	}
}

/* teo_enable_device - zero the metrics and empty the recent ring (-1). */
static int teo_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = per_cpu_ptr(&teo_cpus, dev->cpu);
	int i;

	(void)drv;
	memset(cpu_data, 0, sizeof(*cpu_data));

	for (i = 0; i < NR_RECENT; i++)
		cpu_data->recent_idx[i] = -1;

	return 0;
}

static struct cpuidle_governor teo_governor = {
	.name = "teo@5.14",
	.rating = 19,
	.enable = teo_enable_device,
	.select = teo_select,
	.reflect = teo_reflect,
	/* idlesim: the one-line summary and the tunables (idlesim/gov.h) */
	.summary = "TEO bins: hits/intercepts/recent per bin, alt_intercepts/alt_recent lookup",
	.params = teo_params_5,
	.nr_params = TEO_NR_PARAMS_5,
};

static int __init teo_governor_init(void)
{
	return cpuidle_register_governor(&teo_governor);
}

postcore_initcall(teo_governor_init);
