// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_snapshot.c - machines from sysfs snapshots (sim/machine/snapshot.h): the fixtures of
 * tests/snapshots (written by hand from the kernel's rules: tests/snapshots/make-fixtures.sh)
 * as directories, .tar and .tar.gz, against values worked out by hand; the JSON round trip of
 * what is assumed; and every kind of bad input, each an error naming the file in the snapshot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/machine/snapshot.h"
#include "tests/testbin.h"

#define FIX SRC "/tests/snapshots"

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("snapshot");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

static void load_ok(const char *path, struct machine *m, FILE *note)
{
	struct sim_error err = {0};

	if (machine_load_snapshot(path, NULL, m, note, &err))
		fail_msg("%s: %s: %s", path, err.source, err.text);
}

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

static void assert_has(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' not in '%s'", part, s);
}

/* ---- the fixtures ---- */

/* skx_cstates on 2 x 4 x 2, Linux's numbering; before 5.6 (no default_status). */
static void check_server(const struct machine *m)
{
	static const char *const names[] = {"POLL", "C1", "C1E", "C6"};
	static const int64_t lat_ns[] = {0, 2000, 10000, 133000};
	static const int64_t res_ns[] = {0, 2000, 20000, 600000};
	int pkg, core, thread;

	assert_string_equal(m->driver, "intel_idle");
	assert_int_equal(m->packages, 2);
	assert_int_equal(m->cores, 4);
	assert_int_equal(m->threads, 2);
	assert_int_equal(m->nr_core_types, 0);
	assert_int_equal(machine_nr_cpus(m), 16);
	/* CPU 9 is the sibling of CPU 1: package 0, second core, second thread */
	machine_cpu_topology(m, 9, &pkg, &core, &thread);
	assert_int_equal(pkg, 0);
	assert_int_equal(core, 1);
	assert_int_equal(thread, 1);
	assert_int_equal(m->state_count, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(m->states[i].name, names[i]);
		assert_int_equal(m->states[i].exit_latency_ns, lat_ns[i]);
		assert_int_equal(m->states[i].target_residency_ns, res_ns[i]);
		assert_int_equal(m->states[i].flags, i ? 0 : CPUIDLE_FLAG_POLLING);
		assert_false(m->states[i].default_off);
	}
	/* the table is skx's: its powers and typical wake latencies */
	assert_has(m->desc, "the table of built-in skx");
	assert_has(m->desc, "governor menu"); /* from current_governor_ro */
	assert_has(m->assumed, "built-in skx");
	assert_close(m->active_core_power_w, 4.0);
	assert_close(m->active_package_power_w, 55.0);
	assert_int_equal(m->states[0].wake.kind, MACHINE_WAKE_WORST);
	assert_int_equal(m->states[1].wake.typical_ns, 1000);
	assert_int_equal(m->states[2].wake.typical_ns, 5000);
	assert_int_equal(m->states[3].wake.typical_ns, 92000);
	/* the default rule: POLL 0.875 x 4 W; C1 (2 us) 0.34 x 4 W; package C1E (20 us) 1.0 x
	 * 55 W; package C6 (600 us): t = log10(600/400) / log10(5000/400) = 0.1605329,
	 * 0.15 - 0.1 t = 0.1339467, x 55 W */
	assert_close(m->states[0].core_power_w, 3.5);
	assert_close(m->states[1].core_power_w, 1.36);
	assert_close(m->states[2].package_power_w, 55.0);
	if (fabs(m->states[3].package_power_w - 7.367070) > 1e-5)
		fail_msg("package C6 %.9g W, want 7.367070", m->states[3].package_power_w);
}

static void test_server_dir(void **state)
{
	struct machine m;

	(void)state;
	load_ok(FIX "/server-2s", &m, NULL);
	check_server(&m);
	assert_string_equal(m.name, "server-2s");
}

/* A plain tar with "./" members, and --machine through machine_load(). */
static void test_server_tar(void **state)
{
	struct sim_error err = {0};
	char cmd[512];
	struct machine m;

	(void)state;
	snprintf(cmd, sizeof(cmd), "tar cf %s -C %s/server-2s .", tmp_path("srv.tar"), FIX);
	assert_int_equal(sh(cmd), 0);
	assert_int_equal(machine_load(tmp_path("srv.tar"), &m, &err), 0);
	check_server(&m);
	assert_string_equal(m.name, "srv");
}

/* The KVM guest: the table and topology of built-in kvm; a haltpoll parameter noted. */
static void check_guest(const struct machine *m)
{
	assert_string_equal(m->driver, "haltpoll");
	assert_int_equal(machine_nr_cpus(m), 8);
	assert_int_equal(m->packages, 1);
	assert_int_equal(m->cores, 8);
	assert_int_equal(m->threads, 1);
	assert_int_equal(m->state_count, 2);
	assert_string_equal(m->states[1].name, "haltpoll idle");
	assert_string_equal(m->states[1].desc, "default architecture idle");
	assert_int_equal(m->states[1].exit_latency_ns, 1000);
	assert_int_equal(m->states[1].target_residency_ns, 1000);
	assert_int_equal(m->states[1].wake.typical_ns, 6000);
	assert_close(m->active_package_power_w, 0.0);
	assert_has(m->desc, "governor haltpoll");
	assert_has(m->desc, "the table of built-in kvm");
}

/* A .tar.gz of the fixture's directory: its members sit under kvm-guest/. */
static void test_guest_targz(void **state)
{
	char cmd[512], *note;
	struct machine m;
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd), "tar czf %s -C %s kvm-guest", tmp_path("guest.tar.gz"), FIX);
	assert_int_equal(sh(cmd), 0);
	f = fopen(tmp_path("note"), "w");
	assert_non_null(f);
	load_ok(tmp_path("guest.tar.gz"), &m, f);
	fclose(f);
	check_guest(&m);
	assert_string_equal(m.name, "guest");
	note = slurp_tmp("note");
	assert_has(note, "--set haltpoll.guest_halt_poll_ns=400000");
	assert_has(note, "built-in kvm's table");
	free(note);
	load_ok(FIX "/kvm-guest", &m, NULL);
	check_guest(&m);
}

