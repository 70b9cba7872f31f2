/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wheel.h - the jiffy grid and the timer wheel's rounding (kernel/time/timer.c, v6.12).
 *
 * One grid per run: jiffy k starts at the edge phase_ns + k * tick_ns, with phase_ns in
 * [0, tick_ns) (the trace's tick_phase, or its start, reduced modulo TICK_NSEC), so jiffy 0
 * is the first edge at or after time 0. The periodic tick fires on the edges, and a
 * timer-wheel timer fires on the edge of its bucket's expiry: calc_wheel_index() picks a
 * level from expires - clk and rounds expires up to that level's granularity.
 */
#ifndef IDLESIM_WHEEL_H
#define IDLESIM_WHEEL_H

#include <stdbool.h>
#include <stdint.h>

/* kernel/time/timer.c's wheel geometry */
#define LVL_CLK_SHIFT 3
#define LVL_BITS 6
#define LVL_SIZE (INT64_C(1) << LVL_BITS)
#define LVL_SHIFT(n) ((n) * LVL_CLK_SHIFT)
#define LVL_GRAN(n) (INT64_C(1) << LVL_SHIFT(n))
#define LVL_START(n) ((LVL_SIZE - 1) << (((n) - 1) * LVL_CLK_SHIFT))
/* 9 levels for HZ > 100, else 8: a run's HZ is a variable, so the depth is a function */
#define LVL_DEPTH(hz) ((hz) > 100 ? 9 : 8)
#define WHEEL_TIMEOUT_CUTOFF(hz) LVL_START(LVL_DEPTH(hz))
#define WHEEL_TIMEOUT_MAX(hz) (WHEEL_TIMEOUT_CUTOFF(hz) - LVL_GRAN(LVL_DEPTH(hz) - 1))

struct jiffy_grid {
	int64_t tick_ns;  /* TICK_NSEC */
	int64_t phase_ns; /* the edge of jiffy 0, in [0, tick_ns) */
	int hz;
};

/* A grid of TICK_NSEC tick_ns with an edge at phase_ns (any time >= 0). */
void jiffy_grid_init(struct jiffy_grid *g, int hz, int64_t tick_ns, int64_t phase_ns);

/* The jiffy t is in: the number of the last edge at or before t (-1 before the first). */
int64_t jiffy_of(const struct jiffy_grid *g, int64_t t_ns);

/* The time of jiffy j's edge; INT64_MAX (never) if it is past 2^63 - 1. */
int64_t jiffy_edge_ns(const struct jiffy_grid *g, int64_t j);

/* The first edge at or after t (an idle record's wheel timer); INT64_MAX stays INT64_MAX. */
int64_t jiffy_edge_at_or_after(const struct jiffy_grid *g, int64_t t_ns);

/* The first edge strictly after t: the periodic tick's next interrupt. */
int64_t jiffy_edge_after(const struct jiffy_grid *g, int64_t t_ns);

/*
 * calc_wheel_index(): the jiffy of the bucket a timer with `expires` lands in when queued
 * with the base clock at `clk` (both in jiffies). Level n is the smallest with
 * expires - clk < LVL_START(n + 1); the bucket expires at (expires / 8^n + 1) * 8^n; an
 * expiry already past goes into clk's bucket; a delta of WHEEL_TIMEOUT_CUTOFF or more is
 * capped at clk + WHEEL_TIMEOUT_MAX.
 */
int64_t wheel_bucket_expiry(int hz, int64_t expires, int64_t clk);

/*
 * round_jiffies() / round_jiffies_up() (round_jiffies_common(), v6.12): the absolute jiffy j
 * moved to a whole second, skewed by 3 jiffies per CPU number so CPUs do not all fire at
 * once: down when within HZ/4 past one (not with force_up), else up; j itself if that is
 * not after `now`.
 */
int64_t round_jiffies_abs(int hz, int cpu, int64_t j, int64_t now, bool force_up);

/* msecs_to_jiffies()'s round-up, for any duration in ns >= 0: ceil(d / TICK_NSEC). */
int64_t jiffies_round_up(const struct jiffy_grid *g, int64_t d_ns);

#endif
