// SPDX-License-Identifier: GPL-2.0-only
/*
 * snap_build.c - the machine of a sysfs snapshot (sim/machine/snapshot.h): what the files of
 * /sys/devices/system/cpu say, checked, and what they do not say taken from a built-in and
 * marked as assumed (docs/machines.md, "Your own machine").
 *
 *  - CPUs: `online` must be 0..N-1 (idlesim numbers its CPUs from 0 without holes).
 *  - Driver: cpuidle/current_driver; the governor (current_governor, or current_governor_ro
 *    before v5.?) only goes into the description.
 *  - Table: cpuN/cpuidle/stateK/{name,desc,latency,residency,disable,default_status},
 *    latency and residency in us as sysfs prints them (the kernel's exit_latency_ns / 1000),
 *    kept in ns. A state named POLL gets CPUIDLE_FLAG_POLLING; sysfs shows no other flag.
 *    default_status (v5.6 on) gives default_off; without it, `disable` (the state as the
 *    user left it) stands in. Every CPU's table must be the first CPU's: the engine has one
 *    table for all CPUs.
 *  - Topology: cpuN/topology/{physical_package_id,core_id,thread_siblings_list}, and the
 *    hybrid PMU lists /sys/devices/cpu_core/cpus and cpu_atom/cpus. A machine is uniform
 *    when Linux's thread-rank numbering (struct machine) gives every CPU its package and
 *    core; otherwise, or when both PMU lists name CPUs, its cores are numbered core by core
 *    with siblings adjacent, in kinds (struct machine_core_type). Anything else is refused.
 *  - Assumed: the active powers and the wake latencies of the closest built-in of the same
 *    driver (machine.assumed says which); per-state powers by the default rule.
 */
#include "sim/machine/machine.h"
#include "sim/machine/machine_int.h"
#include "sim/machine/snap_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/base/cpulist.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define LINE_MAX_LEN 256
#define PROBE_STATES 32 /* stateK directories looked for, to find gaps past the last */
#define DEFAULT_CORE_W 4.0
#define DEFAULT_PACKAGE_W 10.0

struct snap_cpu {
	long long package_id, core_id;
	int nr_siblings;
	int first_sibling; /* the lowest CPU of its core */
	int kind;	   /* hybrid PMU list: 0 cpu_core, 1 cpu_atom, -1 none */
};

/* One state as sysfs shows it, to compare CPU with CPU. */
struct snap_state {
	char name[LINE_MAX_LEN], desc[LINE_MAX_LEN];
	long long latency_us, residency_us;
	int default_off; /* from default_status, or from disable without it */
};

struct build {
	struct snap *s;
	struct machine *m;
	FILE *note;
	struct sim_error *err;
	int nr_cpus;
	struct snap_cpu *cpu;
	bool *mask; /* CPULIST_MAX, scratch for cpulist_parse() */
	bool has_default_status;
	unsigned int noted; /* states whose `disable` was noted */
	char governor[LINE_MAX_LEN];
};

/* ---- reading values ---- */

/* An input error at lp (named as snap_where() names it), line and column 0 when unknown. */
__attribute__((format(printf, 5, 6))) static int fail(struct build *b, const char *lp, int line,
						      int col, const char *fmt, ...)
{
	char where[SNAP_PATH_LEN * 2], msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snap_where(b->s, lp, where, sizeof(where));
	return sim_error_set(b->err, SIM_ERR_INPUT, where, line, col, "%s", msg);
}

/* One line of text, without its newline; 1 when absent and not required. */
static int read_line(struct build *b, const char *lp, bool required, char *buf, size_t cap)
{
	const char *t;
	size_t n;
	int rc = snap_read(b->s, lp, required, &t, b->err);

	if (rc)
		return rc;
	n = strcspn(t, "\n");
	if (t[n] == '\n' && t[n + 1])
		return fail(b, lp, 2, 1, "a second line: sysfs gives one");
	if (n >= cap)
		return fail(b, lp, 1, (int)cap, "longer than %zu bytes: sysfs gives a short line",
			    cap - 1);
	memcpy(buf, t, n);
	buf[n] = '\0';
	return 0;
}

