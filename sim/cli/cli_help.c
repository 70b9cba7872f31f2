// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_help.c - the help texts of every command: `idlesim help CMD`, `idlesim CMD --help`,
 * and the man pages, which scripts/mkman.sh makes from this output (one source).
 */
#include "sim/cli/cli_help.h"
#include "sim/base/version.h"
#include "sim/workload/workloads.h"

#include <string.h>


static const char *const help_run =
	"usage: idlesim run [--trace FILE]... [--machine M]... [--governor G]... [knobs]\n"
	"                   [--format text|json|csv|ftrace|perfetto] [-o FILE] [--per-cpu]\n"
	"                   [--explain [N]] [--from S] [--to S] [--queue lanes|heap|naive]\n"
	"                   [--width N]\n"
	"       idlesim run --workload W [--PARAM V]... [--duration-s S] [--seed N]\n"
	"                   [--machine M] [--governor G]... [knobs] [--format F] [-o FILE] ...\n"
	"\n"
	"Replays every trace on every machine through every governor; or runs a closed-loop\n"
	"workload on one machine through every governor.\n"
	"  -t, --trace FILE      native trace (text, binary .itb or JSON), or any kernel trace\n"
	"                        idlesim import reads (converted on the fly); - reads standard\n"
	"                        input (once: every run replays the copy); default:\n"
	"                        traces/demo.trace\n"
	"  --workload W          instead of traces: a closed-loop model (tbench, dbench,\n"
	"                        netperf-udp, sockperf, hackbench, cyclictest, ...: idlesim help\n"
	"                        gen) on one machine (default skl); ftrace and perfetto show\n"
	"                        which task ran where (docs/scheduler.md)\n"
	"  --PARAM V             a parameter of the workload, one value, as compare takes it:\n"
	"                        e.g. --clients 2, --placement pinned|sched, --housekeeping P\n"
	"  --duration-s S        with --workload: simulated seconds (default 0.05)\n"
	"  --seed N              with --workload: its random seed (default 1)\n"
	"  -m, --machine M       built-in name or JSON file; default: hsx, bdx, skl (with\n"
	"                        --workload: one, default skl)\n"
	"  -g, --governor G      e.g. oracle, deepest, menu@4.18, or a kernel tree's governor\n"
	"                        file (PATH.c, run as FAMILY@file:NAME.c); default: all registered\n"
	"  --hz N                tick rate (default: the trace's, else 250)\n"
	"  --latency-limit-us N  PM QoS CPU latency limit (default: none)\n"
	"  --disable STATE       disable an idle state by name or index (repeatable)\n"
	"  --enable STATE        enable a state that is off by default (e.g. C3 on hsx)\n"
	"  --topology PxCxT      override the machine's packages x cores x threads\n"
	"  --set FAMILY.NAME=V   set a governor tunable (see idlesim governors)\n"
	"  --wake-latency W      the hardware's actual wake latency: typical (default: each\n"
	"                        state's typical value, docs/wake-latency.md), worst (the\n"
	"                        table's exit latency, as governors see it), or measured (the\n"
	"                        machine file's distributions, idlesim machines calibrate)\n"
	"  --governor-timeout S  a governor file's call (select, reflect, enable) that runs\n"
	"                        longer than S seconds of wall time ends the run with a\n"
	"                        message naming the file (default 5, or\n"
	"                        $IDLESIM_GOVERNOR_TIMEOUT; 0: no limit)\n"
	"  -f, --format F        text (default), json or csv; ftrace (cpu_idle events and the\n"
	"                        governor's inputs, which idlesim import and validate read\n"
	"                        back; one run) or perfetto (Chrome\n"
	"                        trace-event JSON for ui.perfetto.dev): the simulated timeline\n"
	"  -o, --output FILE     write the report to FILE (atomically) instead of stdout\n"
	"  --per-cpu             text: one row per CPU in the state tables\n"
	"  --width N             text: the line width, 60..1000 (default 160; to a terminal,\n"
	"                        its width, from TIOCGWINSZ or else $COLUMNS, kept in\n"
	"                        60..1000); a longer line goes on indented lines, a wider\n"
	"                        table into parts that repeat its key columns: nothing is\n"
	"                        dropped, but from an --explain line (below)\n"
	"  --queue Q             the event queue: lanes (default: one per CPU where the results\n"
	"                        are the same), heap (one global queue, as closed loops and\n"
	"                        --explain use) or naive (the reference queue, for tests)\n"
	"  --explain [N]         log the first N decisions of each run (all without N), one\n"
	"                        line each; a line wider than --width leaves out, in this\n"
	"                        order, the governor's other variables and the timer's kind\n"
	"                        (the last first), its history, got-tick, load and\n"
	"                        tick-seen, then iowait, qos, poll-limit and its prediction,\n"
	"                        and ends in \" ...\"; --format json has every field\n"
	"  --from S, --to S      --explain, ftrace, perfetto: only the decisions selected from\n"
	"                        trace time S to S seconds (decimals allowed)\n"
	"Lists may also be given comma-separated: --machine hsx,skl.\n";

