// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report.c - sim/report/report.c on run results filled in here by hand (no simulation), so
 * every number in the text, JSON and CSV reports is computed in this file from the
 * definitions in sim/engine/stats.h:
 *
 * Machine "toy" (4 CPUs, 2 replayed), states POLL, C1, C6; 1 ms window (0 .. 1,000,000).
 *   CPU 0: busy 200,000; POLL 2 entries 50,000 ns (1 below); C1 1 entry 250,000 ns
 *          (1 above); C6 1 entry 500,000 ns. Wakeups: timer 1, irq 2, tick 1. Idle periods 3,
 *          absorbed 1. Wake latency samples 2,000 and 2,000 ns.
 *   CPU 1: busy 100,000; C6 2 entries 800,000 ns (1 above); truncated 100,000. Wakeups:
 *          timer 1, ipi 1. Idle periods 2. Wake latency sample 85,000 ns.
 * Residency = time / (cpus x 1 ms):
 *   total (span 2 ms): Busy 15.00, POLL 2.50, C1 12.50, C6 65.00, Trunc 5.00 (= 100)
 *   CPU 0: Busy 20.00, POLL 5.00, C1 25.00, C6 50.00, Trunc 0.00; CPU 1: Busy 10.00,
 *   C6 80.00, Trunc 10.00
 * Entries 6: above 2 (33.33 %), below 1 (16.67 %), hits 3 (50.00 %); CPU 0 above 1 and
 * below 1 of 4 (25 % each), CPU 1 above 1 of 2 (50 %).
 * Wake latency (3 samples): mean 89,000 / 3 = 29,666.667 ns, p50 (nearest rank 2) 2,000,
 * p99 (rank 3) 85,000, max 85,000.
 * Energy 0.004 J, idle 0.001 J, transitions 0.0005 J over 0.001 s: 4 W average, 1 W idle.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "governors/governor.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/init.h"
#include "sim/report/report.h"

enum { POLL, C1, C6, NR_STATES };

static void set_state(struct cpu_stats *cs, int i, unsigned long long usage, u64 time_ns,
		      unsigned long long above, unsigned long long below)
{
	cs->states[i].usage = usage;
	cs->states[i].time_ns = time_ns;
	cs->states[i].above = above;
	cs->states[i].below = below;
}

