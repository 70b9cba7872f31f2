/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * validate.h - would the simulator choose what the real kernel chose? `idlesim validate`
 * (docs/diff.md, "validate").
 *
 * A kernel trace holds the kernel's own choice at every idle entry (cpu_idle state=N) and,
 * when recorded with the timer events, what its governor saw: the pending timers, the tick
 * (tick_stop), the tick's expiries while idle, the residency that followed. validate feeds
 * one governor this recorded history: at every recorded entry it fills a device as the
 * kernel's would have been (the sleep length from the pending timers, the tick state, the
 * PM QoS limit of the request), asks select(), compares its choice with the kernel's, and
 * calls reflect() with the kernel's state and the recorded residency, as the kernel does.
 * So the governor's history is the kernel's, whatever it chose.
 *
 * What a trace cannot hold is reconstructed, and each disagreement says which: the sleep
 * length without timer events (none: KTIME_MAX, only the tick bounds it); the tick state
 * without tick_stop events (the governor's own last answer, by the engine's rule); whether a
 * task ran between two entries without sched_switch (assumed not); the PM QoS limit (the
 * request's, never in a trace).
 */
#ifndef IDLESIM_VALIDATE_H
#define IDLESIM_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/run/run.h"

#define VALIDATE_KEEP_DEFAULT 10

/* Inputs a trace lacked, for one entry (bits). */
#define VALIDATE_NO_TIMERS 1u	   /* no timer events: the sleep length is unknown */
#define VALIDATE_TICK_GUESSED 2u   /* no tick_stop events: the tick state is the model's */
#define VALIDATE_NO_SWITCHES 4u	   /* no sched_switch: "a task ran since" unknown */
#define VALIDATE_QOS_ASSUMED 8u	   /* always: the PM QoS limit is the request's */

struct validate_request {
	const char *trace;
	const char *name;	/* in messages and the report; NULL: trace */
	const char *machine;
	const char *governor;	/* registered (kgov_resolve() has loaded files) */
	struct run_request run; /* knobs: hz, latency_req_ns, disable/enable, sets, timeout */
	long keep;		/* disagreements kept, the first ones */
};

struct validate_disagreement {
	int cpu;
	int64_t time_ns;
	int kernel, ours;
	bool stop_tick, tick_stopped;
	int64_t sleep_length_ns; /* as the governor saw it; INT64_MAX: none */
	unsigned lacked;	 /* VALIDATE_* */
	struct cpuidle_explain ex;
};

struct validate_cpu {
	uint64_t entries, agree;
};

struct validate_result {
	char trace[512];
	char governor[64];
	struct machine mach;
	int hz;
	uint64_t entries, agree;
	uint64_t matrix[CPUIDLE_STATE_MAX][CPUIDLE_STATE_MAX]; /* [kernel][ours] */
	uint64_t lacked[4];	/* entries lacking each input (bit order of VALIDATE_*) */
	struct validate_cpu *cpus;
	int nr_cpus;
	struct validate_disagreement *dis;
	size_t nr_dis;
};

/* 0 with *out filled (free with validate_result_free), or -1 with err set. */
int validate_run(const struct validate_request *req, struct validate_result *out,
		 struct sim_error *err);
void validate_result_free(struct validate_result *r);
/* "sleep length (no timer events), tick state (no tick_stop events)", "" for none. */
void validate_lacked_text(char *buf, size_t n, unsigned lacked);

#endif
