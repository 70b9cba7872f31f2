/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * govguard.h - the calls into a governor built from a kernel file (sim/run/kgov.c), isolated
 * from the process that makes them.
 *
 * A governor file is the user's code, run inside idlesim: a NULL dereference, a division by
 * zero, a BUG() or an abort() in it would kill idlesim with no word of which file, and a
 * loop that never ends would hang it. The engine makes every call of such a governor
 * (gov->file set: enable(), select(), reflect()) through these functions, which return
 * normally whatever the governor does:
 *
 *   - a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT) during the call ends it:
 *     the process's handler (installed once, the first time a guard is created) jumps
 *     back out of the governor with siglongjmp() on an alternate signal stack, so a stack
 *     overflow in the governor is caught too, and the function returns the signal number;
 *   - a call that runs longer than the limit (wall time) is ended the same way: a watchdog
 *     thread per guard samples the guard's call counter and sends the simulation's thread
 *     GOVGUARD_SIGNAL; the function returns GOVGUARD_TIMEOUT.
 *
 * The governor's state after that is garbage: the engine ends the run with a message that
 * names the file (docs/kernel-governor-files.md). The built-in governors are never called
 * through here: their calls stay direct.
 *
 * The per-call cost: sigsetjmp() without the signal mask (no system call), a thread-local
 * pointer set and cleared, and a counter the watchdog reads; the clock is never read per
 * call (bench/bench_governor.c measures it).
 */
#ifndef IDLESIM_GOVGUARD_H
#define IDLESIM_GOVGUARD_H

#include <stdbool.h>
#include <stdint.h>

#include "governors/governor.h"
#include "sim/base/error.h"

/* The limit of one call when none is asked for: see docs/kernel-governor-files.md. */
#define GOVGUARD_TIMEOUT_DEFAULT_NS (5 * 1000000000LL)
/* The environment variable that sets the limit when the request does not. */
#define GOVGUARD_TIMEOUT_ENV "IDLESIM_GOVERNOR_TIMEOUT"

/* What ended a call that did not return: a signal number, or this for the limit. */
#define GOVGUARD_TIMEOUT (-1)

struct govguard;

/*
 * A guard for one simulation. timeout_ns > 0 is the limit of one call; 0 asks for the
 * default ($IDLESIM_GOVERNOR_TIMEOUT if set, else GOVGUARD_TIMEOUT_DEFAULT_NS); < 0 sets
 * none (no watchdog thread). NULL with err set (a bad $IDLESIM_GOVERNOR_TIMEOUT is an input
 * error).
 */
struct govguard *govguard_create(int64_t timeout_ns, struct sim_error *err);
void govguard_destroy(struct govguard *g);

/* The limit in force, in ns; 0 for none. */
int64_t govguard_timeout_ns(const struct govguard *g);

/*
 * Call the governor's function. 0 if it returned (its result in *ret), else what ended it:
 * a signal number or GOVGUARD_TIMEOUT. After a non-zero outcome nothing may be called again
 * through this guard's governor in this simulation.
 */
int govguard_enable(struct govguard *g, const struct cpuidle_governor *gov,
		    struct cpuidle_driver *drv, struct cpuidle_device *dev, int *ret);
int govguard_select(struct govguard *g, const struct cpuidle_governor *gov,
		    struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick,
		    int *ret);
int govguard_reflect(struct govguard *g, const struct cpuidle_governor *gov,
		     struct cpuidle_device *dev, int index);
/* A module's idlesim_kmod_init(), which runs the file's initcalls (sim/run/kgov.c). */
int govguard_initcalls(struct govguard *g, idlesim_kmod_init_fn *init, struct idlesim_kmod *km,
		       int *ret);
int govguard_disable(struct govguard *g, const struct cpuidle_governor *gov,
		     struct cpuidle_driver *drv, struct cpuidle_device *dev);

/* "SIGSEGV" for SIGSEGV, and so on for the signals caught; "signal N" otherwise. */
const char *govguard_signal_name(int sig, char *buf, size_t n);

/*
 * A limit in seconds as the user writes it (--governor-timeout, $IDLESIM_GOVERNOR_TIMEOUT):
 * a decimal number >= 0 and at most a day; 0 means no limit. Sets *timeout_ns to the
 * request's value (ns, or -1 for none). 0, or -1 if the text is not such a number.
 */
int govguard_parse_timeout(const char *text, int64_t *timeout_ns);

#endif
