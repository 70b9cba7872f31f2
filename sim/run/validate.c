// SPDX-License-Identifier: GPL-2.0-only
/*
 * validate.c - one governor fed a kernel trace's recorded history, asked at every recorded
 * entry, its choice compared with the kernel's (sim/run/validate.h).
 */
#include "sim/run/validate.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/engine/govguard.h"
#include "sim/engine/wheel.h"
#include "sim/import/import.h"
#include "sim/machine/cpuidle_rules.h"

#include <string.h>

struct vcpu {
	bool model_stopped; /* the tick as the engine's rule leaves it after our last answer */
};

struct vctx {
	const struct validate_request *req;
	struct validate_result *out;
	const struct cpuidle_governor *gov;
	struct govguard *guard;
	struct cpuidle_driver drv;
	struct cpuidle_device *devs;
	struct cpuidle_explain *ex;
	struct vcpu *cpu;
	unsigned char *data;
	long long *params;
	int nr_cpus, hz;
	int64_t latency_req_ns;
	struct sim_error err; /* the first failure, reported once the trace is read */
};

void validate_lacked_text(char *buf, size_t n, unsigned lacked)
{
	static const char *const what[] = { "sleep length (no timer events)",
					    "tick state (no tick_stop events)",
					    "task switches (no sched_switch)",
					    "PM QoS limit (the request's)" };
	size_t len = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < SIM_ARRAY_SIZE(what) && len < n; k++)
		if (lacked & (1u << k))
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", what[k]);
}

/* A governor file's call went wrong: name the file, the call, the CPU and the time. */
static void call_failed(struct vctx *V, const char *fn, int outcome, int cpu, int64_t t)
{
	char sig[32];

	sim_error_set(&V->err, SIM_ERR_INPUT, V->gov->file, 0, 0,
		      "%s() %s at CPU %d, t=%lld.%06lld s", fn,
		      outcome == GOVGUARD_TIMEOUT ? "did not return in time"
						  : govguard_signal_name(outcome, sig, sizeof(sig)),
		      cpu, (long long)(t / SIM_NS_PER_S), (long long)(t % SIM_NS_PER_S / 1000));
}

static void on_entry(void *ud, const struct import_idle_entry *e)
{
	struct vctx *V = ud;
	struct validate_result *R = V->out;
	struct cpuidle_device *dev;
	struct cpuidle_env *env;
	int64_t tick_ns = e->tick_ns ? e->tick_ns : (SIM_NS_PER_S + V->hz / 2) / V->hz;
	struct jiffy_grid grid;
	unsigned lacked = VALIDATE_QOS_ASSUMED;
	bool stop_tick = true;
	int idx = -1, outcome = 0;

	if (V->err.code != SIM_OK || e->cpu >= V->nr_cpus)
		return;
	if (e->state >= V->drv.state_count) {
		sim_error_set(&V->err, SIM_ERR_INPUT, R->trace, 0, 0,
			      "CPU %d at %lld.%09lld s entered state %d, beyond machine %s's table "
			      "(%d states, 0..%d): give the recording machine (--machine)",
			      e->cpu, (long long)(e->time_ns / SIM_NS_PER_S),
			      (long long)(e->time_ns % SIM_NS_PER_S), e->state, R->mach.name,
			      V->drv.state_count, V->drv.state_count - 1);
		return;
	}
	dev = &V->devs[e->cpu];
	env = &dev->env;
	env->now_ns = e->time_ns;
	env->next_timer_ns = e->next_timer_ns;
	env->next_wheel_ns = e->next_wheel_ns;
	/* the tick's hrtimer, while the tick runs, is armed at the next edge; else the grid's */
	if (e->tick_expiry_ns != INT64_MAX && e->tick_expiry_ns <= e->time_ns + tick_ns) {
		env->next_tick_ns = e->tick_expiry_ns;
	} else {
		jiffy_grid_init(&grid, V->hz, tick_ns, e->tick_ns ? e->tick_phase_ns : 0);
		env->next_tick_ns = jiffy_edge_after(&grid, e->time_ns);
	}
	env->oracle_wake_ns = KTIME_MAX;
	env->latency_req_ns = V->latency_req_ns;
	env->load_read = false;
	if (e->first)
		V->cpu[e->cpu].model_stopped = false;
	if (e->first)
		env->tick_stopped = false;
	else if (e->tick_stop_known)
		env->tick_stopped = e->tick_stopped;
	else
		env->tick_stopped = V->cpu[e->cpu].model_stopped;
	if (!e->timers_known)
		lacked |= VALIDATE_NO_TIMERS;
	if (!e->tick_stop_known && !e->first)
		lacked |= VALIDATE_TICK_GUESSED;
	if (!e->switches_known)
		lacked |= VALIDATE_NO_SWITCHES;
	for (unsigned k = 0; k < 4; k++)
		R->lacked[k] += (lacked >> k) & 1;
	V->ex[e->cpu].nr = 0;
	if (V->gov->file)
		outcome = govguard_select(V->guard, V->gov, &V->drv, dev, &stop_tick, &idx);
	else
		idx = V->gov->select(&V->drv, dev, &stop_tick);
	if (outcome) {
		call_failed(V, "select", outcome, e->cpu, e->time_ns);
		return;
	}
	if (idx < 0 || idx >= V->drv.state_count) {
		sim_error_set(&V->err, V->gov->file ? SIM_ERR_INPUT : SIM_ERR_INTERNAL,
			      V->gov->file ? V->gov->file : "", 0, 0,
			      "select() returned %d at CPU %d: the driver has %d states", idx,
			      e->cpu, V->drv.state_count);
		return;
	}
	/* tick_nohz_idle_stop_tick(), as the engine applies it, for entries whose tick
	 * state the trace does not tell */
	if (stop_tick && env->next_wheel_ns > env->next_tick_ns)
		V->cpu[e->cpu].model_stopped = true;
	R->entries++;
	R->cpus[e->cpu].entries++;
	R->matrix[e->state][idx]++;
	if (idx == e->state) {
		R->agree++;
		R->cpus[e->cpu].agree++;
		return;
	}
	if ((long)R->nr_dis < V->req->keep) {
		struct validate_disagreement *d = &R->dis[R->nr_dis++];

		d->cpu = e->cpu;
		d->time_ns = e->time_ns;
		d->kernel = e->state;
		d->ours = idx;
		d->stop_tick = stop_tick;
		d->tick_stopped = env->tick_stopped;
		d->sleep_length_ns = e->next_timer_ns == INT64_MAX ? INT64_MAX
								   : e->next_timer_ns - e->time_ns;
		d->lacked = lacked;
		d->ex = V->ex[e->cpu];
	}
}

