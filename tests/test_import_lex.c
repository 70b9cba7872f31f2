// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_import_lex.c - the line lexer's fast path (lex_fast, sim/import/import_lex.c) against
 * the general lexer (lex_line_general): the common ftrace line is taken by the fast path,
 * every other shape falls back, and lex_line() gives what the general lexer gives, field by
 * field, error by error; the payloads of what it takes parse to the same events
 * (lex_payload, with cpu_idle's own fast layout).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sim/import/import_int.h"

/* Lines the fast path takes (gen_ftrace.py's, the kernel's, trace-cmd report's). */
static const char *const common[] = {
	"          <idle>-0       [002] d..1.  1000.000022: cpu_idle: state=0 cpu_id=2",
	"          <idle>-0       [002] d..1.  1000.000038: cpu_idle: state=4294967295 cpu_id=2",
	"          <idle>-0       [001] d.h1.  1000.000054: ipi_entry: (Rescheduling interrupts)",
	"          <idle>-0       [003] d.h1. 1000.013339: irq_handler_entry: irq=34 name=eth0",
	"          <idle>-0       [000] d.h1. 1000.013339: irq_handler_entry: irq=17 "
	"name=timer-tick",
	"     kworker/3:1-140     [003] ..... 52.123456: timer_start: timer=00000000a1b2c3d4 "
	"function=delayed_work_timer_fn expires=4294938250 [timeout=250] cpu=3 idx=0 flags=",
	"            bash-1234    [000] dN.2.     7.5: sched_wakeup: comm=foo pid=9 prio=120 "
	"target_cpu=001",
	"          <idle>-0     [001]  100.000100: cpu_idle:             state=1 cpu_id=1",
	"          <idle>-0     [001]  100.000100: cpu_idle: state=1 cpu_id=1",
	"  <idle>-0 [4095] d..1. 1.000000001: cpu_idle: state=2 cpu_id=4095",
	"x-1 [0] 0.1: foo:",
	"x-1 [0] d 0.1: foo: ",
	"          <idle>-0       [002] d..1.  1234567.1234567: cpu_idle: state=0 cpu_id=2",
};

/*
 * Shapes around the common one: lines the fast path must leave to the general lexer (false),
 * some of them malformed, and odd ones it takes, its timestamp falling back to parse_ts()
 * where the digits do not fit its loads (true). Either way lex_line() == lex_line_general().
 */
static const struct {
	const char *line;
	bool fast;
} unusual[] = {
	/* task names with blanks, brackets, dashes; header-like first words */
	{" rs:main Q:Reg-238   [000] .....13   1.000100: cpu_idle:  state=1 cpu_id=0", true},
	{"a [1] b-12 (-----) [000] d..1   1.000200: cpu_idle: state=4294967295 cpu_id=0", false},
	{"kworker/u8:[3]-77 [001] d..1. 1000.1: cpu_idle: state=1 cpu_id=1", false},
	{"my comm-with-dash-12 [001] d..1. 1000.1: cpu_idle: state=1 cpu_id=1", true},
	{"cpus=x-5 [001] d..1. 1000.1: cpu_idle: state=1 cpu_id=1", false},
	{"cpus=2", false},
	{"version = 6", false},
	{"instruction trace error type 1", false},
	{"CPU-1 [001] d..1. 1000.1: cpu_idle: state=1 cpu_id=1", false},
	{"CPU:2 [LOST 18 EVENTS]", false},
	{"CPU 3 is empty", false},
	{"# tracer: nop", false},
	{"#P:8 [001] 1.0: x:", false},
	/* odd whitespace, CRLF, missing fields */
	{"\t<idle>-0\t[001]\td..1.\t1000.000001:\tcpu_idle:\tstate=1\tcpu_id=1", true},
	{"          <idle>-0       [002] d..1.  1000.000022: cpu_idle: state=0 cpu_id=2\r", true},
	{"          <idle>-0       [002]d..1.  1000.000022: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000.000022:cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000.000022: cpu_idle:state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000.000022: cpu_idle:", true},
	{"          <idle>-0       [002] d..1.  1000.000022: cpu_idle", false},
	{"          <idle>-0       [002] d..1.  1000.000022:", false},
	{"          <idle>-0       [002] d..1.  1000.000022", false},
	{"          <idle>-0       [002] d..1.", false},
	{"          <idle>-0       [002]", false},
	{"          <idle>-0       [] d..1.  1000.000022: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [0x] d..1.  1000.000022: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [12345] d..1.  1000.000022: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [4096] d..1.  1000.000022: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] 1..1.  1000.000022: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000,000022: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000.: cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000.000022:x cpu_idle: state=0 cpu_id=2", false},
	/* huge and long numbers */
	{"          <idle>-0       [002] d..1.  99999999999999999999.000022: cpu_idle: state=0 "
	 "cpu_id=2",
	 false},
	{"          <idle>-0       [002] d..1.  4611686018.427387904: cpu_idle: state=0 cpu_id=2",
	 false},
	{"          <idle>-0       [002] d..1.  4611686017.000000001: cpu_idle: state=0 cpu_id=2",
	 true},
	{"          <idle>-0       [002] d..1.  12345678.000022: cpu_idle: state=0 cpu_id=2", true},
	{"          <idle>-0       [002] d..1.  1000.0000000001: cpu_idle: state=0 cpu_id=2",
	 false},
	{"          <idle>-0       [002] d..1.  1000.00000001: cpu_idle: state=0 cpu_id=2", true},
	{"          <idle>-0       [002] d..1.  1000.000022: cpu_idle: "
	 "state=18446744073709551616 cpu_id=2",
	 true},
	/* names: a period, a system, a ts-diff, perf's side band, too long, with a blank */
	{"          <idle>-0       [002] d..1.  1000.000022: 12 cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000.000022: power:cpu_idle: state=0 cpu_id=2",
	 false},
	{"          <idle>-0       [002]   1000.000022: (+100) cpu_idle: state=0 cpu_id=2", false},
	{"          <idle>-0       [002] d..1.  1000.000022: PERF_RECORD_X: state=0 cpu_id=2",
	 false},
	{"          <idle>-0       [002] d..1.  1000.000022: "
	 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx: y",
	 false},
	{"          <idle>-0       [002] d..1.  1000.000022: cpu idle: state=0 cpu_id=2", true},
	/* the latency layouts */
	{"  <idle>-0       2d..1  100.000100: cpu_idle: state=1 cpu_id=2", false},
	{"  <idle>-0       2d..1  120us : cpu_idle: state=1 cpu_id=2", false},
	{"", false},
	{"   \t  ", false},
};

/* cpu_idle payloads, the kernel's layout and others: LEX_EVENT with the state (-1: the exit),
 * or LEX_BAD, found the same way whichever way the keys are found; where an error is given,
 * its column and message as the importer gave them before the fast layout. */
static const struct {
	const char *pay;
	int rc, v, col;
	const char *msg;
} idle_payloads[] = {
	{"state=2 cpu_id=1", LEX_EVENT, 2, 0, NULL},
	{"cpu_id=1 state=2", LEX_EVENT, 2, 0, NULL},
	{"state=2  cpu_id=1", LEX_EVENT, 2, 0, NULL},
	{"state=2\tcpu_id=1", LEX_EVENT, 2, 0, NULL},
	{"state=2 cpu_id=1 x", LEX_EVENT, 2, 0, NULL},
	{"state=2 cpu_id=1 cpu_id=5", LEX_EVENT, 2, 0, NULL},
	{"state=4294967295 cpu_id=1", LEX_EVENT, -1, 0, NULL},
	{"state=2] cpu_id=1", LEX_EVENT, 2, 0, NULL},
	{"state=2 cpu_id=3", LEX_BAD, 0, 59,
	 "cpu_idle: cpu_id=3 but the event was recorded on CPU 1"},
	{"state=2 cpu_id=x", LEX_BAD, 0, 59, "cpu_idle: malformed cpu_id= value"},
	{"state=2 cpu_id=", LEX_BAD, 0, 59, "cpu_idle: malformed cpu_id= value"},
	{"state=2 cpu_id=99", LEX_BAD, 0, 59,
	 "cpu_idle: CPU 99 out of range (the trace has 8 CPUs)"},
	{"state=2 cpu_id=99999999999", LEX_BAD, 0, 59, "cpu_idle: malformed cpu_id= value"},
	{"state= cpu_id=1", LEX_BAD, 0, 50, "cpu_idle: state= is not an idle state index"},
	{"state=x cpu_id=1", LEX_BAD, 0, 50, "cpu_idle: state= is not an idle state index"},
	{"state=2 xcpu_id=1", LEX_BAD, 0, 44, "cpu_idle: no cpu_id= field"},
	{"state=2", LEX_BAD, 0, 44, "cpu_idle: no cpu_id= field"},
	{"state=", LEX_BAD, 0, 50, "cpu_idle: state= is not an idle state index"},
	{"cpu_id=1", LEX_BAD, 0, 44, "cpu_idle: no state= field"},
	{"state=99999 cpu_id=1", LEX_BAD, 0, 50, "cpu_idle: state= is not an idle state index"},
};

struct lexing {
	int rc;
	struct lexed x;
	struct lexer L;
};

static void lex_both(const char *line, enum import_format fmt, struct lexing *a, struct lexing *b)
{
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	a->L.fmt = b->L.fmt = fmt;
	a->rc = lex_line(&a->L, line, strlen(line), &a->x);
	b->rc = lex_line_general(&b->L, line, strlen(line), &b->x);
}

/* lex_line() and lex_line_general() agree on `line`, every field the importer reads. */
static void assert_same(const char *line, const struct lexing *a, const struct lexing *b)
{
	if (a->rc != b->rc)
		fail_msg("%s: rc %d, general %d", line, a->rc, b->rc);
	assert_int_equal(a->L.declared_cpus, b->L.declared_cpus);
	assert_int_equal(a->L.perf_header, b->L.perf_header);
	assert_int_equal(a->L.ftrace_header, b->L.ftrace_header);
	assert_int_equal(a->L.tracecmd_header, b->L.tracecmd_header);
	if (a->rc == LEX_BAD) {
		assert_int_equal(a->L.bad_col, b->L.bad_col);
		assert_string_equal(a->L.bad_msg, b->L.bad_msg);
	}
	if (a->rc == LEX_LOST)
		assert_int_equal(a->L.lost_cpu, b->L.lost_cpu);
	if (a->rc != LEX_EVENT)
		return;
	assert_ptr_equal(a->x.line, b->x.line);
	assert_int_equal(a->x.len, b->x.len);
	assert_int_equal(a->x.cpu, b->x.cpu);
	assert_ptr_equal(a->x.cpu_at, b->x.cpu_at);
	assert_int_equal(a->x.time_ns, b->x.time_ns);
	assert_int_equal(a->x.frac_digits, b->x.frac_digits);
	assert_ptr_equal(a->x.name, b->x.name);
	assert_int_equal(a->x.name_len, b->x.name_len);
	assert_ptr_equal(a->x.pay, b->x.pay);
	assert_int_equal(a->x.pay_len, b->x.pay_len);
	assert_int_equal(a->x.sys_name, b->x.sys_name);
	assert_int_equal(a->x.period, b->x.period);
	assert_int_equal(a->x.padded, b->x.padded);
	assert_int_equal(a->x.flags, b->x.flags);
}

static void test_common_lines(void **state)
{
	struct lexing a, b;
	struct lexed x;
	struct lexer L = {.fmt = IMPORT_FTRACE};
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(common); i++) {
		if (lex_fast(&L, common[i], strlen(common[i]), &x) != LEX_EVENT)
			fail_msg("not taken by the fast path: %s", common[i]);
		lex_both(common[i], IMPORT_FTRACE, &a, &b);
		assert_int_equal(b.rc, LEX_EVENT);
		assert_same(common[i], &a, &b);
		lex_both(common[i], IMPORT_AUTO, &a, &b);
		assert_same(common[i], &a, &b);
	}
	/* the values themselves, the fast timestamp's included */
	lex_both(common[0], IMPORT_FTRACE, &a, &b);
	assert_int_equal(a.x.time_ns, 1000000022000LL);
	assert_int_equal(a.x.cpu, 2);
	assert_int_equal(a.x.name_len, 8);
	lex_both(common[12], IMPORT_FTRACE, &a, &b);
	assert_int_equal(a.x.time_ns, 1234567123456700LL);
	assert_int_equal(a.x.frac_digits, 7);
}

