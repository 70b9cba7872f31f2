// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine.c - machines: loading, checking, writing and printing them, and the default
 * energy rule.
 *
 * A machine is a topology plus the state table a cpuidle driver registers, with three energy
 * numbers per state. It comes from a built-in (sim/cstates_intel.c) or from a JSON file, so a
 * user can describe a CPU the simulator does not know. JSON is checked strictly: an unknown
 * field is an error, because a mistyped optional field would otherwise be silently replaced
 * by its default. Every error names the field and points at its line and column; jansson
 * gives the position of syntax errors, and jsonpos finds the position of a value that parsed
 * but makes no sense.
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
#include "sim/machine.h"
#include "sim/alloc.h"
#include "sim/common.h"
#include "sim/jsonpos.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FLAG_BITS 32
#define OBJ_PATH_LEN 32 /* "states[N]": a path to an object that holds fields */
#define PATH_LEN 96	/* an object path plus a field name and an index */
#define MACHINE_FILE_MAX (1024 * 1024)
/* The kernel keeps exit_latency and target_residency in us as unsigned int as well. */
#define STATE_MAX_NS ((int64_t)UINT_MAX * SIM_NS_PER_US)

#define JSON_DEFAULT_DRIVER "json"
#define JSON_DEFAULT_CORE_W 4.0
#define JSON_DEFAULT_PACKAGE_W 10.0

/* ---- flag names ---- */

_Static_assert(CPUIDLE_FLAG_POLLING == BIT(0) && CPUIDLE_FLAG_RCU_IDLE == BIT(6) &&
		       CPUIDLE_FLAG_IRQ_ENABLE == BIT(14) &&
		       CPUIDLE_FLAG_PARTIAL_HINT_MATCH == BIT(18),
	       "flag_names[] is indexed by the bit numbers of governor.h");

static const char *const flag_names[FLAG_BITS] = {
	[0] = "POLLING",  [1] = "COUPLED",	[2] = "TIMER_STOP",
	[3] = "UNUSABLE", [4] = "OFF",		[5] = "TLB_FLUSHED",
	[6] = "RCU_IDLE", [14] = "IRQ_ENABLE",	[15] = "ALWAYS_ENABLE",
	[16] = "IBRS",	  [17] = "INIT_XSTATE", [18] = "PARTIAL_HINT_MATCH",
};

const char *machine_flag_name(unsigned int bit)
{
	return bit < FLAG_BITS ? flag_names[bit] : NULL;
}

static int flag_bit(const char *name)
{
	int bit;

	for (bit = 0; bit < FLAG_BITS; bit++)
		if (flag_names[bit] && !strcasecmp(flag_names[bit], name))
			return bit;
	return -1;
}

static unsigned int known_flags(void)
{
	unsigned int mask = 0;
	int bit;

	for (bit = 0; bit < FLAG_BITS; bit++)
		if (flag_names[bit])
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
static void fill_energy(struct machine *m, const unsigned int *given, unsigned int which)
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
	fill_energy(m, NULL, which);
}

/* ---- error reports with positions ---- */

/* Where a check runs: text is the JSON source for positions, or NULL for a plain struct. */
struct where {
	const char *source;
	const char *text;
	struct sim_error *err;
};

