// SPDX-License-Identifier: GPL-2.0-only
/*
 * engine_setup.c - a simulation's life around the idle loop of sim/engine/engine.c: creating
 * it (the driver's table, the tick, the lookahead, the governor's per-CPU data and enable
 * calls), destroying it, and finishing a run: the end snapshot, the statistics handed out,
 * energy priced, and the conservation check every run passes.
 */
#include "sim/engine/engine.h"
#include "sim/engine/engine_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/engine/govguard.h"
#include "sim/machine/energy.h"

#include <string.h>

/* cpuidle_reference_energy_j(): an idle period priced by the accounting's own rule, with
 * the state's mean actual latency (a sampled exit is not known before it happens). */
static double period_energy_j(const void *ctx, int idx, double idle_ns)
{
	const struct sim *S = ctx;

	return energy_period_j(S->cfg.machine, idx, idle_ns, S->wake_mean_ns[idx]);
}

/*
 * The energy reference looks as far ahead as the machine's longest break-even time, capped
 * at this (2 s; the built-ins need at most 997 ms, hsw and bdw under `worst`): a longer
 * wait costs memory (the periods in flight), and past the cap it takes the choice that is
 * cheapest for an endless period.
 */
#define ENERGY_HORIZON_MAX_NS (2000 * SIM_NS_PER_MS)

/*
 * Large machines: every CPU's ring of fed periods starts in one block, RING_SLAB_SLOTS
 * periods each (a replay's batch and lookahead: about 90 on 512 CPUs), which the huge
 * pages of sim_alloc_big() cover, instead of a block per CPU grown from 4. A line more
 * than the slots between two rings: at 10,240 bytes apart they would fall in the same few
 * cache sets (measured slower than separate blocks).
 */
#define RING_SLAB_CPUS 64
#define RING_SLAB_SLOTS 128
#define RING_SLAB_STRIDE (RING_SLAB_SLOTS * sizeof(struct opp) + 64)

/* From this many CPUs on, wake latencies are held back per CPU (add_latency()): 3,776
 * bytes a CPU, an odd number of lines apart. */
#define LAT_STAGE_CPUS 64

