// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kgov.c - kernel governor files (sim/run/kgov.c, governors/kcompat/).
 *
 * `test_kgov` (label quick): the compatibility layer and the loader on tests/kgov/toy.c, a
 * governor written against the kernel's interfaces only, called directly on hand-made
 * devices: its services see the device of the call, its per-CPU data is per CPU and per
 * simulation (also from two threads at once); the cache; compile errors; the CLI.
 *
 * `test_kgov fidelity` (label fidelity): the menu, teo, ladder and haltpoll files of Debian's
 * linux-source-6.1 and -6.12 packages (extracted into the build tree, never the repository),
 * each run in lockstep with idlesim's port of the same logic: the kernel file drives the
 * simulation and at every select() the port is asked the same question on a copy of the
 * device with its own history (it is told the kernel file's choices, as reflect() tells a
 * governor the state entered), so a mismatch is a difference of logic, never a diverged
 * timeline. haltpoll keeps its state in the device (dev->poll_limit_ns, its poll window, which
 * the engine's POLL also reads): the port's copy of the device keeps its own window, and a
 * window that differs from the kernel file's at a select counts as a mismatch too. Without
 * the packages it prints SKIPPED and exits 77 (ctest: "Skipped").
 */
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testbin.h"

#include "governors/governor.h"
#include "sim/base/alloc.h"
#include "sim/workload/gen.h"
#include "sim/run/kgov.h"
#include "sim/machine/machine.h"
#include "sim/engine/replay.h"
#include "sim/engine/stats.h"

#define TOY SRC "/tests/kgov/toy.c"

/* tests/kgov/toy.c's per-CPU data: its one DEFINE_PER_CPU variable. */
struct toy_cpu {
	u64 calls;
	u64 clock_ns;
	s64 sleep_ns;
};

/* POLL; C1 2 us / 2 us; C6 100 us exit, 400 us target. */
static void toy_driver(struct cpuidle_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	drv->state_count = 3;
	drv->states[0].flags = CPUIDLE_FLAG_POLLING;
	drv->states[1].exit_latency_ns = 2000;
	drv->states[1].target_residency_ns = 2000;
	drv->states[2].exit_latency_ns = 100000;
	drv->states[2].target_residency_ns = 400000;
}

/* A simulation as the engine lays it out: devices 0..n-1, per-CPU data one array. */
struct fake_sim {
	struct cpuidle_device dev[2];
	unsigned char *priv;
};

static void fake_sim_init(struct fake_sim *s, const struct cpuidle_governor *g,
			  struct cpuidle_driver *drv)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->priv = calloc(2, g->priv_size);
	assert_non_null(s->priv);
	for (i = 0; i < 2; i++) {
		struct cpuidle_device *d = &s->dev[i];

		d->cpu = i;
		d->last_state_idx = -1;
		d->governor_data = s->priv + i * g->priv_size;
		d->env.now_ns = 1000000;
		d->env.next_timer_ns = 1500000; /* sleep length 500 us */
		d->env.next_wheel_ns = 1500000;
		d->env.next_tick_ns = 4000000;
		d->env.tick_nsec = 4000000; /* HZ 250 */
		d->env.latency_req_ns = 2000000000000LL;
		d->env.oracle_wake_ns = KTIME_MAX;
		assert_int_equal(g->enable(drv, d), 0);
	}
}

static struct toy_cpu *toy_of(struct fake_sim *s, int cpu)
{
	return (struct toy_cpu *)(void *)s->dev[cpu].governor_data;
}

static const struct cpuidle_governor *load_ok(const char *path, bool *compiled)
{
	const struct cpuidle_governor *g = NULL;
	struct sim_error err = { 0 };

	if (kgov_load(path, stderr, &g, compiled, &err))
		sim_error_print(stderr, &err);
	assert_non_null(g);
	return g;
}

static void test_toy_services_and_percpu(void **state)
{
	const struct cpuidle_governor *g = load_ok(TOY, NULL);
	struct cpuidle_driver drv;
	struct fake_sim a, b;
	bool stop = true;

	(void)state;
	assert_string_equal(g->name, "toy@file:toy.c");
	assert_ptr_equal(gov_find("toy@file:toy.c"), g);
	assert_int_equal(g->rating, 7); /* TOY_RATING from toy.h, next to the file */
	/* One struct of 3 x 8 bytes, rounded up to 16: 32 bytes per CPU. */
	assert_int_equal(g->priv_size, 32);
	toy_driver(&drv);
	fake_sim_init(&a, g, &drv);
	fake_sim_init(&b, g, &drv);
	/* enable: 100 * (cpu + 1), in each simulation's own copy */
	assert_int_equal(toy_of(&a, 0)->calls, 100);
	assert_int_equal(toy_of(&a, 1)->calls, 200);
	assert_int_equal(toy_of(&b, 1)->calls, 200);

	/* sleep 1500000 - 1000000 = 500 us: C6 (400 us) fits; 500 us < 4 ms tick: keep it. */
	assert_int_equal(g->select(&drv, &a.dev[1], &stop), 2);
	assert_false(stop);
	assert_int_equal(toy_of(&a, 1)->calls, 201);
	assert_int_equal(toy_of(&a, 1)->clock_ns, 1000000);
	assert_int_equal(toy_of(&a, 1)->sleep_ns, 500000);
	assert_int_equal(toy_of(&a, 0)->calls, 100); /* the other CPU */
	assert_int_equal(toy_of(&b, 1)->calls, 200); /* the other simulation */

	/* PM QoS 50 us: C6's 100 us exit breaks the loop at C1. */
	b.dev[0].env.latency_req_ns = 50000;
	assert_int_equal(g->select(&drv, &b.dev[0], &stop), 1);
	/* 5 ms to the timer >= a 4 ms tick: stop it, unless a task waits for I/O. */
	a.dev[0].env.next_timer_ns = 6000000;
	stop = false;
	assert_int_equal(g->select(&drv, &a.dev[0], &stop), 2);
	assert_true(stop);
	a.dev[0].env.nr_iowait = 1;
	assert_int_equal(g->select(&drv, &a.dev[0], &stop), 2);
	assert_false(stop);

	/* reflect(2) after a tick: 201 + (2 + 1) + 1000; got_tick read once. */
	a.dev[1].env.got_tick = true;
	g->reflect(&a.dev[1], 2);
	assert_int_equal(toy_of(&a, 1)->calls, 1204);
	assert_false(a.dev[1].env.got_tick);
	free(a.priv);
	free(b.priv);
}