/* The run described at the top of this file, with one kept decision. */
static void toy_results(struct run_results *res, const char *trace)
{
	static const char *const names[NR_STATES] = { "POLL", "C1", "C6" };
	struct run_result *r;
	struct run_stats *rs;
	struct sim_decision *d;
	struct cpu_stats *c0, *c1;
	int i;

	res->n = 1;
	res->r = sim_calloc(1, sizeof(*res->r));
	assert_non_null(res->r);
	r = &res->r[0];
	snprintf(r->trace, sizeof(r->trace), "%s", trace);
	snprintf(r->machine, sizeof(r->machine), "toy");
	snprintf(r->governor, sizeof(r->governor), "menu@6.19");
	/* The configuration record: menu@6.19's defaults (governors/menu-common.c: decay 8,
	 * resolution 1024, max_interesting_us 50000, variance_max 400, ratio_sq 36,
	 * residency_threshold_us 15) with --set menu.decay=4; made-up hashes. */
	r->gov = gov_find("menu@6.19");
	assert_non_null(r->gov);
	{
		static const long long p[] = { 4, 1024, 50000, 400, 36, 15 };

		memcpy(r->params, p, sizeof(p));
	}
	snprintf(r->sets[0].family, sizeof(r->sets[0].family), "menu");
	snprintf(r->sets[0].name, sizeof(r->sets[0].name), "decay");
	r->sets[0].value = 4;
	r->nr_sets = 1;
	r->machine_hash = 0x0123456789abcdefull;
	r->trace_hash = 0xfedcba9876543210ull;
	r->hz = 250;
	r->latency_req_ns = -1;
	r->machine_cpus = 4;
	r->regret_energy_j = 0.0005;
	r->regret_energy_pct = 100.0 / 7.0; /* 0.0005 / 0.0035 */
	r->regret_lat_mean_ns = 1500;
	r->regret_package_j = 0.0002; /* so the cores' and transitions' share is 0.0003 */
	r->regret_cpu_j = 0.0001;     /* per CPU; the SMT siblings' part 0.0003 - 0.0001 */
	r->has_regret = true;

	rs = &r->stats;
	rs->nr_cpus = 2;
	rs->state_count = NR_STATES;
	for (i = 0; i < NR_STATES; i++)
		snprintf(rs->state_names[i], sizeof(rs->state_names[i]), "%s", names[i]);
	rs->start_ns = 0;
	rs->end_ns = 1000000;
	rs->energy_j = 0.004;
	rs->idle_energy_j = 0.001;
	rs->transition_energy_j = 0.0005;
	rs->cpus = sim_calloc(2, sizeof(*rs->cpus));
	assert_non_null(rs->cpus);
	c0 = &rs->cpus[0];
	c1 = &rs->cpus[1];
	c0->cpu = 0;
	c1->cpu = 1;
	c1->core = 1;
	c0->busy_ns = 200000;
	set_state(c0, POLL, 2, 50000, 0, 1);
	set_state(c0, C1, 1, 250000, 1, 0);
	set_state(c0, C6, 1, 500000, 0, 0);
	c0->wakeups[WAKE_TIMER] = 1;
	c0->wakeups[WAKE_IRQ] = 2;
	c0->wakeups[WAKE_TICK] = 1;
	c0->idle_periods = 3;
	c0->absorbed = 1;
	assert_int_equal(lat_hist_add(&c0->wake_latency, 2000, 2), 0);
	c1->busy_ns = 100000;
	set_state(c1, C6, 2, 800000, 1, 0);
	c1->truncated_ns = 100000;
	c1->wakeups[WAKE_TIMER] = 1;
	c1->wakeups[WAKE_IPI] = 1;
	c1->idle_periods = 2;
	assert_int_equal(lat_hist_add(&c1->wake_latency, 85000, 1), 0);
	assert_int_equal(run_stats_sum(rs), 0);

	r->decisions = sim_calloc(1, sizeof(*r->decisions));
	assert_non_null(r->decisions);
	r->nr_decisions = r->cap_decisions = 1;
	d = &r->decisions[0].d;
	d->time_ns = 1000;
	d->cpu = 0;
	d->sleep_length_ns = 500000;
	d->wheel_length_ns = 500000; /* the next timer is a timer-wheel timer */
	d->delta_tick_ns = KTIME_MAX;
	d->latency_req_ns = 2000000000000LL;
	d->got_tick = true;
	d->state = C6;
	d->stop_tick = true;
	d->tick_stopped_after = true;
	d->wake_ns = 501000;
	d->cause = WAKE_TIMER;
	d->residency_ns = 500000;
	d->reflect_ns = 586000; /* the wakeup + an 85 us exit */
	d->reflect_got_tick = true;
	cpuidle_explain_add(&r->decisions[0].ex, "predicted_ns", NULL, 400000);
	cpuidle_explain_add(&r->decisions[0].ex, "rule", "x", 0);
}

