// SPDX-License-Identifier: GPL-2.0-only
/*
 * energy.c - time per level of cores and packages (sim/machine/energy.h).
 *
 * In time order, each unit (core or package) keeps a count of its members per level and a
 * bitmask of the levels in use; its level is the lowest bit. A change is written without
 * data-dependent branches (they mispredicted about twice per idle entry): the core and the
 * package are charged for the time since their last change even when their level stays the
 * same, which sums to the same integer time per level.
 *
 * By idle spans, each online CPU logs the spans it was idle in; a core's spans are the
 * intersection of its threads', a package's of its cores' (sim/base/idlespan.c). An offline
 * thread sits in the deepest state for the whole window, which changes no intersection, so
 * only online CPUs take part; a unit without any is in the deepest state throughout.
 *
 * CPU numbering (sim/machine/machine.h): machine_cpu_topology() puts CPU n on a core g
 * (numbered over the machine) of package g / cores; a core's threads are listed from
 * core_off[g] in core_cpus, ascending. A hybrid part's core of another kind draws its kind's
 * active power: every level of its cores is scaled by the ratio of the two active powers
 * (an assumption: docs/machines.md).
 */
#include "sim/machine/energy.h"
#include "sim/base/alloc.h"
#include "sim/base/idlespan.h"

#include <string.h>

struct unit {
	int level; /* in time order: the unit's level since since_ns */
	int64_t since_ns;
	int64_t level_ns[CPUIDLE_STATE_MAX + 1];
	uint32_t count[CPUIDLE_STATE_MAX + 1]; /* members per level */
	uint32_t nonempty;		       /* bit l set: count[l] > 0 */
};

/* One online CPU: by idle spans, its spans not yet charged, and the one it is in. */
struct energy_cpu {
	struct idle_span *log; /* in time order */
	size_t n, cap;
	int64_t start_ns; /* of the current span, at `level` */
	int32_t level;
	/* the CPU's own time per level (both ways), priced as if it had a core of its own */
	int64_t level_ns[CPUIDLE_STATE_MAX + 1];
	bool spans; /* a copy of E->spans, on the CPU's own cache line */
	int cpu;
	struct energy *E;
};

struct energy {
	const struct machine *m;
	int online, nr_threads, nr_cores, deep;
	bool spans;
	int *thread_level; /* in time order, per machine CPU */
	int *core_of_cpu;  /* per machine CPU (a table: no division per change) */
	int *pkg_of_core;
	int *core_cpus, *core_off; /* the CPUs of core g: core_cpus[core_off[g] .. core_off[g+1]) */
	double *core_scale;	   /* per core: its kind's active power / the machine's */
	int *core_online; /* per core, its online threads (the first ones of its core_cpus) */
	struct unit *cores, *pkgs;
	double core_power_w[CPUIDLE_STATE_MAX + 1]; /* by level, in W/ns (J per ns) */
	double pkg_power_w[CPUIDLE_STATE_MAX + 1];
	/* by idle spans */
	int64_t charged_ns; /* charged up to here */
	struct energy_cpu *cpu; /* per online CPU */
	struct idle_span_fold fold;
	const struct idle_span **member_spans; /* the threads of one core */
	size_t *member_n;
	struct idle_span *core_buf; /* one core's spans */
	size_t core_buf_cap;
	struct idle_span_stack pkg; /* the cores of the package being charged */
	int pkg_members;	    /* of them, those with online threads */
};

/* A core's power at `level` (0 running, k + 1 state k) in J per ns: the one number both
 * the accounting and energy_period_j() use. */
static double core_power_per_ns(const struct machine *m, int level)
{
	return (level ? m->states[level - 1].core_power_w : m->active_core_power_w) * 1e-9;
}

double energy_period_j(const struct machine *m, int idx, double idle_ns, double exit_ns)
{
	return idle_ns * core_power_per_ns(m, idx + 1) + m->states[idx].entry_exit_energy_j +
	       exit_ns * core_power_per_ns(m, 0);
}

/* Each state's cost is a line in the idle time (slope: its core power; intercept: its
 * entry+exit energy and exit at active power); past the last crossing of two lines their
 * order, and so the cheapest state, stays as it is. */
int64_t energy_period_horizon_ns(const struct machine *m, const double *exit_ns, int64_t max_ns)
{
	double far = 0;
	int i, j;

	for (i = 0; i < m->state_count; i++)
		for (j = i + 1; j < m->state_count; j++) {
			double dp = core_power_per_ns(m, i + 1) - core_power_per_ns(m, j + 1);
			double de = energy_period_j(m, j, 0, exit_ns[j]) -
				    energy_period_j(m, i, 0, exit_ns[i]);

			if (dp != 0 && de / dp > far)
				far = de / dp;
		}
	return far >= (double)max_ns ? max_ns : (int64_t)far + 1;
}

