// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_event.c - the payload of each event the importer uses, from text.
 *
 * Payloads are the kernel's TP_printk() output (include/trace/events/power.h, timer.h,
 * irq.h, ipi.h, sched.h), or trace-cmd's plugin rewrites of sched_switch, sched_wakeup and
 * hrtimer_* (plugin_sched_switch.so, plugin_hrtimer.so). Fields are found by key, in any
 * order (the hrtimer plugin moves now= before function=), and the values the importer needs
 * must be there and well formed; fields it does not need are not looked at. Addresses are
 * compared as printed (hashed %p values are consistent within one trace), never resolved.
 *
 * The reference for every format is ../shared/reference/peers-and-users.md section 4.
 */
#include "sim/import/import_int.h"

#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The value of `key` (e.g. "state=") in [p, e): the key must start the payload or follow a
 * blank or '['. NULL if absent. */
static const char *kv_n(const char *p, const char *e, const char *key, size_t n)
{
	const char *q = p;

	while ((size_t)(e - q) >= n) {
		q = memchr(q, key[0], (size_t)(e - q) - n + 1);
		if (!q)
			return NULL;
		if ((q == p || is_blank(q[-1]) || q[-1] == '[') && !memcmp(q, key, n))
			return q + n;
		q++;
	}
	return NULL;
}

#define kv(p, e, key) kv_n(p, e, key, strlen(key))

/* The end of a value: a blank, ']' or the end. */
static const char *val_end(const char *v, const char *e)
{
	while (v < e && !is_blank(*v) && *v != ']')
		v++;
	return v;
}

/* A decimal number that fills the value (up to a blank, ']' or the end), at most max; *end
 * past it. The first 19 digits cannot overflow and are read without checks. */
