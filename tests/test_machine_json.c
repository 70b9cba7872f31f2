// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_machine_json.c - a machine's JSON form: round trips of every built-in, the written
 * format, defaults and partial energies, and every class of bad input, with line:column
 * positions counted by hand on the test's own text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "machinetest.h"

/* ---- JSON ---- */

static void test_json_round_trip_builtins(void **state)
{
	struct machine m, back;
	unsigned int i;

	(void)state;
	for (i = 0; i < machine_builtin_count(); i++) {
		char *text, *again;

		load_ok(machine_builtin(i)->name, &m);
		text = to_json(&m);
		load_text_ok(text, &back);
		assert_machines_equal(&m, &back);
		again = to_json(&back);
		assert_string_equal(text, again);
		free(text);
		free(again);
	}
}

/*
 * machines --json prints the defaulted values as a user writes them: skl's C1 core power is
 * 4.0 W x 0.34 = 1.36 (the double product is 1.3600000000000001), C1E's 4.0 x 0.2 = 0.8.
 */
static void test_json_round_numbers(void **state)
{
	struct machine m;
	char *text;

	(void)state;
	load_ok("skl", &m);
	text = to_json(&m);
	assert_non_null(strstr(text, "\"core_power_w\": 1.36,"));
	assert_non_null(strstr(text, "\"core_power_w\": 0.8,"));
	/* the active package power, 5 W, stays a real: 5.0 */
	assert_non_null(strstr(text, "\"active_package_w\": 5.0\n"));
	free(text);
}

static void test_json_write_format(void **state)
{
	static const char want[] = "{\n"
				   "  \"name\": \"tiny\",\n"
				   "  \"description\": \"A test\",\n"
				   "  \"driver\": \"json\",\n"
				   "  \"topology\": {\n"
				   "    \"packages\": 1,\n"
				   "    \"cores\": 2,\n"
				   "    \"threads\": 1\n"
				   "  },\n"
				   "  \"power\": {\n"
				   "    \"active_core_w\": 4.0,\n"
				   "    \"active_package_w\": 10.0\n"
				   "  },\n"
				   "  \"states\": [\n"
				   "    {\n"
				   "      \"name\": \"POLL\",\n"
				   "      \"desc\": \"\",\n"
				   "      \"flags\": [\n"
				   "        \"POLLING\"\n"
				   "      ],\n"
				   "      \"exit_latency_ns\": 0,\n"
				   "      \"target_residency_ns\": 0,\n"
				   "      \"default_status\": \"enabled\",\n"
				   "      \"core_power_w\": 3.5,\n"
				   "      \"package_power_w\": 10.0,\n"
				   "      \"entry_exit_energy_j\": 0.0\n"
				   "    },\n"
				   "    {\n"
				   "      \"name\": \"C1\",\n"
				   "      \"desc\": \"MWAIT 0x00\",\n"
				   "      \"flags\": [\n"
				   "        \"TLB_FLUSHED\",\n"
				   "        \"IBRS\"\n"
				   "      ],\n"
				   "      \"exit_latency_ns\": 1000,\n"
				   "      \"target_residency_ns\": 2000,\n"
				   "      \"default_status\": \"disabled\",\n"
				   "      \"core_power_w\": 0.5,\n"
				   "      \"package_power_w\": 2.5,\n"
				   "      \"entry_exit_energy_j\": 0.25\n"
				   "    }\n"
				   "  ]\n"
				   "}\n";
	struct machine m = {
		.name = "tiny",
		.desc = "A test",
		.driver = "json",
		.packages = 1,
		.cores = 2,
		.threads = 1,
		.active_core_power_w = 4.0,
		.active_package_power_w = 10.0,
		.state_count = 2,
		.states =
			{
				{.name = "POLL",
				 .flags = CPUIDLE_FLAG_POLLING,
				 .core_power_w = 3.5,
				 .package_power_w = 10.0},
				{.name = "C1",
				 .desc = "MWAIT 0x00",
				 .flags = CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_IBRS,
				 .exit_latency_ns = 1000,
				 .target_residency_ns = 2000,
				 .default_off = true,
				 .core_power_w = 0.5,
				 .package_power_w = 2.5,
				 .entry_exit_energy_j = 0.25},
			},
	};
	struct machine back;
	char *text = to_json(&m);

	(void)state;
	assert_string_equal(text, want);
	load_text_ok(text, &back);
	assert_machines_equal(&m, &back);
	free(text);
}

