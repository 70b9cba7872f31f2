// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_export.c - `idlesim run --format ftrace|perfetto` (sim/report/export.c), through the binary.
 *
 * The hand-checked trace (one CPU, skl with C3 and deeper disabled, governor deepest, which
 * always takes C1E (exit 10 us, target 20 us) and stops the tick; HZ 250, ticks every 4 ms):
 *
 *   idle 0 1000000 500000 irq     CPU busy from 0, idle at 1 ms: enters C1E at 1,000,000;
 *                                 the irq at 1,500,000; exit over at 1,510,000:
 *                                 residency 510,000 (hit: no deeper state is enabled)
 *   idle 0 3000000 2000000 timer  the work keeps its length, so the CPU is 10 us behind and
 *                                 idles at 3,010,000; the tick is stopped (the timer at 5 ms
 *                                 is after the 4 ms tick); the timer at 5,000,000; exit at
 *                                 5,010,000: residency 5,000,000 - 3,010,000 + 10,000 =
 *                                 2,000,000 (hit)
 *   idle 0 8000000 4000000 irq    idles at 8,010,000; the end (10 ms) comes first: truncated,
 *                                 no exit event
 *
 * So the ftrace text holds, in order: entry state=2 at 0.001000000, exit (4294967295) and
 * irq_handler_entry at 0.001510000, entry at 0.003010000, exit and hrtimer_expire_entry at
 * 0.005010000, entry at 0.008010000: 7 events. Imported with --machine skl and the same
 * states disabled: C1E usage 2, time 510,000 + 2,000,000 = 2,510,000 ns, above 0, below 0.
 */
#include "tests/testbin.h"
#include "tests/testjson.h"
#include "sim/report/export.h"

#include <jansson.h>
#include <math.h>
#include <unistd.h>

#define CPUIDLE_STATE_MAX_TEST 10

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("export");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

static const char hand_trace[] = "idlesim-trace v1\ncpus 1\nstart 0\nend 10000000\n"
				 "idle 0 1000000 500000 irq\n"
				 "idle 0 3000000 2000000 timer timer=hrtimer\n"
				 "idle 0 8000000 4000000 irq\n";

/* worst: the hand-computed times use the table's exit latencies (C1E: 10 us) */
#define HAND_KNOBS "--machine skl --disable C3,C6,C7s,C8,C9,C10 --governor deepest --wake-latency worst"

/*
 * The event lines of an ftrace text (no '#' header lines), in order, as "TIME: EVENT". With
 * `all` false, without the events written for idlesim validate (the timers armed before an
 * entry, the tick's arming and stop, a replay's switch to its task at a period's end).
 */
#define EV_LEN 192
static bool validate_event(const char *line, const char *eol)
{
	static const char *const keys[] = { "hrtimer_start:", "hrtimer_cancel:", "tick_stop:",
					     "next_comm=task next_pid=1 " };
	size_t k;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *h = strstr(line, keys[k]);

		if (h && h < eol)
			return true;
	}
	return false;
}

static int ftrace_events_of(const char *text, char out[][EV_LEN], int max, bool all)
{
	const char *p = text;
	int n = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *ts;
		size_t len;

		if (!eol)
			eol = p + strlen(p);
		if (*p != '#' && (ts = strstr(p, "] d..")) && ts < eol && n < max &&
		    (all || !validate_event(p, eol))) {
			ts += 2;
			ts += 5;
			while (*ts == ' ')
				ts++;
			len = (size_t)(eol - ts) < EV_LEN - 1 ? (size_t)(eol - ts) : EV_LEN - 1;
			memcpy(out[n], ts, len);
			out[n][len] = '\0';
			n++;
		}
		p = *eol ? eol + 1 : eol;
	}
	return n;
}

static int ftrace_events(const char *text, char out[][EV_LEN], int max)
{
	return ftrace_events_of(text, out, max, false);
}

