// SPDX-License-Identifier: GPL-2.0-only
/*
 * govguard.c - isolate the calls into a governor file (see govguard.h).
 *
 * Faults. One handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP and SIGABRT, installed
 * once per process (pthread_once) with SA_ONSTACK, the first time a guard is created, so
 * a process that runs only built-in governors never has it. It reads a thread-local, the
 * guard of the call the thread is in (set just before the governor is called, cleared
 * just after; NULL everywhere else): inside a call it records the signal and jumps back to
 * the guard's sigsetjmp(); outside one it passes the signal on to the handler it replaced
 * (AddressSanitizer's, in a sanitized build), or takes the default action, so a fault in
 * idlesim itself still dumps core as before. sigsetjmp(env, 0) saves no signal mask (a
 * system call per decision otherwise): the signal the handler ran for stays blocked after
 * the jump, so the error path unblocks the guard's signals itself.
 *
 * The alternate signal stack. A governor that recurses without end overflows its thread's
 * stack, and the kernel can only deliver that SIGSEGV on another stack. The first call of a
 * guard on a thread gives the thread one unless it has one of at least ALTSTACK_MIN bytes
 * (AddressSanitizer gives every thread its own); the memory is the thread's (freed by a
 * pthread key's destructor when the thread exits).
 *
 * The limit. A watchdog thread per guard (so per simulation: no shared state) wakes every
 * timeout/20 (10 to 250 ms) and reads the guard's call counter, odd while a call runs. The
 * same odd value seen for as long as the limit means one call has run that long: it sends
 * the simulation's thread GOVGUARD_SIGNAL, whose handler jumps out as for a fault if that
 * call is still the one running. The clock is read by the watchdog only, never per call.
 * Time counts only while the watchdog itself runs: a gap between two of its samples much
 * longer than its period (the process was stopped, by Ctrl-Z or a debugger) starts the
 * count again, so wall time spent stopped is not held against the governor.
 */
#define _XOPEN_SOURCE 700 /* sigaltstack(), SA_ONSTACK */

#include "sim/engine/govguard.h"
#include "sim/base/alloc.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_MS 1000000LL
#define ALTSTACK_MIN 16384
#define ALTSTACK_SIZE 65536

struct govguard {
	sigjmp_buf jb;
	volatile int outcome;	 /* what ended the call: a signal, or GOVGUARD_TIMEOUT */
	_Atomic uint64_t seq;	 /* calls begun and ended: odd while one runs (its thread writes) */
	_Atomic uint64_t kill_seq; /* the call the watchdog asked to end */
	int64_t timeout_ns;	 /* 0: none */
	/* The thread the calls run on: set by its first call (and by a call from another
	 * thread), under `lock`, which the watchdog holds while it reads them; `tag` is the
	 * address of that thread's thread_tag, which a call compares without a function call. */
	const void *tag;
	pthread_t thread;
	bool watching;
	pthread_t watchdog;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
};

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT };
#define NR_FAULT (sizeof(fault_signals) / sizeof(fault_signals[0]))

/*
 * Set once, by install() under pthread_once, before the first guard exists; then only read
 * (by the handler, which receives no context). The handlers replaced: fault_signals[i] at
 * i, the watchdog's signal at NR_FAULT.
 */
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_error;
static int guard_signal;
static struct sigaction previous[NR_FAULT + 1];
static pthread_key_t altstack_key;

/* The guard of the governor call this thread is in; NULL outside calls. */
static _Thread_local struct govguard *current;
/* The alternate signal stack a guard gave this thread, if any. */
static _Thread_local void *own_altstack;
/* Its address tells threads apart (cheaper than pthread_self() in every call). */
static _Thread_local char thread_tag;

static int slot_of(int sig)
{
	size_t i;

	for (i = 0; i < NR_FAULT; i++)
		if (fault_signals[i] == sig)
			return (int)i;
	return (int)NR_FAULT;
}

/* True for GOVGUARD_SIGNAL sent by one of this process's watchdogs (pthread_kill). */
static bool from_watchdog(int sig, const siginfo_t *si)
{
	return sig == guard_signal && si && si->si_code == SI_TKILL && si->si_pid == getpid();
}

