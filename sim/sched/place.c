// SPDX-License-Identifier: GPL-2.0-only
/*
 * place.c - wakeup placement of the fair class, as Linux v6.12.118 does it
 * (kernel/sched/fair.c: select_task_rq_fair, record_wakee, wake_wide, wake_affine,
 * wake_affine_idle, select_idle_sibling, select_idle_smt, select_idle_cpu,
 * select_idle_core, __update_idle_core). The functions below keep the kernel's names and
 * order of tests, so the two can be read side by side.
 *
 * The machine: Intel, no asymmetric capacities, no clusters (sched_cluster_active off),
 * the LLC domain (sd_llc) is the package (or an AMD CCX: machine.h llc_cores), SMT siblings share a core (on a hybrid part only
 * the P-cores have two; sched_smt_active() is true when any core does), and every domain
 * level carries SD_WAKE_AFFINE (a two-socket SLIT distance, 21, is below
 * node_reclaim_distance, 30, so the NUMA level keeps it) and none SD_BALANCE_WAKE, so every
 * wakeup takes the fast path. The top domain spans every CPU, so wake_affine() runs
 * whenever the waking CPU differs from prev_cpu and want_affine holds.
 *
 * Simplifications, and which way they can move results:
 *  - WA_WEIGHT: load averages are not modelled yet, so wake_affine_weight() never decides:
 *    when wake_affine_idle() has no answer the wakee stays with prev_cpu. The kernel pulls
 *    it to the waker's CPU when prev is more loaded (with a 8% bias to prev at the LLC
 *    level, imbalance_pct 117), so this model migrates less when both CPUs are busy.
 *  - SIS_UTIL: sched_update_idle_cpu_scan() is update_idle_cpu_scan()'s arithmetic, fed by
 *    the caller with the LLC's sum of cpu_util_cfs() when it models a periodic balance of
 *    the LLC domain (loop_sched.c: PELT per CPU, pelt.c; when it runs is said there). A
 *    new context scans the whole LLC (nr_idle_scan = LLC size, what zero utilisation
 *    gives), where the kernel's sd_llc_shared starts at 0 until the first balance.
 *  - available_idle_cpu() is nr_running == 0: no ttwu_pending (the caller enqueues at
 *    once), no vCPU preemption, no SCHED_IDLE tasks (sched_idle_cpu() is always false),
 *    no core scheduling cookies, no delayed-dequeue entities (cfs_h_nr_delayed() is 0).
 *  - No energy model (find_energy_efficient_cpu() does nothing on these machines), no
 *    fork/exec slow path, no cgroups: task_h_load and PF_EXITING are not consulted.
 *  - record_wakee() decays the flips once more than a second has passed, in ns rather
 *    than on jiffies (time_after(jiffies, ts + HZ)): the decay can come up to a jiffy
 *    earlier. A wakeup from an interrupt on an idle CPU (no waker task) records nothing;
 *    the kernel counts it on the idle task.
 *  - recent_used_cpu -1 means "none yet" and is never a candidate.
 *  - Hybrid parts: ITMT's asymmetric packing (SD_ASYM_PACKING, which makes the load
 *    balancer prefer P-cores) is not modelled; wakeup placement, which does not use it in
 *    v6.12, is the kernel's.
 */
#include "sim/sched/place.h"

#include "sim/base/alloc.h"
#include "sim/sched/pelt.h"

struct sched_place {
	int nr_cpus;	   /* nr_cpumask_bits */
	int threads;	   /* SMT siblings per core (hybrid: the most any core has) */
	int llc_size;	   /* sd_llc_size: CPUs per package */
	int *llc;	   /* per CPU: its LLC (package, or CCX: machine.h llc_cores) */
	int *core;	   /* per CPU: its core, numbered over the machine */
	int *smt;	   /* the cores' CPUs, core after core, ascending (cpu_smt_mask) */
	int *smt_off;	   /* per core: where its CPUs start in smt */
	int *smt_nr;	   /* per core: how many CPUs it has (hybrid cores differ) */
	int *llc_cpus;	   /* per LLC: its llc_size CPUs in ascending order (sd_llc's span) */
	int *llc_pos;	   /* per CPU: its index in its LLC's llc_cpus */
	unsigned int *nr_running;  /* per CPU: rq->nr_running */
	bool *has_idle_cores;	   /* per LLC: sd_llc_shared->has_idle_cores */
	int *nr_idle_scan;	   /* per LLC: sd_llc_shared->nr_idle_scan */
	bool *select_rq_mask;	   /* scratch of select_idle_cpu(), per CPU */
};

