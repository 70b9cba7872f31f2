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
 * to a temporary file because the importer reads files. trace.dat is left out: its parsing
 * is libtracecmd's.
 */
#include "sim/import.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum import_format formats[] = {IMPORT_AUTO, IMPORT_FTRACE, IMPORT_TRACE_CMD,
						     IMPORT_PERF, IMPORT_SYSTRACE};
	static char path[64];
	static struct machine skl;
	struct import_options o = {0};
	struct sim_error err = {0};
	struct importer *im;
	FILE *f, *null;
	uint8_t mode;

	if (!size)
		return 0;
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/fuzz-import-%d", (int)getpid());
		if (machine_load("skl", &skl, &err))
			abort();
	}
	mode = data[0];
	f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	o.skip_bad_lines = mode & 2;
	o.format = formats[(mode >> 2) % 5];
	o.machine = mode & 32 ? &skl : NULL;
	o.hz = mode & 64 ? 1000 : 0;
	im = mode & 1 ? import_open(path, &o, &err) : import_open_convert(path, &o, &err);
	if (!im)
		return 0;
	null = fopen("/dev/null", "w");
	if (!import_convert(im, null, &err)) {
		import_write_summary(null, im, mode & 128);
		import_write_summary(null, im, !(mode & 128));
	}
	fclose(null);
	import_close(im);
	return 0;
}
