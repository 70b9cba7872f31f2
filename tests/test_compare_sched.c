// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare_sched.c - what the scheduler did, in compare's text report (--per-cpu,
 * --per-task; sim/report/compare_sched.c): the tables of a result built by hand, a scripted
 * ping-pong of two tasks whose counters follow from the scheduler's rules, and the command
 * line (tbench's comm-tid names, a total row that is the sum of its rows, the options
 * refused where they have nothing to show or no place to go, JSON unchanged). Every
 * expectation is worked out in the comments, never taken from the program's output.
 */
#include "tests/testbin.h"

#include <math.h>
#include <stdbool.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sim/report/compare_report.h"
#include "sim/run/compare.h"
#include "sim/sched/loop.h"
#include "sim/workload/workloads.h"

/* ---- a workload with tasks, scripted ---- */

/*
 * "pq": task A ("ping", tid 1) starts at 0 on CPU 0 with 10 us of work; each item done
 * wakes the other task (B, "pong", tid 2, whose layout CPU is 1) with WF_SYNC and 10 us of
 * work, until `items` items are done; then both sleep to the end. As test_loop_sched.c's
 * ping-pong, with the scheduler's parameters of every task model.
 */
enum { PQ_ITEMS, PQ_PLACEMENT, PQ_MIGRATION_COST, PQ_BASE_SLICE, PQ_NEWIDLE_COST, PQ_REFILL, PQ_NR };

static const struct wl_param pq_params[PQ_NR] = {
	[PQ_ITEMS] = { "items", "items done before both tasks sleep", 5, 1, 1000 },
	[PQ_PLACEMENT] = SCHED_PARAMS,
};

struct pq {
	struct loop_world w;
	int64_t items, done;
};

static int pq_init(void *model, const int64_t *p, int nr_cpus, struct sim_error *err)
{
	struct pq *m = model;

	(void)nr_cpus;
	(void)err;
	m->items = p[PQ_ITEMS];
	m->w.sched = p[PQ_PLACEMENT] != 0;
	m->w.migration_cost_ns = p[PQ_MIGRATION_COST] * SIM_NS_PER_US;
	m->w.base_slice_ns = p[PQ_BASE_SLICE] * SIM_NS_PER_US;
	m->w.newidle_cost_ns = p[PQ_NEWIDLE_COST];
	return 0;
}

static int pq_start(void *model, struct loop *L, struct sim_error *err)
{
	struct pq *m = model;
	struct loop_item it = { .cpu = 0, .work_ns = 10000, .cause = WAKE_IPI, .tid = 1 };

	if (loop_set_world(L, &m->w, err))
		return -1;
	return loop_send(L, &it, err);
}

static int pq_done(void *model, struct loop *L, const struct loop_item *done, int64_t t,
		   struct sim_error *err)
{
	struct pq *m = model;
	int to = done->tid == 1 ? 2 : 1;
	struct loop_item it = { .cpu = to - 1, .arrival_ns = t, .work_ns = 10000,
				.cause = WAKE_IPI, .tid = to, .sync = true };

	if (++m->done >= m->items)
		return 0;
	return loop_send(L, &it, err);
}

static const char *pq_comm(void *model, int tid)
{
	(void)model;
	return tid == 1 ? "ping" : "pong";
}

static const struct loop_model_ops pq_ops = { .start = pq_start, .done = pq_done,
					      .task_comm = pq_comm };

static int pq_cpus(const int64_t *p)
{
	(void)p;
	return 2;
}

static const struct workload wl_pq = {
	.name = "pq",
	.summary = "two tasks ping-ponging, then asleep",
	.imitates = "a test",
	.params = pq_params,
	.nr_params = PQ_NR,
	.throughput_unit = "req/s",
	.nr_cpus = pq_cpus,
	.model_size = sizeof(struct pq),
	.init = pq_init,
	.ops = &pq_ops,
};

/* The result's scheduler tables as a malloc'ed string. */
static char *sched_text(const struct compare_result *res, unsigned int tables)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(compare_write_sched(f, res, tables), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_text_equal(const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "--- expected\n%s--- got\n%s---\n", want, got);
		fail();
	}
}

/* ---- the tables of a result built by hand ---- */