struct sched_place *sched_place_new(const struct machine *m)
{
	struct sched_place *sp = sim_calloc(1, sizeof(*sp));
	int n = machine_nr_cpus(m), ncores = m->packages * m->cores;
	int per_pkg = machine_llcs_per_package(m), nllc = m->packages * per_pkg;
	int *fill;

	if (!sp)
		return NULL;
	sp->nr_cpus = n;
	sp->threads = m->threads;
	sp->llc_size = n / nllc;
	sp->llc = sim_calloc((size_t)n, sizeof(*sp->llc));
	sp->core = sim_calloc((size_t)n, sizeof(*sp->core));
	sp->smt = sim_calloc((size_t)n, sizeof(*sp->smt));
	sp->smt_off = sim_calloc((size_t)ncores, sizeof(*sp->smt_off));
	sp->smt_nr = sim_calloc((size_t)ncores, sizeof(*sp->smt_nr));
	sp->llc_cpus = sim_calloc((size_t)n, sizeof(*sp->llc_cpus));
	sp->llc_pos = sim_calloc((size_t)n, sizeof(*sp->llc_pos));
	sp->nr_running = sim_calloc((size_t)n, sizeof(*sp->nr_running));
	sp->has_idle_cores = sim_calloc((size_t)nllc, sizeof(*sp->has_idle_cores));
	sp->nr_idle_scan = sim_calloc((size_t)nllc, sizeof(*sp->nr_idle_scan));
	sp->select_rq_mask = sim_calloc((size_t)n, sizeof(*sp->select_rq_mask));
	fill = sim_calloc((size_t)(ncores + nllc), sizeof(*fill));
	if (!sp->llc || !sp->core || !sp->smt || !sp->smt_off || !sp->smt_nr || !sp->llc_cpus ||
	    !sp->llc_pos ||
	    !sp->nr_running || !sp->has_idle_cores ||
	    !sp->nr_idle_scan || !sp->select_rq_mask || !fill) {
		sim_free(fill);
		sched_place_free(sp);
		return NULL;
	}
	/* Each core's CPUs follow its predecessor's in smt (a hybrid core has fewer). */
	for (int c = 0, off = 0; c < ncores; c++) {
		sp->smt_off[c] = off;
		sp->smt_nr[c] = machine_core_threads(m, c % m->cores);
		off += sp->smt_nr[c];
	}
	/* Ascending CPU order fills each core's sibling list and each LLC's CPU list in
	 * cpumask order (fill: per core, then per LLC, how many are listed). */
	for (int cpu = 0; cpu < n; cpu++) {
		int package, core;

		machine_cpu_topology(m, cpu, &package, &core, NULL);
		sp->llc[cpu] = package * per_pkg + (per_pkg > 1 ? core / m->llc_cores : 0);
		sp->core[cpu] = package * m->cores + core;
		sp->smt[sp->smt_off[sp->core[cpu]] + fill[sp->core[cpu]]++] = cpu;
		sp->llc_pos[cpu] = fill[ncores + sp->llc[cpu]]++;
		sp->llc_cpus[sp->llc[cpu] * sp->llc_size + sp->llc_pos[cpu]] = cpu;
	}
	sim_free(fill);
	for (int l = 0; l < nllc; l++) {
		sp->has_idle_cores[l] = m->threads > 1;
		sp->nr_idle_scan[l] = sp->llc_size;
	}
	return sp;
}

void sched_place_free(struct sched_place *sp)
{
	if (!sp)
		return;
	sim_free(sp->llc);
	sim_free(sp->core);
	sim_free(sp->smt);
	sim_free(sp->smt_off);
	sim_free(sp->smt_nr);
	sim_free(sp->llc_cpus);
	sim_free(sp->llc_pos);
	sim_free(sp->nr_running);
	sim_free(sp->has_idle_cores);
	sim_free(sp->nr_idle_scan);
	sim_free(sp->select_rq_mask);
	sim_free(sp);
}

int sched_place_nr_cpus(const struct sched_place *sp)
{
	return sp->nr_cpus;
}

int sched_place_llc_of(const struct sched_place *sp, int cpu)
{
	return sp->llc[cpu];
}

int sched_place_core_of(const struct sched_place *sp, int cpu)
{
	return sp->core[cpu];
}