/* The report of res in format fmt at a text width (0: the default), as a string (free it). */
static char *render_width(const struct run_results *res, enum report_format fmt, bool per_cpu,
			  int width)
{
	struct report_opts o = { .format = fmt, .per_cpu = per_cpu, .width = width };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_write(f, res, &o), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *render(const struct run_results *res, enum report_format fmt, bool per_cpu)
{
	return render_width(res, fmt, per_cpu, 0);
}

static void assert_contains(const char *text, const char *want)
{
	if (!strstr(text, want)) {
		fprintf(stderr, "--- missing\n%s--- in\n%s---\n", want, text);
		fail();
	}
}

/* Text: the run's header lines and the three turbostat-style blocks, per CPU. */
static void test_text(void **state)
{
	struct run_results res = { 0 };
	char *text;

	(void)state;
	toy_results(&res, "t.trace");
	text = render(&res, REPORT_TEXT, true);
	assert_contains(text,
			"\n== t.trace | toy | menu@6.19 | HZ 250 | latency limit none | disabled: none ==\n"
			"config: idlesim " IDLESIM_VERSION "; machine toy table 0123456789abcdef; "
			"trace t.trace bytes fedcba9876543210; seed none; wake latency model worst;\n"
			"        regret references: energy oracle-energy, latency oracle\n"
			"tunables: decay=4 resolution=1024 max_interesting_us=50000 variance_max=400 "
			"ratio_sq=36 residency_threshold_us=15; --set applied: menu.decay=4\n"
			"replayed 2 of 4 CPUs over 0.001000 s; idle periods 5 (absorbed 1), "
			"truncated at end 0.000100 s\n"
			"busy 0.000300 s, and 0.000000 s of the trace's work spilled past the end; "
			"interrupts polled through 0\n"
			"entries 6: above 2 (33.33%), below 1 (16.67%), hits 3 (50.00%)\n"
			"entries ended by: timer 2, irq 2, ipi 1, tick 1, poll limit 0\n"
			"energy 0.004000 J (idle 0.001000 J, transitions 0.000500 J); "
			"avg power 4.000 W, idle power 1.000 W\n"
			"wake latency (irq+ipi, 3 samples): mean 29.667 us, p50 2.000 us, "
			"p99 85.000 us, max 85.000 us\n"
			"regret: energy vs oracle-energy +0.000500 J (+14.29%: cores and transitions "
			"+0.000300 J, of which SMT sharing +0.000200 J; packages +0.000200 J),\n"
			"        wake latency mean vs oracle +1.500 us\n\n");
	/* Residency: columns right-aligned to their widest cell, two spaces apart. */
	assert_contains(text, "CPU  Busy%  POLL%    C1%    C6%  Trunc%\n"
			      "-    15.00   2.50  12.50  65.00    5.00\n"
			      "0    20.00   5.00  25.00  50.00    0.00\n"
			      "1    10.00   0.00   0.00  80.00   10.00\n");
	assert_contains(text, "CPU  Entries  POLL  C1  C6\n"
			      "-          6     2   1   3\n"
			      "0          4     2   1   1\n"
			      "1          2     0   0   2\n");
	/* turbostat's S+ counts "below" (a deeper state would have fit), S- "above". */
	assert_contains(text, "CPU  Above%  Below%  POLL+  POLL-  C1+  C1-  C6+  C6-\n"
			      "-     33.33   16.67      1      0    0    1    0    1\n"
			      "0     25.00   25.00      1      0    0    1    0    0\n"
			      "1     50.00    0.00      0      0    0    0    0    1\n");
	/* The readable line: select at 1,000 ns = 0.000001 s; woken 501,000 - 1,000 = 500 us
	 * later; no iowait, no PM QoS limit, a wheel timer and no delta_tick: not shown. With
	 * reflect's tick ("tick-seen") it takes 127 columns: whole at the default width, 160. */
	assert_contains(text, "\ndecisions (1, in order of completion):\n"
			      "0.000001s cpu0 sleep 500us tick on got-tick | predicted=400us rule=x "
			      "-> C6 tick off | timer +500us: res 500us hit tick-seen\n");
	/* At --width 120 "tick-seen", the least important piece and the last of them, is left
	 * out, and " ..." says so (117 + 4). */
	free(text);
	text = render_width(&res, REPORT_TEXT, true, 120);
	assert_contains(text, "\ndecisions (1, in order of completion):\n"
			      "0.000001s cpu0 sleep 500us tick on got-tick | predicted=400us rule=x "
			      "-> C6 tick off | timer +500us: res 500us hit ...\n");
	/* At 60 the prediction and got-tick go too, and what is never left out is continued
	 * on an indented line, between pieces. */
	free(text);
	text = render_width(&res, REPORT_TEXT, true, 60);
	assert_contains(text, "\ndecisions (1, in order of completion):\n"
			      "0.000001s cpu0 sleep 500us tick on | rule=x -> C6 tick off |\n"
			      "    timer +500us: res 500us hit ...\n");
	free(text);
	text = render(&res, REPORT_TEXT, true);
	/* The grid summary: one row, the same totals. */
	assert_contains(text, "t.trace  toy      menu@6.19  250        6   33.33   16.67  50.00");
	free(text);

	/* Without --per-cpu only the "-" rows; a latency limit and disabled states named. */
	res.r[0].latency_req_ns = 50000;
	res.r[0].disabled = (1u << C1) | (1u << C6);
	text = render(&res, REPORT_TEXT, false);
	assert_contains(text, "| latency limit 50 us | disabled: C1,C6 ==\n");
	assert_contains(text, "CPU  Busy%  POLL%    C1%    C6%  Trunc%\n"
			      "-    15.00   2.50  12.50  65.00    5.00\n\n");
	assert_null(strstr(text, "\n0    20.00"));
	free(text);
	run_results_free(&res);
}

static double jnum(json_t *o, const char *path)
{
	char key[64];
	const char *dot;

	while ((dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(key)) : json_object_get(o, key);
		path = dot + 1;
	}
	o = json_is_array(o) ? json_array_get(o, (size_t)atoi(path)) : json_object_get(o, path);
	if (!json_is_number(o)) {
		fprintf(stderr, "no number at %s\n", path);
		fail();
	}
	return json_number_value(o);
}

static void assert_num(json_t *run, const char *path, double want)
{
	double got = jnum(run, path);

	if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want))) {
		fprintf(stderr, "%s: got %.17g, want %.17g\n", path, got, want);
		fail();
	}
}

