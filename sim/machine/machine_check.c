// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_check.c - machine_validate(): every field of a machine in the kernel's range and
 * consistent with the others, errors placed in the JSON text when there is one. The bottom of
 * the machine layer's loaders: sim/machine/machine_json.c and the built-ins' users call it,
 * and it calls nothing of theirs.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/base/common.h"
#include "sim/base/jsonpos.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- machine_validate ---- */

static bool terminated(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

static int check_count(const struct json_where *w, const char *field, int value)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "topology.%s", field);
	if (value < 1)
		return jsonpos_fail(w, path, "%s must be at least 1, not %d", path, value);
	return 0;
}

/* A hybrid machine's kinds: cores and threads are their sum and maximum (machine.h). */
static int validate_core_types(const struct machine *m, const struct json_where *w,
			       long long *cpus)
{
	long long cores = 0, per_package = 0;
	int threads = 0, k;

	if (m->nr_core_types < 0 || m->nr_core_types > MACHINE_MAX_CORE_TYPES)
		return jsonpos_fail(w, "topology.core_types", "%d core types; at most %d",
				    m->nr_core_types, MACHINE_MAX_CORE_TYPES);
	for (k = 0; k < m->nr_core_types; k++) {
		const struct machine_core_type *t = &m->core_types[k];
		char path[PATH_LEN];

		snprintf(path, sizeof(path), "topology.core_types[%d]", k);
		if (!terminated(t->name, sizeof(t->name)) || !t->name[0])
			return jsonpos_fail(w, path, "%s has no name", path);
		if (t->cores < 1 || t->threads < 1 || t->cores > MACHINE_MAX_CPUS ||
		    t->threads > MACHINE_MAX_CPUS)
			return jsonpos_fail(w, path, "%s: cores and threads must be 1..%d", path,
					    MACHINE_MAX_CPUS);
		if (!isfinite(t->active_core_power_w) || t->active_core_power_w < 0 ||
		    t->active_core_power_w > MACHINE_POWER_MAX_W)
			return jsonpos_fail(w, path, "%s: active core power %g must be in 0..%g W",
					    path, t->active_core_power_w, MACHINE_POWER_MAX_W);
		cores += t->cores;
		per_package += (long long)t->cores * t->threads;
		threads = t->threads > threads ? t->threads : threads;
	}
	if (cores != m->cores || threads != m->threads)
		return jsonpos_fail(w, "topology",
				    "topology: cores %d and threads %d are not the core types' sum "
				    "%lld and maximum %d",
				    m->cores, m->threads, cores, threads);
	*cpus = m->packages * per_package;
	return 0;
}

static int validate_topology(const struct machine *m, const struct json_where *w)
{
	long long cpus;

	if (check_count(w, "packages", m->packages) || check_count(w, "cores", m->cores) ||
	    check_count(w, "threads", m->threads))
		return -1;
	cpus = (long long)m->packages * m->cores * m->threads;
	if (m->nr_core_types && validate_core_types(m, w, &cpus))
		return -1;
	if (m->llc_cores < 0 || (m->llc_cores && m->cores % m->llc_cores))
		return jsonpos_fail(w, "topology.llc_cores",
				    "topology.llc_cores %d must divide the %d cores of a package",
				    m->llc_cores, m->cores);
	if (m->llc_cores && m->nr_core_types)
		return jsonpos_fail(w, "topology.llc_cores",
				    "topology.llc_cores is for uniform machines, not core_types");
	if (cpus > MACHINE_MAX_CPUS)
		return jsonpos_fail(
			w, "topology",
			"topology has %lld CPUs (%d x %d x %d); at most %d are supported", cpus,
			m->packages, m->cores, m->threads, MACHINE_MAX_CPUS);
	return 0;
}

/*
 * Every power and energy, given or derived by the break-even rule, within the limits a
 * machine file may state (MACHINE_POWER_MAX_W, MACHINE_ENERGY_MAX_J): a derived value over
 * the limit would be written by `machines --json` and then refused when read back.
 */
static int check_power(const struct json_where *w, const char *path, const char *what, double v,
		       double max, const char *unit)
{
	if (!isfinite(v) || v < 0)
		return jsonpos_fail(w, path, "%s %g must be finite and >= 0", what, v);
	if (v > max)
		return jsonpos_fail(w, path, "%s %.9g %s is over the limit %g %s%s", what, v, unit,
				    max, unit,
				    strcmp(unit, "J") ? ""
						      : " (a missing energy is derived from the previous"
							" state's energy and power step)");
	return 0;
}

