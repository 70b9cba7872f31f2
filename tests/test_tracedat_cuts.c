// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tracedat_cuts.c - trace.dat files cut short never crash idlesim (docs/import.md,
 * "trace.dat"; sim/import/import_datcheck.c): every cut is refused, through the binary as
 * tests/tracedattest.h says a refusal must look, with the message of what it leaves
 * incomplete. Fields changed are tests/test_tracedat_damage.c, flipped bytes
 * tests/test_tracedat_flips.c.
 *
 * Where a cut must fail, from the format: trace.dat version 6 ends with each CPU's data, at
 * the offsets and sizes of the per-CPU table near the start, and the last CPU's data ends at
 * the end of the file (both files below do: checked). So no prefix of the file is complete:
 * every cut leaves a field, a section or a CPU's data that reaches past the new end, and the
 * message names the first one in reading order, which the test computes independently from
 * the intact file's layout (v6_walk) and compares word for word. Version 7 ends with the
 * strings section and every section lies whole in the file: every cut is damage too.
 *
 *   test_tracedat_cuts           the small trace.dat files of tests/import/make-tracedat.py
 *                                (always): every cut in process, every 256 bytes and the
 *                                last bytes through the binary;
 *   test_tracedat_cuts real [N]  the real trace.dat of IDLESIM_SHARED_DIR/traces/real: cut at
 *                                every 1 kB (N kB) from its end and at 50 random sizes.
 *                                Without the shared folder: exit 77 after saying so (ctest:
 *                                Skipped).
 */
#include "tests/tracedattest.h"

/* ---- the message of a cut ---- */

/*
 * The message `idlesim import` must give for the file cut to k bytes (k < its length), or
 * NULL for "not a kernel trace" (k < 3: too little of the magic to know it).
 */
static const char *v6_expect(const struct v6 *L, uint64_t k, char *buf, size_t n)
{
	size_t i;
	int c;

	if (k < 3)
		return NULL;
	if (k < 10) {
		snprintf(buf, n, "trace.dat damaged: the file ends after %llu bytes, inside the "
			 "10-byte magic (offset %llu)", (unsigned long long)k, (unsigned long long)k);
		return buf;
	}
	for (i = 0; i < L->n; i++) {
		const struct field *f = &L->f[i];

		if (k >= f->at + f->len)
			continue;
		if (f->kind == F_STRING)
			snprintf(buf, n, "trace.dat damaged: %s: no terminating NUL before the file "
				 "ends (offset %llu)", f->what, (unsigned long long)f->at);
		else
			snprintf(buf, n, "trace.dat damaged: %s: %llu bytes needed, but the file ends "
				 "%llu bytes further (it is %llu bytes long) (offset %llu)", f->what,
				 (unsigned long long)f->len, (unsigned long long)(k - f->at),
				 (unsigned long long)k, (unsigned long long)f->at);
		return buf;
	}
	for (c = 0; c < L->cpus; c++)
		if (L->size[c] && L->off[c] + L->size[c] > k) {
			snprintf(buf, n, "trace.dat damaged: CPU %d's data (%llu bytes from byte %llu) "
				 "runs past the end of the file (%llu bytes) (offset %llu)", c,
				 (unsigned long long)L->size[c], (unsigned long long)L->off[c],
				 (unsigned long long)k, (unsigned long long)(L->table + 16ull * (unsigned)c));
			return buf;
		}
	fail_msg("a cut at %llu leaves a complete file", (unsigned long long)k);
	return NULL;
}

/* ---- cuts through the binary, two at a time ---- */

struct slot {
	pid_t pid;
	uint64_t k;
	int fd; /* a copy of the file, cut shorter and shorter */
	char file[256], out[256], err[256], trace[256];
};

/*
 * Cut the file at each of ks[] (in decreasing order) and check `idlesim import` (and every
 * run_every-th, `idlesim run --trace`) refuses it with the message v6_expect computes.
 * Returns the number of cuts that failed.
 */
