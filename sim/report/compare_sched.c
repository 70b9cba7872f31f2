// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_sched.c - what the scheduler did, as text tables after a comparison's (compare
 * --per-cpu, --per-task): for the first iteration of each row (timer world and value),
 * machine and governor, one row per CPU and one per task of struct loop_sched_stats, and a
 * total row. The headers are schedstat's and perf sched's names (docs/scheduler.md says
 * which kernel field each is); times are ms with 3 decimals, rounded half up from ns.
 *
 * A column is as wide as its header or its widest cell, two blanks apart; the first column
 * (the CPU, or the task as ftrace shows it, comm-tid) is left-aligned, the numbers right-
 * aligned. The per-task table, the wider, is 129 columns besides the task's name while no
 * number is wider than its header (below 10^10 wakeups, 10^9 ms): within TEXTWRAP_DEFAULT
 * for names up to 31 characters (the longest comm-tid, tbench_srv-4096, has 15).
 */
#include "sim/report/compare_report.h"
#include "sim/base/common.h"
#include "sim/base/textwrap.h"

#include <string.h>

#define SCHED_COLS 11
#define SCHED_CELL 32

/* A table: its column headers, and how to print row r (r == rows: the total row). */
struct sched_table {
	const char *const *head;
	int cols, rows;
	void (*cells)(const struct loop_sched_stats *st, int r, char (*cell)[SCHED_CELL]);
};

/* ns as ms with 3 decimals, rounded half up to the us. */
static void ms_cell(char *cell, int64_t ns)
{
	int64_t us = (ns + 500) / 1000;

	snprintf(cell, SCHED_CELL, "%lld.%03lld", (long long)(us / 1000), (long long)(us % 1000));
}

static void u64_cell(char *cell, uint64_t v)
{
	snprintf(cell, SCHED_CELL, "%llu", (unsigned long long)v);
}

static const char *const cpu_head[] = { "CPU",		  "wakeups_idle",  "wakeups_busy",
					"migrations_in",  "newidle_tries", "newidle_pulls",
					"balance_pulls", "nr_switches",   "run_delay_ms" };

static void cpu_cells(const struct loop_sched_stats *st, int r, char (*cell)[SCHED_CELL])
{
	struct loop_cpu_stats sum = { 0 };
	const struct loop_cpu_stats *c = &sum;
	int i;

	if (r < st->nr_cpus) {
		c = &st->cpu[r];
		snprintf(cell[0], SCHED_CELL, "%d", r);
	} else {
		for (i = 0; i < st->nr_cpus; i++) {
			sum.wakeups_idle += st->cpu[i].wakeups_idle;
			sum.wakeups_busy += st->cpu[i].wakeups_busy;
			sum.migrations_in += st->cpu[i].migrations_in;
			sum.newidle_tries += st->cpu[i].newidle_tries;
			sum.pulls += st->cpu[i].pulls;
			sum.balance_pulls += st->cpu[i].balance_pulls;
			sum.switches += st->cpu[i].switches;
			sum.run_delay_ns += st->cpu[i].run_delay_ns;
		}
		snprintf(cell[0], SCHED_CELL, "total");
	}
	u64_cell(cell[1], c->wakeups_idle);
	u64_cell(cell[2], c->wakeups_busy);
	u64_cell(cell[3], c->migrations_in);
	u64_cell(cell[4], c->newidle_tries);
	u64_cell(cell[5], c->pulls);
	u64_cell(cell[6], c->balance_pulls);
	u64_cell(cell[7], c->switches);
	ms_cell(cell[8], c->run_delay_ns);
}

static const char *const task_head[] = { "task",	   "nr_wakeups",    "wakeups_idle",
					 "wakeups_busy",  "nr_migrations", "newidle_pulls",
					 "balance_pulls", "pcount",	   "run_delay_ms",
					 "runtime_ms",	   "last_cpu" };

static void task_cells(const struct loop_sched_stats *st, int r, char (*cell)[SCHED_CELL])
{
	struct loop_task_stats sum = { .last_cpu = -1 };
	const struct loop_task_stats *t = &sum;
	int i;

	if (r < st->nr_tasks) {
		t = &st->task[r];
		snprintf(cell[0], SCHED_CELL, "%s-%d", t->comm ? t->comm : "task", r + 1);
	} else {
		for (i = 0; i < st->nr_tasks; i++) {
			sum.wakeups += st->task[i].wakeups;
			sum.wakeups_idle += st->task[i].wakeups_idle;
			sum.wakeups_busy += st->task[i].wakeups_busy;
			sum.migrations += st->task[i].migrations;
			sum.pulls += st->task[i].pulls;
			sum.balance_pulls += st->task[i].balance_pulls;
			sum.pcount += st->task[i].pcount;
			sum.run_delay_ns += st->task[i].run_delay_ns;
			sum.runtime_ns += st->task[i].runtime_ns;
		}
		snprintf(cell[0], SCHED_CELL, "total");
	}
	u64_cell(cell[1], t->wakeups);
	u64_cell(cell[2], t->wakeups_idle);
	u64_cell(cell[3], t->wakeups_busy);
	u64_cell(cell[4], t->migrations);
	u64_cell(cell[5], t->pulls);
	u64_cell(cell[6], t->balance_pulls);
	u64_cell(cell[7], t->pcount);
	ms_cell(cell[8], t->run_delay_ns);
	ms_cell(cell[9], t->runtime_ns);
	if (t->last_cpu >= 0) /* none for the total, nor for a task that never ran */
		snprintf(cell[10], SCHED_CELL, "%d", t->last_cpu);
	else
		snprintf(cell[10], SCHED_CELL, "-");
}