struct toy_thread {
	const struct cpuidle_governor *g;
	struct cpuidle_driver drv;
	struct fake_sim s;
	s64 next_timer_ns;
	int bad;
};

static void *toy_thread_main(void *p)
{
	struct toy_thread *t = p;
	bool stop;
	int i;

	for (i = 0; i < 20000; i++) {
		struct cpuidle_device *d = &t->s.dev[i % 2];

		d->env.next_timer_ns = t->next_timer_ns;
		t->g->select(&t->drv, d, &stop);
		if (toy_of(&t->s, i % 2)->sleep_ns != t->next_timer_ns - 1000000)
			t->bad++;
	}
	return NULL;
}

/* Two simulations in two threads at once: each sees only its own devices and data. */
static void test_toy_threads(void **state)
{
	struct toy_thread t[2];
	pthread_t th[2];
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		t[i].g = load_ok(TOY, NULL);
		toy_driver(&t[i].drv);
		fake_sim_init(&t[i].s, t[i].g, &t[i].drv);
		t[i].next_timer_ns = 1500000 + 200000 * i;
		t[i].bad = 0;
	}
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, toy_thread_main, &t[i]), 0);
	for (i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(t[i].bad, 0);
		/* 20000 selects, 10000 per CPU, from 100 and 200 */
		assert_int_equal(toy_of(&t[i].s, 0)->calls, 10100);
		assert_int_equal(toy_of(&t[i].s, 1)->calls, 10200);
		free(t[i].s.priv);
	}
}

