/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * governor.h - the kernel's view of cpuidle, as a governor sees it.
 *
 * This is the only header a file in governors/ includes (besides libc). It mirrors
 * include/linux/cpuidle.h and the few kernel services a governor calls, so that a governor
 * here can be read side by side with drivers/cpuidle/governors/<name>.c:
 *
 *   - struct cpuidle_state, cpuidle_driver, cpuidle_state_usage and cpuidle_device keep the
 *     kernel's field names and types (ns fields, as in >= v5.5; the us fields of older
 *     kernels are filled too, for governors that model those releases);
 *   - struct cpuidle_governor is the kernel's ops table (name, rating, enable, disable,
 *     select, reflect), plus what a simulator needs: the size of the per-CPU private data
 *     (allocated and zeroed by the engine before enable(), reachable as dev->governor_data,
 *     so there are no per-CPU globals) and the list of tunables;
 *   - the kernel services are functions taking the device, because there is no "this CPU":
 *     tick_nohz_get_sleep_length(dev, &delta_next) is the kernel's
 *     tick_nohz_get_sleep_length(&delta_next), and so on. TICK_NSEC and TICK_USEC expand to
 *     the run's tick length and need a `dev` in scope, as every governor entry point has.
 *
 * What the engine guarantees (the kernel's contract, drivers/cpuidle/cpuidle.c and
 * kernel/sched/idle.c): select() is called with *stop_tick preset to true; the returned index
 * must be in [0, state_count) (it may name a disabled state, as menu does when all are
 * disabled); reflect() is called after every completed entry with the entered index; the
 * statistics (usage, time_ns, above, below) are updated before reflect(); last_residency_ns
 * and last_state_idx describe the entry just completed.
 */
#ifndef IDLESIM_GOVERNOR_H
#define IDLESIM_GOVERNOR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- kernel types and constants ---- */

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;

#define KTIME_MAX INT64_MAX
#define S64_MAX INT64_MAX
#define U64_MAX UINT64_MAX
#define S32_MAX INT32_MAX

#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_SEC 1000000000L
#define USEC_PER_SEC 1000000L

#define BIT(n) (1UL << (n))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The kernel's min()/max() are type-checked; these evaluate their arguments twice. */
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))

/* Unsigned form of the kernel macro (every governor use of it is on unsigned values). */
#define DIV_ROUND_CLOSEST(x, divisor) (((x) + ((divisor) / 2)) / (divisor))

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

/* ktime_t is s64 nanoseconds; ktime_to_us() truncates toward zero like ktime_divns(). */
typedef s64 ktime_t;
static inline s64 ktime_to_us(ktime_t kt)
{
	return kt / NSEC_PER_USEC;
}
static inline s64 ktime_to_ns(ktime_t kt)
{
	return kt;
}
static inline ktime_t ktime_sub(ktime_t a, ktime_t b)
{
	return a - b;
}

/* Load average fixed point (include/linux/sched/loadavg.h). */
#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)
#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

/* PM QoS defaults (include/linux/pm_qos.h), in us. */
#define PM_QOS_RESUME_LATENCY_NO_CONSTRAINT S32_MAX
#define PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 * USEC_PER_SEC)

/* ---- include/linux/cpuidle.h ---- */

#define CPUIDLE_STATE_MAX 10
#define CPUIDLE_NAME_LEN 16
#define CPUIDLE_DESC_LEN 32

#define CPUIDLE_FLAG_NONE (0x00)
#define CPUIDLE_FLAG_POLLING BIT(0)	  /* polling state */
#define CPUIDLE_FLAG_COUPLED BIT(1)	  /* state applies to multiple cpus */
#define CPUIDLE_FLAG_TIMER_STOP BIT(2)	  /* timer is stopped on this state */
#define CPUIDLE_FLAG_UNUSABLE BIT(3)	  /* avoid using this state */
#define CPUIDLE_FLAG_OFF BIT(4)		  /* disable this state by default */
#define CPUIDLE_FLAG_TLB_FLUSHED BIT(5)	  /* idle-state flushes TLBs */
#define CPUIDLE_FLAG_RCU_IDLE BIT(6)	  /* idle-state takes care of RCU */
/* intel_idle private flags (drivers/idle/intel_idle.c) */
#define CPUIDLE_FLAG_IRQ_ENABLE BIT(14)
#define CPUIDLE_FLAG_ALWAYS_ENABLE BIT(15)
#define CPUIDLE_FLAG_IBRS BIT(16)
#define CPUIDLE_FLAG_INIT_XSTATE BIT(17)
#define CPUIDLE_FLAG_PARTIAL_HINT_MATCH BIT(18)

