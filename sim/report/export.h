/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export.h - a run's timeline (struct run_slice, kept with run_request.timeline) in the
 * formats of other tools:
 *
 *  - ftrace text: power:cpu_idle entries and exits, which `idlesim import` reads back to
 *    the run's usage, time, above and below per CPU and state (the exit is written at the
 *    wakeup plus the exit latency, where cpuidle_enter_state() returns, so exit - entry is
 *    the residency the kernel measures), with the wakeup's cause as the event the kernel
 *    would log after it (hrtimer_expire_entry, irq_handler_entry, ipi_entry); for a
 *    closed-loop run with tasks (run_result.segs), sched_switch lines in the kernel's
 *    format (prev_state S when the task blocked, R+ when preempted; swapper/N pid 0 for
 *    idle), after the idle exit and its cause, before the idle entry, as the kernel logs
 *    them; the importer then merges idle periods between which no task ran;
 *  - Chrome trace-event JSON (Perfetto UI, chrome://tracing): a process per run, a thread
 *    per CPU, a complete ("X") slice per idle entry and an instant ("i") per wakeup; for a
 *    closed-loop run, an "X" slice per task segment named comm-tid (args tid, comm), kernel
 *    work as "kernel work", pinned work as "work", on the CPU's thread.
 *
 * Both write times in exact decimals of the nanosecond values; both are pure functions of
 * the results.
 */
#ifndef IDLESIM_EXPORT_H
#define IDLESIM_EXPORT_H

#include <stdio.h>

#include "sim/base/error.h"
#include "sim/run/run.h"

/* One run as ftrace text; `command` goes into a comment of the header. 0, or -1 with err. */
int export_ftrace(FILE *f, const struct run_result *r, const char *command, struct sim_error *err);

/* Every run as trace-event JSON. 0, or -1 with err set. */
int export_perfetto(FILE *f, const struct run_results *res, const char *command,
		    struct sim_error *err);

#endif