/* cpuidle_enter_state() then cpuidle_reflect(), with the kernel's state and residency. */
static void on_exit(void *ud, const struct import_idle_exit *x)
{
	struct vctx *V = ud;
	struct cpuidle_device *dev;
	int64_t diff = x->time_ns - x->entry_ns;
	int outcome = 0;

	if (V->err.code != SIM_OK || x->cpu >= V->nr_cpus || x->state >= V->drv.state_count)
		return;
	dev = &V->devs[x->cpu];
	cpuidle_account(&V->drv, dev->states_usage, x->state, diff);
	dev->last_residency_ns = diff;
	dev->last_state_idx = x->state;
	/* poll_idle() clears it on entry and sets it when its time limit ends the loop; other
	 * states leave it as it was */
	if (V->drv.states[x->state].flags & CPUIDLE_FLAG_POLLING)
		dev->poll_time_limit = diff >= (int64_t)cpuidle_poll_time(&V->drv, dev);
	dev->env.now_ns = x->time_ns;
	dev->env.got_tick = x->got_tick;
	if (!V->gov->reflect)
		return;
	if (V->gov->file)
		outcome = govguard_reflect(V->guard, V->gov, dev, x->state);
	else
		V->gov->reflect(dev, x->state);
	if (outcome)
		call_failed(V, "reflect", outcome, x->cpu, x->time_ns);
}

/* Devices for every CPU of the trace, the governor enabled on each. */
static int setup(struct vctx *V, const struct machine *m, uint32_t mask, struct sim_error *err)
{
	size_t priv = (V->gov->priv_size + 15) & ~(size_t)15;
	int i, k;

	machine_to_driver(m, &V->drv);
	V->devs = sim_calloc((size_t)V->nr_cpus, sizeof(*V->devs));
	V->ex = sim_calloc((size_t)V->nr_cpus, sizeof(*V->ex));
	V->cpu = sim_calloc((size_t)V->nr_cpus, sizeof(*V->cpu));
	V->out->cpus = sim_calloc((size_t)V->nr_cpus, sizeof(*V->out->cpus));
	V->out->dis = V->req->keep > 0 ? sim_calloc((size_t)V->req->keep, sizeof(*V->out->dis)) : NULL;
	V->data = priv ? sim_calloc((size_t)V->nr_cpus, priv) : NULL;
	if (!V->devs || !V->ex || !V->cpu || !V->out->cpus || (V->req->keep > 0 && !V->out->dis) ||
	    (priv && !V->data))
		return sim_error_nomem(err, "");
	V->out->nr_cpus = V->nr_cpus;
	if (V->gov->file && !(V->guard = govguard_create(V->req->run.gov_timeout_ns, err)))
		return -1;
	for (i = 0; i < V->nr_cpus; i++) {
		struct cpuidle_device *dev = &V->devs[i];
		int ret = 0, outcome = 0;

		dev->cpu = (unsigned int)i;
		dev->last_state_idx = -1;
		for (k = 0; k < V->drv.state_count; k++)
			if (mask & (1u << k))
				dev->states_usage[k].disable = CPUIDLE_STATE_DISABLED_BY_USER;
		dev->governor_data = priv ? V->data + (size_t)i * priv : NULL;
		dev->gov_params = V->params;
		dev->explain = &V->ex[i];
		dev->env.tick_nsec = (SIM_NS_PER_S + V->hz / 2) / V->hz;
		dev->env.latency_req_ns = V->latency_req_ns;
		dev->env.next_timer_ns = dev->env.next_wheel_ns = KTIME_MAX;
		dev->env.oracle_wake_ns = KTIME_MAX;
		if (!V->gov->enable)
			continue;
		if (V->gov->file)
			outcome = govguard_enable(V->guard, V->gov, &V->drv, dev, &ret);
		else
			ret = V->gov->enable(&V->drv, dev);
		if (outcome || ret)
			return sim_error_set(err, SIM_ERR_INPUT, V->gov->file ? V->gov->file : "", 0,
					     0, "%s: enable() failed on CPU %d", V->gov->name, i);
	}
	return 0;
}