static int validate_machine_fields(const struct machine *m, const struct json_where *w)
{
	if (!terminated(m->name, sizeof(m->name)) || !terminated(m->desc, sizeof(m->desc)) ||
	    !terminated(m->driver, sizeof(m->driver)))
		return jsonpos_fail(w, NULL,
				    "machine name, description or driver is not NUL-terminated");
	if (validate_topology(m, w))
		return -1;
	if (check_power(w, "power.active_core_w", "active core power", m->active_core_power_w,
			MACHINE_POWER_MAX_W, "W") ||
	    check_power(w, "power.active_package_w", "active package power",
			m->active_package_power_w, MACHINE_POWER_MAX_W, "W"))
		return -1;
	if (m->state_count < 1 || m->state_count > CPUIDLE_STATE_MAX)
		return jsonpos_fail(w, "states", "a machine has 1 to %d states, not %d",
				    CPUIDLE_STATE_MAX, m->state_count);
	return 0;
}

static int validate_name(const struct machine *m, int i, const struct json_where *w, const char *path)
{
	const struct machine_state *s = &m->states[i];
	int j;

	if (!terminated(s->name, sizeof(s->name)) || !terminated(s->desc, sizeof(s->desc)))
		return jsonpos_fail(w, path, "state %d: name or desc is not NUL-terminated", i);
	if (!s->name[0])
		return jsonpos_fail(w, path, "state %d has an empty name", i);
	for (j = 0; j < i; j++)
		if (!strcasecmp(m->states[j].name, s->name))
			return jsonpos_fail(
				w, path,
				"state %d (%s): the name is already used by state %d (%s); "
				"state names must be unique (case-insensitive)",
				i, s->name, j, m->states[j].name);
	return 0;
}

static unsigned int known_flags(void)
{
	unsigned int mask = 0;
	int bit;

	for (bit = 0; bit < FLAG_BITS; bit++)
		if (machine_flag_names[bit])
			mask |= 1u << bit;
	return mask;
}

static int validate_flags(const struct machine *m, int i, const struct json_where *w, const char *path)
{
	const struct machine_state *s = &m->states[i];
	unsigned int unknown = s->flags & ~known_flags();

	if (unknown)
		return jsonpos_fail(w, path, "state %d (%s): unknown flag bits 0x%x", i, s->name,
				    unknown);
	if (i > 0 && (s->flags & CPUIDLE_FLAG_POLLING))
		return jsonpos_fail(
			w, path,
			"state %d (%s): only state 0 may be a POLLING state (the kernel's POLL "
			"is always first)",
			i, s->name);
	return 0;
}

/* One time field of state i: in range, and not below `prev`, the value of state i-1. */
static int validate_time(const struct machine *m, int i, const struct json_where *w, const char *field,
			 const char *what, int64_t v, int64_t prev)
{
	const struct machine_state *s = &m->states[i];
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "states[%d].%s", i, field);
	if (v < 0 || v > STATE_MAX_NS)
		return jsonpos_fail(w, path, "state %d (%s): %s %lld ns is out of range 0..%lld ns",
				    i, s->name, what, (long long)v, (long long)STATE_MAX_NS);
	if (i > 0 && v < prev)
		return jsonpos_fail(
			w, path,
			"state %d (%s): %s %lld ns is below that of state %d (%s), %lld ns; "
			"states must be ordered from shallowest to deepest",
			i, s->name, what, (long long)v, i - 1, s[-1].name, (long long)prev);
	return 0;
}

static int validate_powers(const struct machine *m, int i, const struct json_where *w)
{
	const struct machine_state *s = &m->states[i];
	char path[PATH_LEN], what[64];

	snprintf(what, sizeof(what), "state %d (%s): core power", i, s->name);
	snprintf(path, sizeof(path), "states[%d].core_power_w", i);
	if (check_power(w, path, what, s->core_power_w, MACHINE_POWER_MAX_W, "W"))
		return -1;
	snprintf(what, sizeof(what), "state %d (%s): package power", i, s->name);
	snprintf(path, sizeof(path), "states[%d].package_power_w", i);
	if (check_power(w, path, what, s->package_power_w, MACHINE_POWER_MAX_W, "W"))
		return -1;
	snprintf(what, sizeof(what), "state %d (%s): entry+exit energy", i, s->name);
	snprintf(path, sizeof(path), "states[%d].entry_exit_energy_j", i);
	return check_power(w, path, what, s->entry_exit_energy_j, MACHINE_ENERGY_MAX_J, "J");
}

