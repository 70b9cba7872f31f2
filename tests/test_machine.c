// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_machine.c - the built-in machines against the kernel tables, the default energy rule
 * against hand computations, machine_validate(), loading files and the cpupower layout.
 * The JSON form is test_machine_json.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/alloc.h"
#include "sim/machine/machine.h"
#include "machinetest.h"

/* ---- built-in tables (drivers/idle/intel_idle.c) ---- */

static void test_builtin_list(void **state)
{
	static const char *const names[] = {"hsw",   "bdw", "skl",   "hsx",   "bdx",   "skx",
					    "icx",   "spr", "emr",   "gnr",   "srf",   "grr",
					    "adl",   "adl-l", "adl-n", "mtl", "rome", "genoa",
					    "turin", "ryzen", "kvm"};
	unsigned int i;

	(void)state;
	/* the 16 intel_idle tables, the four AMD acpi_idle ones (cstates_acpi.c), then the
	 * KVM guest (sim/machine/cstates_guest.c) */
	assert_int_equal(machine_builtin_count(), 21);
	for (i = 0; i < 21; i++) {
		assert_string_equal(machine_builtin(i)->name, names[i]);
		assert_string_equal(machine_builtin(i)->driver, i < 16   ? "intel_idle"
								: i < 20 ? "acpi_idle"
									 : "haltpoll");
		assert_ptr_equal(machine_find_builtin(names[i]), machine_builtin(i));
	}
	assert_null(machine_builtin(21));
	assert_ptr_equal(machine_find_builtin("SKL"), machine_builtin(2));
	assert_null(machine_find_builtin("skylake"));
	assert_null(machine_find_builtin(NULL));
	assert_string_equal(machine_builtin(2)->desc,
			    "Skylake client (SKYLAKE, KABYLAKE), intel_idle skl_cstates");
}

/*
 * drivers/cpuidle/cpuidle-haltpoll.c (the same in linux-source-6.1 and -6.12): POLL from
 * cpuidle_poll_state_init() (0/0 us, POLLING), then "haltpoll idle", exit latency 1 us, target
 * residency 1 us, no flags. 8 vCPUs as 1x8x1; no package power (the host's); HLT's typical
 * wake-up 6 us (docs/wake-latency.md); the default rule gives HLT 0.34 x 4 W = 1.36 W (its
 * 1 us target is below the rule's first point, 2 us) and POLL 0.875 x 4 W = 3.5 W.
 */
static void test_kvm_table(void **state)
{
	const struct machine *m = machine_find_builtin("kvm");
	struct machine l;
	struct sim_error err = { 0 };

	(void)state;
	assert_non_null(m);
	assert_int_equal(m->state_count, 2);
	assert_int_equal(machine_nr_cpus(m), 8);
	assert_int_equal(m->packages * 100 + m->cores * 10 + m->threads, 181);
	assert_string_equal(m->states[0].name, "POLL");
	assert_int_equal(m->states[0].flags, CPUIDLE_FLAG_POLLING);
	assert_int_equal(m->states[0].exit_latency_ns, 0);
	assert_int_equal(m->states[0].target_residency_ns, 0);
	assert_string_equal(m->states[1].name, "haltpoll idle");
	assert_string_equal(m->states[1].desc, "default architecture idle");
	assert_int_equal(m->states[1].flags, 0);
	assert_int_equal(m->states[1].exit_latency_ns, 1000);
	assert_int_equal(m->states[1].target_residency_ns, 1000);
	assert_int_equal(machine_wake_fixed_ns(&m->states[1], WAKE_MODEL_TYPICAL), 6000);
	assert_int_equal(machine_wake_fixed_ns(&m->states[1], WAKE_MODEL_WORST), 1000);
	assert_int_equal(machine_validate(m, "raw", &err), 0);
	assert_int_equal(machine_load("kvm", &l, &err), 0);
	assert_true(l.states[1].core_power_w == 4.0 * 0.34);
	assert_true(l.states[0].core_power_w == 4.0 * 0.875);
	assert_true(l.states[1].package_power_w == 0.0);
	assert_int_equal(machine_state_lookup(&l, "haltpoll idle"), 1);
}

