// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_sweep_results.c - libFuzzer harness for the reader of sweep results files
 * (sweep_each_line, sim/study/sweep_run.c): the input is a results file, read as a resume
 * of a fixed 3-point spec reads it (sweep_resume_scan), then as merge and summary read it
 * (any one sweep). Nothing is run: only what the reader accepts is checked.
 *
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIDLESIM_FUZZ=ON
 *   cmake --build build-fuzz --target fuzz_sweep_results
 *   build-fuzz/fuzz_sweep_results -max_total_time=600 tests/fuzz/fuzz_sweep_results
 *
 * The seeds are real lines of this spec (its hash is the FNV-1a 64 of SPEC's text:
 * written to a file and run by `idlesim sweep` from the repository's top directory).
 */
#include "tests/fuzz/fuzz_util.h"

#include "sim/base/alloc.h"
#include "sim/study/sweep.h"
#include "sim/study/sweep_int.h"

#define SPEC                                                                                   \
	"{\"traces\": [\"traces/demo.trace\"], \"machines\": [\"skl\"], \"governors\": "      \
	"[\"menu\", \"teo\"], \"tunables\": {\"teo.decay_shift\": [1, 2]}}\n"

static int count_line(void *ud, const struct sweep_line *li, const char *line, size_t len,
		      long lineno, struct sim_error *err)
{
	(void)li;
	(void)lineno;
	(void)err;
	if (!len || line[len - 1] != '\n' || memchr(line, '\0', len) || len > SWEEP_MAX_LINE + 1)
		abort();
	++*(long *)ud;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sweep_spec *spec;
	struct sim_error err = {0};
	struct sweep_read rd;
	unsigned char *done;
	const char *path;
	long long keep;
	long lines = 0;

	idlesim_init();
	if (!spec) {
		spec = sweep_parse(SPEC, "<spec>", false, &err);
		if (!spec || sweep_total(spec) != 3)
			abort();
	}
	path = fuzz_file("sweep-results", data, size);
	done = sweep_bits_new(sweep_total(spec));
	if (!done)
		abort();
	if (sweep_resume_scan(spec, path, done, &keep, &err)) {
		fuzz_check(&err, "sweep_resume_scan");
		if (!err.text[0] || err.line < 0)
			abort();
	} else {
		/* accepted: no NUL anywhere, kept up to a newline, the rest one partial line */
		if (keep < 0 || (size_t)keep > size || (keep && data[keep - 1] != '\n') ||
		    memchr(data, '\0', size) || memchr(data + keep, '\n', size - (size_t)keep))
			abort();
	}
	sim_free(done);
	memset(&err, 0, sizeof(err));
	if (sweep_each_line(path, NULL, false, &rd, count_line, &lines, &err)) {
		fuzz_check(&err, "sweep_each_line");
		if (!err.text[0] || err.line < 0)
			abort();
	} else if (rd.complete + rd.partial != (long long)size) {
		abort();
	}
	return 0;
}
