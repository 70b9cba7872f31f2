// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine.c - machines: the flag names, the default energy rule, topology, state lookup, the
 * kernel's view of a table and printing it. Checking a machine is sim/machine/machine_check.c,
 * its JSON form sim/machine/machine_json.c, finding and loading one sim/machine/machine_load.c.
 *
 * A machine is a topology plus the state table a cpuidle driver registers, with three energy
 * numbers per state. It comes from a built-in (sim/machine/cstates_intel.c) or from a JSON file, so a
 * user can describe a CPU the simulator does not know.
 *
 * The default energy rule
 * -----------------------
 * Few per-state power measurements exist for these CPUs (energy-and-statistics reference,
 * sections 2.1 and 2.6), so every machine gets the same documented assumption, from its two
 * active powers and its target residencies, unless it gives its own numbers:
 *
 *  - Core power. A polling state is a pause loop and draws 0.875 of the active core power
 *    (anchor P2: an extra pause-loop core costs about 3.5 W over C6 at 4 W active). Any
 *    other state draws active_core_power_w * f(TR), with TR its target residency in us and f
 *    linear in log10(TR) through (2, 0.34), (20, 0.20), (100, 0.05), (400, 0.006) and
 *    (5000, 0.001), flat outside. That puts C1 (TR 2) at 34 %, C1E (20) at 20 %, C3 (100) at
 *    5 % and C6 (400) near 0, inside the reference's guidance (C1 25-40 %, C1E 15-25 %,
 *    C3 about 5 %, C6 about 0). Target residency stands for depth because it is the one
 *    number every table has and that grows with depth.
 *  - Package power, for a package whose shallowest core is in the state: active_package_power_w
 *    * g(TR), g through (20, 1.0), (100, 0.6), (400, 0.15), (5000, 0.05), flat outside. A
 *    package saves nothing while any core is in C1E or shallower (the "first core costs the
 *    package state" step of anchors P1 to P3) and most of its power once all are in C6.
 *  - Entry plus exit energy: E[0] = 0 and E[i] = E[i-1] + max(0, P[i-1] - P[i]) * TR[i],
 *    with P the core power and TR in seconds. This inverts the definition of target residency
 *    (reference section 4.2): TR[i] becomes the break-even time of state i against state i-1,
 *    so for an idle period of known length the deepest state whose target residency fits is
 *    also the one that costs least energy, which is the assumption both governors make.
 *    Default-off states are included, so enabling one does not change the others.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/base/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- flag names ---- */

_Static_assert(CPUIDLE_FLAG_POLLING == BIT(0) && CPUIDLE_FLAG_RCU_IDLE == BIT(6) &&
		       CPUIDLE_FLAG_IRQ_ENABLE == BIT(14) &&
		       CPUIDLE_FLAG_PARTIAL_HINT_MATCH == BIT(18),
	       "machine_flag_names[] is indexed by the bit numbers of governor.h");

const char *const machine_flag_names[FLAG_BITS] = {
	[0] = "POLLING",  [1] = "COUPLED",	[2] = "TIMER_STOP",
	[3] = "UNUSABLE", [4] = "OFF",		[5] = "TLB_FLUSHED",
	[6] = "RCU_IDLE", [14] = "IRQ_ENABLE",	[15] = "ALWAYS_ENABLE",
	[16] = "IBRS",	  [17] = "INIT_XSTATE", [18] = "PARTIAL_HINT_MATCH",
};

const char *machine_flag_name(unsigned int bit)
{
	return bit < FLAG_BITS ? machine_flag_names[bit] : NULL;
}

/* ---- the default energy rule ---- */

struct frac_point {
	double tr_us;
	double frac;
};

/* Share of the active core power, by target residency (see the essay above). */
static const struct frac_point core_frac[] = {
	{2, 0.34}, {20, 0.20}, {100, 0.05}, {400, 0.006}, {5000, 0.001},
};

/* Share of the active package power, by the target residency of the shallowest core. */
static const struct frac_point package_frac[] = {
	{20, 1.0},
	{100, 0.6},
	{400, 0.15},
	{5000, 0.05},
};

/* A pause loop draws almost what work does (anchor P2: 3.5 W of 4 W). */
#define POLL_CORE_FRACTION 0.875

/*
 * Linear in log10(tr_us) between points, flat outside. Written as a weighted sum so that a
 * point itself (t exactly 0 or 1) returns its fraction bit for bit.
 */
static double frac_at(const struct frac_point *pt, size_t n, double tr_us)
{
	size_t k;

	if (tr_us <= pt[0].tr_us)
		return pt[0].frac;
	for (k = 1; k < n; k++) {
		double lo = log10(pt[k - 1].tr_us), t;

		if (tr_us > pt[k].tr_us)
			continue;
		t = (log10(tr_us) - lo) / (log10(pt[k].tr_us) - lo);
		return pt[k - 1].frac * (1.0 - t) + pt[k].frac * t;
	}
	return pt[n - 1].frac;
}

static bool wanted(unsigned int which, const unsigned int *given, int i, unsigned int bit)
{
	return (which & bit) && !(given && (given[i] & bit));
}

/* E[i] = E[i-1] + max(0, P[i-1] - P[i]) * TR[i]: TR[i] is then the break-even time. */
static double break_even_energy(const struct machine_state *prev, const struct machine_state *s)
{
	return prev->entry_exit_energy_j + fmax(0.0, prev->core_power_w - s->core_power_w) *
						   ((double)s->target_residency_ns / SIM_NS_PER_S);
}

/*
 * Fill the fields selected by `which`, except those marked in given[i] (NULL: none). The
 * powers come first, so the energies see the final powers, given or defaulted.
 */
void machine_fill_energy(struct machine *m, const unsigned int *given, unsigned int which)
{
	int n = min(max(m->state_count, 0), CPUIDLE_STATE_MAX), i;

	for (i = 0; i < n; i++) {
		struct machine_state *s = &m->states[i];
		double tr_us = (double)s->target_residency_ns / SIM_NS_PER_US;
		double core = s->flags & CPUIDLE_FLAG_POLLING
				      ? POLL_CORE_FRACTION
				      : frac_at(core_frac, ARRAY_SIZE(core_frac), tr_us);

		if (wanted(which, given, i, MACHINE_DEFAULT_CORE_POWER))
			s->core_power_w = m->active_core_power_w * core;
		if (wanted(which, given, i, MACHINE_DEFAULT_PACKAGE_POWER))
			s->package_power_w = m->active_package_power_w *
					     frac_at(package_frac, ARRAY_SIZE(package_frac), tr_us);
	}
	for (i = 0; i < n; i++)
		if (wanted(which, given, i, MACHINE_DEFAULT_ENTRY_EXIT))
			m->states[i].entry_exit_energy_j =
				i ? break_even_energy(&m->states[i - 1], &m->states[i]) : 0.0;
}

/*
 * The default energy rule, one for every machine (an assumption; see the essay at the top):
 * core power from a log10 interpolation of the target residency (POLL: 0.875 of active),
 * package power likewise, and entry+exit energies chosen so that each target residency is
 * the break-even time against the previous state.
 */
void machine_default_energy(struct machine *m, unsigned int which)
{
	machine_fill_energy(m, NULL, which);
}

/* ---- topology, lookup, kernel view, printing ---- */

/* Hybrid: CPUs of a package core by core, siblings adjacent, kind by kind. */
static void hybrid_topology(const struct machine *m, int cpu, int *package, int *core, int *thread,
			    int *kind)
{
	int per_package = machine_nr_cpus(m) / m->packages;
	int r = cpu % per_package, first_core = 0, k;

	for (k = 0; k < m->nr_core_types - 1; k++) {
		const struct machine_core_type *t = &m->core_types[k];

		if (r < t->cores * t->threads)
			break;
		r -= t->cores * t->threads;
		first_core += t->cores;
	}
	if (package)
		*package = cpu / per_package;
	if (core)
		*core = first_core + r / m->core_types[k].threads;
	if (thread)
		*thread = r % m->core_types[k].threads;
	if (kind)
		*kind = k;
}

void machine_cpu_topology(const struct machine *m, int cpu, int *package, int *core, int *thread)
{
	int per_rank = m->packages * m->cores; /* CPUs in one thread rank */
	int r = cpu % per_rank;

	if (m->nr_core_types) {
		hybrid_topology(m, cpu, package, core, thread, NULL);
		return;
	}
	if (thread)
		*thread = cpu / per_rank;
	if (package)
		*package = r / m->cores;
	if (core)
		*core = r % m->cores;
}

int machine_cpu_core_type(const struct machine *m, int cpu)
{
	int kind = 0;

	if (m->nr_core_types)
		hybrid_topology(m, cpu, NULL, NULL, NULL, &kind);
	return kind;
}

int machine_core_threads(const struct machine *m, int core)
{
	for (int k = 0; k < m->nr_core_types; k++) {
		if (core < m->core_types[k].cores)
			return m->core_types[k].threads;
		core -= m->core_types[k].cores;
	}
	return m->threads;
}

double machine_core_active_power_w(const struct machine *m, int k)
{
	if (k >= 0 && k < m->nr_core_types && m->core_types[k].active_core_power_w > 0)
		return m->core_types[k].active_core_power_w;
	return m->active_core_power_w;
}

int machine_state_lookup(const struct machine *m, const char *name_or_index)
{
	const char *s = name_or_index;
	char *end;
	long idx;
	int i;

	for (i = 0; i < m->state_count; i++)
		if (!strcasecmp(m->states[i].name, s))
			return i;
	if (*s < '0' || *s > '9')
		return -1;
	idx = strtol(s, &end, 10);
	if (*end || idx >= m->state_count)
		return -1;
	return (int)idx;
}

/*
 * drv->name points into m, so the driver must not outlive the machine. The us fields are
 * what __cpuidle_driver_init() would have started from; power_usage is what the kernel leaves
 * there (-1 from poll_state.c, 0 because intel_idle does not set it).
 */
void machine_to_driver(const struct machine *m, struct cpuidle_driver *drv)
{
	int i;

	memset(drv, 0, sizeof(*drv));
	drv->name = m->driver;
	drv->state_count = m->state_count;
	for (i = 0; i < m->state_count && i < CPUIDLE_STATE_MAX; i++) {
		const struct machine_state *s = &m->states[i];
		struct cpuidle_state *d = &drv->states[i];

		memcpy(d->name, s->name, sizeof(d->name));
		memcpy(d->desc, s->desc, sizeof(d->desc));
		d->flags = s->flags;
		d->exit_latency_ns = s->exit_latency_ns;
		d->target_residency_ns = s->target_residency_ns;
		d->exit_latency = (unsigned int)(s->exit_latency_ns / NSEC_PER_USEC);
		d->target_residency = (unsigned int)(s->target_residency_ns / NSEC_PER_USEC);
		d->power_usage = (s->flags & CPUIDLE_FLAG_POLLING) ? -1 : 0;
	}
}

static void print_flags(FILE *f, unsigned int flags)
{
	int bit;

	fputs("Flags:", f);
	if (!flags)
		fputs(" -", f);
	for (bit = 0; bit < FLAG_BITS; bit++) {
		if (!(flags & (1u << bit)))
			continue;
		if (machine_flag_names[bit])
			fprintf(f, " %s", machine_flag_names[bit]);
		else
			fprintf(f, " 0x%x", 1u << bit);
	}
	fputc('\n', f);
}

static void print_state(FILE *f, const struct machine_state *s)
{
	/* cpupower: printf("%s%s:\n", name, disabled ? " (DISABLED) " : "") */
	fprintf(f, "%s%s:\n", s->name, s->default_off ? " (DISABLED) " : "");
	fprintf(f, "Flags/Description: %s\n", s->desc);
	fprintf(f, "Latency: %lld\n", (long long)(s->exit_latency_ns / SIM_NS_PER_US));
	fprintf(f, "Residency: %lld\n", (long long)(s->target_residency_ns / SIM_NS_PER_US));
	print_flags(f, s->flags);
	fprintf(f, "Power: core %.3f W, package %.3f W, entry+exit %.3f uJ\n", s->core_power_w,
		s->package_power_w, s->entry_exit_energy_j * 1e6);
	/* idlesim's own: the hardware's actual wake latency (docs/wake-latency.md) */
	if (s->wake.kind == MACHINE_WAKE_WORST) {
		fputs("Wake latency: as advertised\n", f);
		return;
	}
	fprintf(f, "Wake latency: typical %.3f us", (double)s->wake.typical_ns / SIM_NS_PER_US);
	if (s->wake.kind == MACHINE_WAKE_DIST)
		fprintf(f, ", measured %.3f..%.3f us (%d quantiles)",
			(double)s->wake.q_ns[0] / SIM_NS_PER_US,
			(double)s->wake.q_ns[s->wake.nr_quantiles - 1] / SIM_NS_PER_US,
			s->wake.nr_quantiles);
	fputc('\n', f);
}

/* cpupower idle-info's layout, after idlesim's own machine, topology and power lines. */
void machine_print_idle_info(FILE *f, const struct machine *m)
{
	int i;

	fprintf(f, "Machine: %s%s%s\n", m->name, m->desc[0] ? " - " : "", m->desc);
	if (m->assumed[0])
		fprintf(f, "Assumed: %s\n", m->assumed);
	if (!m->nr_core_types)
		fprintf(f, "Topology: %d package(s) x %d core(s) x %d thread(s) = %d CPUs\n",
			m->packages, m->cores, m->threads, machine_nr_cpus(m));
	else {
		fprintf(f, "Topology: %d package(s) x (", m->packages);
		for (i = 0; i < m->nr_core_types; i++)
			fprintf(f, "%s%d %s core(s) x %d thread(s)", i ? " + " : "",
				m->core_types[i].cores, m->core_types[i].name, m->core_types[i].threads);
		fprintf(f, ") = %d CPUs\n", machine_nr_cpus(m));
	}
	if (m->llc_cores)
		fprintf(f, "LLC: %d core(s) each, %d per package\n", m->llc_cores,
			machine_llcs_per_package(m));
	fprintf(f, "Active power: core %.3f W, package %.3f W\n", m->active_core_power_w,
		m->active_package_power_w);
	for (i = 0; i < m->nr_core_types; i++)
		if (m->core_types[i].active_core_power_w > 0)
			fprintf(f, "Active power of a %s core: %.3f W\n", m->core_types[i].name,
				m->core_types[i].active_core_power_w);
	fprintf(f, "CPUidle driver: %s\n", m->driver);
	fprintf(f, "Number of idle states: %d\n", m->state_count);
	fputs("Available idle states:", f);
	for (i = 0; i < m->state_count; i++)
		fprintf(f, " %s", m->states[i].name);
	fputc('\n', f);
	for (i = 0; i < m->state_count; i++)
		print_state(f, &m->states[i]);
}