static void test_skl_table(void **state)
{
	const struct machine *m = machine_find_builtin("skl");
	const unsigned int tlb = CPUIDLE_FLAG_TLB_FLUSHED, ibrs = CPUIDLE_FLAG_IBRS;
	int i;

	(void)state;
	assert_int_equal(m->state_count, 9);
	assert_int_equal(machine_nr_cpus(m), 8);
	assert_poll(&m->states[0]);
	assert_state(&m->states[1], "C1", "MWAIT 0x00", 0, 2000, 2000);
	assert_state(&m->states[2], "C1E", "MWAIT 0x01", CPUIDLE_FLAG_ALWAYS_ENABLE, 10000, 20000);
	assert_state(&m->states[3], "C3", "MWAIT 0x10", tlb, 70000, 100000);
	assert_state(&m->states[4], "C6", "MWAIT 0x20", tlb | ibrs, 85000, 200000);
	assert_state(&m->states[5], "C7s", "MWAIT 0x33", tlb | ibrs, 124000, 800000);
	assert_state(&m->states[6], "C8", "MWAIT 0x40", tlb | ibrs, 200000, 800000);
	assert_state(&m->states[7], "C9", "MWAIT 0x50", tlb | ibrs, 480000, 5000000);
	assert_state(&m->states[8], "C10", "MWAIT 0x60", tlb | ibrs, 890000, 5000000);
	for (i = 0; i < m->state_count; i++) {
		assert_false(m->states[i].default_off);
		/* the raw tables carry no energy numbers; machine_load() fills them */
		assert_true(m->states[i].core_power_w == 0.0);
		assert_true(m->states[i].entry_exit_energy_j == 0.0);
	}
	assert_true(m->active_core_power_w == 4.0);
	assert_true(m->active_package_power_w == 5.0);
}

static void test_hsw_bdw_tables(void **state)
{
	const struct machine *h = machine_find_builtin("hsw"), *b = machine_find_builtin("bdw");
	const unsigned int tlb = CPUIDLE_FLAG_TLB_FLUSHED;

	(void)state;
	assert_int_equal(h->state_count, 9);
	assert_int_equal(b->state_count, 9);
	assert_poll(&h->states[0]);
	assert_state(&h->states[1], "C1", "MWAIT 0x00", 0, 2000, 2000);
	assert_state(&h->states[2], "C1E", "MWAIT 0x01", CPUIDLE_FLAG_ALWAYS_ENABLE, 10000, 20000);
	assert_state(&h->states[3], "C3", "MWAIT 0x10", tlb, 33000, 100000);
	assert_state(&h->states[4], "C6", "MWAIT 0x20", tlb, 133000, 400000);
	assert_state(&h->states[5], "C7s", "MWAIT 0x32", tlb, 166000, 500000);
	assert_state(&h->states[6], "C8", "MWAIT 0x40", tlb, 300000, 900000);
	assert_state(&h->states[7], "C9", "MWAIT 0x50", tlb, 600000, 1800000);
	assert_state(&h->states[8], "C10", "MWAIT 0x60", tlb, 2600000, 7700000);
	/* bdw differs from hsw only in the exit latency of C3 */
	assert_state(&b->states[3], "C3", "MWAIT 0x10", tlb, 40000, 100000);
	assert_state(&b->states[8], "C10", "MWAIT 0x60", tlb, 2600000, 7700000);
	assert_int_equal(machine_nr_cpus(h), 8);
	assert_int_equal(machine_nr_cpus(b), 8);
}

