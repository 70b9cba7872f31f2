/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gen.h - synthetic workloads, deterministic for a seed.
 *
 * Every CPU gets the same kind of wakeup sources, with its own random phases:
 *   periodic     a timer every period (--period-us, default 1000)
 *   irq-fixed    a device interrupt every interval (--interval-us, default 300)
 *   irq-poisson  device interrupts with exponential gaps (--mean-us, default 500)
 *   mixed        a timer every --period-us (default 10000), interrupts with exponential
 *                gaps of mean --mean-us (default 2000) and IPIs with gaps of mean
 *                3 x --mean-us
 * and for all: --timer-period-us adds a background periodic timer on every CPU,
 * --timer-kind says which kind the timers are (mix, the default: the workload's own timer an
 * hrtimer, as a program's periodic sleep is, and the background timer a timer-wheel timer,
 * as the kernel's periodic work is; or wheel, or hrtimer), --timer-slack-us the slack of the
 * workload's own hrtimer (50: a task's default timer slack),
 * --busy-us is the work each wakeup brings (work queues up when wakeups arrive while the
 * CPU is busy), --iowait marks every idle period with that many iowait tasks.
 *
 * The output is idle-interval records (traces/FORMAT.md), merged across CPUs in time
 * order, with next_timer set from the timers, streamed with memory independent of the
 * duration. Each CPU's last idle period that starts before the end is written whole; the
 * header's `end` cuts it.
 */
#ifndef IDLESIM_GEN_H
#define IDLESIM_GEN_H

#include <stdint.h>
#include <stdio.h>

#include "sim/base/error.h"
#include "sim/engine/replay.h"
#include "sim/trace/trace.h"

enum gen_workload {
	GEN_PERIODIC,
	GEN_IRQ_FIXED,
	GEN_IRQ_POISSON,
	GEN_MIXED,
	GEN_NR_WORKLOADS
};

/* The kind of the generated timers (--timer-kind). */
enum gen_timer_kind {
	GEN_TIMER_WHEEL,   /* every timer a timer-wheel timer */
	GEN_TIMER_HRTIMER, /* every timer an hrtimer */
	GEN_TIMER_MIX,	   /* the workload's timer an hrtimer, the background timer wheel
			    * (the default) */
	GEN_NR_TIMER_KINDS
};

struct gen_config {
	enum gen_workload workload;
	int cpus;
	int64_t duration_ns;
	uint64_t seed;
	int64_t period_ns;	 /* periodic, mixed */
	int64_t interval_ns;	 /* irq-fixed */
	int64_t mean_ns;	 /* irq-poisson, mixed */
	int64_t timer_period_ns; /* background timer; 0 = none */
	enum gen_timer_kind timer_kind;
	/* The slack of the workload's own timer when it is an hrtimer (a task's timer slack,
	 * current->timer_slack_ns: 50 us by default, 0 for an RT task); kernel timers have none. */
	int64_t timer_slack_ns;
	int64_t busy_ns;
	unsigned int iowait;
	/* Percentage (0..100) of irq/ipi wakeups whose handler wakes no task (resched=0): the
	 * CPU stays in the idle loop, with the tick as it was, and no work comes. */
	unsigned int no_wake_pct;
	int hz;		  /* written to the header when > 0 */
	char source[512]; /* written to the header's source line */
	FILE *progress;	  /* gen_write(): a progress bar here after 2 s (sim/base/progress.h) */
};

const char *gen_workload_name(enum gen_workload w);
/* Returns 0, or -1 if the name is unknown. */
int gen_workload_parse(const char *name, enum gen_workload *w);
/* --timer-kind's names: wheel, hrtimer, mix. Returns 0, or -1 if the name is unknown. */
int gen_timer_kind_parse(const char *name, enum gen_timer_kind *k);
/* Defaults for a workload: 1 CPU, 1 s, seed 1, and the periods above. */
void gen_config_defaults(struct gen_config *c, enum gen_workload w);
/* Range checks with messages naming the option. */
int gen_validate(const struct gen_config *c, struct sim_error *err);

struct gen_stream;

struct gen_stream *gen_open(const struct gen_config *c, struct sim_error *err);
void gen_close(struct gen_stream *g);
const struct trace_header *gen_header(const struct gen_stream *g);
/* 1 with *rec filled, 0 at the end. */
int gen_next(struct gen_stream *g, struct trace_record *rec);

void record_source_from_gen(struct record_source *src, struct gen_stream *g);

/* Write the whole workload as a text trace to f. */
int gen_write(const struct gen_config *c, FILE *f, struct sim_error *err);

#endif