/* The cache is keyed by content: a copy elsewhere is not rebuilt, a change is. */
static void test_cache(void **state)
{
	char copy[256], cmd[1024];
	const struct cpuidle_governor *g1, *g2, *g3;
	bool compiled;

	(void)state;
	snprintf(copy, sizeof(copy), "%s/cached/toy.c", tmpdir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/cached && cp %s %s/kgov/toy.h %s/cached/ && "
		 "sed 's/\"toy\"/\"toy2\"/' %s > %s", tmpdir, TOY, SRC "/tests", tmpdir, TOY, copy);
	assert_int_equal(sh(cmd), 0);
	g1 = load_ok(copy, &compiled);
	assert_true(compiled);
	assert_string_equal(g1->name, "toy2@file:toy.c");
	g2 = load_ok(copy, &compiled);
	assert_false(compiled);
	assert_ptr_equal(g1, g2);
	/* The same content in another directory: the same module. */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/other && cp %s/cached/toy.c %s/cached/toy.h %s/other/",
		 tmpdir, tmpdir, tmpdir, tmpdir);
	assert_int_equal(sh(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/other/toy.c", tmpdir);
	g2 = load_ok(cmd, &compiled);
	assert_false(compiled);
	assert_ptr_equal(g1, g2);
	/* A comment changes nothing the compiler sees: same object, same governor. */
	snprintf(cmd, sizeof(cmd), "echo '/* a comment */' >> %s", copy);
	assert_int_equal(sh(cmd), 0);
	g2 = load_ok(copy, &compiled);
	assert_false(compiled);
	assert_ptr_equal(g1, g2);
	/* A change to its header (next to it) is a change of the module. */
	snprintf(cmd, sizeof(cmd), "sed -i 's/7/8/' %s/cached/toy.h", tmpdir);
	assert_int_equal(sh(cmd), 0);
	g3 = load_ok(copy, &compiled);
	assert_true(compiled);
	assert_int_equal(g3->rating, 8);
	/* Same family and file name, other content: the name is the path given. */
	assert_string_equal(g3->name + strlen("toy2@file:"), copy);
}

/* kgov_detect_api() on a string. */
static enum kgov_api api_of(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	enum kgov_api api;

	assert_non_null(f);
	api = kgov_detect_api(f);
	fclose(f);
	return api;
}

static void test_detect_api(void **state)
{
	(void)state;
	assert_int_equal(api_of("if (s->exit_latency > latency_req)"), KGOV_API_US);
	assert_int_equal(api_of("x = dev->last_residency;"), KGOV_API_US);
	/* an ns field anywhere wins, even after us fields */
	assert_int_equal(api_of("a.target_residency; b.exit_latency_ns"), KGOV_API_NS);
	/* whole identifiers only; comments count */
	assert_int_equal(api_of("exit_latency_nsx my_target_residency target_residency2"),
			 KGOV_API_NS);
	assert_int_equal(api_of("/* target_residency */ int x;"), KGOV_API_US);
	assert_int_equal(api_of("2target_residency"), KGOV_API_US); /* "2" is a number */
	assert_int_equal(api_of(""), KGOV_API_NS);
	assert_int_equal(api_of("a_very_long_identifier_longer_than_32_bytes_exit_latency x"),
			 KGOV_API_NS);
}

/*
 * A us-era file (tests/kgov/toy_us.c): the layer gives it the int us latency limit and
 * dev->last_residency, and drv->states[].disabled exists. Driver: C1 2 us exit / 2 us target,
 * C6 100 us / 400 us; sleep length 500 us.
 */
static void test_us_api(void **state)
{
	const struct cpuidle_governor *g;
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	struct sim_error err = { 0 };
	int *seen;
	bool stop;

	(void)state;
	g = load_ok(SRC "/tests/kgov/toy_us.c", NULL);
	/* two ints, rounded up to 16 bytes */
	assert_int_equal(g->priv_size, 16);
	toy_driver(&drv);
	drv.states[1].exit_latency = 2;
	drv.states[1].target_residency = 2;
	drv.states[2].exit_latency = 100;
	drv.states[2].target_residency = 400;
	memset(&dev, 0, sizeof(dev));
	dev.governor_data = calloc(1, g->priv_size);
	assert_non_null(dev.governor_data);
	seen = dev.governor_data;
	dev.env.now_ns = 1000000;
	dev.env.next_timer_ns = 1500000;
	dev.env.next_tick_ns = 4000000;
	dev.env.tick_nsec = 4000000;
	/* PM QoS 50 us = 50000 ns: the file gets 50 (us), so C6's 100 us exit stops it at C1;
	 * given ns (50000) it would take C6. 1234567 ns measured: 1234 us, truncated. */
	dev.env.latency_req_ns = 50000;
	dev.last_residency_ns = 1234567;
	assert_int_equal(g->select(&drv, &dev, &stop), 1);
	assert_int_equal(seen[0], 50);
	assert_int_equal(seen[1], 1234);
	/* No request: 2e12 ns = 2e9 us fits the int; C6 fits the 500 us sleep. A residency of
	 * 3e15 ns = 3e12 us is capped at INT_MAX, as cpuidle_enter_state() capped it. */
	dev.env.latency_req_ns = 2000000000000LL;
	dev.last_residency_ns = 3000000000000000LL;
	assert_int_equal(g->select(&drv, &dev, &stop), 2);
	assert_int_equal(seen[0], 2000000000);
	assert_int_equal(seen[1], INT_MAX);
	/* The driver's own disable of <= v5.4 (here the file's logic reads it): C6 skipped. */
	drv.states[2].disabled = true;
	assert_int_equal(g->select(&drv, &dev, &stop), 1);
	drv.states[2].disabled = false;

	/* IDLESIM_KERNEL_API=ns forces the ns limit on it (another module): 50000 >= 100. */
	setenv("IDLESIM_KERNEL_API", "ns", 1);
	g = load_ok(SRC "/tests/kgov/toy_us.c", NULL);
	dev.env.latency_req_ns = 50000;
	memset(dev.governor_data, 0, 16);
	assert_int_equal(g->select(&drv, &dev, &stop), 2);
	assert_int_equal(seen[0], 50000);
	setenv("IDLESIM_KERNEL_API", "5.4", 1);
	assert_int_equal(kgov_load(SRC "/tests/kgov/toy_us.c", NULL, &g, NULL, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "IDLESIM_KERNEL_API"));
	unsetenv("IDLESIM_KERNEL_API");
	free(dev.governor_data);
}

/*
 * <linux/sched/topology.h> for teo.c of v6.3..v6.10 (tests/kgov/toy_util.c): every CPU has
 * the full capacity, 1024 (SCHED_CAPACITY_SCALE), so the util threshold is 1024 >> 6 = 16;
 * CONFIG_SMP is not defined, so the file's "not utilized" branch is the one built (0).
 */
static void test_sched_topology(void **state)
{
	const struct cpuidle_governor *g = load_ok(SRC "/tests/kgov/toy_util.c", NULL);
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	bool stop = true;

	(void)state;
	toy_driver(&drv);
	memset(&dev, 0, sizeof(dev));
	dev.governor_data = calloc(1, g->priv_size);
	assert_non_null(dev.governor_data);
	assert_int_equal(g->enable(&drv, &dev), 0);
	assert_int_equal(*(unsigned long *)dev.governor_data, 16);
	assert_int_equal(g->select(&drv, &dev, &stop), 0);
	free(dev.governor_data);
}

/* Out of memory while registering: a clean error, nothing registered; then it loads. */
static void test_nomem(void **state)
{
	const struct cpuidle_governor *g = NULL;
	struct sim_error err = { 0 };
	char path[256], cmd[1024];
	unsigned int before = gov_count();

	(void)state;
	snprintf(path, sizeof(path), "%s/nomem/toy.c", tmpdir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/nomem && cp %s/kgov/toy.h %s/nomem/ && "
		 "sed 's/\"toy\"/\"toy3\"/' %s > %s", tmpdir, SRC "/tests", tmpdir, TOY, path);
	assert_int_equal(sh(cmd), 0);
	sim_alloc_fail_after(0);
	assert_int_equal(kgov_load(path, NULL, &g, NULL, &err), -1);
	sim_alloc_fail_after(-1);
	assert_int_equal(err.code, SIM_ERR_NOMEM);
	assert_int_equal(gov_count(), before);
	g = load_ok(path, NULL);
	assert_string_equal(g->name, "toy3@file:toy.c");
	assert_int_equal(gov_count(), before + 1);
}

static void test_errors(void **state)
{
	const struct cpuidle_governor *g = NULL;
	struct sim_error err = { 0 };
	FILE *diag = tmpfile();
	char buf[4096];
	size_t n;

	(void)state;
	assert_non_null(diag);
	assert_int_equal(kgov_load(SRC "/tests/kgov/broken.c", diag, &g, NULL, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "does not compile"));
	assert_non_null(strstr(err.text, "no_such_variable"));
	rewind(diag);
	n = fread(buf, 1, sizeof(buf) - 1, diag);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "broken.c:7")); /* the compiler's own message, with its line */
	fclose(diag);

	/* A header the layer lacks: the message names it, and the preprocessor's output (the
	 * text of every header read before it) is not shown with it. */
	sim_error_clear(&err);
	diag = tmpfile();
	assert_non_null(diag);
	assert_int_equal(kgov_load(SRC "/tests/kgov/missing_header.c", diag, &g, NULL, &err), -1);
	assert_int_equal(err.code, SIM_ERR_INPUT);
	assert_non_null(strstr(err.text, "does not compile"));
	assert_non_null(strstr(err.text, "no_such_header.h"));
	rewind(diag);
	n = fread(buf, 1, sizeof(buf) - 1, diag);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "missing_header.c:7"));
	assert_null(strstr(buf, "typedef"));
	assert_true(n < 1024); /* the compiler's few lines, not the headers' text */
	fclose(diag);

	sim_error_clear(&err);
	assert_int_equal(kgov_load(SRC "/tests/kgov/silent.c", NULL, &g, NULL, &err), -1);
	assert_non_null(strstr(err.text, "registers no governor"));
	sim_error_clear(&err);
	assert_int_equal(kgov_load(SRC "/tests/kgov/none.c", NULL, &g, NULL, &err), -1);
	assert_non_null(strstr(err.text, "cannot read"));
}

