/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim/cpuidle_abi.h - the data a governor and the engine share, and nothing else.
 *
 * One definition of struct cpuidle_state, cpuidle_driver, cpuidle_state_usage,
 * cpuidle_device and cpuidle_governor (the kernel's field names and types) for both kinds of
 * governor: idlesim's ports (governors/governor.h includes this file) and a kernel tree's own
 * governor file compiled against the compatibility headers next to this one
 * (linux/cpuidle.h includes it). A kernel file therefore works on the engine's own structures,
 * with no translation. The services (tick_nohz_get_sleep_length() and friends) are
 * implemented once here, on the device's engine-filled `env`, as cpuidle_env_*(); the two
 * front ends give them their own signatures (with a `dev` argument in governor.h, the
 * kernel's without it in linux/tick.h etc.).
 *
 * Also here: the interface of a governor module (struct idlesim_kmod), the shared object
 * idlesim builds from a kernel file (sim/run/kgov.c), and the engine's guarantee that module
 * relies on for per-CPU data: dev->governor_data of all CPUs of one simulation is one array,
 * CPU n at n * priv_size (sim/engine/engine.c allocates it so).
 */
#ifndef IDLESIM_CPUIDLE_ABI_H
#define IDLESIM_CPUIDLE_ABI_H

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

#ifndef BIT
#define BIT(n) (1UL << (n))
#endif


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
	/* <= v5.4 only (removed by v5.5): the driver's own disable of a state, for all CPUs.
	 * idlesim disables per device (states_usage[].disable), so this stays false. */
	bool disabled;
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
	/* Reference policies only (cpuidle_reference_energy_j() in governors/governor.h): the
	 * energy the engine's model charges an idle period of idle_ns in state idx on this
	 * CPU, its exit included (sim/machine/energy.h energy_period_j()); ctx is the engine's. */
	double (*period_energy_j)(const void *ctx, int idx, double idle_ns);
	const void *period_energy_ctx;
};

struct cpuidle_device {
	unsigned int cpu;
	int last_state_idx;
	u64 poll_limit_ns;
	s64 last_residency_ns;
	/* Older kernels (before last_residency_ns): the same in us, an int (at most INT_MAX).
	 * A module's entry points (kmod.c) derive it from last_residency_ns on every call. */
	int last_residency;
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
	 * depends on its choices); sim/sched/loop.c runs it on the timeline without exit latency.
	 */
	bool oracle;
	/*
	 * The energy reference only: it compares the model's energy of idle periods up to the
	 * longest break-even time of the machine, so the engine looks that far ahead
	 * (sim/engine/engine.c) and cpuidle_oracle_idle_ns() is exact up to it.
	 */
	bool energy_horizon;
	/*
	 * Registered by the kernel only in a KVM guest (haltpoll.c: kvm_para_available()): a run
	 * with no --governor lists it only when one of its machines is a guest, whose driver is
	 * "haltpoll" (sim/run/run.c). Named, it runs on any machine.
	 */
	bool kvm_guest_only;
	/*
	 * A governor built from a kernel file (sim/run/kgov.c): the path it was first loaded
	 * from, as given. The engine makes its calls isolated (sim/engine/govguard.h): a fault,
	 * a call that does not return in time or an index out of range ends the run with a
	 * message naming the file. NULL for the built-ins, whose calls stay direct.
	 */
	const char *file;

	int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int index);
};

/* ---- the services, on the engine-filled env (see the front ends for their contracts) ---- */

/*
 * tick_nohz_get_sleep_length() (v6.12). *delta_next is the time to the clock-event device's
 * next event: timer-wheel timers do not program it, so while the tick runs that is the
 * earlier of the next tick and the earliest hrtimer; once the tick is stopped, its timer is
 * programmed for the next wheel event, so it is the earliest timer of either kind. The
 * earliest hrtimer is known when it comes before every wheel timer (next_timer < next_wheel);
 * a later one cannot matter, as wheel timers fire on the jiffy grid, never before the next
 * tick. The return value is the time to the earliest timer (with a wheel timer at the next
 * tick, which keeps the tick, that is also *delta_next).
 */
static inline ktime_t cpuidle_env_sleep_length(const struct cpuidle_device *dev, ktime_t *delta_next)
{
	const struct cpuidle_env *e = &dev->env;
	s64 hrtimer = e->next_timer_ns < e->next_wheel_ns ? e->next_timer_ns : KTIME_MAX;
	s64 event = e->tick_stopped ? e->next_timer_ns
		  : e->next_tick_ns < hrtimer ? e->next_tick_ns : hrtimer;

	*delta_next = event == KTIME_MAX ? KTIME_MAX : event - e->now_ns;
	return e->next_timer_ns == KTIME_MAX ? KTIME_MAX : e->next_timer_ns - e->now_ns;
}

static inline bool cpuidle_env_got_tick(struct cpuidle_device *dev)
{
	bool got = dev->env.got_tick;

	dev->env.got_tick = false;
	return got;
}

/*
 * drivers/cpuidle/cpuidle.c, >= v5.11 ("Select polling interval based on a c-state with a
 * longer target residency"): the POLL time limit is the target residency of the first enabled
 * state >= 1 of at least CPUIDLE_POLL_MIN (10 us), capped at CPUIDLE_POLL_MAX (TICK_NSEC / 16),
 * TICK_NSEC / 16 without one; cached in dev->poll_limit_ns.
 */
static inline u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	const u64 poll_min = 10000, poll_max = (u64)dev->env.tick_nsec / 16;
	u64 limit_ns = poll_max;
	int i;

	if (dev->poll_limit_ns)
		return dev->poll_limit_ns;
	for (i = 1; i < drv->state_count; i++) {
		u64 state_limit;

		if (dev->states_usage[i].disable)
			continue;
		state_limit = (u64)drv->states[i].target_residency_ns;
		if (state_limit < poll_min)
			continue;
		limit_ns = state_limit < poll_max ? state_limit : poll_max;
		break;
	}
	dev->poll_limit_ns = limit_ns;
	return dev->poll_limit_ns;
}

/* ---- a governor module: the shared object built from a kernel file ---- */

#define IDLESIM_KMOD_ABI 1
#define IDLESIM_KMOD_ENTRY "idlesim_kmod_init"

/*
 * Filled by the module's idlesim_kmod_init() (governors/kcompat/kmod.c), after it ran the
 * file's initcalls. The entry points wrap the registered governor's: each makes `dev` the
 * thread's current device (what the kernel's argument-less services read) for the call.
 */
struct idlesim_kmod {
	unsigned int abi;		      /* IDLESIM_KMOD_ABI */
	const struct cpuidle_governor *gov;  /* what the file registered, NULL if nothing */
	unsigned int nr_registered;	      /* cpuidle_register_governor() calls that succeeded */
	int init_error;			      /* the first non-zero initcall return, or 0 */
	size_t percpu_size;		      /* per-CPU data of one CPU (DEFINE_PER_CPU total) */
	int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int index);
};

typedef int idlesim_kmod_init_fn(struct idlesim_kmod *out);

/*
 * The ports built into idlesim (governors/<file>.c) register through cpuidle_register_governor()
 * as a kernel file does; in them it is this function of governors/registry.c, which adds the
 * governor to the built-in table with its per-CPU data size as priv_size. 0, or -EINVAL.
 */
int idlesim_builtin_register(struct cpuidle_governor *gov, size_t percpu_size);

#endif
