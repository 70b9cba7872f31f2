// SPDX-License-Identifier: GPL-2.0-only
/*
 * machine_json.c - the JSON form of a machine: reading it (machine_load_json_file,
 * machine_load_json_string) and writing it (machine_write_json).
 *
 * JSON is checked strictly: an unknown field is an error, because a mistyped optional field
 * would otherwise be silently replaced by its default. Every error names the field and points
 * at its line and column; jansson gives the position of syntax errors, and jsonpos finds the
 * position of a value that parsed but makes no sense.
 *
 * It is a file of its own because all of it is about the JSON document; from sim/machine/machine.c it
 * takes only the flag names, the checks of machine_validate() and the default energy rule for
 * the energy values a file leaves out (sim/machine/machine_int.h).
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/base/jsonpos.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define OBJ_PATH_LEN 32 /* "states[N]": a path to an object that holds fields */
#define MACHINE_FILE_MAX (1024 * 1024)

#define JSON_DEFAULT_DRIVER "json"
#define JSON_DEFAULT_CORE_W 4.0
#define JSON_DEFAULT_PACKAGE_W 10.0

/* ---- reading JSON ---- */

static int flag_bit(const char *name)
{
	int bit;

	for (bit = 0; bit < FLAG_BITS; bit++)
		if (machine_flag_names[bit] && !strcasecmp(machine_flag_names[bit], name))
			return bit;
	return -1;
}

static const char *const machine_keys[] = {
	"name", "description", "assumed", "driver", "topology", "power", "states", NULL,
};
static const char *const topology_keys[] = {"packages", "cores",     "threads",
					     "core_types", "llc_cores", NULL};
static const char *const core_type_keys[] = {"name", "cores", "threads", "active_core_w", NULL};
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
	"wake_latency",
	NULL,
};
static const char *const wake_keys[] = {"typical_ns", "quantiles", NULL};

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
static int check_keys(const struct json_where *w, json_t *obj, const char *path,
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
	return jsonpos_fail(w, subpath(p, sizeof(p), path, key),
			    "unknown field '%s' in %s (known: %s)", key,
			    path[0] ? path : "the machine", list);
}

/* A member that must be there; the error points at the object that lacks it. */
static json_t *need(const struct json_where *w, json_t *obj, const char *path, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		jsonpos_fail(w, path, "missing required field '%s' in %s", key,
			     path[0] ? path : "the machine");
	return v;
}

/* Copy a string member into buf; absent leaves buf alone unless it is required. */
static int get_string(const struct json_where *w, json_t *obj, const char *path, const char *key,
		      bool required, char *buf, size_t cap)
{
	json_t *v = required ? need(w, obj, path, key) : json_object_get(obj, key);
	char p[PATH_LEN];
	size_t len;

	if (!v)
		return required ? -1 : 0;
	subpath(p, sizeof(p), path, key);
	if (!json_is_string(v))
		return jsonpos_fail(w, p, "%s must be a string", p);
	len = json_string_length(v);
	if (required && !len)
		return jsonpos_fail(w, p, "%s must not be empty", p);
	if (len >= cap)
		return jsonpos_fail(w, p, "%s is too long: %zu bytes, at most %zu", p, len,
				    cap - 1);
	memcpy(buf, json_string_value(v), len + 1);
	return 0;
}

/* A required integer member in [lo, hi]; `what` says what it must be, for the message. */
static int get_int(const struct json_where *w, json_t *obj, const char *path, const char *key,
		   const char *what, long long lo, long long hi, long long *out)
{
	json_t *v = need(w, obj, path, key);
	char p[PATH_LEN];
	long long x;

	if (!v)
		return -1;
	subpath(p, sizeof(p), path, key);
	if (!json_is_integer(v))
		return jsonpos_fail(w, p, "%s must be %s", p, what);
	x = json_integer_value(v);
	if (x < lo || x > hi)
		return jsonpos_fail(w, p, "%s must be %s in %lld..%lld, not %lld", p, what, lo, hi,
				    x);
	*out = x;
	return 0;
}