bool sched_place_smt(const struct sched_place *sp)
{
	return sp->threads > 1;
}

const int *sched_place_llc_cpus(const struct sched_place *sp, int cpu, int *nr)
{
	*nr = sp->llc_size;
	return sp->llc_cpus + sp->llc[cpu] * sp->llc_size;
}

const int *sched_place_smt_cpus(const struct sched_place *sp, int cpu, int *nr)
{
	*nr = sp->smt_nr[sp->core[cpu]];
	return sp->smt + sp->smt_off[sp->core[cpu]];
}

bool sched_place_cpu_idle(const struct sched_place *sp, int cpu)
{
	return sp->nr_running[cpu] == 0;
}

static bool available_idle_cpu(const struct sched_place *sp, int cpu)
{
	return sched_place_cpu_idle(sp, cpu);
}

static bool cpus_share_cache(const struct sched_place *sp, int a, int b)
{
	return sp->llc[a] == sp->llc[b];
}

static bool sched_smt_active(const struct sched_place *sp)
{
	return sp->threads > 1;
}

/* The i-th CPU of cpu_smt_mask(cpu), ascending, of smt_weight(cpu). */
static int smt_sibling(const struct sched_place *sp, int cpu, int i)
{
	return sp->smt[sp->smt_off[sp->core[cpu]] + i];
}

static int smt_weight(const struct sched_place *sp, int cpu)
{
	return sp->smt_nr[sp->core[cpu]];
}

static bool task_allowed(const struct sched_task *p, int cpu)
{
	return !p->cpus_allowed || p->cpus_allowed[cpu];
}

bool sched_place_has_idle_cores(const struct sched_place *sp, int cpu)
{
	return sp->has_idle_cores[sp->llc[cpu]];
}

void sched_place_set_nr_idle_scan(struct sched_place *sp, int cpu, int nr_idle_scan)
{
	sp->nr_idle_scan[sp->llc[cpu]] = nr_idle_scan;
}

int sched_place_nr_idle_scan(const struct sched_place *sp, int cpu)
{
	return sp->nr_idle_scan[sp->llc[cpu]];
}

/*
 * update_idle_cpu_scan() (SIS_UTIL), from a periodic balance of the LLC domain by
 * dst_cpu: the share of the LLC to scan falls with the square of the LLC's average
 * utilisation x, to none once x reaches 100 / imbalance_pct of a CPU (~85 % for 117):
 *   x = sum_util / llc_weight
 *   y = SCHED_CAPACITY_SCALE - min(x^2 * pct^2 / (10000 * SCHED_CAPACITY_SCALE), SCALE)
 *   nr_idle_scan = y * llc_weight / SCHED_CAPACITY_SCALE
 * pct is the imbalance_pct of the domain whose span is the LLC: 117 for MC (SD_SHARE_LLC),
 * 110 when that domain is the SMT one (a package of one core). No sd_llc_shared when the
 * LLC is one CPU: nothing to do.
 */
void sched_update_idle_cpu_scan(struct sched_place *sp, int dst_cpu, unsigned long sum_util)
{
	uint64_t x, y, tmp, llc_weight = (uint64_t)sp->llc_size;
	uint64_t pct = sp->threads > 1 && sp->threads == sp->llc_size ? 110 : 117;

	if (sp->llc_size <= 1)
		return;
	x = sum_util / llc_weight;
	tmp = x * x * pct * pct / (10000 * SCHED_CAPACITY_SCALE);
	if (tmp > SCHED_CAPACITY_SCALE)
		tmp = SCHED_CAPACITY_SCALE;
	y = SCHED_CAPACITY_SCALE - tmp;
	y = y * llc_weight / SCHED_CAPACITY_SCALE;
	sp->nr_idle_scan[sp->llc[dst_cpu]] = (int)y;
}

/* __update_idle_core(): a CPU went idle; if all its siblings are idle, its LLC has an
 * idle core. The hint is only ever set here and cleared by select_idle_cpu(). */
static void update_idle_core(struct sched_place *sp, int core)
{
	if (!sched_smt_active(sp) || sp->has_idle_cores[sp->llc[core]])
		return;
	for (int i = 0; i < smt_weight(sp, core); i++) {
		int cpu = smt_sibling(sp, core, i);

		if (cpu != core && !available_idle_cpu(sp, cpu))
			return;
	}
	sp->has_idle_cores[sp->llc[core]] = true;
}