/* A decimal number in [lo, hi]; `what` names it in the message. */
static int read_num(struct build *b, const char *lp, const char *what, long long lo, long long hi,
		    long long *out)
{
	char line[LINE_MAX_LEN], *end;
	long long v;
	int rc = read_line(b, lp, true, line, sizeof(line));

	if (rc)
		return -1;
	if (!line[0])
		return fail(b, lp, 1, 1, "empty: expected %s", what);
	if (line[0] == '-' && lo >= 0)
		return fail(b, lp, 1, 1, "negative %s: '%s'", what, line);
	end = line + (line[0] == '-');
	end += strspn(end, "0123456789");
	if (*end || end == line + (line[0] == '-'))
		return fail(b, lp, 1, (int)(end - line) + 1,
			    "'%s' is not a decimal number: expected %s", line, what);
	errno = 0;
	v = strtoll(line, NULL, 10);
	if (errno || v < lo || v > hi)
		return fail(b, lp, 1, 1, "%s is out of range for %s", line, what);
	*out = v;
	return 0;
}

/* A CPU list into b->mask; returns its highest CPU + 1 (0: empty), -1 on error. */
static int read_list(struct build *b, const char *lp, bool required)
{
	char line[LINE_MAX_LEN * 4], why[128];
	int rc = read_line(b, lp, required, line, sizeof(line)), n;

	if (rc)
		return rc > 0 ? 0 : -1;
	if (!line[0]) {
		memset(b->mask, 0, CPULIST_MAX * sizeof(*b->mask));
		return 0;
	}
	n = cpulist_parse(line, b->mask, why, sizeof(why));
	if (n < 0)
		return fail(b, lp, 1, 1, "not a CPU list: %s", why);
	return n;
}

/* ---- CPUs and topology ---- */

static int read_online(struct build *b)
{
	const char *lp = SNAP_CPU_DIR "/online";
	int n = read_list(b, lp, true), i;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (!b->mask[i])
			return fail(b, lp, 1, 1,
				    "CPUs are online with a hole in their numbers: idlesim "
				    "numbers CPUs 0..N-1 (bring them all online before the snapshot)");
	if (n < 1 || n > MACHINE_MAX_CPUS)
		return fail(b, lp, 1, 1, "no online CPU, or more than idlesim's %d", MACHINE_MAX_CPUS);
	b->nr_cpus = n;
	b->cpu = sim_calloc((size_t)n, sizeof(*b->cpu));
	return b->cpu ? 0 : sim_error_nomem(b->err, "snapshot");
}

/* The hybrid PMU lists: each CPU's kind; 1 when both name CPUs (a hybrid part). */
static int read_kinds(struct build *b)
{
	static const char *const lists[2] = {"sys/devices/cpu_core/cpus",
					     "sys/devices/cpu_atom/cpus"};
	int seen = 0;

	for (int i = 0; i < b->nr_cpus; i++)
		b->cpu[i].kind = -1;
	for (int k = 0; k < 2; k++) {
		int n = read_list(b, lists[k], false);

		if (n < 0)
			return -1;
		seen += n > 0;
		for (int i = 0; i < n; i++) {
			if (!b->mask[i])
				continue;
			if (i >= b->nr_cpus || b->cpu[i].kind >= 0) {
				return fail(b, lists[k], 1, 1, "CPU %d is offline or in both hybrid lists",
					    i);
			}
			b->cpu[i].kind = k;
		}
	}
	return seen == 2;
}

static int read_cpu_topology(struct build *b, int n)
{
	struct snap_cpu *c = &b->cpu[n];
	char lp[SNAP_PATH_LEN];
	int hi, k;

	snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/topology/physical_package_id", n);
	if (read_num(b, lp, "a package id", -1, INT_MAX, &c->package_id))
		return -1;
	snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/topology/core_id", n);
	if (read_num(b, lp, "a core id", -1, INT_MAX, &c->core_id))
		return -1;
	snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/topology/thread_siblings_list", n);
	hi = read_list(b, lp, true);
	if (hi < 0)
		return -1;
	if (hi > b->nr_cpus || hi <= n || !b->mask[n])
		return fail(b, lp, 1, 1,
			    "the list must name the CPU itself and online CPUs only");
	c->first_sibling = -1;
	for (k = 0; k < hi; k++) {
		if (!b->mask[k])
			continue;
		if (c->first_sibling < 0)
			c->first_sibling = k;
		c->nr_siblings++;
	}
	return 0;
}