static void test_cli(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(run_idlesim("run --governor tests/kgov/broken.c"), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, "no_such_variable"));
	assert_non_null(strstr(err, "idlesim: "));
	free(err);
	assert_int_equal(run_idlesim("run --governor tests/kgov/toy.c --governor deepest "
				     "--machine skl --format csv"), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "toy@file:toy.c"));
	/* the report records which file and which build of it */
	assert_non_null(strstr(out, "none (kernel file tests/kgov/toy.c module "));
	free(out);
	/* compare runs its cells in threads: the file's governor among them */
	assert_int_equal(run_idlesim("compare --workload idle --governor deepest,tests/kgov/toy.c "
				     "-n 2 --threads 2 --duration-s 0.1"), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "toy@file:toy.c"));
	free(out);
	assert_int_equal(run_idlesim("compare --workload idle --governor deepest,tests/kgov/broken.c"), 2);
}

/* check and sweep take a file where they take a governor name. */
static void test_check_sweep(void **state)
{
	char args[512];
	char *out, *err;

	(void)state;
	write_tmp("expect.json",
		  "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [{\"name\": \"toy\",\n"
		  " \"workload\": \"idle\", \"machines\": [\"skl\"], \"iterations\": 1,\n"
		  " \"duration_s\": 0.1, \"governors\": [\"deepest\", \"tests/kgov/toy.c\"],\n"
		  " \"expect\": [{\"metric\": \"idle_power_w\", \"governor\": \"tests/kgov/toy.c\","
		  " \"max\": 1000}]}]}\n");
	snprintf(args, sizeof(args), "check %s", tmp_path("expect.json"));
	assert_int_equal(run_idlesim(args), 0);
	out = slurp_tmp("out");
	assert_non_null(strstr(out, "toy@file:toy.c"));
	free(out);

	/* A file that does not compile: exit 2, at its place in the expectation file. */
	write_tmp("bad.json",
		  "{\"schema\": \"idlesim-expect/1\", \"comparisons\": [{\"name\": \"toy\",\n"
		  " \"workload\": \"idle\", \"machines\": [\"skl\"],\n"
		  " \"governors\": [\"deepest\", \"tests/kgov/broken.c\"],\n"
		  " \"expect\": [{\"metric\": \"idle_power_w\", \"governor\": \"deepest\","
		  " \"max\": 1000}]}]}\n");
	snprintf(args, sizeof(args), "check %s", tmp_path("bad.json"));
	assert_int_equal(run_idlesim(args), 2);
	err = slurp_tmp("err");
	assert_non_null(strstr(err, "bad.json:3:"));
	assert_non_null(strstr(err, "does not compile"));
	free(err);

	write_tmp("one.trace", "idlesim-trace v1\ncpus 1\nend 600000\nidle 0 0 500000 timer\n");
	snprintf(args, sizeof(args),
		 "{\"traces\": [\"%s\"], \"machines\": [\"skl\"],"
		 " \"governors\": [\"tests/kgov/toy.c\"]}\n", tmp_path("one.trace"));
	write_tmp("sweep.json", args);
	snprintf(args, sizeof(args), "sweep %s -o %s", tmp_path("sweep.json"),
		 tmp_path("sweep.jsonl"));
	assert_int_equal(run_idlesim(args), 0);
	out = slurp_tmp("sweep.jsonl");
	assert_non_null(strstr(out, "toy@file:toy.c"));
	free(out);
}

