/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * machinetest.h - helpers of the machine tests (test_machine.c, test_machine_json.c): load
 * a machine or JSON text, compare states and machines, expect a JSON error at a line and
 * column, and the lines L1..L7 of a small valid machine to build bad ones from.
 */
#ifndef IDLESIM_MACHINETEST_H
#define IDLESIM_MACHINETEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/alloc.h"
#include "sim/machine/machine.h"

static inline void load_ok(const char *name, struct machine *m)
{
	struct sim_error err;

	sim_error_clear(&err);
	if (machine_load(name, m, &err))
		fail_msg("machine_load(%s): %s", name, err.text);
}

static inline void assert_close(double got, double want, double rel)
{
	double tol = fabs(want) * rel;

	if (fabs(got - want) > (tol > 0 ? tol : rel))
		fail_msg("got %.17g, want %.17g", got, want);
}

static inline void assert_state(const struct machine_state *s, const char *name, const char *desc,
			 unsigned int flags, int64_t lat_ns, int64_t res_ns)
{
	assert_string_equal(s->name, name);
	assert_string_equal(s->desc, desc);
	assert_int_equal(s->flags, flags);
	assert_int_equal(s->exit_latency_ns, lat_ns);
	assert_int_equal(s->target_residency_ns, res_ns);
}

static inline void assert_poll(const struct machine_state *s)
{
	assert_state(s, "POLL", "CPUIDLE CORE POLL IDLE", CPUIDLE_FLAG_POLLING, 0, 0);
	assert_false(s->default_off);
}

static inline void assert_machines_equal(const struct machine *a, const struct machine *b)
{
	int i;

	assert_string_equal(a->name, b->name);
	assert_string_equal(a->desc, b->desc);
	assert_string_equal(a->driver, b->driver);
	assert_int_equal(a->packages, b->packages);
	assert_int_equal(a->cores, b->cores);
	assert_int_equal(a->threads, b->threads);
	assert_true(a->active_core_power_w == b->active_core_power_w);
	assert_true(a->active_package_power_w == b->active_package_power_w);
	assert_int_equal(a->state_count, b->state_count);
	for (i = 0; i < a->state_count; i++) {
		const struct machine_state *s = &a->states[i], *t = &b->states[i];

		assert_state(t, s->name, s->desc, s->flags, s->exit_latency_ns,
			     s->target_residency_ns);
		assert_int_equal(s->default_off, t->default_off);
		assert_true(s->core_power_w == t->core_power_w);
		assert_true(s->package_power_w == t->package_power_w);
		assert_true(s->entry_exit_energy_j == t->entry_exit_energy_j);
	}
}

/* Write m as JSON into a malloc'ed string (free() it). */
static inline char *to_json(const struct machine *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(machine_write_json(f, m), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static inline char *idle_info(const struct machine *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	machine_print_idle_info(f, m);
	assert_int_equal(fclose(f), 0);
	return buf;
}

#define expect_error(text, line, col, msg) expect_error_at(text, line, col, msg, __LINE__)

/* Loading text fails with SIM_ERR_INPUT at line:col, with msg in the message. */
static inline void expect_error_at(const char *text, int line, int col, const char *msg, int src_line)
{
	struct machine m;
	struct sim_error err;

	sim_error_clear(&err);
	memset(&m, 0x5a, sizeof(m));
	if (!machine_load_json_string(text, "t.json", &m, &err))
		fail_msg("line %d: loaded, want error '%s'", src_line, msg);
	if (err.code != SIM_ERR_INPUT || err.line != line || err.column != col ||
	    !strstr(err.text, msg))
		fail_msg("line %d: got code %d at %d:%d '%s'; want %d at %d:%d containing '%s'",
			 src_line, err.code, err.line, err.column, err.text, SIM_ERR_INPUT, line,
			 col, msg);
	assert_string_equal(err.source, "t.json");
	assert_int_equal(m.packages, 0x5a5a5a5a); /* untouched on error */
}

static inline void load_text_ok(const char *text, struct machine *m)
{
	struct sim_error err;

	sim_error_clear(&err);
	if (machine_load_json_string(text, "t.json", m, &err))
		fail_msg("%d:%d: %s", err.line, err.column, err.text);
}

static inline char *temp_file(const char *contents, size_t len)
{
	static const char tmpl[] = "/tmp/idlesim_test_machine_XXXXXX";
	char *path = malloc(sizeof(tmpl));
	int fd;

	assert_non_null(path);
	memcpy(path, tmpl, sizeof(tmpl));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, contents, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
	return path;
}

/*
 * A small valid machine, one state per line, so that positions are easy to count. Tests
 * replace single lines to make it wrong.
 */
#define L1 "{\"name\": \"t\",\n"
#define L2 " \"topology\": {\"packages\": 1, \"cores\": 2, \"threads\": 1},\n"
#define L3 " \"states\": [\n"
#define L4                                                                                         \
	"  {\"name\": \"POLL\", \"flags\": [\"POLLING\"], \"exit_latency_ns\": 0, "                \
	"\"target_residency_ns\": 0},\n"
#define L5 "  {\"name\": \"C1\", \"exit_latency_ns\": 2000, \"target_residency_ns\": 2000},\n"
#define L6 "  {\"name\": \"C6\", \"exit_latency_ns\": 100000, \"target_residency_ns\": 400000}\n"
#define L7 " ]}\n"


#endif