#define CPUIDLE_STATE_DISABLED_BY_USER BIT(0)
#define CPUIDLE_STATE_DISABLED_BY_DRIVER BIT(1)

struct cpuidle_state {
	char name[CPUIDLE_NAME_LEN];
	char desc[CPUIDLE_DESC_LEN];

	s64 exit_latency_ns;
	s64 target_residency_ns;
	unsigned int flags;
	unsigned int exit_latency;     /* in US */
	int power_usage;	       /* in mW */
	unsigned int target_residency; /* in US */
};

struct cpuidle_driver {
	const char *name;
	struct cpuidle_state states[CPUIDLE_STATE_MAX];
	int state_count;
};

struct cpuidle_state_usage {
	unsigned long long disable; /* CPUIDLE_STATE_DISABLED_BY_* bits; non-zero = skip */
	unsigned long long usage;
	u64 time_ns;
	unsigned long long above; /* Number of times it's been too deep */
	unsigned long long below; /* Number of times it's been too shallow */
	unsigned long long rejected;
};

struct cpuidle_governor;
struct cpuidle_explain;

/*
 * What the engine knows about the current idle period and offers through the service
 * functions below. Filled by the engine before each select() and reflect(); a governor reads
 * it only through those functions, as the kernel's governors call into the tick and
 * scheduler code.
 */
struct cpuidle_env {
	s64 now_ns;	       /* local_clock() */
	s64 next_timer_ns;     /* absolute expiry of the earliest non-tick timer, KTIME_MAX if none */
	s64 next_wheel_ns;     /* the same, timer-wheel timers only (>= next_timer_ns) */
	s64 next_tick_ns;      /* absolute time of the next tick while the tick runs */
	s64 oracle_wake_ns;    /* absolute time of the real wakeup, KTIME_MAX if beyond lookahead */
	s64 tick_nsec;	       /* TICK_NSEC of this run: (NSEC_PER_SEC + HZ/2) / HZ */
	s64 latency_req_ns;    /* cpuidle_governor_latency_req() */
	unsigned long nr_iowait;
	unsigned long load;    /* FIXED_1 fixed point */
	bool tick_stopped;
	bool got_tick;
	bool load_read;	       /* the governor read `load` in this select() */
};

struct cpuidle_device {
	unsigned int cpu;
	int last_state_idx;
	u64 poll_limit_ns;
	s64 last_residency_ns;
	bool poll_time_limit; /* set by POLL when its time limit ended the entry */

	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];

	void *governor_data;	    /* per-CPU private data: priv_size bytes, zeroed before enable */
	const long long *gov_params; /* tunable values, indexed like governor->params */

	struct cpuidle_env env;		  /* engine-owned: use the service functions */
	struct cpuidle_explain *explain; /* decision log, NULL when off */
};

/* A tunable: the kernel constant it replaces, with the kernel's default. */
struct gov_param {
	const char *name; /* as given to --set FAMILY.NAME=VALUE, e.g. "decay" */
	long long def;
	long long min, max;
	const char *help;
};

struct cpuidle_governor {
	const char *name; /* "family@version", e.g. "menu@6.19"; a bare family means its newest */
	unsigned int rating;
	const char *summary; /* one line for `idlesim governors` */
	size_t priv_size;
	const struct gov_param *params;
	unsigned int nr_params;
	/*
	 * The oracle only: it knows the future, which a closed loop does not grant (its future
	 * depends on its choices); sim/loop.c runs it on the timeline without exit latency.
	 */
	bool oracle;

	int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int index);
};

/* ---- kernel services ---- */

#define TICK_NSEC ((long)dev->env.tick_nsec)
#define TICK_USEC ((long)(dev->env.tick_nsec / NSEC_PER_USEC))

/*
 * kernel/time/tick-sched.c: the time until the earliest non-tick timer if the tick were
 * stopped (KTIME_MAX when there is none); *delta_next is the time until the next event
 * programmed in the clock-event device: min(next tick, next timer) while the tick runs, the
 * next timer when it is already stopped.
 */
