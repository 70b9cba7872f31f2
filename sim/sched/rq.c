// SPDX-License-Identifier: GPL-2.0-only
/*
 * rq.c - a CPU's run queue of the fair class, EEVDF as Linux v6.12.118 runs it
 * (kernel/sched/fair.c: update_curr, update_deadline, avg_vruntime, entity_lag,
 * vruntime_eligible, place_entity, enqueue_entity, dequeue_entity, pick_eevdf,
 * set_next_entity, put_prev_entity, check_preempt_wakeup_fair, do_preempt_short,
 * did_preempt_short; features.h: PLACE_LAG, PLACE_DEADLINE_INITIAL, RUN_TO_PARITY,
 * PREEMPT_SHORT, DELAY_DEQUEUE, DELAY_ZERO on; NEXT_BUDDY off). The functions keep the
 * kernel's names, so the two can be read side by side.
 *
 * Bookkeeping as the kernel keeps it: V, the load-weighted average vruntime of the
 * runnable entities, is zero_vruntime + (avg_vruntime + key(curr) * w(curr)) /
 * (avg_load + w(curr)), where avg_vruntime sums (vruntime - zero_vruntime) * weight over
 * the queued entities (curr is not queued while it runs) and every avg_vruntime() call
 * moves zero_vruntime to V (floored). Eligibility is the kernel's exact integer test.
 * v6.12.118 has zero_vruntime in place of the older min_vruntime; nothing here needs
 * min_vruntime.
 *
 * The queue is an array in queueing order, not the kernel's augmented rb-tree: pick_eevdf
 * scans it (O(n)) for the eligible entity with the earliest deadline. A CPU holds a few
 * runnable tasks, so the scan costs less than a tree would. Among equal deadlines the one
 * queued first wins, as the tree's leftmost does (rb_add puts an equal key to the right).
 *
 * Simplifications, and which way they can move results:
 *  - DELAY_DEQUEUE: a task that blocks while not eligible (negative lag) is dequeued at
 *    once with its lag set to 0. The kernel keeps it queued (sched_delayed) until it would
 *    be picked, i.e. until its lag has grown to >= 0, then dequeues it and DELAY_ZERO clips
 *    the lag to 0: the same lag, reached later. Meanwhile in the kernel it still weighs on
 *    V, and if it wakes before that it is requeued with its negative lag kept. So here a
 *    task that wakes soon after blocking ineligible waits less (lag 0, not negative) than
 *    in the kernel, and the others' eligibility is judged without it slightly earlier.
 *    An eligible sleeper (lag >= 0) is dequeued at once in both, keeping its lag
 *    (entity_lag(): clamped to calc_delta_fair(max(2 * slice, TICK_NSEC))).
 *  - Every dequeue is a sleep: no migration (PLACE_REL_DEADLINE's kept deadline, the
 *    ENQUEUE_MIGRATED path) and no cgroups (one cfs_rq per CPU, no group entities).
 *  - calc_delta_fair() divides exactly, delta * NICE_0_LOAD / weight, where the kernel
 *    multiplies by a 32-bit inverse weight: the same for nice-0 tasks (the default), a
 *    difference of a few ns per call otherwise.
 *  - Only the fair class: the idle task stands for every other class, so a wakeup on a
 *    CPU with no fair task running always preempts. No SCHED_IDLE or SCHED_BATCH tasks,
 *    no bandwidth throttling, no HRTICK (slices end at ticks or at the next update_curr:
 *    enqueue, dequeue, wakeup check, pick), no dl_server.
 */
#include "sim/sched/rq.h"

#include <string.h>

#include "sim/base/alloc.h"

int64_t sched_base_slice_ns(int nr_cpus)
{
	int cpus = nr_cpus < 8 ? nr_cpus : 8, ilog2 = 0;

	while (cpus >> (ilog2 + 1))
		ilog2++;
	return SCHED_BASE_SLICE_NORMALIZED_NS * (1 + ilog2);
}

void sched_rq_init(struct sched_rq *rq, int nr_cpus, int64_t tick_ns)
{
	*rq = (struct sched_rq){ .base_slice_ns = sched_base_slice_ns(nr_cpus),
				 .tick_ns = tick_ns };
}