/* JSON: the same numbers, parsed back. */
static void test_json(void **state)
{
	struct run_results res = { 0 };
	json_error_t je;
	json_t *root, *run, *d, *cfg;
	char *text;

	(void)state;
	toy_results(&res, "t.trace");
	res.r[0].disabled = 1u << C1;
	text = render(&res, REPORT_JSON, false);
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "schema")), "idlesim-run/1");
	run = json_array_get(json_object_get(root, "runs"), 0);
	assert_non_null(run);
	assert_true(json_is_null(json_object_get(run, "latency_limit_ns")));
	assert_string_equal(json_string_value(json_array_get(json_object_get(run, "disabled"), 0)),
			    "C1");
	assert_int_equal(json_array_size(json_object_get(run, "disabled")), 1);
	/* The configuration record. */
	assert_string_equal(json_string_value(json_object_get(root, "idlesim_version")),
			    IDLESIM_VERSION);
	cfg = json_object_get(run, "config");
	assert_string_equal(json_string_value(json_object_get(cfg, "idlesim_version")),
			    IDLESIM_VERSION);
	assert_string_equal(json_string_value(json_object_get(cfg, "governor")), "menu@6.19");
	assert_int_equal(json_object_size(json_object_get(cfg, "tunables")), 6);
	assert_num(cfg, "tunables.decay", 4);
	assert_num(cfg, "tunables.resolution", 1024);
	assert_num(cfg, "tunables.max_interesting_us", 50000);
	assert_num(cfg, "tunables.variance_max", 400);
	assert_num(cfg, "tunables.ratio_sq", 36);
	assert_num(cfg, "tunables.residency_threshold_us", 15);
	assert_string_equal(json_string_value(json_array_get(json_object_get(cfg, "set"), 0)),
			    "menu.decay=4");
	assert_true(json_is_null(json_object_get(cfg, "latency_limit_ns")));
	assert_string_equal(json_string_value(json_array_get(json_object_get(cfg, "disabled"), 0)),
			    "C1");
	assert_num(cfg, "hz", 250);
	assert_string_equal(json_string_value(json_object_get(cfg, "wake_latency_model")), "worst");
	assert_string_equal(json_string_value(json_object_get(json_object_get(cfg, "machine"), "name")),
			    "toy");
	assert_string_equal(json_string_value(json_object_get(json_object_get(cfg, "machine"), "hash")),
			    "0123456789abcdef");
	assert_string_equal(json_string_value(json_object_get(json_object_get(cfg, "trace"), "name")),
			    "t.trace");
	assert_string_equal(json_string_value(json_object_get(json_object_get(cfg, "trace"), "hash")),
			    "fedcba9876543210");
	assert_true(json_is_null(json_object_get(cfg, "seed")));
	assert_num(run, "cpus_replayed", 2);
	assert_num(run, "machine_cpus", 4);
	assert_num(run, "duration_ns", 1000000);
	assert_num(run, "totals.idle_entries", 6);
	assert_num(run, "totals.above", 2);
	assert_num(run, "totals.below", 1);
	assert_num(run, "totals.hits", 3);
	assert_num(run, "totals.above_pct", 100.0 / 3);
	assert_num(run, "totals.below_pct", 100.0 / 6);
	assert_num(run, "totals.hits_pct", 50);
	assert_num(run, "totals.busy_pct", 15);
	assert_num(run, "totals.idle_periods", 5);
	assert_num(run, "totals.absorbed", 1);
	assert_num(run, "totals.truncated_ns", 100000);
	assert_num(run, "totals.wakeups.timer", 2);
	assert_num(run, "totals.wakeups.irq", 2);
	assert_num(run, "totals.wakeups.ipi", 1);
	assert_num(run, "totals.wakeups.tick", 1);
	assert_num(run, "totals.avg_power_w", 4);
	assert_num(run, "totals.idle_power_w", 1);
	assert_num(run, "totals.wake_latency_ns.samples", 3);
	assert_num(run, "totals.wake_latency_ns.mean", 89000.0 / 3);
	assert_num(run, "totals.wake_latency_ns.p50", 2000);
	assert_num(run, "totals.wake_latency_ns.p99", 85000);
	assert_num(run, "totals.wake_latency_ns.max", 85000);
	assert_num(run, "regret.energy_j", 0.0005);
	assert_num(run, "regret.energy_pct", 100.0 / 7);
	assert_num(run, "regret.wake_latency_mean_ns", 1500);
	assert_num(run, "regret.package_energy_j", 0.0002);
	assert_num(run, "regret.cpu_energy_j", 0.0001);
	assert_string_equal(json_string_value(json_object_get(json_object_get(run, "regret"),
							      "energy_reference")),
			    "oracle-energy");
	assert_string_equal(json_string_value(json_object_get(json_object_get(run, "regret"),
							      "latency_reference")),
			    "oracle");
	assert_true(json_is_null(json_object_get(json_object_get(run, "regret"), "negative")));
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(json_object_get(run, "config"), "regret_references"),
				    "energy")),
			    "oracle-energy");
	assert_num(run, "states.0.residency_pct", 2.5);
	assert_num(run, "states.1.residency_pct", 12.5);
	assert_num(run, "states.2.residency_pct", 65);
	assert_num(run, "states.2.usage", 3);
	assert_num(run, "states.2.time_ns", 1300000);
	assert_num(run, "states.2.above", 1);
	assert_num(run, "states.0.below", 1);
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(run, "states"), 1),
						 "disabled")));
	assert_true(json_is_false(json_object_get(json_array_get(json_object_get(run, "states"), 2),
						  "disabled")));
	/* Per CPU: residency over one CPU's window. */
	assert_num(run, "cpus.0.busy_ns", 200000);
	assert_num(run, "cpus.0.states.1.residency_pct", 25);
	assert_num(run, "cpus.0.above", 1);
	assert_num(run, "cpus.0.below", 1);
	assert_num(run, "cpus.1.core", 1);
	assert_num(run, "cpus.1.states.2.residency_pct", 80);
	assert_num(run, "cpus.1.idle_entries", 2);
	assert_num(run, "cpus.1.wake_latency_ns.p50", 85000);
	/* The kept decision, with the governor's variables. */
	d = json_array_get(json_object_get(run, "decisions"), 0);
	assert_non_null(d);
	assert_true(json_is_null(json_object_get(d, "delta_tick_ns")));
	assert_num(d, "sleep_length_ns", 500000);
	assert_num(d, "latency_req_ns", 2000000000000.0);
	assert_string_equal(json_string_value(json_object_get(d, "state_name")), "C6");
	assert_string_equal(json_string_value(json_object_get(d, "cause")), "timer");
	assert_string_equal(json_string_value(json_object_get(d, "verdict")), "hit");
	assert_num(d, "governor.predicted_ns", 400000);
	assert_string_equal(json_string_value(json_object_get(json_object_get(d, "governor"), "rule")),
			    "x");
	json_decref(root);
	free(text);
	run_results_free(&res);
}

