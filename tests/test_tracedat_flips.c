// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tracedat_flips.c - trace.dat files with bytes flipped never crash idlesim
 * (docs/import.md, "trace.dat"; sim/import/import_datcheck.c): the small files of
 * tests/import/make-tracedat.py, one byte at a time, in process; each one imports or is
 * refused as an input error. Fields changed are tests/test_tracedat_damage.c, cuts
 * tests/test_tracedat_cuts.c.
 */
#include "tests/tracedattest.h"

/* ---- in process: flips, any outcome but a crash or a wrong error class ---- */

struct outcome {
	int ok, refused, other;
};

/*
 * Every stride-th byte in [from, to) flipped (xor 0xff), in process: imported, or refused as
 * an input error; never a crash, never another error class.
 */
static void flips(const char *name, const unsigned char *d, size_t len, uint64_t from,
		  uint64_t to, uint64_t stride, struct outcome *n)
{
	const char *path = tmp_path("flip.dat");
	unsigned char *m = malloc(len);
	uint64_t i;
	int fd;

	assert_non_null(m);
	memcpy(m, d, len);
	save(path, m, len);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	for (i = from; i < to && i < len; i += stride) {
		struct sim_error err;
		unsigned char b = (unsigned char)(d[i] ^ 0xff);

		assert_int_equal(pwrite(fd, &b, 1, (off_t)i), 1);
		if (convert(path, &err) == 0)
			n->ok++;
		else if (err.code == SIM_ERR_INPUT)
			n->refused++;
		else {
			n->other++;
			fprintf(stderr, "%s byte %llu flipped: error class %d: %s\n", name,
				(unsigned long long)i, err.code, err.text);
		}
		assert_int_equal(pwrite(fd, d + i, 1, (off_t)i), 1);
	}
	close(fd);
	unlink(path);
	free(m);
}

/* ---- the small files ---- */

/*
 * Bytes of the small files flipped: every byte of every number, marker, section header,
 * option and page header, every 64th byte of the texts and of compressed data. Each file
 * imports or is refused, never a crash; both outcomes occur.
 */
static void test_tiny_flips(void **state)
{
	struct outcome n = { 0 };
	size_t len, i;
	unsigned char *d = load(FIX "tiny-v6.dat", &len);
	struct v6 L;
	int f, c;

	(void)state;
	v6_walk(d, len, &L);
	for (i = 0; i < L.n; i++)
		flips("tiny-v6.dat", d, len, L.f[i].at, L.f[i].at + L.f[i].len,
		      L.f[i].len <= 16 || !strcmp(L.f[i].what, "an option's data") ? 1 : 64, &n);
	for (c = 0; c < L.cpus; c++)
		flips("tiny-v6.dat", d, len, L.off[c], L.off[c] + 64, 1, &n);
	free(L.f);
	free(d);
	for (f = 0; f < 2; f++) {
		const char *name = f ? "tiny-v7z.dat" : "tiny-v7.dat";
		char path[512];
		struct v7 L7;
		uint64_t table, p;

		snprintf(path, sizeof(path), FIX "%s", name);
		d = load(path, &len);
		v7_walk(d, len, &L7);
		flips(name, d, len, 0, L7.s[0].at, 1, &n);
		for (c = 0; c < L7.n; c++) {
			uint64_t at = L7.s[c].at, end = at + 16 + L7.s[c].size;

			flips(name, d, len, at, at + 16, 1, &n);
			flips(name, d, len, at + 16, end, L7.s[c].id ? 64 : 1, &n);
		}
		/* each CPU's first bytes: page header and first events, or chunk header */
		p = opt(d, &L7, 3, NULL) + 6 + 8;
		table = p + strlen((const char *)d + p) + 1;
		table += strlen((const char *)d + table) + 1 + 8;
		for (c = 0; c < (int)le(d + table - 4, 4); c++) {
			uint64_t off = le(d + table + 20 * (unsigned)c + 4, 8);

			flips(name, d, len, off, off + 64, 1, &n);
		}
		free(d);
	}
	printf("flipped bytes: %d imported, %d refused, %d other\n", n.ok, n.refused, n.other);
	assert_int_equal(n.other, 0);
	assert_true(n.refused > 500);
	if (import_has_tracedat())
		assert_true(n.ok > 100);
}

int main(void)
{
	const struct CMUnitTest tiny[] = {
		cmocka_unit_test(test_tiny_flips),
	};

	return cmocka_run_group_tests(tiny, setup, teardown);
}
