// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_dat.c - trace.dat (trace-cmd's binary format) through libtracecmd and
 * libtraceevent, the libraries trace-cmd itself uses (Debian: libtracecmd-dev). Built when
 * the CMake option IDLESIM_TRACEDAT is on; otherwise opening a trace.dat says how to enable
 * it. No tool is ever run.
 *
 * Records are read per CPU (tracecmd_read_cpu_first / tracecmd_read_data) and merged by
 * timestamp here, lowest CPU first at equal times, as `trace-cmd report` does. Fields are read
 * by name from the event formats stored in the file, so the kernel's field layout of that
 * trace is used, not the print format: the same values the text dialects print. Function
 * addresses (hrtimer callbacks) are resolved with the kallsyms the file carries.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"

#include <string.h>

#ifdef IDLESIM_TRACEDAT

#include <trace-cmd.h>

struct datsrc {
	struct tracecmd_input *h;
	struct tep_handle *tep;
	int cpus;
	struct tep_record **cur; /* each CPU's next record */
	struct tep_record *last; /* returned last */
	struct tep_event *last_ev;
	char path[256];
};

bool import_has_tracedat(void)
{
	return true;
}

static void drop_records(struct datsrc *d)
{
	int i;

	if (d->last)
		tracecmd_free_record(d->last);
	d->last = NULL;
	for (i = 0; d->cur && i < d->cpus; i++) {
		if (d->cur[i])
			tracecmd_free_record(d->cur[i]);
		d->cur[i] = NULL;
	}
}

int dat_rewind(struct datsrc *d, struct sim_error *err)
{
	int i;

	(void)err;
	drop_records(d);
	for (i = 0; i < d->cpus; i++)
		d->cur[i] = tracecmd_read_cpu_first(d->h, i);
	return 0;
}

struct datsrc *dat_open(const char *path, const char *name, struct sim_error *err)
{
	struct datsrc *d = sim_calloc(1, sizeof(*d));

	if (!d) {
		sim_error_nomem(err, name);
		return NULL;
	}
	snprintf(d->path, sizeof(d->path), "%s", name);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	d->h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->h) {
		sim_error_set(
			err, SIM_ERR_INPUT, name, 0, 0,
			"libtracecmd cannot read this trace.dat (damaged, or a version it does "
			"not know)");
		sim_free(d);
		return NULL;
	}
	d->tep = tracecmd_get_tep(d->h);
	d->cpus = tep_get_cpus(d->tep);
	if (d->cpus < 1 || d->cpus > TRACE_MAX_CPUS) {
		sim_error_set(err, SIM_ERR_INPUT, name, 0, 0, "trace.dat with %d CPUs (1..%d)",
			      d->cpus, TRACE_MAX_CPUS);
		dat_close(d);
		return NULL;
	}
	d->cur = sim_calloc((size_t)d->cpus, sizeof(*d->cur));
	if (!d->cur) {
		sim_error_nomem(err, name);
		dat_close(d);
		return NULL;
	}
	dat_rewind(d, err);
	return d;
}

void dat_close(struct datsrc *d)
{
	if (!d)
		return;
	if (d->h) {
		drop_records(d);
		tracecmd_close(d->h);
	}
	sim_free(d->cur);
	sim_free(d);
}

int dat_cpus(const struct datsrc *d)
{
	return d->cpus;
}