static int init_cpus(struct sim *S, struct sim_error *err)
{
	const struct machine *m = S->cfg.machine;
	size_t priv = (S->gov->priv_size + 15) & ~(size_t)15;
	int i, k;

	S->cpus = sim_alloc_big((size_t)S->cfg.nr_cpus * sizeof(*S->cpus), 1);
	if (priv)
		S->gov_data = sim_alloc_big((size_t)S->cfg.nr_cpus * priv, 1);
	if (S->cfg.explain)
		S->xbufs = sim_calloc((size_t)S->cfg.nr_cpus, sizeof(*S->xbufs));
	if (S->cfg.nr_cpus >= RING_SLAB_CPUS) {
		S->ring_slab_bytes = (size_t)S->cfg.nr_cpus * RING_SLAB_STRIDE;
		S->ring_slab = sim_alloc_big(S->ring_slab_bytes, 0);
	}
	if (S->cfg.nr_cpus >= LAT_STAGE_CPUS)
		S->lat_stage = sim_alloc_big((size_t)S->cfg.nr_cpus * LAT_BUCKETS *
					     sizeof(uint16_t), 1);
	if (!S->cpus || (priv && !S->gov_data) || (S->cfg.explain && !S->xbufs) ||
	    (S->ring_slab_bytes && !S->ring_slab) ||
	    (S->cfg.nr_cpus >= LAT_STAGE_CPUS && !S->lat_stage))
		return sim_error_nomem(err, "");
	for (i = 0; i < S->cfg.nr_cpus; i++) {
		struct sim_cpu *c = &S->cpus[i];
		struct cpuidle_device *dev = &c->dev;

		c->id = i;
		if (S->ring_slab) {
			c->ring = (struct opp *)(S->ring_slab + (size_t)i * RING_SLAB_STRIDE);
			c->cap = RING_SLAB_SLOTS;
		}
		if (S->lat_stage)
			c->lat_stage = S->lat_stage + (size_t)i * LAT_BUCKETS;
		c->energy = energy_cpu(S->energy, i);
		c->phase = CPU_BUSY;
		c->ev = EV_NONE;
		c->ev_ns = SIM_TIME_NEVER;
		c->ready_ns = c->busy_from_ns = c->last_start_ns = S->start_ns;
		if (S->xbufs) {
			c->xb = &S->xbufs[i];
			c->xb->dec.state = -1;
		}
		machine_cpu_topology(m, i, &c->st.package, &c->st.core, &c->st.thread);
		c->st.cpu = i;
		lat_hist_init(&c->st.wake_latency);
		/* The common latencies, counted apart and added by sim_finish(): 0 and each
		 * state's full exit. */
		lat_hist_reserve(&c->st.wake_latency, 0);
		for (k = 0; k < S->drv.state_count; k++)
			if (S->wake_fixed_ns[k] >= 0)
				lat_hist_reserve(&c->st.wake_latency, S->wake_fixed_ns[k]);
		c->wake_rng = S->cfg.wake_seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(i + 1));
		dev->cpu = (unsigned int)i;
		dev->last_state_idx = -1;
		for (k = 0; k < S->drv.state_count; k++)
			if (S->cfg.disabled & (1u << k))
				dev->states_usage[k].disable = CPUIDLE_STATE_DISABLED_BY_USER;
		dev->governor_data = priv ? S->gov_data + (size_t)i * priv : NULL;
		dev->gov_params = S->params;
		dev->env.tick_nsec = S->tick_nsec;
		dev->env.latency_req_ns = S->latency_req_ns;
		dev->env.next_timer_ns = KTIME_MAX;
		dev->env.next_wheel_ns = KTIME_MAX;
		dev->env.oracle_wake_ns = KTIME_MAX;
		dev->env.now_ns = S->start_ns;
		dev->env.period_energy_j = period_energy_j;
		dev->env.period_energy_ctx = S;
		dev->explain = S->cfg.explain && S->cfg.explain_limit != 0 ? &c->xb->ex : NULL;
		if (S->gov->file && S->gov->enable) {
			int ret = 0, outcome = govguard_enable(S->guard, S->gov, &S->drv, dev, &ret);

			if (outcome || ret)
				return gov_file_error(S, S->gov, err, "enable", outcome, ret, i, 0,
						      dev->env.now_ns);
		} else if (S->gov->enable && S->gov->enable(&S->drv, dev)) {
			return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
					     "governor %s failed to enable CPU %d", S->gov->name, i);
		}
	}
	return 0;
}

/* A shadow's call of enable() or disable() on CPU i, isolated for a governor file. */
static int shadow_enable(struct sim *S, struct sim_shadow_rt *sh, int i, struct sim_error *err)
{
	struct cpuidle_device *sd = &sh->devs[i];
	int ret = 0, outcome = 0;

	if (!sh->gov->enable)
		return 0;
	if (sh->gov->file)
		outcome = govguard_enable(S->guard, sh->gov, &S->drv, sd, &ret);
	else
		ret = sh->gov->enable(&S->drv, sd);
	if (sh->gov->file && (outcome || ret))
		return gov_file_error(S, sh->gov, err, "enable", outcome, ret, i, 0, sd->env.now_ns);
	if (ret)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "governor %s failed to enable CPU %d", sh->gov->name, i);
	return 0;
}

static void shadows_disable(struct sim *S, int i)
{
	int k;

	for (k = 0; k < S->nr_shadows; k++) {
		struct sim_shadow_rt *sh = &S->shadow[k];

		if (!sh->devs || !sh->gov->disable)
			continue;
		if (sh->gov->file && !S->gov_failed)
			S->gov_failed = govguard_disable(S->guard, sh->gov, &S->drv, &sh->devs[i]) != 0;
		else if (!sh->gov->file)
			sh->gov->disable(&S->drv, &sh->devs[i]);
	}
}