static int setup(void **state)
{
	char cache[128];

	(void)state;
	if (tmpdir_make("kgov"))
		return -1;
	/* A cache of our own, so the first build of each file really compiles. */
	snprintf(cache, sizeof(cache), "%s/cache", tmpdir);
	return setenv("XDG_CACHE_HOME", cache, 1);
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

/* ---- fidelity: kernel files against the ports ---- */

#define KSRC IDLESIM_BINARY_DIR "/kernel-src"
#define MAX_SHOWN 6

/*
 * Which port has the logic of which packaged file (docs/kernel-governor-files.md), and the
 * mismatches expected: none while a timer is pending; with none pending (the engine's
 * KTIME_MAX, which a real kernel never reports) the menu ports saturate the corrected sleep
 * length where the kernel's u64 arithmetic wraps (governors/menu-common.h, "Known deviations"), so
 * those decisions differ, in the counts below.
 */
struct pairing {
	const char *release, *file, *port;
	long expect_no_timer; /* mismatches with no timer pending */
	bool guest;	      /* a KVM guest's governor: the kvm machine first (fid_machines_guest) */
};

static const struct pairing pairings[] = {
	{ "6.1", "menu", "menu@6.1", 58574, false },
	{ "6.12", "menu", "menu@6.12", 58535, false },
	{ "6.1", "teo", "teo@5.14", 0, false },
	{ "6.12", "teo", "teo@6.12", 0, false },
	{ "6.1", "ladder", "ladder@6.12", 0, false },
	{ "6.12", "ladder", "ladder@6.12", 0, false },
	{ "6.1", "haltpoll", "haltpoll@6.1", 0, true },
	{ "6.12", "haltpoll", "haltpoll@6.12", 0, true },
};

/* The lockstep governor: the kernel file decides, the port is asked the same question. */
struct tee_cpu {
	struct cpuidle_device shadow; /* the port's view of the device */
	int shadow_last_state_idx;
	bool shadow_poll_time_limit;
	u64 shadow_poll_limit_ns; /* the port's poll window (haltpoll writes it) */
	u64 kern_poll_limit_ns;	  /* the device's window when the kernel file's last call ended */
};

struct mismatch {
	int64_t time_ns;
	int cpu;
	int kstate, pstate;
	bool kstop, pstop, tick_stopped;
	int64_t sleep_ns, latency_ns;
	u64 kwindow, pwindow; /* dev->poll_limit_ns of each */
};

/* The test runs one comparison at a time, single-threaded: the pair is this file's. */
static struct tee {
	const struct cpuidle_governor *kern, *port;
	long long *port_params;
	size_t kern_size, port_off, tee_off;
	long decisions, mismatches;
	long no_timer, tick_was_stopped; /* mismatches with sleep KTIME_MAX; with the tick stopped */
	long stopped_decisions;		 /* decisions made with the tick already stopped */
	struct mismatch shown[MAX_SHOWN];
} tee;

static struct tee_cpu *tee_cpu_of(struct cpuidle_device *dev)
{
	return (struct tee_cpu *)(void *)((unsigned char *)dev->governor_data + tee.tee_off);
}

/* The shadow device: the real one, with the port's own data, history and no log. */
static struct cpuidle_device *shadow_sync(struct cpuidle_device *dev, bool at_select)
{
	struct tee_cpu *t = tee_cpu_of(dev);

	t->shadow = *dev;
	t->shadow.governor_data = tee.port->priv_size ?
		(unsigned char *)dev->governor_data + tee.port_off : NULL;
	t->shadow.gov_params = tee.port_params;
	t->shadow.explain = NULL;
	/* What the governor itself writes between the engine's writes: last_state_idx (the
	 * engine sets it at wakeup, before reflect) and poll_time_limit (set at entry and
	 * wakeup, cleared by reflect). */
	if (at_select) {
		t->shadow.last_state_idx = t->shadow_last_state_idx;
		t->shadow.poll_time_limit = t->shadow_poll_time_limit;
	}
	/* The poll window is the governor's (haltpoll) and the core's: the engine's
	 * cpuidle_poll_time() caches its default there when a POLL entry finds it 0, and would
	 * have done so on the port's device too if the port's window was 0. */
	if (dev->poll_limit_ns != t->kern_poll_limit_ns && !t->shadow_poll_limit_ns)
		t->shadow_poll_limit_ns = dev->poll_limit_ns;
	t->kern_poll_limit_ns = dev->poll_limit_ns;
	t->shadow.poll_limit_ns = t->shadow_poll_limit_ns;
	return &t->shadow;
}

static void shadow_save(struct cpuidle_device *dev)
{
	struct tee_cpu *t = tee_cpu_of(dev);

	t->shadow_last_state_idx = t->shadow.last_state_idx;
	t->shadow_poll_time_limit = t->shadow.poll_time_limit;
	t->shadow_poll_limit_ns = t->shadow.poll_limit_ns;
}

/* After the kernel file's call: the window it left, to tell the engine's changes from it. */
static void kern_done(struct cpuidle_device *dev)
{
	if (tee.port)
		tee_cpu_of(dev)->kern_poll_limit_ns = dev->poll_limit_ns;
}

static int tee_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	if (tee.port) {
		struct cpuidle_device *sh = shadow_sync(dev, false);

		if (tee.port->enable && tee.port->enable(drv, sh))
			return -1;
		shadow_save(dev);
	}
	if (tee.kern->enable && tee.kern->enable(drv, dev))
		return -1;
	kern_done(dev);
	return 0;
}