/*
 * The hybrid Alder Lake: kinds from cpu_core/cpus and cpu_atom/cpus. Its table is
 * adl_l_cstates as 6.12 registers it (C1 unusable), which is built-in adl-l's: package 5 W,
 * the E-cores' (cpu_atom) 1.6 W, wake latencies half the exit latency (adl-l's rule R rows:
 * C1E 1 us, C6 85 us, C8 100 us, C10 115 us). Before adl-l was built in, the closest table
 * by names then distance was skl's (0 + 24 + 385 + 200 + 4960 = 5569 us against hsw's and
 * bdw's 9931), with the same package power and wake latencies.
 */
static void check_adl(const struct machine *m)
{
	static const char *const names[] = {"POLL", "C1E", "C6", "C8", "C10"};
	static const int64_t lat_us[] = {0, 2, 170, 200, 230};
	static const int64_t res_us[] = {0, 4, 500, 600, 700};
	static const int64_t wake_ns[] = {0, 1000, 85000, 100000, 115000};
	int core, thread;

	assert_int_equal(m->packages, 1);
	assert_int_equal(m->nr_core_types, 2);
	assert_string_equal(m->core_types[0].name, "cpu_core");
	assert_int_equal(m->core_types[0].cores, 4);
	assert_int_equal(m->core_types[0].threads, 2);
	assert_string_equal(m->core_types[1].name, "cpu_atom");
	assert_int_equal(m->core_types[1].cores, 8);
	assert_int_equal(m->core_types[1].threads, 1);
	assert_int_equal(m->cores, 12);
	assert_int_equal(m->threads, 2);
	assert_int_equal(machine_nr_cpus(m), 16);
	assert_int_equal(machine_cpu_core_type(m, 7), 0);
	assert_int_equal(machine_cpu_core_type(m, 8), 1);
	machine_cpu_topology(m, 3, NULL, &core, &thread);
	assert_int_equal(core, 1);
	assert_int_equal(thread, 1);
	machine_cpu_topology(m, 8, NULL, &core, &thread);
	assert_int_equal(core, 4);
	assert_int_equal(thread, 0);
	assert_int_equal(m->state_count, 5);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(m->states[i].name, names[i]);
		assert_int_equal(m->states[i].exit_latency_ns, lat_us[i] * 1000);
		assert_int_equal(m->states[i].target_residency_ns, res_us[i] * 1000);
		if (i)
			assert_int_equal(m->states[i].wake.typical_ns, wake_ns[i]);
	}
	assert_has(m->assumed, "of built-in adl-l, whose table this is");
	assert_close(m->active_package_power_w, 5.0);
	assert_close(m->core_types[0].active_core_power_w, 0.0); /* the machine's 4 W */
	assert_close(m->core_types[1].active_core_power_w, 1.6);
}

