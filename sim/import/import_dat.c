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
 *
 * libtracecmd trusts the file: a truncated or damaged trace.dat crashes it. So the file's
 * structure is checked first (import_datcheck.c: every size and offset it will act on, every
 * page of CPU data), and only a sound file is handed to it. What that check cannot vouch for
 * (what libtraceevent's parsers make of the event formats and other texts, and compressed
 * content) is tried first in a child process (dry_run), and the file refused if the child
 * dies. Records are checked here for what libtraceevent reads of them without bounds: the
 * event type field.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"

#include <string.h>

#ifdef IDLESIM_TRACEDAT

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <unistd.h>

struct datsrc {
	struct tracecmd_input *h;
	struct tep_handle *tep;
	int cpus;		 /* reported: the larger of libtraceevent's count and ncpu */
	int ncpu;		 /* CPUs libtracecmd holds data for (dat_layout.data_cpus) */
	int type_off, type_size; /* common_type, where libtraceevent reads the event type */
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
	for (i = 0; d->cur && i < d->ncpu; i++) {
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
	for (i = 0; i < d->ncpu; i++)
		d->cur[i] = tracecmd_read_cpu_first(d->h, i);
	return 0;
}

/* libtracecmd on a file dat_check passed. */
static struct datsrc *open_checked(const char *path, const char *name,
				   const struct dat_layout *lay, struct sim_error *err)
{
	struct datsrc *d = sim_calloc(1, sizeof(*d));
	struct tep_format_field *f;

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
	/* iterate the CPUs libtracecmd has slots for, whatever CPUCOUNT told libtraceevent */
	d->ncpu = lay->data_cpus;
	d->cpus = sim_max64(tep_get_cpus(d->tep), d->ncpu);
	f = tep_get_events_count(d->tep) > 0
		    ? tep_find_common_field(tep_get_event(d->tep, 0), "common_type")
		    : NULL;
	d->type_off = f ? f->offset : 0;
	d->type_size = f ? f->size : 0;
	if (d->cpus < 1 || d->cpus > TRACE_MAX_CPUS) {
		sim_error_set(err, SIM_ERR_INPUT, name, 0, 0, "trace.dat with %d CPUs (1..%d)",
			      d->cpus, TRACE_MAX_CPUS);
		dat_close(d);
		return NULL;
	}
	d->cur = sim_calloc((size_t)(d->ncpu ? d->ncpu : 1), sizeof(*d->cur));
	if (!d->cur) {
		sim_error_nomem(err, name);
		dat_close(d);
		return NULL;
	}
	dat_rewind(d, err);
	return d;
}

/*
 * The second line of defence. dat_check cannot vouch for what libtraceevent's text parsers
 * (event formats with their print expressions, kallsyms, printk formats, command lines) make
 * of the texts, nor for compressed content. So libtracecmd first opens the file in a child
 * process as open_checked does and, if any content was compressed, reads every record twice
 * as an import does. The parent goes on only if the child ended normally; libtracecmd then
 * does the same work on the same bytes. If the child did not, a second child parses each
 * text on its own, telling the parent which one it is at, so the message names its offset.
 */
enum { STEP_OPEN = -1, STEP_READ = -2 };

static void tell(int fd, int32_t step)
{
	ssize_t k = write(fd, &step, sizeof(step));

	(void)k; /* a parent that went away learns nothing anyway */
}

static void parse_texts(const char *path, const struct dat_layout *lay, int out)
{
	struct tep_handle *tep = tep_alloc();
	int fd = open(path, O_RDONLY);
	size_t i;

	if (!tep || fd < 0)
		return;
	tep_set_file_bigendian(tep, lay->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, lay->long_size);
	for (i = 0; i < lay->ntext; i++) {
		const struct dat_text *t = &lay->text[i];
		char *buf = sim_malloc(t->size + 1), sys[256] = "";

		if (!buf || pread(fd, buf, t->size, (off_t)t->at) != (ssize_t)t->size ||
		    (t->kind == DAT_EVENT_FORMAT &&
		     pread(fd, sys, sizeof(sys) - 1, (off_t)t->sys_at) <= 0)) {
			sim_free(buf);
			break;
		}
		buf[t->size] = '\0';
		tell(out, (int32_t)i);
		switch (t->kind) {
		case DAT_HEADER_PAGE:
			tep_parse_header_page(tep, buf, t->size, lay->long_size);
			break;
		case DAT_FTRACE_FORMAT:
			tep_parse_event(tep, buf, t->size, "ftrace");
			break;
		case DAT_EVENT_FORMAT:
			tep_parse_event(tep, buf, t->size, sys);
			break;
		case DAT_KALLSYMS:
			tep_parse_kallsyms(tep, buf);
			break;
		case DAT_PRINTK:
			tep_parse_printk_formats(tep, buf);
			break;
		case DAT_CMDLINES:
			tep_parse_saved_cmdlines(tep, buf);
			break;
		}
		sim_free(buf);
	}
	close(fd);
	tep_free(tep);
}

/*
 * A child: each text alone (locate), or the file through libtracecmd. Its exit status is 0
 * if all went well, 3 if libtracecmd refused the file.
 */
static int dry_read(const char *path, const char *name, const struct dat_layout *lay, int out,
		    bool locate)
{
	rlim_t secs = 60 + lay->inflated / (8 << 20) + lay->ntext / 1000;
	struct rlimit cpu = { secs, secs }, core = { 0, 0 };
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGXCPU, SIGSYS,
				     SIGTRAP };
	struct sim_error err = { 0 };
	struct dat_event e;
	struct datsrc *d;
	int fd = open("/dev/null", O_RDWR), pass, rc = 0;
	size_t i;

