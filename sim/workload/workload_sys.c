// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload_sys.c - workload models of scheduler and timer behaviour: hackbench, cyclictest,
 * an idle system, and the powernightmares pattern (sim/workload/workloads.h, docs/workloads.md).
 *
 * The conventions are workload_net.c's: threads pinned to CPUs (wrapping onto --cpus),
 * messages between CPUs as IPIs, timers as timer items whose expiry the governor sees as
 * the sleep length, drawn times of the given mean with --jitter-pct of it exponential, one
 * seeded stream per thread. All defaults are assumptions; docs/workloads.md says what anchors each.
 */
#include "sim/workload/workloads.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <string.h>

/*
 * ==== hackbench ====
 *
 * hackbench (MMTests hackbench-process-pipes / -sockets): `groups` groups, each of `fds`
 * sender and `fds` receiver tasks. Here it runs in rounds, a burst each: every sender of a
 * group writes `burst` messages of msg-bytes to each receiver of its group (send-us of work
 * per write, one write after the other), every write wakes its receiver by an IPI, and the
 * receiver spends recv-us reading it. When the group's receivers have read the whole burst
 * (fds x fds x burst messages), the last reader wakes the group's senders for the next
 * round. Groups are independent. Task j (group g: senders 2g*fds.., receivers after them)
 * runs on CPU j mod cpus, so groups overlap on CPUs as in the real benchmark, whose tasks
 * outnumber the CPUs. Idle periods come from the ends of rounds and from receivers waiting
 * for writers.
 * A request is one group's round; its latency is the round's duration (wakeup of the
 * senders to the last read); its bytes the round's messages. Throughput: rounds/s (req/s);
 * hackbench's own figure, the time for N loops, is N / throughput.
 */
enum { HB_GROUPS, HB_FDS, HB_BURST, HB_CPUS, HB_MSG_BYTES, HB_SEND_US, HB_RECV_US, HB_JITTER,
       HB_HOUSEKEEPING, HB_HK_ALIGNED, HB_WATCHDOG, HB_VMSTAT, HB_KTIMERS, HB_TMIGR,
       HB_RCU_JIFFIES, HB_PLACEMENT, HB_MIGRATION_COST, HB_BASE_SLICE,
       HB_NEWIDLE_COST, HB_REFILL, HB_NR };

static const struct wl_param hackbench_params[HB_NR] = {
	[HB_GROUPS] = { "groups", "groups of senders and receivers", 2, 1, 1024 },
	[HB_FDS] = { "fds", "senders, and receivers, per group", 10, 1, 256 },
	[HB_BURST] = { "burst", "messages per sender and receiver in a round", 1, 1, 10000 },
	[HB_CPUS] = { "cpus",
		      "CPUs the tasks share (0: every CPU of the machine with the scheduler, "
		      "8 with --placement pinned or no machine)",
		      0, 0, MACHINE_MAX_CPUS },
	[HB_MSG_BYTES] = { "msg-bytes", "bytes per message", 100, 0, 1 << 20 },
	[HB_SEND_US] = { "send-us", "sender work per message written", 2, 0, 1000000 },
	[HB_RECV_US] = { "recv-us", "receiver work per message read", 2, 0, 1000000 },
	[HB_JITTER] = JITTER_PARAM,
	[HB_HOUSEKEEPING] = HOUSEKEEPING_PARAMS(0, WL_WATCHDOG_DEFAULT_MS),
	[HB_PLACEMENT] = SCHED_PARAMS,
};

enum { HB_WRITE, HB_READ };

struct hb_group {
	int64_t round_start_ns;
	int64_t read; /* messages read this round */
};

struct hackbench {
	int64_t send_ns, recv_ns;
	int groups, fds, burst, cpus, jitter;
	int64_t per_round;
	uint64_t round_bytes;
	struct hb_group *g;
};

/* 0 is the machine's CPUs with the scheduler (workload_nr_cpus()); without one, the 8 of
 * the model before the scheduler, so pinned runs and gen are unchanged. */
#define HB_PINNED_CPUS 8

static int hackbench_cpus(const int64_t *p)
{
	return p[HB_CPUS] ? (int)p[HB_CPUS] : HB_PINNED_CPUS;
}

static int64_t hackbench_tasks(const int64_t *p)
{
	return 2 * p[HB_GROUPS] * p[HB_FDS];
}