static int cut_all(const unsigned char *d, size_t len, const struct v6 *L, const uint64_t *ks,
		   size_t nk, int run_every)
{
	struct slot s[2];
	size_t next = 0, done = 0;
	int i, bad = 0;

	for (i = 0; i < 2; i++) {
		snprintf(s[i].file, sizeof(s[i].file), "%s/cut%d.dat", tmpdir, i);
		snprintf(s[i].out, sizeof(s[i].out), "%s/cut%d.out", tmpdir, i);
		snprintf(s[i].err, sizeof(s[i].err), "%s/cut%d.err", tmpdir, i);
		snprintf(s[i].trace, sizeof(s[i].trace), "%s/cut%d.trace", tmpdir, i);
		save(s[i].file, d, len);
		s[i].fd = open(s[i].file, O_WRONLY);
		assert_true(s[i].fd >= 0);
		s[i].pid = 0;
	}
	while (done < nk) {
		for (i = 0; i < 2; i++) {
			if (s[i].pid || next >= nk)
				continue;
			s[i].k = ks[next++];
			assert_int_equal(ftruncate(s[i].fd, (off_t)s[i].k), 0);
			{
				const char *argv[] = { BIN, "import", s[i].file, "-o", s[i].trace, NULL };

				s[i].pid = start(argv, s[i].out, s[i].err);
			}
		}
		for (i = 0; i < 2; i++) {
			char want[700], what[64];
			const char *w;
			int st;

			if (!s[i].pid)
				continue;
			st = finish(s[i].pid);
			s[i].pid = 0;
			done++;
			w = v6_expect(L, s[i].k, want, sizeof(want));
			snprintf(what, sizeof(what), "cut at %llu", (unsigned long long)s[i].k);
			if (!w) {
				char *e = slurp(s[i].err);

				if (st != 2 || !strstr(e, "not a kernel trace")) {
					fprintf(stderr, "%s: exit %d: %s", what, st, e);
					bad++;
				}
				free(e);
				continue;
			}
			if (!refused_ok(st, s[i].file, s[i].out, s[i].err, s[i].trace, w, 0, what))
				bad++;
			else if (run_every && done % (size_t)run_every == 0) {
				const char *argv[] = { BIN, "run", "--trace", s[i].file, "--machine",
						       "skl", "-o", s[i].trace, NULL };

				if (!refused_ok(run_args(argv, s[i].out, s[i].err), s[i].file,
						s[i].out, s[i].err, s[i].trace, w, 0, what))
					bad++;
			}
		}
	}
	for (i = 0; i < 2; i++) {
		close(s[i].fd);
		unlink(s[i].file);
	}
	return bad;
}

/* ---- in process: each cut damaged ---- */

/* The text must be "trace.dat damaged...: ... (offset N)" with N <= max. */
static bool damaged_text(const char *t, uint64_t max)
{
	const char *o = strrchr(t, '(');
	unsigned long long n;
	char tail[4] = "";

	return !strncmp(t, "trace.dat damaged", 17) && o &&
	       sscanf(o, "(offset %llu%3s", &n, tail) == 2 && !strcmp(tail, ")") && n <= max;
}

/*
 * Every cut of a small file, in process: each one damaged, the offset inside the cut; but
 * the cut at whole_at, which leaves a complete file (0: none).
 */
static void cuts_in_process(const char *name, const struct v6 *L, uint64_t whole_at)
{
	size_t len, k;
	unsigned char *d = load(name, &len);
	const char *path = tmp_path("inproc.dat");
	int fd, rc;

	save(path, d, len);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	for (k = len - 1; k > 0; k--) {
		struct sim_error err;
		char w[700];

		assert_int_equal(ftruncate(fd, (off_t)k), 0);
		rc = convert(path, &err);
		if (k == whole_at) {
			if (import_has_tracedat())
				assert_int_equal(rc, 0);
			else
				assert_non_null(strstr(err.text, "without trace.dat support"));
			continue;
		}
		if (rc == 0)
			fail_msg("%s cut at %zu: imported", name, k);
		if (k < 3) {
			assert_non_null(strstr(err.text, "not a kernel trace"));
			continue;
		}
		if (err.code != SIM_ERR_INPUT || !damaged_text(err.text, k))
			fail_msg("%s cut at %zu: %d %s", name, k, err.code, err.text);
		if (L && strcmp(err.text, v6_expect(L, k, w, sizeof(w))))
			fail_msg("%s cut at %zu:\n want %s\n got  %s", name, k, w, err.text);
	}
	close(fd);
	unlink(path);
	free(d);
}

/* ---- the small files (always) ---- */