static int tee_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	bool pstop = true, kstop;
	int pidx = 0, kidx;
	u64 pwin = 0;
	ktime_t delta;
	s64 sleep = cpuidle_env_sleep_length(dev, &delta);

	/* The port first: it must see got_tick before the kernel file's reflect consumed it. */
	if (tee.port) {
		struct cpuidle_device *sh = shadow_sync(dev, true);

		pidx = tee.port->select(drv, sh, &pstop);
		shadow_save(dev);
		pwin = sh->poll_limit_ns;
	}
	kidx = tee.kern->select(drv, dev, stop_tick);
	kern_done(dev);
	kstop = *stop_tick;
	tee.decisions++;
	tee.stopped_decisions += dev->env.tick_stopped;
	if (tee.port && (pidx != kidx || pstop != kstop || pwin != dev->poll_limit_ns)) {
		if (tee.mismatches < MAX_SHOWN) {
			struct mismatch *m = &tee.shown[tee.mismatches];

			m->time_ns = dev->env.now_ns;
			m->cpu = (int)dev->cpu;
			m->kstate = kidx;
			m->pstate = pidx;
			m->kstop = kstop;
			m->pstop = pstop;
			m->tick_stopped = dev->env.tick_stopped;
			m->sleep_ns = sleep;
			m->latency_ns = dev->env.latency_req_ns;
			m->kwindow = dev->poll_limit_ns;
			m->pwindow = pwin;
		}
		tee.mismatches++;
		if (sleep == KTIME_MAX)
			tee.no_timer++;
		else if (dev->env.tick_stopped)
			tee.tick_was_stopped++;
	}
	return kidx;
}

static void tee_reflect(struct cpuidle_device *dev, int index)
{
	if (tee.port && tee.port->reflect) {
		struct cpuidle_device *sh = shadow_sync(dev, false);

		tee.port->reflect(sh, index);
		shadow_save(dev);
	}
	if (tee.kern->reflect)
		tee.kern->reflect(dev, index);
	kern_done(dev);
}

static size_t round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* The tee governor for kern (and port, or NULL). Its data: kern's, port's, the tee's. */
static void tee_setup(struct cpuidle_governor *g, const struct cpuidle_governor *kern,
		      const struct cpuidle_governor *port)
{
	unsigned int i;

	free(tee.port_params);
	memset(&tee, 0, sizeof(tee));
	tee.kern = kern;
	tee.port = port;
	if (port && port->nr_params) {
		tee.port_params = calloc(port->nr_params, sizeof(*tee.port_params));
		assert_non_null(tee.port_params);
		for (i = 0; i < port->nr_params; i++)
			tee.port_params[i] = port->params[i].def;
	}
	/* The kernel file's per-CPU data must be first: per_cpu_ptr() is relative to it. */
	tee.kern_size = round16(kern->priv_size);
	tee.port_off = tee.kern_size;
	tee.tee_off = tee.port_off + round16(port ? port->priv_size : 0);
	memset(g, 0, sizeof(*g));
	g->name = kern->name;
	g->priv_size = tee.tee_off + round16(sizeof(struct tee_cpu));
	g->enable = tee_enable;
	g->select = tee_select;
	g->reflect = tee_reflect;
}

/* The workloads and knobs of the comparison. */
struct fid_case {
	const char *workload, *machine;
	int hz;
	int64_t latency_ns;	/* < 0: none */
	uint32_t disabled;	/* state bits */
	unsigned int no_wake_pct;
	int64_t timer_period_ns;
	unsigned int iowait;
};