static const char *const help_gen =
	"usage: idlesim gen --workload W [--cpus N] [--duration-s S] [--seed N] [options] [--force]\n"
	"                   [-o FILE]\n"
	"\n"
	"Writes a synthetic workload as a native trace (deterministic for a seed): to -o FILE,\n"
	"in the binary form if its name ends in .itb (idlesim help convert), else to stdout.\n"
	"  --workload W          periodic, irq-fixed, irq-poisson or mixed (open loop, below), or\n"
	"                        a benchmark-like model (docs/workloads.md):\n"
	"                        netperf-udp, sockperf, tbench, dbench, hackbench, cyclictest,\n"
	"                        idle, powernightmares\n"
	"  --cpus N              CPUs (default 1)\n"
	"  --duration-s S        length in seconds, decimals allowed (default 1)\n"
	"  --seed N              random seed (default 1)\n"
	"  --period-us P         periodic: timer period (default 1000); mixed: (default 10000)\n"
	"  --interval-us I       irq-fixed: interrupt interval (default 300)\n"
	"  --mean-us M           irq-poisson: mean gap (default 500); mixed: irq gap (default 2000)\n"
	"  --timer-period-us P   add a background periodic timer on every CPU\n"
	"  --timer-kind K        the timers' kind: mix (default: the workload's timer an\n"
	"                        hrtimer, as a program's sleep is, the background timer a\n"
	"                        timer-wheel one, as the kernel's periodic work), wheel or\n"
	"                        hrtimer (every timer of that kind)\n"
	"  --timer-slack-us S    the slack of the workload's own hrtimer (default 50, a task's\n"
	"                        timer slack; 0 for an RT task): a tick or timer from S before\n"
	"                        it runs it too\n"
	"  --busy-us B           work brought by each wakeup (default 0)\n"
	"  --iowait N            mark every idle period with N iowait tasks\n"
	"  --no-wake-pct P       P % of irq/ipi wakeups wake no task (resched=0): the CPU stays\n"
	"                        in the idle loop, the tick as it was (default 0)\n"
	"  --hz N                tick rate written to the header\n"
	"  --force               write even if the trace is estimated above 1 GiB\n"
	"  --timers-from TRACE   (benchmark models) the periodic timers of a kernel trace's\n"
	"                        timer census (idlesim import) in place of the model's per-CPU\n"
	"                        housekeeping: model CPU i takes those of traced CPU i mod N\n"
	"\n"
	"A benchmark-like model is written as its timeline on CPUs without exit latency (the\n"
	"one the oracle follows); it takes --duration-s (at most 3600), --seed, --hz, --force, -o\n"
	"and its own parameters, all integers (defaults in brackets; 0 for --cpus: one per\n"
	"thread), and --housekeeping PRESET, which sets the timer-world parameters\n"
	"(--housekeeping-us ... --rcu-jiffies) to the kernel timers of a configuration:\n"
	"nohz-6.12 (the default: a v6.12 NOHZ kernel with the benchmark's kernel timers and timer\n"
	"migration), nohz-6.1 (the same, timers placed as before v6.9), nohz-idle (the 4 s\n"
	"watchdog only), hz-tick-100, hz-tick-250, hz-tick-1000 (a tick that never stops, at\n"
	"that HZ),\n"
	"legacy-10ms, none (docs/workloads.md, \"Timers\"):\n";

