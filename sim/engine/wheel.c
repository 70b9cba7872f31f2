// SPDX-License-Identifier: GPL-2.0-only
/*
 * wheel.c - the jiffy grid and calc_wheel_index()'s rounding (sim/engine/wheel.h). Integer
 * arithmetic only; times before the first edge belong to jiffy -1, so divisions floor.
 */
#include "sim/engine/wheel.h"

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

void jiffy_grid_init(struct jiffy_grid *g, int hz, int64_t tick_ns, int64_t phase_ns)
{
	g->hz = hz;
	g->tick_ns = tick_ns;
	g->phase_ns = phase_ns % tick_ns;
}

int64_t jiffy_of(const struct jiffy_grid *g, int64_t t_ns)
{
	return floor_div(t_ns - g->phase_ns, g->tick_ns);
}

int64_t jiffy_edge_ns(const struct jiffy_grid *g, int64_t j)
{
	if (j > (INT64_MAX - g->phase_ns) / g->tick_ns)
		return INT64_MAX;
	return g->phase_ns + j * g->tick_ns;
}

int64_t jiffy_edge_at_or_after(const struct jiffy_grid *g, int64_t t_ns)
{
	int64_t j = jiffy_of(g, t_ns);

	if (t_ns == INT64_MAX)
		return INT64_MAX;
	return jiffy_edge_ns(g, jiffy_edge_ns(g, j) == t_ns ? j : j + 1);
}

int64_t jiffy_edge_after(const struct jiffy_grid *g, int64_t t_ns)
{
	return jiffy_edge_ns(g, jiffy_of(g, t_ns) + 1);
}

int64_t jiffies_round_up(const struct jiffy_grid *g, int64_t d_ns)
{
	return d_ns / g->tick_ns + (d_ns % g->tick_ns != 0);
}

/* calc_index(): round up to the level's granularity, never early. */
static int64_t bucket_of_level(int64_t expires, int lvl)
{
	return (floor_div(expires, LVL_GRAN(lvl)) + 1) * LVL_GRAN(lvl);
}

int64_t wheel_bucket_expiry(int hz, int64_t expires, int64_t clk)
{
	int64_t delta = expires - clk;
	int lvl;

	if (delta < 0)
		return clk;
	for (lvl = 0; lvl < LVL_DEPTH(hz) - 1; lvl++)
		if (delta < LVL_START(lvl + 1))
			return bucket_of_level(expires, lvl);
	if (delta >= WHEEL_TIMEOUT_CUTOFF(hz))
		expires = clk + WHEEL_TIMEOUT_MAX(hz);
	return bucket_of_level(expires, LVL_DEPTH(hz) - 1);
}

int64_t round_jiffies_abs(int hz, int cpu, int64_t j, int64_t now, bool force_up)
{
	int64_t skewed = j + 3 * (int64_t)cpu, rem = skewed % hz, r;

	r = rem < hz / 4 && !force_up ? skewed - rem : skewed - rem + hz;
	r -= 3 * (int64_t)cpu;
	return r <= now ? j : r;
}