/*
 * The lockstep shadows (sim_config.shadows): tunables, per-CPU data laid out as the
 * driver's (one array, CPU n at n * size: a governor file's per_cpu_ptr() relies on it),
 * devices that start as the driver's, and one log per CPU. After init_cpus().
 */
static int init_shadows(struct sim *S, struct sim_error *err)
{
	int k, i;
	unsigned int j;

	for (k = 0; k < S->cfg.nr_shadows; k++) {
		const struct sim_shadow *cs = &S->cfg.shadows[k];
		struct sim_shadow_rt *sh = &S->shadow[k];
		size_t priv = (cs->gov->priv_size + 15) & ~(size_t)15;

		S->nr_shadows = k + 1;
		sh->gov = cs->gov;
		if (cs->gov->nr_params) {
			sh->params = sim_calloc(cs->gov->nr_params, sizeof(*sh->params));
			if (!sh->params)
				return sim_error_nomem(err, "");
			for (j = 0; j < cs->gov->nr_params; j++)
				sh->params[j] = cs->gov_params ? cs->gov_params[j]
							       : cs->gov->params[j].def;
		}
		sh->devs = sim_calloc((size_t)S->cfg.nr_cpus, sizeof(*sh->devs));
		sh->ex = sim_calloc((size_t)S->cfg.nr_cpus, sizeof(*sh->ex));
		if (priv)
			sh->gov_data = sim_calloc((size_t)S->cfg.nr_cpus, priv);
		if (!sh->devs || !sh->ex || (priv && !sh->gov_data))
			return sim_error_nomem(err, "");
		for (i = 0; i < S->cfg.nr_cpus; i++) {
			struct cpuidle_device *sd = &sh->devs[i];

			sd->governor_data = priv ? sh->gov_data + (size_t)i * priv : NULL;
			sd->gov_params = sh->params;
			sd->explain = &sh->ex[i];
			shadow_sync(sd, &S->cpus[i].dev);
			if (shadow_enable(S, sh, i, err))
				return -1;
		}
	}
	return 0;
}

struct sim *sim_create(const struct sim_config *cfg, int64_t start_ns, struct sim_error *err)
{
	const struct machine *m = cfg->machine;
	struct sim *S;
	unsigned int i;
	bool any_file = false;
	int k;

