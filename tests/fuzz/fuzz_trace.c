// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_trace.c - libFuzzer harness for the native trace reader: text format v1, JSON
 * scenarios and the binary form (sim/trace*.c; the binary-*.itb seeds), then, for input the
 * reader accepts, the derivation of idle periods from event records and the engine
 * (sim/engine/replay.c, sim/engine/engine.c) on a small machine.
 *
 *   scripts/fuzz.sh 600          # or by hand:
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIDLESIM_FUZZ=ON
 *   cmake --build build-fuzz --target fuzz_trace
 *   build-fuzz/fuzz_trace -max_total_time=600 -dict=tests/fuzz/fuzz_trace.dict tests/fuzz/fuzz_trace
 *
 * The whole input is the trace. Text without a NUL byte goes through trace_open_string();
 * input with one is written to a file and read with trace_open() (the chunked reader, which
 * must reject the NUL, and the binary reader: its files always hold one). The replay uses a
 * governor picked by a hash of the input and a copy of skl widened to the header's CPU
 * count; it is skipped for traces whose simulated time is long, or whose periodic timers expire more than FUZZ_REPLAY_MAX_EXPIRIES times (an
 * hour-long trace or a 10 ns timer period is valid and merely slow: not what a fuzzer
 * should spend its time on), or that have more than 64 CPUs or more CPU-seconds than
 * FUZZ_REPLAY_MAX_CPU_NS (fuzz_util.h).
 */
#include "tests/fuzz/fuzz_util.h"

#include "sim/base/common.h"


static struct trace_reader *open_input(const uint8_t *data, size_t size, char *text,
				       struct sim_error *err)
{
	if (memchr(data, '\0', size))
		return trace_open(fuzz_file("trace", data, size), err);
	return trace_open_string("<fuzz>", text, err);
}

/* Read every record; returns 0 if the trace is valid, with the span of its time. */
static int read_all(const uint8_t *data, size_t size, char *text, int64_t *span)
{
	struct sim_error err = {0};
	struct trace_reader *r = open_input(data, size, text, &err);
	const struct trace_header *h;
	struct trace_record rec;
	int64_t lo = INT64_MAX, hi = INT64_MIN, end, min_period = INT64_MAX;
	int rc;

	if (!r) {
		fuzz_check(&err, "trace_open");
		return -1;
	}
	h = trace_header(r);
	if (h->has_start)
		lo = hi = h->start_ns;
	if (h->has_end)
		hi = sim_max64(hi, h->end_ns), lo = sim_min64(lo, h->end_ns);
	while ((rc = trace_next(r, &rec, &err)) > 0) {
		end = rec.time_ns;
		if (rec.kind == TRACE_IDLE || rec.kind == TRACE_BUSY)
			end = sim_time_add(rec.time_ns, rec.length_ns);
		/* An expiry does not extend the run (FORMAT.md): one near 2^63 is replayed. */
		if (rec.kind == TRACE_TIMER && rec.period_ns > 0)
			min_period = sim_min64(min_period, rec.period_ns);
		lo = sim_min64(lo, rec.time_ns);
		hi = sim_max64(hi, end);
		if (rec.cpu < 0 || rec.cpu >= h->cpus)
			abort(); /* the reader must have rejected it */
	}
	if (rc < 0)
		fuzz_check(&err, "trace_next");
	trace_close(r);
	*span = lo > hi ? 0 : hi - lo;
	/* A 10 ns periodic timer over 40 ms is valid, and 4 M expiries: slow, not a bug. */
	if (min_period != INT64_MAX && *span / min_period > FUZZ_REPLAY_MAX_EXPIRIES)
		*span = INT64_MAX;
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_error err = {0};
	struct trace_reader *r;
	const struct trace_header *h;
	struct machine m;
	char *text;
	int64_t span = 0;

	idlesim_init();
	text = fuzz_string(data, size);
	if (read_all(data, size, text, &span) || span > FUZZ_REPLAY_MAX_SPAN_NS)
		goto out;
	r = open_input(data, size, text, &err);
	if (!r)
		abort(); /* it opened a moment ago */
	h = trace_header(r);
	if (fuzz_replay_fits(h->cpus, span) && !machine_load("skl", &m, &err))
		/* the table's and the typical wake latencies, by the input's hash */
		fuzz_replay_model(r, &m, gov_get(fuzz_hash(data, size) % gov_count()),
				  h->hz ? h->hz : 250,
				  (enum wake_model)(fuzz_hash(data, size) / gov_count() % 2));
	trace_close(r);
out:
	free(text);
	return 0;
}