static void test_unusual_lines(void **state)
{
	static const enum import_format fmts[] = {IMPORT_AUTO, IMPORT_FTRACE, IMPORT_TRACE_CMD,
						  IMPORT_PERF};
	struct lexing a, b;
	struct lexed x;
	struct lexer L = {.fmt = IMPORT_FTRACE};
	size_t i, k;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(unusual); i++) {
		const char *line = unusual[i].line;

		if ((lex_fast(&L, line, strlen(line), &x) == LEX_EVENT) != unusual[i].fast)
			fail_msg("%s: the fast path %s it", line,
				 unusual[i].fast ? "left" : "took");
		for (k = 0; k < SIM_ARRAY_SIZE(fmts); k++) {
			lex_both(line, fmts[k], &a, &b);
			assert_same(line, &a, &b);
		}
	}
	/* perf script takes no plain name: never the fast path */
	L.fmt = IMPORT_PERF;
	assert_int_equal(lex_fast(&L, common[0], strlen(common[0]), &x), -1);
}

/* Every line again with each of its prefixes: the ends of lines at every byte. */
static void test_prefixes(void **state)
{
	struct lexing a, b;
	size_t i, n;
	char buf[512];

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(common) + SIM_ARRAY_SIZE(unusual); i++) {
		const char *line = i < SIM_ARRAY_SIZE(common)
					   ? common[i]
					   : unusual[i - SIM_ARRAY_SIZE(common)].line;

		for (n = 0; n <= strlen(line) && n < sizeof(buf); n++) {
			memcpy(buf, line, n);
			buf[n] = '\0';
			lex_both(buf, IMPORT_AUTO, &a, &b);
			assert_same(buf, &a, &b);
		}
	}
}

