// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_scan.c - what a kernel trace is before it is converted: its format (detection from
 * the first bytes), and the first pass's bookkeeping (sim/import/import.c says what the first pass
 * learns and why): times and their order, CPUs, event groups, whether each CPU was idle
 * when the trace began, the tick rate, and the phase of the jiffy grid (the converted
 * trace's tick_phase).
 */
#include "sim/import/import_int.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const format_names[IMPORT_NR_FORMATS] = {
	"auto", "native", "ftrace", "trace-cmd", "perf", "systrace", "trace-dat",
};

const char *import_format_name(enum import_format f)
{
	return f < IMPORT_NR_FORMATS ? format_names[f] : "?";
}

int import_format_parse(const char *s, enum import_format *f)
{
	int i;

	for (i = 0; i < IMPORT_NR_FORMATS; i++) {
		if (i != IMPORT_NATIVE && !strcmp(s, format_names[i])) {
			*f = (enum import_format)i;
			return 0;
		}
	}
	return -1;
}

/* ---- pass 1 bookkeeping ---- */

static const int hz_candidates[HZ_CANDIDATES] = {100, 200, 250, 300, 500, 1000};

int scan_init(struct scan *s)
{
	memset(s, 0, sizeof(*s));
	s->max_cpu = -1;
	s->cpu = sim_calloc(TRACE_MAX_CPUS, sizeof(*s->cpu));
	return s->cpu ? 0 : -1;
}

void scan_release(struct scan *s)
{
	sim_free(s->cpu);
	s->cpu = NULL;
}

void scan_prologue(struct scan *s, int cpu, enum kev_type type, int64_t v)
{
	struct scan_cpu *c = &s->cpu[cpu];

	if (type == KEV_SCHED_SWITCH) {
		c->saw_switch = true;
	} else if (type == KEV_CPU_IDLE && v >= -1) {
		if (!c->saw_idle && v == -1 && !c->saw_switch)
			c->starts_idle = true;
		c->saw_idle = true;
	}
}

void scan_reorder(struct scan *s)
{
	int i;

	for (i = 0; i <= s->max_cpu; i++) {
		struct scan_cpu *c = &s->cpu[i];

		c->saw_idle = c->saw_switch = c->starts_idle = false;
	}
}

void scan_note(struct scan *s, int cpu, int64_t t, enum kev_type type, int64_t v)
{
	s->events++;
	if (!s->any) {
		s->first_ns = s->max_ns = t;
		s->any = true;
	}
	if (t < s->max_ns) {
		s->backwards++;
		s->backwards_cpu[cpu / 64] |= 1ULL << (cpu % 64);
	}
	s->first_ns = sim_min64(s->first_ns, t);
	s->max_ns = sim_max64(s->max_ns, t);
	s->last_ns = t;
	if (cpu > s->max_cpu)
		s->max_cpu = cpu;
	s->has[type] = true;
	s->cpu[cpu].has_events = true;
	scan_prologue(s, cpu, type, v);
}

/* Consecutive expiries of a CPU's tick hrtimer are one tick apart while the tick runs. */
void scan_note_tick(struct scan *s, int cpu, int64_t expires)
{
	struct scan_cpu *c = &s->cpu[cpu];
	int64_t d = expires - c->tick_expires;
	int k;

	if (s->events > HZ_SAMPLE_EVENTS)
		return;
	if (c->tick_expires > 0 && d > 0)
		for (k = 0; k < HZ_CANDIDATES; k++) {
			int64_t p = (SIM_NS_PER_S + hz_candidates[k] / 2) / hz_candidates[k];

			if (d >= p - p / 1000 && d <= p + p / 1000)
				s->hz_votes[k]++;
		}
	c->tick_expires = expires;
	if (s->ntick_start < TICK_PHASE_SAMPLES)
		s->tick_start[s->ntick_start++] = (struct tick_sample){expires, cpu};
}

