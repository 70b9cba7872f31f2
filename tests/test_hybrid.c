// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hybrid.c - a hybrid package (struct machine_core_type): CPU numbering, the
 * scheduler's core and LLC lists, the energy of cores of two kinds and the JSON form.
 *
 * The machine of every test: one package of 2 P-cores with two threads ("cpu_core") and
 * 4 E-cores with one ("cpu_atom", 1 W active against the machine's 4 W), numbered as
 * Linux numbers a hybrid client: core by core, siblings adjacent, kind by kind:
 *   CPU 0 1 | 2 3 | 4 | 5 | 6 | 7
 *   core 0  | 1   | 2 | 3 | 4 | 5      (cores 0-1 cpu_core, 2-5 cpu_atom)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/energy.h"
#include "sim/machine/machine.h"
#include "sim/sched/place.h"

static void hybrid(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "hyb");
	strcpy(m->driver, "intel_idle");
	m->packages = 1;
	m->nr_core_types = 2;
	m->core_types[0] = (struct machine_core_type){ .name = "cpu_core", .cores = 2, .threads = 2 };
	m->core_types[1] = (struct machine_core_type){
		.name = "cpu_atom", .cores = 4, .threads = 1, .active_core_power_w = 1.0 };
	m->cores = 6;
	m->threads = 2;
	m->active_core_power_w = 4.0;
	m->active_package_power_w = 0.0;
	m->state_count = 2;
	m->states[0] = (struct machine_state){ .name = "POLL", .flags = CPUIDLE_FLAG_POLLING };
	m->states[1] = (struct machine_state){ .name = "C6",
					       .exit_latency_ns = 100000,
					       .target_residency_ns = 400000 };
}

static void test_numbering(void **state)
{
	static const int core[8] = { 0, 0, 1, 1, 2, 3, 4, 5 };
	static const int thread[8] = { 0, 1, 0, 1, 0, 0, 0, 0 };
	static const int kind[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct machine m;

	(void)state;
	hybrid(&m);
	assert_int_equal(machine_nr_cpus(&m), 8); /* 2 x 2 + 4 x 1 */
	for (int cpu = 0; cpu < 8; cpu++) {
		int p = -1, c = -1, t = -1;

		machine_cpu_topology(&m, cpu, &p, &c, &t);
		assert_int_equal(p, 0);
		assert_int_equal(c, core[cpu]);
		assert_int_equal(t, thread[cpu]);
		assert_int_equal(machine_cpu_core_type(&m, cpu), kind[cpu]);
	}
	assert_int_equal(machine_core_threads(&m, 1), 2);
	assert_int_equal(machine_core_threads(&m, 2), 1);
	assert_true(machine_core_active_power_w(&m, 0) == 4.0); /* the machine's */
	assert_true(machine_core_active_power_w(&m, 1) == 1.0);

	/* Two packages: the second package's CPUs 8-15 repeat the pattern. */
	m.packages = 2;
	assert_int_equal(machine_nr_cpus(&m), 16);
	{
		int p, c, t;

		machine_cpu_topology(&m, 13, &p, &c, &t);
		assert_int_equal(p, 1);
		assert_int_equal(c, 3);
		assert_int_equal(t, 0);
		machine_cpu_topology(&m, 9, &p, &c, &t);
		assert_int_equal(p, 1);
		assert_int_equal(c, 0);
		assert_int_equal(t, 1);
	}
	/* Meteor Lake-H's three kinds: 6 x 2 + 8 + 2 = 22 CPUs. */
	m.packages = 1;
	m.nr_core_types = 3;
	m.core_types[0].cores = 6;
	m.core_types[1].cores = 8;
	m.core_types[2] = (struct machine_core_type){ .name = "lp", .cores = 2, .threads = 1 };
	m.cores = 16;
	assert_int_equal(machine_nr_cpus(&m), 22);
	assert_int_equal(machine_cpu_core_type(&m, 20), 2);
	assert_int_equal(machine_cpu_core_type(&m, 19), 1);
	assert_int_equal(machine_cpu_core_type(&m, 11), 0);
}

/* cpu_smt_mask(): {0, 1} for a P-core's threads, the CPU alone for an E-core; the LLC is
 * every CPU of the package. */
static void test_place_lists(void **state)
{
	struct machine m;
	struct sched_place *sp;
	const int *cpus;
	int n;

	(void)state;
	hybrid(&m);
	sp = sched_place_new(&m);
	assert_non_null(sp);
	assert_true(sched_place_smt(sp));
	cpus = sched_place_smt_cpus(sp, 1, &n);
	assert_int_equal(n, 2);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 1);
	cpus = sched_place_smt_cpus(sp, 3, &n);
	assert_int_equal(n, 2);
	assert_int_equal(cpus[0], 2);
	assert_int_equal(cpus[1], 3);
	cpus = sched_place_smt_cpus(sp, 5, &n);
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], 5);
	assert_int_equal(sched_place_core_of(sp, 7), 5);
	cpus = sched_place_llc_cpus(sp, 6, &n);
	assert_int_equal(n, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(cpus[i], i);
	sched_place_free(sp);
}