/* cpu_idle payloads: the kernel's layout read directly, any other looked up by key; the
 * same event or the same error either way. */
static void test_idle_payloads(void **state)
{
	struct fn_table fns;
	size_t i;

	(void)state;
	assert_int_equal(fn_init(&fns), 0);
	for (i = 0; i < SIM_ARRAY_SIZE(idle_payloads); i++) {
		char line[256];
		struct lexing a, b;
		struct payload_ctx pc = {.fns = &fns, .cpus = 8, .max_named = -1};
		struct kevent ev = {.cpu = 1, .type = KEV_CPU_IDLE};
		int rc;

		snprintf(line, sizeof(line), "  <idle>-0 [001] d..1. 1.000001: cpu_idle: %s",
			 idle_payloads[i].pay);
		lex_both(line, IMPORT_FTRACE, &a, &b);
		assert_same(line, &a, &b);
		assert_int_equal(a.rc, LEX_EVENT);
		rc = lex_payload(&a.L, &pc, &a.x, &ev);
		if (rc != idle_payloads[i].rc)
			fail_msg("%s: %d, expected %d", idle_payloads[i].pay, rc,
				 idle_payloads[i].rc);
		if (rc == LEX_EVENT) {
			assert_int_equal(ev.v, idle_payloads[i].v);
			assert_int_equal(pc.max_named, 1);
		} else {
			assert_int_equal(a.L.bad_col, idle_payloads[i].col);
			assert_string_equal(a.L.bad_msg, idle_payloads[i].msg);
		}
	}
	fn_release(&fns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_common_lines),
		cmocka_unit_test(test_unusual_lines),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_idle_payloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
