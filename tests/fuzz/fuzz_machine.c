// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_machine.c - libFuzzer harness for JSON machines (sim/machine/machine_json.c, the checks of
 * sim/machine/machine.c, sim/base/jsonpos.c for the positions of errors).
 *
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIDLESIM_FUZZ=ON
 *   cmake --build build-fuzz --target fuzz_machine
 *   build-fuzz/fuzz_machine -max_total_time=600 tests/fuzz/fuzz_machine
 *
 * The whole input is the JSON text. A machine that loads must pass machine_validate(),
 * survive a round trip through machine_write_json() unchanged, print as a cpupower table,
 * and run a tiny trace (short and long idle periods on up to 4 CPUs) through every governor,
 * under each wake-latency model in turn (measured only with a distribution): a table the
 * loader accepts must never make a governor or the engine misbehave.
 */
#include "tests/fuzz/fuzz_util.h"

#include "sim/base/common.h"

static const char tiny_trace[] =
	"idlesim-trace v1\n"
	"cpus %d\n"
	"end 60000000\n"
	"idle 0 1000 5000 irq next_timer=20000\n"
	"idle 0 30000 200000 timer next_timer=200000\n"
	"idle 0 300000 3000000 ipi\n"
	"idle 0 3400000 50000000 timer next_timer=50000000 iowait=1\n"
	"idle %d 2000 40000000 irq\n";

/* machine_write_json() of m, in a malloc'ed string. */
static char *to_json(const struct machine *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || machine_write_json(f, m) || fclose(f))
		abort();
	return buf;
}

static void round_trip(const struct machine *m)
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

static void tiny_replays(const struct machine *m)
{
	int cpus = machine_nr_cpus(m) < 4 ? machine_nr_cpus(m) : 4;
	char text[sizeof(tiny_trace) + 32];
	unsigned int g, models = machine_has_wake_dist(m) ? 3 : 2;

	snprintf(text, sizeof(text), tiny_trace, cpus, cpus - 1);
	for (g = 0; g < gov_count(); g++) {
		struct sim_error err = {0};
		struct trace_reader *r = trace_open_string("<tiny>", text, &err);

		if (!r) {
			sim_error_print(stderr, &err);
			abort();
		}
		fuzz_replay_model(r, m, gov_get(g), 250, (enum wake_model)(g % models));
		trace_close(r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_error err = {0};
	struct machine m;
	char *text;
	FILE *null;

	idlesim_init();
	text = fuzz_string(data, size);
	if (machine_load_json_string(text, "<fuzz>", &m, &err)) {
		fuzz_check(&err, "machine_load_json_string");
		if (err.line < 0 || err.column < 0 || !err.text[0])
			abort();
		free(text);
		return 0;
	}
	free(text);
	if (machine_validate(&m, "<fuzz>", &err)) {
		sim_error_print(stderr, &err);
		abort();
	}
	round_trip(&m);
	null = fopen("/dev/null", "w");
	if (!null)
		abort();
	machine_print_idle_info(null, &m);
	fclose(null);
	tiny_replays(&m);
	return 0;
}