static void test_json_defaults(void **state)
{
	struct machine m;
	const struct machine_state *s = m.states;
	double e1 = (3.5 - 4.0 * 0.34) * 2e-6;

	(void)state;
	load_text_ok(L1 L2 L3 L4 L5 L6 L7, &m);
	assert_string_equal(m.name, "t");
	assert_string_equal(m.desc, "");
	assert_string_equal(m.driver, "json");
	assert_true(m.active_core_power_w == 4.0);
	assert_true(m.active_package_power_w == 10.0);
	assert_int_equal(m.state_count, 3);
	assert_int_equal(machine_nr_cpus(&m), 2);
	assert_state(&s[0], "POLL", "", CPUIDLE_FLAG_POLLING, 0, 0);
	assert_state(&s[2], "C6", "", 0, 100000, 400000);
	assert_false(s[2].default_off);
	/* all energy fields missing: the default rule, computed by hand */
	assert_true(s[0].core_power_w == 3.5);
	assert_true(s[1].core_power_w == 4.0 * 0.34);
	assert_close(s[2].core_power_w, 4.0 * 0.006, 1e-12);
	assert_true(s[0].package_power_w == 10.0);
	assert_true(s[1].package_power_w == 10.0);
	assert_close(s[2].package_power_w, 1.5, 1e-12);
	assert_true(s[1].entry_exit_energy_j == e1);
	assert_close(s[2].entry_exit_energy_j, e1 + (1.36 - 0.024) * 400e-6, 1e-12);
}

static void test_json_partial_energy(void **state)
{
	static const char text[] =
		L1 " \"topology\": {\"packages\": 1, \"cores\": 2, \"threads\": 1},\n"
		   " \"power\": {\"active_core_w\": 2.0},\n" L3 L4
		   "  {\"name\": \"C1\", \"exit_latency_ns\": 2000, \"target_residency_ns\": 2000, "
		   "\"core_power_w\": 1},\n"
		   "  {\"name\": \"C6\", \"exit_latency_ns\": 100000, \"target_residency_ns\": "
		   "400000, \"entry_exit_energy_j\": 0.001, \"package_power_w\": 0.5}\n" L7;
	struct machine m;
	const struct machine_state *s = m.states;

	(void)state;
	load_text_ok(text, &m);
	assert_true(m.active_core_power_w == 2.0);
	assert_true(m.active_package_power_w == 10.0);
	assert_true(s[0].core_power_w == 1.75);
	assert_true(s[1].core_power_w == 1.0); /* given, an integer in the JSON */
	assert_close(s[2].core_power_w, 2.0 * 0.006, 1e-12);
	assert_true(s[2].package_power_w == 0.5);
	assert_true(s[1].package_power_w == 10.0);
	/* defaulted from the given C1 power */
	assert_true(s[1].entry_exit_energy_j == (1.75 - 1.0) * 2e-6);
	assert_true(s[2].entry_exit_energy_j == 0.001);
}

static void test_json_flags_and_status(void **state)
{
	static const char text[] = L1 L2 L3 L4
		"  {\"name\": \"C1\", \"desc\": \"MWAIT 0x00\", \"flags\": [\"irq_enable\"], "
		"\"exit_latency_ns\": 2000, \"target_residency_ns\": 2000},\n"
		"  {\"name\": \"C3\", \"flags\": [\"TLB_FLUSHED\", \"OFF\"], \"exit_latency_ns\": "
		"3000, \"target_residency_ns\": 9000},\n"
		"  {\"name\": \"C6\", \"default_status\": \"disabled\", \"exit_latency_ns\": "
		"100000, \"target_residency_ns\": 400000}\n" L7;
	struct machine m;

	(void)state;
	load_text_ok(text, &m);
	assert_string_equal(m.states[1].desc, "MWAIT 0x00");
	assert_int_equal(m.states[1].flags, CPUIDLE_FLAG_IRQ_ENABLE);
	assert_false(m.states[1].default_off);
	assert_int_equal(m.states[2].flags, CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_OFF);
	assert_true(m.states[2].default_off);
	assert_int_equal(m.states[3].flags, 0);
	assert_true(m.states[3].default_off);
}

static void test_json_syntax_errors(void **state)
{
	(void)state;
	/* jansson's position: the unexpected ',' in line 5, column 37 */
	expect_error(
		L1 L2 L3 L4
		"  {\"name\": \"C1\", \"exit_latency_ns\": , \"target_residency_ns\": 2000},\n" L6
			L7,
		5, 37, "unexpected token");
	/* a repeated key */
	expect_error("{\"name\": \"t\",\n \"name\": \"u\"}", 2, 7, "duplicate object key");
	expect_error("[1]", 1, 1, "a machine must be a JSON object");
}