static void fid_run(const struct fid_case *c, const struct cpuidle_governor *g)
{
	struct sim_error err = { 0 };
	struct gen_config gc;
	enum gen_workload w = GEN_PERIODIC; /* set by the parse, which is asserted */
	struct gen_stream *gs;
	struct record_source src;
	struct sim_config cfg = { 0 };
	struct run_stats rs;
	struct machine m;

	assert_int_equal(gen_workload_parse(c->workload, &w), 0);
	gen_config_defaults(&gc, w);
	gc.cpus = 2;
	gc.duration_ns = 500000000;
	gc.seed = 7;
	gc.no_wake_pct = c->no_wake_pct;
	gc.timer_period_ns = c->timer_period_ns;
	gc.iowait = c->iowait;
	gc.hz = c->hz;
	gs = gen_open(&gc, &err);
	assert_non_null(gs);
	assert_int_equal(machine_load(c->machine, &m, &err), 0);
	cfg.machine = &m;
	cfg.gov = g;
	cfg.hz = c->hz;
	cfg.latency_req_ns = c->latency_ns;
	cfg.disabled = c->disabled;
	record_source_from_gen(&src, gs);
	if (replay_run(&src, &cfg, &rs, &err)) {
		sim_error_print(stderr, &err);
		fail();
	}
	run_stats_release(&rs);
	gen_close(gs);
}

/* Extract the governors of one linux-source tarball into KSRC/RELEASE, once. */
static int extract(const char *release)
{
	char cmd[1024], stamp[512];
	struct stat st;

	snprintf(stamp, sizeof(stamp), KSRC "/%s/.extracted", release);
	if (!stat(stamp, &st))
		return 0;
	snprintf(cmd, sizeof(cmd),
		 "rm -rf " KSRC "/%s && mkdir -p " KSRC "/%s && tar -xJf /usr/src/linux-source-%s.tar.xz"
		 " -C " KSRC "/%s --strip-components=4 --wildcards"
		 " 'linux-source-%s/drivers/cpuidle/governors/*' && touch %s",
		 release, release, release, release, release, stamp);
	return sh(cmd);
}

/* The workloads and knobs of every comparison (docs/kernel-governor-files.md). */
static const char *const fid_workloads[] = { "periodic", "irq-fixed", "irq-poisson", "mixed" };
static const char *const fid_machines[] = { "skl", "hsx" };
/* A guest's governor (haltpoll): the KVM guest, and skl, where a guest kernel could run it
 * with another driver (cpuidle.governor=haltpoll). */
static const char *const fid_machines_guest[] = { "kvm", "skl" };
static const int fid_hzs[] = { 250, 1000 };
/* knobs: none; PM QoS 20 us; C1E (state 2 on both) disabled; 30 % resched=0 wakeups;
 * a background timer-wheel timer every 3 ms; one task in iowait; resched=0 wakeups with
 * that timer (selects with the tick already stopped and a timer pending) */
static const struct fid_knob {
	int64_t lat;
	uint32_t dis;
	unsigned int nowake;
	int64_t timer;
	unsigned int iowait;
	const char *name;
} fid_knobs[] = {
	{ -1, 0, 0, 0, 0, "default" },
	{ 20000, 0, 0, 0, 0, "latency 20 us" },
	{ -1, 1u << 2, 0, 0, 0, "C1E disabled" },
	{ -1, 0, 30, 0, 0, "30% resched=0" },
	{ -1, 0, 0, 3000000, 0, "3 ms timer" },
	{ -1, 0, 0, 3000000, 1, "iowait 1, 3 ms timer" },
	{ -1, 0, 30, 3000000, 0, "30% resched=0, 3 ms timer" },
	/* guests only (haltpoll: the one limit it tests is 0) */
	{ 0, 0, 0, 0, 0, "latency 0" },
};
#define FID_NR_KNOBS (sizeof(fid_knobs) / sizeof(fid_knobs[0]))
/* On the kvm machine, "C1E disabled" disables its state 1, HLT (it has no state 2). */
#define FID_KVM_DISABLED (1u << 1)

/*
 * The kernel file at `path` in lockstep with `port_name` over the whole matrix; prints the
 * mismatching cases, the first mismatches and a summary line labelled release/file. Returns
 * 0 if there is no mismatch with a timer pending and expect_no_timer (when >= 0) is the count
 * of those without one; else 1.
 */