static void unit_add(struct unit *u, int level, int64_t start_ns)
{
	u->count[level]++;
	u->nonempty |= 1u << level;
	u->level = __builtin_ctz(u->nonempty);
	u->since_ns = start_ns;
}

struct energy *energy_new(const struct machine *m, int nr_cpus, int64_t start_ns, bool spans)
{
	struct energy *E = sim_calloc(1, sizeof(*E));
	size_t members = (size_t)m->threads; /* member_spans: the threads of one core */
	int i;

	if (!E)
		return NULL;
	E->m = m;
	E->online = nr_cpus;
	E->nr_threads = machine_nr_cpus(m);
	E->nr_cores = m->packages * m->cores;
	E->deep = m->state_count;
	E->spans = spans;
	E->charged_ns = start_ns;
	E->thread_level = sim_calloc((size_t)E->nr_threads, sizeof(*E->thread_level));
	E->cores = sim_calloc((size_t)E->nr_cores, sizeof(*E->cores));
	E->pkgs = sim_calloc((size_t)m->packages, sizeof(*E->pkgs));
	E->core_of_cpu = sim_calloc((size_t)E->nr_threads, sizeof(*E->core_of_cpu));
	E->pkg_of_core = sim_calloc((size_t)E->nr_cores, sizeof(*E->pkg_of_core));
	E->core_cpus = sim_calloc((size_t)E->nr_threads, sizeof(*E->core_cpus));
	E->core_off = sim_calloc((size_t)E->nr_cores + 1, sizeof(*E->core_off));
	E->core_scale = sim_calloc((size_t)E->nr_cores, sizeof(*E->core_scale));
	E->core_online = sim_calloc((size_t)E->nr_cores, sizeof(*E->core_online));
	E->cpu = sim_calloc((size_t)nr_cpus, sizeof(*E->cpu));
	if (!E->thread_level || !E->cores || !E->pkgs || !E->core_of_cpu || !E->pkg_of_core ||
	    !E->core_cpus || !E->core_off || !E->core_scale || !E->core_online || !E->cpu)
		goto nomem;
	for (i = 0; i < nr_cpus; i++) {
		E->cpu[i].start_ns = start_ns;
		E->cpu[i].spans = spans;
		E->cpu[i].cpu = i;
		E->cpu[i].E = E;
	}
	for (i = 0; i < E->nr_threads; i++) {
		int package, core;

		machine_cpu_topology(m, i, &package, &core, NULL);
		E->core_of_cpu[i] = package * m->cores + core;
		E->core_off[E->core_of_cpu[i] + 1]++;
	}
	for (i = 0; i < E->nr_cores; i++) {
		double active = m->active_core_power_w;

		E->core_off[i + 1] += E->core_off[i];
		E->pkg_of_core[i] = i / m->cores;
		E->core_scale[i] = 1.0;
		if (m->nr_core_types && active > 0) {
			int k = 0, c = i % m->cores;

			while (k < m->nr_core_types - 1 && c >= m->core_types[k].cores)
				c -= m->core_types[k++].cores;
			E->core_scale[i] = machine_core_active_power_w(m, k) / active;
		}
	}
	/* ascending: each core's list in CPU order (thread_level, set below, counts the fill) */
	for (i = 0; i < E->nr_threads; i++) {
		int g = E->core_of_cpu[i];

		E->core_cpus[E->core_off[g] + E->thread_level[g]++] = i;
		E->core_online[g] += i < nr_cpus;
	}
	if (spans) {
		E->member_spans = sim_calloc(members, sizeof(*E->member_spans));
		E->member_n = sim_calloc(members, sizeof(*E->member_n));
		if (!E->member_spans || !E->member_n)
			goto nomem;
	}
	E->pkg_power_w[0] = m->active_package_power_w * 1e-9;
	for (i = 0; i < m->state_count; i++)
		E->pkg_power_w[i + 1] = m->states[i].package_power_w * 1e-9;
	for (i = 0; i <= m->state_count; i++)
		E->core_power_w[i] = core_power_per_ns(m, i);
	/* Online CPUs start running work; offline ones sit in the deepest state. */
	for (i = 0; i < E->nr_threads; i++) {
		E->thread_level[i] = i < nr_cpus ? 0 : E->deep;
		unit_add(&E->cores[E->core_of_cpu[i]], E->thread_level[i], start_ns);
	}
	for (i = 0; i < E->nr_cores; i++)
		unit_add(&E->pkgs[E->pkg_of_core[i]], E->cores[i].level, start_ns);
	return E;
nomem:
	energy_free(E);
	return NULL;
}