	if (cfg->nr_cpus < 1 || cfg->nr_cpus > machine_nr_cpus(m)) {
		sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			      "the trace has %d CPUs but machine %s has %d; pick a larger machine",
			      cfg->nr_cpus, m->name, machine_nr_cpus(m));
		return NULL;
	}
	if (start_ns < 0 || start_ns > SIM_TIME_MAX_NS) {
		sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
			      "start %lld ns is outside the engine's range, 0 to 2^62 ns",
			      (long long)start_ns);
		return NULL;
	}
	if (machine_check_wake_model(m, cfg->wake_model, err))
		return NULL;
	if (cfg->hz < 1 || cfg->hz > 10000) {
		sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "tick rate %d Hz out of range (1..10000)",
			      cfg->hz);
		return NULL;
	}
	S = sim_calloc(1, sizeof(*S));
	if (!S) {
		sim_error_nomem(err, "");
		return NULL;
	}
	S->cfg = *cfg;
	S->gov = cfg->gov;
	S->lanes = !cfg->agent && !cfg->explain && !cfg->global_order;
	S->lane_min_ns = SIM_TIME_NEVER;
	S->start_ns = S->now_ns = start_ns;
	S->end_ns = SIM_TIME_NEVER;
	machine_to_driver(m, &S->drv);
	S->tick_nsec = (SIM_NS_PER_S + cfg->hz / 2) / cfg->hz;
	jiffy_grid_init(&S->grid, cfg->hz, S->tick_nsec, start_ns);
	S->latency_req_ns = cfg->latency_req_ns < 0
				    ? (int64_t)PM_QOS_CPU_LATENCY_DEFAULT_VALUE * NSEC_PER_USEC
				    : cfg->latency_req_ns;
	S->lookahead_ns = S->tick_nsec;
	for (k = 0; k < m->state_count; k++) {
		S->lookahead_ns = sim_max64(S->lookahead_ns, m->states[k].target_residency_ns);
		S->lookahead_ns = sim_max64(S->lookahead_ns, machine_wake_max_ns(&m->states[k]));
		S->wake_fixed_ns[k] = machine_wake_fixed_ns(&m->states[k], cfg->wake_model);
		S->wake_mean_ns[k] = machine_wake_mean_ns(&m->states[k], cfg->wake_model);
	}
	if (cfg->nr_shadows < 0 || cfg->nr_shadows > SIM_MAX_SHADOWS ||
	    (cfg->nr_shadows && !cfg->explain)) {
		sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
			      "%d lockstep shadows (at most %d, and they need the decision log)",
			      cfg->nr_shadows, SIM_MAX_SHADOWS);
		sim_free(S);
		return NULL;
	}
	for (k = 0; k < cfg->nr_shadows; k++)
		if (cfg->shadows[k].gov->energy_horizon)
			S->lookahead_ns = sim_max64(S->lookahead_ns,
						    energy_period_horizon_ns(m, S->wake_mean_ns,
									     ENERGY_HORIZON_MAX_NS));
	if (S->gov->energy_horizon)
		S->lookahead_ns = sim_max64(S->lookahead_ns,
					    energy_period_horizon_ns(m, S->wake_mean_ns,
								     ENERGY_HORIZON_MAX_NS));
	S->lookahead_ns += 1;
	if (S->gov->nr_params) {
		S->params = sim_calloc(S->gov->nr_params, sizeof(*S->params));
		if (!S->params)
			goto nomem;
		for (i = 0; i < S->gov->nr_params; i++)
			S->params[i] = cfg->gov_params ? cfg->gov_params[i] : S->gov->params[i].def;
	}
	S->q = eventq_new(cfg->queue, (uint32_t)cfg->nr_cpus + (cfg->agent ? cfg->agent_timers : 0));
	S->energy = energy_new(m, cfg->nr_cpus, start_ns, S->lanes);
	if (!S->q || !S->energy)
		goto nomem;
	for (k = 0; k < cfg->nr_shadows; k++)
		any_file |= cfg->shadows[k].gov->file != NULL;
	if ((S->gov->file || any_file) && !(S->guard = govguard_create(cfg->gov_timeout_ns, err))) {
		sim_destroy(S);
		return NULL;
	}
	if (init_cpus(S, err) || init_shadows(S, err)) {
		sim_destroy(S);
		return NULL;
	}
	return S;
nomem:
	sim_destroy(S);
	sim_error_nomem(err, "");
	return NULL;
}

void sim_destroy(struct sim *S)
{
	int i;

	if (!S)
		return;
	if (S->cpus) {
		for (i = 0; i < S->cfg.nr_cpus; i++) {
			/* A governor file's: isolated, and not after one of its calls went wrong
			 * (its state is garbage then); a fault here is ignored, the run is over. */
			if (S->gov->disable && S->gov->file && !S->gov_failed)
				S->gov_failed = govguard_disable(S->guard, S->gov, &S->drv,
								 &S->cpus[i].dev) != 0;
			else if (S->gov->disable && !S->gov->file)
				S->gov->disable(&S->drv, &S->cpus[i].dev);
			shadows_disable(S, i);
			if (!ring_in_slab(S, &S->cpus[i]))
				sim_free(S->cpus[i].ring);
			lat_hist_release(&S->cpus[i].st.wake_latency);
		}
	}
	for (i = 0; i < S->nr_shadows; i++) {
		sim_free(S->shadow[i].params);
		sim_free(S->shadow[i].gov_data);
		sim_free(S->shadow[i].devs);
		sim_free(S->shadow[i].ex);
	}
	sim_free(S->cpus);
	sim_free(S->ring_slab);
	sim_free(S->lat_stage);
	sim_free(S->xbufs);
	sim_free(S->gov_data);
	sim_free(S->params);
	eventq_free(S->q);
	energy_free(S->energy);
	govguard_destroy(S->guard);
	sim_free(S);
}