/* Siblings share package and core ids, and every CPU with those ids is a sibling. */
static int check_siblings(struct build *b)
{
	for (int n = 0; n < b->nr_cpus; n++) {
		const struct snap_cpu *c = &b->cpu[n];
		int same = 0;

		for (int k = 0; k < b->nr_cpus; k++)
			if (b->cpu[k].package_id == c->package_id && b->cpu[k].core_id == c->core_id) {
				same++;
				if (b->cpu[k].first_sibling != c->first_sibling ||
				    b->cpu[k].nr_siblings != c->nr_siblings) {
					char lp[SNAP_PATH_LEN];

					snprintf(lp, sizeof(lp),
						 SNAP_CPU_DIR "/cpu%d/topology/thread_siblings_list", k);
					return fail(b, lp, 1, 1,
						    "CPU %d has the same package and core id but other "
						    "siblings",
						    n);
				}
			}
		if (same != c->nr_siblings) {
			char lp[SNAP_PATH_LEN];

			snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/topology/thread_siblings_list", n);
			return fail(b, lp, 1, 1,
				    "the siblings listed are not the CPUs with this CPU's "
				    "physical_package_id and core_id");
		}
	}
	return 0;
}

/* The number of distinct package ids. */
static int count_packages(const struct build *b)
{
	int p = 0;

	for (int n = 0; n < b->nr_cpus; n++) {
		int k;

		for (k = 0; k < n && b->cpu[k].package_id != b->cpu[n].package_id; k++)
			;
		p += k == n;
	}
	return p;
}

/*
 * Linux's thread-rank numbering: CPU n is thread n / (P x C) of core n % C of package
 * (n % (P x C)) / C. It fits when the model's cores and packages map one to one onto the
 * snapshot's: every CPU of a model core is in the same snapshot core, and likewise packages.
 */
static bool try_uniform(struct build *b)
{
	int P = count_packages(b), T = b->cpu[0].nr_siblings, C, per_rank, n;
	long long *pkg_map;
	int *core_map;
	bool ok = true;

	if (b->nr_cpus % (P * T))
		return false;
	C = b->nr_cpus / (P * T);
	per_rank = P * C;
	pkg_map = sim_malloc((size_t)P * sizeof(*pkg_map));
	core_map = sim_malloc((size_t)per_rank * sizeof(*core_map));
	if (!pkg_map || !core_map) {
		sim_free(pkg_map);
		sim_free(core_map);
		return false;
	}
	for (n = 0; ok && n < b->nr_cpus; n++) {
		const struct snap_cpu *c = &b->cpu[n];
		int r = n % per_rank, p = r / C;

		if (c->nr_siblings != T)
			ok = false;
		else if (n < per_rank) /* the first rank: each CPU the first thread of a core */
			ok = c->first_sibling == n && (r % C == 0 || pkg_map[p] == c->package_id),
			pkg_map[p] = c->package_id, core_map[r] = n;
		else
			ok = pkg_map[p] == c->package_id && core_map[r] == c->first_sibling;
	}
	sim_free(pkg_map);
	sim_free(core_map);
	if (!ok)
		return false;
	b->m->packages = P;
	b->m->cores = C;
	b->m->threads = T;
	b->m->nr_core_types = 0;
	return true;
}

static int topo_fail(struct build *b, int n, const char *why)
{
	char lp[SNAP_PATH_LEN];

	snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/topology/thread_siblings_list", n);
	return fail(b, lp, 1, 1,
		    "%s: idlesim numbers CPUs by thread rank (first threads of all cores, then "
		    "their siblings) or core by core with siblings adjacent (hybrid parts), and "
		    "this topology is neither",
		    why);
}

/* One run of cores of a package: `cores` cores of `threads` threads with one label. */
struct core_run {
	int label, threads, cores;
};

#define MAX_RUNS (MACHINE_MAX_CORE_TYPES + 1)

/*
 * Core by core, siblings adjacent, kind by kind, package by package (struct
 * machine_core_type). Kinds are the runs of cores of one PMU list (hybrid) or of one
 * sibling count; every package must have the same runs.
 */
