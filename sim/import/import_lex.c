// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_lex.c - the text side of the importer: lines, event names, and the line lexer.
 *
 * Lines. A text trace is read with read(2) into one buffer of 256 KiB (grown up to 1.25 MiB
 * when a line does not fit); lines are cut out in place with memchr and the unread tail moves
 * to the front before each refill. A line may be up to IMP_MAX_LINE long; a longer one is skipped
 * (and reported, except in the HTML around a systrace's data, where minified scripts are
 * legitimately long). For HTML, only the lines of <script class="trace-data"> blocks whose text is
 * not JSON are returned, with the HTML file's line numbers.
 *
 * Event lines. Every text dialect puts the same things before the payload:
 *
 *   ftrace       TASK-PID [(TGID)] [CPU] [FLAGS] SECONDS.FRACTION: EVENT: PAYLOAD
 *   trace-cmd    the same, FLAGS optional, EVENT padded with blanks, ns or us timestamps
 *   perf script  COMM PID [CPU] SECONDS.FRACTION: SYSTEM:EVENT: PAYLOAD
 *   latency      TASK-PID CPUFLAGS SECONDS.FRACTION: EVENT: ... (trace-cmd report -l), or
 *                TASK-PID CPUFLAGS NNNus[MARK]: EVENT: ... (the kernel's latency-format)
 *
 * The task name may hold blanks, brackets and dashes, so nothing is found by column: the
 * lexer looks for the first "[digits]" preceded by a blank and followed by a valid tail
 * (optional flags, a timestamp ending in ':', an event name ending in ':'), trying the next
 * bracket when the tail does not fit; without one it tries the latency layout. Each byte is
 * looked at about once; there is no sscanf, strtol or allocation on this path.
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define READ_CHUNK (256 * 1024)

/* ---- small helpers ---- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Blanks (space, tab) from p; eight spaces at a time, for the padded columns of traces. */
static inline const char *skip_blanks(const char *p, const char *e)
{
	uint64_t w;

	while (e - p >= 8) {
		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ULL; /* the spaces now zero bytes */
		if (w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			p += __builtin_ctzll(w) >> 3; /* the first other byte */
			if (*p != '\t')
				return p;
#endif
			break;
		}
		p += 8;
	}
	while (p < e && is_blank(*p))
		p++;
	return p;
}

static const char *token_end(const char *p, const char *e)
{
	while (p < e && !is_blank(*p))
		p++;
	return p;
}

static bool starts(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(e - p) >= n && !memcmp(p, s, n);
}

/* The first occurrence of needle in [p, e), or NULL. */
static const char *find(const char *p, const char *e, const char *needle)
{
	size_t n = strlen(needle);

	while ((size_t)(e - p) >= n) {
		const char *q = memchr(p, needle[0], (size_t)(e - p) - n + 1);

		if (!q)
			return NULL;
		if (!memcmp(q, needle, n))
			return q;
		p = q + 1;
	}
	return NULL;
}

int lex_col(const char *line, const char *p)
{
	int col = 1;

	for (; line < p; line++)
		if (((unsigned char)*line & 0xc0) != 0x80 && col < 1000000)
			col++;
	return col;
}

int lex_bad(struct lexer *L, const char *line, const char *at, const char *fmt, ...)
{
	va_list ap;

	L->bad_col = lex_col(line, at);
	va_start(ap, fmt);
	vsnprintf(L->bad_msg, sizeof(L->bad_msg), fmt, ap);
	va_end(ap);
	return LEX_BAD;
}

/* ---- event names ---- */

static const struct {
	const char *name;
	enum kev_type type;
} used_events[] = {
	{"cpu_idle", KEV_CPU_IDLE},
	{"cpu_idle_miss", KEV_CPU_IDLE_MISS},
	{"hrtimer_start", KEV_HRTIMER_START},
	{"hrtimer_cancel", KEV_HRTIMER_CANCEL},
	{"hrtimer_expire_entry", KEV_HRTIMER_EXPIRE},
	{"timer_start", KEV_TIMER_START},
	{"timer_cancel", KEV_TIMER_CANCEL},
	{"timer_expire_entry", KEV_TIMER_EXPIRE},
	{"tick_stop", KEV_TICK_STOP},
	{"irq_handler_entry", KEV_IRQ},
	{"softirq_entry", KEV_SOFTIRQ},
	{"local_timer_entry", KEV_TIMER_IRQ},
	{"ipi_entry", KEV_IPI_ENTRY},
	{"reschedule_entry", KEV_IPI_ENTRY},
	{"call_function_entry", KEV_IPI_ENTRY},
	{"call_function_single_entry", KEV_IPI_ENTRY},
	{"ipi_raise", KEV_IPI_RAISE},
	{"ipi_send_cpu", KEV_IPI_RAISE},
	{"ipi_send_cpumask", KEV_IPI_RAISE},
	{"sched_switch", KEV_SCHED_SWITCH},
	{"sched_wakeup", KEV_SCHED_WAKEUP},
	{"sched_wakeup_new", KEV_SCHED_WAKEUP},
};

/* Length, first and last four bytes: names differ there (memcmp confirms a match). */
static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t a = 0, b = 0;
	uint64_t h;
	size_t i;

	if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
	} else {
		for (i = 0; i < n; i++)
			a = a << 8 | (unsigned char)s[i];
	}
	h = (((uint64_t)a << 32 | b) ^ n) * 0x9E3779B97F4A7C15ULL;
	return (uint32_t)(h >> 32) | 1; /* never 0 */
}