static int dec_end(const char *v, const char *e, uint64_t max, uint64_t *out, const char **end)
{
	const char *s = v;
	uint64_t x = 0;

	for (; v < e && is_digit(*v) && v - s < 19; v++)
		x = x * 10 + (uint64_t)(*v - '0');
	if (v == s)
		return -1;
	for (; v < e && is_digit(*v); v++) {
		if (x > (UINT64_MAX - (uint64_t)(*v - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*v - '0');
	}
	if ((v < e && !is_blank(*v) && *v != ']') || x > max)
		return -1;
	*out = x;
	*end = v;
	return 0;
}

static int dec(const char *v, const char *e, uint64_t max, uint64_t *out)
{
	const char *end;

	return dec_end(v, e, max, out, &end);
}

static int sdec(const char *v, const char *e, int64_t *out)
{
	uint64_t x;
	bool neg = v < e && *v == '-';

	if (dec(v + neg, e, INT64_MAX, &x))
		return -1;
	*out = neg ? -(int64_t)x : (int64_t)x;
	return 0;
}

/* An address: hex digits, with or without 0x. */
static int hex(const char *v, const char *e, uint64_t *out)
{
	const char *ve = val_end(v, e);
	uint64_t x = 0;
	int n = 0;

	if (ve - v > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		v += 2;
	if (v == ve || ve - v > 16)
		return -1;
	for (; v < ve; v++, n++) {
		char c = *v;
		unsigned d = is_digit(c)	      ? (unsigned)(c - '0')
			     : (c >= 'a' && c <= 'f') ? (unsigned)(c - 'a' + 10)
			     : (c >= 'A' && c <= 'F') ? (unsigned)(c - 'A' + 10)
						      : 16u;

		if (d > 15)
			return -1;
		x = x << 4 | d;
	}
	*out = x;
	return 0;
}

/* A symbol as %ps or trace-cmd prints it: "tick_sched_timer", "hrtimer_wakeup/0x0",
 * "foo+0x10/0x30"; the name alone. */
static size_t symbol_len(const char *v, const char *e)
{
	const char *ve = val_end(v, e), *q;

	for (q = v; q < ve; q++)
		if (*q == '/' || *q == '+')
			break;
	return (size_t)(q - v);
}

static bool same(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

bool timer_function_is_tick(const char *s, size_t n)
{
	return same(s, n, "tick_sched_timer") || same(s, n, "tick_nohz_handler") ||
	       same(s, n, "tick_nohz_highres_handler");
}

bool irq_name_is_timer(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 5 <= n; i++) /* the first byte first: memcmp's call costs more */
		if (s[i] == 't' && !memcmp(s + i + 1, "imer", 4))
			return true;
	return false;
}

/* A cpumask as %*pb prints it: hex words separated by commas, most significant first. */
static int cpumask(const char *v, const char *e, struct payload_ctx *pc)
{
	const char *ve = val_end(v, e), *q;
	int bit = 0, nd = 0;

	memset(pc->mask, 0, sizeof(pc->mask));
	pc->nr_targets = 0;
	if (v == ve)
		return -1;
	for (q = ve; q > v; q--) {
		char c = q[-1];
		unsigned d;

		if (c == ',')
			continue;
		d = is_digit(c)		     ? (unsigned)(c - '0')
		    : (c >= 'a' && c <= 'f') ? (unsigned)(c - 'a' + 10)
		    : (c >= 'A' && c <= 'F') ? (unsigned)(c - 'A' + 10)
					     : 16u;
		if (d > 15)
			return -1;
		for (int k = 0; k < 4; k++, bit++) {
			if (!(d & (1u << k)))
				continue;
			if (bit >= pc->cpus)
				return -2;
			if (bit > pc->max_named)
				pc->max_named = bit;
			pc->mask[bit / 64] |= 1ULL << (bit % 64);
			pc->nr_targets++;
		}
		nd++;
	}
	return nd ? 0 : -1;
}

static int need(struct lexer *L, const struct lexed *x, const char *key, const char **v)
{
	*v = kv(x->pay, x->pay + x->pay_len, key);
	if (!*v)
		return lex_bad(L, x->line, x->pay, "%.*s: no %s field", (int)x->name_len, x->name,
			       key);
	return 0;
}

static int bad_value(struct lexer *L, const struct lexed *x, const char *v, const char *key)
{
	return lex_bad(L, x->line, v, "%.*s: malformed %s value", (int)x->name_len, x->name, key);
}

/* The CPU in the value of `key`, at v when the caller found it (else looked up). */
static int cpu_value(struct lexer *L, const struct lexed *x, struct payload_ctx *pc,
		     const char *key, const char *v, int *cpu)
{
	const char *e = x->pay + x->pay_len;
	uint64_t u;

	if (!v && need(L, x, key, &v))
		return LEX_BAD;
	if (dec(v, e, UINT32_MAX, &u))
		return bad_value(L, x, v, key);
	if ((int64_t)u >= pc->cpus)
		return lex_bad(L, x->line, v, "%.*s: CPU %llu out of range (the trace has %d CPUs)",
			       (int)x->name_len, x->name, (unsigned long long)u, pc->cpus);
	*cpu = (int)u;
	if (*cpu > pc->max_named)
		pc->max_named = *cpu;
	return 0;
}

static int idle_fields(struct lexer *L, const struct lexed *x, struct payload_ctx *pc,
		       struct kevent *ev)
{
	const char *v, *e = x->pay + x->pay_len, *ve, *c = NULL;
	uint64_t state;
	int cpu;

	/* the kernel's layout, "state=S cpu_id=C", has both keys where kv() finds them first */
	if (x->pay_len > 6 && !memcmp(x->pay, "state=", 6))
		v = x->pay + 6;
	else if (need(L, x, "state=", &v))
		return LEX_BAD;
	if (dec_end(v, e, IMP_EXIT_STATE, &state, &ve) ||
	    (state >= CPUIDLE_STATE_MAX * 100ULL && state != IMP_EXIT_STATE))
		return lex_bad(L, x->line, v, "%.*s: state= is not an idle state index",
			       (int)x->name_len, x->name);
	if (v == x->pay + 6 && e - ve >= 8 && *ve == ' ' && !memcmp(ve + 1, "cpu_id=", 7))
		c = ve + 8;
	if (cpu_value(L, x, pc, "cpu_id=", c, &cpu))
		return LEX_BAD;
	if (cpu != ev->cpu)
		return lex_bad(L, x->line, kv(x->pay, e, "cpu_id="),
			       "%.*s: cpu_id=%d but the event was recorded on CPU %d",
			       (int)x->name_len, x->name, cpu, ev->cpu);
	ev->v = state == IMP_EXIT_STATE ? -1 : (int32_t)state;
	return LEX_EVENT;
}

static int idle_miss(struct lexer *L, const struct lexed *x, struct payload_ctx *pc,
		     struct kevent *ev)
{
	const char *v, *e = x->pay + x->pay_len;

	if (idle_fields(L, x, pc, ev) != LEX_EVENT)
		return LEX_BAD;
	if (ev->v < 0)
		return lex_bad(L, x->line, kv(x->pay, e, "state="),
			       "cpu_idle_miss: state= is not an idle state index");
	if (need(L, x, "type=", &v))
		return LEX_BAD;
	if (val_end(v, e) - v == 5 && !memcmp(v, "below", 5))
		ev->flags |= KF_BELOW;
	else if (!(val_end(v, e) - v == 5 && !memcmp(v, "above", 5)))
		return lex_bad(L, x->line, v, "cpu_idle_miss: type= is not above or below");
	return LEX_EVENT;
}

static int timer_id(struct lexer *L, const struct lexed *x, const char *key, struct kevent *ev)
{
	const char *v;

	if (need(L, x, key, &v))
		return LEX_BAD;
	if (hex(v, x->pay + x->pay_len, &ev->id))
		return bad_value(L, x, v, key);
	return 0;
}

/* The callback (function=, when printed): the tick's, and its name for the census. */
static void timer_function(struct payload_ctx *pc, const struct lexed *x, struct kevent *ev)
{
	const char *v = kv(x->pay, x->pay + x->pay_len, "function=");
	size_t n;

	if (!v)
		return;
	n = symbol_len(v, x->pay + x->pay_len);
	if (timer_function_is_tick(v, n))
		ev->flags |= KF_TICK;
	if (!pc->fns) { /* a parallel parse: interned later, in file order (import_par.c) */
		pc->fn_at = v;
		pc->fn_len = n;
		return;
	}
	ev->fn = fn_intern(pc->fns, v, n);
}

/* timer_start's flags= as decode_timer_flags() prints them ("D|P", letters M D P I joined by
 * '|'), or a number (trace-cmd without the event's print format). */
static void timer_flags(const struct lexed *x, struct kevent *ev)
{
	const char *e = x->pay + x->pay_len, *v = kv(x->pay, e, "flags="), *ve, *q;
	uint64_t u;

	if (!v)
		return;
	ve = val_end(v, e);
	if (v < ve && is_digit(*v)) {
		if ((ve - v > 2 && v[1] == 'x' ? hex(v, e, &u) : dec(v, e, UINT64_MAX, &u)) == 0)
			ev->flags |= (u & 0x00080000u ? KF_DEFERRABLE : 0u) |
				     (u & 0x00100000u ? KF_PINNED : 0u);
		return;
	}
	for (q = v; q < ve; q++)
		if ((q == v || q[-1] == '|') && (q + 1 == ve || q[1] == '|'))
			ev->flags |= *q == 'D' ? KF_DEFERRABLE : *q == 'P' ? KF_PINNED : 0u;
}

static int hrtimer(struct lexer *L, struct payload_ctx *pc, const struct lexed *x,
		   struct kevent *ev)
{
	const char *v, *e = x->pay + x->pay_len;
	uint64_t u;

	if (timer_id(L, x, "hrtimer=", ev))
		return LEX_BAD;
	if (ev->type == KEV_HRTIMER_CANCEL)
		return LEX_EVENT;
	timer_function(pc, x, ev);
	if (ev->type == KEV_HRTIMER_START) {
		const char *m = kv(x->pay, e, "mode="), *me = m ? val_end(m, e) : NULL;

		for (; m && me - m >= 6; m++) /* ABS_PINNED, REL_PINNED_HARD, ... */
			if (!memcmp(m, "PINNED", 6)) {
				ev->flags |= KF_PINNED;
				break;
			}
		if (need(L, x, "expires=", &v))
			return LEX_BAD;
	} else if (!(v = kv(x->pay, e, "now="))) {
		ev->a = -1; /* an expiry without now= still tells the cause */
		return LEX_EVENT;
	}
	if (dec(v, e, INT64_MAX, &u))
		return bad_value(L, x, v, ev->type == KEV_HRTIMER_START ? "expires=" : "now=");
	ev->a = (int64_t)u;
	return LEX_EVENT;
}

/*
 * timer_start: expires is in jiffies. The timer fires at the tick where jiffies reaches
 * bucket_expiry (the wheel's granularity; expires on kernels before v5.9, which do not print
 * it); [timeout=N] is expires - jiffies at arming time. So it fires about
 * (bucket_expiry - expires + timeout) ticks after this event.
 */
static int timer_start(struct lexer *L, const struct lexed *x, struct payload_ctx *pc,
		       struct kevent *ev)
{
	const char *v, *e = x->pay + x->pay_len, *b;
	uint64_t expires, bucket;
	int64_t timeout, delta;
	int cpu;

	if (timer_id(L, x, "timer=", ev))
		return LEX_BAD;
	timer_function(pc, x, ev);
	timer_flags(x, ev);
	if (need(L, x, "expires=", &v))
		return LEX_BAD;
	if (dec(v, e, UINT64_MAX, &expires))
		return bad_value(L, x, v, "expires=");
	if (need(L, x, "timeout=", &v))
		return LEX_BAD;
	if (sdec(v, e, &timeout))
		return bad_value(L, x, v, "timeout=");
	ev->timeout_ns = timeout >= 0 && timeout <= 1000000000 ? timeout * pc->tick_ns : -1;
	bucket = expires;
	if ((b = kv(x->pay, e, "bucket_expiry=")) && dec(b, e, UINT64_MAX, &bucket))
		return bad_value(L, x, b, "bucket_expiry=");
	delta = (int64_t)(bucket - expires);
	if (delta < -1000000000 || delta > 1000000000 || timeout < -1000000000 ||
	    timeout > 1000000000)
		delta = 1000000000; /* nonsense: far future */
	else
		delta += timeout;
	ev->a = sim_time_add(ev->time_ns, delta > 0 ? delta * pc->tick_ns : 0);
	if (delta < 0)
		ev->a = ev->time_ns;
	ev->v = -1;
	if (kv(x->pay, e, "cpu=")) {
		if (cpu_value(L, x, pc, "cpu=", NULL, &cpu))
			return LEX_BAD;
		ev->v = cpu;
	}
	return LEX_EVENT;
}

/*
 * Whether the CPU switches to its idle task. Raw: "prev_comm=A prev_pid=N prev_prio=P
 * prev_state=S ==> next_comm=B next_pid=M next_prio=Q"; trace-cmd's plugin: "A:N [P] S ==>
 * B:M [Q]". A line cut before the next task (real traces end so) still says a task ran: its
 * previous task, when that is not the idle task, or else the switch away from idle.
 */
static int plugin_pid(const char *p, const char *e, uint64_t *pid)
{
	const char *br = NULL, *q;

	for (q = p; q < e; q++)
		if (*q == '[')
			br = q;
	if (!br)
		return -1;
	for (q = br; q > p; q--) {
		if (q[-1] == ':')
			return dec(q, br, UINT32_MAX, pid);
		if (q[-1] == '>')
			break;
	}
	return -1;
}

static int sched_switch(struct lexer *L, const struct lexed *x, struct kevent *ev)
{
	const char *p = x->pay, *e = x->pay + x->pay_len, *v, *arrow = NULL, *q;
	uint64_t pid;

	if ((v = kv(p, e, "next_pid="))) {
		if (dec(v, e, UINT32_MAX, &pid))
			return bad_value(L, x, v, "next_pid=");
		if (pid == 0)
			ev->flags |= KF_NEXT_IDLE;
		return LEX_EVENT;
	}
	for (q = p; (q = memchr(q, '>', (size_t)(e - q))); q++)
		if (q - p >= 2 && q[-1] == '=' && q[-2] == '=') {
			arrow = q - 2;
			break;
		}
	if (arrow && !kv(arrow, e, "next_comm=") && plugin_pid(arrow + 3, e, &pid) == 0) {
		/* plugin layout */
	} else if ((v = kv(p, e, "prev_pid=")) || (!arrow && (v = p))) {
		if (v == p ? plugin_pid(p, e, &pid) : dec(v, e, UINT32_MAX, &pid))
			return lex_bad(L, x->line, p,
				       "sched_switch: expected prev_pid=/next_pid= or "
				       "PREV:PID [PRIO] S ==> NEXT:PID [PRIO]");
		return LEX_EVENT; /* cut short: a task ran before or after */
	} else {
		return lex_bad(L, x->line, arrow ? arrow : p,
			       "sched_switch: expected NEXT_COMM:NEXT_PID [PRIO] after '==>'");
	}
	if (pid == 0)
		ev->flags |= KF_NEXT_IDLE;
	return LEX_EVENT;
}

static int sched_wakeup(struct lexer *L, const struct lexed *x, struct payload_ctx *pc,
			struct kevent *ev)
{
	const char *e = x->pay + x->pay_len, *v;
	uint64_t u;
	int cpu;

	if (kv(x->pay, e, "target_cpu=")) {
		if (cpu_value(L, x, pc, "target_cpu=", NULL, &cpu))
			return LEX_BAD;
		ev->v = cpu;
		return LEX_EVENT;
	}
	v = kv(x->pay, e, "CPU:"); /* plugin: comm:pid [prio] success=1 CPU:003 */
	if (!v)
		return lex_bad(L, x->line, x->pay, "%.*s: no target_cpu= field", (int)x->name_len,
			       x->name);
	if (dec(v, e, UINT32_MAX, &u) || (int64_t)u >= pc->cpus)
		return bad_value(L, x, v, "CPU:");
	ev->v = (int32_t)u;
	if (ev->v > pc->max_named)
		pc->max_named = ev->v;
	return LEX_EVENT;
}

static int ipi_raise(struct lexer *L, const struct lexed *x, struct payload_ctx *pc)
{
	const char *e = x->pay + x->pay_len, *v;
	int cpu;

	if (x->name_len == 12 && !memcmp(x->name, "ipi_send_cpu", 12)) {
		if (cpu_value(L, x, pc, "cpu=", NULL, &cpu))
			return LEX_BAD;
		memset(pc->mask, 0, sizeof(pc->mask));
		pc->mask[cpu / 64] = 1ULL << (cpu % 64);
		pc->nr_targets = 1;
		return LEX_EVENT;
	}
	v = kv(x->pay, e, "target_mask=");
	if (!v)
		v = kv(x->pay, e, "cpumask=");
	if (!v)
		return lex_bad(L, x->line, x->pay, "%.*s: no target_mask= field", (int)x->name_len,
			       x->name);
	switch (cpumask(v, e, pc)) {
	case 0:
		break;
	case -2:
		return lex_bad(L, x->line, v, "%.*s: the mask names a CPU beyond the trace's %d",
			       (int)x->name_len, x->name, pc->cpus);
	default:
		return lex_bad(L, x->line, v, "%.*s: malformed CPU mask", (int)x->name_len,
			       x->name);
	}
	return LEX_EVENT;
}

int lex_payload(struct lexer *L, struct payload_ctx *pc, const struct lexed *x, struct kevent *ev)
{
	const char *e = x->pay + x->pay_len, *v;
	uint64_t u;

	switch (ev->type) {
	case KEV_CPU_IDLE:
		return idle_fields(L, x, pc, ev);
	case KEV_CPU_IDLE_MISS:
		return idle_miss(L, x, pc, ev);
	case KEV_HRTIMER_START:
	case KEV_HRTIMER_CANCEL:
	case KEV_HRTIMER_EXPIRE:
		return hrtimer(L, pc, x, ev);
	case KEV_TIMER_START:
		return timer_start(L, x, pc, ev);
	case KEV_TIMER_CANCEL:
	case KEV_TIMER_EXPIRE:
		if (timer_id(L, x, "timer=", ev))
			return LEX_BAD;
		if (ev->type == KEV_TIMER_EXPIRE)
			timer_function(pc, x, ev);
		return LEX_EVENT;
	case KEV_TICK_STOP:
		v = kv(x->pay, e, "success=");
		ev->v = v &&
			((dec(v, e, 1, &u) == 0 && u == 1) || (e - v >= 3 && !memcmp(v, "yes", 3)));
		return LEX_EVENT;
	case KEV_IRQ:
		v = kv(x->pay, e, "name=");
		if (v && irq_name_is_timer(v, (size_t)(val_end(v, e) - v)))
			ev->flags |= KF_TIMER_IRQ;
		return LEX_EVENT;
	case KEV_SCHED_SWITCH:
		return sched_switch(L, x, ev);
	case KEV_SCHED_WAKEUP:
		return sched_wakeup(L, x, pc, ev);
	case KEV_IPI_RAISE:
		return ipi_raise(L, x, pc);
	default:
		return LEX_EVENT;
	}
}