/*
 * One machine (skl), one governor (menu), seed 7, and the listed parameter placement with
 * the values pinned and sched: two runs, in that order. The pinned run has no scheduler
 * (nr_tasks 0): its heading and a line saying so. The sched run, 2 CPUs and 3 tasks:
 *
 *   CPU  wakeups_idle busy migrations_in newidle_tries pulls balance switches run_delay_ns
 *   0    5            1    0             3             0     2       7        1500
 *   1    3            0    1             2             1     0       4        1500
 *   task       wakeups idle busy migrations pulls balance pcount run_delay_ns runtime_ns last
 *   tbench-1    6      5    1    1          1     2       7      1500         2000000    1
 *   tbench_srv-2 3     3    0    0          0     0       4      1500         999499     0
 *   task-3      0 ...                                            0            0          -1
 *
 * (the third task has no comm: "task-3"; it never ran: last_cpu "-"). Totals: CPU
 * wakeups_idle 8, busy 1, migrations_in 1, tries 5, pulls 1, balance pulls 2, switches 11;
 * tasks 9, 8, 1, 1, 1, 2, pcount 11. Times in ms, rounded half up to the us: 1500 ns -> 2 us -> 0.002; the
 * total of run_delay is 3000 ns -> 0.003, rounded once from the ns, not 0.002 + 0.002;
 * 2000000 ns -> 2.000; 999499 ns -> 999 us -> 0.999; total runtime 2999499 ns -> 2.999.
 *
 * Widths: each column as wide as its header (every number here is narrower), the first as
 * its widest entry: "total" (5) over "CPU", "tbench_srv-2" (12) over "task"; two blanks
 * between columns; the first left-aligned, the others right-aligned. With both tables,
 * a blank line between them; before each run's heading, a blank line.
 */
static void test_tables_by_hand(void **state)
{
	static char machines[1][MACHINE_NAME_LEN] = { "skl" };
	struct loop_cpu_stats cpu[2] = {
		{ .wakeups_idle = 5, .wakeups_busy = 1, .migrations_in = 0, .pulls = 0,
		  .balance_pulls = 2, .newidle_tries = 3, .switches = 7, .run_delay_ns = 1500 },
		{ .wakeups_idle = 3, .wakeups_busy = 0, .migrations_in = 1, .pulls = 1,
		  .newidle_tries = 2, .switches = 4, .run_delay_ns = 1500 },
	};
	struct loop_task_stats task[3] = {
		{ .wakeups = 6, .wakeups_idle = 5, .wakeups_busy = 1, .migrations = 1, .pulls = 1,
		  .balance_pulls = 2, .pcount = 7, .run_delay_ns = 1500, .runtime_ns = 2000000, .last_cpu = 1,
		  .comm = "tbench" },
		{ .wakeups = 3, .wakeups_idle = 3, .pcount = 4, .run_delay_ns = 1500,
		  .runtime_ns = 999499, .last_cpu = 0, .comm = "tbench_srv" },
		{ .last_cpu = -1 },
	};
	struct loop_sched_stats sched[2] = {
		{ 0 },
		{ .nr_cpus = 2, .nr_tasks = 3, .cpu = cpu, .task = task },
	};
	struct compare_result res = { 0 };
	static const char head[] =
		"\n"
		"What the scheduler did: pq placement=pinned on skl, governor menu; seed 7 (the "
		"first iteration)\n"
		"(placement pinned: no scheduler in this run)\n"
		"\n"
		"What the scheduler did: pq placement=sched on skl, governor menu; seed 7 (the "
		"first iteration)\n";
	static const char cpus[] =
		"CPU    wakeups_idle  wakeups_busy  migrations_in  newidle_tries  newidle_pulls  "
		"balance_pulls  nr_switches  run_delay_ms\n"
		"0                 5             1              0              3              0  "
		"            2            7         0.002\n"
		"1                 3             0              1              2              1  "
		"            0            4         0.002\n"
		"total             8             1              1              5              1  "
		"            2           11         0.003\n";
	static const char tasks[] =
		"task          nr_wakeups  wakeups_idle  wakeups_busy  nr_migrations  "
		"newidle_pulls  balance_pulls  pcount  run_delay_ms  runtime_ms  last_cpu\n"
		"tbench-1               6             5             1              1  "
		"            1              2       7         0.002       2.000         1\n"
		"tbench_srv-2           3             3             0              0  "
		"            0              0       4         0.002       0.999         0\n"
		"task-3                 0             0             0              0  "
		"            0              0       0         0.000       0.000         -\n"
		"total                  9             8             1              1  "
		"            1              2      11         0.003       2.999         -\n";
	char want[4096], *got;

	(void)state;
	res.wl = &wl_pq;
	res.vary = PQ_PLACEMENT;
	res.values[0] = 0;
	res.values[1] = 1;
	res.nr_values = 2;
	res.machines = machines;
	res.nr_machines = 1;
	res.governors[0] = "menu";
	res.nr_governors = 1;
	res.iterations = 3;
	res.seed = 7;
	res.sched = sched;
	res.nr_sched = 2;

	snprintf(want, sizeof(want), "%s%s", head, cpus);
	got = sched_text(&res, COMPARE_SCHED_CPUS);
	assert_text_equal(got, want);
	free(got);
	snprintf(want, sizeof(want), "%s%s", head, tasks);
	got = sched_text(&res, COMPARE_SCHED_TASKS);
	assert_text_equal(got, want);
	free(got);
	snprintf(want, sizeof(want), "%s%s\n%s", head, cpus, tasks);
	got = sched_text(&res, COMPARE_SCHED_CPUS | COMPARE_SCHED_TASKS);
	assert_text_equal(got, want);
	free(got);
}