static bool name_valid(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!is_digit(c) && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    c != '_' && c != '-' && c != '.')
			return false;
	}
	return n > 0;
}

static enum kev_type name_type(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < SIM_ARRAY_SIZE(used_events); i++)
		if (strlen(used_events[i].name) == n && !memcmp(used_events[i].name, s, n))
			return used_events[i].type;
	return KEV_OTHER;
}

int names_init(struct name_table *t)
{
	memset(t, 0, sizeof(*t));
	t->cap = 64;
	t->e = sim_calloc(t->cap, sizeof(*t->e));
	snprintf(t->other.name, sizeof(t->other.name), "(other names)");
	t->other.len = (uint8_t)strlen(t->other.name);
	return t->e ? 0 : -1;
}

void names_release(struct name_table *t)
{
	sim_free(t->e);
	t->e = NULL;
}

static inline uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/* The n bytes at a and b equal: names of 8 to 24 bytes in two or three overlapping loads
 * (a call of memcmp costs more than the comparison). */
static inline bool name_eq(const char *a, const char *b, size_t n)
{
	if (n < 8 || n > 24)
		return !memcmp(a, b, n);
	return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8) &&
	       (n <= 16 || load8(a + 8) == load8(b + 8));
}

static struct name_entry *names_slot(struct name_entry *e, uint32_t cap, uint32_t h, const char *s,
				     size_t n)
{
	uint32_t i = h & (cap - 1);

	while (e[i].len && (e[i].hash != h || e[i].len != n || !name_eq(e[i].name, s, n)))
		i = (i + 1) & (cap - 1);
	return &e[i];
}

struct name_entry *names_lookup(struct name_table *t, const char *s, size_t n)
{
	uint32_t h = name_hash(s, n), i;
	struct name_entry *slot = names_slot(t->e, t->cap, h, s, n);

	if (slot->len)
		return slot;
	if (!name_valid(s, n) || n > IMP_NAME_MAX)
		return &t->invalid;
	if (t->n >= IMP_MAX_NAMES)
		return &t->other;
	if (2 * (t->n + 1) > t->cap) {
		uint32_t cap = 2 * t->cap;
		struct name_entry *e = sim_calloc(cap, sizeof(*e));

		if (!e)
			return NULL;
		for (i = 0; i < t->cap; i++)
			if (t->e[i].len)
				*names_slot(e, cap, t->e[i].hash, t->e[i].name, t->e[i].len) =
					t->e[i];
		sim_free(t->e);
		t->e = e;
		t->cap = cap;
		slot = names_slot(t->e, t->cap, h, s, n);
	}
	slot->hash = h;
	slot->len = (uint8_t)n;
	memcpy(slot->name, s, n);
	slot->name[n] = '\0';
	slot->type = (uint8_t)name_type(s, n);
	slot->count = 0;
	t->n++;
	return slot;
}