static void test_server_tables(void **state)
{
	const struct machine *hsx = machine_find_builtin("hsx"), *bdx = machine_find_builtin("bdx");
	const struct machine *skx = machine_find_builtin("skx");
	const unsigned int tlb = CPUIDLE_FLAG_TLB_FLUSHED;

	(void)state;
	assert_int_equal(hsx->state_count, 5);
	assert_int_equal(machine_nr_cpus(hsx), 48);
	assert_poll(&hsx->states[0]);
	assert_state(&hsx->states[1], "C1", "MWAIT 0x00", 0, 2000, 2000);
	assert_state(&hsx->states[2], "C1E", "MWAIT 0x01", CPUIDLE_FLAG_ALWAYS_ENABLE, 10000,
		     20000);
	assert_state(&hsx->states[3], "C3", "MWAIT 0x10", tlb | CPUIDLE_FLAG_OFF, 33000, 100000);
	assert_true(hsx->states[3].default_off);
	assert_state(&hsx->states[4], "C6", "MWAIT 0x20", tlb, 133000, 400000);
	assert_false(hsx->states[4].default_off);
	assert_true(hsx->active_package_power_w == 30.0);

	assert_int_equal(bdx->state_count, 5);
	assert_int_equal(machine_nr_cpus(bdx), 80);
	assert_state(&bdx->states[3], "C3", "MWAIT 0x10", tlb | CPUIDLE_FLAG_OFF, 40000, 100000);
	assert_true(bdx->states[3].default_off);
	assert_true(bdx->active_package_power_w == 30.0);

	assert_int_equal(skx->state_count, 4);
	assert_int_equal(machine_nr_cpus(skx), 72);
	assert_poll(&skx->states[0]);
	assert_state(&skx->states[1], "C1", "MWAIT 0x00", CPUIDLE_FLAG_IRQ_ENABLE, 2000, 2000);
	assert_state(&skx->states[2], "C1E", "MWAIT 0x01", CPUIDLE_FLAG_ALWAYS_ENABLE, 10000,
		     20000);
	assert_state(&skx->states[3], "C6", "MWAIT 0x20", tlb | CPUIDLE_FLAG_IBRS, 133000, 600000);
	assert_true(skx->active_package_power_w == 55.0);
	assert_true(skx->active_core_power_w == 4.0);
}

static void test_builtins_validate(void **state)
{
	struct sim_error err;
	struct machine m;
	unsigned int i;

	(void)state;
	for (i = 0; i < machine_builtin_count(); i++) {
		sim_error_clear(&err);
		load_ok(machine_builtin(i)->name, &m);
		assert_int_equal(machine_validate(&m, "builtin", &err), 0);
		assert_int_equal(machine_validate(machine_builtin(i), "raw", &err), 0);
	}
}

static void test_topology(void **state)
{
	const struct machine *hsx = machine_find_builtin("hsx");
	int p, c, t;

	(void)state;
	machine_cpu_topology(hsx, 30, &p, &c, &t);
	assert_int_equal(p, 0);
	assert_int_equal(c, 6);
	assert_int_equal(t, 1);
	machine_cpu_topology(hsx, 0, &p, &c, &t);
	assert_true(p == 0 && c == 0 && t == 0);
	machine_cpu_topology(hsx, 12, &p, &c, &t);
	assert_true(p == 1 && c == 0 && t == 0);
	machine_cpu_topology(hsx, 47, &p, &c, &t);
	assert_true(p == 1 && c == 11 && t == 1);
	machine_cpu_topology(machine_find_builtin("skl"), 5, &p, &c, &t);
	assert_true(p == 0 && c == 1 && t == 1);
}