static int hackbench_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct hackbench *m = model;

	if (!p[HB_SEND_US] && !p[HB_RECV_US])
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "hackbench: --send-us and --recv-us are both 0: a round would "
				     "take no time");
	m->send_ns = US(p[HB_SEND_US]);
	m->recv_ns = US(p[HB_RECV_US]);
	m->groups = (int)p[HB_GROUPS];
	m->fds = (int)p[HB_FDS];
	m->burst = (int)p[HB_BURST];
	m->cpus = nr_cpus;
	m->jitter = (int)p[HB_JITTER];
	m->per_round = (int64_t)m->fds * m->fds * m->burst;
	m->round_bytes = (uint64_t)m->per_round * (uint64_t)p[HB_MSG_BYTES];
	m->g = sim_calloc((size_t)m->groups, sizeof(*m->g));
	return m->g ? 0 : sim_error_nomem(err, "");
}

static void hackbench_fini(void *model)
{
	struct hackbench *m = model;

	sim_free(m->g);
}

/* Task numbers: group g's senders are 2g*fds + s, its receivers 2g*fds + fds + r. */
static int hb_task(const struct hackbench *m, int group, int receiver, int i)
{
	return 2 * group * m->fds + (receiver ? m->fds : 0) + i;
}

/* Sender `task` writes its message number `msg` of the round (stamp_ns holds the number). */
static int hb_write(struct hackbench *m, struct loop *L, int task, int64_t msg, int64_t t,
		    struct sim_error *err)
{
	struct loop_item it = { .cpu = task % m->cpus, .arrival_ns = t, .cause = WAKE_IPI,
				.kind = HB_WRITE, .task = task, .tid = task + 1, .stamp_ns = msg };

	it.work_ns = wl_vary(L, task, m->send_ns, m->jitter);
	return loop_send(L, &it, err);
}

static int hb_round(struct hackbench *m, struct loop *L, int group, int64_t t,
		    struct sim_error *err)
{
	int s;

	m->g[group].round_start_ns = t;
	m->g[group].read = 0;
	for (s = 0; s < m->fds; s++)
		if (hb_write(m, L, hb_task(m, group, 0, s), 0, t, err))
			return -1;
	return 0;
}

static int hackbench_start(void *model, struct loop *L, struct sim_error *err)
{
	struct hackbench *m = model;
	int g;

	for (g = 0; g < m->groups; g++)
		if (hb_round(m, L, g, 0, err))
			return -1;
	return 0;
}

static int hackbench_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
			  struct sim_error *err)
{
	struct hackbench *m = model;
	int group = done->task / (2 * m->fds);
	struct hb_group *g = &m->g[group];
	struct loop_item it = { .arrival_ns = t, .cause = WAKE_IPI, .kind = HB_READ };

	if (done->kind == HB_READ) {
		if (++g->read < m->per_round)
			return 0;
		if (loop_request_done(L, t - g->round_start_ns, m->round_bytes, err))
			return -1;
		return hb_round(m, L, group, t, err);
	}
	/* Message number n goes to receiver n mod fds. */
	it.task = hb_task(m, group, 1, (int)(done->stamp_ns % m->fds));
	it.cpu = it.task % m->cpus;
	it.tid = it.task + 1;
	it.sync = true; /* the writer's wakeup of the reader (a socket's sync wakeup) */
	it.work_ns = wl_vary(L, it.task, m->recv_ns, m->jitter);
	if (loop_send(L, &it, err))
		return -1;
	if (done->stamp_ns + 1 < (int64_t)m->fds * m->burst)
		return hb_write(m, L, done->task, done->stamp_ns + 1, t, err);
	return 0;
}

static const char *hackbench_comm(void *model, int tid)
{
	(void)model;
	(void)tid;
	return "hackbench";
}

static const struct loop_model_ops hackbench_ops = {
	.start = hackbench_start,
	.done = hackbench_done,
	.task_comm = hackbench_comm,
};

const struct workload wl_hackbench = {
	.name = "hackbench",
	.summary = "groups of tasks exchanging bursts of small messages, round after round",
	.imitates = "hackbench (MMTests hackbench-process-pipes, -sockets)",
	.params = hackbench_params,
	.nr_params = HB_NR,
	.throughput_unit = "req/s",
	.nr_cpus = hackbench_cpus,
	.unbound = true,
	.nr_tasks = hackbench_tasks,
	.tasks_from = { "groups", "fds" },
	.tasks_rule = "2 x groups x fds",
	/* configs/config-scheduler-unbound: HACKBENCH_MAX_GROUPS = NUMCPUS * 4, at most 296 */
	.mmtests_param = "groups",
	.mmtests_per_cpu = 4,
	.mmtests_max = 296,
	.model_size = sizeof(struct hackbench),
	.init = hackbench_init,
	.fini = hackbench_fini,
	.ops = &hackbench_ops,
};