/* ---- the line source ---- */

int linesrc_init(struct linesrc *ls, int fd, bool html)
{
	memset(ls, 0, sizeof(*ls));
	ls->fd = fd;
	ls->html = html;
	ls->cap = READ_CHUNK; /* grows (up to IMP_MAX_LINE + READ_CHUNK) for long lines */
	ls->buf = sim_malloc(ls->cap);
	return ls->buf ? 0 : -1;
}

void linesrc_release(struct linesrc *ls)
{
	sim_free(ls->buf);
	ls->buf = NULL;
}

int linesrc_rewind(struct linesrc *ls)
{
	if (lseek(ls->fd, 0, SEEK_SET) < 0)
		return -1;
	ls->len = ls->pos = 0;
	ls->eof = false;
	ls->lineno = 0;
	ls->block = 0;
	ls->blocks = 0;
	return 0;
}

/* Move the unread tail to the front and read more. Returns -1 on a read error. */
static int fill(struct linesrc *ls)
{
	ssize_t n;

	if (ls->pos) {
		memmove(ls->buf, ls->buf + ls->pos, ls->len - ls->pos);
		ls->len -= ls->pos;
		ls->pos = 0;
	}
	do
		n = read(ls->fd, ls->buf + ls->len, ls->cap - ls->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		ls->eof = true;
	ls->len += (size_t)n;
	return 0;
}

/* A raw line: 1, 0 at the end, -1 read error, -2 too long (skipped). */
static int raw_line(struct linesrc *ls, const char **line, size_t *len)
{
	bool too_long = false;

	for (;;) {
		char *s = ls->buf + ls->pos;
		size_t avail = ls->len - ls->pos, n;
		char *nl = avail ? memchr(s, '\n', avail) : NULL;

		if (!nl && !(ls->eof && avail)) {
			if (ls->eof)
				return 0;
			if (avail > IMP_MAX_LINE) { /* a line of IMP_MAX_LINE is not too long */
				too_long = true; /* drop what we have; keep reading to its end */
				ls->pos = ls->len;
			} else if (avail == ls->cap) { /* a long line fills the buffer: grow it */
				size_t cap = ls->cap * 2 < IMP_MAX_LINE + READ_CHUNK
						     ? ls->cap * 2
						     : IMP_MAX_LINE + READ_CHUNK;
				char *b = sim_realloc(ls->buf, cap);

				if (!b)
					return -3;
				ls->buf = b;
				ls->cap = cap;
			}
			if (fill(ls))
				return -1;
			continue;
		}
		n = nl ? (size_t)(nl - s) : avail;
		ls->pos += n + (nl != NULL);
		ls->lineno++;
		if (too_long || n > IMP_MAX_LINE)
			return -2;
		if (n && s[n - 1] == '\r')
			n--;
		*line = s;
		*len = n;
		return 1;
	}
}

static bool blank_text(const char *p, const char *e)
{
	while (p < e && (is_blank(*p) || *p == '\r'))
		p++;
	return p == e;
}

int linesrc_next(struct linesrc *ls, const char **line, size_t *len)
{
	for (;;) {
		const char *s, *e, *q;
		size_t n;
		int rc = raw_line(ls, &s, &n);

		if (rc == -2 && ls->html && ls->block != 2)
			continue; /* a long line of HTML or JSON: not ours */
		if (rc <= 0)
			return rc;
		if (!ls->html) {
			*line = s;
			*len = n;
			return 1;
		}
		e = s + n;
		if (ls->block == 0) {
			q = find(s, e, "<script");
			if (!q)
				continue;
			s = memchr(q, '>', (size_t)(e - q));
			if (!s || !find(q, s, "trace-data"))
				continue;
			s++;
			ls->block = 1;
		}
		q = find(s, e, "</script>");
		if (ls->block == 1) {
			const char *t = s;

			while (t < (q ? q : e) && (is_blank(*t) || *t == '\r'))
				t++;
			if (t < (q ? q : e))
				ls->block = (*t == '{' || *t == '[') ? 3 : 2;
			if (ls->block == 2)
				ls->blocks++;
		}
		if (q) {
			int was = ls->block;

			ls->block = 0;
			if (was != 2 || blank_text(s, q))
				continue;
			e = q;
		} else if (ls->block != 2) {
			continue;
		}
		*line = s;
		*len = (size_t)(e - s);
		return 1;
	}
}

/* ---- timestamps ---- */

/*
 * SECONDS.FRACTION: at p, the ':' ending the token (followed by a blank or the end). Up to 9
 * decimals. Returns 1 with *ns and *after (past the ':'), 0 if p holds no timestamp, -1 if it
 * looks like one but cannot be (too many decimals, no fraction, overflow): *why says which.
 */
static inline int parse_ts(const char *p, const char *e, int64_t *ns, int *frac, const char **why,
			   const char **after)
{
	int64_t s = 0, f = 0;
	const char *q = p;
	int nf = 0;

	if (q == e || !is_digit(*q))
		return 0;
	for (; q < e && is_digit(*q); q++) {
		if (s > INT64_MAX / SIM_NS_PER_S) {
			*why = "timestamp too large";
			return -1;
		}
		s = s * 10 + (*q - '0');
	}
	if (q == e)
		return 0;
	if (*q == ':') {
		if (q + 1 < e && !is_blank(q[1]))
			return 0;
		*why = "timestamp without a fraction: counter trace clocks (x86-tsc, counter) are "
		       "not "
		       "supported, record with the default local clock";
		return -1;
	}
	if (*q != '.')
		return 0;
	for (q++; q < e && is_digit(*q); q++, nf++) {
		if (nf == 9) {
			*why = "timestamp with more than 9 decimals";
			return -1;
		}
		f = f * 10 + (*q - '0');
	}
	if (!nf || q == e || *q != ':' || (q + 1 < e && !is_blank(q[1])))
		return 0;
	if (s > INT64_MAX / SIM_NS_PER_S - 1) {
		*why = "timestamp too large";
		return -1;
	}
	for (*frac = nf; nf < 9; nf++)
		f *= 10;
	*ns = s * SIM_NS_PER_S + f;
	/* below SIM_TIME_MAX_NS: the converted trace ends 1 ns after its last event */
	if (*ns >= SIM_TIME_MAX_NS) {
		*why = "timestamp beyond 2^62 ns (4611686018.427387904 s), the latest time a "
		       "trace may name";
		return -1;
	}
	*after = q + 1;
	return 1;
}

/* ---- event lines ---- */

/* perf's event modifiers (u, k, pp, ...: tools/perf/Documentation/perf-list.txt) */
static bool perf_modifiers(const char *p, const char *e)
{
	for (; p < e; p++)
		if (!*p || !strchr("ukhIGHpPSDWeb", *p))
			return false;
	return true;
}

/* The name [n0, q) and the payload after its ':' and blanks; the line is an event. */
static int name_found(struct lexed *x, const char *n0, const char *q, const char *e)
{
	const char *t = skip_blanks(q + 1, e);

	x->name = n0;
	x->name_len = (size_t)(q - n0);
	x->padded = t - q >= 3;
	x->pay = t;
	x->pay_len = (size_t)(e - t);
	return LEX_EVENT;
}

/*
 * After the timestamp: [(+N)] NAME: [PAYLOAD], NAME being "event" or (perf) "system:event".
 * The characters of a name are checked once, when the name table first sees it.
 */
static int lex_name(struct lexer *L, const char *line, const char *p, const char *e,
		    struct lexed *x)
{
	const char *q, *n0;

	p = skip_blanks(p, e);
	if (p < e && *p == '(') { /* trace-cmd --ts-diff: (+16260) */
		q = token_end(p, e);
		if (q[-1] == ')')
			p = skip_blanks(q, e);
	}
	/* perf script: the period of a sample (hardware, software, Intel PT events, or any
	 * event with -F +period) comes before its name; no other dialect has a number there */
	for (q = p; q < e && is_digit(*q); q++)
		;
	x->period = q > p && q < e && is_blank(*q);
	if (x->period)
		p = skip_blanks(q, e);
	/* perf script's side-band records (--show-task-events etc.): not events */
	if (starts(p, e, "PERF_RECORD_")) {
		L->perf_header = true;
		return LEX_SKIP;
	}
	q = memchr(p, ':', (size_t)(e - p));
	if (!q || q == p)
		return lex_bad(L, line, p,
			       "expected an event name ending in ':' after the timestamp");
	n0 = p;
	x->sys_name = false;
	if (q + 1 < e && !is_blank(q[1])) {
		n0 = q + 1;
		q = memchr(n0, ':', (size_t)(e - n0));
		if (!q || q == n0 || (q + 1 < e && !is_blank(q[1])))
			return lex_bad(L, line, p, "malformed event name");
		x->sys_name = true;
	}
	if (x->sys_name && x->period && perf_modifiers(n0, q)) {
		/* "branches:u:": a sample event with its modifiers, not SYSTEM:EVENT: */
		q = n0 - 1;
		n0 = p;
		x->sys_name = false;
	}
	if (q - n0 > IMP_NAME_MAX)
		return lex_bad(L, line, n0, "event name longer than %d characters", IMP_NAME_MAX);
	/* a sample (with its period) may have a plain name: cycles:, instructions:, cbr: */
	if (L->fmt == IMPORT_PERF && !x->sys_name && !x->period)
		return lex_bad(L, line, p, "perf script event names are SYSTEM:EVENT:");
	if (L->fmt != IMPORT_PERF && L->fmt != IMPORT_AUTO && x->sys_name)
		return lex_bad(
			L, line, p,
			"event name with a system (SYSTEM:EVENT:): this is perf script output");
	if (L->fmt != IMPORT_PERF && L->fmt != IMPORT_AUTO && x->period)
		return lex_bad(L, line, p,
			       "a sample period before the event name: this is perf script output");
	return name_found(x, n0, q, e);
}

/* After "[CPU]": [FLAGS] TIMESTAMP: NAME: PAYLOAD */
static int lex_tail(struct lexer *L, const char *line, const char *p, const char *e,
		    struct lexed *x)
{
	const char *why = NULL, *after = NULL;
	int rc;

	p = skip_blanks(p, e);
	rc = parse_ts(p, e, &x->time_ns, &x->frac_digits, &why, &after);
	x->flags = false;
	if (rc == 0) {
		if (p == e)
			return lex_bad(L, line, p, "expected a timestamp after the CPU");
		x->flags = true;
		p = skip_blanks(token_end(p, e), e);
		rc = parse_ts(p, e, &x->time_ns, &x->frac_digits, &why, &after);
	}
	if (rc < 0)
		return lex_bad(L, line, p, "%s", why);
	if (rc == 0)
		return lex_bad(L, line, p, "expected a timestamp SECONDS.FRACTION: after the CPU");
	return lex_name(L, line, after, e, x);
}

/* "CPUFLAGS" of the latency layout: digits, then flag characters. */
static int latency_cpu(const char *p, const char *e, int *cpu)
{
	int v = 0, nd = 0;

	while (p < e && is_digit(*p) && nd < 5) {
		v = v * 10 + (*p++ - '0');
		nd++;
	}
	if (!nd || p == e || is_digit(*p))
		return -1;
	for (; p < e; p++)
		if (!(*p == '.' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      is_digit(*p)))
			return -1;
	*cpu = v;
	return 0;
}

/* The kernel's latency-format time: NNNus, an optional mark, ':' (relative microseconds). */
static int latency_us(const char *p, const char *e, int64_t *ns, const char **after)
{
	int64_t v = 0;
	int nd = 0;

	while (p < e && is_digit(*p) && nd < 15) {
		v = v * 10 + (*p++ - '0');
		nd++;
	}
	if (!nd || e - p < 2 || p[0] != 'u' || p[1] != 's')
		return 0;
	p += 2;
	if (p < e && *p != ':' && !is_blank(*p))
		p++; /* the delay mark: + ! # * $ @ */
	p = skip_blanks(p, e);
	if (p < e && *p != ':')
		p = skip_blanks(p + 1, e);
	if (p == e || *p != ':')
		return 0;
	*ns = v * SIM_NS_PER_US;
	*after = p + 1;
	return 1;
}

static int lex_latency(struct lexer *L, const char *line, const char *s, const char *e,
		       struct lexed *x)
{
	const char *p = token_end(s, e); /* the first token is the task */

	for (;;) {
		const char *t = skip_blanks(p, e), *te = token_end(t, e), *u, *why, *after;
		int cpu;

		if (t == e)
			return LEX_SKIP;
		p = te;
		if (latency_cpu(t, te, &cpu))
			continue;
		u = skip_blanks(te, e);
		x->flags = true;
		x->cpu = cpu;
		x->cpu_at = t;
		if (parse_ts(u, e, &x->time_ns, &x->frac_digits, &why, &after) == 1)
			return lex_name(L, line, after, e, x);
		if (latency_us(u, e, &x->time_ns, &after)) {
			x->frac_digits = 6;
			return lex_name(L, line, after, e, x);
		}
	}
}

static int lex_event(struct lexer *L, const char *line, const char *s, const char *e,
		     struct lexed *x)
{
	const char *q = s;
	bool tried = false;
	int first_col = 0, rc;
	char first_msg[sizeof(L->bad_msg)];

	while ((q = memchr(q, '[', (size_t)(e - q)))) {
		const char *d = q + 1;
		int cpu = 0, nd = 0;

		if (q > s && is_blank(q[-1])) {
			while (d < e && is_digit(*d) && nd < 6) {
				cpu = cpu * 10 + (*d++ - '0');
				nd++;
			}
			if (nd && d < e && *d == ']' && (d + 1 == e || is_blank(d[1]))) {
				rc = lex_tail(L, line, d + 1, e, x);
				if (rc == LEX_EVENT) {
					x->cpu = cpu;
					x->cpu_at = q + 1;
					if (nd > 4 || cpu >= TRACE_MAX_CPUS)
						return lex_bad(L, line, q + 1,
							       "CPU %.*s out of range (0..%d)", nd,
							       q + 1, TRACE_MAX_CPUS - 1);
					return rc;
				}
				if (!tried) { /* keep the first bracket's complaint */
					first_col = L->bad_col;
					memcpy(first_msg, L->bad_msg, sizeof(first_msg));
				}
				tried = true;
			}
		}
		q++;
	}
	rc = lex_latency(L, line, s, e, x);
	if (rc == LEX_EVENT || (rc == LEX_BAD && !tried))
		return rc;
	if (tried) { /* "[digits]" in a latency line's payload, or a real error */
		L->bad_col = first_col;
		memcpy(L->bad_msg, first_msg, sizeof(first_msg));
		return LEX_BAD;
	}
	return lex_bad(L, line, s,
		       "not an event line: expected TASK-PID [CPU] TIMESTAMP: EVENT: FIELDS");
}

/* "#..." lines: the ftrace header (#P:N) and perf's (# nrcpus avail : N). */
static void header_comment(struct lexer *L, const char *s, const char *e)
{
	const char *q;
	int v = 0, nd = 0;

	if (starts(s, e, "# tracer:"))
		L->ftrace_header = true;
	if (starts(s, e, "# ========") || starts(s, e, "# nrcpus") || starts(s, e, "# captured on"))
		L->perf_header = true;
	if ((q = find(s, e, "#P:")))
		q += 3;
	else if ((q = find(s, e, "# nrcpus avail :")))
		q = skip_blanks(q + 16, e);
	else
		return;
	while (q < e && is_digit(*q) && nd < 6) {
		v = v * 10 + (*q++ - '0');
		nd++;
	}
	if (nd && v > 0 && v <= TRACE_MAX_CPUS && !L->declared_cpus)
		L->declared_cpus = v; /* the first count given is the count */
}

/*
 * The first byte c in [p, e), or NULL. Eight bytes at a time: the fields of a line are short,
 * and memchr's call and set-up cost more than the search.
 */
static inline const char *find_byte(const char *p, const char *e, char c)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t w;

	for (; e - p >= 8; p += 8) {
		memcpy(&w, p, 8);
		w ^= ones * (unsigned char)c;
		/* the lowest 0x80 marks the first zero byte (higher ones may be false) */
		w = (w - ones) & ~w & (ones << 7);
		if (w)
			return p + (__builtin_ctzll(w) >> 3);
	}
#endif
	for (; p < e; p++)
		if (*p == c)
			return p;
	return NULL;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* How many of the 8 bytes of w (the first in its low byte) are decimal digits before the
 * first other byte. Borrows and carries only run from a non-digit into later bytes. */
static inline int swar_digits(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t x = w - ones * '0', m = (x | (x + ones * 0x76)) & (ones << 7);

	return m ? __builtin_ctzll(m) >> 3 : 8;
}

/* The value of the first n (1..8) decimal digits of w (the SWAR reduction of pairs, then
 * quads, then the eight; the shift makes the missing ones leading zeros). */
static inline uint64_t swar_value(uint64_t w, int n)
{
	w = (w << (8 * (8 - n))) & 0x0F0F0F0F0F0F0F0FULL;
	w = (w * 2561) >> 8 & 0x00FF00FF00FF00FFULL;
	w = (w * 6553601) >> 16 & 0x0000FFFF0000FFFFULL;
	return (w * 42949672960001ULL) >> 32;
}

/*
 * SECONDS.FRACTION: as parse_ts() reads it, for at most 7 + 7 digits with room for two
 * 8-byte loads: 1, or 0 when it is not that (parse_ts() then decides). The per-byte loops
 * cost a third of a line's lexing.
 */
static inline int fast_ts(const char *p, const char *e, int64_t *ns, int *frac, const char **after)
{
	static const int32_t scale[8] = {0, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100};
	uint64_t w, sec;
	int ni, nf;

	if (e - p < 16)
		return 0;
	memcpy(&w, p, 8);
	ni = swar_digits(w);
	if (!ni || ni == 8 || p[ni] != '.')
		return 0;
	sec = swar_value(w, ni);
	p += ni + 1;
	memcpy(&w, p, 8);
	nf = swar_digits(w);
	if (!nf || nf == 8 || p[nf] != ':' || (p + nf + 1 < e && !is_blank(p[nf + 1])))
		return 0;
	/* below 10^7 s: far from SIM_TIME_MAX_NS */
	*ns = (int64_t)sec * SIM_NS_PER_S + (int64_t)swar_value(w, nf) * scale[nf];
	*frac = nf;
	*after = p + nf + 1;
	return 1;
}
#else
static inline int fast_ts(const char *p, const char *e, int64_t *ns, int *frac, const char **after)
{
	(void)p, (void)e, (void)ns, (void)frac, (void)after;
	return 0;
}
#endif

/*
 * The fast path: the common ftrace line, "COMM-PID [CPU] [FLAGS] SECONDS.FRACTION: NAME:
 * PAYLOAD". It accepts a line only when lex_line_general() would take it at its first '['
 * with the same result (the first '[' opens the CPU, the name is a plain one: no perf
 * period, system or ts-diff, and the line is none of the header lines lex_line_general()
 * looks for first); any other shape gives -1, and the general lexer decides.
 */
int lex_fast(const struct lexer *L, const char *line, size_t n, struct lexed *x)
{
	const char *e = line + n, *s = skip_blanks(line, e), *b, *d, *p, *q, *why, *after;
	int cpu = 0;

	if (s == e || *s == '#' || *s == 'C' || (*s == 'c' && starts(s, e, "cpus=")) ||
	    (*s == 'i' && starts(s, e, "instruction trace error ")) ||
	    (*s == 'v' && starts(s, e, "version = ")))
		return -1;
	b = find_byte(s, e, '[');
	if (!b || b == s || !is_blank(b[-1]))
		return -1;
	for (d = b + 1; d < e && is_digit(*d) && d - b <= 4; d++)
		cpu = cpu * 10 + (*d - '0');
	if (d == b + 1 || d == e || *d != ']' || cpu >= TRACE_MAX_CPUS ||
	    (d + 1 < e && !is_blank(d[1])))
		return -1;
	/* as lex_tail(): the timestamp, else a flags column and then the timestamp (a column
	 * starting with a digit is left to it) */
	p = skip_blanks(d + 1, e);
	x->flags = p < e && !is_digit(*p);
	if (x->flags)
		p = skip_blanks(token_end(p, e), e);
	if (!fast_ts(p, e, &x->time_ns, &x->frac_digits, &after) &&
	    parse_ts(p, e, &x->time_ns, &x->frac_digits, &why, &after) != 1)
		return -1;
	/* as lex_name(), for a plain name */
	p = skip_blanks(after, e);
	if (p == e || *p == '(' || *p == 'P' || is_digit(*p) || L->fmt == IMPORT_PERF)
		return -1;
	q = find_byte(p, e, ':');
	if (!q || q == p || q - p > IMP_NAME_MAX || (q + 1 < e && !is_blank(q[1])))
		return -1;
	x->line = line;
	x->len = n;
	x->cpu = cpu;
	x->cpu_at = b + 1;
	x->period = false;
	x->sys_name = false;
	return name_found(x, p, q, e);
}

int lex_line_general(struct lexer *L, const char *p, size_t n, struct lexed *x)
{
	const char *s = p, *e = p + n, *q;
	int v = 0, nd = 0, rc;

	s = skip_blanks(s, e);
	if (s == e)
		return LEX_SKIP;
	x->line = p;
	x->len = n;
	switch (*s) {
	case '#':
		header_comment(L, s, e);
		return LEX_SKIP;
	case 'c':
		if (!starts(s, e, "cpus="))
			break;
		for (q = s + 5; q < e && is_digit(*q) && nd < 6; q++, nd++)
			v = v * 10 + (*q - '0');
		if (!nd || v < 1 || v > TRACE_MAX_CPUS || !blank_text(q, e))
			return lex_bad(L, p, s + 5, "cpus=N: expected a CPU count (1..%d)",
				       TRACE_MAX_CPUS);
		if (!L->declared_cpus)
			L->declared_cpus = v;
		L->tracecmd_header = true;
		return LEX_SKIP;
	case 'i':
		/* perf script with Intel PT: decoder errors are printed among the samples */
		if (!starts(s, e, "instruction trace error "))
			break;
		L->perf_header = true;
		return LEX_SKIP;
	case 'v':
		if (!starts(s, e, "version = "))
			break;
		L->tracecmd_header = true;
		return LEX_SKIP;
	case 'C':
		/* trace-cmd: "CPU 3 is empty", "CPU0 data recorded at offset=..." and lost events,
		 * "CPU:2 [LOST 18 EVENTS]" (ftrace), "CPU:2 [18 EVENTS DROPPED]" (trace-cmd) */
		if (starts(s, e, "CPU:") && s + 4 < e && is_digit(s[4])) {
			for (q = s + 4; q < e && is_digit(*q) && nd < 6; q++, nd++)
				v = v * 10 + (*q - '0');
			if (q < e && is_blank(*q) &&
			    (find(q, e, "LOST") || find(q, e, "DROPPED"))) {
				if (v >= TRACE_MAX_CPUS)
					return lex_bad(L, p, s + 4, "CPU out of range (0..%d)",
						       TRACE_MAX_CPUS - 1);
				L->lost_cpu = v;
				return LEX_LOST;
			}
		} else if ((starts(s, e, "CPU ") && find(s, e, " is empty")) ||
			   (starts(s, e, "CPU") && find(s, e, " data recorded at offset"))) {
			return LEX_SKIP;
		}
		break;
	default:
		break;
	}
	rc = lex_event(L, p, s, e, x);
	/* perf script's side-band records without a CPU column: not events */
	if (rc == LEX_BAD && find(s, e, "PERF_RECORD_")) {
		L->perf_header = true;
		return LEX_SKIP;
	}
	return rc;
}

int lex_line(struct lexer *L, const char *p, size_t n, struct lexed *x)
{
	if (lex_fast(L, p, n, x) == LEX_EVENT)
		return LEX_EVENT;
	return lex_line_general(L, p, n, x);
}