/* ---- a scripted ping-pong through compare ---- */

/*
 * pq with 5 items on skl's first two CPUs (a flat pair: one LLC, no SMT), governor deepest
 * with every state below C1 disabled (C1's exit latency, 2 us, under the worst-case wake
 * model), 1 ms. By the rules of docs/scheduler.md (test_loop_sched.c's ping-pong):
 *  - A starts at 0 on CPU 0, which has not idled yet: it runs at once, [0, 10).
 *  - At 10 it wakes B (sync, prev_cpu 1): wake_affine_idle() answers the waking CPU 0
 *    (sync, one task running there), not idle; select_idle_sibling() then takes prev 1,
 *    idle: CPU 1 leaves C1 at 12, B runs [12, 22): 2 us of run_delay.
 *  - The mirror image at 22: A back on its idle prev, CPU 0, runs [24, 34); B [36, 46);
 *    A [48, 58), the 5th item: both sleep to the end.
 * So A: 3 wakeups (0, 22, 46), all on an idle CPU, run_delay 0 + 2 + 2 = 4 us, runtime
 * 3 x 10 = 30 us, pcount 3, last on CPU 0; B: 2 wakeups (10, 34) on an idle CPU, run_delay
 * 4 us, runtime 20 us, pcount 2, last on CPU 1. No task moves (no migration), no run queue
 * ever holds two tasks, so the root domain is never overloaded: no newly-idle balance runs
 * (tries 0, pulls 0). Per CPU: CPU 0 has A's 3 wakeups and switches and its 4 us, CPU 1
 * B's 2 and 4 us. Totals: 5 wakeups, 5 switches, 8 us = 0.008 ms, runtime 0.050 ms.
 */
