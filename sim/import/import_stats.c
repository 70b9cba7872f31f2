// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_stats.c - what the recording kernel did: its governor's choices, scored the way
 * cpuidle_enter_state() scores them, and checked against its own cpu_idle_miss events.
 *
 * For every complete idle period (cpu_idle entry of state k at t0, exit at t1) the measured
 * residency is diff = t1 - t0: the kernel takes its timestamps just after the entry event and
 * just before the exit event, and the hardware exit latency is inside that interval (the
 * engine adds it because it simulates the wakeup instead). usage, time, above and below follow
 * from sim/machine/cpuidle_rules.c against the machine the user names, with its default-off states
 * (and --disable/--enable) as the disabled ones. Without a machine only usage and time are
 * known.
 *
 * The agreement check. From v6.0 the kernel emits cpu_idle_miss(cpu, state, above|below)
 * exactly where it counts above or below, after the exit event and before the CPU runs a task
 * or idles again (interrupt handlers may come between). So every complete period has a
 * verdict of ours waiting until the next entry or task switch on its CPU (or the end of the
 * trace, or lost events) and collects the kernel's event if one comes; no event means the
 * kernel counted neither. A miss event with no complete period waiting, or naming another
 * state, is "unmatched".
 */
#include "sim/import/import_int.h"

void stats_period(struct recon *R, struct rcpu *c, int cpu, int64_t entry, int64_t diff)
{
	struct cpuidle_state_usage *su = c->s.su;
	int k = c->state;

	(void)cpu;
	if (k >= CPUIDLE_STATE_MAX || (R->machine && k >= R->drv.state_count)) {
		c->s.outside++;
		return;
	}
	if (R->machine) {
		c->v = cpuidle_account(&R->drv, su, k, diff);
	} else {
		su[k].usage++;
		su[k].time_ns += (u64)diff;
		c->v = CPUIDLE_HIT;
	}
	if (!R->machine)
		return;
	c->verdict_pending = true;
	c->v_state = k;
	c->v_time = entry;
	c->v_diff = diff;
	c->kernel_v = -1;
}

void stats_miss_event(struct recon *R, struct rcpu *c, const struct kevent *ev)
{
	struct miss_check *m = &R->miss;

	m->events++;
	if (ev->flags & KF_BELOW)
		m->below++;
	else
		m->above++;
	if (!c->verdict_pending || c->kernel_v >= 0 || c->v_state != ev->v) {
		m->unmatched++;
		return;
	}
	c->kernel_v = ev->flags & KF_BELOW ? CPUIDLE_BELOW : CPUIDLE_ABOVE;
}

void stats_settle(struct recon *R, struct rcpu *c, int cpu)
{
	struct miss_check *m = &R->miss;
	int kernel;

	if (!c->verdict_pending)
		return;
	c->verdict_pending = false;
	kernel = c->kernel_v < 0 ? CPUIDLE_HIT : c->kernel_v;
	m->compared++;
	if (kernel == (int)c->v) {
		m->agree++;
		return;
	}
	m->disagree++;
	if (m->nlist < IMP_MAX_DISAGREEMENTS) {
		struct miss_disagreement *d = &m->list[m->nlist++];

		d->cpu = cpu;
		d->state = c->v_state;
		d->time_ns = c->v_time;
		d->residency_ns = c->v_diff;
		d->kernel = kernel;
		d->ours = (int)c->v;
	}
}