static void test_ftrace_by_hand(void **state)
{
	char args[1024], ev[16][EV_LEN];
	char *text;
	int n;

	(void)state;
	write_tmp("hand.trace", hand_trace);
	snprintf(args, sizeof(args), "run --trace %s " HAND_KNOBS " --format ftrace -o %s",
		 tmp_path("hand.trace"), tmp_path("hand.ftrace"));
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("hand.ftrace");
	assert_non_null(strstr(text, "#P:1\n"));
	n = ftrace_events(text, ev, 16);
	assert_int_equal(n, 7);
	assert_string_equal(ev[0], "0.001000000: cpu_idle: state=2 cpu_id=0");
	assert_string_equal(ev[1], "0.001510000: cpu_idle: state=4294967295 cpu_id=0");
	assert_string_equal(ev[2], "0.001510000: irq_handler_entry: irq=16 name=idlesim");
	assert_string_equal(ev[3], "0.003010000: cpu_idle: state=2 cpu_id=0");
	assert_string_equal(ev[4], "0.005010000: cpu_idle: state=4294967295 cpu_id=0");
	assert_non_null(strstr(ev[5], "0.005010000: hrtimer_expire_entry: "));
	assert_non_null(strstr(ev[5], "function=hrtimer_wakeup"));
	assert_string_equal(ev[6], "0.008010000: cpu_idle: state=2 cpu_id=0");
	free(text);

	/* Read back: the recorded choices, scored on the same table. */
	snprintf(args, sizeof(args),
		 "import %s --machine skl --disable C3,C6,C7s,C8,C9,C10 -o /dev/null --format json",
		 tmp_path("hand.ftrace"));
	assert_int_equal(run_idlesim(args), 0);
	{
		json_error_t je;
		json_t *root, *st;

		text = slurp_tmp("out");
		root = json_loads(text, 0, &je);
		assert_non_null(root);
		st = json_array_get(json_object_get(json_object_get(root, "recorded"), "states"), 2);
		assert_string_equal(json_string_value(json_object_get(st, "name")), "C1E");
		assert_int_equal(json_integer_value(json_object_get(st, "usage")), 2);
		assert_int_equal(json_integer_value(json_object_get(st, "time_ns")), 2510000);
		assert_int_equal(json_integer_value(json_object_get(st, "above")), 0);
		assert_int_equal(json_integer_value(json_object_get(st, "below")), 0);
		json_decref(root);
		free(text);
	}
}

/*
 * The events written for idlesim validate, on the hand trace above (deepest, which stops
 * the tick; HZ 250: edges every 4 ms): before each entry the CPU's next timer (the irq
 * records have none: cancelled; the timer record's at 5 ms, armed at 3.01 ms), the tick's
 * hrtimer armed at the next edge (4, 4 and 12 ms: the tick runs again after each period's
 * work), and the tick's stop (no wheel timer is due within the tick); after each completed
 * period's exit the switch to its task. No tick fired while an entry lasted (it was
 * stopped): no tick expiry.
 */
static void test_ftrace_validate_events(void **state)
{
	static const char *const want[] = {
		"0.001000000: hrtimer_cancel: hrtimer=ffff888100000000",
		"0.001000000: hrtimer_start: hrtimer=ffff888100000001 function=tick_sched_timer "
		"expires=4000000 softexpires=4000000 mode=ABS|PINNED|HARD",
		"0.001000000: tick_stop: success=1 dependency=NONE",
		"0.001000000: cpu_idle: state=2 cpu_id=0",
		"0.001510000: cpu_idle: state=4294967295 cpu_id=0",
		"0.001510000: irq_handler_entry: irq=16 name=idlesim",
		"0.001510000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
		"prev_state=R ==> next_comm=task next_pid=1 next_prio=120",
		"0.003010000: hrtimer_start: hrtimer=ffff888100000000 function=hrtimer_wakeup "
		"expires=5000000 softexpires=5000000 mode=ABS",
		"0.003010000: hrtimer_start: hrtimer=ffff888100000001 function=tick_sched_timer "
		"expires=4000000 softexpires=4000000 mode=ABS|PINNED|HARD",
		"0.003010000: tick_stop: success=1 dependency=NONE",
		"0.003010000: cpu_idle: state=2 cpu_id=0",
		"0.005010000: cpu_idle: state=4294967295 cpu_id=0",
		"0.005010000: hrtimer_expire_entry: hrtimer=ffff888100000000 now=5010000 "
		"function=hrtimer_wakeup",
		"0.005010000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
		"prev_state=R ==> next_comm=task next_pid=1 next_prio=120",
		"0.008010000: hrtimer_cancel: hrtimer=ffff888100000000",
		"0.008010000: hrtimer_start: hrtimer=ffff888100000001 function=tick_sched_timer "
		"expires=12000000 softexpires=12000000 mode=ABS|PINNED|HARD",
		"0.008010000: tick_stop: success=1 dependency=NONE",
		"0.008010000: cpu_idle: state=2 cpu_id=0",
	};
	char args[1024], ev[24][EV_LEN];
	char *text;
	size_t i;
	int n;

	(void)state;
	write_tmp("hand.trace", hand_trace);
	snprintf(args, sizeof(args), "run --trace %s " HAND_KNOBS " --format ftrace -o %s",
		 tmp_path("hand.trace"), tmp_path("hand.ftrace"));
	assert_int_equal(run_idlesim(args), 0);
	text = slurp_tmp("hand.ftrace");
	assert_non_null(strstr(text, "entries-in-buffer/entries-written: 18/18 "));
	n = ftrace_events_of(text, ev, 24, true);
	assert_int_equal(n, (int)(sizeof(want) / sizeof(want[0])));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(ev[i], want[i]);
	free(text);
}