/* The models' parameters, from their tables: "  NAME  --PARAM [DEF] ..." wrapped at 90. */
static void help_gen_models(FILE *f)
{
	unsigned int i, j;

	for (i = 0; i < workload_count(); i++) {
		const struct workload *w = workload_get(i);
		int col = fprintf(f, "  %-16s", w->name);

		for (j = 0; j < w->nr_params; j++) {
			char cell[96];
			int n = snprintf(cell, sizeof(cell), " --%s [%lld]", w->params[j].name,
					 (long long)w->params[j].def);

			if (col > 18 && col + n > 90)
				col = fprintf(f, "\n%18s", "");
			col += fprintf(f, "%s", cell);
		}
		fputc('\n', f);
	}
}

static const char *const help_import =
	"usage: idlesim import TRACE [--machine M] [-o OUT.trace|OUT.itb] [--format text|json]\n"
	"                      [--input-format F] [--skip-bad-lines] [--hz N] [--cpus N] [-j N]\n"
	"\n"
	"Reads a kernel trace, writes it as a native trace of idle opportunities and prints\n"
	"a summary: events read, used and skipped, unpaired entries and exits, idle periods\n"
	"and opportunities per CPU, wake causes, and what the recording kernel's governor did.\n"
	"traces/FORMAT.md, \"Importing kernel traces\", states the rules.\n"
	"  TRACE                 ftrace text (/sys/kernel/tracing/trace, trace_pipe), trace-cmd\n"
	"                        report text, perf script text, systrace HTML, trace.dat; - reads\n"
	"                        standard input\n"
	"  -m, --machine M       score the recorded choices (usage, time, above, below) on M,\n"
	"                        and check them against cpu_idle_miss events if the trace has any\n"
	"  --disable STATE       a state disabled on the recording machine (with --machine)\n"
	"  --enable STATE        a state off by default that was enabled there (with --machine)\n"
	"  -o, --output FILE     write the converted trace (atomically); - for stdout (the\n"
	"                        summary then goes to stderr); a name ending in .itb gets the\n"
	"                        binary form (idlesim help convert)\n"
	"  -f, --format F        summary as text (default) or json (schema idlesim-import/1)\n"
	"  --input-format F      auto (default), ftrace, trace-cmd, perf, systrace, trace-dat\n"
	"  --skip-bad-lines      count malformed lines as warnings instead of failing\n"
	"  --hz N                tick rate of the recording (default: inferred from the tick's\n"
	"                        hrtimer, else unknown)\n"
	"  --cpus N              CPU count (default: the trace header's, else the highest seen)\n"
	"  -j, --jobs N          N threads: N - 1 lex a text trace read from a file ahead of\n"
	"                        the reconstruction (default 1: one thread); the result is the same\n";

static const char *const help_convert =
	"usage: idlesim convert IN OUT [--to text|binary]\n"
	"\n"
	"Writes the native trace IN in the other form: a text (or JSON) trace in the binary\n"
	"form, a binary one as text (traces/FORMAT.md, \"Binary form\"). The binary form holds\n"
	"the same header and records, smaller, checksummed and quicker to read; every command\n"
	"reads either. gen and import write it when their output's name ends in .itb.\n"
	"  IN                    a native trace (text, JSON or binary); - reads standard input\n"
	"  OUT                   the converted trace (atomically); - for stdout\n"
	"  --to F                text or binary: the form to write, whatever IN's (default: the\n"
	"                        other form than IN's)\n";