/* An optional number member (power or energy); *present says whether it was there. */
static int get_power(const struct json_where *w, json_t *obj, const char *path, const char *key,
		     const char *unit, double *out, bool *present)
{
	json_t *v = json_object_get(obj, key);
	char p[PATH_LEN];
	double x, max;

	*present = v != NULL;
	if (!v)
		return 0;
	subpath(p, sizeof(p), path, key);
	if (!json_is_number(v))
		return jsonpos_fail(w, p, "%s must be a number (%s)", p, unit);
	x = json_number_value(v);
	max = !strcmp(unit, "J") ? MACHINE_ENERGY_MAX_J : MACHINE_POWER_MAX_W;
	if (!isfinite(x) || x < 0 || x > max)
		return jsonpos_fail(w, p, "%s must be in 0..%g (%s), not %.9g", p, max, unit, x);
	*out = x;
	return 0;
}

static int get_object(const struct json_where *w, json_t *obj, const char *key, bool required,
		      json_t **out)
{
	json_t *v = required ? need(w, obj, "", key) : json_object_get(obj, key);

	*out = v;
	if (!v)
		return required ? -1 : 0;
	if (!json_is_object(v))
		return jsonpos_fail(w, key, "%s must be an object", key);
	return 0;
}

/*
 * A hybrid package: "core_types": [{"name", "cores", "threads", "active_core_w"?}, ...] in
 * CPU numbering order, instead of "cores" and "threads" (which then hold the sum and the
 * maximum: struct machine).
 */
static int load_core_types(const struct json_where *w, json_t *topo, struct machine *m)
{
	const char *what = "a positive integer";
	json_t *arr = json_object_get(topo, "core_types");
	char p[PATH_LEN];
	size_t i;

	if (json_object_get(topo, "cores") || json_object_get(topo, "threads"))
		return jsonpos_fail(w, "topology.core_types",
				    "topology gives core_types and cores or threads: cores and "
				    "threads of a hybrid machine are its core types'");
	if (!json_is_array(arr) || !json_array_size(arr) ||
	    json_array_size(arr) > MACHINE_MAX_CORE_TYPES)
		return jsonpos_fail(w, "topology.core_types",
				    "topology.core_types must be an array of 1 to %d objects",
				    MACHINE_MAX_CORE_TYPES);
	m->nr_core_types = (int)json_array_size(arr);
	m->cores = m->threads = 0;
	for (i = 0; i < json_array_size(arr); i++) {
		struct machine_core_type *t = &m->core_types[i];
		json_t *o = json_array_get(arr, i);
		long long c, th;
		bool present;

		snprintf(p, sizeof(p), "topology.core_types[%zu]", i);
		if (!json_is_object(o))
			return jsonpos_fail(w, p, "%s must be an object", p);
		if (check_keys(w, o, p, core_type_keys) ||
		    get_string(w, o, p, "name", true, t->name, sizeof(t->name)) ||
		    get_int(w, o, p, "cores", what, 1, MACHINE_MAX_CPUS, &c) ||
		    get_int(w, o, p, "threads", what, 1, MACHINE_MAX_CPUS, &th) ||
		    get_power(w, o, p, "active_core_w", "W", &t->active_core_power_w, &present))
			return -1;
		t->cores = (int)c;
		t->threads = (int)th;
		if (m->cores > MACHINE_MAX_CPUS - t->cores)
			return jsonpos_fail(w, p, "too many cores: at most %d", MACHINE_MAX_CPUS);
		m->cores += t->cores;
		m->threads = t->threads > m->threads ? t->threads : m->threads;
	}
	return 0;
}

static int load_topology(const struct json_where *w, json_t *root, struct machine *m)
{
	const char *what = "a positive integer";
	long long p, c, t;
	json_t *obj;

	if (get_object(w, root, "topology", true, &obj) ||
	    check_keys(w, obj, "topology", topology_keys))
		return -1;
	if (get_int(w, obj, "topology", "packages", what, 1, MACHINE_MAX_CPUS, &p))
		return -1;
	m->packages = (int)p;
	if (json_object_get(obj, "llc_cores")) { /* optional: 0 or absent, the package */
		if (get_int(w, obj, "topology", "llc_cores", "a non-negative integer", 0,
			    MACHINE_MAX_CPUS, &c))
			return -1;
		m->llc_cores = (int)c;
	}
	if (json_object_get(obj, "core_types"))
		return load_core_types(w, obj, m);
	if (get_int(w, obj, "topology", "cores", what, 1, MACHINE_MAX_CPUS, &c) ||
	    get_int(w, obj, "topology", "threads", what, 1, MACHINE_MAX_CPUS, &t))
		return -1;
	m->cores = (int)c;
	m->threads = (int)t;
	return 0;
}