void sched_rq_release(struct sched_rq *rq)
{
	sim_free(rq->queued);
	rq->queued = NULL;
	rq->nr_queued = rq->cap = 0;
}

void sched_entity_init(struct sched_entity *se)
{
	*se = (struct sched_entity){ .weight = NICE_0_LOAD };
}

bool sched_rq_idle(const struct sched_rq *rq)
{
	return rq->nr_running == 0;
}

/* The virtual time a task of se's weight accrues in delta ns. */
static int64_t calc_delta_fair(int64_t delta, const struct sched_entity *se)
{
	if (se->weight != NICE_0_LOAD)
		delta = delta * NICE_0_LOAD / se->weight;
	return delta;
}

static int64_t entity_key(const struct sched_rq *rq, const struct sched_entity *se)
{
	return se->vruntime_ns - rq->zero_vruntime_ns;
}

/* __enqueue_entity() / __dequeue_entity(): the queue and its weighted sums. */
static void __enqueue_entity(struct sched_rq *rq, struct sched_entity *se)
{
	rq->avg_vruntime += entity_key(rq, se) * se->weight;
	rq->avg_load += se->weight;
	rq->queued[rq->nr_queued++] = se;
}

static void __dequeue_entity(struct sched_rq *rq, struct sched_entity *se)
{
	size_t i = 0;

	while (i < rq->nr_queued && rq->queued[i] != se)
		i++;
	if (i == rq->nr_queued)
		return;
	memmove(&rq->queued[i], &rq->queued[i + 1], (rq->nr_queued - i - 1) * sizeof(se));
	rq->nr_queued--;
	rq->avg_vruntime -= entity_key(rq, se) * se->weight;
	rq->avg_load -= se->weight;
}

/* v' = v + d ==> avg_vruntime' = avg_vruntime - d * avg_load */
static void update_zero_vruntime(struct sched_rq *rq, int64_t delta)
{
	rq->avg_vruntime -= rq->avg_load * delta;
	rq->zero_vruntime_ns += delta;
}

/* avg_vruntime(): V, floored (a left bias, so that V itself is eligible); moves v0 to it. */
static int64_t avg_vruntime(struct sched_rq *rq)
{
	struct sched_entity *curr = rq->curr;
	long weight = rq->avg_load;
	int64_t delta = 0;

	if (curr && !curr->on_rq)
		curr = NULL;
	if (weight) {
		int64_t runtime = rq->avg_vruntime;

		if (curr) {
			runtime += entity_key(rq, curr) * curr->weight;
			weight += curr->weight;
		}
		/* sign flips effective floor / ceiling */
		if (runtime < 0)
			runtime -= weight - 1;
		delta = runtime / weight;
	} else if (curr) {
		/* When there is but one element, it is the average. */
		delta = curr->vruntime_ns - rq->zero_vruntime_ns;
	}
	update_zero_vruntime(rq, delta);
	return rq->zero_vruntime_ns;
}

/* entity_lag(): V - v, clamped to twice the slice, at least a tick, in se's virtual time. */
static int64_t entity_lag(const struct sched_rq *rq, int64_t avruntime,
			  const struct sched_entity *se)
{
	int64_t vlag = avruntime - se->vruntime_ns;
	int64_t limit = calc_delta_fair(2 * se->slice_ns > rq->tick_ns ? 2 * se->slice_ns
									 : rq->tick_ns,
					se);

	return vlag < -limit ? -limit : vlag > limit ? limit : vlag;
}

static void update_entity_lag(struct sched_rq *rq, struct sched_entity *se)
{
	se->vlag_ns = entity_lag(rq, avg_vruntime(rq), se);
}

/* vruntime_eligible(): vruntime <= V, as sum (v_i - v0) w_i >= (vruntime - v0) sum w_i. */
static bool vruntime_eligible(const struct sched_rq *rq, int64_t vruntime)
{
	const struct sched_entity *curr = rq->curr;
	int64_t avg = rq->avg_vruntime;
	long load = rq->avg_load;

	if (curr && curr->on_rq) {
		avg += entity_key(rq, curr) * curr->weight;
		load += curr->weight;
	}
	return avg >= (vruntime - rq->zero_vruntime_ns) * load;
}