static int try_cores(struct build *b, bool hybrid)
{
	struct core_run first[MAX_RUNS], cur[MAX_RUNS];
	int n = 0, P = 0, nfirst = 0, ncur = 0, pkg_start = 0;
	struct machine *m = b->m;

	while (n <= b->nr_cpus) {
		const struct snap_cpu *c = n < b->nr_cpus ? &b->cpu[n] : NULL;
		int label;

		if (!c || (n && c->package_id != b->cpu[n - 1].package_id)) {
			/* a package ends: its runs must be the first package's */
			if (P == 0) {
				memcpy(first, cur, sizeof(cur));
				nfirst = ncur;
			} else if (ncur != nfirst || memcmp(first, cur, (size_t)ncur * sizeof(*cur))) {
				return topo_fail(b, pkg_start, "packages differ in their cores");
			}
			P++;
			ncur = 0;
			pkg_start = n;
			if (!c)
				break;
			for (int q = 0; q < n; q++)
				if (b->cpu[q].package_id == c->package_id)
					return topo_fail(b, n, "its package's CPUs are not together");
		}
		if (c->first_sibling != n || n + c->nr_siblings > b->nr_cpus)
			return topo_fail(b, n, "its siblings are not the CPUs after it");
		for (int t = 1; t < c->nr_siblings; t++)
			if (b->cpu[n + t].first_sibling != n ||
			    b->cpu[n + t].package_id != c->package_id ||
			    (hybrid && b->cpu[n + t].kind != c->kind))
				return topo_fail(b, n, "its siblings are not the CPUs after it");
		if (hybrid && c->kind < 0)
			return topo_fail(b, n, "the CPU is in neither hybrid list (cpu_core, cpu_atom)");
		label = hybrid ? c->kind : c->nr_siblings;
		if (ncur && cur[ncur - 1].label == label) {
			if (cur[ncur - 1].threads != c->nr_siblings)
				return topo_fail(b, n, "cores of one kind differ in their threads");
			cur[ncur - 1].cores++;
		} else {
			if (ncur == MACHINE_MAX_CORE_TYPES)
				return topo_fail(b, n, "more kinds of core than idlesim has (4)");
			cur[ncur++] = (struct core_run){label, c->nr_siblings, 1};
		}
		n += c->nr_siblings;
	}
	m->packages = P;
	m->nr_core_types = nfirst;
	m->cores = m->threads = 0;
	for (int k = 0; k < nfirst; k++) {
		struct machine_core_type *t = &m->core_types[k];

		memset(t, 0, sizeof(*t));
		if (hybrid)
			snprintf(t->name, sizeof(t->name), "%s", first[k].label ? "cpu_atom" : "cpu_core");
		else
			snprintf(t->name, sizeof(t->name), "kind%d", k);
		t->cores = first[k].cores;
		t->threads = first[k].threads;
		m->cores += t->cores;
		m->threads = t->threads > m->threads ? t->threads : m->threads;
	}
	return 0;
}

static int read_topology(struct build *b)
{
	int hybrid = read_kinds(b);

	if (hybrid < 0)
		return -1;
	for (int n = 0; n < b->nr_cpus; n++)
		if (read_cpu_topology(b, n))
			return -1;
	if (check_siblings(b))
		return -1;
	if (!hybrid && try_uniform(b))
		return 0;
	return try_cores(b, hybrid);
}

/* ---- the table ---- */

static int state_count(struct build *b, int n)
{
	char lp[SNAP_PATH_LEN];
	int count = -1, k;

	for (k = 0; k < PROBE_STATES; k++) {
		snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/cpuidle/state%d", n, k);
		if (snap_has(b->s, lp)) {
			if (count >= 0) {
				snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/cpuidle/state%d", n, count);
				return fail(b, lp, 0, 0,
					    "missing, but a deeper state is there: states are numbered "
					    "0, 1, 2... without gaps");
			}
		} else if (count < 0) {
			count = k;
		}
	}
	if (count == 0) {
		snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/cpuidle/state0", n);
		return fail(b, lp, 0, 0, "missing: the CPU has no idle states (no cpuidle driver?)");
	}
	if (count > CPUIDLE_STATE_MAX) {
		snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/cpuidle/state%d", n, CPUIDLE_STATE_MAX);
		return fail(b, lp, 0, 0, "more states than the kernel's CPUIDLE_STATE_MAX (10)");
	}
	return count;
}