	/* die of a crash here, whatever handler the program (or a test framework) installed */
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	setrlimit(RLIMIT_CPU, &cpu);
	setrlimit(RLIMIT_CORE, &core);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (locate) {
		parse_texts(path, lay, out);
		return 0;
	}
	tell(out, STEP_OPEN);
	d = open_checked(path, name, lay, &err);
	if (!d)
		return 3; /* refused cleanly (and perhaps noisily: not in the parent, then) */
	if (lay->compressed) {
		tell(out, STEP_READ);
		for (pass = 0; pass < 2 && rc >= 0; pass++) {
			while ((rc = dat_next(d, &e, &err)) > 0)
				;
			if (rc == 0)
				dat_rewind(d, &err);
		}
	}
	dat_close(d);
	return 0;
}

static const char *text_name(const struct dat_text *t, int fd, char *buf, size_t n)
{
	char sys[64] = "";

	switch (t->kind) {
	case DAT_HEADER_PAGE:
		return "the header_page text";
	case DAT_FTRACE_FORMAT:
		return "an ftrace event format";
	case DAT_EVENT_FORMAT:
		if (fd < 0 || pread(fd, sys, sizeof(sys) - 1, (off_t)t->sys_at) <= 0)
			return "an event format";
		snprintf(buf, n, "an event format of system \"%.60s\"", sys);
		return buf;
	case DAT_KALLSYMS:
		return "the kallsyms text";
	case DAT_PRINTK:
		return "the printk formats";
	default:
		return "the saved command lines";
	}
}

/* Run dry_read in a child: its wait status, and in *step the last step it told. */
static int child(const char *path, const char *name, const struct dat_layout *lay, bool locate,
		 int32_t *step, struct sim_error *err)
{
	int p[2], st;
	int32_t s;
	pid_t pid;

	if (pipe(p))
		return sim_error_set(err, SIM_ERR_IO, name, 0, 0, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return sim_error_set(err, SIM_ERR_IO, name, 0, 0, "fork: %s", strerror(errno));
	}
	if (!pid) {
		close(p[0]);
		_exit(dry_read(path, name, lay, p[1], locate));
	}
	close(p[1]);
	*step = STEP_OPEN;
	while (read(p[0], &s, sizeof(s)) == (ssize_t)sizeof(s))
		*step = s;
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return sim_error_set(err, SIM_ERR_IO, name, 0, 0, "waitpid: %s",
					     strerror(errno));
	return st;
}

static int dry_run(const char *path, const char *name, const struct dat_layout *lay,
		   struct sim_error *err)
{
	char how[96], what[96];
	int32_t step, where;
	int st, st2, fd;

