// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_intel_tables.c - the intel_idle built-ins and module parameters.
 *
 * `test_intel_tables` (quick): the module parameters (sim/machine/intel_idle_params.c) on
 * built-ins, each expected table written out by hand from the rules of Linux 6.12's
 * drivers/idle/intel_idle.c (intel_idle_init_cstates_icpu(), adl_idle_state_table_update(),
 * intel_idle_off_by_default()) and the assumed _CST of sim/machine/cstates_intel.c.
 *
 * `test_intel_tables fidelity` (label fidelity): every intel_idle built-in against the
 * cpuidle_state tables of Debian's linux-source-6.12 (drivers/idle/intel_idle.c extracted
 * into the build tree, never the repository), field by field: name, desc, flags, exit
 * latency, target residency, off by default; and each model its desc names (HASWELL_X, ...)
 * must map to that table in the kernel's intel_idle_ids. Without the package it prints
 * SKIPPED and exits 77 (ctest: "Skipped").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "sim/machine/intel_idle.h"
#include "sim/machine/machine.h"

#define KSRC IDLESIM_BINARY_DIR "/kernel-src/intel_idle-6.12"
#define KTAR "/usr/src/linux-source-6.12.tar.xz"
#define US 1000

/* ---- module parameters, by hand ---- */

struct want {
	const char *name;
	int64_t lat_us, res_us;
	bool off;
};

static void load_with(const char *machine, const char *const *names, const long long *values,
		      int n, struct machine *m, int expect_rc)
{
	struct intel_idle_params p = { 0 };
	struct sim_error err = { 0 };
	int rc = 0;

	assert_int_equal(machine_load(machine, m, &err), 0);
	for (int i = 0; i < n && !rc; i++)
		rc = intel_idle_param_set(&p, names[i], values[i], &err);
	if (!rc)
		rc = intel_idle_apply(m, machine_find_builtin(machine) != NULL, &p, &err);
	if (rc && !expect_rc)
		fprintf(stderr, "%s\n", err.text);
	assert_int_equal(rc, expect_rc);
	if (rc)
		assert_int_equal(err.code, SIM_ERR_INPUT);
}

static void expect_states(const struct machine *m, const struct want *w, int n)
{
	assert_int_equal(m->state_count, n);
	for (int i = 0; i < n; i++) {
		assert_string_equal(m->states[i].name, w[i].name);
		assert_int_equal(m->states[i].exit_latency_ns, w[i].lat_us * US);
		assert_int_equal(m->states[i].target_residency_ns, w[i].res_us * US);
		assert_int_equal(m->states[i].default_off, w[i].off);
		assert_int_equal(!!(m->states[i].flags & CPUIDLE_FLAG_OFF), w[i].off);
	}
}

/* No parameter given a value that changes nothing: the built-in, energy included. */
static void test_neutral_params(void **state)
{
	static const char *const names[] = { "states_off", "max_cstate", "no_acpi" };
	static const long long values[] = { 0, 9, 0 };
	const char *machines[] = { "hsw", "skl", "hsx", "bdx", "skx", "icx", "spr",
				   "gnr", "srf", "grr", "adl", "adl-n", "mtl" };
	struct sim_error err = { 0 };
	(void)state;

	for (size_t k = 0; k < sizeof(machines) / sizeof(machines[0]); k++) {
		struct machine a, b;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		assert_int_equal(machine_load(machines[k], &a, &err), 0);
		/* no_acpi=0 is the default; hsx's C3 stays off through the _CST */
		load_with(machines[k], names, values, 3, &b, 0);
		assert_memory_equal(&a, &b, sizeof(a));
	}
}

/* states_off: bit i is registered state i (0 = POLL). */
static void test_states_off(void **state)
{
	static const char *const names[] = { "states_off" };
	struct machine m;
	(void)state;

	/* 0b1010: C1 and C6 of spr (POLL C1 C1E C6) */
	load_with("spr", names, (const long long[]){ 10 }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false },
						 { "C1", 1, 1, true },
						 { "C1E", 2, 4, false },
						 { "C6", 290, 800, true } },
		      4);
	/* on adl the indices count registered states: state 1 is C1E, not the skipped C1 */
	load_with("adl", names, (const long long[]){ 3 }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, true },
						 { "C1E", 2, 4, true },
						 { "C6", 220, 600, false },
						 { "C8", 280, 800, false },
						 { "C10", 680, 2000, false } },
		      5);
	/* bits past the table do nothing; ALWAYS_ENABLE does not resist states_off */
	load_with("grr", names, (const long long[]){ 0xfffffff6LL }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false },
						 { "C1", 1, 1, true },
						 { "C1E", 2, 10, true },
						 { "C6S", 140, 500, false } },
		      4);
}

