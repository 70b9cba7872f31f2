// SPDX-License-Identifier: GPL-2.0-only
/*
 * pelt.c - PELT utilisation of a run queue, Linux v6.12.118's kernel/sched/pelt.c (names
 * kept; the kernel's ___update_load_sum and ___update_load_avg are update_load_sum and
 * update_load_avg here, and only the util sums are carried). pelt.h says what the fields
 * mean.
 */
#include "sim/sched/pelt.h"

/*
 * runnable_avg_yN_inv[n] = floor((2^32 - 1) * y^n), y = 2^(-1/32), n < 32: the constants
 * of the kernel's kernel/sched/sched-pelt.h (generated there by
 * Documentation/scheduler/sched-pelt.c), carried as numbers so that the decay is the
 * kernel's to the last unit.
 */
static const uint32_t runnable_avg_yN_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb,
	0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9,
	0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581, 0xad583ee9, 0xa9a15ab4, 0xa5fed6a9,
	0xa2704302, 0x9ef5325f, 0x9b8d39b9, 0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a,
	0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

/* mul_u64_u32_shr(a, mul, 32): (a * mul) >> 32 without losing the high bits. */
static uint64_t mul_u64_u32_shr32(uint64_t a, uint32_t mul)
{
	uint64_t al = (uint32_t)a, ah = a >> 32;

	return ((al * mul) >> 32) + ah * mul;
}

uint64_t pelt_decay_load(uint64_t val, uint64_t n)
{
	unsigned int local_n;

	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	local_n = (unsigned int)n;
	/* y^n = 1/2^(n / PERIOD) * y^(n % PERIOD) */
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr32(val, runnable_avg_yN_inv[local_n]);
}

/*
 * __accumulate_pelt_segments(): the contribution of a span that crossed `periods` period
 * boundaries: d1 (the end of the first, incomplete period) decayed by y^periods, the full
 * periods between, 1024 * (y + ... + y^(periods-1)), and d3 (the current period's start)
 * undecayed.
 */
static uint32_t accumulate_pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1, c2, c3 = d3;

	c1 = (uint32_t)pelt_decay_load((uint64_t)d1, periods);
	c2 = LOAD_AVG_MAX - (uint32_t)pelt_decay_load(LOAD_AVG_MAX, periods) - 1024;
	return c1 + c2 + c3;
}

/* accumulate_sum(): decay the sum by the periods crossed and add the running time. */
static uint64_t accumulate_sum(uint64_t delta, struct sched_avg *sa, bool running)
{
	uint32_t contrib = (uint32_t)delta; /* periods == 0 -> delta < 1024 */
	uint64_t periods;

	delta += sa->period_contrib;
	periods = delta / 1024;
	if (periods) {
		sa->util_sum = (uint32_t)pelt_decay_load((uint64_t)sa->util_sum, periods);
		delta %= 1024;
		if (running)
			contrib = accumulate_pelt_segments(periods, 1024 - sa->period_contrib,
							   (uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;
	if (running)
		sa->util_sum += contrib << SCHED_CAPACITY_SHIFT;
	return periods;
}

/* ___update_load_sum() with load implied by running (the util part only). */
static int update_load_sum(int64_t now_ns, struct sched_avg *sa, bool running)
{
	int64_t delta = now_ns - sa->last_update_time_ns;

	if (delta < 0) { /* time went backwards: start again from now */
		sa->last_update_time_ns = now_ns;
		return 0;
	}
	delta >>= 10; /* 1024 ns units */
	if (!delta)
		return 0;
	sa->last_update_time_ns += delta << 10;
	return accumulate_sum((uint64_t)delta, sa, running) ? 1 : 0;
}

/* get_pelt_divider(): the largest util_sum can be at this point of the period. */
static uint32_t get_pelt_divider(const struct sched_avg *sa)
{
	return LOAD_AVG_MAX - 1024 + sa->period_contrib;
}

/* ___update_load_avg(): util_avg from util_sum. */
static void update_load_avg(struct sched_avg *sa)
{
	sa->util_avg = sa->util_sum / get_pelt_divider(sa);
}

int pelt_update_util(struct sched_avg *sa, int64_t now_ns, bool running)
{
	if (!update_load_sum(now_ns, sa, running))
		return 0;
	update_load_avg(sa);
	return 1;
}