/*
 * Every CPU runs for 1 s: the P-cores draw 4 W each, the E-cores 1 W (their kind's active
 * power), packages 0 W: 2 x 4 + 4 x 1 = 12 J (24 J if the E-cores drew the machine's 4 W).
 */
static void test_energy_kinds(void **state)
{
	struct machine m;
	struct energy *E;
	double e = 0, idle = 0, pkg = 0;

	(void)state;
	hybrid(&m);
	E = energy_new(&m, 8, 0, false);
	assert_non_null(E);
	assert_int_equal(energy_close(E, 1000000000), 0);
	energy_price(E, &e, &idle, &pkg);
	assert_float_equal(e, 12.0, 1e-9);
	assert_float_equal(idle, 0.0, 1e-12);
	energy_free(E);
}

/*
 * Three CPUs online (0, 1, 2), by idle spans, all running for 1 s: the online threads are
 * on cores 0 (CPUs 0, 1) and 1 (CPU 2), 4 W each; cores 2-5 sit in C6 at 0 W: 8 J. (With
 * the thread-rank numbering of a uniform machine CPU 2 would be an E-core's: 9 J.)
 */
static void test_energy_spans_partial(void **state)
{
	struct machine m;
	struct energy *E;
	double e = 0, idle = 0, pkg = 0;

	(void)state;
	hybrid(&m);
	E = energy_new(&m, 3, 0, true);
	assert_non_null(E);
	assert_int_equal(energy_close(E, 1000000000), 0);
	energy_price(E, &e, &idle, &pkg);
	assert_float_equal(e, 8.0, 1e-9);
	energy_free(E);
}

static void test_json_round_trip(void **state)
{
	struct machine m, back;
	struct sim_error err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	hybrid(&m);
	machine_default_energy(&m, MACHINE_DEFAULT_ALL);
	assert_int_equal(machine_validate(&m, "hyb", &err), 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(machine_write_json(f, &m), 0);
	fclose(f);
	assert_non_null(strstr(text, "\"core_types\""));
	assert_null(strstr(text, "\"cores\": 6")); /* the sum is derived, not written */
	assert_int_equal(machine_load_json_string(text, "hyb.json", &back, &err), 0);
	assert_int_equal(back.nr_core_types, 2);
	assert_int_equal(back.cores, 6);
	assert_int_equal(back.threads, 2);
	assert_string_equal(back.core_types[1].name, "cpu_atom");
	assert_int_equal(back.core_types[1].cores, 4);
	assert_true(back.core_types[1].active_core_power_w == 1.0);
	assert_true(back.core_types[0].active_core_power_w == 0.0);
	assert_int_equal(machine_nr_cpus(&back), 8);
	free(text);
}

static void test_json_errors(void **state)
{
	static const char *const bad[] = {
		/* both ways of giving cores */
		"{\"name\": \"x\", \"topology\": {\"packages\": 1, \"cores\": 4, \"core_types\": "
		"[{\"name\": \"P\", \"cores\": 4, \"threads\": 2}]}, \"states\": [{\"name\": \"C1\", "
		"\"exit_latency_ns\": 1000, \"target_residency_ns\": 1000}]}",
		/* an empty list */
		"{\"name\": \"x\", \"topology\": {\"packages\": 1, \"core_types\": []}, \"states\": "
		"[{\"name\": \"C1\", \"exit_latency_ns\": 1000, \"target_residency_ns\": 1000}]}",
		/* a kind without threads */
		"{\"name\": \"x\", \"topology\": {\"packages\": 1, \"core_types\": [{\"name\": \"P\", "
		"\"cores\": 4}]}, \"states\": [{\"name\": \"C1\", \"exit_latency_ns\": 1000, "
		"\"target_residency_ns\": 1000}]}",
	};
	static const char *const says[] = { "core_types and cores", "core_types must be",
					    "core_types[0]" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct machine m;
		struct sim_error err = { 0 };

		assert_int_equal(machine_load_json_string(bad[i], "bad.json", &m, &err), -1);
		if (!strstr(err.text, says[i]))
			fail_msg("case %zu: '%s' does not say '%s'", i, err.text, says[i]);
	}
	/* machine_validate(): cores must be the kinds' sum */
	{
		struct machine m;
		struct sim_error err = { 0 };

		hybrid(&m);
		m.cores = 5;
		assert_int_equal(machine_validate(&m, "hyb", &err), -1);
		assert_non_null(strstr(err.text, "sum 6"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbering),	    cmocka_unit_test(test_place_lists),
		cmocka_unit_test(test_energy_kinds),	    cmocka_unit_test(test_energy_spans_partial),
		cmocka_unit_test(test_json_round_trip),	    cmocka_unit_test(test_json_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