/*
 * ==== cyclictest ====
 *
 * cyclictest with one thread per CPU (`cyclictest -S -i period`): thread i sleeps until an
 * absolute expiry (clock_nanosleep TIMER_ABSTIME), every period-us + i * distance-us
 * (cyclictest's -d), starting one interval after the start. When its timer fires, the
 * thread measures how late it runs, works work-us (drawn with the jitter) and sleeps until
 * the next expiry; an expiry already past when it gets there is run at once, as
 * clock_nanosleep returns at once. The expiries are exact (no timer slack for an RT task):
 * the governor's sleep length is right every time, and what it gets wrong is only how
 * long the exit takes.
 * A request is one timer expiry; its latency is cyclictest's: the start of the thread's
 * work minus the expiry (the exit latency of the state the CPU was in, or the wait behind
 * an overrun). That is the figure: compare reports latency_mean and latency_p99 for it
 * (reports_latency), though there is no throughput. clock_nanosleep() arms an hrtimer, so
 * the tick-stop rule does not see it.
 */
enum { CT_CPUS, CT_PERIOD_US, CT_DISTANCE_US, CT_WORK_US, CT_JITTER, CT_HOUSEKEEPING,
       CT_HK_ALIGNED, CT_WATCHDOG, CT_VMSTAT, CT_KTIMERS, CT_TMIGR, CT_RCU_JIFFIES, CT_PLACEMENT, CT_MIGRATION_COST, CT_BASE_SLICE,
       CT_NEWIDLE_COST, CT_REFILL, CT_NR };

static const struct wl_param cyclictest_params[CT_NR] = {
	[CT_CPUS] = { "cpus", "threads, one per CPU", 1, 1, MACHINE_MAX_CPUS },
	[CT_PERIOD_US] = { "period-us", "timer interval of thread 0", 1000, 1, 10000000 },
	[CT_DISTANCE_US] = { "distance-us", "interval increment per thread", 0, 0, 1000000 },
	[CT_WORK_US] = { "work-us", "work per wakeup", 2, 0, 1000000 },
	[CT_JITTER] = JITTER_PARAM,
	[CT_HOUSEKEEPING] = HOUSEKEEPING_PARAMS(0, WL_WATCHDOG_DEFAULT_MS),
	[CT_PLACEMENT] = SCHED_PARAMS,
};

struct cyclictest {
	int64_t period_ns, distance_ns, work_ns;
	int cpus, jitter;
};

static int cyclictest_cpus(const int64_t *p)
{
	return (int)p[CT_CPUS];
}

static int64_t cyclictest_tasks(const int64_t *p)
{
	return p[CT_CPUS];
}

static int cyclictest_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct cyclictest *m = model;

	(void)err;
	m->period_ns = US(p[CT_PERIOD_US]);
	m->distance_ns = US(p[CT_DISTANCE_US]);
	m->work_ns = US(p[CT_WORK_US]);
	m->cpus = nr_cpus;
	m->jitter = (int)p[CT_JITTER];
	return 0;
}

/* Thread `cpu` sleeps until `expiry` (it is now t). */
static int ct_sleep(struct cyclictest *m, struct loop *L, int cpu, int64_t expiry, int64_t t,
		    struct sim_error *err)
{
	struct loop_item it = { .cpu = cpu, .cause = WAKE_TIMER, .hrtimer = true, .task = cpu,
				.tid = cpu + 1, .pinned = true, .stamp_ns = expiry };

	it.arrival_ns = sim_max64(expiry, t);
	it.work_ns = wl_vary(L, cpu, m->work_ns, m->jitter);
	return loop_send(L, &it, err);
}

static int cyclictest_start(void *model, struct loop *L, struct sim_error *err)
{
	struct cyclictest *m = model;
	int i;

	for (i = 0; i < m->cpus; i++)
		if (ct_sleep(m, L, i, m->period_ns + i * m->distance_ns, 0, err))
			return -1;
	return 0;
}

static int cyclictest_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
			   struct sim_error *err)
{
	struct cyclictest *m = model;