int dat_next(struct datsrc *d, struct dat_event *e, struct sim_error *err)
{
	struct tep_record *r;
	int i, best = -1;

	if (d->last)
		tracecmd_free_record(d->last);
	d->last = NULL;
	for (;;) {
		best = -1;
		for (i = 0; i < d->cpus; i++)
			if (d->cur[i] && (best < 0 || d->cur[i]->ts < d->cur[best]->ts))
				best = i;
		if (best < 0)
			return 0;
		r = d->cur[best];
		/* Like the text dialects (import_lex.c): no instant at or beyond 2^62 ns, where
		 * the engine's arithmetic would overflow. Records come in time order, so this is
		 * the first such one: refuse the file, before any output is kept. */
		if (r->ts >= (unsigned long long)SIM_TIME_MAX_NS)
			return sim_error_set(err, SIM_ERR_INPUT, d->path, 0, 0,
					     "record at byte %llu (CPU %d): timestamp %llu ns is "
					     "beyond 2^62 ns (4611686018.427387904 s), the latest time "
					     "a trace may name",
					     r->offset, best, r->ts);
		d->cur[best] = tracecmd_read_data(d->h, best);
		d->last_ev = tep_find_event(d->tep, tep_data_type(d->tep, r));
		if (d->last_ev)
			break;
		tracecmd_free_record(r); /* no format for it: nothing to say about it */
	}
	d->last = r;
	e->cpu = best;
	e->time_ns = (int64_t)r->ts;
	e->name = d->last_ev->name;
	e->name_len = strnlen(e->name, IMP_NAME_MAX + 1);
	e->missed = r->missed_events;
	return 1;
}

static int num(struct datsrc *d, const char *name, unsigned long long *v)
{
	struct tep_format_field *f = tep_find_any_field(d->last_ev, name);

	if (!f || (int)(f->offset + f->size) > d->last->size)
		return -1;
	return tep_read_number_field(f, d->last->data, v) ? -1 : 0;
}

static int id(struct datsrc *d, const char *name, uint64_t *v)
{
	unsigned long long x;

	if (num(d, name, &x))
		return -1;
	*v = x;
	return 0;
}

/* A __data_loc field (string or bitmask): its bytes, bounded by the record. */
static const unsigned char *raw(struct datsrc *d, const char *name, int *len)
{
	struct tep_format_field *f = tep_find_any_field(d->last_ev, name);
	const unsigned char *p;

	if (!f || (int)(f->offset + f->size) > d->last->size)
		return NULL;
	p = tep_get_field_raw(NULL, d->last_ev, name, d->last, len, 0);
	if (!p || *len < 0 || p < (const unsigned char *)d->last->data ||
	    p + *len > (const unsigned char *)d->last->data + d->last->size)
		return NULL;
	return p;
}

static void tick_function(struct datsrc *d, struct kevent *ev)
{
	unsigned long long fn;
	const char *s;

	if (num(d, "function", &fn) == 0 && (s = tep_find_function(d->tep, fn)) &&
	    timer_function_is_tick(s, strlen(s)))
		ev->flags |= KF_TICK;
}

static int mask(struct datsrc *d, const char *name, struct payload_ctx *pc)
{
	const unsigned char *p;
	int len, i, k;

	memset(pc->mask, 0, sizeof(pc->mask));
	pc->nr_targets = 0;
	p = raw(d, name, &len);
	if (!p)
		return -1;
	for (i = 0; i < len; i++)
		for (k = 0; k < 8; k++)
			if (p[i] >> k & 1) {
				int cpu = i * 8 + k;

				if (cpu >= pc->cpus)
					return -1;
				if (cpu > pc->max_named)
					pc->max_named = cpu;
				pc->mask[cpu / 64] |= 1ULL << (cpu % 64);
				pc->nr_targets++;
			}
	return 0;
}