/* Every CPU's usage, time, above and below per state in the run's JSON (tmpdir/RUN) and in
 * the import's of its ftrace export (tmpdir/out) agree, and they are not all zero. */
static void assert_round_trip(const char *run_json, size_t nr_cpus)
{
	static const char *const fields[] = { "usage", "time_ns", "above", "below" };
	json_t *run, *imp, *rcpus, *icpus;
	size_t c, k, f, checked = 0;

	run = load_json_tmp(run_json);
	imp = load_json_tmp("out");
	rcpus = json_object_get(json_array_get(json_object_get(run, "runs"), 0), "cpus");
	icpus = json_object_get(json_object_get(imp, "recorded"), "cpus");
	assert_int_equal(json_array_size(rcpus), nr_cpus);
	assert_int_equal(json_array_size(icpus), nr_cpus);
	for (c = 0; c < nr_cpus; c++) {
		json_t *rs = json_object_get(json_array_get(rcpus, c), "states");
		json_t *is = json_object_get(json_array_get(icpus, c), "states");

		assert_int_equal(json_array_size(rs), json_array_size(is));
		for (k = 0; k < json_array_size(rs); k++)
			for (f = 0; f < 4; f++) {
				json_int_t a = json_integer_value(json_object_get(json_array_get(rs, k), fields[f]));
				json_int_t b = json_integer_value(json_object_get(json_array_get(is, k), fields[f]));

				if (a != b)
					fail_msg("CPU %zu state %zu %s: run %lld, imported %lld", c, k,
						 fields[f], (long long)a, (long long)b);
				checked += a != 0;
			}
	}
	assert_true(checked > 8); /* not a vacuous comparison */
	json_decref(run);
	json_decref(imp);
}

/*
 * A generated trace (4 CPUs of irq-poisson with a background timer and work): run, export,
 * import, and every CPU's usage, time, above and below per state agree with the run's JSON.
 */