/* CSV: every row, by hand; a trace name with a comma and a quote is quoted. */
static void test_csv(void **state)
{
	struct run_results res = { 0 };
	char *text;

	(void)state;
	toy_results(&res, "a,\"b\".trace");
	text = render(&res, REPORT_CSV, false);
#define P "\"a,\"\"b\"\".trace\",toy,menu@6.19,250,"
/* no limit, none disabled, the tunables, the --set, model, hashes, no seed, version */
#define S ",,,decay=4 resolution=1024 max_interesting_us=50000 variance_max=400 ratio_sq=36 " \
	  "residency_threshold_us=15,menu.decay=4,worst,energy=oracle-energy latency=oracle," \
	  "0123456789abcdef,fedcba9876543210,," \
	  IDLESIM_VERSION "\n"
	assert_string_equal(text,
		"trace,machine,governor,hz,cpu,state,usage,time_ns,above,below,residency_pct,"
		"energy_j,avg_power_w,idle_power_w,wake_latency_samples,wake_latency_mean_ns,"
		"wake_latency_p50_ns,wake_latency_p99_ns,wake_latency_max_ns,regret_energy_j,"
		"regret_wake_latency_mean_ns,regret_negative,latency_limit_ns,disabled,tunables,set,"
		"wake_latency_model,regret_references,machine_hash,trace_hash,seed,idlesim_version\n"
		P "all,POLL,2,50000,0,1,2.500000,,,,,,,,,,," S
		P "all,C1,1,250000,1,0,12.500000,,,,,,,,,,," S
		P "all,C6,3,1300000,1,0,65.000000,,,,,,,,,,," S
		P "all,total,6,1600000,2,1,80.000000,0.004000000,4.000000,1.000000,"
		  "3,29666.667,2000,85000,85000,0.000500000,1500.000," S
		P "0,POLL,2,50000,0,1,5.000000,,,,,,,,,,," S
		P "0,C1,1,250000,1,0,25.000000,,,,,,,,,,," S
		P "0,C6,1,500000,0,0,50.000000,,,,,,,,,,," S
		P "0,total,4,800000,1,1,80.000000,,,,2,2000.000,2000,2000,2000,,," S
		P "1,POLL,0,0,0,0,0.000000,,,,,,,,,,," S
		P "1,C1,0,0,0,0,0.000000,,,,,,,,,,," S
		P "1,C6,2,800000,1,0,80.000000,,,,,,,,,,," S
		P "1,total,2,800000,1,0,80.000000,,,,1,85000.000,85000,85000,85000,,," S);
#undef S
#undef P
	free(text);
	run_results_free(&res);
}