static int fid_compare(const char *path, const char *release, const char *file,
		       const char *port_name, long expect_no_timer, bool guest)
{
	const char *const *machines = guest ? fid_machines_guest : fid_machines;
	size_t nr_knobs = guest ? FID_NR_KNOBS : FID_NR_KNOBS - 1;
	const struct cpuidle_governor *kern, *port = NULL;
	struct cpuidle_governor teeg;
	long decisions = 0, mismatches = 0, no_timer = 0, stopped = 0, stopped_dec = 0;
	struct mismatch shown[MAX_SHOWN];
	int nshown = 0, i;
	size_t w, m, h, k;

	kern = load_ok(path, NULL);
	if (port_name) {
		port = gov_find(port_name);
		if (!port) {
			printf("FAILED: no governor %s (idlesim governors lists them)\n", port_name);
			return 1;
		}
	}
	for (w = 0; w < 4; w++)
		for (m = 0; m < 2; m++)
			for (h = 0; h < 2; h++)
				for (k = 0; k < nr_knobs; k++) {
					const struct fid_knob *kn = &fid_knobs[k];
					struct fid_case c = { fid_workloads[w], machines[m], fid_hzs[h],
							      kn->lat, kn->dis, kn->nowake, kn->timer,
							      kn->iowait };

					if (kn->dis && !strcmp(c.machine, "kvm"))
						c.disabled = FID_KVM_DISABLED;

					tee_setup(&teeg, kern, port);
					fid_run(&c, &teeg);
					decisions += tee.decisions;
					for (i = 0; i < tee.mismatches && nshown < MAX_SHOWN && i < MAX_SHOWN;
					     i++) {
						shown[nshown] = tee.shown[i];
						if (!i)
							printf("  first mismatch of %s %s HZ %d %s:\n", c.workload,
							       c.machine, c.hz, kn->name);
						nshown++;
					}
					if (tee.mismatches)
						printf("  %s %s HZ %d %s: %ld of %ld\n", c.workload, c.machine,
						       c.hz, kn->name, tee.mismatches, tee.decisions);
					mismatches += tee.mismatches;
					no_timer += tee.no_timer;
					stopped += tee.tick_was_stopped;
					stopped_dec += tee.stopped_decisions;
				}
	for (i = 0; i < nshown; i++)
		printf("    t=%lld cpu%d sleep=%lld tick_stopped=%d lat=%lld: kernel %d/%s window %llu,"
		       " port %d/%s window %llu\n",
		       (long long)shown[i].time_ns, shown[i].cpu, (long long)shown[i].sleep_ns,
		       shown[i].tick_stopped, (long long)shown[i].latency_ns, shown[i].kstate,
		       shown[i].kstop ? "stop" : "keep", (unsigned long long)shown[i].kwindow,
		       shown[i].pstate, shown[i].pstop ? "stop" : "keep",
		       (unsigned long long)shown[i].pwindow);
	printf("%-7s %-7s %-10s %9ld %9ld %8.3f  (no timer %ld, tick stopped %ld of %ld, other %ld)\n",
	       release, file, port_name ? port_name : "(none)", decisions, mismatches,
	       decisions ? 100.0 * (double)(decisions - mismatches) / (double)decisions : 0.0,
	       no_timer, stopped, stopped_dec, mismatches - no_timer - stopped);
	if (port && (mismatches != no_timer || (expect_no_timer >= 0 && no_timer != expect_no_timer))) {
		printf("FAILED: %s %s against %s: %ld mismatches with a timer pending (0 expected),"
		       " %ld without", release, file, port_name, mismatches - no_timer, no_timer);
		if (expect_no_timer >= 0)
			printf(" (%ld expected)", expect_no_timer);
		printf("\n");
		return 1;
	}
	return 0;
}

static void fid_header(void)
{
	printf("%-7s %-7s %-10s %9s %9s %8s\n", "release", "file", "port", "decisions", "mismatch",
	       "agree%");
}

/* `test_kgov fidelity-file PATH.c PORT`: any tree's file against a port (scripts/kgov-check.sh). */
static int kgov_fidelity_file_main(int argc, char **argv)
{
	const char *base;
	int rc;

	if (argc != 2 || !kgov_is_path(argv[0])) {
		printf("usage: test_kgov fidelity-file PATH.c PORT\n");
		return 2;
	}
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	fid_header();
	rc = fid_compare(argv[0], "file", base, argv[1], -1,
			 gov_find(argv[1]) && gov_find(argv[1])->kvm_guest_only);
	free(tee.port_params);
	return rc;
}

static int kgov_fidelity_main(int argc, char **argv)
{
	size_t p;
	int failed = 0;
	char cache[512];

	for (p = 0; p < 2; p++) {
		const char *rel = p ? "6.12" : "6.1";
		char tar[128];
		struct stat st;

		snprintf(tar, sizeof(tar), "/usr/src/linux-source-%s.tar.xz", rel);
		if (stat(tar, &st)) {
			printf("SKIPPED: %s is absent (apt-get install linux-source-6.1 linux-source-6.12;"
			       " scripts/setup.sh does it as root)\n", tar);
			return 77;
		}
		if (extract(rel)) {
			printf("FAILED: cannot extract the governors of %s\n", tar);
			return 1;
		}
	}
	snprintf(cache, sizeof(cache), KSRC "/cache");
	setenv("XDG_CACHE_HOME", cache, 1);
	fid_header();
	for (p = 0; p < sizeof(pairings) / sizeof(pairings[0]); p++) {
		const struct pairing *pr = &pairings[p];
		char path[512];

		if (argc >= 3 && (strcmp(argv[0], pr->release) || strcmp(argv[1], pr->file)))
			continue;
		snprintf(path, sizeof(path), KSRC "/%s/%s.c", pr->release, pr->file);
		if (fid_compare(path, pr->release, pr->file, argc >= 3 ? argv[2] : pr->port,
				argc >= 3 ? -1 : pr->expect_no_timer, pr->guest))
			failed = 1;
	}
	free(tee.port_params);
	return failed;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toy_services_and_percpu),
		cmocka_unit_test(test_toy_threads),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_detect_api),
		cmocka_unit_test(test_us_api),
		cmocka_unit_test(test_sched_topology),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nomem),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_check_sweep),
	};

	if (argc > 1 && !strcmp(argv[1], "fidelity"))
		return kgov_fidelity_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "fidelity-file"))
		return kgov_fidelity_file_main(argc - 2, argv + 2);
	return cmocka_run_group_tests(tests, setup, teardown);
}