/* Every cut of each small file, in process; tiny-v6's messages word for word. */
static void test_tiny_cuts(void **state)
{
	size_t len, i;
	unsigned char *d = load(FIX "tiny-v6.dat", &len);
	struct v6 L;

	(void)state;
	v6_walk(d, len, &L);
	cuts_in_process(FIX "tiny-v6.dat", &L, 0);
	free(L.f);
	free(d);
	/*
	 * Version 7: a cut exactly before the strings section, the last one, leaves every
	 * section whole and the file complete (the strings only describe the sections); every
	 * other cut leaves a section, or the chain of options sections, reaching past the end.
	 */
	for (i = 0; i < 2; i++) {
		struct v7 L7;
		char path[512];

		snprintf(path, sizeof(path), FIX "%s", i ? "tiny-v7z.dat" : "tiny-v7.dat");
		d = load(path, &len);
		v7_walk(d, len, &L7);
		assert_int_equal(L7.s[L7.n - 1].id, 15);
		cuts_in_process(path, NULL, L7.s[L7.n - 1].at);
		free(d);
	}
}

/* Cuts through the binary: every 256 bytes and the last bytes of each small file. */
static void test_tiny_cuts_binary(void **state)
{
	static const char *const files[] = { "tiny-v6.dat", "tiny-v7.dat", "tiny-v7z.dat" };
	size_t f;
	int bad = 0;

	(void)state;
	for (f = 0; f < 3; f++) {
		char path[512];
		size_t len, k;
		unsigned char *d;
		char cut[256];

		snprintf(cut, sizeof(cut), "%s/bincut.dat", tmpdir);

		snprintf(path, sizeof(path), FIX "%s", files[f]);
		d = load(path, &len);
		for (k = 3; k < len; k = k + 256 < len ? k + 256 : k < len - 1 ? len - 1 : len) {
			char what[64];

			save(cut, d, k);
			snprintf(what, sizeof(what), "%s cut at %zu", files[f], k);
			bad += !import_refused(cut, NULL, k, k % 1024 == 3, what);
		}
		unlink(cut);
		free(d);
	}
	assert_int_equal(bad, 0);
}

/* ---- the real trace.dat (IDLESIM_SHARED_DIR) ---- */

/* Cut at every 1 kB from its end and at 50 random sizes: the exact message each time. */
/* The cuts of test_real_cuts: every STRIDE kB from the end; 1 unless the command line says
 * (the sanitizer builds pass 16: there each idlesim run is 20 to 50 times slower). */
static size_t cut_stride_kb = 1;

static void test_real_cuts(void **state)
{
	size_t len, nk = 0, i;
	unsigned char *d = load(REAL, &len);
	uint64_t *ks = malloc((len / 1024 + 60) * sizeof(*ks)), seed = 29, t;
	struct v6 L;

	(void)state;
	assert_non_null(ks);
	v6_walk(d, len, &L);
	for (i = cut_stride_kb; i * 1024 < len; i += cut_stride_kb)
		ks[nk++] = len - i * 1024;
	printf("cuts every %zu kB from the end: %zu\n", cut_stride_kb, nk);
	/* 50 random sizes (a fixed seed), in decreasing order with the others */
	for (i = 0; i < 50; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		ks[nk++] = (seed >> 11) % len;
	}
	for (i = 1; i < nk; i++) /* insertion sort, decreasing */
		for (size_t j = i; j > 0 && ks[j - 1] < ks[j]; j--)
			t = ks[j], ks[j] = ks[j - 1], ks[j - 1] = t;
	assert_int_equal(cut_all(d, len, &L, ks, nk, 64), 0);
	printf("%zu cuts of %s: each refused with its message\n", nk, REAL);
	free(ks);
	free(L.f);
	free(d);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tiny[] = {
		cmocka_unit_test(test_tiny_cuts),
		cmocka_unit_test(test_tiny_cuts_binary),
	};
	const struct CMUnitTest real[] = {
		cmocka_unit_test(test_real_cuts),
	};

	if (argc == 3 && !strcmp(argv[1], "real")) {
		cut_stride_kb = strtoul(argv[2], NULL, 10);
		if (cut_stride_kb < 1)
			cut_stride_kb = 1;
		argc = 2;
	}
	if (argc == 2 && !strcmp(argv[1], "real")) {
		if (real_missing())
			return SKIPPED;
		return cmocka_run_group_tests(real, setup, teardown);
	}
	return cmocka_run_group_tests(tiny, setup, teardown);
}