static void release(struct vctx *V)
{
	int i;

	if (V->devs && V->gov->disable && !V->gov->file)
		for (i = 0; i < V->nr_cpus; i++)
			V->gov->disable(&V->drv, &V->devs[i]);
	govguard_destroy(V->guard);
	sim_free(V->devs);
	sim_free(V->ex);
	sim_free(V->cpu);
	sim_free(V->data);
	sim_free(V->params);
}

int validate_run(const struct validate_request *req, struct validate_result *out,
		 struct sim_error *err)
{
	struct vctx V = { 0 };
	struct run_request q = req->run;
	struct import_hooks hooks = { on_entry, on_exit, &V };
	struct import_options io = { 0 };
	struct importer *im = NULL;
	struct trace_record rec;
	uint32_t mask;
	int rc;

	memset(out, 0, sizeof(*out));
	V.req = req;
	V.out = out;
	V.gov = gov_find(req->governor);
	if (!V.gov)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "unknown governor '%s' (see idlesim governors)", req->governor);
	snprintf(out->trace, sizeof(out->trace), "%s", req->name ? req->name : req->trace);
	snprintf(out->governor, sizeof(out->governor), "%s", V.gov->name);
	q.governors[0] = req->governor;
	q.nr_governors = 1;
	if (run_check_sets_apply(q.sets, q.nr_sets, &V.gov, 1, err) ||
	    run_gov_params(&q, V.gov, &V.params, err) ||
	    run_load_machine(&q, req->machine, &out->mach, err) ||
	    run_disabled_mask(&q, &out->mach, &mask, err))
		goto fail;
	V.latency_req_ns = q.latency_req_ns < 0
				   ? (int64_t)PM_QOS_CPU_LATENCY_DEFAULT_VALUE * NSEC_PER_USEC
				   : q.latency_req_ns;
	io.machine = &out->mach;
	io.disabled = mask;
	io.hz = q.hz;
	io.name = req->name;
	io.hooks = &hooks;
	if (import_probe(req->trace) == IMPORT_NATIVE) {
		sim_error_set(err, SIM_ERR_INPUT, req->name ? req->name : req->trace, 0, 0,
			      "an idlesim trace holds no kernel choice: validate reads a kernel "
			      "trace (ftrace, trace-cmd, perf, trace.dat) with cpu_idle events");
		goto fail;
	}
	im = import_open(req->trace, &io, err);
	if (!im)
		goto fail;
	V.nr_cpus = import_header(im)->cpus;
	V.hz = q.hz ? q.hz : import_header(im)->hz ? import_header(im)->hz : 250;
	out->hz = V.hz;
	if (setup(&V, &out->mach, mask, err))
		goto fail;
	while ((rc = import_next(im, &rec, err)) == 1)
		if (V.err.code != SIM_OK)
			break;
	if (rc < 0)
		goto fail;
	if (V.err.code != SIM_OK) {
		*err = V.err;
		goto fail;
	}
	if (!out->entries) {
		sim_error_set(err, SIM_ERR_INPUT, out->trace, 0, 0,
			      "no complete cpu_idle entry to validate (the CPUs' entries and exits "
			      "do not pair)");
		goto fail;
	}
	import_close(im);
	release(&V);
	return 0;
fail:
	import_close(im);
	release(&V);
	validate_result_free(out);
	return -1;
}

void validate_result_free(struct validate_result *r)
{
	sim_free(r->cpus);
	sim_free(r->dis);
	r->cpus = NULL;
	r->dis = NULL;
	r->nr_dis = 0;
}