/* stateK of CPU n, as sysfs shows it. */
static int read_state(struct build *b, int n, int k, struct snap_state *st)
{
	char lp[SNAP_PATH_LEN], v[LINE_MAX_LEN];
	const char *dir = SNAP_CPU_DIR;
	long long disable;
	int rc;

#define STATE_FILE(f) (snprintf(lp, sizeof(lp), "%s/cpu%d/cpuidle/state%d/" f, dir, n, k), lp)
	if (read_line(b, STATE_FILE("name"), true, st->name, sizeof(st->name)) ||
	    read_line(b, STATE_FILE("desc"), true, st->desc, sizeof(st->desc)) ||
	    read_num(b, STATE_FILE("latency"), "an exit latency in us", 0, UINT_MAX,
		     &st->latency_us) ||
	    read_num(b, STATE_FILE("residency"), "a target residency in us", 0, UINT_MAX,
		     &st->residency_us) ||
	    read_num(b, STATE_FILE("disable"), "0 or 1", 0, 1, &disable))
		return -1;
	if (!st->name[0])
		return fail(b, STATE_FILE("name"), 1, 1, "an empty state name");
	if (strlen(st->name) >= CPUIDLE_NAME_LEN || strlen(st->desc) >= CPUIDLE_DESC_LEN)
		return fail(b, STATE_FILE("name"), 1, 1,
			    "name or desc longer than the kernel's (15 and 31 bytes)");
	rc = read_line(b, STATE_FILE("default_status"), false, v, sizeof(v));
	if (rc < 0)
		return -1;
	if (rc == 0 && strcmp(v, "enabled") && strcmp(v, "disabled"))
		return fail(b, lp, 1, 1, "'%s': expected enabled or disabled", v);
	if (n == 0 && k == 0)
		b->has_default_status = rc == 0;
	else if (b->has_default_status != (rc == 0))
		return fail(b, lp, 0, 0, "%s here but not on cpu0's state0",
			    rc == 0 ? "present" : "missing");
	st->default_off = rc == 0 ? !strcmp(v, "disabled") : (int)disable;
	if (rc == 0 && disable && !st->default_off && b->note && !(b->noted & (1u << k))) {
		b->noted |= 1u << k; /* once per state, at the first CPU where it is off */
		fprintf(b->note,
			"idlesim: note: %s: the state is disabled now (disable 1), enabled by default: "
			"the machine keeps the default; replay with --disable %s%s%s to run as it is\n",
			snap_where(b->s, STATE_FILE("disable"), v, sizeof(v)),
			strchr(st->name, ' ') ? "'" : "", st->name, strchr(st->name, ' ') ? "'" : "");
	}
#undef STATE_FILE
	return 0;
}

/* A difference between CPU n's state k and the reference CPU's (a sibling or cpu0). */
static int state_differs(struct build *b, int n, int k, int ref, const struct snap_state *a,
			 const struct snap_state *r)
{
	const char *file = NULL;
	char lp[SNAP_PATH_LEN], va[LINE_MAX_LEN], vr[LINE_MAX_LEN];

	if (strcmp(a->name, r->name))
		file = "name", snprintf(va, sizeof(va), "%s", a->name),
		snprintf(vr, sizeof(vr), "%s", r->name);
	else if (strcmp(a->desc, r->desc))
		file = "desc", snprintf(va, sizeof(va), "%s", a->desc),
		snprintf(vr, sizeof(vr), "%s", r->desc);
	else if (a->latency_us != r->latency_us)
		file = "latency", snprintf(va, sizeof(va), "%lld", a->latency_us),
		snprintf(vr, sizeof(vr), "%lld", r->latency_us);
	else if (a->residency_us != r->residency_us)
		file = "residency", snprintf(va, sizeof(va), "%lld", a->residency_us),
		snprintf(vr, sizeof(vr), "%lld", r->residency_us);
	else if (a->default_off != r->default_off)
		file = b->has_default_status ? "default_status" : "disable",
		snprintf(va, sizeof(va), "%s", a->default_off ? "disabled" : "enabled"),
		snprintf(vr, sizeof(vr), "%s", r->default_off ? "disabled" : "enabled");
	if (!file)
		return 0;
	snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/cpuidle/state%d/%s", n, k, file);
	if (b->cpu[n].first_sibling == ref && ref != n)
		return fail(b, lp, 0, 0,
			    "'%s' differs from SMT sibling cpu%d's '%s': siblings share a core, so "
			    "the kernel gives them one table",
			    va, ref, vr);
	return fail(b, lp, 0, 0,
		    "'%s' differs from cpu%d's '%s': the CPUs have tables of their own, and idlesim "
		    "has one table for all CPUs (docs/machines.md, \"Your own machine\")",
		    va, ref, vr);
}

