// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_workload_limits.c - task counts beyond the limits: a run has at most LOOP_MAX_TASKS
 * (65536) tasks, so parameters that ask for more are bad input, refused before anything
 * runs or is written, by a message that names the options and the limit (exit 2), through
 * `idlesim compare` and `idlesim gen` alike. Each model's count, by its rule:
 *   netperf-udp  2 (a sender and a receiver)       sockperf    1 (the server)
 *   tbench       2 x clients, clients 1..2048: at most 4096
 *   dbench       clients, 1..4096: at most 4096
 *   hackbench    2 x groups x fds, groups 1..1024, fds 1..256: up to 524288, so the
 *                ranges alone do not keep it within 65536 (128 x 256 is the most fds
 *                that 128 groups may have; 129 x 256 is 66048 tasks)
 *   cyclictest   one per CPU, cpus 1..4096
 * Only hackbench can exceed the limit within its ranges; the others are held by the range
 * of their size parameter, whose message names the option and the range.
 */
#include "tests/testbin.h"

#include <unistd.h>

#include "sim/base/common.h"
#include "sim/sched/loop.h"
#include "sim/workload/workloads.h"

/*
 * Every model with tasks (those with --placement) says how many it has, from parameters
 * it has; with every parameter at its maximum, the count is within LOOP_MAX_TASKS or the
 * parameters are refused, by a message naming each option that sets the count, with its
 * value, and the limit. The models without tasks (idle, powernightmares) have no count.
 */
static void test_every_model_count(void **state)
{
	unsigned int i, k;

	(void)state;
	for (i = 0; i < workload_count(); i++) {
		const struct workload *w = workload_get(i);
		int64_t p[WL_MAX_PARAMS];
		struct sim_error err = { 0 };

		if (workload_param_index(w, "placement") < 0) {
			assert_null(w->nr_tasks);
			continue;
		}
		assert_non_null(w->nr_tasks);
		assert_non_null(w->tasks_rule);
		workload_defaults(w, p);
		assert_true(w->nr_tasks(p) >= 1 && w->nr_tasks(p) <= LOOP_MAX_TASKS);
		for (k = 0; k < SIM_ARRAY_SIZE(w->tasks_from) && w->tasks_from[k]; k++)
			assert_true(workload_param_index(w, w->tasks_from[k]) >= 0);
		for (k = 0; k < w->nr_params; k++)
			p[k] = w->params[k].max;
		if (w->nr_tasks(p) <= LOOP_MAX_TASKS) {
			assert_int_equal(workload_check_params(w, p, &err), 0);
			continue;
		}
		assert_int_equal(workload_check_params(w, p, &err), -1);
		assert_int_equal(err.code, SIM_ERR_INPUT);
		assert_non_null(strstr(err.text, "a run has at most 65536"));
		for (k = 0; k < SIM_ARRAY_SIZE(w->tasks_from) && w->tasks_from[k]; k++) {
			char opt[64];

			snprintf(opt, sizeof(opt), "--%s %lld", w->tasks_from[k],
				 (long long)p[workload_param_index(w, w->tasks_from[k])]);
			assert_non_null(strstr(err.text, opt));
		}
	}
}

/* The counts by each model's rule (the header's table). */
static void test_counts_by_rule(void **state)
{
	static const struct {
		const char *wl, *param[2];
		int64_t value[2], tasks;
	} want[] = {
		{ "netperf-udp", { NULL }, { 0 }, 2 },
		{ "sockperf", { NULL }, { 0 }, 1 },
		{ "tbench", { "clients" }, { 2048 }, 4096 },
		{ "dbench", { "clients" }, { 4096 }, 4096 },
		{ "hackbench", { "groups", "fds" }, { 128, 256 }, 65536 },
		{ "hackbench", { "groups", "fds" }, { 129, 256 }, 66048 },
		{ "hackbench", { "groups", "fds" }, { 1024, 256 }, 524288 },
		{ "cyclictest", { "cpus" }, { 4096 }, 4096 },
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < SIM_ARRAY_SIZE(want); i++) {
		const struct workload *w = workload_find(want[i].wl);
		int64_t p[WL_MAX_PARAMS];

		assert_non_null(w);
		workload_defaults(w, p);
		for (k = 0; k < 2 && want[i].param[k]; k++)
			p[workload_param_index(w, want[i].param[k])] = want[i].value[k];
		assert_int_equal(w->nr_tasks(p), want[i].tasks);
	}
}

/*
 * Through both commands, per model, the first count beyond what it may have: exit 2, the
 * message, and no output file. hackbench's 129 x 256 (66048 tasks) used to run and stop
 * at the first item of task 65537 with an internal error (exit 1) that named no option;
 * pinned too, as the loop checks every item's task id.
 */
