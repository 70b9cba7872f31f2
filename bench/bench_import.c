// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_import.c - kernel-trace import speed (MB/s on one core) next to `wc -l` on the same
 * file, and peak memory.
 *
 *   bench_import [--mb N] [--cpus C] [--file PATH] [--keep] [--runs R]
 *
 * Writes an ftrace text trace of about N MB (default 1024) to PATH (default
 * /tmp/idlesim-bench-import.ftrace): C CPUs (default 8) taking turns through a realistic
 * cycle of events (the task switches to idle, the tick's hrtimer is re-armed, cpu_idle entry
 * and exit, the hrtimer expiry or a device interrupt that wakes it, a wakeup, a switch to a
 * task, and two events the importer does not use), with 5-character flags as recent kernels
 * print them. Then, R times each (default 3, best kept, the file in the page cache): `wc -l
 * PATH`, and the import of PATH (both passes, every event parsed, the converted trace
 * formatted and written to /dev/null), once as `idlesim import` reads it (one pass) and once as
 * `idlesim run` does (two passes). Prints seconds and MB/s of each, and the process's peak
 * RSS, which must not depend on the file size.
 *
 * wc is run as a child process (posix_spawnp) only here, to have the reference measured the
 * same way on the same file; the importer itself never runs a tool.
 */
#include "sim/import/import.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct gen {
	FILE *f;
	long long t_us; /* microseconds after 1000 s */
	long long lines;
};

static void line(struct gen *g, const char *comm, int pid, int cpu, const char *flags,
		 const char *event, const char *payload)
{
	long long t = 1000000000LL + g->t_us;

	fprintf(g->f, "%16s-%-7d [%03d] %s %6lld.%06lld: %s: %s\n", comm, pid, cpu, flags,
		t / 1000000, t % 1000000, event, payload);
	g->t_us += 1;
	g->lines++;
}

static int generate(const char *path, long long mb, int cpus)
{
	struct gen g = {fopen(path, "w"), 0, 0};
	char buf[256];
	long long k = 0;

	if (!g.f)
		return -1;
	fprintf(g.f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:%d\n#\n",
		cpus);
	while (ftell(g.f) < mb * 1000000) {
		int cpu = (int)(k % cpus), pid = 1000 + cpu;
		long long exp = (1000000000LL + g.t_us + 4000) * 1000;
		bool tick = k % 3 == 0;

		snprintf(buf, sizeof(buf),
			 "prev_comm=worker prev_pid=%d prev_prio=120 prev_state=S ==> "
			 "next_comm=swapper/%d next_pid=0 next_prio=120",
			 pid, cpu);
		line(&g, "worker", pid, cpu, "d..2.", "sched_switch", buf);
		snprintf(buf, sizeof(buf),
			 "comm=worker pid=%d runtime=12345 [ns] vruntime=98765432 [ns]", pid);
		line(&g, "worker", pid, cpu, "d..2.", "sched_stat_runtime", buf);
		snprintf(buf, sizeof(buf),
			 "hrtimer=ffff88817fc%05x function=tick_sched_timer expires=%lld "
			 "softexpires=%lld mode=ABS_PINNED_HARD",
			 cpu, exp, exp);
		line(&g, "<idle>", 0, cpu, "d..1.", "hrtimer_start", buf);
		snprintf(buf, sizeof(buf), "state=%d cpu_id=%d", (int)(k % 4) + 1, cpu);
		line(&g, "<idle>", 0, cpu, "d..1.", "cpu_idle", buf);
		snprintf(buf, sizeof(buf), "state=4294967295 cpu_id=%d", cpu);
		line(&g, "<idle>", 0, cpu, "dN.1.", "cpu_idle", buf);
		if (tick) {
			snprintf(buf, sizeof(buf), "hrtimer=ffff88817fc%05x", cpu);
			line(&g, "<idle>", 0, cpu, "d.h1.", "hrtimer_cancel", buf);
			snprintf(buf, sizeof(buf),
				 "hrtimer=ffff88817fc%05x function=tick_sched_timer now=%lld", cpu,
				 exp);
			line(&g, "<idle>", 0, cpu, "d.h1.", "hrtimer_expire_entry", buf);
		} else {
			line(&g, "<idle>", 0, cpu, "d.h1.", "irq_handler_entry",
			     "irq=45 name=eth0-rx-0");
		}
		line(&g, "<idle>", 0, cpu, "d.s2.", "rcu_utilization", "Start context switch");
		snprintf(buf, sizeof(buf), "comm=worker pid=%d prio=120 target_cpu=%03d", pid, cpu);
		line(&g, "<idle>", 0, cpu, "dNh2.", "sched_wakeup", buf);
		snprintf(buf, sizeof(buf),
			 "prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> "
			 "next_comm=worker next_pid=%d next_prio=120",
			 cpu, pid);
		line(&g, "<idle>", 0, cpu, "d..2.", "sched_switch", buf);
		k++;
	}
	return fclose(g.f);
}

