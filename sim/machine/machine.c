// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine.c - machines: finding and loading them, checking and printing them, and the
 * default energy rule. Their JSON form is read and written in sim/machine/machine_json.c.
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
#include "sim/base/jsonpos.h"

#include <math.h>
#include <stdarg.h>
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

static unsigned int known_flags(void)
{
	unsigned int mask = 0;
	int bit;

	for (bit = 0; bit < FLAG_BITS; bit++)
		if (machine_flag_names[bit])
			mask |= 1u << bit;
	return mask;
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

/* ---- error reports with positions ---- */

/* Record an input error; `path` (a jsonpos path) places it in the JSON text, if any. */
int machine_fail(const struct where *w, const char *path, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = jsonpos_fail_v(w->err, w->source, w->text, path, fmt, ap);
	va_end(ap);
	return rc;
}

/* ---- machine_validate ---- */

static bool terminated(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

static int check_count(const struct where *w, const char *field, int value)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "topology.%s", field);
	if (value < 1)
		return machine_fail(w, path, "%s must be at least 1, not %d", path, value);
	return 0;
}

static int validate_topology(const struct machine *m, const struct where *w)
{
	long long cpus;

	if (check_count(w, "packages", m->packages) || check_count(w, "cores", m->cores) ||
	    check_count(w, "threads", m->threads))
		return -1;
	cpus = (long long)m->packages * m->cores * m->threads;
	if (cpus > MACHINE_MAX_CPUS)
		return machine_fail(
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
static int check_power(const struct where *w, const char *path, const char *what, double v,
		       double max, const char *unit)
{
	if (!isfinite(v) || v < 0)
		return machine_fail(w, path, "%s %g must be finite and >= 0", what, v);
	if (v > max)
		return machine_fail(w, path, "%s %.9g %s is over the limit %g %s%s", what, v, unit,
				    max, unit,
				    strcmp(unit, "J") ? ""
						      : " (a missing energy is derived from the previous"
							" state's energy and power step)");
	return 0;
}

static int validate_machine_fields(const struct machine *m, const struct where *w)
{
	if (!terminated(m->name, sizeof(m->name)) || !terminated(m->desc, sizeof(m->desc)) ||
	    !terminated(m->driver, sizeof(m->driver)))
		return machine_fail(w, NULL,
				    "machine name, description or driver is not NUL-terminated");
	if (validate_topology(m, w))
		return -1;
	if (check_power(w, "power.active_core_w", "active core power", m->active_core_power_w,
			MACHINE_POWER_MAX_W, "W") ||
	    check_power(w, "power.active_package_w", "active package power",
			m->active_package_power_w, MACHINE_POWER_MAX_W, "W"))
		return -1;
	if (m->state_count < 1 || m->state_count > CPUIDLE_STATE_MAX)
		return machine_fail(w, "states", "a machine has 1 to %d states, not %d",
				    CPUIDLE_STATE_MAX, m->state_count);
	return 0;
}

static int validate_name(const struct machine *m, int i, const struct where *w, const char *path)
{
	const struct machine_state *s = &m->states[i];
	int j;

	if (!terminated(s->name, sizeof(s->name)) || !terminated(s->desc, sizeof(s->desc)))
		return machine_fail(w, path, "state %d: name or desc is not NUL-terminated", i);
	if (!s->name[0])
		return machine_fail(w, path, "state %d has an empty name", i);
	for (j = 0; j < i; j++)
		if (!strcasecmp(m->states[j].name, s->name))
			return machine_fail(
				w, path,
				"state %d (%s): the name is already used by state %d (%s); "
				"state names must be unique (case-insensitive)",
				i, s->name, j, m->states[j].name);
	return 0;
}

static int validate_flags(const struct machine *m, int i, const struct where *w, const char *path)
{
	const struct machine_state *s = &m->states[i];
	unsigned int unknown = s->flags & ~known_flags();

	if (unknown)
		return machine_fail(w, path, "state %d (%s): unknown flag bits 0x%x", i, s->name,
				    unknown);
	if (i > 0 && (s->flags & CPUIDLE_FLAG_POLLING))
		return machine_fail(
			w, path,
			"state %d (%s): only state 0 may be a POLLING state (the kernel's POLL "
			"is always first)",
			i, s->name);
	return 0;
}

/* One time field of state i: in range, and not below `prev`, the value of state i-1. */
static int validate_time(const struct machine *m, int i, const struct where *w, const char *field,
			 const char *what, int64_t v, int64_t prev)
{
	const struct machine_state *s = &m->states[i];
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "states[%d].%s", i, field);
	if (v < 0 || v > STATE_MAX_NS)
		return machine_fail(w, path, "state %d (%s): %s %lld ns is out of range 0..%lld ns",
				    i, s->name, what, (long long)v, (long long)STATE_MAX_NS);
	if (i > 0 && v < prev)
		return machine_fail(
			w, path,
			"state %d (%s): %s %lld ns is below that of state %d (%s), %lld ns; "
			"states must be ordered from shallowest to deepest",
			i, s->name, what, (long long)v, i - 1, s[-1].name, (long long)prev);
	return 0;
}

static int validate_powers(const struct machine *m, int i, const struct where *w)
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

static int validate_state(const struct machine *m, int i, const struct where *w)
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

int machine_validate_at(const struct machine *m, const struct where *w)
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
		return machine_fail(
			w, "states",
			"every state is disabled by default; at least one must be enabled");
	return 0;
}

int machine_validate(const struct machine *m, const char *source, struct sim_error *err)
{
	const struct where w = {source, NULL, err};

	return machine_validate_at(m, &w);
}

static bool looks_like_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n >= 5 && !strcmp(s + n - 5, ".json"));
}

int machine_load(const char *name_or_path, struct machine *m, struct sim_error *err)
{
	const struct machine *b = machine_find_builtin(name_or_path);
	char list[128] = "";
	unsigned int i;

	if (b) {
		*m = *b;
		machine_default_energy(m, MACHINE_DEFAULT_ALL);
		return 0;
	}
	if (looks_like_path(name_or_path) || !strcmp(name_or_path, "-"))
		return machine_load_json_file(name_or_path, m, err);
	for (i = 0; i < machine_builtin_count(); i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 machine_builtin(i)->name);
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "unknown machine '%s'; built-in machines: %s; or give a path to a "
			     "JSON file (see idlesim machines NAME --json)",
			     name_or_path, list);
}

/* ---- topology, lookup, kernel view, printing ---- */

void machine_cpu_topology(const struct machine *m, int cpu, int *package, int *core, int *thread)
{
	int per_rank = m->packages * m->cores; /* CPUs in one thread rank */
	int r = cpu % per_rank;

	if (thread)
		*thread = cpu / per_rank;
	if (package)
		*package = r / m->cores;
	if (core)
		*core = r % m->cores;
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
	fprintf(f, "Topology: %d package(s) x %d core(s) x %d thread(s) = %d CPUs\n", m->packages,
		m->cores, m->threads, machine_nr_cpus(m));
	fprintf(f, "Active power: core %.3f W, package %.3f W\n", m->active_core_power_w,
		m->active_package_power_w);
	fprintf(f, "CPUidle driver: %s\n", m->driver);
	fprintf(f, "Number of idle states: %d\n", m->state_count);
	fputs("Available idle states:", f);
	for (i = 0; i < m->state_count; i++)
		fprintf(f, " %s", m->states[i].name);
	fputc('\n', f);
	for (i = 0; i < m->state_count; i++)
		print_state(f, &m->states[i]);
}