static int read_table(struct build *b)
{
	struct snap_state *ref = sim_calloc(CPUIDLE_STATE_MAX, sizeof(*ref)), cur;
	struct machine *m = b->m;
	int count = state_count(b, 0), rc = 0;

	if (!ref)
		return sim_error_nomem(b->err, "snapshot");
	if (count < 0) {
		sim_free(ref);
		return -1;
	}
	for (int k = 0; !rc && k < count; k++)
		rc = read_state(b, 0, k, &ref[k]);
	for (int n = 1; !rc && n < b->nr_cpus; n++) {
		int c = state_count(b, n), r = b->cpu[n].first_sibling != n ? b->cpu[n].first_sibling : 0;

		if (c < 0) {
			rc = -1;
			break;
		}
		if (c != count) {
			char lp[SNAP_PATH_LEN], what[16];

			snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu%d/cpuidle/state%d", n,
				 c < count ? c : count);
			snprintf(what, sizeof(what), "cpu%d", r);
			rc = fail(b, lp, 0, 0, "%s: this CPU has another number of states than %s",
				  c < count ? "missing" : "present", what);
			break;
		}
		for (int k = 0; !rc && k < count; k++)
			rc = read_state(b, n, k, &cur) || state_differs(b, n, k, r, &cur, &ref[k]);
	}
	for (int k = 0; !rc && k < count; k++) {
		struct machine_state *s = &m->states[k];

		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", ref[k].name);
		snprintf(s->desc, sizeof(s->desc), "%s", ref[k].desc);
		s->flags = !strcmp(ref[k].name, "POLL") ? CPUIDLE_FLAG_POLLING : 0;
		s->exit_latency_ns = ref[k].latency_us * SIM_NS_PER_US;
		s->target_residency_ns = ref[k].residency_us * SIM_NS_PER_US;
		s->default_off = ref[k].default_off;
		if (k && s->flags) {
			char lp[SNAP_PATH_LEN];

			snprintf(lp, sizeof(lp), SNAP_CPU_DIR "/cpu0/cpuidle/state%d/name", k);
			rc = fail(b, lp, 1, 1,
				  "POLL, the cpuidle core's polling state, is always state0");
		}
	}
	m->state_count = count;
	sim_free(ref);
	return rc ? -1 : 0;
}

/* ---- driver, governor, module parameters ---- */

static int read_driver(struct build *b)
{
	const char *lp = SNAP_CPU_DIR "/cpuidle/current_driver";
	char v[LINE_MAX_LEN];
	int rc;

	if (read_line(b, lp, true, v, sizeof(v)))
		return -1;
	if (!v[0] || !strcmp(v, "none") || strlen(v) >= sizeof(b->m->driver))
		return fail(b, lp, 1, 1, "'%s': no cpuidle driver%s, no idle states to simulate", v,
			    "");
	snprintf(b->m->driver, sizeof(b->m->driver), "%s", v);
	rc = read_line(b, SNAP_CPU_DIR "/cpuidle/current_governor", false, b->governor,
		       sizeof(b->governor));
	if (rc > 0)
		rc = read_line(b, SNAP_CPU_DIR "/cpuidle/current_governor_ro", false, b->governor,
			       sizeof(b->governor));
	if (rc > 0)
		b->governor[0] = '\0';
	return rc < 0 ? -1 : 0;
}

/*
 * The haltpoll governor's parameters: values other than the kernel's defaults are said,
 * with the --set options that replay them (the machine has no governor tunables).
 */
static int read_haltpoll_params(struct build *b)
{
	static const struct {
		const char *name;
		long long def;
	} p[] = {
		{"guest_halt_poll_ns", 200000},	  {"guest_halt_poll_shrink", 2},
		{"guest_halt_poll_grow", 2},	  {"guest_halt_poll_grow_start", 50000},
		{"guest_halt_poll_allow_shrink", 1},
	};
	char lp[SNAP_PATH_LEN], v[LINE_MAX_LEN], sets[512] = "";
	size_t used = 0;

	for (size_t i = 0; i < SIM_ARRAY_SIZE(p); i++) {
		long long x;
		int rc;

		snprintf(lp, sizeof(lp), "sys/module/haltpoll/parameters/%s", p[i].name);
		rc = read_line(b, lp, false, v, sizeof(v));
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		if (i == SIM_ARRAY_SIZE(p) - 1) { /* a bool: Y or N */
			if (strcmp(v, "Y") && strcmp(v, "N"))
				return fail(b, lp, 1, 1, "'%s': expected Y or N%s", v, "");
			x = !strcmp(v, "Y");
		} else if (read_num(b, lp, "a number", 0, UINT_MAX, &x)) {
			return -1;
		}
		if (x != p[i].def && used < sizeof(sets))
			used += (size_t)snprintf(sets + used, sizeof(sets) - used,
						 " --set haltpoll.%s=%lld", p[i].name, x);
	}
	if (sets[0] && b->note)
		fprintf(b->note,
			"idlesim: note: the guest's haltpoll parameters are not the defaults; replay "
			"them with%s\n",
			sets);
	return 0;
}