void sched_place_set_nr_running(struct sched_place *sp, int cpu, unsigned int n)
{
	bool was_idle = sp->nr_running[cpu] == 0;

	sp->nr_running[cpu] = n;
	if (n == 0 && !was_idle)
		update_idle_core(sp, cpu);
}

unsigned int sched_place_nr_running(const struct sched_place *sp, int cpu)
{
	return sp->nr_running[cpu];
}

void sched_task_init(struct sched_task *p, int prev_cpu)
{
	*p = (struct sched_task){ .cpu = prev_cpu, .recent_used_cpu = -1 };
}

/* record_wakee(): the waker's flips count how often it wakes a different task than last
 * time, halved at most once a second. */
static void record_wakee(struct sched_task *current, const struct sched_task *p, int64_t now_ns)
{
	if (!current)
		return;
	if (now_ns > current->wakee_flip_decay_ns + NSEC_PER_SEC) {
		current->wakee_flips >>= 1;
		current->wakee_flip_decay_ns = now_ns;
	}
	if (current->last_wakee != p) {
		current->last_wakee = p;
		current->wakee_flips++;
	}
}

/* wake_wide(): an M:N waker/wakee relation wider than the LLC spreads instead of pulling
 * the wakee next to its waker. */
static bool wake_wide(const struct sched_place *sp, const struct sched_task *current,
		      const struct sched_task *p)
{
	unsigned int master = current ? current->wakee_flips : 0;
	unsigned int slave = p->wakee_flips;
	unsigned int factor = (unsigned int)sp->llc_size;

	if (master < slave) {
		unsigned int t = master;

		master = slave;
		slave = t;
	}
	return !(slave < factor || master < slave * factor);
}

/* wake_affine_idle(): decide from "now" only; nr_cpus means no decision. */
static int wake_affine_idle(const struct sched_place *sp, int this_cpu, int prev_cpu, bool sync)
{
	/* An idle waking CPU means an interrupt: move only within the cache. */
	if (available_idle_cpu(sp, this_cpu) && cpus_share_cache(sp, this_cpu, prev_cpu))
		return available_idle_cpu(sp, prev_cpu) ? prev_cpu : this_cpu;
	/* The waker is the only task and goes to sleep: its CPU is as good as idle. */
	if (sync && sp->nr_running[this_cpu] == 1)
		return this_cpu;
	if (available_idle_cpu(sp, prev_cpu))
		return prev_cpu;
	return sp->nr_cpus;
}

/* wake_affine(): the waking CPU if wake_affine_idle() chose it, else prev_cpu.
 * wake_affine_weight() is not modelled (no load averages): it never chooses this_cpu. */
static int wake_affine(const struct sched_place *sp, int this_cpu, int prev_cpu, bool sync)
{
	int target = wake_affine_idle(sp, this_cpu, prev_cpu, sync);

	return target == this_cpu ? this_cpu : prev_cpu;
}

/* select_idle_core(): return core if every sibling is idle; otherwise remember the first
 * idle allowed sibling in *idle_cpu (if none yet) and drop the core from the scan. */
static int select_idle_core(struct sched_place *sp, int core, bool *cpus, int *idle_cpu)
{
	bool idle = true;

	for (int i = 0; i < smt_weight(sp, core); i++) {
		int cpu = smt_sibling(sp, core, i);

		if (!available_idle_cpu(sp, cpu)) {
			idle = false;
			if (*idle_cpu == -1)
				continue; /* sched_idle_cpu() is never true here */
			break;
		}
		if (*idle_cpu == -1 && cpus[cpu])
			*idle_cpu = cpu;
	}
	if (idle)
		return core;
	for (int i = 0; i < smt_weight(sp, core); i++)
		cpus[smt_sibling(sp, core, i)] = false;
	return -1;
}

/* select_idle_smt(): an idle allowed SMT sibling of target (the kernel passes prev). */
static int select_idle_smt(const struct sched_place *sp, const struct sched_task *p, int target)
{
	for (int i = 0; i < smt_weight(sp, target); i++) {
		int cpu = smt_sibling(sp, target, i);

		if (cpu == target || !task_allowed(p, cpu))
			continue;
		if (available_idle_cpu(sp, cpu))
			return cpu;
	}
	return -1;
}