/* A signal outside governor calls: what would have happened without the guard. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *old = &previous[slot_of(sig)];
	struct sigaction dfl;

	if (old->sa_flags & SA_SIGINFO) {
		if (old->sa_sigaction)
			old->sa_sigaction(sig, si, uc);
		return;
	}
	if (old->sa_handler == SIG_IGN)
		return;
	if (old->sa_handler != SIG_DFL) {
		old->sa_handler(sig);
		return;
	}
	if (sig == guard_signal)
		return; /* a stray one: its default action would end the process */
	/* The default action: a fault re-runs its instruction on return and takes it then; a
	 * signal that was sent (kill, raise, abort) or a trap is sent again. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	if (!si || si->si_code <= 0 || sig == SIGTRAP)
		raise(sig);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	struct govguard *g = current;
	int saved_errno = errno;

	if (g && (sig != guard_signal ||
		  (from_watchdog(sig, si) &&
		   atomic_load_explicit(&g->seq, memory_order_relaxed) ==
			   atomic_load_explicit(&g->kill_seq, memory_order_relaxed)))) {
		g->outcome = sig == guard_signal ? GOVGUARD_TIMEOUT : sig;
		siglongjmp(g->jb, 1);
	}
	if (!from_watchdog(sig, si)) /* else: for a call that has returned since */
		pass_on(sig, si, uc);
	errno = saved_errno;
}

/* The pthread key's destructor: the thread exits. */
static void free_altstack(void *p)
{
	stack_t ss, off;

	memset(&off, 0, sizeof(off));
	off.ss_flags = SS_DISABLE;
	if (!sigaltstack(NULL, &ss) && ss.ss_sp == p)
		sigaltstack(&off, NULL);
	own_altstack = NULL;
	sim_free(p);
}

static void install(void)
{
	struct sigaction sa;
	size_t i;
	int rc;

	guard_signal = SIGRTMAX - 1;
	rc = pthread_key_create(&altstack_key, free_altstack);
	if (rc) {
		install_error = rc;
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i <= NR_FAULT; i++)
		if (sigaction(i < NR_FAULT ? fault_signals[i] : guard_signal, &sa, &previous[i])) {
			install_error = errno;
			return;
		}
}

/* Give this thread an alternate signal stack unless it has one. Without one (no memory),
 * every fault but a stack overflow is still caught. */
static void ensure_altstack(void)
{
	stack_t ss;
	void *p;

	if (own_altstack || sigaltstack(NULL, &ss))
		return;
	if (!(ss.ss_flags & SS_DISABLE) && ss.ss_size >= ALTSTACK_MIN)
		return;
	p = sim_malloc(ALTSTACK_SIZE);
	if (!p)
		return;
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = p;
	ss.ss_size = ALTSTACK_SIZE;
	if (sigaltstack(&ss, NULL) || pthread_setspecific(altstack_key, p)) {
		memset(&ss, 0, sizeof(ss));
		ss.ss_flags = SS_DISABLE;
		sigaltstack(&ss, NULL);
		sim_free(p);
		return;
	}
	own_altstack = p;
}

/* The first call of the guard on this thread. */
static void bind_thread(struct govguard *g)
{
	ensure_altstack();
	pthread_mutex_lock(&g->lock);
	g->thread = pthread_self();
	g->tag = &thread_tag;
	pthread_mutex_unlock(&g->lock);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *watchdog_main(void *arg)
{
	struct govguard *g = arg;
	int64_t period = g->timeout_ns / 20, gap, last, since = 0, t;
	uint64_t seen = 0, s;

	period = period < 10 * NS_PER_MS ? 10 * NS_PER_MS : period > 250 * NS_PER_MS ? 250 * NS_PER_MS
										  : period;
	gap = period + (period > 200 * NS_PER_MS ? period : 200 * NS_PER_MS);
	pthread_mutex_lock(&g->lock);
	last = mono_ns();
	while (!g->stop) {
		int64_t until = last + period;
		struct timespec ts = { (time_t)(until / 1000000000LL), (long)(until % 1000000000LL) };

		pthread_cond_timedwait(&g->cond, &g->lock, &ts);
		if (g->stop)
			break;
		t = mono_ns();
		if (t - last < period)
			continue; /* woken early: sample at the period */
		s = atomic_load_explicit(&g->seq, memory_order_relaxed);
		if (!(s & 1) || s != seen || t - last > gap) {
			/* no call, a new one, or the watchdog did not run for a while: count anew */
			seen = s;
			since = t;
		} else if (t - since >= g->timeout_ns && g->tag) {
			atomic_store_explicit(&g->kill_seq, s, memory_order_relaxed);
			pthread_kill(g->thread, guard_signal);
		}
		last = t;
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

struct govguard *govguard_create(int64_t timeout_ns, struct sim_error *err)
{
	struct govguard *g;
	pthread_condattr_t ca;
	int rc;

	if (!timeout_ns) {
		const char *env = getenv(GOVGUARD_TIMEOUT_ENV);

		timeout_ns = GOVGUARD_TIMEOUT_DEFAULT_NS;
		if (env && *env && govguard_parse_timeout(env, &timeout_ns)) {
			sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				      GOVGUARD_TIMEOUT_ENV ": '%s' is not a number of seconds from "
				      "0.001 to 86400 (0: no limit)",
				      env);
			return NULL;
		}
	}
	pthread_once(&install_once, install);
	if (install_error) {
		sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
			      "cannot install the signal handlers of governor files: %s",
			      strerror(install_error));
		return NULL;
	}
	g = sim_calloc(1, sizeof(*g));
	if (!g) {
		sim_error_nomem(err, "");
		return NULL;
	}
	g->timeout_ns = timeout_ns > 0 ? timeout_ns : 0;
	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (g->timeout_ns) {
		rc = pthread_create(&g->watchdog, NULL, watchdog_main, g);
		if (rc) {
			govguard_destroy(g);
			sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				      "cannot start the watchdog of a governor file: %s", strerror(rc));
			return NULL;
		}
		g->watching = true;
	}
	return g;
}