static inline ktime_t tick_nohz_get_sleep_length(struct cpuidle_device *dev, ktime_t *delta_next)
{
	const struct cpuidle_env *e = &dev->env;
	s64 next = e->next_timer_ns;

	if (!e->tick_stopped && e->next_tick_ns < next)
		next = e->next_tick_ns;
	*delta_next = next == KTIME_MAX ? KTIME_MAX : next - e->now_ns;
	return e->next_timer_ns == KTIME_MAX ? KTIME_MAX : e->next_timer_ns - e->now_ns;
}

static inline bool tick_nohz_tick_stopped(const struct cpuidle_device *dev)
{
	return dev->env.tick_stopped;
}

/* True, once, if the tick handler ran while this CPU was idle since the last call. */
static inline bool tick_nohz_idle_got_tick(struct cpuidle_device *dev)
{
	bool got = dev->env.got_tick;

	dev->env.got_tick = false;
	return got;
}

/* drivers/cpuidle/governor.c (>= v5.7): the PM QoS limit in ns. */
static inline s64 cpuidle_governor_latency_req(const struct cpuidle_device *dev)
{
	return dev->env.latency_req_ns;
}

/* kernel/sched/core.c: tasks in iowait on this CPU's runqueue (from the trace). */
static inline unsigned long nr_iowait_cpu(const struct cpuidle_device *dev)
{
	return dev->env.nr_iowait;
}

/* The v4.x get_iowait_load(): iowaiters and the runqueue load (FIXED_1 fixed point). */
static inline void get_iowait_load(struct cpuidle_device *dev, unsigned long *nr_waiters,
				   unsigned long *load)
{
	*nr_waiters = dev->env.nr_iowait;
	*load = dev->env.load;
	dev->env.load_read = true; /* for the decision log */
}

static inline u64 local_clock(const struct cpuidle_device *dev)
{
	return (u64)dev->env.now_ns;
}

/* drivers/cpuidle/cpuidle.c: the POLL time limit (the >= v5.11 rule), cached in poll_limit_ns. */
u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev);

/*
 * Not a kernel service: the true time until this CPU's next real wakeup (timer or not),
 * for reference policies such as the oracle. KTIME_MAX means "beyond the engine's lookahead
 * window", which is longer than every target residency and than one tick.
 */
static inline s64 cpuidle_oracle_idle_ns(const struct cpuidle_device *dev)
{
	return dev->env.oracle_wake_ns == KTIME_MAX ? KTIME_MAX
						    : dev->env.oracle_wake_ns - dev->env.now_ns;
}

/* ---- decision log (idlesim run --explain) ---- */

#define CPUIDLE_EXPLAIN_MAX 40

struct cpuidle_explain_item {
	const char *key; /* a string literal */
	const char *str; /* NULL for a number */
	long long val;
};

struct cpuidle_explain {
	int nr;
	struct cpuidle_explain_item items[CPUIDLE_EXPLAIN_MAX];
};

void cpuidle_explain_add(struct cpuidle_explain *ex, const char *key, const char *str, long long val);

/*
 * Report a variable behind the current decision. Costs one predictable branch when the
 * log is off. Keys are string literals; "rule" names the rule that decided.
 */
#define gov_explain(dev, key, val)                                                                 \
	do {                                                                                       \
		if ((dev)->explain)                                                                \
			cpuidle_explain_add((dev)->explain, (key), NULL, (long long)(val));         \
	} while (0)
#define gov_explain_str(dev, key, s)                                                               \
	do {                                                                                       \
		if ((dev)->explain)                                                                \
			cpuidle_explain_add((dev)->explain, (key), (s), 0);                        \
	} while (0)

/* ---- the registry (governors/registry.c) ---- */

const struct cpuidle_governor *gov_find(const char *name);
unsigned int gov_count(void);
const struct cpuidle_governor *gov_get(unsigned int i);
/* Index of tunable `name` in g->params, or -1. */
int gov_param_index(const struct cpuidle_governor *g, const char *name);
/* Length of the family part of a governor name ("menu" in "menu@6.19"). */
size_t gov_family_len(const char *name);

#endif
