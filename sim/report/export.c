// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - timelines as ftrace text and as Chrome trace-event JSON (see export.h).
 */
#include "sim/report/export.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <jansson.h>
#include <string.h>

/* "S.NNNNNNNNN" (ftrace) or "U.NNN" (trace events, microseconds): exact, no rounding. */
static void fmt_sec(char *buf, size_t n, int64_t ns)
{
	snprintf(buf, n, "%lld.%09lld", (long long)(ns / SIM_NS_PER_S), (long long)(ns % SIM_NS_PER_S));
}

static void fmt_us(char *buf, size_t n, int64_t ns)
{
	snprintf(buf, n, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

/* ---- ftrace ---- */

enum fev_kind { FEV_ENTRY, FEV_EXIT, FEV_CAUSE };

struct fev {
	int64_t t_ns;
	size_t seq;   /* generation order: per CPU, the order of the CPU's events */
	size_t slice;
	enum fev_kind kind;
};

static void fev_push(struct fev *ev, size_t *n, int64_t t_ns, size_t slice, enum fev_kind kind)
{
	ev[*n] = (struct fev){ t_ns, *n, slice, kind };
	(*n)++;
}

static int fev_cmp(const void *a, const void *b)
{
	const struct fev *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void ftrace_line(FILE *f, int cpu, int64_t t_ns, const char *event)
{
	char ts[32];

	fmt_sec(ts, sizeof(ts), t_ns);
	fprintf(f, "          <idle>-0       [%03d] d..1. %14s: %s\n", cpu, ts, event);
}

/* The event the kernel logs for what ended an entry, right after the exit. */
static void ftrace_cause(FILE *f, const struct run_slice *s, int64_t t_ns)
{
	char buf[160];

	switch ((enum wake_cause)s->cause) {
	case WAKE_TIMER:
	case WAKE_TICK:
		snprintf(buf, sizeof(buf),
			 "hrtimer_expire_entry: hrtimer=%016llx now=%lld function=%s",
			 0xffff888100000000ull + (unsigned long long)s->cpu * 0x100 +
				 (s->cause == WAKE_TICK),
			 (long long)t_ns, s->cause == WAKE_TICK ? "tick_sched_timer" : "hrtimer_wakeup");
		break;
	case WAKE_IRQ:
		snprintf(buf, sizeof(buf), "irq_handler_entry: irq=16 name=idlesim");
		break;
	case WAKE_IPI:
		snprintf(buf, sizeof(buf), "ipi_entry: (Rescheduling interrupts)");
		break;
	default:
		return; /* the POLL time limit: no event */
	}
	ftrace_line(f, s->cpu, t_ns, buf);
}

int export_ftrace(FILE *f, const struct run_result *r, const char *command, struct sim_error *err)
{
	struct fev *ev;
	size_t n = 0, i, lines = 0;

	ev = sim_calloc(r->nr_slices * 3 + 1, sizeof(*ev));
	if (!ev)
		return sim_error_nomem(err, "");
	for (i = 0; i < r->nr_slices; i++) {
		const struct run_slice *s = &r->slices[i];

		fev_push(ev, &n, s->entry_ns, i, FEV_ENTRY);
		if (s->flags & RUN_SLICE_TRUNCATED)
			continue; /* still idle at the end: no exit, as in a real trace */
		fev_push(ev, &n, s->reflect_ns, i, FEV_EXIT);
		if (s->cause < WAKE_POLL)
			fev_push(ev, &n, s->reflect_ns, i, FEV_CAUSE);
	}
	qsort(ev, n, sizeof(*ev), fev_cmp);
	for (i = 0; i < n; i++)
		lines += ev[i].kind != FEV_CAUSE || r->slices[ev[i].slice].cause < WAKE_POLL;
	fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %zu/%zu   #P:%d\n", lines,
		lines, r->stats.nr_cpus);
	fprintf(f, "#\n# idlesim: simulated run of %s on %s through %s (HZ %d)\n# %s\n#\n",
		r->trace, r->machine, r->governor, r->hz, command ? command : "");
	fputs("#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct run_slice *s = &r->slices[ev[i].slice];
		char buf[96];

		if (ev[i].kind == FEV_CAUSE) {
			ftrace_cause(f, s, ev[i].t_ns);
			continue;
		}
		snprintf(buf, sizeof(buf), "cpu_idle: state=%u cpu_id=%d",
			 ev[i].kind == FEV_ENTRY ? (unsigned int)s->state : 4294967295u, s->cpu);
		ftrace_line(f, s->cpu, ev[i].t_ns, buf);
	}
	sim_free(ev);
	return 0;
}

/* ---- trace-event JSON ---- */

/* A JSON string literal, escaped by jansson; -1 if memory ran out. */
static int json_str(FILE *f, const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *out = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	json_decref(j);
	if (!out)
		return -1;
	fputs(out, f);
	sim_free(out);
	return 0;
}

static int perfetto_meta(FILE *f, const char *what, int pid, int tid, const char *name, bool *first)
{
	fprintf(f, "%s{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		*first ? "" : ",\n", what, pid, tid);
	*first = false;
	if (json_str(f, name))
		return -1;
	fputs("}}", f);
	return 0;
}

static const char *const verdicts[] = { "hit", "above", "below" };

static int perfetto_run(FILE *f, const struct run_result *r, int pid, bool *first)
{
	char name[1024], ts[32], dur[32];
	size_t i;
	int c;

	snprintf(name, sizeof(name), "%s on %s: %s", r->governor, r->machine, r->trace);
	if (perfetto_meta(f, "process_name", pid, 0, name, first))
		return -1;
	for (c = 0; c < r->stats.nr_cpus; c++) {
		snprintf(name, sizeof(name), "CPU %d", c);
		if (perfetto_meta(f, "thread_name", pid, c + 1, name, first))
			return -1;
	}
	for (i = 0; i < r->nr_slices; i++) {
		const struct run_slice *s = &r->slices[i];
		bool trunc = s->flags & RUN_SLICE_TRUNCATED;

		fmt_us(ts, sizeof(ts), s->entry_ns);
		fmt_us(dur, sizeof(dur), s->reflect_ns - s->entry_ns);
		fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"cstate\",\"name\":");
		if (json_str(f, r->stats.state_names[s->state]))
			return -1;
		fprintf(f, ",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s,\"args\":{\"state\":%d,"
			   "\"verdict\":\"%s\",\"truncated\":%s,\"stop_tick\":%s,\"tick_stopped\":%s",
			pid, s->cpu + 1, ts, dur, s->state, trunc ? "none" : verdicts[s->verdict % 3],
			trunc ? "true" : "false", s->flags & RUN_SLICE_STOP_TICK ? "true" : "false",
			s->flags & RUN_SLICE_TICK_STOPPED ? "true" : "false");
		if (s->idle_ns >= 0)
			fprintf(f, ",\"idle_ns\":%lld", (long long)s->idle_ns);
		fputs("}}", f);
		if (trunc)
			continue;
		fmt_us(ts, sizeof(ts), s->wake_ns);
		fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"wakeup\",\"name\":\"%s\",\"pid\":%d,"
			   "\"tid\":%d,\"ts\":%s,\"args\":{\"cause\":\"%s\"}}",
			wake_cause_name((enum wake_cause)s->cause), pid, s->cpu + 1, ts,
			wake_cause_name((enum wake_cause)s->cause));
	}
	return 0;
}

int export_perfetto(FILE *f, const struct run_results *res, const char *command,
		    struct sim_error *err)
{
	bool first = true;
	int i;

	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"idlesim\",\"command\":", f);
	if (json_str(f, command))
		return sim_error_nomem(err, "");
	fputs("},\n\"traceEvents\":[\n", f);
	for (i = 0; i < res->n; i++)
		if (perfetto_run(f, &res->r[i], i + 1, &first))
			return sim_error_nomem(err, "");
	fputs("\n]}\n", f);
	return 0;
}