static const char *const help_report =
	"usage: idlesim report [--trace FILE] [--machine M] [--governor G]... [knobs]\n"
	"                      [--from S --to S] [--decisions N] -o report.html\n"
	"       idlesim report --workload W [--PARAM V]... [--duration-s S] [--seed N] ...\n"
	"\n"
	"Replays one trace on one machine through the governors and the oracle and writes one\n"
	"self-contained HTML file (inline SVG and CSS, nothing fetched): a timeline per CPU\n"
	"and governor with the oracle's under it, residency bars, the idle-duration histogram\n"
	"with the target residencies, and the first decisions, readable. docs/html-report.md\n"
	"walks through one.\n"
	"  -t, --trace FILE      as for run (default: traces/demo.trace)\n"
	"  --workload W          instead of a trace: a closed-loop model, as for run; each CPU's\n"
	"                        lane gets a band of the tasks that ran on it\n"
	"  --PARAM V             a parameter of the workload, one value (e.g. --clients 2)\n"
	"  --duration-s S        with --workload: simulated seconds (default 0.05)\n"
	"  --seed N              with --workload: its random seed (default 1)\n"
	"  -m, --machine M       one machine (default skl)\n"
	"  -g, --governor G      the governors (default menu,teo); the oracle is always added\n"
	"  --from S, --to S      the window of trace time drawn, in seconds (default: from the\n"
	"                        first idle entry, as long as no lane has more than 24 entries)\n"
	"  --decisions N         rows of the decisions table per governor (default 30)\n"
	"  --hz, --latency-limit-us, --disable, --enable, --topology, --set, --wake-latency,\n"
	"  --governor-timeout:   as for run\n"
	"  -o, --output FILE     write to FILE (atomically) instead of stdout\n";

static const char *const help_machines =
	"usage: idlesim machines [NAME|FILE.json|SNAPSHOT] [--json]\n"
	"       idlesim machines calibrate --wult datapoints.csv --machine M -o OUT.json\n"
	"       idlesim machines import SNAPSHOT [--name NAME] -o OUT.json\n"
	"\n"
	"Without a name, lists the built-in machines. With one, prints its idle-state table\n"
	"as cpupower idle-info does, or with --json the JSON a user can edit and load back\n"
	"with --machine FILE.json.\n"
	"calibrate writes M with measured wake-latency distributions: each state named in\n"
	"the ReqCState column of a wult datapoints.csv gets the quantiles of its WakeLatency\n"
	"(us) values (run with --wake-latency measured; docs/wake-latency.md).\n"
	"import writes the machine of a sysfs snapshot of your own machine (a directory, .tar\n"
	"or .tar.gz that scripts/snapshot.sh makes): its topology and idle states, with the\n"
	"powers and wake latencies of the closest built-in, marked assumed; --name NAME names\n"
	"it (default: the snapshot's file name). --machine SNAPSHOT reads one directly\n"
	"(docs/machines.md, \"Your own machine\").\n";

static const char *const help_governors =
	"usage: idlesim governors\n\nLists the governors, their ratings and tunables.\n";