static void test_json_unknown_fields(void **state)
{
	(void)state;
	expect_error("{\"name\": \"t\", \"frob\": 1,\n" L2 L3 L4 L5 L6 L7, 1, 23,
		     "unknown field 'frob' in the machine");
	expect_error(L1 L2 L3 L4
		     "  {\"name\": \"C1\", \"exit_latency\": 2000, \"exit_latency_ns\": 2000, "
		     "\"target_residency_ns\": 2000},\n" L6 L7,
		     5, 34, "unknown field 'exit_latency' in states[1]");
	expect_error(
		L1
		" \"topology\": {\"packages\": 1, \"cores\": 2, \"thread\": 1},\n" L3 L4 L5 L6 L7,
		2, 52, "unknown field 'thread' in topology");
}

static void test_json_wrong_types_and_ranges(void **state)
{
	(void)state;
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"exit_latency_ns\": \"2000\", "
				 "\"target_residency_ns\": 2000},\n" L6 L7,
		     5, 37, "states[1].exit_latency_ns must be an integer (ns)");
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"exit_latency_ns\": 2000.0, "
				 "\"target_residency_ns\": 2000},\n" L6 L7,
		     5, 37, "states[1].exit_latency_ns must be an integer (ns)");
	expect_error(L1 L2 L3 L4 L5 "  {\"name\": \"C6\", \"exit_latency_ns\": -5, "
				    "\"target_residency_ns\": 400000}\n" L7,
		     6, 37, "states[2].exit_latency_ns must be an integer (ns) in 0..");
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"exit_latency_ns\": 2000, "
				 "\"target_residency_ns\": 2000, \"core_power_w\": -1.5},\n" L6 L7,
		     5, 88, "states[1].core_power_w must be in 0..10000 (W), not -1.5");
	/* absurd powers and energies are rejected like absurd latencies, with the range:
	 * the value is at column 88 after core_power_w (as above), 91 after package_power_w */
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"exit_latency_ns\": 2000, "
				 "\"target_residency_ns\": 2000, \"core_power_w\": 1e308},\n" L6 L7,
		     5, 88, "states[1].core_power_w must be in 0..10000 (W), not 1e+308");
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"exit_latency_ns\": 2000, "
				 "\"target_residency_ns\": 2000, \"package_power_w\": 10001},\n" L6 L7,
		     5, 91, "states[1].package_power_w must be in 0..10000 (W), not 10001");
	/*
	 * A derived energy over the limit is refused too (found by fuzz_machine: it was written
	 * by `machines --json` and refused when read back): C1's energy is left out, so it is
	 * POLL's 1 J + (3 W - 1 W) x 2 us = 1.000004 J, over the 1 J limit.
	 */
	expect_error(L1 L2 L3
		     "  {\"name\": \"POLL\", \"flags\": [\"POLLING\"], \"exit_latency_ns\": 0, "
		     "\"target_residency_ns\": 0, \"core_power_w\": 3, \"entry_exit_energy_j\": 1},\n"
		     "  {\"name\": \"C1\", \"exit_latency_ns\": 2000, "
		     "\"target_residency_ns\": 2000, \"core_power_w\": 1},\n" L6 L7,
		     5, 3,
		     "state 1 (C1): entry+exit energy 1.000004 J is over the limit 1 J (a missing "
		     "energy is derived");
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"exit_latency_ns\": 2000, "
				 "\"target_residency_ns\": 2000, \"core_power_w\": \"1\"},\n" L6 L7,
		     5, 88, "states[1].core_power_w must be a number (W)");
	expect_error(
		L1
		" \"topology\": {\"packages\": 1, \"cores\": 2, \"threads\": 0},\n" L3 L4 L5 L6 L7,
		2, 53, "topology.threads must be a positive integer");
	expect_error("{\"name\": 7,\n" L2 L3 L4 L5 L6 L7, 1, 10, "name must be a string");
	expect_error(L1 " \"topology\": [1, 2, 1],\n" L3 L4 L5 L6 L7, 2, 14,
		     "topology must be an object");
	expect_error(L1 L2 " \"states\": []}\n", 3, 12, "states must be a non-empty array");
	expect_error(L1 L2 L3 L4 "  [\"C1\"],\n" L6 L7, 5, 3, "states[1] must be an object");
}

