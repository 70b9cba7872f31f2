// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_idle_params.c - the intel_idle module parameters on a machine (intel_idle.h): the
 * registered table rebuilt as intel_idle_init_cstates_icpu() builds it in Linux 6.12, from
 * the built-in's table and what sim/machine/cstates_intel.c records of the kernel's model
 * (the UNUSABLE C1 of the adl tables, use_acpi, the assumed _CST). Our own code.
 */
#include "sim/machine/intel_idle.h"
#include "sim/machine/machine_int.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define MWAIT_SUBSTATE_MASK 0xfu

static int bad_value(struct sim_error *err, const char *name, long long v, const char *why)
{
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--set %s.%s=%lld: %s",
			     INTEL_IDLE_FAMILY, name, v, why);
}

int intel_idle_param_set(struct intel_idle_params *p, const char *name, long long v,
			 struct sim_error *err)
{
	bool is_bool = !strcmp(name, "no_acpi") || !strcmp(name, "use_acpi");

	if (!strcmp(name, "states_off") || !strcmp(name, "preferred_cstates")) {
		if (v < 0 || v > UINT_MAX)
			return bad_value(err, name, v, "must be 0..4294967295 (an unsigned int)");
		if (name[0] == 's') {
			p->has_states_off = true;
			p->states_off = (uint32_t)v;
		} else {
			p->has_preferred = true;
			p->preferred_cstates = (uint32_t)v;
		}
		return 0;
	}
	if (!strcmp(name, "max_cstate")) {
		if (v < INT_MIN || v > INT_MAX)
			return bad_value(err, name, v, "must be an int");
		if (!v)
			return bad_value(err, name, v,
					 "0 disables intel_idle (the kernel then uses another idle "
					 "driver, which idlesim does not model)");
		p->has_max_cstate = true;
		p->max_cstate = (int)v;
		return 0;
	}
	if (is_bool) {
		if (v != 0 && v != 1)
			return bad_value(err, name, v, "must be 0 or 1");
		if (name[0] == 'n') {
			p->has_no_acpi = true;
			p->no_acpi = v;
		} else {
			p->has_use_acpi = true;
			p->use_acpi = v;
		}
		return 0;
	}
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "--set %s.%s: no such parameter; idlesim models states_off, "
			     "preferred_cstates, max_cstate, no_acpi and use_acpi",
			     INTEL_IDLE_FAMILY, name);
}

bool intel_idle_params_any(const struct intel_idle_params *p)
{
	return p->has_states_off || p->has_preferred || p->has_max_cstate || p->has_no_acpi ||
	       p->has_use_acpi;
}

/* The MWAIT hint of a table state, from its "MWAIT 0xNN" description. */
static unsigned int mwait_hint(const struct machine_state *s)
{
	unsigned int h = 0;

	return sscanf(s->desc, "MWAIT %x", &h) == 1 ? h : 0;
}

/* intel_idle_off_by_default(): does the _CST lack the state's hint? */
static bool cst_lacks(const struct machine_intel_model *model, const struct machine_state *s)
{
	unsigned int mask = s->flags & CPUIDLE_FLAG_PARTIAL_HINT_MATCH ? ~MWAIT_SUBSTATE_MASK : ~0u;

	for (int i = 0; i < model->nr_cst; i++)
		if ((model->cst[i] & mask) == (mwait_hint(s) & mask))
			return false;
	return true;
}

static void set_off(struct machine_state *s, bool off)
{
	s->default_off = off;
	s->flags = off ? s->flags | CPUIDLE_FLAG_OFF : s->flags & ~CPUIDLE_FLAG_OFF;
}

static int refuse(struct sim_error *err, const struct machine *m, const char *why)
{
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--set %s.*: machine %s %s",
			     INTEL_IDLE_FAMILY, m->name, why);
}

int intel_idle_apply(struct machine *m, bool builtin, const struct intel_idle_params *p,
		     struct sim_error *err)
{
	const struct machine_intel_model *model = builtin ? machine_intel_model(m->name) : NULL;
	struct machine_state table[CPUIDLE_STATE_MAX + 1];
	bool unusable[CPUIDLE_STATE_MAX + 1] = { false };
	bool prefer_c1 = p->has_preferred && (p->preferred_cstates & 2u) &&
			 !(p->preferred_cstates & 4u);
	int max_cstate = p->has_max_cstate ? p->max_cstate : CPUIDLE_STATE_MAX - 1;
	uint32_t states_off = p->has_states_off ? p->states_off : 0;
	bool acpi;
	int n = 0, count = 0, t;

	if (strcmp(m->driver, "intel_idle"))
		return refuse(err, m, "does not use the intel_idle driver");
	if (!model && (p->has_preferred || p->has_no_acpi || p->has_use_acpi))
		return refuse(err, m,
			      "is no built-in intel_idle machine: preferred_cstates, no_acpi and "
			      "use_acpi need the kernel's table and _CST (states_off and "
			      "max_cstate apply to any table)");
	if (model && p->has_use_acpi && p->use_acpi && !model->use_acpi && !model->nr_cst)
		return refuse(err, m,
			      "has no assumed ACPI _CST (a client part: the kernel does not read "
			      "it without use_acpi), so use_acpi=1 cannot be modelled");
	acpi = model && (model->use_acpi || (p->has_use_acpi && p->use_acpi)) &&
	       !(p->has_no_acpi && p->no_acpi) && model->nr_cst;

	/* The kernel's table: the adl C1 first, then the registered states after POLL. */
	if (model && model->c1_preference) {
		table[n] = model->c1;
		unusable[n++] = !prefer_c1;
	}
	for (int i = 1; i < m->state_count; i++) {
		table[n] = m->states[i];
		unusable[n++] = model && model->c1_preference && i == 1 && prefer_c1;
	}

	set_off(&m->states[0], (states_off & 1u) || (!model && m->states[0].default_off));
	count = 1;
	for (t = 0; t < n && count < CPUIDLE_STATE_MAX; t++) {
		struct machine_state *s = &m->states[count];
		bool off;

		if (t + 1 > max_cstate)
			break;
		if (unusable[t])
			continue;
		*s = table[t];
		off = (count < 32 && (states_off & (1u << count))) ||
		      (acpi && cst_lacks(model, s) && !(s->flags & CPUIDLE_FLAG_ALWAYS_ENABLE));
		set_off(s, off || (!model && s->default_off));
		count++;
	}
	m->state_count = count;
	if (model)
		machine_default_energy(m, MACHINE_DEFAULT_ALL);
	return 0;
}