/*
 * A negative energy regret is flagged with its cause (sim/run/run.h): toy numbers, J.
 *   regret -0.0001, package +0.0002: cores -0.0003; per CPU +0.0001 -> "smt"
 *   regret -0.0001, package +0.0002, per CPU -0.0002               -> "core"
 *   regret -0.0001, package -0.0003: cores +0.0002                 -> "package"
 *   regret -0.0000000005 (above -1e-9 J, rounding)                 -> none
 *   any negative regret of a closed-loop run                       -> "loop"
 */
static void test_negative_regret(void **state)
{
	struct run_results res = { 0 };
	struct run_result *r;
	char *text;

	(void)state;
	toy_results(&res, "t.trace");
	r = &res.r[0];
	r->regret_energy_j = -0.0001;
	r->regret_energy_pct = -100.0 * 0.0001 / 0.0041;
	r->regret_package_j = 0.0002;
	r->regret_cpu_j = 0.0001;
	assert_string_equal(run_regret_negative(r), "smt");
	text = render(&res, REPORT_TEXT, false);
	assert_contains(text, "cores and transitions -0.000300 J, of which SMT sharing -0.000400 J; "
			      "packages +0.000200 J) NEGATIVE (smt,\n        docs/regret.md), wake latency");
	free(text);
	text = render(&res, REPORT_CSV, false);
	assert_contains(text, ",-0.000100000,1500.000,smt,");
	free(text);
	r->regret_cpu_j = -0.0002;
	assert_string_equal(run_regret_negative(r), "core");
	r->regret_package_j = -0.0003;
	assert_string_equal(run_regret_negative(r), "package");
	r->regret_energy_j = -0.0000000005;
	assert_null(run_regret_negative(r));
	r->regret_energy_j = -0.0001;
	r->closed_loop = true; /* the references ran their own loop: that is the cause */
	assert_string_equal(run_regret_negative(r), "loop");
	r->closed_loop = false;
	r->has_regret = false; /* no reference ran: nothing to flag */
	assert_null(run_regret_negative(r));
	run_results_free(&res);
}

