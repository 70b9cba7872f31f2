// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - timelines as ftrace text and as Chrome trace-event JSON (see export.h).
 */
#include "sim/report/export.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
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

/* FEV_PRE: what the kernel logs before an entry (the timers armed, the tick's arming and its
 * stop); FEV_POST: after an exit and its cause (a tick seen during the exit, the task the
 * wakeup brought). */
enum fev_kind { FEV_PRE, FEV_ENTRY, FEV_EXIT, FEV_CAUSE, FEV_POST, FEV_SWITCH };

struct fev {
	int64_t t_ns;
	size_t seq;   /* order at equal times: per CPU, the order of the CPU's events */
	size_t slice; /* FEV_SWITCH: the segment switched to (or from, with `out`) */
	enum fev_kind kind;
	bool out;     /* FEV_SWITCH: to the idle task */
};

/* Slice events go 4 apart, so that a switch can sit right before or after one. */
#define FEV_STEP 4

static void fev_push(struct fev *ev, size_t *n, int64_t t_ns, size_t slice, enum fev_kind kind)
{
	ev[*n] = (struct fev){ t_ns, FEV_STEP * *n + 2, slice, kind, false };
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

/* The hrtimers of a CPU as the export names them: its next timer's (0) and its tick's (1). */
static unsigned long long hrtimer_id(int cpu, int tick)
{
	return 0xffff888100000000ull + (unsigned long long)cpu * 0x100 + (unsigned long long)tick;
}

/*
 * Before an entry, what a recording holds of what the governor saw (idlesim validate reads
 * it back): the CPU's next timer armed at its expiry (an hrtimer: its kind does not change
 * what select() sees, the tick-stop rule's outcome is the tick_stop event), or cancelled when
 * it has none; the tick's hrtimer armed at the next jiffy edge while the tick runs; and a
 * tick_stop when this decision stopped it. Returns the lines written.
 */
static int ftrace_pre(FILE *f, const struct run_slice *s)
{
	char buf[192];
	int n = 0;

	if (s->sleep_ns != KTIME_MAX) {
		long long exp = (long long)(s->entry_ns + s->sleep_ns);

		snprintf(buf, sizeof(buf),
			 "hrtimer_start: hrtimer=%016llx function=hrtimer_wakeup expires=%lld "
			 "softexpires=%lld mode=ABS", hrtimer_id(s->cpu, 0), exp, exp);
	} else {
		snprintf(buf, sizeof(buf), "hrtimer_cancel: hrtimer=%016llx", hrtimer_id(s->cpu, 0));
	}
	ftrace_line(f, s->cpu, s->entry_ns, buf);
	n++;
	if (s->flags & RUN_SLICE_TICK_WAS_STOPPED)
		return n;
	snprintf(buf, sizeof(buf),
		 "hrtimer_start: hrtimer=%016llx function=tick_sched_timer expires=%lld "
		 "softexpires=%lld mode=ABS|PINNED|HARD", hrtimer_id(s->cpu, 1),
		 (long long)s->next_tick_ns, (long long)s->next_tick_ns);
	ftrace_line(f, s->cpu, s->entry_ns, buf);
	n++;
	if (s->flags & RUN_SLICE_TICK_STOPPED) {
		ftrace_line(f, s->cpu, s->entry_ns, "tick_stop: success=1 dependency=NONE");
		n++;
	}
	return n;
}

/*
 * After an exit and its cause: the tick's expiry when reflect() saw one that did not end
 * the entry (it fired during the exit), and, when the wakeup brought work (the CPU's next
 * entry starts a new idle period), the switch to a task. Returns the lines written.
 */
static int ftrace_post(FILE *f, const struct run_slice *s, bool task_next)
{
	char buf[192], ts[32];
	int n = 0;

	if ((s->flags & RUN_SLICE_GOT_TICK) && s->cause != WAKE_TICK) {
		snprintf(buf, sizeof(buf), "hrtimer_expire_entry: hrtimer=%016llx now=%lld "
					   "function=tick_sched_timer",
			 hrtimer_id(s->cpu, 1), (long long)s->reflect_ns);
		ftrace_line(f, s->cpu, s->reflect_ns, buf);
		n++;
	}
	if (task_next) {
		fmt_sec(ts, sizeof(ts), s->reflect_ns);
		fprintf(f, "          <idle>-0       [%03d] d..2. %14s: sched_switch: "
			   "prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> "
			   "next_comm=task next_pid=1 next_prio=120\n",
			s->cpu, ts, s->cpu);
		n++;
	}
	return n;
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
			 hrtimer_id(s->cpu, s->cause == WAKE_TICK),
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

/* ---- ftrace: which task ran (sched_switch) ---- */

/* A task's command name as the run names it (comm-tid), "task" if it has none. */
static const char *task_comm(const struct run_result *r, int tid)
{
	if (tid > 0 && tid <= r->sched.nr_tasks && r->sched.task[tid - 1].comm)
		return r->sched.task[tid - 1].comm;
	return "task";
}

/* An event of a CPU at a time, to find the slice event a switch sits next to. */
struct fat {
	int64_t t_ns;
	int cpu;
	size_t seq;
};

static int fat_cmp(const void *a, const void *b)
{
	const struct fat *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->cpu - y->cpu;
}

/* The latest (highest seq) of the events of `cpu` at t_ns, or NULL. */
static const struct fat *fat_find(const struct fat *v, size_t n, int64_t t_ns, int cpu)
{
	struct fat k = { t_ns, cpu, 0 };
	const struct fat *a = bsearch(&k, v, n, sizeof(*v), fat_cmp), *b, *best = a;

	for (b = a; b && b > v && !fat_cmp(b - 1, a); b--)
		best = b[-1].seq > best->seq ? b - 1 : best;
	for (b = a; b && b + 1 < v + n && !fat_cmp(b + 1, a); b++)
		best = b[1].seq > best->seq ? b + 1 : best;
	return best;
}

/* The task segments (tid > 0) of the run, by CPU then start. */
static int seg_cmp(const void *a, const void *b)
{
	const struct loop_segment *x = *(const struct loop_segment *const *)a;
	const struct loop_segment *y = *(const struct loop_segment *const *)b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/*
 * The sched_switch events of the task segments, after the slice events ev[0..*n): a switch
 * to a task at each segment's start (from the task that ended there, else from the idle
 * task), one to the idle task at an end no segment starts at (none at the run's end). A
 * switch from idle goes right after the exit (and its cause) at that time on that CPU, one
 * to idle right before the entry, as the kernel logs them. Returns 0 or -1 (no memory).
 */
static int switch_events(const struct run_result *r, struct fev *ev, size_t *n,
			 const struct loop_segment **seg, size_t nseg)
{
	struct fat *exits = sim_calloc(3 * r->nr_slices + 1, sizeof(*exits));
	struct fat *entries = sim_calloc(r->nr_slices + 1, sizeof(*entries));
	size_t ne = 0, nx = 0, i, base = *n;

	if (!exits || !entries) {
		sim_free(exits);
		sim_free(entries);
		return -1;
	}
	for (i = 0; i < *n; i++) {
		const struct run_slice *s = &r->slices[ev[i].slice];

		/* an entry: its first event, the timers armed before it (a switch to idle
		 * comes before them) */
		if (ev[i].kind == FEV_PRE)
			entries[ne++] = (struct fat){ ev[i].t_ns, s->cpu, ev[i].seq };
		else if (ev[i].kind != FEV_ENTRY) /* an exit, its cause, what follows: the
						   * latest counts (fat_find()) */
			exits[nx++] = (struct fat){ ev[i].t_ns, s->cpu, ev[i].seq };
	}
	qsort(entries, ne, sizeof(*entries), fat_cmp);
	qsort(exits, nx, sizeof(*exits), fat_cmp);
	for (i = 0; i < nseg; i++) {
		const struct loop_segment *g = seg[i];
		bool after = i && seg[i - 1]->cpu == g->cpu && seg[i - 1]->end_ns == g->start_ns;
		bool before = i + 1 < nseg && seg[i + 1]->cpu == g->cpu &&
			      seg[i + 1]->start_ns == g->end_ns;
		const struct fat *a;
		size_t seq = FEV_STEP * (base + 2 * i) + 2;

		if (!after) { /* from idle: after the exit (and its cause) at that time */
			a = fat_find(exits, nx, g->start_ns, g->cpu);
			seq = a ? a->seq + 1 : seq;
		}
		ev[(*n)++] = (struct fev){ g->start_ns, seq, i, FEV_SWITCH, false };
		if (before || g->end_ns >= r->stats.end_ns)
			continue;
		a = fat_find(entries, ne, g->end_ns, g->cpu);
		ev[(*n)++] = (struct fev){ g->end_ns, a ? a->seq - 1 : seq + FEV_STEP, i,
					   FEV_SWITCH, true };
	}
	sim_free(exits);
	sim_free(entries);
	return 0;
}

/* sched_switch: prev ==> next, on the CPU, logged by prev (the idle task is swapper/N). */
static void ftrace_switch(FILE *f, const struct run_result *r, const struct loop_segment **seg,
			  const struct fev *e)
{
	const struct loop_segment *g = seg[e->slice];
	const struct loop_segment *prev = NULL, *next = NULL;
	char ts[32], idle[32], pc[32], nc[32];
	int ppid = 0, npid = 0;

	if (e->out) {
		prev = g;
	} else {
		next = g;
		if (e->slice && seg[e->slice - 1]->cpu == g->cpu &&
		    seg[e->slice - 1]->end_ns == g->start_ns)
			prev = seg[e->slice - 1];
	}
	snprintf(idle, sizeof(idle), "swapper/%d", g->cpu);
	snprintf(pc, sizeof(pc), "%.15s", prev ? task_comm(r, prev->tid) : idle);
	snprintf(nc, sizeof(nc), "%.15s", next ? task_comm(r, next->tid) : idle);
	ppid = prev ? prev->tid : 0;
	npid = next ? next->tid : 0;
	fmt_sec(ts, sizeof(ts), e->t_ns);
	fprintf(f, "%16s-%-7d [%03d] d..2. %14s: sched_switch: prev_comm=%s prev_pid=%d "
		   "prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120\n",
		prev ? pc : "<idle>", ppid, g->cpu, ts, pc, ppid,
		!prev ? "R" : prev->preempted ? "R+" : "S", nc, npid);
}

/* Per slice: whether the CPU's next entry starts a new idle period (a task ran between);
 * the last entry of a CPU that ended too. NULL with no memory. */
static bool *task_after(const struct run_result *r)
{
	bool *t = sim_calloc(r->nr_slices + 1, sizeof(*t));
	size_t *last = sim_calloc((size_t)r->stats.nr_cpus + 1, sizeof(*last));
	size_t i;

	if (!t || !last) {
		sim_free(t);
		sim_free(last);
		return NULL;
	}
	for (i = 0; i < r->nr_slices; i++) {
		const struct run_slice *s = &r->slices[i];

		if (s->cpu < 0 || s->cpu >= r->stats.nr_cpus)
			continue;
		if (last[s->cpu])
			t[last[s->cpu] - 1] = (s->flags & RUN_SLICE_FIRST) != 0;
		last[s->cpu] = i + 1;
		t[i] = !(s->flags & RUN_SLICE_TRUNCATED);
	}
	sim_free(last);
	return t;
}

/* The events, in time order (each CPU's in its own order), into f; the lines written. */
static size_t ftrace_body(FILE *f, const struct run_result *r, const struct fev *ev, size_t n,
			  const struct loop_segment **seg, const bool *task_next)
{
	size_t i, lines = 0;

	for (i = 0; i < n; i++) {
		const struct run_slice *s;
		char buf[96];

		if (ev[i].kind == FEV_SWITCH) {
			ftrace_switch(f, r, seg, &ev[i]);
			lines++;
			continue;
		}
		s = &r->slices[ev[i].slice];
		switch (ev[i].kind) {
		case FEV_PRE:
			lines += (size_t)ftrace_pre(f, s);
			continue;
		case FEV_POST:
			lines += (size_t)ftrace_post(f, s, task_next && task_next[ev[i].slice]);
			continue;
		case FEV_CAUSE:
			ftrace_cause(f, s, ev[i].t_ns);
			lines += s->cause < WAKE_POLL;
			continue;
		default:
			break;
		}
		snprintf(buf, sizeof(buf), "cpu_idle: state=%u cpu_id=%d",
			 ev[i].kind == FEV_ENTRY ? (unsigned int)s->state : 4294967295u, s->cpu);
		ftrace_line(f, s->cpu, ev[i].t_ns, buf);
		lines++;
	}
	return lines;
}

int export_ftrace(FILE *f, const struct run_result *r, const char *command, struct sim_error *err)
{
	const struct loop_segment **seg;
	struct fev *ev;
	bool *task_next = NULL;
	size_t n = 0, i, lines, nseg = 0, len = 0;
	char *body = NULL;
	FILE *mem;

	ev = sim_calloc(r->nr_slices * 5 + 2 * r->nr_segs + 1, sizeof(*ev));
	seg = sim_calloc(r->nr_segs + 1, sizeof(*seg));
	/* a replay's task switches are the ends of its idle periods; a closed loop has its own
	 * (none when its threads are pinned) */
	if (ev && seg && !r->closed_loop)
		task_next = task_after(r);
	if (!ev || !seg || (!r->closed_loop && !task_next)) {
		sim_free(ev);
		sim_free(seg);
		sim_free(task_next);
		return sim_error_nomem(err, "");
	}
	for (i = 0; i < r->nr_segs; i++)
		if (r->segs[i].tid > 0)
			seg[nseg++] = &r->segs[i];
	qsort(seg, nseg, sizeof(*seg), seg_cmp);
	for (i = 0; i < r->nr_slices; i++) {
		const struct run_slice *s = &r->slices[i];

		fev_push(ev, &n, s->entry_ns, i, FEV_PRE);
		fev_push(ev, &n, s->entry_ns, i, FEV_ENTRY);
		if (s->flags & RUN_SLICE_TRUNCATED)
			continue; /* still idle at the end: no exit, as in a real trace */
		fev_push(ev, &n, s->reflect_ns, i, FEV_EXIT);
		if (s->cause < WAKE_POLL)
			fev_push(ev, &n, s->reflect_ns, i, FEV_CAUSE);
		fev_push(ev, &n, s->reflect_ns, i, FEV_POST);
	}
	if (nseg && switch_events(r, ev, &n, seg, nseg))
		goto nomem;
	qsort(ev, n, sizeof(*ev), fev_cmp);
	/* the header counts the lines: write the body first */
	mem = open_memstream(&body, &len);
	if (!mem)
		goto nomem;
	lines = ftrace_body(mem, r, ev, n, seg, task_next);
	if (fclose(mem))
		goto nomem;
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
	fwrite(body, 1, len, f);
	free(body);
	sim_free(ev);
	sim_free(seg);
	sim_free(task_next);
	return 0;
nomem:
	free(body);
	sim_free(ev);
	sim_free(seg);
	sim_free(task_next);
	return sim_error_nomem(err, "");
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

/*
 * What ran where (a closed-loop run's segments) on the CPUs' tracks, as Perfetto draws its
 * own CPU tracks from sched_switch: a task as "comm-tid" with args {tid, comm}; kernel work
 * (interrupts, timers: tid 0) as "kernel work", nested in the task it interrupted; pinned
 * work (no tasks) as "work".
 */
static int perfetto_segments(FILE *f, const struct run_result *r, int pid)
{
	char ts[32], dur[32], name[64];
	size_t i;

	for (i = 0; i < r->nr_segs; i++) {
		const struct loop_segment *g = &r->segs[i];
		const char *comm = task_comm(r, g->tid);

		fmt_us(ts, sizeof(ts), g->start_ns);
		fmt_us(dur, sizeof(dur), g->end_ns - g->start_ns);
		if (g->tid > 0)
			snprintf(name, sizeof(name), "%s-%d", comm, g->tid);
		else
			snprintf(name, sizeof(name), "%s", g->tid ? "work" : "kernel work");
		fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"sched\",\"name\":");
		if (json_str(f, name))
			return -1;
		fprintf(f, ",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s,\"args\":{\"tid\":%d",
			pid, g->cpu + 1, ts, dur, g->tid < 0 ? 0 : g->tid);
		if (g->tid > 0) {
			fputs(",\"comm\":", f);
			if (json_str(f, comm))
				return -1;
		}
		fputs("}}", f);
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
		if (perfetto_run(f, &res->r[i], i + 1, &first) ||
		    perfetto_segments(f, &res->r[i], i + 1))
			return sim_error_nomem(err, "");
	fputs("\n]}\n", f);
	return 0;
}