/* A .tgz whose top is sys/; and the JSON form reads back what is assumed. */
static void test_adl(void **state)
{
	struct sim_error err = {0};
	struct machine m, back;
	char cmd[512];
	FILE *f;

	(void)state;
	load_ok(FIX "/adl-hybrid", &m, NULL);
	check_adl(&m);
	snprintf(cmd, sizeof(cmd), "tar czf %s -C %s/adl-hybrid sys", tmp_path("adl.tgz"), FIX);
	assert_int_equal(sh(cmd), 0);
	load_ok(tmp_path("adl.tgz"), &m, NULL);
	check_adl(&m);
	f = fopen(tmp_path("adl.json"), "w");
	assert_non_null(f);
	assert_int_equal(machine_write_json(f, &m), 0);
	fclose(f);
	assert_int_equal(machine_load_json_file(tmp_path("adl.json"), &back, &err), 0);
	check_adl(&back);
	assert_string_equal(back.assumed, m.assumed);
}

/* A state disabled now (disable 1) but enabled by default keeps its default, with a note. */
static void test_disabled_now(void **state)
{
	struct machine m;
	char cmd[512], *note;
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s && cp -r %s/kvm-guest %s && for c in 2 3; do echo 1 "
		 ">%s/sys/devices/system/cpu/cpu$c/cpuidle/state1/disable; done",
		 tmp_path("off"), FIX, tmp_path("off"), tmp_path("off"));
	assert_int_equal(sh(cmd), 0);
	f = fopen(tmp_path("note-off"), "w");
	assert_non_null(f);
	load_ok(tmp_path("off"), &m, f);
	fclose(f);
	assert_false(m.states[1].default_off);
	note = slurp_tmp("note-off");
	assert_has(note, "cpu2/cpuidle/state1/disable: the state is disabled now");
	assert_has(note, "--disable 'haltpoll idle'");
	assert_null(strstr(note, "cpu3/")); /* said once */
	free(note);
}

/* --name, and a snapshot named like a built-in. */
static void test_names(void **state)
{
	struct sim_error err = {0};
	struct machine m;
	char cmd[512];

	(void)state;
	assert_int_equal(machine_load_snapshot(FIX "/kvm-guest", "my-vm", &m, NULL, &err), 0);
	assert_string_equal(m.name, "my-vm");
	snprintf(cmd, sizeof(cmd), "tar czf %s -C %s/kvm-guest sys", tmp_path("kvm.tar.gz"), FIX);
	assert_int_equal(sh(cmd), 0);
	load_ok(tmp_path("kvm.tar.gz"), &m, NULL);
	assert_string_equal(m.name, "kvm-snapshot");
}

/* ---- bad input ---- */

/* The load fails with an input error at `where` (the end of err.source), line:col, saying msg. */
static void expect_error_lim(const char *path, const struct snapshot_limits *lim,
			     const char *where, int line, int col, const char *msg)
{
	struct sim_error err = {0};
	struct machine m;
	size_t n = strlen(err.source), k = strlen(where);

	if (!machine_load_snapshot_limits(path, NULL, &m, NULL, lim, &err))
		fail_msg("%s: loaded; expected an error at %s", path, where);
	n = strlen(err.source);
	if (n < k || strcmp(err.source + n - k, where))
		fail_msg("error at '%s', expected at '...%s' (%s)", err.source, where, err.text);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, col);
	assert_has(err.text, msg);
}

