// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_wult.c - libFuzzer harness for `idlesim machines calibrate --wult` (wult's
 * datapoints.csv, sim/machine/machine_calibrate.c).
 *
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIDLESIM_FUZZ=ON
 *   cmake --build build-fuzz --target fuzz_wult
 *   build-fuzz/fuzz_wult -max_total_time=600 tests/fuzz/fuzz_wult
 *
 * The whole input is the CSV, calibrated onto skl. A rejected file must leave a message
 * with a sane position and the machine unchanged; an accepted one must give a machine that
 * passes machine_validate(), survives a JSON round trip and replays a tiny trace under the
 * measured model.
 */
#include "tests/fuzz/fuzz_util.h"

static const char tiny_trace[] = "idlesim-trace v1\ncpus 2\nend 20000000\n"
				 "idle 0 1000 5000 irq\n"
				 "idle 0 30000 600000 irq next_timer=900000\n"
				 "idle 1 0 8000000 timer\n";

static char *to_json(const struct machine *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || machine_write_json(f, m) || fclose(f))
		abort();
	return buf;
}

static void check_round_trip(const struct machine *m)
{
	struct sim_error err = {0};
	struct machine again;
	char *a = to_json(m), *b;

	if (machine_load_json_string(a, "<round-trip>", &again, &err)) {
		sim_error_print(stderr, &err);
		abort();
	}
	b = to_json(&again);
	if (strcmp(a, b))
		abort();
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_error err = {0};
	struct machine m;
	struct trace_reader *r;
	const char *path;
	int i;

	idlesim_init();
	if (machine_load("skl", &m, &err))
		abort();
	path = fuzz_file("wult", data, size);
	if (machine_calibrate_wult(&m, path, NULL, &err)) {
		fuzz_check(&err, "machine_calibrate_wult");
		if (err.line < 0 || err.column < 0 || !err.text[0])
			abort();
		for (i = 0; i < m.state_count; i++) /* unchanged: no distribution */
			if (m.states[i].wake.kind == MACHINE_WAKE_DIST)
				abort();
		return 0;
	}
	if (machine_validate(&m, "<fuzz>", &err)) {
		sim_error_print(stderr, &err);
		abort();
	}
	check_round_trip(&m);
	r = trace_open_string("<tiny>", tiny_trace, &err);
	if (!r)
		abort();
	fuzz_replay_model(r, &m, gov_get(fuzz_hash(data, size) % gov_count()), 250,
			  WAKE_MODEL_MEASURED);
	trace_close(r);
	return 0;
}