void energy_free(struct energy *E)
{
	int i;

	if (!E)
		return;
	if (E->cpu)
		for (i = 0; i < E->online; i++)
			sim_free(E->cpu[i].log);
	sim_free(E->cpu);
	idle_span_fold_free(&E->fold);
	idle_span_stack_free(&E->pkg);
	sim_free(E->member_spans);
	sim_free(E->member_n);
	sim_free(E->core_buf);
	sim_free(E->thread_level);
	sim_free(E->cores);
	sim_free(E->pkgs);
	sim_free(E->core_of_cpu);
	sim_free(E->pkg_of_core);
	sim_free(E->core_cpus);
	sim_free(E->core_off);
	sim_free(E->core_scale);
	sim_free(E->core_online);
	sim_free(E);
}

/* In time order: one member of u moves from level prev to level; returns u's old level. */
static inline int unit_move(struct unit *u, int prev, int level, int64_t t)
{
	int old = u->level;

	u->count[prev]--;
	u->count[level]++;
	u->nonempty = (u->nonempty & ~(1u << prev)) | ((uint32_t)(u->count[prev] != 0) << prev) |
		      (1u << level);
	u->level_ns[old] += t - u->since_ns;
	u->since_ns = t;
	u->level = __builtin_ctz(u->nonempty);
	return old;
}

/* By idle spans: CPU c's current span ends at t (logged if idle); the next starts there. */
static inline int end_span(struct energy_cpu *c, int64_t t)
{
	if (c->n == c->cap && sim_grow((void **)&c->log, &c->cap, c->n + 1, sizeof(*c->log)))
		return -1;
	c->log[c->n] = (struct idle_span){ c->start_ns, t, c->level };
	c->n += c->level != 0;
	c->level_ns[c->level] += t - c->start_ns;
	c->start_ns = t;
	return 0;
}

struct energy_cpu *energy_cpu(struct energy *E, int cpu)
{
	return &E->cpu[cpu];
}

int energy_level(struct energy_cpu *ec, int level, int64_t t)
{
	struct energy *E;
	struct unit *core;
	int g, old;

	if (ec->spans) {
		if (end_span(ec, t))
			return -1;
		ec->level = level;
		return 0;
	}
	ec->level_ns[ec->level] += t - ec->start_ns;
	ec->start_ns = t;
	ec->level = level;
	E = ec->E;
	g = E->core_of_cpu[ec->cpu];
	core = &E->cores[g];
	old = unit_move(core, E->thread_level[ec->cpu], level, t);
	E->thread_level[ec->cpu] = level;
	unit_move(&E->pkgs[E->pkg_of_core[g]], old, core->level, t);
	return 0;
}

int energy_nr_cores(const struct energy *E)
{
	return E->nr_cores;
}

const int *energy_core_cpus(const struct energy *E, int g, int *n)
{
	*n = E->core_online[g];
	return &E->core_cpus[E->core_off[g]];
}

/*
 * Core g's online threads end their current spans at `to`; their logs intersected are the
 * core's spans, charged, then folded into its package's (a package's cores come one after
 * the other: the first resets its stack, the last charges the package).
 */
int energy_charge_core(struct energy *E, int g, int64_t to)
{
	const struct machine *m = E->m;
	int64_t from = E->charged_ns;
	int p = E->pkg_of_core[g], k, members = E->core_online[g];
	const struct idle_span *res;
	size_t room = 0, n;

	if (g == p * m->cores) {
		idle_span_stack_reset(&E->pkg);
		E->pkg_members = 0;
	}
	for (k = 0; k < members; k++) {
		struct energy_cpu *c = &E->cpu[E->core_cpus[E->core_off[g] + k]];

		if (end_span(c, to))
			return -1;
		E->member_spans[k] = c->log;
		E->member_n[k] = c->n;
		room += c->n;
	}
	if (!members) {
		E->cores[g].level_ns[E->deep] += to - from;
	} else {
		/* (room for one span at least, so that the buffer exists when nothing is idle) */
		if (sim_grow((void **)&E->core_buf, &E->core_buf_cap, room + 1,
			     sizeof(*E->core_buf)) ||
		    idle_span_fold(&E->fold, E->member_spans, E->member_n, members, E->core_buf,
				   &res, &n))
			return -1;
		idle_span_charge(res, n, from, to, E->cores[g].level_ns);
		if (idle_span_stack_push(&E->pkg, res, n))
			return -1;
		E->pkg_members++;
		for (k = 0; k < members; k++)
			E->cpu[E->core_cpus[E->core_off[g] + k]].n = 0;
	}
	if (g == (p + 1) * m->cores - 1) {
		if (!E->pkg_members) {
			E->pkgs[p].level_ns[E->deep] += to - from;
		} else {
			if (idle_span_stack_result(&E->pkg, &res, &n))
				return -1;
			idle_span_charge(res, n, from, to, E->pkgs[p].level_ns);
		}
	}
	return 0;
}