static void expect_error(const char *path, const char *where, int line, int col, const char *msg)
{
	const struct snapshot_limits lim = {SNAPSHOT_MEMBER_MAX_BYTES, SNAPSHOT_MAX_MEMBERS};

	expect_error_lim(path, &lim, where, line, col, msg);
}

/* A copy of fixture `fix` in tmpdir/name, then the shell command `edit` run inside it. */
static const char *edited(const char *fix, const char *name, const char *edit)
{
	char cmd[1024];
	const char *dir = tmp_path(name);

	snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -r %s/%s %s && cd %s/sys/devices/system/cpu && %s",
		 dir, FIX, fix, dir, dir, edit);
	assert_int_equal(sh(cmd), 0);
	return dir;
}

/* A copy of a fixture with one thing broken (a shell command in its cpu directory). */
struct bad_case {
	const char *fix, *edit, *where;
	int line, col;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{"kvm-guest", "rm cpu3/cpuidle/state1/latency", "cpu3/cpuidle/state1/latency", 0, 0,
	 "missing from the snapshot"},
	{"kvm-guest", "echo 1x0 >cpu0/cpuidle/state1/latency", "cpu0/cpuidle/state1/latency", 1, 2,
	 "not a decimal number"},
	{"kvm-guest", "echo -5 >cpu5/cpuidle/state1/residency", "cpu5/cpuidle/state1/residency", 1,
	 1, "negative"},
	{"kvm-guest", "mv cpu2/cpuidle/state1 cpu2/cpuidle/state2", "cpu2/cpuidle/state1", 0, 0,
	 "without gaps"},
	{"kvm-guest", "printf '1\\n2\\n' >cpu0/cpuidle/state1/latency", "cpu0/cpuidle/state1/latency",
	 2, 1, "a second line"},
	{"kvm-guest", "echo maybe >cpu0/cpuidle/state0/default_status",
	 "cpu0/cpuidle/state0/default_status", 1, 1, "enabled or disabled"},
	{"kvm-guest", "echo 0-3,5-7 >online", "online", 1, 1, "hole"},
	{"kvm-guest", "echo none >cpuidle/current_driver", "cpuidle/current_driver", 1, 1,
	 "no cpuidle driver"},
	/* a file of the copy that is a link out of it */
	{"kvm-guest", "rm cpu1/cpuidle/state0/name && ln -s /etc/hostname cpu1/cpuidle/state0/name",
	 "cpu1/cpuidle/state0/name", 0, 0, "points out of the snapshot"},
	/* cpu9 is cpu1's SMT sibling */
	{"server-2s", "echo 150 >cpu9/cpuidle/state3/latency", "cpu9/cpuidle/state3/latency", 0, 0,
	 "SMT sibling cpu1's '133'"},
	{"server-2s", "echo 30 >cpu2/cpuidle/state2/residency", "cpu2/cpuidle/state2/residency", 0,
	 0, "differs from cpu0's '20'"},
	{"server-2s", "rm -r cpu4/cpuidle/state3", "cpu4/cpuidle/state3", 0, 0,
	 "another number of states"},
	{"kvm-guest", "for c in 0 1 2 3 4 5 6 7; do echo POLL >cpu$c/cpuidle/state1/name; done",
	 "cpu0/cpuidle/state1/name", 1, 1, "always state0"},
	{"kvm-guest", "echo 0-1 >cpu0/topology/thread_siblings_list",
	 "cpu0/topology/thread_siblings_list", 1, 1, "not the CPUs with this"},
};

static void test_bad_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		char name[16], where[128];

		snprintf(name, sizeof(name), "bad%zu", i);
		snprintf(where, sizeof(where), "/sys/devices/system/cpu/%s", c->where);
		expect_error(edited(c->fix, name, c->edit), where, c->line, c->col, c->msg);
	}
}

/*
 * 1 package, 2 cores of 2 threads numbered 0: core A, 1: core B, 2: core B, 3: core A:
 * not thread rank by thread rank (CPU 2 would be core A's second thread), nor core by core.
 */