static const char *const help_compare =
	"usage: idlesim compare --workload W [--PARAM V[,V...]] --governor BASE,G2,...\n"
	"                       [--machine M,...] [--iterations N] [--seed S] [--duration-s S]\n"
	"                       [--metric NAME]... [--threads N] [knobs]\n"
	"                       [--format text|json|csv|html] [--style mmtests|normalized] [-o FILE]\n"
	"                       [--per-cpu] [--per-task]\n"
	"\n"
	"Runs a closed-loop workload through governors, N times each, and prints MMTests-style\n"
	"tables: per metric Min, Amean or Hmean, Stddev, CoeffVar, Max, the percentage against\n"
	"the baseline (positive = better), asterisks where a t-test finds the difference\n"
	"significant (p < 0.10), and a Gmean of ratios. docs/compare.md, has the details.\n"
	"  --workload W          a workload model (idlesim help gen lists them)\n"
	"  --PARAM V             a parameter of the workload, e.g. --clients 4; one parameter may\n"
	"                        take a comma-separated list: --clients 1,2,4,8; --clients\n"
	"                        mmtests (tbench, dbench; hackbench's --groups) is MMTests'\n"
	"                        sweep: 1, 2, 4, ... up to 4 x the machine's CPUs (dbench 8 x,\n"
	"                        hackbench at most 296), with each metric's Gmean over it\n"
	"  --placement P         sched (default): the scheduler places, queues and balances\n"
	"                        the model's tasks on every CPU (or --cpus N of them); pinned:\n"
	"                        each thread on a fixed CPU, as before the scheduler\n"
	"                        (docs/scheduler.md)\n"
	"  --affinity LIST       sched: the model's tasks run only on these CPUs, as taskset -c\n"
	"                        LIST runs a benchmark (e.g. 0-3,8); default: every CPU\n"
	"  --housekeeping P,...  the kernel timers: a preset (idlesim help gen), default nohz-6.12;\n"
	"                        a list runs every cell in each (a table per timer world) and\n"
	"                        names the differences that flip between them (sign or\n"
	"                        significance)\n"
	"  -g, --governor G,...  the governors; the first is the baseline (required); one\n"
	"                        listed twice (menu and menu@6.19) is compared once\n"
	"  -m, --machine M,...   built-in name or JSON file (default skl)\n"
	"  -n, --iterations N    runs per governor and cell (default 5); run i has seed S + i\n"
	"  --seed S              seed of the first iteration (default 1)\n"
	"  --duration-s S        simulated time of each run (default 1)\n"
	"  --metric NAME         throughput, latency_mean, latency_p99, energy_j, idle_power_w,\n"
	"                        above_pct, below_pct, hits_pct, wake_latency_p99_ns,\n"
	"                        wakeups_idle_pct, run_delay_us, migrations_per_s,\n"
	"                        newidle_pulls_per_s, balance_pulls_per_s (with the\n"
	"                        scheduler), residency_pct.STATE (repeatable; default all\n"
	"                        that apply)\n"
	"  -j, --threads N       parallel runs (default: online CPUs); the output is the same\n"
	"  --hz, --latency-limit-us, --disable, --enable, --topology, --set, --wake-latency,\n"
	"  --governor-timeout:   as for run\n"
	"  -f, --format F        text (default), json (schema idlesim-compare/1), csv, or html\n"
	"                        (bar charts with error bars and significance marks)\n"
	"  --style S             text layout: mmtests (default) or normalized (tip[pct imp](CV))\n"
	"  --per-cpu             text: after the tables, what the scheduler did in the first\n"
	"                        iteration of each row, machine and governor, a row per CPU:\n"
	"                        wakeups placed on an idle or a busy CPU, migrations in,\n"
	"                        newly-idle tries and pulls, switches, run_delay, and a total\n"
	"                        (--placement sched only; json always has it, csv and html\n"
	"                        refuse it)\n"
	"  --per-task            the same, a row per task named comm-tid as ftrace shows it\n"
	"                        (tbench_srv-4): nr_wakeups, on an idle or a busy CPU,\n"
	"                        nr_migrations, pulls, pcount, run_delay, runtime, last_cpu\n"
	"  -o, --output FILE     write to FILE (atomically) instead of stdout\n";

static const char *const help_sweep =
	"usage: idlesim sweep SPEC.json [-j N] [--shard I/N] [--force] [--governor-timeout S]\n"
	"                     -o RESULTS.jsonl\n"
	"       idlesim sweep merge A.jsonl B.jsonl ... -o ALL.jsonl\n"
	"       idlesim sweep summary RESULTS.jsonl [--objective M1,M2,...]\n"
	"                     [--format text|json|html] [-o FILE]\n"
	"\n"
	"Runs every point of the spec's cross product (traces and workloads x machines x hz x\n"
	"latency limits x governors x the values of their tunables, or its listed points), one\n"
	"JSON line per point, appended and flushed as it finishes; a rerun skips the points\n"
	"already in RESULTS.\n"
	"  -j, --threads N       points run at once (default 1)\n"
	"  --shard I/N           only the points whose index is I mod N\n"
	"  --force               allow more than 1,000,000 points\n"
	"  --governor-timeout S  as for run\n"
	"merge joins shards, sorted by point, each exactly once, from one spec and version.\n"
	"summary: per trace or workload and machine, the best point per objective (metric keys\n"
	"of the lines; default energy_j,wake_latency_p99_ns; hits_pct and throughput are\n"
	"maximised, the rest minimised), the Pareto frontier over the first two, and the points\n"
	"with every tunable at its default; html draws each group as a scatter plot.\n";