void energy_charge_done(struct energy *E, int64_t to)
{
	E->charged_ns = to;
}

int energy_charge_spans(struct energy *E, int64_t to)
{
	int g;

	for (g = 0; g < E->nr_cores; g++)
		if (energy_charge_core(E, g, to))
			return -1;
	energy_charge_done(E, to);
	return 0;
}

int energy_close(struct energy *E, int64_t end_ns)
{
	int i;

	if (E->spans)
		return energy_charge_spans(E, end_ns);
	for (i = 0; i < E->online; i++) {
		E->cpu[i].level_ns[E->cpu[i].level] += end_ns - E->cpu[i].start_ns;
		E->cpu[i].start_ns = end_ns;
	}
	for (i = 0; i < E->nr_cores + E->m->packages; i++) {
		struct unit *u = i < E->nr_cores ? &E->cores[i] : &E->pkgs[i - E->nr_cores];

		u->level_ns[u->level] += end_ns - u->since_ns;
		u->since_ns = end_ns;
	}
	return 0;
}

/* Price the time a unit spent at each level, its powers scaled by `scale` (1: as given);
 * level 0 (running) is not idle. */
static void price(const int64_t *level_ns, const double *power_w_per_ns, double scale, int levels,
		  double *energy, double *idle_energy)
{
	int l;

	for (l = 0; l < levels; l++) {
		double e = (double)level_ns[l] * power_w_per_ns[l];

		if (scale != 1.0)
			e *= scale;

		*energy += e;
		if (l > 0)
			*idle_energy += e;
	}
}

void energy_price(const struct energy *E, double *energy_j, double *idle_energy_j,
		  double *package_energy_j)
{
	double pkg = 0, pkg_idle = 0;
	int i;

	for (i = 0; i < E->nr_cores; i++)
		price(E->cores[i].level_ns, E->core_power_w, E->core_scale[i], E->deep + 1, energy_j,
		      idle_energy_j);
	for (i = 0; i < E->m->packages; i++)
		price(E->pkgs[i].level_ns, E->pkg_power_w, 1.0, E->deep + 1, &pkg, &pkg_idle);
	*energy_j += pkg;
	*idle_energy_j += pkg_idle;
	*package_energy_j += pkg;
}

double energy_price_cpus(const struct energy *E)
{
	double j = 0, idle = 0;
	int i;

	for (i = 0; i < E->online; i++)
		price(E->cpu[i].level_ns, E->core_power_w, E->core_scale[E->core_of_cpu[i]],
		      E->deep + 1, &j, &idle);
	return j;
}

int energy_check(const struct energy *E, int64_t span_ns, struct sim_error *err)
{
	int i, k;

	for (i = 0; i < E->online; i++) {
		int64_t sum = 0;

		for (k = 0; k <= E->deep; k++)
			sum += E->cpu[i].level_ns[k];
		if (sum != span_ns)
			return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
					     "energy accounting broken on CPU %d: %lld ns at its "
					     "levels for a %lld ns span",
					     i, (long long)sum, (long long)span_ns);
	}

	for (i = 0; i < E->nr_cores + E->m->packages; i++) {
		bool core = i < E->nr_cores;
		const int64_t *level_ns = core ? E->cores[i].level_ns : E->pkgs[i - E->nr_cores].level_ns;
		int64_t sum = 0, least = 0;

		for (k = 0; k <= E->deep; k++) {
			sum += level_ns[k];
			least = least < level_ns[k] ? least : level_ns[k];
		}
		if (sum != span_ns || least < 0)
			return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
					     "energy accounting broken on %s %d: %lld ns at its levels "
					     "for a %lld ns span, %lld ns at one",
					     core ? "core" : "package", core ? i : i - E->nr_cores,
					     (long long)sum, (long long)span_ns, (long long)least);
	}
	return 0;
}