static void test_flag_names(void **state)
{
	(void)state;
	assert_string_equal(machine_flag_name(0), "POLLING");
	assert_string_equal(machine_flag_name(4), "OFF");
	assert_string_equal(machine_flag_name(5), "TLB_FLUSHED");
	assert_string_equal(machine_flag_name(14), "IRQ_ENABLE");
	assert_string_equal(machine_flag_name(15), "ALWAYS_ENABLE");
	assert_string_equal(machine_flag_name(16), "IBRS");
	assert_string_equal(machine_flag_name(18), "PARTIAL_HINT_MATCH");
	assert_null(machine_flag_name(7));
	assert_null(machine_flag_name(31));
	assert_null(machine_flag_name(32));
	assert_null(machine_flag_name(1000));
}

static void test_state_lookup(void **state)
{
	const struct machine *m = machine_find_builtin("skl");

	(void)state;
	assert_int_equal(machine_state_lookup(m, "C6"), 4);
	assert_int_equal(machine_state_lookup(m, "c1e"), 2);
	assert_int_equal(machine_state_lookup(m, "poll"), 0);
	assert_int_equal(machine_state_lookup(m, "0"), 0);
	assert_int_equal(machine_state_lookup(m, "8"), 8);
	assert_int_equal(machine_state_lookup(m, "9"), -1);
	assert_int_equal(machine_state_lookup(m, "-1"), -1);
	assert_int_equal(machine_state_lookup(m, ""), -1);
	assert_int_equal(machine_state_lookup(m, "1x"), -1);
	assert_int_equal(machine_state_lookup(m, " 1"), -1);
	assert_int_equal(machine_state_lookup(m, "C11"), -1);
	assert_int_equal(machine_state_lookup(m, "99999999999999999999"), -1);
}

static void test_to_driver(void **state)
{
	struct cpuidle_driver drv;
	struct machine m;

	(void)state;
	load_ok("skl", &m);
	machine_to_driver(&m, &drv);
	assert_ptr_equal(drv.name, m.driver);
	assert_string_equal(drv.name, "intel_idle");
	assert_int_equal(drv.state_count, 9);
	assert_string_equal(drv.states[0].name, "POLL");
	assert_int_equal(drv.states[0].power_usage, -1);
	assert_int_equal(drv.states[0].flags, CPUIDLE_FLAG_POLLING);
	assert_string_equal(drv.states[4].name, "C6");
	assert_string_equal(drv.states[4].desc, "MWAIT 0x20");
	assert_int_equal(drv.states[4].exit_latency_ns, 85000);
	assert_int_equal(drv.states[4].target_residency_ns, 200000);
	assert_int_equal(drv.states[4].exit_latency, 85);
	assert_int_equal(drv.states[4].target_residency, 200);
	assert_int_equal(drv.states[4].power_usage, 0);
	assert_int_equal(drv.states[4].flags, CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_IBRS);
}

/* ---- the default energy rule ---- */

static void test_default_energy_skl(void **state)
{
	struct machine m;
	const struct machine_state *s = m.states;

	(void)state;
	load_ok("skl", &m);
	/* POLL: a pause loop, 0.875 of 4 W */
	assert_true(s[0].core_power_w == 3.5);
	assert_true(s[0].package_power_w == 5.0);
	assert_true(s[0].entry_exit_energy_j == 0.0);
	/* C1 (TR 2 us) and C1E (TR 20 us) sit on interpolation points */
	assert_true(s[1].core_power_w == 4.0 * 0.34);
	assert_true(s[2].core_power_w == 0.8);
	assert_true(s[1].package_power_w == 5.0);
	assert_true(s[2].package_power_w == 5.0);
	/* C3, TR 100 us: core 5 %, package 60 % */
	assert_close(s[3].core_power_w, 0.2, 1e-12);
	assert_close(s[3].package_power_w, 3.0, 1e-12);
	/* C6, TR 200 us: half way from 100 to 400 in log10, so the mean of the fractions */
	assert_close(s[4].core_power_w, 4.0 * (0.05 + 0.006) / 2, 1e-12);
	assert_close(s[4].package_power_w, 5.0 * (0.6 + 0.15) / 2, 1e-12);
	/* C9 and C10, TR 5000 us: the last point */
	assert_close(s[8].core_power_w, 0.004, 1e-12);
	assert_close(s[8].package_power_w, 0.25, 1e-12);
	/* entry+exit: break-even with the previous state at the target residency */
	assert_true(s[1].entry_exit_energy_j == (3.5 - 4.0 * 0.34) * 2e-6);
	assert_close(s[2].entry_exit_energy_j, (3.5 - 1.36) * 2e-6 + (1.36 - 0.8) * 20e-6, 1e-12);
	/* C9 -> C10: no power drop, no extra energy */
	assert_true(s[8].entry_exit_energy_j == s[7].entry_exit_energy_j);
}