int dat_payload(struct datsrc *d, struct payload_ctx *pc, struct kevent *ev)
{
	unsigned long long a, b, c;
	const unsigned char *s;
	int len;

	switch (ev->type) {
	case KEV_CPU_IDLE:
	case KEV_CPU_IDLE_MISS:
		if (num(d, "state", &a) || num(d, "cpu_id", &b) || (int64_t)b != ev->cpu)
			return -1;
		if ((a & 0xffffffffULL) == 0xffffffffULL)
			ev->v = ev->type == KEV_CPU_IDLE ? -1 : -2;
		else if (a < 1000)
			ev->v = (int32_t)a;
		else
			return -1;
		if (ev->type == KEV_CPU_IDLE)
			return 0;
		if (ev->v < 0 || num(d, "below", &c))
			return -1;
		if (c)
			ev->flags |= KF_BELOW;
		return 0;
	case KEV_HRTIMER_START:
	case KEV_HRTIMER_EXPIRE:
		if (id(d, "hrtimer", &ev->id) ||
		    num(d, ev->type == KEV_HRTIMER_START ? "expires" : "now", &a))
			return -1;
		ev->a = (int64_t)(a & INT64_MAX);
		tick_function(d, ev);
		return 0;
	case KEV_HRTIMER_CANCEL:
		return id(d, "hrtimer", &ev->id);
	case KEV_TIMER_START:
		if (id(d, "timer", &ev->id) || num(d, "expires", &a) || num(d, "now", &b) ||
		    num(d, "flags", &c))
			return -1;
		{
			unsigned long long bucket = a;
			int64_t delta;

			num(d, "bucket_expiry", &bucket);
			delta = (int64_t)(bucket - b);
			if (delta < -1000000000LL || delta > 1000000000LL)
				delta = 1000000000LL;
			ev->a = delta > 0 ? sim_time_add(ev->time_ns, delta * pc->tick_ns)
					  : ev->time_ns;
			ev->v = (int32_t)(c & 0x3ffff); /* TIMER_CPUMASK */
			if (ev->v >= pc->cpus)
				ev->v = -1;
		}
		return 0;
	case KEV_TIMER_CANCEL:
	case KEV_TIMER_EXPIRE:
		return id(d, "timer", &ev->id);
	case KEV_TICK_STOP:
		ev->v = num(d, "success", &a) == 0 && a;
		return 0;
	case KEV_IRQ:
		s = raw(d, "name", &len);
		if (s && irq_name_is_timer((const char *)s, strnlen((const char *)s, (size_t)len)))
			ev->flags |= KF_TIMER_IRQ;
		return 0;
	case KEV_SCHED_SWITCH:
		if (num(d, "next_pid", &a))
			return -1;
		if (a == 0)
			ev->flags |= KF_NEXT_IDLE;
		return 0;
	case KEV_SCHED_WAKEUP:
		if (num(d, "target_cpu", &a) || a >= (unsigned long long)pc->cpus)
			return -1;
		ev->v = (int32_t)a;
		if (ev->v > pc->max_named)
			pc->max_named = ev->v;
		return 0;
	case KEV_IPI_RAISE:
		if (!strcmp(d->last_ev->name, "ipi_send_cpu")) {
			if (num(d, "cpu", &a) || a >= (unsigned long long)pc->cpus)
				return -1;
			if ((int)a > pc->max_named)
				pc->max_named = (int)a;
			memset(pc->mask, 0, sizeof(pc->mask));
			pc->mask[a / 64] = 1ULL << (a % 64);
			pc->nr_targets = 1;
			return 0;
		}
		return mask(d,
			    tep_find_any_field(d->last_ev, "target_cpus") ? "target_cpus"
									  : "cpumask",
			    pc);
	default:
		return 0;
	}
}

#else /* !IDLESIM_TRACEDAT */

bool import_has_tracedat(void)
{
	return false;
}

struct datsrc *dat_open(const char *path, const char *name, struct sim_error *err)
{
	(void)path;
	sim_error_set(err, SIM_ERR_INPUT, name, 0, 0,
		      "this idlesim was built without trace.dat support: install libtracecmd-dev "
		      "and rebuild (CMake option IDLESIM_TRACEDAT), or import the output of "
		      "`trace-cmd report -t` instead");
	return NULL;
}

void dat_close(struct datsrc *d)
{
	(void)d;
}

int dat_cpus(const struct datsrc *d)
{
	(void)d;
	return 0;
}

int dat_rewind(struct datsrc *d, struct sim_error *err)
{
	(void)d;
	(void)err;
	return -1;
}

int dat_next(struct datsrc *d, struct dat_event *e, struct sim_error *err)
{
	(void)d;
	(void)e;
	(void)err;
	return -1;
}

int dat_payload(struct datsrc *d, struct payload_ctx *pc, struct kevent *ev)
{
	(void)d;
	(void)pc;
	(void)ev;
	return -1;
}

#endif
