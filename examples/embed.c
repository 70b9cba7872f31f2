// SPDX-License-Identifier: GPL-2.0-only
/*
 * embed.c - idlesim as a library: menu@6.19 and teo@6.19 on a Skylake (skl) table, replaying
 * a trace, printed as per-state tables like `cpupower monitor` / sysfs cpuidle show them.
 *
 *	cc embed.c $(pkg-config --cflags --libs idlesim) -o embed
 *	./embed [TRACE [MACHINE]]        default: traces/demo.trace skl
 *
 * Exit status 2 with "embed: FILE:LINE:COLUMN: message" on bad input, like idlesim's.
 */
#include <idlesim.h>

#include <stdio.h>

static int fail(const idlesim_error *err)
{
	char buf[640];

	fprintf(stderr, "embed: %s\n", idlesim_error_string(err, buf, sizeof(buf)));
	return err->code == IDLESIM_ERR_INPUT || err->code == IDLESIM_ERR_IO ? 2 : 1;
}

static void print_result(const idlesim_result *r)
{
	struct idlesim_summary s;
	struct idlesim_state_stats st;
	int i;

	idlesim_result_summary(r, -1, &s);
	printf("\n%s: %d CPUs, HZ %d, %.6f s\n", idlesim_result_governor(r), idlesim_result_cpus(r),
	       idlesim_result_hz(r), (double)(s.end_ns - s.start_ns) / 1e9);
	printf("entries %llu: above %.2f%%, below %.2f%%; energy %.6f J (%.3f W)",
	       (unsigned long long)s.idle_entries, s.above_pct, s.below_pct, s.energy_j,
	       s.avg_power_w);
	if (s.has_regret)
		printf(", regret %+.6f J (%+.2f%%)", s.regret_energy_j, s.regret_energy_pct);
	printf("\nwake latency: mean %.3f us, p99 %.3f us\n", s.lat_mean_ns / 1e3,
	       (double)s.lat_p99_ns / 1e3);
	printf("%-10s %-6s %10s %14s %8s %8s\n", "governor", "state", "usage", "time_ns", "above",
	       "below");
	for (i = 0; i < idlesim_result_state_count(r); i++) {
		idlesim_result_state(r, -1, i, &st);
		printf("%-10s %-6s %10llu %14lld %8llu %8llu%s\n", idlesim_result_governor(r),
		       idlesim_result_state_name(r, i), (unsigned long long)st.usage,
		       (long long)st.time_ns, (unsigned long long)st.above,
		       (unsigned long long)st.below, st.disabled ? "  (disabled)" : "");
	}
}

int main(int argc, char **argv)
{
	static const char *const governors[] = { "menu@6.19", "teo@6.19" };
	const char *trace_path = argc > 1 ? argv[1] : "traces/demo.trace";
	const char *machine_name = argc > 2 ? argv[2] : "skl";
	idlesim_error err = { 0 };
	idlesim_machine *m = NULL;
	idlesim_trace *t = NULL;
	idlesim_result *r;
	int i, status = 0;

	m = idlesim_machine_load(machine_name, &err);
	if (m)
		t = idlesim_trace_open(trace_path, &err);
	if (!m || !t) {
		status = fail(&err);
		goto out;
	}
	printf("libidlesim %s: machine %s (%d CPUs, %d states), trace %s\n", idlesim_version(),
	       idlesim_machine_name(m), idlesim_machine_cpus(m), idlesim_machine_state_count(m),
	       idlesim_trace_name(t));
	for (i = 0; i < 2; i++) {
		r = idlesim_run(m, t, governors[i], NULL, &err);
		if (!r) {
			status = fail(&err);
			break;
		}
		print_result(r);
		idlesim_result_free(r);
	}
out:
	idlesim_trace_free(t);
	idlesim_machine_free(m);
	return status;
}