static void test_cli_beyond(void **state)
{
	static const struct {
		const char *args, *says;
	} bad[] = {
		{ "--workload tbench --clients 2049", "tbench --clients: 2049 is out of range "
						      "(1..2048)" },
		{ "--workload dbench --clients 4097", "dbench --clients: 4097 is out of range "
						      "(1..4096)" },
		{ "--workload hackbench --groups 129 --fds 256",
		  "hackbench --groups 129 --fds 256: 66048 tasks (2 x groups x fds); a run has "
		  "at most 65536" },
		{ "--workload hackbench --groups 1024 --fds 256 --placement pinned",
		  "hackbench --groups 1024 --fds 256: 524288 tasks (2 x groups x fds); a run has "
		  "at most 65536" },
		{ "--workload cyclictest --cpus 4097", "cyclictest --cpus: 4097 is out of range "
						       "(1..4096)" },
	};
	static const char *const cmd[] = { "compare", "gen" };
	static const char *const rest[] = { "-m skl -g menu -n 1 --duration-s 0.001",
					    "--duration-s 0.001" };
	char args[512], *text;
	size_t i, c;

	(void)state;
	for (c = 0; c < SIM_ARRAY_SIZE(cmd); c++)
		for (i = 0; i < SIM_ARRAY_SIZE(bad); i++) {
			snprintf(args, sizeof(args), "%s %s %s -o %s", cmd[c], bad[i].args,
				 rest[c], tmp_path("out.x"));
			assert_int_equal(run_idlesim(args), 2);
			text = slurp_tmp("err");
			if (!strstr(text, bad[i].says))
				fprintf(stderr, "%s: %s", args, text);
			assert_non_null(strstr(text, bad[i].says));
			free(text);
			assert_int_equal(access(tmp_path("out.x"), F_OK), -1);
		}
}

/* A listed value beyond the limit is refused before any value runs, with its own values. */
static void test_cli_listed_value(void **state)
{
	char args[512], *text;

	(void)state;
	snprintf(args, sizeof(args),
		 "compare --workload hackbench --groups 1,2,200 --fds 256 -m skl -g menu -n 1 "
		 "--duration-s 0.001 -o %s",
		 tmp_path("out.x"));
	assert_int_equal(run_idlesim(args), 2);
	text = slurp_tmp("err");
	assert_non_null(strstr(text, "hackbench --groups 200 --fds 256: 102400 tasks"));
	free(text);
	assert_int_equal(access(tmp_path("out.x"), F_OK), -1);
}

/* Exactly the limit runs: 128 groups of 2 x 256 tasks, 65536, written by gen. */
static void test_cli_at_limit(void **state)
{
	char args[512];

	(void)state;
	snprintf(args, sizeof(args),
		 "gen --workload hackbench --groups 128 --fds 256 --duration-s 0.001 -o %s",
		 tmp_path("at.trace"));
	assert_int_equal(run_idlesim(args), 0);
	assert_int_equal(access(tmp_path("at.trace"), F_OK), 0);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make("wllim");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

/*
 * MMTests' sweeps (compare --clients/--groups mmtests): powers of two from 1, ended by the
 * benchmark's multiple of the CPUs. hackbench: configs/config-scheduler-unbound sets
 * HACKBENCH_MAX_GROUPS = NUMCPUS * 4, at most 296: on 8 CPUs 1..32, on 128 CPUs 1..256
 * then 296 (not 512). tbench 4 x: 1..32 on 8 CPUs; dbench 8 x: 1..64.
 */
static void test_mmtests_sweeps(void **state)
{
	struct sim_error err = { 0 };
	int64_t v[32];

	(void)state;
	assert_int_equal(workload_mmtests_sweep(workload_find("hackbench"), 8, v, 32, &err), 6);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[5], 32);
	assert_int_equal(workload_mmtests_sweep(workload_find("hackbench"), 128, v, 32, &err), 10);
	assert_int_equal(v[8], 256);
	assert_int_equal(v[9], 296);
	assert_int_equal(workload_mmtests_sweep(workload_find("tbench"), 8, v, 32, &err), 6);
	assert_int_equal(v[5], 32);
	assert_int_equal(workload_mmtests_sweep(workload_find("dbench"), 8, v, 32, &err), 7);
	assert_int_equal(v[6], 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmtests_sweeps),
		cmocka_unit_test(test_every_model_count),
		cmocka_unit_test(test_counts_by_rule),
		cmocka_unit_test(test_cli_beyond),
		cmocka_unit_test(test_cli_listed_value),
		cmocka_unit_test(test_cli_at_limit),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