/* preferred_cstates: C1 instead of C1E where adl_idle_state_table_update() runs. */
static void test_preferred_cstates(void **state)
{
	static const char *const names[] = { "preferred_cstates" };
	static const char *const both[] = { "preferred_cstates", "states_off" };
	struct machine m;
	(void)state;

	load_with("adl-l", names, (const long long[]){ 2 }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false },
						 { "C1", 1, 1, false },
						 { "C6", 170, 500, false },
						 { "C8", 200, 600, false },
						 { "C10", 230, 700, false } },
		      5);
	assert_string_equal(m.states[1].desc, "MWAIT 0x00");
	assert_int_equal(m.states[1].flags, 0);
	/* bit 2 (C1E) also set: C1E stays */
	load_with("adl-n", names, (const long long[]){ 6 }, 1, &m, 0);
	assert_string_equal(m.states[1].name, "C1E");
	assert_int_equal(m.state_count, 5);
	/* with states_off, the index is that of the new table: state 1 is C1 */
	load_with("adl", both, (const long long[]){ 2, 2 }, 2, &m, 0);
	assert_string_equal(m.states[1].name, "C1");
	assert_true(m.states[1].default_off);
	assert_false(m.states[2].default_off);
	/* no effect on 6.12's Sapphire Rapids, nor on Meteor Lake */
	load_with("spr", names, (const long long[]){ 2 }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false },
						 { "C1", 1, 1, false },
						 { "C1E", 2, 4, false },
						 { "C6", 290, 800, false } },
		      4);
	load_with("mtl", names, (const long long[]){ 2 }, 1, &m, 0);
	assert_string_equal(m.states[1].name, "C1E");
}

/* max_cstate counts table entries, the UNUSABLE C1 of adl included. */
static void test_max_cstate(void **state)
{
	static const char *const names[] = { "max_cstate" };
	static const char *const pref[] = { "max_cstate", "preferred_cstates" };
	struct machine m;
	(void)state;

	load_with("gnr", names, (const long long[]){ 3 }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false },
						 { "C1", 1, 1, false },
						 { "C1E", 4, 4, false },
						 { "C6", 170, 650, false } },
		      4);
	/* adl: table C1 (skipped), C1E, C6, ...: max_cstate=2 leaves POLL, C1E */
	load_with("adl", names, (const long long[]){ 2 }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false },
						 { "C1E", 2, 4, false } },
		      2);
	/* max_cstate=1: only the skipped C1 is in range */
	load_with("adl", names, (const long long[]){ 1 }, 1, &m, 0);
	assert_int_equal(m.state_count, 1);
	load_with("adl", pref, (const long long[]){ 1, 2 }, 2, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false }, { "C1", 1, 1, false } },
		      2);
	/* negative: POLL alone (the kernel refuses only 0) */
	load_with("skx", names, (const long long[]){ -1 }, 1, &m, 0);
	assert_int_equal(m.state_count, 1);
	load_with("skx", names, (const long long[]){ 0 }, 1, &m, -1);
}

/* no_acpi / use_acpi against the assumed _CST (C1 0x00, C1E 0x01, C6 0x20). */
static void test_acpi(void **state)
{
	static const char *const no[] = { "no_acpi" };
	static const char *const use[] = { "use_acpi" };
	struct machine m;
	(void)state;

	load_with("hsx", (const char *const[]){ "states_off" }, (const long long[]){ 0 }, 1, &m, 0);
	assert_true(m.states[3].default_off); /* C3, hint 0x10, not in the _CST */
	load_with("hsx", no, (const long long[]){ 1 }, 1, &m, 0);
	expect_states(&m, (const struct want[]){ { "POLL", 0, 0, false },
						 { "C1", 2, 2, false },
						 { "C1E", 10, 20, false },
						 { "C3", 33, 100, false },
						 { "C6", 133, 400, false } },
		      5);
	load_with("bdx", use, (const long long[]){ 1 }, 1, &m, 0);
	assert_true(m.states[3].default_off);
	/* a client part has no assumed _CST: use_acpi=1 is refused, use_acpi=0 is fine */
	load_with("adl", use, (const long long[]){ 1 }, 1, &m, -1);
	load_with("adl", use, (const long long[]){ 0 }, 1, &m, 0);
	load_with("skl", no, (const long long[]){ 1 }, 1, &m, 0);
	assert_int_equal(m.state_count, 9);
}