static int validate_state(const struct machine *m, int i, const struct json_where *w)
{
	const struct machine_state *s = &m->states[i], *p = i ? s - 1 : s;
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "states[%d].name", i);
	if (validate_name(m, i, w, path))
		return -1;
	snprintf(path, sizeof(path), "states[%d].flags", i);
	if (validate_flags(m, i, w, path))
		return -1;
	if (validate_time(m, i, w, "exit_latency_ns", "exit latency", s->exit_latency_ns,
			  p->exit_latency_ns) ||
	    validate_time(m, i, w, "target_residency_ns", "target residency",
			  s->target_residency_ns, p->target_residency_ns) ||
	    machine_validate_wake(m, i, w))
		return -1;
	return validate_powers(m, i, w);
}

int machine_validate_at(const struct machine *m, const struct json_where *w)
{
	bool any_on = false;
	int i;

	if (validate_machine_fields(m, w))
		return -1;
	for (i = 0; i < m->state_count; i++) {
		if (validate_state(m, i, w))
			return -1;
		any_on |= !m->states[i].default_off;
	}
	if (!any_on)
		return jsonpos_fail(
			w, "states",
			"every state is disabled by default; at least one must be enabled");
	return 0;
}

int machine_validate(const struct machine *m, const char *source, struct sim_error *err)
{
	const struct json_where w = {source, NULL, err, NULL};

	return machine_validate_at(m, &w);
}

/*
 * States[i].wake_latency: a typical value and quantiles within the kernel's range of times,
 * quantiles from p = 0 to p = 1 strictly increasing with non-decreasing latencies, and no
 * model on a polling state (it has no exit to take).
 */
int machine_validate_wake(const struct machine *m, int i, const struct json_where *w)
{
	const struct machine_state *s = &m->states[i];
	const struct machine_wake *wk = &s->wake;
	char p[PATH_LEN];
	int k;

	snprintf(p, sizeof(p), "states[%d].wake_latency", i);
	if (wk->kind == MACHINE_WAKE_WORST)
		return 0;
	if (wk->kind != MACHINE_WAKE_TYPICAL && wk->kind != MACHINE_WAKE_DIST)
		return jsonpos_fail(w, p, "%s: unknown model %d", p, (int)wk->kind);
	if (s->flags & CPUIDLE_FLAG_POLLING)
		return jsonpos_fail(w, p,
				    "%s: a polling state has no exit to model; leave it out or "
				    "make it \"worst\"",
				    p);
	if (wk->typical_ns < 0 || wk->typical_ns > STATE_MAX_NS)
		return jsonpos_fail(w, p, "%s.typical_ns %lld is out of range 0..%lld", p,
				    (long long)wk->typical_ns, (long long)STATE_MAX_NS);
	if (wk->kind == MACHINE_WAKE_TYPICAL)
		return 0;
	if (wk->nr_quantiles < 2 || wk->nr_quantiles > MACHINE_WAKE_MAX_QUANTILES)
		return jsonpos_fail(w, p, "%s.quantiles: %d points, need 2..%d", p,
				    wk->nr_quantiles, MACHINE_WAKE_MAX_QUANTILES);
	for (k = 0; k < wk->nr_quantiles; k++) {
		char q[PATH_LEN + 24];

		snprintf(q, sizeof(q), "%s.quantiles[%d]", p, k);
		if (!isfinite(wk->q_p[k]) || wk->q_p[k] < 0 || wk->q_p[k] > 1)
			return jsonpos_fail(w, q, "%s: probability %g is not in [0, 1]", q,
					    wk->q_p[k]);
		if (wk->q_ns[k] < 0 || wk->q_ns[k] > STATE_MAX_NS)
			return jsonpos_fail(w, q, "%s: latency %lld ns is out of range 0..%lld", q,
					    (long long)wk->q_ns[k], (long long)STATE_MAX_NS);
		if (k && wk->q_p[k] <= wk->q_p[k - 1])
			return jsonpos_fail(w, q, "%s: probabilities must increase strictly", q);
		if (k && wk->q_ns[k] < wk->q_ns[k - 1])
			return jsonpos_fail(w, q,
					    "%s: latencies must not decrease with probability", q);
	}
	if (wk->q_p[0] != 0.0 || wk->q_p[wk->nr_quantiles - 1] != 1.0) {
		char q[PATH_LEN + 16];

		snprintf(q, sizeof(q), "%s.quantiles", p);
		return jsonpos_fail(w, q, "%s must run from p = 0 to p = 1", q);
	}
	return 0;
}