static int load_power(const struct json_where *w, json_t *root, struct machine *m)
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

static int unknown_flag(const struct json_where *w, const char *path, const char *name)
{
	char list[240] = "";
	int bit;

	for (bit = 0; bit < FLAG_BITS; bit++)
		if (machine_flag_names[bit])
			list_append(list, sizeof(list), machine_flag_names[bit]);
	return jsonpos_fail(w, path, "%s: unknown flag '%s' (known: %s)", path, name, list);
}

static int load_flags(const struct json_where *w, json_t *st, const char *path, unsigned int *flags)
{
	json_t *arr = json_object_get(st, "flags");
	char p[PATH_LEN];
	size_t k;

	*flags = 0;
	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return jsonpos_fail(w, subpath(p, sizeof(p), path, "flags"),
				    "%s.flags must be an array of flag names", path);
	for (k = 0; k < json_array_size(arr); k++) {
		json_t *v = json_array_get(arr, k);
		int bit = json_is_string(v) ? flag_bit(json_string_value(v)) : -1;

		snprintf(p, sizeof(p), "%s.flags[%zu]", path, k);
		if (!json_is_string(v))
			return jsonpos_fail(w, p, "%s must be a flag name (a string)", p);
		if (bit < 0)
			return unknown_flag(w, p, json_string_value(v));
		*flags |= 1u << bit;
	}
	return 0;
}

/* default_status, and CPUIDLE_FLAG_OFF, which the kernel turns into "disabled" at boot. */
static int load_status(const struct json_where *w, json_t *st, const char *path, struct machine_state *s)
{
	json_t *v = json_object_get(st, "default_status");
	const char *status = json_is_string(v) ? json_string_value(v) : "";
	char p[PATH_LEN];

	subpath(p, sizeof(p), path, "default_status");
	if (v && strcmp(status, "enabled") && strcmp(status, "disabled"))
		return jsonpos_fail(w, p, "%s must be \"enabled\" or \"disabled\"", p);
	if ((s->flags & CPUIDLE_FLAG_OFF) && !strcmp(status, "enabled"))
		return jsonpos_fail(
			w, p,
			"%s is \"enabled\" but the state has flag OFF, which disables it by "
			"default",
			p);
	s->default_off = !strcmp(status, "disabled") || (s->flags & CPUIDLE_FLAG_OFF);
	return 0;
}