/* The columns' widths in a first pass over the rows, then the rows. */
static void sched_table(FILE *f, const struct loop_sched_stats *st, const struct sched_table *tb)
{
	char cell[SCHED_COLS][SCHED_CELL];
	int width[SCHED_COLS], r, k;

	for (k = 0; k < tb->cols; k++)
		width[k] = (int)strlen(tb->head[k]);
	for (r = 0; r <= tb->rows; r++) {
		tb->cells(st, r, cell);
		for (k = 0; k < tb->cols; k++)
			if ((int)strlen(cell[k]) > width[k])
				width[k] = (int)strlen(cell[k]);
	}
	fprintf(f, "%-*s", width[0], tb->head[0]);
	for (k = 1; k < tb->cols; k++)
		fprintf(f, "  %*s", width[k], tb->head[k]);
	fputc('\n', f);
	for (r = 0; r <= tb->rows; r++) {
		tb->cells(st, r, cell);
		fprintf(f, "%-*s", width[0], cell[0]);
		for (k = 1; k < tb->cols; k++)
			fprintf(f, "  %*s", width[k], cell[k]);
		fputc('\n', f);
	}
}

/* "tbench clients=8 on skl, timer world nohz-6.12, governor menu@4.18": run k's heading. */
static void sched_heading(FILE *f, const struct compare_result *res, int row, int m, int g)
{
	char value[64] = "", world[64] = "";

	if (res->vary >= 0) {
		const char *word = workload_param_value_word(res->wl, res->vary,
							     res->values[row % res->nr_values]);

		if (word)
			snprintf(value, sizeof(value), " %s=%s", res->wl->params[res->vary].name,
				 word);
		else
			snprintf(value, sizeof(value), " %s=%lld", res->wl->params[res->vary].name,
				 (long long)res->values[row % res->nr_values]);
	}
	if (res->nr_worlds > 0)
		snprintf(world, sizeof(world), ", timer world %s", res->worlds[row / res->nr_values]);
	textwrap_printf(f, 0, TEXTWRAP_INDENT_KEY,
			"What the scheduler did: %s%s on %s%s, governor %s; seed %llu (the first "
			"iteration)\n",
			res->wl->name, value, res->machines[m], world, res->governors[g],
			(unsigned long long)res->seed);
}

/* The tables of one run: its heading, then per CPU and per task as asked. */
static void sched_run(FILE *f, const struct compare_result *res, const struct loop_sched_stats *st,
		      int row, int m, int g, unsigned int tables)
{
	const struct sched_table cpus = { cpu_head, (int)SIM_ARRAY_SIZE(cpu_head), st->nr_cpus,
					  cpu_cells };
	const struct sched_table tasks = { task_head, (int)SIM_ARRAY_SIZE(task_head), st->nr_tasks,
					   task_cells };

	fputc('\n', f);
	sched_heading(f, res, row, m, g);
	if (!st->nr_tasks) {
		fputs("(placement pinned: no scheduler in this run)\n", f);
		return;
	}
	if (tables & COMPARE_SCHED_CPUS)
		sched_table(f, st, &cpus);
	if ((tables & COMPARE_SCHED_CPUS) && (tables & COMPARE_SCHED_TASKS))
		fputc('\n', f);
	if (tables & COMPARE_SCHED_TASKS)
		sched_table(f, st, &tasks);
}

int compare_write_sched(FILE *f, const struct compare_result *res, unsigned int tables)
{
	int per_run = res->nr_machines * res->nr_governors;
	int nr_rows = per_run ? res->nr_sched / per_run : 0;
	int row, m, g, k = 0;

	for (row = 0; row < nr_rows; row++)
		for (m = 0; m < res->nr_machines; m++)
			for (g = 0; g < res->nr_governors; g++)
				sched_run(f, res, &res->sched[k++], row, m, g, tables);
	return ferror(f) ? -1 : 0;
}