/* Values and machines the kernel (or idlesim) refuses. */
static void test_refused(void **state)
{
	struct intel_idle_params p = { 0 };
	struct sim_error err = { 0 };
	struct machine m;
	(void)state;

	assert_int_equal(intel_idle_param_set(&p, "states_off", -1, &err), -1);
	assert_int_equal(intel_idle_param_set(&p, "states_off", 4294967296LL, &err), -1);
	assert_int_equal(intel_idle_param_set(&p, "states_off", 4294967295LL, &err), 0);
	assert_int_equal(intel_idle_param_set(&p, "preferred_cstates", -2, &err), -1);
	assert_int_equal(intel_idle_param_set(&p, "max_cstate", 2147483648LL, &err), -1);
	assert_int_equal(intel_idle_param_set(&p, "no_acpi", 2, &err), -1);
	assert_int_equal(intel_idle_param_set(&p, "ibrs_off", 1, &err), -1);
	assert_int_equal(intel_idle_param_set(&p, "c1e_promotion", 1, &err), -1);
	/* the KVM guest's driver is haltpoll */
	assert_int_equal(machine_load("kvm", &m, &err), 0);
	sim_error_clear(&err); /* the first error of err is kept */
	assert_int_equal(intel_idle_apply(&m, true, &p, &err), -1);
	assert_non_null(strstr(err.text, "does not use the intel_idle driver"));
	/* a file's table: states_off applies, preferred_cstates needs the kernel's table */
	assert_int_equal(machine_load("adl", &m, &err), 0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(intel_idle_param_set(&p, "preferred_cstates", 2, &err), 0);
	assert_int_equal(intel_idle_apply(&m, false, &p, &err), -1);
	memset(&p, 0, sizeof(p));
	assert_int_equal(intel_idle_param_set(&p, "states_off", 4, &err), 0);
	assert_int_equal(intel_idle_apply(&m, false, &p, &err), 0);
	assert_true(m.states[2].default_off);
	assert_false(m.states[1].default_off);
}

/* ---- fidelity: the kernel's tables ---- */

struct kstate {
	char name[32], desc[64];
	unsigned int flags, hint;
	long lat, res;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A quoted string after `key` within [p, end): into out. */
static int quoted(const char *p, const char *end, const char *key, char *out, size_t len)
{
	const char *k = strstr(p, key), *q, *e;

	if (!k || k >= end || !(q = strchr(k, '"')) || q >= end || !(e = strchr(q + 1, '"')) ||
	    (size_t)(e - q - 1) >= len)
		return -1;
	memcpy(out, q + 1, (size_t)(e - q - 1));
	out[e - q - 1] = '\0';
	return 0;
}

/* "MWAIT2flg(0x20) | CPUIDLE_FLAG_TLB_FLUSHED | ..." up to the next ',' */
static int parse_flags(const char *p, const char *end, unsigned int *flags, unsigned int *hint)
{
	const char *k = strstr(p, ".flags"), *e;

	*flags = 0;
	*hint = 0;
	if (!k || k >= end || !(e = strchr(k, ',')) || e > end)
		return -1;
	for (const char *t = k; t < e; t++) {
		if (!strncmp(t, "MWAIT2flg(", 10)) {
			*hint = (unsigned int)strtoul(t + 10, NULL, 16);
		} else if (!strncmp(t, "CPUIDLE_FLAG_", 13)) {
			size_t n = strspn(t + 13, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
			unsigned int bit;

			for (bit = 0; bit < 32; bit++) {
				const char *fn = machine_flag_name(bit);

				if (fn && strlen(fn) == n && !strncmp(fn, t + 13, n))
					break;
			}
			if (bit == 32) {
				printf("FAILED: unknown flag %.*s\n", (int)(n + 13), t);
				return -1;
			}
			*flags |= 1u << bit;
			t += 13 + n - 1;
		}
	}
	return 0;
}

static long number_after(const char *p, const char *end, const char *key)
{
	const char *k = strstr(p, key);

	return k && k < end ? strtol(k + strlen(key) + strspn(k + strlen(key), " \t="), NULL, 10)
			    : -1;
}

/* The entries of `static struct cpuidle_state TABLE_cstates[] __initdata = {...};`. */
static int parse_table(const char *src, const char *table, struct kstate *out, int max)
{
	char head[96];
	const char *p, *end;
	int n = 0;

	snprintf(head, sizeof(head), "static struct cpuidle_state %s_cstates[] __initdata = {",
		 table);
	if (!(p = strstr(src, head)) || !(end = strstr(p, "\n};")))
		return -1;
	p += strlen(head);
	while (n < max) {
		const char *e = strstr(p, ".enter_s2idle"), *null = strstr(p, ".enter = NULL");
		struct kstate *s = &out[n];

		if (!e || e > end || (null && null < e))
			break;
		if (quoted(p, e, ".name", s->name, sizeof(s->name)) ||
		    quoted(p, e, ".desc", s->desc, sizeof(s->desc)) ||
		    parse_flags(p, e, &s->flags, &s->hint))
			return -1;
		s->lat = number_after(p, e, ".exit_latency");
		s->res = number_after(p, e, ".target_residency");
		n++;
		p = e + 1;
	}
	return n;
}

/* The table of the idle_cpu that X86_MATCH_VFM(INTEL_model, ...) names, or "". */
static void model_table(const char *src, const char *model, char *out, size_t len)
{
	char key[96], icpu[64] = "";
	const char *p, *t;
	size_t n;

	out[0] = '\0';
	snprintf(key, sizeof(key), "X86_MATCH_VFM(INTEL_%s,", model);
	if (!(p = strstr(src, key)) || sscanf(strchr(p, '&') + 1, "%63[a-z_0-9]", icpu) != 1)
		return;
	snprintf(key, sizeof(key), "static const struct idle_cpu %s __initconst = {", icpu);
	if (!(p = strstr(src, key)) || !(t = strstr(p, ".state_table = ")) || t > strstr(p, "};"))
		return;
	t += strlen(".state_table = ");
	n = strspn(t, "abcdefghijklmnopqrstuvwxyz_0123456789");
	if (n < len) {
		memcpy(out, t, n);
		out[n] = '\0';
	}
}

struct fid {
	const char *machine, *table;
	int count;	    /* registered states after POLL (hsx, bdx: CPUID lacks C7s..C10) */
	const char *off;    /* off by default: use_acpi and not in the assumed _CST */
	bool adl;	    /* adl_idle_state_table_update(): C1 UNUSABLE by default */
};

static const struct fid fids[] = {
	{ "hsw", "hsw", 8, "", false },	  { "bdw", "bdw", 8, "", false },
	{ "skl", "skl", 8, "", false },	  { "hsx", "hsw", 4, "C3", false },
	{ "bdx", "bdw", 4, "C3", false }, { "skx", "skx", 3, "", false },
	{ "icx", "icx", 3, "", false },	  { "spr", "spr", 3, "", false },
	{ "emr", "spr", 3, "", false },	  { "gnr", "gnr", 4, "", false },
	{ "srf", "srf", 4, "", false },	  { "grr", "grr", 3, "", false },
	{ "adl", "adl", 4, "", true },	  { "adl-l", "adl_l", 4, "", true },
	{ "adl-n", "gmt", 4, "", true },  { "mtl", "mtl_l", 3, "", false },
};

static int mismatch(const char *machine, int i, const char *what)
{
	printf("FAILED: %s state %d: %s differs from intel_idle.c 6.12\n", machine, i, what);
	return 1;
}

/* Machine m's states from 1 against kernel entries k (UNUSABLE ones skipped unless keep_c1). */
static int compare(const struct fid *f, const struct machine *m, const struct kstate *k, int nk,
		   bool prefer_c1)
{
	int failed = 0, i = 1;

	for (int t = 0; t < nk && i <= f->count; t++) {
		const struct machine_state *s = &m->states[i];
		unsigned int flags = k[t].flags & ~CPUIDLE_FLAG_UNUSABLE;
		bool off = f->off[0] && !strcmp(f->off, k[t].name);
		char hint[32];

		if (f->adl && (prefer_c1 ? t == 1 : t == 0))
			continue; /* UNUSABLE, skipped */
		snprintf(hint, sizeof(hint), "MWAIT 0x%02x", k[t].hint);
		if (strcmp(s->name, k[t].name))
			failed |= mismatch(f->machine, i, "name");
		if (strcmp(s->desc, k[t].desc) || strcmp(s->desc, hint))
			failed |= mismatch(f->machine, i, "desc");
		if (s->flags != (flags | (off ? CPUIDLE_FLAG_OFF : 0)))
			failed |= mismatch(f->machine, i, "flags");
		if (s->exit_latency_ns != k[t].lat * US)
			failed |= mismatch(f->machine, i, "exit latency");
		if (s->target_residency_ns != k[t].res * US)
			failed |= mismatch(f->machine, i, "target residency");
		if (s->default_off != off)
			failed |= mismatch(f->machine, i, "default off");
		i++;
	}
	if (i != f->count + 1 || m->state_count != f->count + 1) {
		printf("FAILED: %s has %d states, the kernel table gives %d\n", f->machine,
		       m->state_count, i);
		failed = 1;
	}
	return failed;
}

/* Each model in the desc's parentheses ("(HASWELL, HASWELL_L)") maps to f->table. */
static int check_models(const char *src, const struct fid *f, const struct machine *m)
{
	const char *p = strchr(m->desc, '('), *e = p ? strchr(p, ')') : NULL;
	char models[128], *tok, *save = NULL, got[64];
	int failed = 0;

	if (!p || !e || (size_t)(e - p) >= sizeof(models))
		return printf("FAILED: %s: no (MODEL, ...) in its desc\n", f->machine), 1;
	memcpy(models, p + 1, (size_t)(e - p - 1));
	models[e - p - 1] = '\0';
	for (tok = strtok_r(models, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		char want[64];

		model_table(src, tok, got, sizeof(got));
		snprintf(want, sizeof(want), "%s_cstates", f->table);
		if (strcmp(got, want)) {
			printf("FAILED: %s: INTEL_%s uses '%s' in intel_idle.c 6.12, not %s\n",
			       f->machine, tok, got, want);
			failed = 1;
		}
	}
	return failed;
}

static int fidelity_main(void)
{
	struct stat st;
	char *src;
	int failed = 0;

	if (stat(KTAR, &st)) {
		printf("SKIPPED: %s is absent (apt-get install linux-source-6.12; scripts/setup.sh "
		       "does it as root): the intel_idle built-ins were NOT compared with the "
		       "kernel\n",
		       KTAR);
		return 77;
	}
	if (system("rm -rf " KSRC " && mkdir -p " KSRC " && tar -xJf " KTAR " -C " KSRC
		   " --strip-components=3 --wildcards 'linux-source-6.12/drivers/idle/intel_idle.c'") ||
	    !(src = slurp(KSRC "/intel_idle.c"))) {
		printf("FAILED: cannot extract drivers/idle/intel_idle.c from %s\n", KTAR);
		return 1;
	}
	for (size_t i = 0; i < sizeof(fids) / sizeof(fids[0]); i++) {
		const struct fid *f = &fids[i];
		struct kstate k[CPUIDLE_STATE_MAX];
		struct sim_error err = { 0 };
		struct machine m;
		int nk = parse_table(src, f->table, k, CPUIDLE_STATE_MAX);
		int bad;

		if (nk <= 0 || machine_load(f->machine, &m, &err)) {
			printf("FAILED: %s: no %s_cstates in intel_idle.c, or no such machine\n",
			       f->machine, f->table);
			failed = 1;
			continue;
		}
		bad = compare(f, &m, k, nk, false) | check_models(src, f, &m);
		if (f->adl) {
			/* preferred_cstates=2: the kernel's C1 row, and no C1E */
			struct intel_idle_params p = { 0 };

			if (intel_idle_param_set(&p, "preferred_cstates", 2, &err) ||
			    intel_idle_apply(&m, true, &p, &err))
				bad = 1;
			else
				bad |= compare(f, &m, k, nk, true);
		}
		printf("%s %s: %s_cstates, %d kernel entries\n", bad ? "FAILED" : "ok", f->machine,
		       f->table, nk);
		failed |= bad;
	}
	free(src);
	return failed;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_neutral_params), cmocka_unit_test(test_states_off),
		cmocka_unit_test(test_preferred_cstates), cmocka_unit_test(test_max_cstate),
		cmocka_unit_test(test_acpi), cmocka_unit_test(test_refused),
	};

	if (argc > 1 && !strcmp(argv[1], "fidelity"))
		return fidelity_main();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