const struct jiffy_grid *sim_grid(const struct sim *S)
{
	return &S->grid;
}

void sim_set_tick_phase(struct sim *S, int64_t phase_ns)
{
	jiffy_grid_init(&S->grid, S->cfg.hz, S->tick_nsec, phase_ns);
}

int64_t sim_lookahead_ns(const struct sim *S)
{
	return S->lookahead_ns;
}

/*
 * Conservation, per CPU: busy time, the time of its completed entries and the entry cut by
 * the end add up to the run's span exactly; every completed entry has a cause; every period
 * fed was woken out of an idle state, absorbed, polled through, or is still pending. And
 * every core and package accounted the whole span. Checked at the end of every run (its
 * cost is O(CPUs x states)); a violation is an internal error.
 */
static int check_conservation(struct sim *S, const struct run_stats *rs)
{
	int64_t span = rs->end_ns - rs->start_ns;
	int i, k;

	for (i = 0; i < rs->nr_cpus; i++) {
		const struct cpu_stats *cs = &rs->cpus[i];
		int64_t sum = cs->busy_ns + cs->truncated_ns;
		uint64_t usage = 0, causes = 0, ended;

		for (k = 0; k < rs->state_count; k++) {
			sum += (int64_t)cs->states[k].time_ns;
			usage += cs->states[k].usage;
		}
		for (k = 0; k < WAKE_NR_CAUSES; k++)
			causes += cs->wakeups[k];
		ended = cs->wakeups[WAKE_TIMER] + cs->wakeups[WAKE_IRQ] + cs->wakeups[WAKE_IPI] +
			cs->absorbed + cs->polled + S->cpus[i].count;
		if (sum != span || usage != causes || ended != S->cpus[i].fed || cs->spilled_ns < 0)
			return sim_error_set(S->err, SIM_ERR_INTERNAL, "", 0, 0,
					     "conservation broken on CPU %d: %lld ns accounted for a "
					     "%lld ns span, %llu entries for %llu causes, %llu of %llu "
					     "periods ended, %lld ns spilled",
					     i, (long long)sum, (long long)span,
					     (unsigned long long)usage, (unsigned long long)causes,
					     (unsigned long long)ended,
					     (unsigned long long)S->cpus[i].fed,
					     (long long)cs->spilled_ns);
	}
	/* Every core and every package spent the whole span at its levels. */
	return energy_check(S->energy, span, S->err);
}

/*
 * The work the trace does before the end that this CPU had not done by then: it runs
 * behind the trace (busy, by its delay; or leaving a state past the end, from the trace
 * time it had reached), and what the trace does in between, less its idle time, spills.
 */
static int64_t spilled_work(const struct sim *S, const struct sim_cpu *c, int64_t end)
{
	int64_t pos, idle = 0;
	uint32_t i, first;

	if (S->cfg.agent)
		return 0;
	if (c->phase == CPU_BUSY) {
		pos = end - c->delay_ns;
		first = 0;
	} else if (c->cut) {
		pos = c->trace_pos_ns;
		first = 1; /* the period it is leaving */
	} else if (c->count && c->ring[c->head].wake_ns < end) {
		/* still idle, its wakeup late (moved up to the jiffy grid) past the end: the
		 * trace's work from the recorded wakeup on spills */
		pos = c->ring[c->head].wake_ns;
		first = 1;
	} else {
		return 0;
	}
	for (i = first; i < c->count; i++) {
		const struct opp *o = &c->ring[(c->head + i) & (c->cap - 1)];
		int64_t a = sim_max64(o->start_ns, pos), b = sim_min64(o->wake_ns, end);

		if (o->start_ns >= end)
			break;
		if (b > a)
			idle += b - a;
	}
	return sim_max64(0, end - pos) - idle;
}