static void test_default_energy_clamps(void **state)
{
	struct machine m;

	(void)state;
	load_ok("hsw", &m);
	/* C10, TR 7700 us: beyond the last point */
	assert_close(m.states[8].core_power_w, 4.0 * 0.001, 1e-12);
	assert_close(m.states[8].package_power_w, 5.0 * 0.05, 1e-12);
	load_ok("skx", &m);
	/* C6, TR 600 us: between 400 and 5000 */
	{
		double t = log10(600.0 / 400.0) / log10(5000.0 / 400.0);

		assert_close(m.states[3].core_power_w, 4.0 * (0.006 + (0.001 - 0.006) * t), 1e-12);
		assert_close(m.states[3].package_power_w, 55.0 * (0.15 + (0.05 - 0.15) * t), 1e-12);
	}
}

/* E[i] - E[i-1] = (P[i-1] - P[i]) * TR[i]: every target residency is a break-even time. */
static void test_break_even_property(void **state)
{
	struct machine m;
	unsigned int k;
	int i;

	(void)state;
	for (k = 0; k < machine_builtin_count(); k++) {
		load_ok(machine_builtin(k)->name, &m);
		for (i = 1; i < m.state_count; i++) {
			const struct machine_state *p = &m.states[i - 1], *s = &m.states[i];
			double drop = p->core_power_w - s->core_power_w;

			assert_true(s->core_power_w <= p->core_power_w);
			assert_true(s->package_power_w <= p->package_power_w);
			if (drop <= 0)
				continue;
			assert_close((s->entry_exit_energy_j - p->entry_exit_energy_j) / drop,
				     s->target_residency_ns * 1e-9, 1e-12);
		}
	}
}

static void test_default_energy_selects_fields(void **state)
{
	struct machine m;

	(void)state;
	m = *machine_find_builtin("skl");
	m.states[3].package_power_w = 42.0;
	m.states[3].entry_exit_energy_j = 7.0;
	machine_default_energy(&m, MACHINE_DEFAULT_CORE_POWER);
	assert_true(m.states[2].core_power_w == 0.8);
	assert_true(m.states[3].package_power_w == 42.0);
	assert_true(m.states[3].entry_exit_energy_j == 7.0);
	assert_true(m.states[1].entry_exit_energy_j == 0.0);
	machine_default_energy(&m, MACHINE_DEFAULT_ENTRY_EXIT);
	assert_true(m.states[1].entry_exit_energy_j == (3.5 - 4.0 * 0.34) * 2e-6);
	assert_true(m.states[3].package_power_w == 42.0);
}

/* ---- machine_validate ---- */

#define expect_invalid(m, msg) expect_invalid_at(m, msg, __LINE__)

static void expect_invalid_at(const struct machine *m, const char *msg, int src_line)
{
	struct sim_error err;

	sim_error_clear(&err);
	if (!machine_validate(m, "src", &err))
		fail_msg("line %d: valid, want '%s'", src_line, msg);
	if (err.code != SIM_ERR_INPUT || !strstr(err.text, msg) || err.line || err.column ||
	    strcmp(err.source, "src"))
		fail_msg("line %d: got %d %s:%d:%d '%s', want '%s'", src_line, err.code, err.source,
			 err.line, err.column, err.text, msg);
}