static void test_ftrace_round_trip(void **state)
{
	char args[1024];

	(void)state;
	snprintf(args, sizeof(args),
		 "gen --workload irq-poisson --cpus 4 --duration-s 0.2 --mean-us 300 "
		 "--timer-period-us 2000 --busy-us 20 --seed 7 -o %s",
		 tmp_path("gen.trace"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "run --trace %s -m skl -g menu@6.19 --format json -o %s",
		 tmp_path("gen.trace"), tmp_path("gen.json"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "run --trace %s -m skl -g menu@6.19 --format ftrace -o %s",
		 tmp_path("gen.trace"), tmp_path("gen.ftrace"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "import %s --machine skl -o /dev/null --format json",
		 tmp_path("gen.ftrace"));
	assert_int_equal(run_idlesim(args), 0);
	assert_round_trip("gen.json", 4);
}

/*
 * A closed-loop run (tbench, 2 client pairs, the scheduler, on skl's 8 CPUs): its ftrace
 * export has sched_switch lines, which make the importer merge idle periods between which
 * no task ran (a CPU woken by an interrupt that wakes nobody, as the kernel's idle loop
 * re-enters without a switch); each entry keeps its own state and residency, so the
 * per-state counts still agree with the run's, for the scheduler's run (every CPU of skl)
 * and a pinned one (a CPU per thread: 4).
 */
static void test_ftrace_round_trip_workload(void **state)
{
	static const char *const placement[] = { "sched", "pinned" };
	char args[1024], *text;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		snprintf(args, sizeof(args),
			 "run --workload tbench --clients 2 --placement %s --duration-s 0.02 "
			 "-m skl -g menu@6.19 --format json -o %s",
			 placement[i], tmp_path("wl.json"));
		assert_int_equal(run_idlesim(args), 0);
		snprintf(args, sizeof(args),
			 "run --workload tbench --clients 2 --placement %s --duration-s 0.02 "
			 "-m skl -g menu@6.19 --format ftrace -o %s",
			 placement[i], tmp_path("wl.ftrace"));
		assert_int_equal(run_idlesim(args), 0);
		text = slurp_tmp("wl.ftrace");
		/* pinned: no tasks, no switches */
		assert_true(!strstr(text, "sched_switch: prev_comm=swapper/") == (i == 1));
		free(text);
		snprintf(args, sizeof(args), "import %s --machine skl -o /dev/null --format json",
			 tmp_path("wl.ftrace"));
		assert_int_equal(run_idlesim(args), 0);
		text = slurp_tmp("out");
		assert_true(!strstr(text, "\"merging\": \"sched_switch\"") == (i == 1));
		free(text);
		assert_round_trip("wl.json", i ? 4 : 8); /* pinned: a CPU per thread */
	}
}

/*
 * A closed-loop run's results made by hand: 2 CPUs, HZ 250, states POLL and C1, the run
 * [0, 30 us). Tasks 1 "tbench", 2 "tbench_srv", 3 "t3".
 *  CPU 1: idle (C1) from 0, woken by an IPI at 10 us, exit over at 12 us; tbench_srv (2)
 *         runs [12, 22) and blocks; idle again from 22 (cut by the end).
 *  CPU 0: tbench (1) runs [1, 5) and is preempted by t3 (3), which runs [5, 8) and blocks.
 * ftrace, by the kernel's order (the idle loop's exit and the IPI's handler, then the
 * switch; a switch to idle, then the idle entry), in time order across CPUs:
 *   0      cpu_idle state=1 cpu 1
 *   1 us   swapper/0 (R) ==> tbench 1          logged by <idle>-0
 *   5 us   tbench 1 (R+: preempted) ==> t3 3   logged by tbench-1
 *   8 us   t3 3 (S: blocked) ==> swapper/0     logged by t3-3
 *   12 us  cpu_idle exit, ipi_entry, swapper/1 (R) ==> tbench_srv 2
 *   22 us  tbench_srv 2 (S) ==> swapper/1 (logged by tbench_srv-2), cpu_idle state=1
 * Perfetto: CPU 1's track is thread 2 of process 1, so tbench_srv's segment is an X event
 * named "tbench_srv-2" on tid 2, ts 12.000 us, dur 10.000 us, args {tid 2, comm}.
 */
static void hand_segments(struct run_result *r, struct loop_task_stats *tasks)
{
	static const struct loop_segment segs[] = {
		{ 12000, 22000, 1, 2, false },
		{ 1000, 5000, 0, 1, true },
		{ 5000, 8000, 0, 3, false },
	};

	memset(r, 0, sizeof(*r));
	snprintf(r->trace, sizeof(r->trace), "hand");
	snprintf(r->machine, sizeof(r->machine), "skl");
	snprintf(r->governor, sizeof(r->governor), "menu");
	r->hz = 250;
	r->stats.nr_cpus = 2;
	r->stats.state_count = 2;
	snprintf(r->stats.state_names[0], sizeof(r->stats.state_names[0]), "POLL");
	snprintf(r->stats.state_names[1], sizeof(r->stats.state_names[1]), "C1");
	r->stats.end_ns = 30000;
	r->slices = calloc(2, sizeof(*r->slices));
	assert_non_null(r->slices);
	r->slices[0] = (struct run_slice){ .entry_ns = 0, .wake_ns = 10000, .reflect_ns = 12000,
					   .idle_ns = 10000, .sleep_ns = KTIME_MAX,
					   .next_tick_ns = 4000000, .cpu = 1, .state = 1,
					   .cause = WAKE_IPI, .flags = RUN_SLICE_FIRST };
	r->slices[1] = (struct run_slice){ .entry_ns = 22000, .wake_ns = 30000,
					   .reflect_ns = 30000, .idle_ns = -1,
					   .sleep_ns = KTIME_MAX, .next_tick_ns = 4000000,
					   .cpu = 1, .state = 1, .cause = WAKE_NR_CAUSES,
					   .flags = RUN_SLICE_FIRST | RUN_SLICE_TRUNCATED };
	r->nr_slices = 2;
	r->closed_loop = true;
	r->segs = (struct loop_segment *)segs;
	r->nr_segs = 3;
	memset(tasks, 0, 3 * sizeof(*tasks));
	tasks[0].comm = "tbench";
	tasks[1].comm = "tbench_srv";
	tasks[2].comm = "t3";
	r->sched.nr_tasks = 3;
	r->sched.task = tasks;
}

/* A string member of an object, "" when it is not one. */
static const char *jstr_or(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

static void test_task_segments_by_hand(void **state)
{
	struct loop_task_stats tasks[3];
	struct sim_error err = { 0 };
	struct run_results res;
	struct run_result r;
	char *text = NULL, ev[16][EV_LEN];
	size_t len = 0, i;
	json_t *root, *evs, *e, *x = NULL, *meta = NULL;
	json_error_t je;
	FILE *f;
	int n;

	(void)state;
	hand_segments(&r, tasks);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(export_ftrace(f, &r, "hand", &err), 0);
	fclose(f);
	n = ftrace_events(text, ev, 16);
	assert_int_equal(n, 9);
	assert_string_equal(ev[0], "0.000000000: cpu_idle: state=1 cpu_id=1");
	assert_string_equal(ev[1], "0.000001000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
				   "prev_prio=120 prev_state=R ==> next_comm=tbench next_pid=1 "
				   "next_prio=120");
	assert_string_equal(ev[2], "0.000005000: sched_switch: prev_comm=tbench prev_pid=1 "
				   "prev_prio=120 prev_state=R+ ==> next_comm=t3 next_pid=3 "
				   "next_prio=120");
	assert_string_equal(ev[3], "0.000008000: sched_switch: prev_comm=t3 prev_pid=3 "
				   "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 "
				   "next_prio=120");
	assert_string_equal(ev[4], "0.000012000: cpu_idle: state=4294967295 cpu_id=1");
	assert_string_equal(ev[5], "0.000012000: ipi_entry: (Rescheduling interrupts)");
	assert_string_equal(ev[6], "0.000012000: sched_switch: prev_comm=swapper/1 prev_pid=0 "
				   "prev_prio=120 prev_state=R ==> next_comm=tbench_srv next_pid=2 "
				   "next_prio=120");
	assert_string_equal(ev[7], "0.000022000: sched_switch: prev_comm=tbench_srv prev_pid=2 "
				   "prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 "
				   "next_prio=120");
	assert_string_equal(ev[8], "0.000022000: cpu_idle: state=1 cpu_id=1");
	/* the logging task, as ftrace's TASK-PID column (%16s-%-7d) shows it */
	assert_non_null(strstr(text, "          <idle>-0       [000] d..2.    0.000001000: "));
	assert_non_null(strstr(text, "          tbench-1       [000] d..2.    0.000005000: "));
	assert_non_null(strstr(text, "      tbench_srv-2       [001] d..2.    0.000022000: "));
	/* and per entry, for validate, the next timer cancelled (none) and the tick armed */
	assert_non_null(strstr(text, "entries-in-buffer/entries-written: 13/13 "));
	free(text);

	res.r = &r;
	res.n = 1;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(export_perfetto(f, &res, "hand", &err), 0);
	fclose(f);
	root = json_loads(text, 0, &je);
	assert_non_null(root);
	evs = json_object_get(root, "traceEvents");
	for (i = 0; i < json_array_size(evs); i++) {
		e = json_array_get(evs, i);
		if (!strcmp(jstr_or(e, "name"), "tbench_srv-2"))
			x = e;
		if (!strcmp(jstr_or(e, "name"), "thread_name") &&
		    json_integer_value(json_object_get(e, "tid")) == 2)
			meta = e;
	}
	assert_non_null(x);
	assert_string_equal(jstr_or(x, "ph"), "X");
	assert_int_equal(json_integer_value(json_object_get(x, "pid")), 1);
	assert_int_equal(json_integer_value(json_object_get(x, "tid")), 2);
	assert_true(fabs(json_number_value(json_object_get(x, "ts")) - 12.0) < 1e-9);
	assert_true(fabs(json_number_value(json_object_get(x, "dur")) - 10.0) < 1e-9);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(x, "args"), "tid")), 2);
	assert_string_equal(jstr_or(json_object_get(x, "args"), "comm"), "tbench_srv");
	assert_non_null(meta);
	assert_string_equal(jstr_or(json_object_get(meta, "args"), "name"), "CPU 1");
	json_decref(root);
	free(text);
	free(r.slices);
}