static void test_json_names(void **state)
{
	(void)state;
	expect_error(L1 L2 L3 L4 L5 "  {\"name\": \"c1\", \"exit_latency_ns\": 100000, "
				    "\"target_residency_ns\": 400000}\n" L7,
		     6, 12, "state 2 (c1): the name is already used by state 1 (C1)");
	expect_error(L1 L2 L3 L4 L5 "  {\"name\": \"C6-with-a-long-name\", \"exit_latency_ns\": "
				    "100000, \"target_residency_ns\": 400000}\n" L7,
		     6, 12, "states[2].name is too long: 19 bytes, at most 15");
	expect_error("{\"name\": \"a-machine-name-of-32-charactersx\",\n" L2 L3 L4 L5 L6 L7, 1, 10,
		     "name is too long: 32 bytes, at most 31");
	expect_error(
		L1 L2 L3 L4
		"  {\"name\": \"\", \"exit_latency_ns\": 2000, \"target_residency_ns\": 2000},\n" L6
			L7,
		5, 12, "states[1].name must not be empty");
	expect_error("{\"description\": \"x\",\n" L2 L3 L4 L5 L6 L7, 1, 1,
		     "missing required field 'name' in the machine");
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"target_residency_ns\": 2000},\n" L6 L7, 5,
		     3, "missing required field 'exit_latency_ns' in states[1]");
}

static void test_json_too_many_states(void **state)
{
	char text[2048];
	size_t n;
	int i;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text), L1 L2 L3);
	for (i = 0; i < 11; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "  {\"name\": \"S%d\", \"exit_latency_ns\": 0, "
				      "\"target_residency_ns\": 0}%s\n",
				      i, i < 10 ? "," : "");
	snprintf(text + n, sizeof(text) - n, L7);
	/* states[10] is on line 4 + 10 */
	expect_error(text, 14, 3, "too many states: 11, at most 10");
}

static void test_json_flags_errors(void **state)
{
	(void)state;
	expect_error(L1 L2 L3 L4
		     "  {\"name\": \"C1\", \"flags\": [\"TLB_FLUSH\"], \"exit_latency_ns\": 2000, "
		     "\"target_residency_ns\": 2000},\n" L6 L7,
		     5, 28, "states[1].flags[0]: unknown flag 'TLB_FLUSH'");
	expect_error(L1 L2 L3 L4 "  {\"name\": \"C1\", \"flags\": \"IBRS\", \"exit_latency_ns\": "
				 "2000, \"target_residency_ns\": 2000},\n" L6 L7,
		     5, 27, "states[1].flags must be an array of flag names");
	expect_error(L1 L2 L3 L4
		     "  {\"name\": \"C1\", \"flags\": [\"POLLING\"], \"exit_latency_ns\": 2000, "
		     "\"target_residency_ns\": 2000},\n" L6 L7,
		     5, 27, "state 1 (C1): only state 0 may be a POLLING state");
	expect_error(L1 L2 L3 L4
		     "  {\"name\": \"C1\", \"default_status\": \"off\", \"exit_latency_ns\": 2000, "
		     "\"target_residency_ns\": 2000},\n" L6 L7,
		     5, 36, "states[1].default_status must be \"enabled\" or \"disabled\"");
	expect_error(L1 L2 L3 L4
		     "  {\"name\": \"C1\", \"flags\": [\"OFF\"], \"default_status\": \"enabled\", "
		     "\"exit_latency_ns\": 2000, \"target_residency_ns\": 2000},\n" L6 L7,
		     5, 54, "flag OFF");
}

static void test_json_semantic_errors(void **state)
{
	(void)state;
	expect_error(L1 " \"topology\": {\"packages\": 2, \"cores\": 64, \"threads\": 64},\n" L3 L4
			     L5 L6 L7,
		     2, 14, "topology has 8192 CPUs (2 x 64 x 64); at most 4096 are supported");
	expect_error(
		L1 L2 L3 L4 L5 "  {\"name\": \"C6\", \"exit_latency_ns\": 100000, "
			       "\"target_residency_ns\": 1000}\n" L7,
		6, 68,
		"state 2 (C6): target residency 1000 ns is below that of state 1 (C1), 2000 ns; "
		"states must be ordered from shallowest to deepest");
	expect_error(L1 L2 L3 "  {\"name\": \"POLL\", \"default_status\": \"disabled\", "
			      "\"exit_latency_ns\": 0, \"target_residency_ns\": 0}\n" L7,
		     3, 12, "every state is disabled by default");
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_round_trip_builtins),
		cmocka_unit_test(test_json_round_numbers),
		cmocka_unit_test(test_json_write_format),
		cmocka_unit_test(test_json_defaults),
		cmocka_unit_test(test_json_partial_energy),
		cmocka_unit_test(test_json_flags_and_status),
		cmocka_unit_test(test_json_syntax_errors),
		cmocka_unit_test(test_json_unknown_fields),
		cmocka_unit_test(test_json_wrong_types_and_ranges),
		cmocka_unit_test(test_json_names),
		cmocka_unit_test(test_json_too_many_states),
		cmocka_unit_test(test_json_flags_errors),
		cmocka_unit_test(test_json_semantic_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
