/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pelt.h - per-entity load tracking, the utilisation part of a cfs_rq's struct sched_avg,
 * as Linux v6.12.118 computes it (kernel/sched/pelt.c: decay_load,
 * __accumulate_pelt_segments, accumulate_sum, ___update_load_sum, ___update_load_avg).
 * pelt.c keeps the kernel's integer arithmetic, so the two can be read side by side.
 *
 * Time is counted in units of 1024 ns (the kernel's "~1 us") and in periods of 1024 such
 * units (1,048,576 ns); a period's weight decays by y per period, y^32 = 1/2. util_sum
 * holds sum(running time in units x y^age) << 10; util_avg = util_sum / divider (0..1024)
 * is refreshed only by an update that crosses a period boundary, as in the kernel.
 */
#ifndef IDLESIM_SCHED_PELT_H
#define IDLESIM_SCHED_PELT_H

#include <stdbool.h>
#include <stdint.h>

#define LOAD_AVG_PERIOD 32	   /* y^LOAD_AVG_PERIOD = 1/2 */
#define LOAD_AVG_MAX 47742	   /* the largest sum 1024 * (1 + y + y^2 + ...) reaches */
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1UL << SCHED_CAPACITY_SHIFT)

/* The utilisation fields of the kernel's struct sched_avg (no load or runnable sums). */
struct sched_avg {
	int64_t last_update_time_ns; /* advanced in whole 1024 ns units */
	uint32_t util_sum;
	uint32_t period_contrib;     /* units of the current period accumulated, < 1024 */
	unsigned long util_avg;	     /* 0..SCHED_CAPACITY_SCALE */
};

/* decay_load(): val * y^n, in the kernel's fixed point (0 once n > 32 * 63). */
uint64_t pelt_decay_load(uint64_t val, uint64_t n);

/*
 * ___update_load_sum() then, if a period boundary was crossed, ___update_load_avg() for a
 * cfs_rq at now_ns: `running` says whether a task ran on it (cfs_rq->curr != NULL, which
 * implies load) during the whole time since the last update. Returns 1 if util_avg was
 * recomputed, 0 if not (less than a period boundary: only the sum moved, or nothing).
 */
int pelt_update_util(struct sched_avg *sa, int64_t now_ns, bool running);

#endif