static double run_wc(const char *path)
{
	char *argv[] = {"wc", "-l", (char *)path, NULL};
	posix_spawn_file_actions_t fa;
	double t0 = now_s();
	pid_t pid;
	int st;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "wc", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	waitpid(pid, &st, 0);
	posix_spawn_file_actions_destroy(&fa);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? now_s() - t0 : -1;
}

/* Import `path` as `idlesim import` does (one pass) or as `idlesim run` reads it (two). */
static double run_import(const char *path, bool two)
{
	struct import_options o = {0};
	struct sim_error err = {0};
	struct importer *im;
	FILE *null = fopen("/dev/null", "w");
	double t0 = now_s();
	int rc;

	im = two ? import_open(path, &o, &err) : import_open_convert(path, &o, &err);
	if (!im || !null) {
		sim_error_print(stderr, &err);
		if (null)
			fclose(null);
		return -1;
	}
	rc = import_convert(im, null, &err);
	import_close(im);
	fclose(null);
	if (rc) {
		sim_error_print(stderr, &err);
		return -1;
	}
	return now_s() - t0;
}

int main(int argc, char **argv)
{
	const char *path = "/tmp/idlesim-bench-import.ftrace";
	long long mb = 1024;
	int cpus = 8, runs = 3, i;
	bool keep = false;
	double best_wc = 1e30, best_one = 1e30, best_two = 1e30, bytes;
	struct rusage ru;
	struct stat sb;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mb") && i + 1 < argc)
			mb = atoll(argv[++i]);
		else if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
			cpus = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--file") && i + 1 < argc)
			path = argv[++i];
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--keep"))
			keep = true;
		else {
			fprintf(stderr, "usage: bench_import [--mb N] [--cpus C] [--file PATH] "
					"[--keep] [--runs R]\n");
			return 2;
		}
	}
	if (mb < 1 || cpus < 1 || cpus > 4096 || runs < 1)
		return 2;
	if (!(keep && stat(path, &sb) == 0) && generate(path, mb, cpus)) {
		perror(path);
		return 1;
	}
	if (stat(path, &sb))
		return 1;
	bytes = (double)sb.st_size;
	for (i = 0; i < runs; i++) {
		double w = run_wc(path), t1 = run_import(path, false), t2 = run_import(path, true);

		if (w < 0 || t1 < 0 || t2 < 0)
			return 1;
		best_wc = w < best_wc ? w : best_wc;
		best_one = t1 < best_one ? t1 : best_one;
		best_two = t2 < best_two ? t2 : best_two;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("ftrace text %.0f MB, %d CPUs (best of %d):\n", bytes / 1e6, cpus, runs);
	printf("  wc -l                              %7.3f s  %6.0f MB/s\n", best_wc,
	       bytes / 1e6 / best_wc);
	printf("  idlesim import (one pass)          %7.3f s  %6.0f MB/s  (%.1fx the time of wc "
	       "-l)\n",
	       best_one, bytes / 1e6 / best_one, best_one / best_wc);
	printf("  record source of run (two passes)  %7.3f s  %6.0f MB/s\n", best_two,
	       bytes / 1e6 / best_two);
	printf("  peak RSS %ld MB\n", ru.ru_maxrss / 1024);
	if (!keep)
		unlink(path);
	return 0;
}