/* The same results give byte-identical reports (report.h's promise). */
static void test_deterministic(void **state)
{
	static const enum report_format fmts[] = { REPORT_TEXT, REPORT_JSON, REPORT_CSV };
	struct run_results a = { 0 }, b = { 0 };
	enum report_format f;
	size_t i;

	(void)state;
	toy_results(&a, "t.trace");
	toy_results(&b, "t.trace");
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *x = render(&a, fmts[i], true), *y = render(&b, fmts[i], true);

		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	run_results_free(&a);
	run_results_free(&b);
	assert_int_equal(report_format_parse("csv", &f), 0);
	assert_int_equal(f, REPORT_CSV);
	assert_int_equal(report_format_parse("xml", &f), -1);
}

/*
 * A failed write is REPORT_ERR_IO (exit status 2), running out of memory REPORT_ERR_NOMEM
 * (exit status 1): /dev/full fails every write; the JSON tree needs allocations, and with
 * none allowed (sim_alloc_fail_after(0)) it cannot be built.
 */
static void test_failures(void **state)
{
	struct report_opts o = { .format = REPORT_JSON };
	struct run_results res = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	idlesim_init(); /* jansson allocates through sim/base/alloc.h */
	toy_results(&res, "t.trace");
	f = fopen("/dev/full", "w");
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0); /* fail at the first write, not at fclose */
	assert_int_equal(report_write(f, &res, &o), REPORT_ERR_IO);
	fclose(f);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	sim_alloc_fail_after(0);
	assert_int_equal(report_write(f, &res, &o), REPORT_ERR_NOMEM);
	sim_alloc_fail_after(-1);
	fclose(f);
	free(buf);
	run_results_free(&res);
}

/* Durations with units, 3 significant digits, trailing zeros dropped. */
/*
 * The hashes of the configuration record. FNV-1a 64 on the published test vectors (Fowler,
 * Noll, Vo: "" -> cbf29ce484222325, "a" -> af63dc4c8601ec8c, "foobar" -> 85944171f73967e8);
 * a file's hash is that of its bytes; a machine's covers its table, not its name.
 */