	if (loop_request_done(L, done->start_ns - done->stamp_ns, 0, err))
		return -1;
	return ct_sleep(m, L, done->cpu, done->stamp_ns + m->period_ns + done->cpu * m->distance_ns,
			t, err);
}

static const char *cyclictest_comm(void *model, int tid)
{
	(void)model;
	(void)tid;
	return "cyclictest";
}

static const struct loop_model_ops cyclictest_ops = {
	.start = cyclictest_start,
	.done = cyclictest_done,
	.task_comm = cyclictest_comm,
};

const struct workload wl_cyclictest = {
	.name = "cyclictest",
	.summary = "a periodic timer thread per CPU, measuring its wakeup latency",
	.imitates = "cyclictest (rt-tests) with one thread per CPU",
	.params = cyclictest_params,
	.nr_params = CT_NR,
	.throughput_unit = NULL,
	.reports_latency = true,
	.nr_cpus = cyclictest_cpus,
	.nr_tasks = cyclictest_tasks,
	.tasks_from = { "cpus" },
	.tasks_rule = "one per CPU",
	.model_size = sizeof(struct cyclictest),
	.init = cyclictest_init,
	.ops = &cyclictest_ops,
};

/*
 * ==== idle ====
 *
 * A system with nothing to do but housekeeping: on each CPU one stream of kernel timers
 * (vmstat updates, delayed work, daemons' timeouts), expiring period-us apart on average
 * (each gap drawn with the jitter, as deferrable and slack-rounded timers drift), starting
 * at a random phase per CPU, each bringing work-us of work. No interrupts, no IPIs: every
 * wakeup is a timer the governor sees coming, apart from the tick.
 * No requests, no throughput: what matters is the idle statistics and energy.
 */
enum { ID_CPUS, ID_PERIOD_US, ID_WORK_US, ID_JITTER, ID_NR };

static const struct wl_param idle_params[ID_NR] = {
	[ID_CPUS] = { "cpus", "CPUs", 4, 1, MACHINE_MAX_CPUS },
	[ID_PERIOD_US] = { "period-us", "mean gap between housekeeping timers", 100000, 1,
			   100000000 },
	[ID_WORK_US] = { "work-us", "work per timer", 20, 0, 1000000 },
	[ID_JITTER] = JITTER_PARAM,
};

struct idle {
	int64_t period_ns, work_ns;
	int cpus, jitter;
};

static int idle_cpus(const int64_t *p)
{
	return (int)p[ID_CPUS];
}

static int idle_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct idle *m = model;

	(void)err;
	m->period_ns = US(p[ID_PERIOD_US]);
	m->work_ns = US(p[ID_WORK_US]);
	m->cpus = nr_cpus;
	m->jitter = (int)p[ID_JITTER];
	return 0;
}

static int idle_timer(struct idle *m, struct loop *L, int cpu, int64_t expiry, int64_t t,
		      struct sim_error *err)
{
	struct loop_item it = { .cpu = cpu, .cause = WAKE_TIMER, .task = cpu, .stamp_ns = expiry };

	/* a timer-wheel timer: it fires on the jiffy grid, at the first edge at or after */
	it.arrival_ns = loop_jiffy_edge(L, sim_max64(expiry, t));
	it.work_ns = wl_vary(L, cpu, m->work_ns, m->jitter);
	return loop_send(L, &it, err);
}

static int idle_start(void *model, struct loop *L, struct sim_error *err)
{
	struct idle *m = model;
	int i;

	for (i = 0; i < m->cpus; i++)
		if (idle_timer(m, L, i, loop_uniform(L, i, 1, m->period_ns), 0, err))
			return -1;
	return 0;
}

static int idle_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
		     struct sim_error *err)
{
	struct idle *m = model;

	return idle_timer(m, L, done->cpu,
			  done->stamp_ns + wl_vary(L, done->cpu, m->period_ns, m->jitter), t, err);
}

static const struct loop_model_ops idle_ops = {
	.start = idle_start,
	.done = idle_done,
};

const struct workload wl_idle = {
	.name = "idle",
	.summary = "housekeeping timers only",
	.imitates = "an idle system (the baseline of every power measurement)",
	.params = idle_params,
	.nr_params = ID_NR,
	.throughput_unit = NULL,
	.nr_cpus = idle_cpus,
	.model_size = sizeof(struct idle),
	.init = idle_init,
	.ops = &idle_ops,
};

