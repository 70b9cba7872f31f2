/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * energy.h - the time each core and each package of the machine spends at each level, and
 * its energy.
 *
 * A core is as deep as its shallowest thread, a package as its shallowest core (level 0 =
 * running, k + 1 = idle state k); offline CPUs sit in the deepest state. Time is summed per
 * level in integer ns and priced once at the end, at the machine's per-level powers.
 *
 * Two ways to be told about the CPUs (the engine's two ways to run its events):
 *   in time order   (spans false) every change is charged at once, and changes must come
 *                   in time order across all CPUs;
 *   by idle spans   (spans true) each CPU's changes come in its own time order only; the
 *                   idle spans they end are logged and charged by energy_charge_spans()
 *                   once every CPU has reported up to a time (sim/base/idlespan.c).
 * Both give the same integer time per level.
 */
#ifndef IDLESIM_ENERGY_H
#define IDLESIM_ENERGY_H

#include "sim/base/error.h"
#include "sim/machine/machine.h"

#include <stdbool.h>
#include <stdint.h>

struct energy;
struct energy_cpu; /* one online CPU's way in */

/* For online CPUs 0 .. nr_cpus - 1 of m, running from start_ns. NULL if out of memory. */
struct energy *energy_new(const struct machine *m, int nr_cpus, int64_t start_ns, bool spans);
void energy_free(struct energy *E);

/* The handle of online CPU `cpu`, valid until energy_free(). */
struct energy_cpu *energy_cpu(struct energy *E, int cpu);

/* That CPU moves to `level` at t. Returns 0, or -1 if out of memory (spans). */
int energy_level(struct energy_cpu *ec, int level, int64_t t);

/* Spans: charge the time up to `to`; every CPU has reported its changes up to it. -1 if out
 * of memory. */
int energy_charge_spans(struct energy *E, int64_t to);

/*
 * The same a core at a time, so that a caller running CPUs one after the other charges a
 * core's spans while they are still in the caches: for each core g in order, from 0 to
 * energy_nr_cores() - 1, once its online CPUs (energy_core_cpus(): *n of them) have
 * reported up to `to`, energy_charge_core(); then energy_charge_done(). -1 if out of memory.
 */
int energy_nr_cores(const struct energy *E);
const int *energy_core_cpus(const struct energy *E, int g, int *n);
int energy_charge_core(struct energy *E, int g, int64_t to);
void energy_charge_done(struct energy *E, int64_t to);

/* Charge the time up to end_ns, the end of the run. -1 if out of memory. */
int energy_close(struct energy *E, int64_t end_ns);

/* Add the cores' and packages' energy to *energy_j (the part in idle levels to *idle_energy_j,
 * the packages' part to *package_energy_j). */
void energy_price(const struct energy *E, double *energy_j, double *idle_energy_j,
		  double *package_energy_j);

/*
 * One CPU's idle period, priced as the accounting above prices it for a core of its own:
 * idle_ns in state idx at the state's core power, the state's entry+exit energy, and exit_ns
 * (the actual wake latency) at active core power. The energy reference (oracle-energy,
 * governors/reference.c) minimises this through the engine (sim_config docs in
 * sim/engine/engine.h), so its choices and the accounting use the same numbers.
 */
double energy_period_j(const struct machine *m, int idx, double idle_ns, double exit_ns);

/*
 * The idle length beyond which the state that minimises energy_period_j() (exit_ns[k] for
 * state k) no longer changes with it: the largest idle time at which two states' costs are
 * equal (0 if none). Capped at max_ns.
 */
int64_t energy_period_horizon_ns(const struct machine *m, const double *exit_ns, int64_t max_ns);

/* The cores' energy as if every online CPU had a core of its own: each CPU's time per
 * level at the levels' core powers (no transitions, no packages). */
double energy_price_cpus(const struct energy *E);

/* Every online CPU, core and package spent exactly span_ns at its levels, none less than 0; else an
 * internal error in err. */
int energy_check(const struct energy *E, int64_t span_ns, struct sim_error *err);

#endif