/*
 * select_idle_cpu(): scan target's LLC, allowed CPUs only, in for_each_cpu_wrap() order
 * from target + 1. With has_idle_core, look for a whole idle core (no limit) and fall back
 * to the first idle thread seen, clearing the hint; without, look for any idle CPU among
 * at most nr_idle_scan CPUs (SIS_UTIL; none at all when it is 0). The LLC's CPUs are
 * listed in ascending order, so its wrap order is the list's from target's place + 1:
 * the scan and the mask (which holds only the LLC's CPUs) cost O(LLC), not O(CPUs).
 */
static int select_idle_cpu(struct sched_place *sp, const struct sched_task *p,
			   bool has_idle_core, int target)
{
	bool *cpus = sp->select_rq_mask;
	const int *llc = sp->llc_cpus + sp->llc[target] * sp->llc_size;
	int idle_cpu = -1, nr = sp->nr_idle_scan[sp->llc[target]] + 1;
	int pos = sp->llc_pos[target];

	for (int i = 0; i < sp->llc_size; i++)
		cpus[llc[i]] = task_allowed(p, llc[i]);
	/* because !--nr is the condition to stop the scan */
	if (nr == 1)
		return -1;
	for (int i = 1, k = pos; i <= sp->llc_size; i++) {
		int cpu;

		k = k + 1 == sp->llc_size ? 0 : k + 1; /* (pos + i) % llc_size */
		cpu = llc[k];
		if (!cpus[cpu])
			continue;
		if (has_idle_core) {
			int core = select_idle_core(sp, cpu, cpus, &idle_cpu);

			if (core >= 0)
				return core;
		} else {
			if (--nr <= 0)
				return -1;
			if (available_idle_cpu(sp, cpu)) {
				idle_cpu = cpu;
				break;
			}
		}
	}
	if (has_idle_core)
		sp->has_idle_cores[sp->llc[target]] = false;
	return idle_cpu;
}

/* select_idle_sibling(): an idle CPU sharing the cache with target, or target. */
static int select_idle_sibling(struct sched_place *sp, struct sched_task *p,
			       const struct sched_waker *w, int prev, int target)
{
	bool has_idle_core = false;
	int i, recent_used_cpu;

	if (available_idle_cpu(sp, target))
		return target;

	/* If the previous CPU is cache affine and idle, don't be stupid. */
	if (prev != target && cpus_share_cache(sp, prev, target) && available_idle_cpu(sp, prev))
		return prev;

	/* A per-CPU kthread (an I/O completion) on prev stacks the wakee on its own CPU. */
	if (w->per_cpu_kthread && prev == w->cpu && sp->nr_running[w->cpu] <= 1)
		return prev;

	/* Check a recently used CPU as a potential idle candidate. */
	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent_used_cpu >= 0 && recent_used_cpu != prev && recent_used_cpu != target &&
	    cpus_share_cache(sp, recent_used_cpu, target) &&
	    available_idle_cpu(sp, recent_used_cpu) && task_allowed(p, recent_used_cpu))
		return recent_used_cpu;

	/* sd_llc exists only if the LLC has more than one CPU. */
	if (sp->llc_size <= 1)
		return target;

	if (sched_smt_active(sp)) {
		has_idle_core = sp->has_idle_cores[sp->llc[target]];
		if (!has_idle_core && cpus_share_cache(sp, prev, target)) {
			i = select_idle_smt(sp, p, prev);
			if (i >= 0)
				return i;
		}
	}

	i = select_idle_cpu(sp, p, has_idle_core, target);
	if (i >= 0)
		return i;
	return target;
}

int sched_select_cpu(struct sched_place *sp, struct sched_task *p, const struct sched_waker *w,
		     int wake_flags, int64_t now_ns)
{
	bool sync = wake_flags & WF_SYNC;
	int cpu = w->cpu, prev_cpu = p->cpu, new_cpu = prev_cpu;
	bool want_affine;

	record_wakee(w->task, p, now_ns);
	if ((wake_flags & WF_CURRENT_CPU) && task_allowed(p, cpu))
		return cpu;
	want_affine = !wake_wide(sp, w->task, p) && task_allowed(p, cpu);

	/* The first domain up from cpu that spans prev_cpu has SD_WAKE_AFFINE. */
	if (want_affine && cpu != prev_cpu)
		new_cpu = wake_affine(sp, cpu, prev_cpu, sync);

	return select_idle_sibling(sp, p, w, prev_cpu, new_cpu);
}