static const char *const help_check =
	"usage: idlesim check EXPECT.json [--threads N] [--verbose] [--wake-latency W] [--housekeeping P,...]\n"
	"                     [--format text|json|junit|tap] [-o FILE]\n"
	"\n"
	"Runs the comparisons an expectation file names and tests each stated bound; prints one\n"
	"line per check (ok or FAIL, with the cell, metric, governor, value and bound). Exit\n"
	"status 0 when every bound holds, 3 when one does not, 2 for bad input. The file format\n"
	"is in docs/compare.md; an example: traces/expect-example.json.\n"
	"  -j, --threads N       parallel runs (default: online CPUs)\n"
	"  -v, --verbose         also print each comparison's table\n"
	"  --wake-latency W      run every comparison with this wake-latency model (worst,\n"
	"                        typical, measured; default: the file's wake_latency, else\n"
	"                        typical)\n"
	"  --governor-timeout S  as for run\n"
	"  --housekeeping P,...  run every comparison in each of these timer worlds (presets,\n"
	"                        idlesim help gen); a check on a difference that flips\n"
	"                        between them says so\n"
	"  -f, --format F        text (default), json (schema idlesim-check/1), junit (XML,\n"
	"                        one testcase per check) or tap (TAP version 13); the exit\n"
	"                        status is the same for every format\n"
	"  -o, --output FILE     write the report to FILE (whole or not at all; default: stdout)\n";

static const char *const help_diff =
	"usage: idlesim diff --governor A --governor B [--trace T] [--machine M] [options]\n"
	"       idlesim diff --governor G --set-a FAMILY.NAME=V --set-b FAMILY.NAME=V ...\n"
	"\n"
	"Which decisions two governors make differently on the same input, decision by\n"
	"decision. Lockstep (default): one replay drives the engine, and at every decision\n"
	"both sides are asked with identical inputs, each keeping its own state fed by the\n"
	"driving run's outcomes. A decision diverges when the two choose different states or,\n"
	"while the tick runs, one stops it and the other not. Prints the decisions and the\n"
	"divergent share, a state-pair matrix, the rules each side used, per CPU, and the first\n"
	"divergences with both sides' variables. docs/diff.md has the details.\n"
	"\n"
	"  -g, --governor G      a side: a governor name, a reference policy, or a kernel\n"
	"                        file (PATH.c, compiled as run does); give two, or one with\n"
	"                        --set-a/--set-b to compare it with itself\n"
	"  --set-a FAMILY.NAME=V a tunable of side A only (--set applies to both)\n"
	"  --set-b FAMILY.NAME=V a tunable of side B only\n"
	"  -t, --trace T         traces as run takes them (default: the demo trace); every\n"
	"                        trace on every machine\n"
	"  -m, --machine M       machines as run takes them (default skl)\n"
	"  --drive D             A (default), B or oracle: whose choices the engine enters\n"
	"  --free                also replay each side on its own and print their scores side\n"
	"                        by side (energy, regret, wake latency, above/below); per CPU\n"
	"                        the first divergence is where the two free runs part\n"
	"  --divergences N       divergences shown, the first N (default 10; 0 for none)\n"
	"  --max-divergence PCT  exit status 3 when a trace's divergent share on a machine is\n"
	"                        above PCT percent (for CI)\n"
	"  --hz, --latency-limit-us, --disable, --enable, --topology, --wake-latency, --set,\n"
	"  --governor-timeout    as for run\n"
	"  -f, --format F        text (default), json (schema idlesim-diff/1), csv (a row per\n"
	"                        CPU), junit or tap (a test per trace and machine), html (a\n"
	"                        page: divergences on a per-CPU timeline, the state pairs)\n"
	"  -o, --output FILE     write the report to FILE (whole or not at all; default: stdout)\n"
	"\n"
	"Exit status: 0, 2 for bad input, 3 when --max-divergence is exceeded.\n";

