// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_wake.c - the actual hardware wake latency of a machine's states, apart from the
 * advertised exit latency governors see (sim/machine/machine.h, docs/wake-latency.md): the run's
 * model (worst, typical, measured), the per-state values it yields, the inverse CDF that
 * samples a measured distribution, and the checks machine_validate() runs on them.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"

#include <math.h>
#include <string.h>

static const char *const model_names[] = {
	[WAKE_MODEL_WORST] = "worst",
	[WAKE_MODEL_TYPICAL] = "typical",
	[WAKE_MODEL_MEASURED] = "measured",
};

const char *wake_model_name(enum wake_model w)
{
	return (unsigned int)w < SIM_ARRAY_SIZE(model_names) ? model_names[w] : "?";
}

int wake_model_parse(const char *s, enum wake_model *out)
{
	unsigned int i;

	for (i = 0; s && i < SIM_ARRAY_SIZE(model_names); i++)
		if (!strcmp(s, model_names[i])) {
			*out = (enum wake_model)i;
			return 0;
		}
	return -1;
}

bool machine_has_wake_dist(const struct machine *m)
{
	int i;

	for (i = 0; i < m->state_count; i++)
		if (m->states[i].wake.kind == MACHINE_WAKE_DIST)
			return true;
	return false;
}

int machine_check_wake_model(const struct machine *m, enum wake_model model,
			     struct sim_error *err)
{
	if (model != WAKE_MODEL_MEASURED || machine_has_wake_dist(m))
		return 0;
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "--wake-latency measured: machine %s has no measured wake-latency "
			     "distribution (make one with idlesim machines calibrate --wult "
			     "datapoints.csv --machine %s -o FILE.json)",
			     m->name, m->name);
}

int64_t machine_wake_fixed_ns(const struct machine_state *s, enum wake_model model)
{
	if (model == WAKE_MODEL_WORST || s->wake.kind == MACHINE_WAKE_WORST)
		return s->exit_latency_ns;
	if (model == WAKE_MODEL_MEASURED && s->wake.kind == MACHINE_WAKE_DIST)
		return -1;
	return s->wake.typical_ns;
}

double machine_wake_mean_ns(const struct machine_state *s, enum wake_model model)
{
	const struct machine_wake *w = &s->wake;
	int64_t fixed = machine_wake_fixed_ns(s, model);
	double mean = 0;
	int k;

	if (fixed >= 0)
		return (double)fixed;
	/* the inverse CDF is linear on each [p(k-1), p(k)]: its mean there is the midpoint */
	for (k = 1; k < w->nr_quantiles; k++)
		mean += (w->q_p[k] - w->q_p[k - 1]) * 0.5 * (double)(w->q_ns[k - 1] + w->q_ns[k]);
	return mean;
}

int64_t machine_wake_max_ns(const struct machine_state *s)
{
	int64_t m = sim_max64(s->exit_latency_ns, s->wake.typical_ns);

	if (s->wake.kind == MACHINE_WAKE_DIST && s->wake.nr_quantiles > 0)
		m = sim_max64(m, s->wake.q_ns[s->wake.nr_quantiles - 1]);
	return m;
}

int64_t machine_wake_quantile_ns(const struct machine_wake *w, double u)
{
	int k;

	if (w->nr_quantiles < 1)
		return w->typical_ns;
	if (u <= w->q_p[0])
		return w->q_ns[0];
	for (k = 1; k < w->nr_quantiles; k++) {
		double t;

		if (u > w->q_p[k])
			continue;
		t = (u - w->q_p[k - 1]) / (w->q_p[k] - w->q_p[k - 1]);
		return w->q_ns[k - 1] +
		       (int64_t)llround(t * (double)(w->q_ns[k] - w->q_ns[k - 1]));
	}
	return w->q_ns[w->nr_quantiles - 1];
}

/*
 * States[i].wake_latency: a typical value and quantiles within the kernel's range of times,
 * quantiles from p = 0 to p = 1 strictly increasing with non-decreasing latencies, and no
 * model on a polling state (it has no exit to take).
 */
int machine_validate_wake(const struct machine *m, int i, const struct where *w)
{
	const struct machine_state *s = &m->states[i];
	const struct machine_wake *wk = &s->wake;
	char p[PATH_LEN];
	int k;

	snprintf(p, sizeof(p), "states[%d].wake_latency", i);
	if (wk->kind == MACHINE_WAKE_WORST)
		return 0;
	if (wk->kind != MACHINE_WAKE_TYPICAL && wk->kind != MACHINE_WAKE_DIST)
		return machine_fail(w, p, "%s: unknown model %d", p, (int)wk->kind);
	if (s->flags & CPUIDLE_FLAG_POLLING)
		return machine_fail(w, p,
				    "%s: a polling state has no exit to model; leave it out or "
				    "make it \"worst\"",
				    p);
	if (wk->typical_ns < 0 || wk->typical_ns > STATE_MAX_NS)
		return machine_fail(w, p, "%s.typical_ns %lld is out of range 0..%lld", p,
				    (long long)wk->typical_ns, (long long)STATE_MAX_NS);
	if (wk->kind == MACHINE_WAKE_TYPICAL)
		return 0;
	if (wk->nr_quantiles < 2 || wk->nr_quantiles > MACHINE_WAKE_MAX_QUANTILES)
		return machine_fail(w, p, "%s.quantiles: %d points, need 2..%d", p,
				    wk->nr_quantiles, MACHINE_WAKE_MAX_QUANTILES);
	for (k = 0; k < wk->nr_quantiles; k++) {
		char q[PATH_LEN + 24];

		snprintf(q, sizeof(q), "%s.quantiles[%d]", p, k);
		if (!isfinite(wk->q_p[k]) || wk->q_p[k] < 0 || wk->q_p[k] > 1)
			return machine_fail(w, q, "%s: probability %g is not in [0, 1]", q,
					    wk->q_p[k]);
		if (wk->q_ns[k] < 0 || wk->q_ns[k] > STATE_MAX_NS)
			return machine_fail(w, q, "%s: latency %lld ns is out of range 0..%lld", q,
					    (long long)wk->q_ns[k], (long long)STATE_MAX_NS);
		if (k && wk->q_p[k] <= wk->q_p[k - 1])
			return machine_fail(w, q, "%s: probabilities must increase strictly", q);
		if (k && wk->q_ns[k] < wk->q_ns[k - 1])
			return machine_fail(w, q,
					    "%s: latencies must not decrease with probability", q);
	}
	if (wk->q_p[0] != 0.0 || wk->q_p[wk->nr_quantiles - 1] != 1.0) {
		char q[PATH_LEN + 16];

		snprintf(q, sizeof(q), "%s.quantiles", p);
		return machine_fail(w, q, "%s must run from p = 0 to p = 1", q);
	}
	return 0;
}
