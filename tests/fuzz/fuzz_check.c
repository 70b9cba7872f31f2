// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_check.c - libFuzzer harness for the expectation files of `idlesim check`
 * (check_parse, sim/study/check.c): the whole input is the JSON text. Only parsing is fuzzed:
 * running the comparisons an accepted file names takes seconds, not microseconds.
 *
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIDLESIM_FUZZ=ON
 *   cmake --build build-fuzz --target fuzz_check
 *   build-fuzz/fuzz_check -max_total_time=600 tests/fuzz/fuzz_check
 */
#include "tests/fuzz/fuzz_util.h"

#include "sim/study/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_error err = {0};
	struct check_file *cf;
	char *text;

	idlesim_init();
	text = fuzz_string(data, size);
	cf = check_parse(text, "<fuzz>", NULL, &err);
	free(text);
	if (!cf) {
		fuzz_check(&err, "check_parse");
		if (err.line < 0 || err.column < 0 || !err.text[0])
			abort();
		return 0;
	}
	check_free(cf);
	return 0;
}