void sim_set_end(struct sim *S, int64_t end_ns)
{
	S->end_ns = sim_max64(end_ns, S->start_ns);
}

int sim_finish(struct sim *S, int64_t end_ns, struct run_stats *out, struct sim_error *err)
{
	const struct machine *m = S->cfg.machine;
	int i, k;

	memset(out, 0, sizeof(*out));
	/* and the totals over CPUs must fit: (end - start) x CPUs <= 2^62 (FORMAT.md) */
	if (end_ns > SIM_TIME_MAX_NS || end_ns - S->start_ns > SIM_TIME_MAX_NS / S->cfg.nr_cpus)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "end %lld ns is beyond the engine's limit, 2^62 ns, or "
				     "2^62 ns of CPU time from the start",
				     (long long)end_ns);
	sim_set_end(S, end_ns);
	end_ns = S->end_ns;
	if (sim_run_until(S, end_ns, err))
		return -1;
	if (energy_close(S->energy, end_ns))
		return sim_error_nomem(err, "");
	/* Wakeups that arrived while the CPU was busy and whose work had not started by the
	 * end stay pending: their latency is not known yet. The latencies held back
	 * (lat_stage) and the full exits, counted apart, join each histogram here, before out
	 * owns any of them: a failure leaves everything to sim_destroy() and nothing in out. */
	for (i = 0; i < S->cfg.nr_cpus; i++)
		if (lat_unstage(&S->cpus[i]))
			return sim_error_nomem(err, "");
	for (i = 0; i < S->cfg.nr_cpus; i++)
		for (k = 0; k < S->drv.state_count; k++)
			if (S->cpus[i].exit_lat_count[k] &&
			    lat_hist_add(&S->cpus[i].st.wake_latency, S->wake_fixed_ns[k],
					 S->cpus[i].exit_lat_count[k]))
				return sim_error_nomem(err, "");
	out->cpus = sim_calloc((size_t)S->cfg.nr_cpus, sizeof(*out->cpus));
	if (!out->cpus)
		return sim_error_nomem(err, "");
	out->nr_cpus = S->cfg.nr_cpus;
	out->state_count = S->drv.state_count;
	out->start_ns = S->start_ns;
	out->end_ns = end_ns;
	for (i = 0; i < S->drv.state_count; i++)
		memcpy(out->state_names[i], S->drv.states[i].name, CPUIDLE_NAME_LEN);
	for (i = 0; i < S->cfg.nr_cpus; i++) {
		struct sim_cpu *c = &S->cpus[i];

		if (c->phase == CPU_IDLE) {
			c->st.truncated_ns += end_ns - c->entry_ns;
			explain_truncated(S, c, end_ns);
		}
		else if (c->phase == CPU_BUSY)
			c->st.busy_ns += sim_max64(0, end_ns - c->busy_from_ns);
		c->st.spilled_ns = spilled_work(S, c, end_ns);
		memcpy(c->st.states, c->dev.states_usage, sizeof(c->st.states));
		out->cpus[i] = c->st;
		/* The histogram's buckets now belong to out. */
		c->st.wake_latency.chunks = NULL;
	}
	energy_price(S->energy, &out->energy_j, &out->idle_energy_j, &out->package_energy_j);
	/* Summed per state, then over CPUs: the same whatever order the CPUs ran in. */
	for (i = 0; i < S->cfg.nr_cpus; i++)
		for (k = 0; k < S->drv.state_count; k++)
			out->transition_energy_j +=
				(double)S->cpus[i].entered[k] * m->states[k].entry_exit_energy_j;
	out->cpu_energy_j = energy_price_cpus(S->energy) + out->transition_energy_j;
	out->energy_j += out->transition_energy_j;
	out->idle_energy_j += out->transition_energy_j;
	if (run_stats_sum(out)) {
		run_stats_release(out);
		return sim_error_nomem(err, "");
	}
	if (check_conservation(S, out)) {
		run_stats_release(out);
		return -1;
	}
	return 0;
}