static int fail(const struct where *w, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record an input error; `path` (a jsonpos path) places it in the JSON text, if any. */
static int fail(const struct where *w, const char *path, const char *fmt, ...)
{
	char msg[sizeof(w->err->text)];
	int line = 0, column = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (w->text && path)
		jsonpos_find(w->text, path, &line, &column);
	return sim_error_set(w->err, SIM_ERR_INPUT, w->source, line, column, "%s", msg);
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
		return fail(w, path, "%s must be at least 1, not %d", path, value);
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
		return fail(w, "topology",
			    "topology has %lld CPUs (%d x %d x %d); at most %d are supported", cpus,
			    m->packages, m->cores, m->threads, MACHINE_MAX_CPUS);
	return 0;
}

static int check_power(const struct where *w, const char *path, const char *what, double v)
{
	if (!isfinite(v) || v < 0)
		return fail(w, path, "%s %g must be finite and >= 0", what, v);
	return 0;
}

static int validate_machine_fields(const struct machine *m, const struct where *w)
{
	if (!terminated(m->name, sizeof(m->name)) || !terminated(m->desc, sizeof(m->desc)) ||
	    !terminated(m->driver, sizeof(m->driver)))
		return fail(w, NULL, "machine name, description or driver is not NUL-terminated");
	if (validate_topology(m, w))
		return -1;
	if (check_power(w, "power.active_core_w", "active core power", m->active_core_power_w) ||
	    check_power(w, "power.active_package_w", "active package power",
			m->active_package_power_w))
		return -1;
	if (m->state_count < 1 || m->state_count > CPUIDLE_STATE_MAX)
		return fail(w, "states", "a machine has 1 to %d states, not %d", CPUIDLE_STATE_MAX,
			    m->state_count);
	return 0;
}

static int validate_name(const struct machine *m, int i, const struct where *w, const char *path)
{
	const struct machine_state *s = &m->states[i];
	int j;

	if (!terminated(s->name, sizeof(s->name)) || !terminated(s->desc, sizeof(s->desc)))
		return fail(w, path, "state %d: name or desc is not NUL-terminated", i);
	if (!s->name[0])
		return fail(w, path, "state %d has an empty name", i);
	for (j = 0; j < i; j++)
		if (!strcasecmp(m->states[j].name, s->name))
			return fail(w, path,
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
		return fail(w, path, "state %d (%s): unknown flag bits 0x%x", i, s->name, unknown);
	if (i > 0 && (s->flags & CPUIDLE_FLAG_POLLING))
		return fail(w, path,
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
		return fail(w, path, "state %d (%s): %s %lld ns is out of range 0..%lld ns", i,
			    s->name, what, (long long)v, (long long)STATE_MAX_NS);
	if (i > 0 && v < prev)
		return fail(w, path,
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
	if (check_power(w, path, what, s->core_power_w))
		return -1;
	snprintf(what, sizeof(what), "state %d (%s): package power", i, s->name);
	snprintf(path, sizeof(path), "states[%d].package_power_w", i);
	if (check_power(w, path, what, s->package_power_w))
		return -1;
	snprintf(what, sizeof(what), "state %d (%s): entry+exit energy", i, s->name);
	snprintf(path, sizeof(path), "states[%d].entry_exit_energy_j", i);
	return check_power(w, path, what, s->entry_exit_energy_j);
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
			  s->target_residency_ns, p->target_residency_ns))
		return -1;
	return validate_powers(m, i, w);
}

static int validate(const struct machine *m, const struct where *w)
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
		return fail(w, "states",
			    "every state is disabled by default; at least one must be enabled");
	return 0;
}

int machine_validate(const struct machine *m, const char *source, struct sim_error *err)
{
	const struct where w = {source, NULL, err};

	return validate(m, &w);
}

/* ---- reading JSON ---- */

static const char *const machine_keys[] = {
	"name", "description", "driver", "topology", "power", "states", NULL,
};
static const char *const topology_keys[] = {"packages", "cores", "threads", NULL};
static const char *const power_keys[] = {"active_core_w", "active_package_w", NULL};
static const char *const state_keys[] = {
	"name",
	"desc",
	"flags",
	"exit_latency_ns",
	"target_residency_ns",
	"default_status",
	"core_power_w",
	"package_power_w",
	"entry_exit_energy_j",
	NULL,
};

/* "path.key", or "key" at the top level. */
static const char *subpath(char *buf, size_t cap, const char *path, const char *key)
{
	snprintf(buf, cap, "%s%s%s", path, path[0] ? "." : "", key);
	return buf;
}

static bool in_list(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (!strcmp(*list, key))
			return true;
	return false;
}

/* Append s to the comma-separated list in buf. */
static void list_append(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(buf);

	snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", s);
}

/* Unknown fields are errors: a mistyped optional field would silently take its default. */
static int check_keys(const struct where *w, json_t *obj, const char *path,
		      const char *const *known)
{
	char p[PATH_LEN], list[200] = "";
	const char *key = NULL;
	void *it;

	for (it = json_object_iter(obj); it; it = json_object_iter_next(obj, it)) {
		key = json_object_iter_key(it);
		if (!in_list(known, key))
			break;
	}
	if (!it)
		return 0;
	for (; *known; known++)
		list_append(list, sizeof(list), *known);
	return fail(w, subpath(p, sizeof(p), path, key), "unknown field '%s' in %s (known: %s)",
		    key, path[0] ? path : "the machine", list);
}

/* A member that must be there; the error points at the object that lacks it. */
static json_t *need(const struct where *w, json_t *obj, const char *path, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		fail(w, path, "missing required field '%s' in %s", key,
		     path[0] ? path : "the machine");
	return v;
}

/* Copy a string member into buf; absent leaves buf alone unless it is required. */
static int get_string(const struct where *w, json_t *obj, const char *path, const char *key,
		      bool required, char *buf, size_t cap)
{
	json_t *v = required ? need(w, obj, path, key) : json_object_get(obj, key);
	char p[PATH_LEN];
	size_t len;

	if (!v)
		return required ? -1 : 0;
	subpath(p, sizeof(p), path, key);
	if (!json_is_string(v))
		return fail(w, p, "%s must be a string", p);
	len = json_string_length(v);
	if (required && !len)
		return fail(w, p, "%s must not be empty", p);
	if (len >= cap)
		return fail(w, p, "%s is too long: %zu bytes, at most %zu", p, len, cap - 1);
	memcpy(buf, json_string_value(v), len + 1);
	return 0;
}

/* A required integer member in [lo, hi]; `what` says what it must be, for the message. */
static int get_int(const struct where *w, json_t *obj, const char *path, const char *key,
		   const char *what, long long lo, long long hi, long long *out)
{
	json_t *v = need(w, obj, path, key);
	char p[PATH_LEN];
	long long x;

	if (!v)
		return -1;
	subpath(p, sizeof(p), path, key);
	if (!json_is_integer(v))
		return fail(w, p, "%s must be %s", p, what);
	x = json_integer_value(v);
	if (x < lo || x > hi)
		return fail(w, p, "%s must be %s in %lld..%lld, not %lld", p, what, lo, hi, x);
	*out = x;
	return 0;
}

/* An optional number member (power or energy); *present says whether it was there. */
static int get_power(const struct where *w, json_t *obj, const char *path, const char *key,
		     const char *unit, double *out, bool *present)
{
	json_t *v = json_object_get(obj, key);
	char p[PATH_LEN];
	double x;

	*present = v != NULL;
	if (!v)
		return 0;
	subpath(p, sizeof(p), path, key);
	if (!json_is_number(v))
		return fail(w, p, "%s must be a number (%s)", p, unit);
	x = json_number_value(v);
	if (!isfinite(x) || x < 0)
		return fail(w, p, "%s must be finite and >= 0 (%s), not %g", p, unit, x);
	*out = x;
	return 0;
}

static int get_object(const struct where *w, json_t *obj, const char *key, bool required,
		      json_t **out)
{
	json_t *v = required ? need(w, obj, "", key) : json_object_get(obj, key);

	*out = v;
	if (!v)
		return required ? -1 : 0;
	if (!json_is_object(v))
		return fail(w, key, "%s must be an object", key);
	return 0;
}

static int load_topology(const struct where *w, json_t *root, struct machine *m)
{
	const char *what = "a positive integer";
	long long p, c, t;
	json_t *obj;

	if (get_object(w, root, "topology", true, &obj) ||
	    check_keys(w, obj, "topology", topology_keys))
		return -1;
	if (get_int(w, obj, "topology", "packages", what, 1, MACHINE_MAX_CPUS, &p) ||
	    get_int(w, obj, "topology", "cores", what, 1, MACHINE_MAX_CPUS, &c) ||
	    get_int(w, obj, "topology", "threads", what, 1, MACHINE_MAX_CPUS, &t))
		return -1;
	m->packages = (int)p;
	m->cores = (int)c;
	m->threads = (int)t;
	return 0;
}

static int load_power(const struct where *w, json_t *root, struct machine *m)
{
	bool present;
	json_t *obj;

	m->active_core_power_w = JSON_DEFAULT_CORE_W;
	m->active_package_power_w = JSON_DEFAULT_PACKAGE_W;
	if (get_object(w, root, "power", false, &obj))
		return -1;
	if (!obj)
		return 0;
	if (check_keys(w, obj, "power", power_keys) ||
	    get_power(w, obj, "power", "active_core_w", "W", &m->active_core_power_w, &present) ||
	    get_power(w, obj, "power", "active_package_w", "W", &m->active_package_power_w,
		      &present))
		return -1;
	return 0;
}

static int unknown_flag(const struct where *w, const char *path, const char *name)
{
	char list[240] = "";
	int bit;

	for (bit = 0; bit < FLAG_BITS; bit++)
		if (flag_names[bit])
			list_append(list, sizeof(list), flag_names[bit]);
	return fail(w, path, "%s: unknown flag '%s' (known: %s)", path, name, list);
}

static int load_flags(const struct where *w, json_t *st, const char *path, unsigned int *flags)
{
	json_t *arr = json_object_get(st, "flags");
	char p[PATH_LEN];
	size_t k;

	*flags = 0;
	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return fail(w, subpath(p, sizeof(p), path, "flags"),
			    "%s.flags must be an array of flag names", path);
	for (k = 0; k < json_array_size(arr); k++) {
		json_t *v = json_array_get(arr, k);
		int bit = json_is_string(v) ? flag_bit(json_string_value(v)) : -1;

		snprintf(p, sizeof(p), "%s.flags[%zu]", path, k);
		if (!json_is_string(v))
			return fail(w, p, "%s must be a flag name (a string)", p);
		if (bit < 0)
			return unknown_flag(w, p, json_string_value(v));
		*flags |= 1u << bit;
	}
	return 0;
}

/* default_status, and CPUIDLE_FLAG_OFF, which the kernel turns into "disabled" at boot. */
static int load_status(const struct where *w, json_t *st, const char *path, struct machine_state *s)
{
	json_t *v = json_object_get(st, "default_status");
	const char *status = json_is_string(v) ? json_string_value(v) : "";
	char p[PATH_LEN];

	subpath(p, sizeof(p), path, "default_status");
	if (v && strcmp(status, "enabled") && strcmp(status, "disabled"))
		return fail(w, p, "%s must be \"enabled\" or \"disabled\"", p);
	if ((s->flags & CPUIDLE_FLAG_OFF) && !strcmp(status, "enabled"))
		return fail(w, p,
			    "%s is \"enabled\" but the state has flag OFF, which disables it by "
			    "default",
			    p);
	s->default_off = !strcmp(status, "disabled") || (s->flags & CPUIDLE_FLAG_OFF);
	return 0;
}

/* Read the energy fields that are there; mark them in *given so the rest get defaulted. */
static int load_state_energy(const struct where *w, json_t *st, const char *path,
			     struct machine_state *s, unsigned int *given)
{
	bool core, pkg, ee;

	if (get_power(w, st, path, "core_power_w", "W", &s->core_power_w, &core) ||
	    get_power(w, st, path, "package_power_w", "W", &s->package_power_w, &pkg) ||
	    get_power(w, st, path, "entry_exit_energy_j", "J", &s->entry_exit_energy_j, &ee))
		return -1;
	*given = (core ? MACHINE_DEFAULT_CORE_POWER : 0) |
		 (pkg ? MACHINE_DEFAULT_PACKAGE_POWER : 0) | (ee ? MACHINE_DEFAULT_ENTRY_EXIT : 0);
	return 0;
}

static int load_state(const struct where *w, json_t *st, int i, struct machine_state *s,
		      unsigned int *given)
{
	const char *ns = "an integer (ns)";
	char path[OBJ_PATH_LEN];
	long long lat, res;

	snprintf(path, sizeof(path), "states[%d]", i);
	if (!json_is_object(st))
		return fail(w, path, "%s must be an object", path);
	if (check_keys(w, st, path, state_keys) ||
	    get_string(w, st, path, "name", true, s->name, sizeof(s->name)) ||
	    get_string(w, st, path, "desc", false, s->desc, sizeof(s->desc)) ||
	    load_flags(w, st, path, &s->flags) || load_status(w, st, path, s))
		return -1;
	if (get_int(w, st, path, "exit_latency_ns", ns, 0, STATE_MAX_NS, &lat) ||
	    get_int(w, st, path, "target_residency_ns", ns, 0, STATE_MAX_NS, &res))
		return -1;
	s->exit_latency_ns = lat;
	s->target_residency_ns = res;
	return load_state_energy(w, st, path, s, given);
}

static int load_states(const struct where *w, json_t *root, struct machine *m, unsigned int *given)
{
	json_t *arr = need(w, root, "", "states");
	size_t i;

	if (!arr)
		return -1;
	if (!json_is_array(arr) || !json_array_size(arr))
		return fail(w, "states", "states must be a non-empty array of state objects");
	if (json_array_size(arr) > CPUIDLE_STATE_MAX) {
		char p[PATH_LEN];

		snprintf(p, sizeof(p), "states[%d]", CPUIDLE_STATE_MAX);
		return fail(w, p, "too many states: %zu, at most %d (CPUIDLE_STATE_MAX)",
			    json_array_size(arr), CPUIDLE_STATE_MAX);
	}
	for (i = 0; i < json_array_size(arr); i++)
		if (load_state(w, json_array_get(arr, i), (int)i, &m->states[i], &given[i]))
			return -1;
	m->state_count = (int)json_array_size(arr);
	return 0;
}

/*
 * Each energy value missing from the JSON is defaulted on its own; given values are kept.
 * Powers come first, so defaulted entry+exit energies follow from the final powers and keep
 * the break-even property against a given neighbour.
 */
static int load_root(const struct where *w, json_t *root, struct machine *m)
{
	unsigned int given[CPUIDLE_STATE_MAX] = {0};

	if (!json_is_object(root))
		return fail(w, "", "a machine must be a JSON object");
	memset(m, 0, sizeof(*m));
	snprintf(m->driver, sizeof(m->driver), "%s", JSON_DEFAULT_DRIVER);
	if (check_keys(w, root, "", machine_keys) ||
	    get_string(w, root, "", "name", true, m->name, sizeof(m->name)) ||
	    get_string(w, root, "", "description", false, m->desc, sizeof(m->desc)) ||
	    get_string(w, root, "", "driver", false, m->driver, sizeof(m->driver)) ||
	    load_topology(w, root, m) || load_power(w, root, m) || load_states(w, root, m, given))
		return -1;
	fill_energy(m, given, MACHINE_DEFAULT_ALL);
	return validate(m, w);
}

int machine_load_json_string(const char *text, const char *source, struct machine *m,
			     struct sim_error *err)
{
	const struct where w = {source ? source : "<string>", text, err};
	struct machine tmp;
	json_error_t jerr;
	json_t *root;
	int rc;

	if (!text)
		return sim_error_set(err, SIM_ERR_INTERNAL, w.source, 0, 0, "no JSON text");
	root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return sim_error_set(err, SIM_ERR_INPUT, w.source, max(jerr.line, 0),
				     max(jerr.column, 0), "%s", jerr.text);
	rc = load_root(&w, root, &tmp);
	json_decref(root);
	if (!rc)
		*m = tmp;
	return rc;
}

/* Read a whole (small) file into a NUL-terminated buffer. */
static int read_small_file(const char *path, char **text, struct sim_error *err)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, len = 0, n;
	void *buf = NULL;
	int rc = 0;

	if (!f)
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open machine file: %s",
				     strerror(errno));
	do {
		if (sim_grow(&buf, &cap, len + 4096, 1)) {
			rc = sim_error_nomem(err, path);
			break;
		}
		n = fread((char *)buf + len, 1, cap - len - 1, f);
		len += n;
		if (len > MACHINE_FILE_MAX)
			rc = sim_error_set(
				err, SIM_ERR_INPUT, path, 0, 0,
				"machine file is larger than 1 MiB; is this a machine file?");
		else if (!n && ferror(f))
			rc = sim_error_set(err, SIM_ERR_IO, path, 0, 0,
					   "cannot read machine file: %s", strerror(errno));
	} while (!rc && n);
	fclose(f);
	if (!rc && memchr(buf, '\0', len))
		rc = sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
				   "machine file contains a NUL byte");
	if (rc) {
		sim_free(buf);
		return rc;
	}
	((char *)buf)[len] = '\0';
	*text = buf;
	return 0;
}