bool sched_rq_entity_eligible(const struct sched_rq *rq, const struct sched_entity *se)
{
	return vruntime_eligible(rq, se->vruntime_ns);
}

static bool entity_eligible(const struct sched_rq *rq, const struct sched_entity *se)
{
	return sched_rq_entity_eligible(rq, se);
}

static bool entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	return a->deadline_ns - b->deadline_ns < 0;
}

/* The deadline stashed in vlag at pick: RUN_TO_PARITY keeps curr until it changes. */
static void set_protect_slice(struct sched_entity *se)
{
	se->vlag_ns = se->deadline_ns;
}

static bool protect_slice(const struct sched_entity *se)
{
	return se->vlag_ns == se->deadline_ns;
}

static void cancel_protect_slice(struct sched_entity *se)
{
	if (protect_slice(se))
		se->vlag_ns = se->deadline_ns + 1;
}

/* pick_eevdf(): the eligible entity with the earliest deadline; curr competes too. */
static struct sched_entity *pick_eevdf(const struct sched_rq *rq)
{
	struct sched_entity *curr = rq->curr, *best = NULL;

	/* Skip the eligibility check when there is but one entity. */
	if (rq->nr_running == 1)
		return curr && curr->on_rq ? curr : rq->queued[0];

	if (curr && (!curr->on_rq || !entity_eligible(rq, curr)))
		curr = NULL;

	/* RUN_TO_PARITY */
	if (curr && protect_slice(curr))
		return curr;

	for (size_t i = 0; i < rq->nr_queued; i++) {
		struct sched_entity *se = rq->queued[i];

		if ((!best || entity_before(se, best)) && entity_eligible(rq, se))
			best = se;
	}
	if (!best || (curr && entity_before(curr, best)))
		best = curr;
	return best;
}

/* update_deadline(): once vruntime reaches the deadline, request another slice. */
static bool update_deadline(struct sched_rq *rq, struct sched_entity *se)
{
	if (se->vruntime_ns - se->deadline_ns < 0)
		return false;
	if (!se->custom_slice_ns)
		se->slice_ns = rq->base_slice_ns;
	/* EEVDF: vd_i = ve_i + r_i / w_i */
	se->deadline_ns = se->vruntime_ns + calc_delta_fair(se->slice_ns, se);
	avg_vruntime(rq);
	/* The task has consumed its request, reschedule. */
	return true;
}

/* did_preempt_short(): curr lost its protection to a shorter slice and is not eligible. */
static bool did_preempt_short(const struct sched_rq *rq, const struct sched_entity *curr)
{
	if (protect_slice(curr))
		return false;
	return !entity_eligible(rq, curr);
}

/* do_preempt_short(): an eligible wakee pse with a shorter slice than se. */
static bool do_preempt_short(const struct sched_rq *rq, const struct sched_entity *pse,
			     const struct sched_entity *se)
{
	if (pse->slice_ns >= se->slice_ns)
		return false;
	if (!entity_eligible(rq, pse))
		return false;
	if (entity_before(pse, se))
		return true;
	if (!entity_eligible(rq, se))
		return true;
	return false;
}

static void update_curr(struct sched_rq *rq, int64_t now_ns)
{
	struct sched_entity *curr = rq->curr;
	int64_t delta_exec;
	bool resched;

	if (!curr)
		return;
	delta_exec = now_ns - curr->exec_start_ns;
	if (delta_exec <= 0)
		return;
	curr->exec_start_ns = now_ns;
	curr->sum_exec_runtime_ns += delta_exec;

	curr->vruntime_ns += calc_delta_fair(delta_exec, curr);
	resched = update_deadline(rq, curr);

	if (rq->nr_running == 1)
		return;
	if (resched || did_preempt_short(rq, curr))
		rq->need_resched = true;
}

void sched_rq_update_curr(struct sched_rq *rq, int64_t now_ns)
{
	update_curr(rq, now_ns);
}

/* place_entity(): v = V - lag, the lag inflated so that it survives se's own weight in V
 * (PLACE_LAG); the deadline a slice later, half a slice for a new task. */