/* ---- what sysfs does not give ---- */

static bool same_table(const struct machine *a, const struct machine *c)
{
	if (a->state_count != c->state_count)
		return false;
	for (int i = 0; i < a->state_count; i++)
		if (strcasecmp(a->states[i].name, c->states[i].name) ||
		    a->states[i].exit_latency_ns != c->states[i].exit_latency_ns ||
		    a->states[i].target_residency_ns != c->states[i].target_residency_ns)
			return false;
	return true;
}

/* States whose names c has, and the distance of their latencies and residencies (us). */
static void table_distance(const struct machine *a, const struct machine *c, int *names,
			   long long *dist_us)
{
	*names = 0;
	*dist_us = 0;
	for (int i = 0; i < a->state_count; i++)
		for (int j = 0; j < c->state_count; j++)
			if (!strcasecmp(a->states[i].name, c->states[j].name)) {
				(*names)++;
				*dist_us += llabs(a->states[i].exit_latency_ns -
						  c->states[j].exit_latency_ns) /
						    SIM_NS_PER_US +
					    llabs(a->states[i].target_residency_ns -
						  c->states[j].target_residency_ns) /
						    SIM_NS_PER_US;
			}
}

/*
 * The built-in of the same driver closest to m's table: the same table if one has it, else
 * the most state names in common, then the least distance; NULL when no built-in has the
 * driver. *same says whether the table is the same.
 */
static const struct machine *closest_builtin(const struct machine *m, bool *same)
{
	const struct machine *best = NULL;
	int best_names = -1;
	long long best_dist = 0;

	*same = false;
	for (unsigned int i = 0; i < machine_builtin_count(); i++) {
		const struct machine *c = machine_builtin(i);
		long long dist;
		int names;

		if (strcmp(c->driver, m->driver))
			continue;
		if (same_table(m, c)) {
			*same = true;
			return c;
		}
		table_distance(m, c, &names, &dist);
		if (names > best_names || (names == best_names && dist < best_dist))
			best = c, best_names = names, best_dist = dist;
	}
	return best;
}

/*
 * Active powers and wake latencies from built-in c (NULL: the defaults of a JSON machine,
 * and the advertised latency): a state of c with the same name and exit latency gives its
 * wake model; another state gets half its exit latency (the rule of the built-ins where no
 * measurement exists), never below a shallower state's.
 */
static void assume(struct machine *m, const struct machine *c, bool same)
{
	int64_t prev = 0;

	m->active_core_power_w = c ? c->active_core_power_w : DEFAULT_CORE_W;
	m->active_package_power_w = c ? c->active_package_power_w : DEFAULT_PACKAGE_W;
	/* a kind's own active power: the built-in's kind of the same name and rank among
	 * the kinds so named (Meteor Lake has two cpu_atom kinds) */
	for (int k = 0; c && k < m->nr_core_types; k++) {
		int rank = 0, seen = 0;

		for (int i = 0; i < k; i++)
			rank += !strcmp(m->core_types[i].name, m->core_types[k].name);
		for (int i = 0; i < c->nr_core_types; i++)
			if (!strcmp(c->core_types[i].name, m->core_types[k].name) && seen++ == rank)
				m->core_types[k].active_core_power_w = c->core_types[i].active_core_power_w;
	}
	for (int i = 0; c && i < m->state_count; i++) {
		struct machine_state *s = &m->states[i];
		int j;

		for (j = 0; j < c->state_count; j++)
			if (!strcasecmp(c->states[j].name, s->name) &&
			    c->states[j].exit_latency_ns == s->exit_latency_ns)
				break;
		if (j < c->state_count)
			s->wake = c->states[j].wake;
		else if (!(s->flags & CPUIDLE_FLAG_POLLING))
			s->wake = (struct machine_wake){.kind = MACHINE_WAKE_TYPICAL,
							.typical_ns = sim_max64(s->exit_latency_ns / 2, prev)};
		if (s->wake.kind != MACHINE_WAKE_WORST)
			prev = s->wake.typical_ns;
	}
	machine_default_energy(m, MACHINE_DEFAULT_ALL);
	if (!c)
		snprintf(m->assumed, sizeof(m->assumed),
			 "power by the default rule (active core %g W, package %g W) and wake "
			 "latency as advertised: no built-in %s table",
			 DEFAULT_CORE_W, DEFAULT_PACKAGE_W, m->driver);
	else if (same)
		snprintf(m->assumed, sizeof(m->assumed),
			 "power and wake latency of built-in %s, whose table this is", c->name);
	else
		snprintf(m->assumed, sizeof(m->assumed),
			 "power and wake latency from built-in %s, the closest %s table (states it "
			 "lacks: half the exit latency)",
			 c->name, m->driver);
}