static const char *const help_validate =
	"usage: idlesim validate TRACE --governor G --machine M [options]\n"
	"       idlesim validate DIR    (a recording of scripts/record.sh)\n"
	"\n"
	"Would the governor choose what the recording kernel chose? Feeds G the trace's recorded\n"
	"history: at every cpu_idle entry it is asked with what the kernel's governor saw (the\n"
	"pending timers, the tick, the tick's expiries while idle) and its choice is compared\n"
	"with the kernel's; reflect() then gets the kernel's state and the recorded residency,\n"
	"as in the kernel. Prints the agreement, a confusion matrix by state, per CPU, and the\n"
	"first disagreements with the governor's variables and the inputs the trace lacked\n"
	"(sleep length without timer events, tick state without tick_stop, the QoS limit).\n"
	"docs/diff.md has the details.\n"
	"\n"
	"  TRACE                 a kernel trace as import reads it (ftrace, trace-cmd, perf,\n"
	"                        systrace, trace.dat), or a directory of scripts/record.sh\n"
	"                        (trace.dat or trace.txt, snapshot.tar.gz, governor, release)\n"
	"  -g, --governor G      the governor the kernel ran (a port, or its file PATH.c);\n"
	"                        from DIR/governor and DIR/release when not given\n"
	"  -m, --machine M       the recording machine (a name, FILE.json or a snapshot);\n"
	"                        DIR/snapshot.tar.gz when not given\n"
	"  --disagreements N     disagreements shown, the first N (default 10)\n"
	"  --hz, --latency-limit-us, --disable, --enable, --set, --governor-timeout\n"
	"                        as for run (the QoS limit is never in a trace)\n"
	"  -f, --format F        text (default) or json (schema idlesim-validate/1)\n"
	"  -o, --output FILE     write the report to FILE (whole or not at all; default: stdout)\n";

static const char *const help_help =
	"usage: idlesim help [COMMAND]\n"
	"       idlesim COMMAND --help | -h\n"
	"\n"
	"Without a command, lists the commands; with one, prints its options. Options take\n"
	"their value as --name VALUE, --name=VALUE, -n VALUE or -nVALUE; short options bundle\n"
	"(-vj4 is -v -j4); -- ends the options (what follows is a file name even if it starts\n"
	"with -). idlesim -V or --version prints the version.\n";

void cli_usage(FILE *f)
{
	fputs("usage: idlesim <command> [options]\n"
	      "\n"
	      "commands:\n"
	      "  run        replay traces through governors on machines, and score them\n"
	      "  gen        write a synthetic workload trace\n"
	      "  import     convert a kernel trace (ftrace, trace-cmd, perf, systrace, trace.dat)\n"
	      "  convert    a native trace from text to the binary form, or back\n"
	      "  report     draw a run as one HTML file: timelines, residency, idle durations\n"
	      "  machines   list machines, or print one's idle-state table\n"
	      "  governors  list governors and their tunables\n"
	      "  compare    compare governors on a workload, MMTests-style, with statistics\n"
	      "  diff       which decisions two governors make differently, in lockstep\n"
	      "  validate   a governor's choices against a recorded kernel's, entry by entry\n"
	      "  check      run an expectation file's comparisons and test their bounds\n"
	      "  sweep      run every point of a parameter grid, resumable, and summarise it\n"
	      "  help CMD   help for a command\n"
	      "\n"
	      "idlesim " IDLESIM_VERSION ", a simulator of the Linux cpuidle governors. "
	      "Trace format: traces/FORMAT.md.\n",
	      f);
}

int cli_help(FILE *f, const char *cmd)
{
	if (!cmd)
		cli_usage(f);
	else if (!strcmp(cmd, "run"))
		fputs(help_run, f);
	else if (!strcmp(cmd, "gen")) {
		fputs(help_gen, f);
		help_gen_models(f);
	} else if (!strcmp(cmd, "import"))
		fputs(help_import, f);
	else if (!strcmp(cmd, "convert"))
		fputs(help_convert, f);
	else if (!strcmp(cmd, "report"))
		fputs(help_report, f);
	else if (!strcmp(cmd, "machines"))
		fputs(help_machines, f);
	else if (!strcmp(cmd, "governors"))
		fputs(help_governors, f);
	else if (!strcmp(cmd, "compare"))
		fputs(help_compare, f);
	else if (!strcmp(cmd, "diff"))
		fputs(help_diff, f);
	else if (!strcmp(cmd, "validate"))
		fputs(help_validate, f);
	else if (!strcmp(cmd, "check"))
		fputs(help_check, f);
	else if (!strcmp(cmd, "sweep"))
		fputs(help_sweep, f);
	else if (!strcmp(cmd, "help"))
		fputs(help_help, f);
	else
		return -1;
	return 0;
}