/* The tick's expiry: its now= (a little after the edge) and the clock offset time - now. */
void scan_note_tick_expiry(struct scan *s, int cpu, int64_t t, int64_t now)
{
	if (s->events > HZ_SAMPLE_EVENTS || now < 0)
		return;
	if (s->ntick_now < TICK_PHASE_SAMPLES)
		s->tick_now[s->ntick_now++] = (struct tick_sample){now, cpu};
	if (s->ntick_offset < TICK_PHASE_SAMPLES)
		s->tick_offset[s->ntick_offset++] = t - now;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The jiffy grid's phase: each expiry votes for its time modulo TICK_NSEC, the hrtimer_start
 * expires if there are any (exactly on the grid), else the expire_entry now; the most common
 * wins, a tie going to the phase of the lowest CPU, then to the earliest expiry (with
 * skew_tick=1 each CPU's tick has a phase of its own). The hrtimer clock becomes trace time as
 * the reconstruction moves hrtimer expiries (hr_to_trace): plus time - now of the tick's
 * expiries, here their lower median, 0 if none was recorded. Reduced into [0, TICK_NSEC).
 */
void scan_tick_phase(const struct scan *s, int64_t tick_ns, struct tick_phase *out)
{
	const struct tick_sample *v = s->ntick_start ? s->tick_start : s->tick_now;
	int n = s->ntick_start ? s->ntick_start : s->ntick_now;
	int64_t off[TICK_PHASE_SAMPLES], best_p = 0;
	int i, j, best_n = 0, best_cpu = 0;

	memset(out, 0, sizeof(*out));
	if (!n) {
		out->from = "no tick expiry recorded";
		return;
	}
	if (tick_ns <= 0) {
		out->from = "HZ unknown";
		return;
	}
	for (i = 0; i < n; i++) {
		int64_t p = sim_floor_mod64(v[i].at_ns, tick_ns);
		int k = 0, cpu = v[i].cpu;

		for (j = 0; j < n; j++)
			if (sim_floor_mod64(v[j].at_ns, tick_ns) == p) {
				k++;
				cpu = v[j].cpu < cpu ? v[j].cpu : cpu;
			}
		if (k > best_n || (k == best_n && cpu < best_cpu)) {
			best_n = k;
			best_cpu = cpu;
			best_p = p;
		}
	}
	if (s->ntick_offset) {
		memcpy(off, s->tick_offset, (size_t)s->ntick_offset * sizeof(*off));
		qsort(off, (size_t)s->ntick_offset, sizeof(*off), cmp_i64);
		out->offset_ns = off[(s->ntick_offset - 1) / 2];
		out->offset_measured = true;
	}
	out->set = true;
	out->ns = sim_floor_mod64(best_p + sim_floor_mod64(out->offset_ns, tick_ns), tick_ns);
	out->from = s->ntick_start ? "hrtimer_start expires" : "hrtimer_expire_entry now";
	out->votes = n;
	out->agree = best_n;
}

int scan_hz(const struct scan *s)
{
	int k, best = -1;

	for (k = 0; k < HZ_CANDIDATES; k++)
		if (s->hz_votes[k] && (best < 0 || s->hz_votes[k] > s->hz_votes[best]))
			best = k;
	return best < 0 ? 0 : hz_candidates[best];
}

/* ---- detection ---- */

static bool has_ci(const char *p, size_t n, const char *needle)
{
	size_t k = strlen(needle), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++) {
			char c = p[i + j];

			if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != needle[j])
				break;
		}
		if (j == k)
			return true;
	}
	return false;
}

enum import_format import_sniff(const char *buf, size_t n, bool *event)
{
	struct lexer L = {.fmt = IMPORT_AUTO};
	const char *p = buf, *e = buf + n;
	enum import_format f = IMPORT_AUTO;
	struct lexed x;

	*event = false;

	/*
	 * trace.dat's magic; or a file cut inside it (3 bytes at least: the binary ones and a
	 * letter); or half of it right, the other damaged (reported as such by dat_check).
	 */
	if (n >= 3 && !memcmp(buf, "\x17\x08\x44tracing", n < 10 ? n : 10))
		return IMPORT_TRACE_DAT;
	if (n >= 10 && (!memcmp(buf, "\x17\x08\x44", 3) || !memcmp(buf + 3, "tracing", 7)))
		return IMPORT_TRACE_DAT;
	if (n && (unsigned char)buf[0] == (unsigned char)TRACE_BIN_MAGIC[0])
		return IMPORT_NATIVE; /* the binary form, or what its reader will call damaged */
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if ((size_t)(e - p) >= 13 && (!memcmp(p, "idlesim-trace", 13)))
		return IMPORT_NATIVE;
	if (p < e && *p == '{')
		return IMPORT_NATIVE;
	if (has_ci(buf, n < 4096 ? n : 4096, "<html") ||
	    has_ci(buf, n < 4096 ? n : 4096, "<!doctype"))
		return IMPORT_SYSTRACE;
	for (p = buf; p < e;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t len;
		int r;

		if (!nl)
			break; /* only whole lines */
		len = (size_t)(nl - p);
		if (len && p[len - 1] == '\r')
			len--;
		r = lex_line(&L, p, len, &x);
		p = nl + 1;
		if (f == IMPORT_AUTO && L.tracecmd_header)
			f = IMPORT_TRACE_CMD;
		if (f == IMPORT_AUTO && L.ftrace_header)
			f = IMPORT_FTRACE;
		if (f == IMPORT_AUTO && L.perf_header)
			f = IMPORT_PERF;
		if (r != LEX_EVENT)
			continue;
		*event = true;
		if (f != IMPORT_AUTO)
			return f;
		if (x.sys_name || x.period)
			return IMPORT_PERF;
		return x.padded || !x.flags || x.frac_digits == 9 ? IMPORT_TRACE_CMD
								  : IMPORT_FTRACE;
	}
	return f;
}

ssize_t import_read_prefix(int fd, char *buf, size_t n, off_t at)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = at < 0 ? read(fd, buf + got, n - got)
				   : pread(fd, buf + got, n - got, at + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

enum import_format import_probe(const char *path)
{
	char *buf;
	ssize_t n;
	int fd;
	enum import_format f = IMPORT_AUTO;

	if (!strcmp(path, "-"))
		return IMPORT_AUTO;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return IMPORT_AUTO;
	buf = sim_malloc(IMPORT_SNIFF_BYTES);
	if (buf && (n = import_read_prefix(fd, buf, IMPORT_SNIFF_BYTES, -1)) > 0) {
		bool event;

		f = import_sniff(buf, (size_t)n, &event);
		/* text with no event line yet: let the native reader say what it is not */
		if (!event && (f == IMPORT_FTRACE || f == IMPORT_TRACE_CMD || f == IMPORT_PERF))
			f = IMPORT_AUTO;
	}
	sim_free(buf);
	close(fd);
	return f;
}