/* Read the energy fields that are there; mark them in *given so the rest get defaulted. */
static int load_state_energy(const struct json_where *w, json_t *st, const char *path,
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

/* One quantile point [p, ns] of states[i].wake_latency.quantiles. */
static int load_quantile(const struct json_where *w, json_t *pt, const char *path, int k,
			 struct machine_wake *wk)
{
	json_t *p = json_array_get(pt, 0), *ns = json_array_get(pt, 1);
	char q[PATH_LEN + 24];

	snprintf(q, sizeof(q), "%s.quantiles[%d]", path, k);
	if (!json_is_array(pt) || json_array_size(pt) != 2 || !json_is_number(p) ||
	    !json_is_integer(ns))
		return jsonpos_fail(w, q, "%s must be [probability, latency in ns], e.g. [0.5, 4000]",
				    q);
	wk->q_p[k] = json_number_value(p);
	wk->q_ns[k] = json_integer_value(ns);
	return 0;
}

/*
 * "wake_latency": "worst" (the default: the advertised exit latency), or
 * {"typical_ns": N} (a fixed value), or {"quantiles": [[p, ns], ...]} with an optional
 * typical_ns (else the median of the quantiles). Ranges are machine_validate_wake()'s.
 */
static int load_wake(const struct json_where *w, json_t *st, const char *path, struct machine_wake *wk)
{
	json_t *v = json_object_get(st, "wake_latency"), *typ, *qs;
	char p[PATH_LEN];
	size_t k;

	memset(wk, 0, sizeof(*wk));
	if (!v)
		return 0;
	subpath(p, sizeof(p), path, "wake_latency");
	if (json_is_string(v) && !strcmp(json_string_value(v), "worst"))
		return 0;
	if (!json_is_object(v))
		return jsonpos_fail(w, p,
				    "%s must be \"worst\" or an object with typical_ns and/or "
				    "quantiles",
				    p);
	if (check_keys(w, v, p, wake_keys))
		return -1;
	typ = json_object_get(v, "typical_ns");
	qs = json_object_get(v, "quantiles");
	if (!typ && !qs)
		return jsonpos_fail(w, p, "%s needs typical_ns or quantiles (or both)", p);
	if (typ && !json_is_integer(typ)) {
		char t[PATH_LEN + 16];

		snprintf(t, sizeof(t), "%s.typical_ns", p);
		return jsonpos_fail(w, t, "%s must be an integer (ns)", t);
	}
	wk->kind = qs ? MACHINE_WAKE_DIST : MACHINE_WAKE_TYPICAL;
	if (qs) {
		if (!json_is_array(qs) || json_array_size(qs) < 2 ||
		    json_array_size(qs) > MACHINE_WAKE_MAX_QUANTILES) {
			char t[PATH_LEN + 16];

			snprintf(t, sizeof(t), "%s.quantiles", p);
			return jsonpos_fail(w, t, "%s must be an array of 2..%d [p, ns] points", t,
					    MACHINE_WAKE_MAX_QUANTILES);
		}
		for (k = 0; k < json_array_size(qs); k++)
			if (load_quantile(w, json_array_get(qs, k), p, (int)k, wk))
				return -1;
		wk->nr_quantiles = (int)json_array_size(qs);
	}
	/* Without a typical value, the median; the quantiles are checked by validation. */
	wk->typical_ns = typ ? json_integer_value(typ) : machine_wake_quantile_ns(wk, 0.5);
	return 0;
}

static int load_state(const struct json_where *w, json_t *st, int i, struct machine_state *s,
		      unsigned int *given)
{
	const char *ns = "an integer (ns)";
	char path[OBJ_PATH_LEN];
	long long lat, res;

	snprintf(path, sizeof(path), "states[%d]", i);
	if (!json_is_object(st))
		return jsonpos_fail(w, path, "%s must be an object", path);
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
	if (load_wake(w, st, path, &s->wake))
		return -1;
	return load_state_energy(w, st, path, s, given);
}

static int load_states(const struct json_where *w, json_t *root, struct machine *m, unsigned int *given)
{
	json_t *arr = need(w, root, "", "states");
	size_t i;

	if (!arr)
		return -1;
	if (!json_is_array(arr) || !json_array_size(arr))
		return jsonpos_fail(w, "states",
				    "states must be a non-empty array of state objects");
	if (json_array_size(arr) > CPUIDLE_STATE_MAX) {
		char p[PATH_LEN];

		snprintf(p, sizeof(p), "states[%d]", CPUIDLE_STATE_MAX);
		return jsonpos_fail(w, p, "too many states: %zu, at most %d (CPUIDLE_STATE_MAX)",
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
static int load_root(const struct json_where *w, json_t *root, struct machine *m)
{
	unsigned int given[CPUIDLE_STATE_MAX] = {0};

	if (!json_is_object(root))
		return jsonpos_fail(w, "", "a machine must be a JSON object");
	memset(m, 0, sizeof(*m));
	snprintf(m->driver, sizeof(m->driver), "%s", JSON_DEFAULT_DRIVER);
	if (check_keys(w, root, "", machine_keys) ||
	    get_string(w, root, "", "name", true, m->name, sizeof(m->name)) ||
	    get_string(w, root, "", "description", false, m->desc, sizeof(m->desc)) ||
	    get_string(w, root, "", "assumed", false, m->assumed, sizeof(m->assumed)) ||
	    get_string(w, root, "", "driver", false, m->driver, sizeof(m->driver)) ||
	    load_topology(w, root, m) || load_power(w, root, m) || load_states(w, root, m, given))
		return -1;
	machine_fill_energy(m, given, MACHINE_DEFAULT_ALL);
	return machine_validate_at(m, w);
}

int machine_load_json_string(const char *text, const char *source, struct machine *m,
			     struct sim_error *err)
{
	const struct json_where w = {source ? source : "<string>", text, err, NULL};
	struct machine tmp;
	json_error_t jerr;
	char msg[4 * JSON_ERROR_TEXT_LENGTH];
	unsigned long failures;
	json_t *root;
	int rc;

	if (!text)
		return sim_error_set(err, SIM_ERR_INTERNAL, w.source, 0, 0, "no JSON text");
	if (!text[strspn(text, " \t\r\n")])
		return sim_error_set(err, SIM_ERR_INPUT, w.source, 1, 1,
				     "empty file: expected a JSON machine object (see idlesim "
				     "machines NAME --json)");
	if (sim_has_bom(text, strlen(text)))
		return sim_error_set(err, SIM_ERR_INPUT, w.source, 1, 1, SIM_BOM_MESSAGE);
	failures = sim_alloc_failures();
	root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	/* jansson may report a failed allocation as a syntax error: trust the allocator */
	if (!root && sim_alloc_failures() != failures)
		return sim_error_nomem(err, w.source);
	/* jansson counts the column of an error at the start of a line (end of file) as 0 */
	if (!root)
		return sim_error_set(err, SIM_ERR_INPUT, w.source, max(jerr.line, 0),
				     jerr.line > 0 ? max(jerr.column, 1) : 0, "%s",
				     jsonpos_clean_message(msg, sizeof(msg), jerr.text));
	rc = load_root(&w, root, &tmp);
	json_decref(root);
	if (!rc)
		*m = tmp;
	return rc;
}

/* Read a whole (small) file into a NUL-terminated buffer. */
/* path "-": standard input (read once: the caller keeps what it parsed). Messages name
 * `path` as given by the caller. */
static int read_small_file(const char *path, char **text, struct sim_error *err)
{
	int fd = strcmp(path, "-") ? -1 : dup(STDIN_FILENO);
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : fd >= 0 ? fdopen(fd, "r") : NULL;
	size_t cap = 0, len = 0, n;
	void *buf = NULL;
	int rc = 0;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open machine file: %s",
				     strerror(errno));
	}
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
	if (!rc && memchr(buf, '\0', len)) {
		/* point at it: line and column (in bytes) of the first NUL */
		const char *p = buf, *nul = memchr(buf, '\0', len), *bol = p;
		int line = 1;

		for (; p < nul; p++)
			if (*p == '\n')
				line++, bol = p + 1;
		rc = sim_error_set(err, SIM_ERR_INPUT, path, line, (int)(nul - bol) + 1,
				   "machine file contains a NUL byte: is it a JSON file?");
	}
	if (rc) {
		sim_free(buf);
		return rc;
	}
	((char *)buf)[len] = '\0';
	*text = buf;
	return 0;
}

/*
 * The name of a machine loaded from a file: its `name` field unless that is a built-in's
 * (an edited copy of skl must not print as skl), else the file's name without ".json",
 * and with it when the stem is itself a built-in's name (skl.json stays "skl.json").
 */
static void file_machine_name(const char *path, struct machine *m)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);

	if (!machine_find_builtin(m->name))
		return;
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	snprintf(m->name, sizeof(m->name), "%.*s", (int)n, base);
	if (machine_find_builtin(m->name) || !m->name[0])
		snprintf(m->name, sizeof(m->name), "%.*s.json",
			 (int)(n < sizeof(m->name) - 6 ? n : sizeof(m->name) - 6), base);
}