static void test_validate(void **state)
{
	struct machine base, m;

	(void)state;
	load_ok("skl", &base);

	m = base;
	m.states[4].target_residency_ns = 50000;
	expect_invalid(&m, "state 4 (C6): target residency 50000 ns is below that of state 3 (C3), "
			   "100000 ns; states must be ordered from shallowest to deepest");
	m = base;
	m.states[2].exit_latency_ns = 1000;
	expect_invalid(&m, "state 2 (C1E): exit latency 1000 ns is below that of state 1 (C1)");
	m = base;
	m.states[1].exit_latency_ns = -1;
	expect_invalid(&m, "state 1 (C1): exit latency -1 ns is out of range");
	m = base;
	m.states[2].flags |= CPUIDLE_FLAG_POLLING;
	expect_invalid(&m, "state 2 (C1E): only state 0 may be a POLLING state");
	m = base;
	snprintf(m.states[5].name, sizeof(m.states[5].name), "c6");
	expect_invalid(&m, "state 5 (c6): the name is already used by state 4 (C6)");
	m = base;
	m.states[3].name[0] = '\0';
	expect_invalid(&m, "state 3 has an empty name");
	m = base;
	m.states[3].flags |= 1u << 20;
	expect_invalid(&m, "state 3 (C3): unknown flag bits 0x100000");
	m = base;
	m.states[6].core_power_w = -0.5;
	expect_invalid(&m, "state 6 (C8): core power -0.5 must be finite and >= 0");
	m = base;
	m.states[6].package_power_w = NAN;
	expect_invalid(&m, "state 6 (C8): package power nan must be finite and >= 0");
	m = base;
	m.states[7].entry_exit_energy_j = INFINITY;
	expect_invalid(&m, "state 7 (C9): entry+exit energy inf");
	m = base;
	m.active_core_power_w = -4;
	expect_invalid(&m, "active core power -4 must be finite and >= 0");
	m = base;
	m.threads = 0;
	expect_invalid(&m, "topology.threads must be at least 1, not 0");
	m = base;
	m.packages = 2;
	m.cores = 1025;
	expect_invalid(&m, "topology has 4100 CPUs (2 x 1025 x 2); at most 4096 are supported");
	m = base;
	m.state_count = 0;
	expect_invalid(&m, "a machine has 1 to 10 states, not 0");
	m.state_count = 11;
	expect_invalid(&m, "a machine has 1 to 10 states, not 11");
	m = base;
	for (int i = 0; i < m.state_count; i++)
		m.states[i].default_off = true;
	expect_invalid(&m, "every state is disabled by default");
	m = base;
	m.packages = 2;
	m.cores = 1024;
	m.threads = 2;
	{
		struct sim_error err;

		sim_error_clear(&err);
		assert_int_equal(machine_validate(&m, "src", &err), 0); /* exactly 4096 is fine */
	}
}

/* ---- machine_load and files ---- */