static void test_pingpong_through_compare(void **state)
{
	static const char *const off[] = { "C1E", "C3", "C6", "C7s", "C8", "C9", "C10" };
	static const char want[] =
		"\n"
		"What the scheduler did: pq on skl, governor deepest; seed 1 (the first "
		"iteration)\n"
		"CPU    wakeups_idle  wakeups_busy  migrations_in  newidle_tries  newidle_pulls  "
		"balance_pulls  nr_switches  run_delay_ms\n"
		"0                 3             0              0              0              0  "
		"            0            3         0.004\n"
		"1                 2             0              0              0              0  "
		"            0            2         0.004\n"
		"total             5             0              0              0              0  "
		"            0            5         0.008\n"
		"\n"
		"task    nr_wakeups  wakeups_idle  wakeups_busy  nr_migrations  newidle_pulls  "
		"balance_pulls  pcount  run_delay_ms  runtime_ms  last_cpu\n"
		"ping-1           3             3             0              0              0  "
		"            0       3         0.004       0.030         0\n"
		"pong-2           2             2             0              0              0  "
		"            0       2         0.004       0.020         1\n"
		"total            5             5             0              0              0  "
		"            0       5         0.008       0.050         -\n";
	struct compare_request req;
	struct compare_result res;
	struct sim_error err = { 0 };
	unsigned int i;
	char *got;

	(void)state;
	compare_request_defaults(&req);
	req.wl = &wl_pq;
	workload_defaults(req.wl, req.params);
	req.machines[req.nr_machines++] = "skl";
	req.governors[req.nr_governors++] = "deepest";
	req.metrics[req.nr_metrics++] = "throughput";
	req.iterations = 2;
	req.duration_ns = 1000000;
	req.threads = 1;
	for (i = 0; i < SIM_ARRAY_SIZE(off); i++)
		req.knobs.disable[req.knobs.nr_disable++] = off[i];
	req.knobs.wake_model = WAKE_MODEL_WORST;
	assert_true(compare_request_sched(&req));
	if (compare_run(&req, &res, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	assert_int_equal(res.nr_sched, 1);
	got = sched_text(&res, COMPARE_SCHED_CPUS | COMPARE_SCHED_TASKS);
	assert_text_equal(got, want);
	free(got);
	compare_result_free(&res);

	/* pinned: no scheduler, no detail */
	req.params[PQ_PLACEMENT] = 0;
	assert_false(compare_request_sched(&req));
	/* a list with one sched value has it */
	req.vary = PQ_PLACEMENT;
	req.values[0] = 0;
	req.values[1] = 1;
	req.nr_values = 2;
	assert_true(compare_request_sched(&req));
}

/* ---- the command line ---- */

/* The numbers of a table row after its first column into v[]; how many. */
static int row_numbers(const char *line, double *v, int max)
{
	const char *p = line + strcspn(line, " ");
	int n = 0;

	while (n < max && *p && *p != '\n') {
		char *end;

		while (*p == ' ')
			p++;
		if (*p == '-') { /* a last_cpu that has none */
			v[n++] = -1;
			p++;
			continue;
		}
		v[n++] = strtod(p, &end);
		if (end == p)
			return -1;
		p = end;
	}
	return n;
}

/*
 * The table whose header line starts with `head` in text: the column sums of its rows and
 * its total row; every count's sum must equal the total, every time's be within half a
 * unit of the last digit per row (each cell is rounded, the total once from the ns).
 * Returns the number of rows, and the totals in total[].
 */
static int check_table(const char *text, const char *head, int cols, const bool *ms,
		       double *total)
{
	const char *p = strstr(text, head);
	double sum[16] = { 0 }, v[16];
	int rows = 0, k;

	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	for (;;) {
		const char *nl = strchr(p, '\n');

		assert_non_null(nl);
		assert_true(nl - p <= 160); /* compare's text width */
		assert_int_equal(row_numbers(p, v, 16), cols);
		if (!strncmp(p, "total ", 6)) {
			for (k = 0; k < cols; k++) {
				total[k] = v[k];
				if (ms[k])
					assert_true(fabs(sum[k] - v[k]) <= 0.0005 * rows + 1e-9);
				else if (v[k] >= 0)
					assert_true(sum[k] == v[k]);
			}
			return rows;
		}
		for (k = 0; k < cols; k++)
			sum[k] += v[k];
		rows++;
		p = nl + 1;
	}
}

/*
 * tbench with 2 clients (4 tasks: client k is tid 2k + 1, "tbench", its server 2k + 2,
 * "tbench_srv") on skl's 8 CPUs: the task table names tbench-1, tbench_srv-2, tbench-3,
 * tbench_srv-4 and no fifth; the CPU table has 8 rows. In each, the total row is the sum of
 * the rows. The two tables count the same events from two sides (loop_sched.c counts each
 * wakeup, move, pull and switch once for the task and once for its CPU, and each wait for
 * both): their totals of wakeups_idle, wakeups_busy, migrations (in), newidle_pulls,
 * balance_pulls,
 * switches (pcount) and run_delay agree.
 */
static void test_cli_tables(void **state)
{
	static const bool cpu_ms[8] = { false, false, false, false, false, false, false, true };
	static const bool task_ms[10] = { false, false, false, false, false, false, false, true,
					  true,	 false };
	double ct[8], tt[10];
	char *text;

	(void)state;
	assert_int_equal(run_idlesim("compare --workload tbench --clients 2 -m skl -g menu -n 2 "
				     "--duration-s 0.02 --metric throughput --per-cpu --per-task"),
			 0);
	text = slurp_tmp("out");
	assert_non_null(strstr(text, "\nWhat the scheduler did: tbench on skl, governor menu@6.19; "
				     "seed 1 (the first iteration)\n"));
	assert_non_null(strstr(text, "\ntbench-1 "));
	assert_non_null(strstr(text, "\ntbench_srv-2 "));
	assert_non_null(strstr(text, "\ntbench-3 "));
	assert_non_null(strstr(text, "\ntbench_srv-4 "));
	assert_null(strstr(text, "\ntbench-5 "));
	assert_int_equal(check_table(text, "CPU ", 8, cpu_ms, ct), 8);
	assert_int_equal(check_table(text, "task ", 10, task_ms, tt), 4);
	assert_true(ct[0] == tt[1]); /* wakeups_idle */
	assert_true(ct[1] == tt[2]); /* wakeups_busy */
	assert_true(ct[2] == tt[3]); /* migrations_in, nr_migrations */
	assert_true(ct[4] == tt[4]); /* newidle_pulls */
	assert_true(ct[5] == tt[5]); /* balance_pulls */
	assert_true(ct[6] == tt[6]); /* nr_switches, pcount */
	assert_true(ct[7] == tt[7]); /* run_delay_ms */
	assert_true(tt[0] == tt[1] + tt[2]); /* a wakeup is on an idle CPU or a busy one */
	assert_true(tt[0] > 0);
	free(text);
}

/* Where there is nothing to show, or no place for it: exit 2, a message, no file. */
static void test_cli_refused(void **state)
{
	static const struct {
		const char *args, *says;
	} bad[] = {
		{ "--workload tbench --placement pinned --per-task",
		  "compare --per-task: the scheduler is not in the loop with --placement pinned" },
		{ "--workload dbench --placement pinned --per-cpu --per-task",
		  "compare --per-cpu: the scheduler is not in the loop with --placement pinned" },
		{ "--workload idle --per-cpu", "compare --per-cpu: workload idle has no tasks" },
		{ "--workload tbench --per-task -f csv", "compare --per-task: the scheduler's "
							 "tables are text" },
		{ "--workload tbench --per-cpu -f html", "--format html has no place for them" },
	};
	char args[512], *text;
	size_t i;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(bad); i++) {
		snprintf(args, sizeof(args), "compare %s -g menu -n 1 --duration-s 0.01 -o %s",
			 bad[i].args, tmp_path("refused"));
		assert_int_equal(run_idlesim(args), 2);
		text = slurp_tmp("err");
		if (!strstr(text, bad[i].says))
			fprintf(stderr, "%s: %s", bad[i].args, text);
		assert_non_null(strstr(text, bad[i].says));
		free(text);
		assert_int_equal(access(tmp_path("refused"), F_OK), -1);
	}
}

/* JSON always has the detail: with --per-cpu --per-task it is the same, byte for byte. */
static void test_cli_json_unchanged(void **state)
{
	char args[512], *a, *b;

	(void)state;
	snprintf(args, sizeof(args),
		 "compare --workload tbench -g menu -n 1 --duration-s 0.01 -f json -o %s",
		 tmp_path("a.json"));
	assert_int_equal(run_idlesim(args), 0);
	snprintf(args, sizeof(args),
		 "compare --workload tbench -g menu -n 1 --duration-s 0.01 -f json --per-cpu "
		 "--per-task -o %s",
		 tmp_path("b.json"));
	assert_int_equal(run_idlesim(args), 0);
	a = slurp_tmp("a.json");
	b = slurp_tmp("b.json");
	assert_non_null(strstr(a, "\"sched\": ["));
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("cmpsched");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_by_hand),
		cmocka_unit_test(test_pingpong_through_compare),
		cmocka_unit_test(test_cli_tables),
		cmocka_unit_test(test_cli_refused),
		cmocka_unit_test(test_cli_json_unchanged),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
