// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_acpi_machines.c - the AMD machines under acpi_idle (sim/machine/cstates_acpi.c) and
 * LLCs smaller than a package (machine.h llc_cores).
 *
 * Expected tables by the rules of drivers/acpi/processor_idle.c (v6.12):
 * acpi_processor_setup_cstates() puts POLL first, names the i-th _CST entry "C<i>", copies
 * its description, exit_latency = _CST latency, target_residency = latency x latency_factor
 * (2); acpi_processor_setup_cpuidle_cx() sets no flag on C1/C2-type entries of a part with
 * ARAT and TLB_FLUSHED | RCU_IDLE on a C3-type one when bm_check (AMD family >= 0x17).
 * _CST values from the dumps cited in docs/machines.md: EPYC C1 1 us, C2 400 us; Ryzen
 * C1 1 us, C2 18 us, C3 350 us.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/sched/place.h"

#define US 1000LL

struct row {
	const char *name, *desc;
	unsigned int flags;
	int64_t lat_ns, res_ns;
};

static void check_table(const char *machine, const struct row *rows, int n)
{
	struct machine m;
	struct sim_error err = { 0 };

	assert_int_equal(machine_load(machine, &m, &err), 0);
	assert_string_equal(m.driver, "acpi_idle");
	assert_int_equal(m.state_count, n);
	for (int i = 0; i < n; i++) {
		assert_string_equal(m.states[i].name, rows[i].name);
		assert_string_equal(m.states[i].desc, rows[i].desc);
		assert_int_equal(m.states[i].flags, rows[i].flags);
		assert_int_equal(m.states[i].exit_latency_ns, rows[i].lat_ns);
		assert_int_equal(m.states[i].target_residency_ns, rows[i].res_ns);
		assert_false(m.states[i].default_off);
	}
}

static void test_epyc_tables(void **state)
{
	static const struct row epyc[] = {
		{ "POLL", "CPUIDLE CORE POLL IDLE", CPUIDLE_FLAG_POLLING, 0, 0 },
		{ "C1", "ACPI FFH MWAIT 0x0", 0, 1 * US, 2 * US },
		{ "C2", "ACPI IOPORT 0x814", 0, 400 * US, 800 * US },
	};

	(void)state;
	check_table("rome", epyc, 3);
	check_table("genoa", epyc, 3);
	check_table("turin", epyc, 3);
}

static void test_ryzen_table(void **state)
{
	static const struct row ryzen[] = {
		{ "POLL", "CPUIDLE CORE POLL IDLE", CPUIDLE_FLAG_POLLING, 0, 0 },
		{ "C1", "ACPI FFH MWAIT 0x0", 0, 1 * US, 2 * US },
		{ "C2", "ACPI IOPORT 0x414", 0, 18 * US, 36 * US },
		{ "C3", "ACPI IOPORT 0x415", CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_RCU_IDLE,
		  350 * US, 700 * US },
	};

	(void)state;
	check_table("ryzen", ryzen, 4);
}

/* 2x EPYC 7502: 32 cores, SMT 2, an L3 per 4 cores: 128 CPUs; CPU n's core is n % 64 and
 * CCX (n % 64) / 4 of package (n % 64) / 32; the siblings of CPU 5 are 5 and 69; the LLC of
 * CPU 5 is cores 4-7 of package 0: CPUs 4-7 and 68-71. Genoa: 96 cores, 12 CCXs of 8. */
static void test_epyc_topology(void **state)
{
	static const int llc5[8] = { 4, 5, 6, 7, 68, 69, 70, 71 };
	struct machine m;
	struct sim_error err = { 0 };
	struct sched_place *sp;
	const int *cpus;
	int n;

	(void)state;
	assert_int_equal(machine_load("rome", &m, &err), 0);
	assert_int_equal(machine_nr_cpus(&m), 128);
	assert_int_equal(machine_llcs_per_package(&m), 8);
	sp = sched_place_new(&m);
	assert_non_null(sp);
	cpus = sched_place_llc_cpus(sp, 5, &n);
	assert_int_equal(n, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(cpus[i], llc5[i]);
	cpus = sched_place_smt_cpus(sp, 5, &n);
	assert_int_equal(n, 2);
	assert_int_equal(cpus[1], 69);
	assert_int_equal(sched_place_llc_of(sp, 127), 15); /* core 63: package 1's 8th CCX */
	assert_int_equal(sched_place_llc_of(sp, 32), 8);
	sched_place_free(sp);

	assert_int_equal(machine_load("genoa", &m, &err), 0);
	assert_int_equal(machine_nr_cpus(&m), 384);
	assert_int_equal(machine_llcs_per_package(&m), 12);
}

static void test_llc_json(void **state)
{
	struct machine m, back;
	struct sim_error err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(machine_load("ryzen", &m, &err), 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(machine_write_json(f, &m), 0);
	fclose(f);
	assert_non_null(strstr(text, "\"llc_cores\": 8"));
	assert_int_equal(machine_load_json_string(text, "ryzen.json", &back, &err), 0);
	assert_int_equal(back.llc_cores, 8);
	free(text);

	/* 16 cores cannot be split into LLCs of 6 */
	m.llc_cores = 6;
	assert_int_equal(machine_validate(&m, "ryzen", &err), -1);
	assert_non_null(strstr(err.text, "must divide the 16 cores"));
	/* Intel's JSON without the field: the package (0) */
	assert_int_equal(machine_load("skl", &m, &err), 0);
	assert_int_equal(m.llc_cores, 0);
	assert_int_equal(machine_llcs_per_package(&m), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epyc_tables),
		cmocka_unit_test(test_ryzen_table),
		cmocka_unit_test(test_epyc_topology),
		cmocka_unit_test(test_llc_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