	st = child(path, name, lay, false, &step, err);
	if (st < 0)
		return -1;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	/* which text, if one of them is the cause */
	st2 = child(path, name, lay, true, &where, err);
	if (st2 < 0)
		return -1;
	if (!(WIFEXITED(st2) && !WEXITSTATUS(st2)))
		st = st2, step = where;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU)
		snprintf(how, sizeof(how), "did not end within its CPU time");
	else if (WIFSIGNALED(st))
		snprintf(how, sizeof(how), "crashed (signal %d, %s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(how, sizeof(how), "failed (exit status %d)", WEXITSTATUS(st));
	if (step >= 0 && (size_t)step < lay->ntext) {
		fd = open(path, O_RDONLY);
		sim_error_set(err, SIM_ERR_INPUT, name, 0, 0,
			      "trace.dat damaged: libtraceevent %s parsing %s (offset %llu)", how,
			      text_name(&lay->text[step], fd, what, sizeof(what)),
			      (unsigned long long)lay->text[step].at);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		return sim_error_set(err, SIM_ERR_INPUT, name, 0, 0,
				     lay->compressed
					     ? "trace.dat damaged: libtracecmd cannot read its "
					       "compressed data (or it is compressed in a way "
					       "libtracecmd does not know) (offset %llu)"
					     : "trace.dat damaged, or in a form libtracecmd does not "
					       "know: libtracecmd refused it although its structure is "
					       "sound (offset %llu)",
				     (unsigned long long)lay->compressed_at);
	if (lay->compressed)
		return sim_error_set(err, SIM_ERR_INPUT, name, 0, 0,
				     "trace.dat damaged: libtracecmd %s reading its compressed data, "
				     "which idlesim cannot check beforehand (offset %llu)",
				     how, (unsigned long long)lay->compressed_at);
	return sim_error_set(err, SIM_ERR_INPUT, name, 0, 0,
			     "trace.dat damaged: libtracecmd %s opening it although its structure "
			     "is sound (offset 0)",
			     how);
}

struct datsrc *dat_open(const char *path, const char *name, struct sim_error *err)
{
	struct dat_layout lay;
	struct datsrc *d = NULL;

	if (dat_check(path, name, &lay, err))
		return NULL;
	if (!dry_run(path, name, &lay, err))
		d = open_checked(path, name, &lay, err);
	dat_layout_release(&lay);
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
		for (i = 0; i < d->ncpu; i++)
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
		/* libtraceevent reads the event type at common_type without looking at the size */
		if (d->type_size && (d->type_off < 0 || d->type_size < 0 ||
				     (long long)d->type_off + d->type_size > r->size))
			return sim_error_set(err, SIM_ERR_INPUT, d->path, 0, 0,
					     "trace.dat damaged: record at byte %llu (CPU %d): %d "
					     "bytes, too short for its event type (%d bytes at %d) "
					     "(offset %llu)",
					     r->offset, best, r->size, d->type_size, d->type_off,
					     r->offset);
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

	if (!f || f->offset < 0 || f->size < 0 || (long long)f->offset + f->size > d->last->size)
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

	if (!f || f->offset < 0 || f->size < 0 || (long long)f->offset + f->size > d->last->size)
		return NULL;
	p = tep_get_field_raw(NULL, d->last_ev, name, d->last, len, 0);
	if (!p || *len < 0 || p < (const unsigned char *)d->last->data ||
	    p + *len > (const unsigned char *)d->last->data + d->last->size)
		return NULL;
	return p;
}

/* The callback, resolved with the file's kallsyms: the tick's, and its name for the census. */
static void timer_function(struct datsrc *d, struct payload_ctx *pc, struct kevent *ev)
{
	unsigned long long fn;
	const char *s;

	if (num(d, "function", &fn) || !(s = tep_find_function(d->tep, fn)))
		return;
	if (timer_function_is_tick(s, strlen(s)))
		ev->flags |= KF_TICK;
	ev->fn = fn_intern(pc->fns, s, strlen(s));
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
		timer_function(d, pc, ev);
		if (ev->type == KEV_HRTIMER_START && num(d, "mode", &b) == 0 && (b & 0x02))
			ev->flags |= KF_PINNED; /* HRTIMER_MODE_PINNED */
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
			ev->flags |= (c & 0x00080000 ? KF_DEFERRABLE : 0u) | /* TIMER_DEFERRABLE */
				     (c & 0x00100000 ? KF_PINNED : 0u);	     /* TIMER_PINNED */
			delta = (int64_t)(a - b);			     /* expires - now */
			ev->timeout_ns = delta >= 0 && delta <= 1000000000LL ? delta * pc->tick_ns
									      : -1;
			timer_function(d, pc, ev);
			if (ev->v >= pc->cpus)
				ev->v = -1;
		}
		return 0;
	case KEV_TIMER_CANCEL:
		return id(d, "timer", &ev->id);
	case KEV_TIMER_EXPIRE:
		if (id(d, "timer", &ev->id))
			return -1;
		timer_function(d, pc, ev);
		return 0;
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
	struct dat_layout lay;

	/* a damaged file is reported as such, whether this build could read it or not */
	if (dat_check(path, name, &lay, err))
		return NULL;
	dat_layout_release(&lay);
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