static void test_hashes(void **state)
{
	struct sim_error err = { 0 };
	struct machine skl, copy;
	char hex[17], canon[4096];
	uint64_t h;
	FILE *f;

	(void)state;
	assert_true(cfgrec_fnv1a(CFGREC_FNV_OFFSET, "", 0) == 0xcbf29ce484222325ull);
	assert_true(cfgrec_fnv1a(CFGREC_FNV_OFFSET, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(cfgrec_fnv1a(CFGREC_FNV_OFFSET, "foobar", 6) == 0x85944171f73967e8ull);
	/* in pieces: the same */
	assert_true(cfgrec_fnv1a(cfgrec_fnv1a(CFGREC_FNV_OFFSET, "foo", 3), "bar", 3) ==
		    0x85944171f73967e8ull);
	cfgrec_hex(hex, 0xaf63dc4c8601ec8cull);
	assert_string_equal(hex, "af63dc4c8601ec8c");
	cfgrec_hex(hex, 0x1);
	assert_string_equal(hex, "0000000000000001");

	f = fopen("test_report_hash.tmp", "wb");
	assert_non_null(f);
	fputs("foobar", f);
	fclose(f);
	assert_int_equal(cfgrec_file_hash("test_report_hash.tmp", &h, &err), 0);
	assert_true(h == 0x85944171f73967e8ull);
	remove("test_report_hash.tmp");
	assert_int_equal(cfgrec_file_hash("no/such/file", &h, &err), -1);

	/* A one-state machine's canonical text, written out by hand. */
	memset(&copy, 0, sizeof(copy));
	snprintf(copy.name, sizeof(copy.name), "one");
	snprintf(copy.driver, sizeof(copy.driver), "acpi_idle");
	copy.packages = 1;
	copy.cores = 2;
	copy.threads = 1;
	copy.active_core_power_w = 1.5;
	copy.active_package_power_w = 2;
	copy.state_count = 1;
	snprintf(copy.states[0].name, sizeof(copy.states[0].name), "POLL");
	copy.states[0].flags = 1;
	copy.states[0].core_power_w = 0.25;
	machine_canon_text(&copy, canon, sizeof(canon));
	assert_string_equal(canon, "driver=acpi_idle\ntopology=1,2,1\nactive_core_power_w=1.5\n"
				   "active_package_power_w=2\nstates=1\nstate=0\nname=POLL\n"
				   "flags=1\nexit_latency_ns=0\ntarget_residency_ns=0\n"
				   "default_off=0\ncore_power_w=0.25\nentry_exit_energy_j=0\n"
				   "package_power_w=0\n");
	assert_true(machine_hash(&copy) ==
		    cfgrec_fnv1a(CFGREC_FNV_OFFSET, canon, strlen(canon)));

	/* Renamed, the same table: the same hash. One latency edited: another. */
	assert_int_equal(machine_load("skl", &skl, &err), 0);
	copy = skl;
	snprintf(copy.name, sizeof(copy.name), "mine");
	snprintf(copy.desc, sizeof(copy.desc), "edited");
	assert_true(machine_hash(&copy) == machine_hash(&skl));
	copy.states[2].exit_latency_ns++;
	assert_true(machine_hash(&copy) != machine_hash(&skl));
}

static void test_fmt_ns(void **state)
{
	static const struct {
		int64_t ns;
		const char *s;
	} cases[] = {
		{ 0, "0ns" },	      { 830, "830ns" },	      { 999, "999ns" },
		{ 1000, "1us" },      { 56900, "56.9us" },    { 830000, "830us" },
		{ 999400, "999us" },  { 999600, "1ms" },      /* 999.6 us rounds to 1000: 1 ms */
		{ 1250000, "1.25ms" }, { 1255000, "1.25ms" }, /* 1.255 is 1.25499.. in binary */
		{ 2000000000, "2s" }, { 12500000000, "12.5s" }, { -1, "none" },
		{ KTIME_MAX, "none" },
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		report_fmt_ns(buf, sizeof(buf), cases[i].ns);
		assert_string_equal(buf, cases[i].s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_negative_regret),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_fmt_ns),
		cmocka_unit_test(test_hashes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