int machine_load_json_file(const char *path, struct machine *m, struct sim_error *err)
{
	char *text = NULL;
	int rc;

	if (read_small_file(path, &text, err))
		return -1;
	rc = machine_load_json_string(text, path, m, err);
	sim_free(text);
	return rc;
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
	if (looks_like_path(name_or_path))
		return machine_load_json_file(name_or_path, m, err);
	for (i = 0; i < machine_builtin_count(); i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 machine_builtin(i)->name);
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "unknown machine '%s'; built-in machines: %s; or give a path to a "
			     "JSON file (see idlesim machines NAME --json)",
			     name_or_path, list);
}

/* ---- writing JSON ---- */

static json_t *flags_to_json(unsigned int flags)
{
	json_t *arr = json_array();
	int bit, rc = 0;

	for (bit = 0; arr && bit < FLAG_BITS; bit++)
		if ((flags & (1u << bit)) && flag_names[bit])
			rc |= json_array_append_new(arr, json_string(flag_names[bit]));
	if (rc) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

/* json_object_set_new() takes the value even when it fails, so nothing leaks on error. */
static json_t *state_to_json(const struct machine_state *s)
{
	json_t *o = json_object();
	int rc = 0;

	if (!o)
		return NULL;
	rc |= json_object_set_new(o, "name", json_string(s->name));
	rc |= json_object_set_new(o, "desc", json_string(s->desc));
	rc |= json_object_set_new(o, "flags", flags_to_json(s->flags));
	rc |= json_object_set_new(o, "exit_latency_ns", json_integer(s->exit_latency_ns));
	rc |= json_object_set_new(o, "target_residency_ns", json_integer(s->target_residency_ns));
	rc |= json_object_set_new(o, "default_status",
				  json_string(s->default_off ? "disabled" : "enabled"));
	rc |= json_object_set_new(o, "core_power_w", json_real(s->core_power_w));
	rc |= json_object_set_new(o, "package_power_w", json_real(s->package_power_w));
	rc |= json_object_set_new(o, "entry_exit_energy_j", json_real(s->entry_exit_energy_j));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *topology_to_json(const struct machine *m)
{
	return json_pack("{s:i, s:i, s:i}", "packages", m->packages, "cores", m->cores, "threads",
			 m->threads);
}

static json_t *machine_to_json(const struct machine *m)
{
	json_t *o = json_object(), *states = json_array();
	int i, rc = 0;

	if (!o || !states) {
		json_decref(o);
		json_decref(states);
		return NULL;
	}
	for (i = 0; i < m->state_count && i < CPUIDLE_STATE_MAX; i++)
		rc |= json_array_append_new(states, state_to_json(&m->states[i]));
	rc |= json_object_set_new(o, "name", json_string(m->name));
	rc |= json_object_set_new(o, "description", json_string(m->desc));
	rc |= json_object_set_new(o, "driver", json_string(m->driver));
	rc |= json_object_set_new(o, "topology", topology_to_json(m));
	rc |= json_object_set_new(o, "power",
				  json_pack("{s:f, s:f}", "active_core_w", m->active_core_power_w,
					    "active_package_w", m->active_package_power_w));
	rc |= json_object_set_new(o, "states", states);
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int machine_write_json(FILE *f, const struct machine *m)
{
	json_t *root = machine_to_json(m);
	int rc;

	if (!root)
		return -1;
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(root);
	if (rc || fputc('\n', f) == EOF || ferror(f))
		return -1;
	return 0;
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
		if (flag_names[bit])
			fprintf(f, " %s", flag_names[bit]);
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