static void test_ftrace_one_run(void **state)
{
	char args[512];
	char *err;

	(void)state;
	snprintf(args, sizeof(args), "run -m skl -g menu,teo --format ftrace -o %s",
		 tmp_path("two.ftrace"));
	assert_int_equal(run_idlesim(args), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, "writes one run"));
	free(err);
	assert_int_equal(access(tmp_path("two.ftrace"), F_OK), -1);
}

/*
 * Trace-event JSON of the demo trace through two governors on skl: the structure the
 * Perfetto UI needs (a named process per run, a named thread per CPU, "X" slices with
 * ts/dur in us, "i" instants with a cause), and per run and state the slices' durations
 * (entries the end cut excluded) add up to the run's time_ns, and so to its residency_pct.
 */
static void test_perfetto(void **state)
{
	char args[512];
	json_t *run, *pf, *runs, *evs, *e;
	double sum[2][CPUIDLE_STATE_MAX_TEST] = { { 0 } };
	int procs = 0, threads = 0, instants = 0, truncated = 0;
	size_t i, k;

	(void)state;
	snprintf(args, sizeof(args), "run -m skl -g menu@6.19,teo@6.19 --format json -o %s",
		 tmp_path("demo.json"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args), "run -m skl -g menu@6.19,teo@6.19 --format perfetto -o %s",
		 tmp_path("demo.pf.json"));
	assert_int_equal(run_idlesim(args), 0);
	run = load_json_tmp("demo.json");
	pf = load_json_tmp("demo.pf.json");
	runs = json_object_get(run, "runs");
	evs = json_object_get(pf, "traceEvents");
	assert_true(json_is_array(evs));
	json_array_foreach(evs, i, e) {
		const char *ph = json_string_value(json_object_get(e, "ph"));
		json_int_t pid = json_integer_value(json_object_get(e, "pid"));
		json_t *args_o = json_object_get(e, "args");

		assert_non_null(ph);
		assert_true(pid == 1 || pid == 2);
		assert_true(json_is_integer(json_object_get(e, "tid")));
		if (!strcmp(ph, "M")) {
			const char *what = json_string_value(json_object_get(e, "name"));
			const char *name = json_string_value(json_object_get(args_o, "name"));

			assert_non_null(name);
			if (!strcmp(what, "process_name")) {
				procs++;
				assert_non_null(strstr(name, pid == 1 ? "menu@6.19" : "teo@6.19"));
			} else {
				assert_string_equal(what, "thread_name");
				threads++;
			}
		} else if (!strcmp(ph, "X")) {
			json_int_t st = json_integer_value(json_object_get(args_o, "state"));
			double dur = json_number_value(json_object_get(e, "dur"));

			assert_true(json_is_number(json_object_get(e, "ts")));
			assert_true(json_is_number(json_object_get(e, "dur")) && dur >= 0);
			assert_true(st >= 0 && st < CPUIDLE_STATE_MAX_TEST);
			if (json_is_true(json_object_get(args_o, "truncated")))
				truncated++;
			else
				sum[pid - 1][st] += dur;
		} else {
			assert_string_equal(ph, "i");
			assert_string_equal(json_string_value(json_object_get(e, "s")), "t");
			assert_non_null(json_string_value(json_object_get(args_o, "cause")));
			instants++;
		}
	}
	assert_int_equal(procs, 2);
	assert_int_equal(threads, 2 * 8); /* the demo trace has 8 CPUs */
	assert_true(instants > 1000);
	assert_true(truncated > 0);
	for (k = 0; k < 2; k++) {
		json_t *r = json_array_get(runs, k), *st;
		double span_us = (double)json_integer_value(json_object_get(r, "duration_ns")) / 1000 *
				 (double)json_integer_value(json_object_get(r, "cpus_replayed"));

		json_array_foreach(json_object_get(r, "states"), i, st) {
			json_int_t t = json_integer_value(json_object_get(st, "time_ns"));
			double pct = json_number_value(json_object_get(st, "residency_pct"));

			/* dur is exact to the ns in decimal: the sum rounds back to time_ns */
			assert_int_equal(llround(sum[k][i] * 1000), t);
			assert_true(fabs(100 * sum[k][i] / span_us - pct) < 1e-9);
		}
	}
	json_decref(run);
	json_decref(pf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ftrace_by_hand),
		cmocka_unit_test(test_ftrace_validate_events),
		cmocka_unit_test(test_ftrace_round_trip),
		cmocka_unit_test(test_ftrace_round_trip_workload),
		cmocka_unit_test(test_task_segments_by_hand),
		cmocka_unit_test(test_ftrace_one_run),
		cmocka_unit_test(test_perfetto),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
