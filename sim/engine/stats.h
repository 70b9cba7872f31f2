/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - what a run measured, and the numbers derived from it.
 *
 * The engine fills the counters (struct run_stats); stats.c turns them into summaries
 * (percentiles, percentages, regret) and never runs a simulation.
 *
 * Definitions (also in docs/scores.md):
 *   idle_entries     = sum of usage over states (completed entries, as sysfs counts them)
 *   hits             = idle_entries - above - below
 *   above_pct etc.   = 100 * above / idle_entries
 *   residency_pct(S) = 100 * time_ns(S) / (cpus * duration_ns)   (turbostat's "S%")
 *   busy_pct         = 100 * busy_ns / (cpus * duration_ns)      (turbostat's "Busy%")
 *   energy_j         = core + package + transition energy over [start, end]
 *   idle_energy_j    = the part drawn by idle cores, idle packages and transitions
 *   avg_power_w      = energy_j / duration;  idle_power_w = idle_energy_j / duration
 *   wake latency     = for each irq/ipi wakeup, time from the wakeup to the CPU running;
 *                      percentiles by the nearest-rank rule
 *   regret           = governor's value minus a reference's on the same input: energy
 *                      against oracle-energy, wake latency against oracle (docs/regret.md)
 */
#ifndef IDLESIM_STATS_H
#define IDLESIM_STATS_H

#include <stdint.h>

#include "governors/governor.h"
#include "sim/trace/trace.h"

/*
 * A latency distribution whose memory does not depend on the number of samples. Values
 * are kept exactly while there are at most LAT_EXACT distinct ones (in practice the exit
 * latencies of the states); further values go to log-linear buckets with 32 sub-buckets
 * per power of two (relative error < 3.2 %), reported at the bucket's upper end.
 */
#define LAT_EXACT 16
#define LAT_SUB_BITS 5
#define LAT_BUCKETS (64 + (63 - 6) * 32)
#define LAT_CHUNK 32
#define LAT_CHUNKS (LAT_BUCKETS / LAT_CHUNK)

struct lat_hist {
	uint64_t n;
	int64_t sum_ns;
	int64_t max_ns;
	int nr_exact;
	int64_t exact_val[LAT_EXACT];
	uint64_t exact_cnt[LAT_EXACT];
	uint8_t exact_slot[4 * LAT_EXACT]; /* open addressing on the value: index + 1, 0 free */
	/* LAT_BUCKETS counters in LAT_CHUNKS chunks of LAT_CHUNK (a power of two's 32 sub-buckets),
	 * each allocated when a value first falls in it, the table of chunks on the first spill:
	 * a CPU's samples fill a few chunks, so on thousands of CPUs the counters stay small and
	 * cached (docs/speed.md, "Scale with CPUs"). */
	uint64_t **chunks;
};

void lat_hist_init(struct lat_hist *h);
void lat_hist_release(struct lat_hist *h);
/* Keep v exact even if other values came first (the engine reserves the exit latencies). */
void lat_hist_reserve(struct lat_hist *h, int64_t v_ns);
/* Returns 0, or -1 if memory for the buckets could not be allocated. */
int lat_hist_add(struct lat_hist *h, int64_t v_ns, uint64_t count);
int lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);
/*
 * For a caller that holds samples back (the engine on large machines): once the exact
 * table is full, a value is either exact or bucketed whatever came before, so bucketed
 * samples may be added later, in any order. lat_hist_exact_of(): v's exact index, or -1;
 * lat_bucket_of(): the bucket of v >= 0; lat_hist_add_bucket(): count samples to bucket b,
 * counted in n (their values are the caller's to add to sum_ns and max_ns). Returns 0, or
 * -1 if memory for the bucket could not be allocated.
 */
int lat_hist_exact_of(const struct lat_hist *h, int64_t v_ns);
int lat_bucket_of(int64_t v_ns);
int lat_hist_add_bucket(struct lat_hist *h, int b, uint64_t count);
/* Nearest-rank percentile (0 < p <= 100); 0 when there are no samples. */
int64_t lat_hist_percentile(const struct lat_hist *h, double p);
double lat_hist_mean(const struct lat_hist *h);

struct cpu_stats {
	int cpu, package, core, thread;
	struct cpuidle_state_usage states[CPUIDLE_STATE_MAX];
	uint64_t wakeups[WAKE_NR_CAUSES]; /* idle entries ended, by cause */
	uint64_t absorbed;     /* real wakeups that found the CPU running or still exiting */
	uint64_t polled;       /* resched=0 interrupts taken inside a POLL entry, which goes on */
	uint64_t idle_periods; /* idle periods of the trace that the CPU entered */
	int64_t busy_ns;       /* running work */
	int64_t truncated_ns;  /* idle entry still in progress at the end (or its exit) */
	int64_t spilled_ns;    /* work the trace does before the end that ran past it */
	struct lat_hist wake_latency;
};

struct run_stats {
	int nr_cpus;
	int state_count;
	char state_names[CPUIDLE_STATE_MAX][CPUIDLE_NAME_LEN];
	int64_t start_ns, end_ns;
	struct cpu_stats *cpus; /* nr_cpus entries */
	struct cpu_stats total; /* sums over CPUs (cpu = -1) */
	double energy_j;
	double idle_energy_j;
	double transition_energy_j;
	double package_energy_j; /* the packages' share of energy_j */
	/* The cores' energy as if each CPU had a core of its own, plus the transitions: what
	 * the energy reference minimises per CPU (with SMT, energy_j - package_energy_j
	 * charges a core once, at its shallowest thread; docs/regret.md). */
	double cpu_energy_j;
};

void run_stats_release(struct run_stats *rs);
/* Fill rs->total from rs->cpus. Returns 0 or -1 on allocation failure. */
int run_stats_sum(struct run_stats *rs);

/* Derived numbers for one CPU (or the total) of a run. */
struct stats_summary {
	uint64_t idle_entries, above, below, hits;
	double above_pct, below_pct, hits_pct;
	double busy_pct;
	double truncated_pct; /* the entry cut by the end: busy + residencies + this = 100 */
	double residency_pct[CPUIDLE_STATE_MAX];
	uint64_t wakeups;
	int64_t lat_p50_ns, lat_p99_ns, lat_max_ns;
	double lat_mean_ns;
	uint64_t lat_samples;
};

void stats_summarize(const struct run_stats *rs, const struct cpu_stats *cs, int nr_cpus,
		     struct stats_summary *out);

static inline double run_duration_s(const struct run_stats *rs)
{
	return (double)(rs->end_ns - rs->start_ns) / 1e9;
}

#endif