void govguard_destroy(struct govguard *g)
{
	if (!g)
		return;
	if (g->watching) {
		pthread_mutex_lock(&g->lock);
		g->stop = true;
		pthread_cond_signal(&g->cond);
		pthread_mutex_unlock(&g->lock);
		pthread_join(g->watchdog, NULL);
	}
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
	sim_free(g);
}

int64_t govguard_timeout_ns(const struct govguard *g)
{
	return g->timeout_ns;
}

/*
 * Around each call: the thread check (an address compare), the counter made odd and the
 * thread-local set; after it, both undone. atomic_signal_fence() keeps the compiler
 * from moving them across the call as the handler, on this thread, sees them.
 */
static inline void call_begin(struct govguard *g)
{
	if (g->tag != &thread_tag)
		bind_thread(g);
	atomic_store_explicit(&g->seq, atomic_load_explicit(&g->seq, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	current = g;
	atomic_signal_fence(memory_order_seq_cst);
}

static inline void call_end(struct govguard *g)
{
	atomic_signal_fence(memory_order_seq_cst);
	current = NULL;
	atomic_store_explicit(&g->seq, atomic_load_explicit(&g->seq, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* After the jump out of the handler. */
static int call_failed(struct govguard *g)
{
	uint64_t s = atomic_load_explicit(&g->seq, memory_order_relaxed);
	sigset_t set;
	size_t i;

	current = NULL;
	if (s & 1)
		atomic_store_explicit(&g->seq, s + 1, memory_order_relaxed);
	sigemptyset(&set);
	for (i = 0; i < NR_FAULT; i++)
		sigaddset(&set, fault_signals[i]);
	sigaddset(&set, guard_signal);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return g->outcome;
}

/*
 * The body of every guarded call: sigsetjmp() must be in the frame that stays live during
 * the call, so each function has its own (a macro, not a helper function).
 */
#define GUARDED(g, call)                                                                           \
	do {                                                                                       \
		if (sigsetjmp((g)->jb, 0))                                                         \
			return call_failed(g);                                                     \
		call_begin(g);                                                                     \
		call;                                                                              \
		call_end(g);                                                                       \
		return 0;                                                                          \
	} while (0)

int govguard_enable(struct govguard *g, const struct cpuidle_governor *gov,
		    struct cpuidle_driver *drv, struct cpuidle_device *dev, int *ret)
{
	GUARDED(g, *ret = gov->enable(drv, dev));
}

int govguard_select(struct govguard *g, const struct cpuidle_governor *gov,
		    struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick, int *ret)
{
	GUARDED(g, *ret = gov->select(drv, dev, stop_tick));
}

int govguard_reflect(struct govguard *g, const struct cpuidle_governor *gov,
		     struct cpuidle_device *dev, int index)
{
	GUARDED(g, gov->reflect(dev, index));
}

int govguard_initcalls(struct govguard *g, idlesim_kmod_init_fn *init, struct idlesim_kmod *km,
		       int *ret)
{
	GUARDED(g, *ret = init(km));
}

int govguard_disable(struct govguard *g, const struct cpuidle_governor *gov,
		     struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	GUARDED(g, gov->disable(drv, dev));
}

const char *govguard_signal_name(int sig, char *buf, size_t n)
{
	switch (sig) {
	case SIGSEGV:
		return "SIGSEGV";
	case SIGBUS:
		return "SIGBUS";
	case SIGFPE:
		return "SIGFPE";
	case SIGILL:
		return "SIGILL";
	case SIGTRAP:
		return "SIGTRAP";
	case SIGABRT:
		return "SIGABRT";
	default:
		snprintf(buf, n, "signal %d", sig);
		return buf;
	}
}

int govguard_parse_timeout(const char *text, int64_t *timeout_ns)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(text, &end);
	if (end == text || *end || errno || !(s >= 0) || s > 86400 || (s > 0 && s < 0.001))
		return -1;
	*timeout_ns = s == 0 ? -1 : (int64_t)(s * 1e9 + 0.5);
	return 0;
}