static void test_bad_topology(void **state)
{
	const char *fix = "f=topology/thread_siblings_list; echo 0-3 >online && rm -r cpu4 cpu5 "
			  "cpu6 cpu7 && echo 0,3 >cpu0/$f && echo 1-2 >cpu1/$f && echo 1-2 "
			  ">cpu2/$f && echo 0,3 >cpu3/$f && echo 0 >cpu3/topology/core_id && "
			  "echo 1 >cpu2/topology/core_id";

	(void)state;
	expect_error(edited("kvm-guest", "p1", fix),
		     "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", 1, 1,
		     "this topology is neither");
}

/* An archive written member by member: {name, content or NULL, symlink target or NULL}. */
struct member {
	const char *name, *data, *link;
	size_t size; /* of a generated member of 'x's when data is NULL and link is NULL */
};

static const char *write_tar(const char *name, const struct member *mv, int n)
{
	const char *path = tmp_path(name);
	struct archive *a = archive_write_new();

	assert_non_null(a);
	assert_int_equal(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (int i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		size_t len = mv[i].data ? strlen(mv[i].data) : mv[i].size;
		char *big = NULL;

		archive_entry_set_pathname(e, mv[i].name);
		archive_entry_set_perm(e, 0644);
		if (mv[i].link) {
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_symlink(e, mv[i].link);
		} else {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_size(e, (la_int64_t)len);
		}
		assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
		if (!mv[i].link) {
			big = mv[i].data ? NULL : malloc(len);
			if (big)
				memset(big, 'x', len);
			assert_int_equal(archive_write_data(a, mv[i].data ? mv[i].data : big, len),
					 (la_ssize_t)len);
		}
		free(big);
		archive_entry_free(e);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	return path;
}

static void test_bad_archives(void **state)
{
	const struct member abs[] = {{"/sys/devices/system/cpu/online", "0\n", NULL, 0}};
	const struct member dotdot[] = {{"sys/../../etc/passwd", "root\n", NULL, 0}};
	const struct member link_out[] = {
		{"sys/devices/system/cpu/online", NULL, "../../../../../etc/hostname", 0}};
	const struct member link_abs[] = {{"sys/devices/system/cpu/online", NULL, "/etc/hostname", 0}};
	const struct member big[] = {{"sys/devices/system/cpu/online", NULL, NULL, 70000}};
	const struct snapshot_limits few = {SNAPSHOT_MEMBER_MAX_BYTES, 20};
	char cmd[512];

	(void)state;
	expect_error(write_tar("abs.tar", abs, 1), "abs.tar//sys/devices/system/cpu/online", 0, 0,
		     "absolute member name");
	expect_error(write_tar("dotdot.tar", dotdot, 1), "dotdot.tar/sys/../../etc/passwd", 0, 0,
		     "'..'");
	expect_error(write_tar("link.tar", link_out, 1), "link.tar/sys/devices/system/cpu/online",
		     0, 0, "points out of the snapshot");
	expect_error(write_tar("linkabs.tar", link_abs, 1),
		     "linkabs.tar/sys/devices/system/cpu/online", 0, 0, "absolute path");
	expect_error(write_tar("big.tar", big, 1), "big.tar/sys/devices/system/cpu/online", 0, 0,
		     "over 65536");
	/* the server's tar has 16 CPUs x (4 states x 5 files + 4) files and more */
	snprintf(cmd, sizeof(cmd), "tar cf %s -C %s/server-2s sys", tmp_path("srv2.tar"), FIX);
	assert_int_equal(sh(cmd), 0);
	expect_error_lim(tmp_path("srv2.tar"), &few, "srv2.tar", 0, 0, "more than 20 members");
	expect_error(write_tar("empty.tar", NULL, 0), "empty.tar", 0, 0, "not a sysfs snapshot");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_dir),  cmocka_unit_test(test_server_tar),
		cmocka_unit_test(test_guest_targz), cmocka_unit_test(test_adl),
		cmocka_unit_test(test_names),	    cmocka_unit_test(test_disabled_now),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bad_topology),
		cmocka_unit_test(test_bad_archives),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
