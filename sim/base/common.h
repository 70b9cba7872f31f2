/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common.h - time units and small helpers shared by every module of sim/.
 *
 * Time is int64_t nanoseconds everywhere; a name carries its unit (exit_latency_ns).
 * SIM_TIME_NEVER stands for "no such event" (the kernel's KTIME_MAX).
 */
#ifndef IDLESIM_COMMON_H
#define IDLESIM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define SIM_TIME_NEVER INT64_MAX
/*
 * The latest instant a workload may name, 2^62 ns (146 years of uptime): trace start, end,
 * record times and the ends of idle and busy periods. The engine adds ticks, exit
 * latencies (at most STATE_MAX_NS, 50 days), POLL limits and its lookahead to instants;
 * below 2^62 none of these sums can reach 2^63. Readers reject later times with the
 * position of the field; the engine refuses them as an internal error.
 */
#define SIM_TIME_MAX_NS (INT64_C(1) << 62)
#define SIM_NS_PER_US 1000LL
#define SIM_NS_PER_MS 1000000LL
#define SIM_NS_PER_S 1000000000LL

#define SIM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The next number of the splitmix64 stream whose state is *s (Steele, Lea, Flood 2014). */
static inline uint64_t sim_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* a + b for non-negative b, saturating at SIM_TIME_NEVER. */
static inline int64_t sim_time_add(int64_t a, int64_t b)
{
	return a > SIM_TIME_NEVER - b ? SIM_TIME_NEVER : a + b;
}

static inline int64_t sim_min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static inline int64_t sim_max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* a modulo m > 0 in [0, m), for negative a too (C's % truncates toward zero). */
static inline int64_t sim_floor_mod64(int64_t a, int64_t m)
{
	int64_t r = a % m;

	return r < 0 ? r + m : r;
}

/* Exit statuses of the command line tool. */
enum {
	SIM_EXIT_OK = 0,
	SIM_EXIT_INTERNAL = 1, /* a bug, or the machine ran out of memory */
	SIM_EXIT_INPUT = 2,    /* bad usage or bad input: the user can fix it */
};

#endif