/* ---- the whole ---- */

static void default_name(const char *path, const char *name, struct machine *m)
{
	char stem[PATH_MAX];
	size_t n;

	if (name) {
		snprintf(m->name, sizeof(m->name), "%s", name);
		return;
	}
	snprintf(stem, sizeof(stem), "%s", path);
	while ((n = strlen(stem)) > 1 && stem[n - 1] == '/')
		stem[n - 1] = '\0';
	if (strrchr(stem, '/'))
		memmove(stem, strrchr(stem, '/') + 1, strlen(strrchr(stem, '/') + 1) + 1);
	n = strlen(stem);
	for (size_t i = 0; i < 3; i++) {
		static const char *const ext[] = {".tar.gz", ".tgz", ".tar"};
		size_t k = strlen(ext[i]);

		if (n > k && !strcmp(stem + n - k, ext[i])) {
			stem[n - k] = '\0';
			break;
		}
	}
	if (!stem[0] || !strcmp(stem, "/"))
		snprintf(stem, sizeof(stem), "snapshot");
	if (machine_find_builtin(stem))
		snprintf(m->name, sizeof(m->name), "%.*s-snapshot", (int)sizeof(m->name) - 10, stem);
	else
		snprintf(m->name, sizeof(m->name), "%s", stem);
}

static int build(struct build *b, const char *path, const char *name)
{
	struct machine *m = b->m;
	const struct machine *c;
	bool same;

	if (read_online(b) || read_driver(b) || read_topology(b) || read_table(b) ||
	    read_haltpoll_params(b))
		return -1;
	c = closest_builtin(m, &same);
	assume(m, c, same);
	default_name(path, name, m);
	snprintf(m->desc, sizeof(m->desc), "sysfs snapshot: %s%s%s, %d CPUs%s%s", m->driver,
		 b->governor[0] ? ", governor " : "", b->governor, b->nr_cpus,
		 same ? "; the table of built-in " : "", same ? c->name : "");
	if (same && b->note)
		fprintf(b->note, "idlesim: note: %s: the idle states are built-in %s's table\n", path,
			c->name);
	if (b->note)
		fprintf(b->note, "idlesim: note: %s: assumed: %s\n", path, m->assumed);
	return machine_validate(m, path, b->err);
}

bool machine_is_snapshot_path(const char *path)
{
	static const char *const ext[] = {".tar", ".tar.gz", ".tgz"};
	size_t n = strlen(path);
	struct stat st;

	for (size_t i = 0; i < SIM_ARRAY_SIZE(ext); i++)
		if (n > strlen(ext[i]) && !strcmp(path + n - strlen(ext[i]), ext[i]))
			return true;
	return strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int machine_load_snapshot_limits(const char *path, const char *name, struct machine *m,
				 FILE *note, const struct snapshot_limits *lim,
				 struct sim_error *err)
{
	struct machine *tmp = sim_calloc(1, sizeof(*tmp));
	struct build b = {.m = tmp, .note = note, .err = err};
	int rc;

	b.mask = sim_calloc(CPULIST_MAX, sizeof(*b.mask));
	if (!tmp || !b.mask) {
		rc = sim_error_nomem(err, path);
	} else {
		rc = snap_open(&b.s, path, lim, err);
		if (!rc)
			rc = build(&b, path, name);
	}
	if (!rc)
		*m = *tmp;
	snap_close(b.s);
	sim_free(b.cpu);
	sim_free(b.mask);
	sim_free(tmp);
	return rc ? -1 : 0;
}

int machine_load_snapshot(const char *path, const char *name, struct machine *m, FILE *note,
			  struct sim_error *err)
{
	const struct snapshot_limits lim = {SNAPSHOT_MEMBER_MAX_BYTES, SNAPSHOT_MAX_MEMBERS};

	return machine_load_snapshot_limits(path, name, m, note, &lim, err);
}