static void test_load_unknown_name(void **state)
{
	struct sim_error err;
	struct machine m;

	(void)state;
	sim_error_clear(&err);
	assert_int_equal(machine_load("foo", &m, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_string_equal(err.source, "");
	assert_string_equal(
		err.text, "unknown machine 'foo'; built-in machines: hsw, bdw, skl, hsx, bdx, skx, icx, "
			  "spr, emr, gnr, srf, grr, adl, adl-l, adl-n, mtl, rome, genoa, turin, ryzen, kvm; "
			  "or give a path to a JSON file (see idlesim machines NAME --json)");
}

static void test_load_builtin_case_insensitive(void **state)
{
	struct machine m;

	(void)state;
	load_ok("HSX", &m);
	assert_string_equal(m.name, "hsx");
	assert_true(m.states[1].core_power_w == 4.0 * 0.34);
}

static void test_load_files(void **state)
{
	struct sim_error err;
	struct machine m, back;
	char *text, *path;

	(void)state;
	load_ok("bdx", &m);
	text = to_json(&m);
	path = temp_file(text, strlen(text));
	load_ok(path, &back);
	/* named after the file, not the built-in it came from (test_file_names) */
	assert_string_equal(back.name, strrchr(path, '/') + 1);
	snprintf(back.name, sizeof(back.name), "%s", m.name);
	assert_machines_equal(&m, &back);
	assert_int_equal(unlink(path), 0);
	free(path);
	free(text);

	sim_error_clear(&err);
	assert_int_equal(machine_load("/nonexistent/m.json", &m, &err), -1);
	assert_int_equal(err.code, SIM_ERR_IO);
	assert_string_equal(err.source, "/nonexistent/m.json");
	assert_non_null(strstr(err.text, strerror(ENOENT)));

	sim_error_clear(&err);
	assert_int_equal(machine_load("nothere.json", &m, &err), -1);
	assert_int_equal(err.code, SIM_ERR_IO);

	/* a directory is read as a sysfs snapshot (sim/machine/snapshot.h), and /tmp is none */
	sim_error_clear(&err);
	assert_int_equal(machine_load("/tmp/", &m, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "not a sysfs snapshot"));

	/* a JSON error in a file names the file */
	path = temp_file("{\n  \"name\": 1}", 14);
	sim_error_clear(&err);
	assert_int_equal(machine_load_json_file(path, &m, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_string_equal(err.source, path);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 11);
	assert_int_equal(unlink(path), 0);
	free(path);
}

/* Load a machine written to DIR/FILE with the given `name` field; return its name. */
static const char *name_of(const char *dir, const char *file, const char *name, struct machine *m)
{
	struct machine skl;
	char path[512];
	char *text;
	FILE *f;

	load_ok("skl", &skl);
	snprintf(skl.name, sizeof(skl.name), "%s", name);
	text = to_json(&skl);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(text);
	load_ok(path, m);
	assert_int_equal(unlink(path), 0);
	return m->name;
}

/*
 * A machine file is never silently named after a built-in: its `name` field if that is no
 * built-in's, else the file's name without .json, or with it if the stem is a built-in's.
 */
static void test_file_names(void **state)
{
	char dir[] = "/tmp/idlesim_test_names_XXXXXX";
	struct machine m;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_string_equal(name_of(dir, "fast-c6.json", "skl", &m), "fast-c6");
	assert_string_equal(name_of(dir, "fast-c6.json", "SKL", &m), "fast-c6");
	assert_string_equal(name_of(dir, "fast-c6.json", "mybox", &m), "mybox");
	assert_string_equal(name_of(dir, "skl.json", "skl", &m), "skl.json");
	assert_string_equal(name_of(dir, "Hsx.json", "skl", &m), "Hsx.json");
	assert_string_equal(name_of(dir, "noext", "bdx", &m), "noext");
	assert_string_equal(name_of(dir, ".json", "bdx", &m), ".json");
	/* a stem longer than a name: cut to MACHINE_NAME_LEN - 1 = 31 characters */
	assert_string_equal(name_of(dir, "a-very-long-machine-file-name-indeed.json", "skl", &m),
			    "a-very-long-machine-file-name-i");
	assert_int_equal(rmdir(dir), 0);
}

static void test_load_big_file(void **state)
{
	size_t len = 1024 * 1024 + 1;
	char *big = malloc(len), *path;
	struct sim_error err;
	struct machine m;

	(void)state;
	assert_non_null(big);
	memset(big, ' ', len);
	path = temp_file(big, len);
	sim_error_clear(&err);
	assert_int_equal(machine_load_json_file(path, &m, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "larger than 1 MiB"));
	assert_int_equal(unlink(path), 0);
	free(path);
	free(big);
}

static void test_load_out_of_memory(void **state)
{
	static const char text[] = L1 L2 L3 L4 L5 L6 L7;
	char *path = temp_file(text, strlen(text));
	struct sim_error err;
	struct machine m;

	(void)state;
	sim_alloc_fail_after(0);
	sim_error_clear(&err);
	assert_int_equal(machine_load_json_file(path, &m, &err), -1);
	sim_alloc_fail_after(-1);
	assert_int_equal(err.code, SIM_ERR_NOMEM);
	sim_error_clear(&err);
	assert_int_equal(machine_load_json_file(path, &m, &err), 0);
	assert_int_equal(unlink(path), 0);
	free(path);
}

/* ---- cpupower idle-info layout ---- */

static void test_idle_info(void **state)
{
	static const char head[] =
		"Machine: skl - Skylake client (SKYLAKE, KABYLAKE), intel_idle skl_cstates\n"
		"Topology: 1 package(s) x 4 core(s) x 2 thread(s) = 8 CPUs\n"
		"Active power: core 4.000 W, package 5.000 W\n"
		"CPUidle driver: intel_idle\n"
		"Number of idle states: 9\n"
		"Available idle states: POLL C1 C1E C3 C6 C7s C8 C9 C10\n"
		"POLL:\n"
		"Flags/Description: CPUIDLE CORE POLL IDLE\n"
		"Latency: 0\n"
		"Residency: 0\n"
		"Flags: POLLING\n"
		"Power: core 3.500 W, package 5.000 W, entry+exit 0.000 uJ\n"
		"Wake latency: as advertised\n"
		"C1:\n"
		"Flags/Description: MWAIT 0x00\n"
		"Latency: 2\n"
		"Residency: 2\n"
		"Flags: -\n"
		/* (3.5 - 1.36) W x 2 us = 4.28 uJ */
		"Power: core 1.360 W, package 5.000 W, entry+exit 4.280 uJ\n"
		"Wake latency: typical 1.000 us\n" /* docs/wake-latency.md: rule R, 2 / 2 */
		"C1E:\n";
	static const char c6[] = "C6:\n"
				 "Flags/Description: MWAIT 0x20\n"
				 "Latency: 85\n"
				 "Residency: 200\n"
				 "Flags: TLB_FLUSHED IBRS\n";
	struct machine m;
	char *text;

	(void)state;
	load_ok("skl", &m);
	text = idle_info(&m);
	assert_memory_equal(text, head, strlen(head));
	assert_non_null(strstr(text, c6));
	free(text);

	load_ok("hsx", &m);
	text = idle_info(&m);
	assert_non_null(strstr(text, "\nC3 (DISABLED) :\nFlags/Description: MWAIT 0x10\n"
				     "Latency: 33\nResidency: 100\nFlags: OFF TLB_FLUSHED\n"));
	assert_non_null(
		strstr(text, "Topology: 2 package(s) x 12 core(s) x 2 thread(s) = 48 CPUs\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_list),
		cmocka_unit_test(test_skl_table),
		cmocka_unit_test(test_kvm_table),
		cmocka_unit_test(test_hsw_bdw_tables),
		cmocka_unit_test(test_server_tables),
		cmocka_unit_test(test_builtins_validate),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_flag_names),
		cmocka_unit_test(test_state_lookup),
		cmocka_unit_test(test_to_driver),
		cmocka_unit_test(test_default_energy_skl),
		cmocka_unit_test(test_default_energy_clamps),
		cmocka_unit_test(test_break_even_property),
		cmocka_unit_test(test_default_energy_selects_fields),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_load_unknown_name),
		cmocka_unit_test(test_load_builtin_case_insensitive),
		cmocka_unit_test(test_load_files),
		cmocka_unit_test(test_file_names),
		cmocka_unit_test(test_load_big_file),
		cmocka_unit_test(test_load_out_of_memory),
		cmocka_unit_test(test_idle_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