int machine_load_json_file_as(const char *path, const char *source, struct machine *m,
			      struct sim_error *err)
{
	char *text = NULL;
	int rc;

	if (read_small_file(path, &text, err)) {
		snprintf(err->source, sizeof(err->source), "%s", source);
		return -1;
	}
	rc = machine_load_json_string(text, source, m, err);
	sim_free(text);
	if (!rc)
		file_machine_name(source, m);
	return rc;
}

int machine_load_json_file(const char *path, struct machine *m, struct sim_error *err)
{
	return machine_load_json_file_as(path, strcmp(path, "-") ? path : "<stdin>", m, err);
}

/* ---- writing JSON ---- */

static json_t *flags_to_json(unsigned int flags)
{
	json_t *arr = json_array();
	int bit, rc = 0;

	for (bit = 0; arr && bit < FLAG_BITS; bit++)
		if ((flags & (1u << bit)) && machine_flag_names[bit])
			rc |= json_array_append_new(arr, json_string(machine_flag_names[bit]));
	if (rc) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

/* {"typical_ns", "quantiles"} as load_wake() reads it. */
static json_t *wake_to_json(const struct machine_wake *wk)
{
	json_t *o, *qs;
	int k, rc = 0;

	o = json_object();
	if (!o)
		return NULL;
	rc |= json_object_set_new(o, "typical_ns", json_integer(wk->typical_ns));
	if (wk->kind == MACHINE_WAKE_DIST) {
		qs = json_array();
		for (k = 0; qs && k < wk->nr_quantiles; k++)
			rc |= json_array_append_new(
				qs, json_pack("[f, I]", wk->q_p[k], (json_int_t)wk->q_ns[k]));
		rc |= json_object_set_new(o, "quantiles", qs);
	}
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
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
	if (s->wake.kind != MACHINE_WAKE_WORST) /* absent means worst */
		rc |= json_object_set_new(o, "wake_latency", wake_to_json(&s->wake));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *topology_to_json(const struct machine *m)
{
	json_t *o, *types;

	if (!m->nr_core_types && m->llc_cores)
		return json_pack("{s:i, s:i, s:i, s:i}", "packages", m->packages, "cores", m->cores,
				 "threads", m->threads, "llc_cores", m->llc_cores);
	if (!m->nr_core_types)
		return json_pack("{s:i, s:i, s:i}", "packages", m->packages, "cores", m->cores,
				 "threads", m->threads);
	types = json_array();
	for (int k = 0; types && k < m->nr_core_types; k++) {
		const struct machine_core_type *t = &m->core_types[k];
		json_t *ct = json_pack("{s:s, s:i, s:i}", "name", t->name, "cores", t->cores,
				       "threads", t->threads);

		if (ct && t->active_core_power_w > 0 &&
		    json_object_set_new(ct, "active_core_w", json_real(t->active_core_power_w))) {
			json_decref(ct);
			ct = NULL;
		}
		if (!ct || json_array_append_new(types, ct)) {
			json_decref(types);
			return NULL;
		}
	}
	o = json_pack("{s:i, s:o}", "packages", m->packages, "core_types", types);
	return o;
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
	if (m->assumed[0]) /* absent means nothing assumed beyond the documented rules */
		rc |= json_object_set_new(o, "assumed", json_string(m->assumed));
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

/*
 * Write JSON text (as jansson dumps it, reals at 17 digits) with every real number in the
 * shortest form that reads back to the same double: 1.36, not 1.3600000000000001 (the
 * product 4.0 x 0.34), so that a saved machine loads back identical, hash and all.
 * Strings are copied as they are.
 */
static int write_shortest_reals(FILE *f, const char *s)
{
	bool in_string = false;

	while (*s) {
		size_t n = strspn(s, "-+0123456789.eE");

		/* a number token starts with - or a digit (not the e of false) */
		if (in_string || !n || !strchr("-0123456789", *s) || strcspn(s, ".eE") >= n) {
			if (*s == '"')
				in_string = !in_string;
			else if (in_string && *s == '\\' && s[1])
				fputc(*s++, f);
			fputc(*s++, f);
			continue;
		}
		{
			char tok[40], out[40];
			double x;
			int p;

			snprintf(tok, sizeof(tok), "%.*s", (int)(n < sizeof(tok) ? n : sizeof(tok) - 1), s);
			x = strtod(tok, NULL);
			/* at least the integer digits, so that 10 stays 10, not 1e+01 */
			p = fabs(x) >= 1 && fabs(x) < 1e17 ? (int)log10(fabs(x)) + 1 : 1;
			do
				snprintf(out, sizeof(out), "%.*g", p, x);
			while (strtod(out, NULL) != x && ++p <= 17);
			fputs(out, f);
			if (!strpbrk(out, ".eEn")) /* still a real when read back: 5.0, not 5 */
				fputs(".0", f);
			s += n;
		}
	}
	return ferror(f) ? -1 : 0;
}

int machine_write_json(FILE *f, const struct machine *m)
{
	json_t *root = machine_to_json(m);
	char *text;
	int rc;

	if (!root)
		return -1;
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(root);
	if (!text)
		return -1;
	rc = write_shortest_reals(f, text);
	sim_free(text);
	if (rc || fputc('\n', f) == EOF || ferror(f))
		return -1;
	return 0;
}
