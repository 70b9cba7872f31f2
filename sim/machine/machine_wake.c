// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_wake.c - the actual hardware wake latency of a machine's states, apart from the
 * advertised exit latency governors see (sim/machine/machine.h, docs/wake-latency.md): the run's
 * model (worst, typical, measured), the per-state values it yields, the inverse CDF that
 * samples a measured distribution (its checks are in sim/machine/machine_check.c).
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