/*
 * ==== powernightmares ====
 *
 * The pattern of Ilsche et al., "Powernightmares" (Euro-Par 2017 workshops): on each CPU,
 * `shorts` short idle periods of short-us (below the target residency of C1E, 20 us on
 * every built-in machine), each ended by an IPI, then one long idle period of long-us
 * (far beyond the deepest target residency), also ended by an IPI, with no timer pending
 * in between; and again. A governor that trusts the short history picks a shallow state
 * for the long period, and if it also stopped the tick nothing corrects it. Each wakeup
 * brings work-us of work; the next gap starts when it is done. The CPUs run the pattern
 * independently, from their own streams.
 * No requests, no throughput.
 */
enum { PN_CPUS, PN_SHORTS, PN_SHORT_US, PN_LONG_US, PN_WORK_US, PN_JITTER, PN_HOUSEKEEPING,
       PN_HK_ALIGNED, PN_WATCHDOG, PN_VMSTAT, PN_KTIMERS, PN_TMIGR, PN_RCU_JIFFIES, PN_NR };

static const struct wl_param powernightmares_params[PN_NR] = {
	[PN_CPUS] = { "cpus", "CPUs running the pattern", 1, 1, MACHINE_MAX_CPUS },
	[PN_SHORTS] = { "shorts", "short idle periods before each long one", 20, 0, 1000000 },
	[PN_SHORT_US] = { "short-us", "length of a short idle period", 5, 1, 1000000 },
	[PN_LONG_US] = { "long-us", "length of the long idle period", 100000, 1, 100000000 },
	[PN_WORK_US] = { "work-us", "work per wakeup", 2, 0, 1000000 },
	[PN_JITTER] = JITTER_PARAM,
	[PN_HOUSEKEEPING] = HOUSEKEEPING_PARAMS(0, WL_WATCHDOG_DEFAULT_MS),
};

struct powernightmares {
	int64_t short_ns, long_ns, work_ns;
	int shorts, cpus, jitter;
};

static int powernightmares_cpus(const int64_t *p)
{
	return (int)p[PN_CPUS];
}

static int powernightmares_init(void *model, const int64_t *p, int nr_cpus,
				struct sim_error *err)
{
	struct powernightmares *m = model;

	(void)err;
	m->short_ns = US(p[PN_SHORT_US]);
	m->long_ns = US(p[PN_LONG_US]);
	m->work_ns = US(p[PN_WORK_US]);
	m->shorts = (int)p[PN_SHORTS];
	m->cpus = nr_cpus;
	m->jitter = (int)p[PN_JITTER];
	return 0;
}

/* Wakeup number `pos` of the cycle (0..shorts) on `cpu`, at `at`. */
static int pn_wake(struct powernightmares *m, struct loop *L, int cpu, int pos, int64_t at,
		   struct sim_error *err)
{
	struct loop_item it = { .cpu = cpu, .arrival_ns = at, .cause = WAKE_IPI, .kind = pos,
				.task = cpu };

	it.work_ns = wl_vary(L, cpu, m->work_ns, m->jitter);
	return loop_send(L, &it, err);
}

static int powernightmares_start(void *model, struct loop *L, struct sim_error *err)
{
	struct powernightmares *m = model;
	int i;

	for (i = 0; i < m->cpus; i++)
		if (pn_wake(m, L, i, 0, 0, err))
			return -1;
	return 0;
}

static int powernightmares_done(void *model, struct loop *L, const struct loop_item *done,
				int64_t t, struct sim_error *err)
{
	struct powernightmares *m = model;
	bool is_short = done->kind < m->shorts;
	int64_t gap = wl_vary(L, done->cpu, is_short ? m->short_ns : m->long_ns, m->jitter);

	return pn_wake(m, L, done->cpu, is_short ? done->kind + 1 : 0, t + gap, err);
}

static const struct loop_model_ops powernightmares_ops = {
	.start = powernightmares_start,
	.done = powernightmares_done,
};

const struct workload wl_powernightmares = {
	.name = "powernightmares",
	.summary = "many short idle periods, then a long one with no timer pending",
	.imitates = "the Powernightmares pattern (Ilsche et al., 2017)",
	.params = powernightmares_params,
	.nr_params = PN_NR,
	.throughput_unit = NULL,
	.nr_cpus = powernightmares_cpus,
	.model_size = sizeof(struct powernightmares),
	.init = powernightmares_init,
	.ops = &powernightmares_ops,
};
