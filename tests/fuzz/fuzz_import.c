// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_import.c - libFuzzer harness for the kernel-trace importer's text side (line source,
 * HTML extraction, lexers, payloads, reconstruction, summary).
 *
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIDLESIM_FUZZ=ON
 *   cmake --build build-fuzz --target fuzz_import
 *   build-fuzz/fuzz_import -max_total_time=600 tests/import   # the fixtures as the seed corpus
 *
 * The first byte picks the way through (one pass or two, --skip-bad-lines, a forced text
 * dialect, a machine for the recorded-governor statistics); the rest is the trace, written
 * to a temporary file because the importer reads files.
 *
 * Built once as fuzz_import (the first byte also picks the dialect, or detection, which
 * finds trace.dat by its magic) and once per dialect with FUZZ_IMPORT_FORMAT set
 * (fuzz_import_ftrace, _trace_cmd, _perf, _systrace, and _dat for trace.dat: its structure
 * check, sim/import/import_datcheck.c, then libtracecmd on what passes it, and for
 * compressed files the child process that reads them first), so each dialect's reader gets
 * fuzzing time and a seed corpus of its own (tests/fuzz/<harness>/; fuzz_import_dat's are
 * the small trace.dat files of tests/import/make-tracedat.py behind a mode byte, with
 * tests/fuzz/fuzz_import_dat.dict). scripts/fuzz.sh runs them all.
 */
#include "sim/import/import.h"
#include "tests/fuzz/fuzz_util.h"

/* Small enough to simulate quickly: the replay is for bugs, not for hour-long traces. */
static bool replayable(const struct trace_header *h)
{
	int64_t span;

	return h->has_start && h->has_end && !__builtin_sub_overflow(h->end_ns, h->start_ns, &span) &&
	       fuzz_replay_fits(h->cpus, span);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum import_format formats[] = {IMPORT_AUTO, IMPORT_FTRACE, IMPORT_TRACE_CMD,
						     IMPORT_PERF, IMPORT_SYSTRACE};
	static struct machine skl;
	struct import_options o = {0};
	struct sim_error err = {0};
	struct importer *im;
	const char *path;
	FILE *null;
	uint8_t mode;

	idlesim_init();
	if (!size)
		return 0;
	if (!skl.state_count && machine_load("skl", &skl, &err))
		abort();
	mode = data[0];
	path = fuzz_file("import", data + 1, size - 1);
	o.skip_bad_lines = mode & 2;
#ifdef FUZZ_IMPORT_FORMAT
	(void)formats;
	o.format = FUZZ_IMPORT_FORMAT;
#else
	o.format = formats[(mode >> 2) % 5];
#endif
	o.machine = mode & 32 ? &skl : NULL;
	o.hz = mode & 64 ? 1000 : 0;
	im = mode & 1 ? import_open(path, &o, &err) : import_open_convert(path, &o, &err);
	if (!im) {
		fuzz_check(&err, "import_open");
		return 0;
	}
	null = fopen("/dev/null", "w");
	if (!null)
		abort();
	if ((mode & 17) == 17 && replayable(import_header(im))) {
		/* two passes, then the records through the engine instead of to a file */
		struct record_source src;

		record_source_from_import(&src, im);
		if (!fuzz_replay_source(&src, &skl, gov_get(fuzz_hash(data, size) % gov_count()),
					import_header(im)->hz ? import_header(im)->hz : 250))
			import_write_summary(null, im, mode & 128);
	} else if (!import_convert(im, null, &err)) {
		import_write_summary(null, im, mode & 128);
		import_write_summary(null, im, !(mode & 128));
	} else {
		fuzz_check(&err, "import_convert");
	}
	fclose(null);
	import_close(im);
	return 0;
}