static void place_entity(struct sched_rq *rq, struct sched_entity *se, int flags)
{
	int64_t vslice, vruntime = avg_vruntime(rq), lag = 0;

	if (!se->custom_slice_ns)
		se->slice_ns = rq->base_slice_ns;
	vslice = calc_delta_fair(se->slice_ns, se);

	if (rq->nr_running) {
		const struct sched_entity *curr = rq->curr;
		long load = rq->avg_load;

		lag = se->vlag_ns;
		if (curr && curr->on_rq)
			load += curr->weight;
		lag *= load + se->weight;
		if (!load)
			load = 1;
		lag /= load;
	}
	se->vruntime_ns = vruntime - lag;

	/* PLACE_DEADLINE_INITIAL: join halfway through a slice, like the others on average. */
	if (flags & ENQUEUE_INITIAL)
		vslice /= 2;
	se->deadline_ns = se->vruntime_ns + vslice;
}

int sched_rq_enqueue(struct sched_rq *rq, struct sched_entity *se, int flags, int64_t now_ns)
{
	bool curr = rq->curr == se;

	if (se->on_rq)
		return 0;
	/* Room for every runnable entity: curr goes back to the queue at the next pick. */
	if (sim_grow((void **)&rq->queued, &rq->cap, rq->nr_running + 1, sizeof(*rq->queued)))
		return -1;
	/* If we're the current task, we must renormalise before calling update_curr(). */
	if (curr)
		place_entity(rq, se, flags);
	update_curr(rq, now_ns);
	if (!curr)
		place_entity(rq, se, flags);
	rq->nr_running++;
	if (!curr)
		__enqueue_entity(rq, se);
	se->on_rq = true;
	return 0;
}

void sched_rq_dequeue(struct sched_rq *rq, struct sched_entity *se, int64_t now_ns)
{
	bool delay;

	if (!se->on_rq)
		return;
	update_curr(rq, now_ns);
	/* DELAY_DEQUEUE would keep an ineligible sleeper queued until its lag is 0. */
	delay = !entity_eligible(rq, se);
	update_entity_lag(rq, se);
	if (delay)
		se->vlag_ns = 0;
	if (se != rq->curr)
		__dequeue_entity(rq, se);
	else
		rq->need_resched = true; /* the task calls schedule() itself */
	se->on_rq = false;
	rq->nr_running--;
}

bool sched_rq_wakeup_preempt(struct sched_rq *rq, struct sched_entity *pse, int64_t now_ns)
{
	struct sched_entity *se = rq->curr;

	if (se == pse)
		return false;
	/* The idle task (or a task of another class, not modelled) is current. */
	if (!se || !se->on_rq) {
		rq->need_resched = true;
		return true;
	}
	if (rq->need_resched)
		return false;
	update_curr(rq, now_ns);
	/* PREEMPT_SHORT: a shorter eligible wakee ends curr's protection, even if it is not
	 * the pick now. */
	if (do_preempt_short(rq, pse, se))
		cancel_protect_slice(se);
	if (pick_eevdf(rq) == pse) {
		rq->need_resched = true;
		return true;
	}
	return false;
}

bool sched_rq_tick(struct sched_rq *rq, int64_t now_ns)
{
	update_curr(rq, now_ns);
	return rq->need_resched;
}

/* put_prev_entity(): a runnable curr goes back to the queue. */
static void put_prev_entity(struct sched_rq *rq, struct sched_entity *prev)
{
	if (prev->on_rq)
		__enqueue_entity(rq, prev);
	rq->curr = NULL;
}

/* set_next_entity(): 'current' is not kept in the queue; its slice is protected. */
static void set_next_entity(struct sched_rq *rq, struct sched_entity *se, int64_t now_ns)
{
	__dequeue_entity(rq, se);
	set_protect_slice(se);
	se->exec_start_ns = now_ns;
	rq->curr = se;
}

struct sched_entity *sched_rq_pick_next(struct sched_rq *rq, int64_t now_ns)
{
	struct sched_entity *prev = rq->curr, *se;

	rq->need_resched = false;
	if (!rq->nr_running) {
		if (prev)
			put_prev_entity(rq, prev);
		return NULL;
	}
	/* Might not have done put_prev_entity() */
	if (prev && prev->on_rq)
		update_curr(rq, now_ns);
	se = pick_eevdf(rq);
	if (se == prev)
		return se;
	if (prev)
		put_prev_entity(rq, prev);
	set_next_entity(rq, se, now_ns);
	return se;
}
