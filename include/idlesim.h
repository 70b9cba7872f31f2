/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlesim.h - libidlesim, the simulator of the Linux cpuidle governors as a library.
 *
 * What `idlesim run` does, for a program: load a machine (a built-in name or a JSON table),
 * open a trace (idlesim's native format, or any kernel trace `idlesim import` reads), run a
 * governor on them with the run's knobs, and read the statistics and the decision log.
 * docs/library.md has an example and the ABI policy.
 *
 * Rules shared by every function:
 *  - every type is opaque except the small structs below, which the library fills;
 *  - time is int64_t nanoseconds; INT64_MAX stands for "never" / "none";
 *  - a function that can fail takes an idlesim_error * (NULL allowed) and returns NULL or -1
 *    on failure; the first error recorded in a struct wins, so clear it (= {0}) between
 *    unrelated calls;
 *  - there is no global mutable state: objects are independent, and a machine, trace or
 *    options object may be shared read-only by threads running simulations at the same time.
 *    The library never changes jansson's allocator or any other process-wide setting.
 *
 * C11 (C99 works too); the header defines nothing without the idlesim_ / IDLESIM_ prefix.
 */
#ifndef IDLESIM_H
#define IDLESIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define IDLESIM_API __attribute__((visibility("default")))
#else
#define IDLESIM_API
#endif

/* The release this header belongs to; idlesim_version() is the library's. */
#define IDLESIM_VERSION_MAJOR 0
#define IDLESIM_VERSION_MINOR 1
#define IDLESIM_VERSION_PATCH 0

IDLESIM_API const char *idlesim_version(void);

/* ---- errors ---- */

enum idlesim_error_code {
	IDLESIM_OK = 0,
	IDLESIM_ERR_INPUT,    /* bad input or bad option: the caller can fix it */
	IDLESIM_ERR_NOMEM,    /* out of memory */
	IDLESIM_ERR_IO,	      /* a file could not be read */
	IDLESIM_ERR_INTERNAL, /* a bug in idlesim */
};

typedef struct idlesim_error {
	enum idlesim_error_code code;
	char file[256];	   /* the input at fault: a path, a name given by the caller, or "" */
	int line;	   /* 1-based, 0 if unknown */
	int column;	   /* 1-based, 0 if unknown */
	char message[320];
} idlesim_error;

/* "FILE:LINE:COLUMN: MESSAGE" (the parts known) into buf; returns buf. */
IDLESIM_API char *idlesim_error_string(const idlesim_error *err, char *buf, size_t size);

/* ---- machines ---- */

typedef struct idlesim_machine idlesim_machine;

/* The built-in machines ("hsx", "bdx", "skl", ...); NULL past the end. */
IDLESIM_API const char *idlesim_machine_builtin_name(unsigned int i);

/* A built-in name (case-insensitive), or a path to a JSON machine file (anything with a '/'
 * or ending in ".json"). */
IDLESIM_API idlesim_machine *idlesim_machine_load(const char *name_or_path, idlesim_error *err);
/* A JSON machine held in memory; `name` names it in error messages. */
IDLESIM_API idlesim_machine *idlesim_machine_from_json(const char *json, const char *name,
							 idlesim_error *err);
IDLESIM_API void idlesim_machine_free(idlesim_machine *m);

IDLESIM_API const char *idlesim_machine_name(const idlesim_machine *m);
IDLESIM_API int idlesim_machine_cpus(const idlesim_machine *m);
IDLESIM_API int idlesim_machine_state_count(const idlesim_machine *m);
/* NULL and -1 for a state out of range. */
IDLESIM_API const char *idlesim_machine_state_name(const idlesim_machine *m, int state);
IDLESIM_API int64_t idlesim_machine_exit_latency_ns(const idlesim_machine *m, int state);
IDLESIM_API int64_t idlesim_machine_target_residency_ns(const idlesim_machine *m, int state);

/* ---- traces ---- */

typedef struct idlesim_trace idlesim_trace;

/*
 * A trace file: native (text, JSON or binary), or a kernel trace in any format `idlesim
 * import` reads (ftrace, trace-cmd report, perf script, systrace, trace.dat if built in),
 * told apart by its first bytes. Opening reads the header (a kernel trace: the whole first
 * pass); every run reads the file again, so it must stay in place while the object lives
 * ("-", standard input, is refused for that reason).
 */
IDLESIM_API idlesim_trace *idlesim_trace_open(const char *path, idlesim_error *err);
/* A native trace held in memory (copied); `name` names it in messages. */
IDLESIM_API idlesim_trace *idlesim_trace_from_string(const char *text, const char *name,
						      idlesim_error *err);
IDLESIM_API void idlesim_trace_free(idlesim_trace *t);

IDLESIM_API const char *idlesim_trace_name(const idlesim_trace *t);
IDLESIM_API int idlesim_trace_cpus(const idlesim_trace *t);
/* The tick rate the trace was recorded at, 0 if it does not say. */
IDLESIM_API int idlesim_trace_hz(const idlesim_trace *t);
/*
 * How many times the references of regret (oracle, oracle-energy) were run for this trace
 * object: each run needs them for its configuration (machine, HZ, latency limit, disabled
 * states, wake model and seed), computes them the first time in its own pass, and later
 * runs of any governor under that configuration reuse them (from any thread).
 */
IDLESIM_API unsigned long idlesim_trace_reference_runs(const idlesim_trace *t);

/* ---- governors ---- */

/* Every governor: "oracle", "menu@6.19", ...; NULL past the end. */
IDLESIM_API const char *idlesim_governor_name(unsigned int i);
/* The full name a name selects ("menu" -> the newest menu, "menu@6.19"), NULL if none. */
IDLESIM_API const char *idlesim_governor_resolve(const char *name);
/* Tunable i of a governor (what idlesim_options_set_tunable sets): 0, or -1 past the end
 * or for an unknown governor. Any output pointer may be NULL. */
IDLESIM_API int idlesim_governor_tunable(const char *governor, unsigned int i, const char **name,
					 long long *def, long long *min, long long *max);

/* ---- the knobs of a run (idlesim run's options) ---- */

typedef struct idlesim_options idlesim_options;

/* The defaults: the trace's HZ (else 250), no latency limit, the machine's default
 * states, the kernels' tunables, the `typical` wake-latency model, no decision log. */
IDLESIM_API idlesim_options *idlesim_options_new(void);
IDLESIM_API void idlesim_options_free(idlesim_options *o);

/* --hz: 1..10000, or 0 for the trace's. */
IDLESIM_API int idlesim_options_set_hz(idlesim_options *o, int hz, idlesim_error *err);
/* --latency-limit-us, in ns: 0..2e15, or negative for no PM QoS request. */
IDLESIM_API int idlesim_options_set_latency_limit_ns(idlesim_options *o, int64_t ns,
						     idlesim_error *err);
/* --disable / --enable STATE: a name or an index, checked against the machine at run time. */
IDLESIM_API int idlesim_options_disable_state(idlesim_options *o, const char *state,
					      idlesim_error *err);
IDLESIM_API int idlesim_options_enable_state(idlesim_options *o, const char *state,
					     idlesim_error *err);
/* --set FAMILY.NAME=VALUE (checked at run time, like the command line does). */
IDLESIM_API int idlesim_options_set_tunable(idlesim_options *o, const char *family,
					    const char *name, long long value, idlesim_error *err);
/* --wake-latency: "worst", "typical" or "measured". */
IDLESIM_API int idlesim_options_set_wake_model(idlesim_options *o, const char *model,
					       idlesim_error *err);
/* The seed of the `measured` model's samples (default 1). */
IDLESIM_API void idlesim_options_set_wake_seed(idlesim_options *o, uint64_t seed);
/* --explain N: decisions to keep: 0 none (the default), N > 0 the first N, < 0 all. */
IDLESIM_API void idlesim_options_set_decision_log(idlesim_options *o, long limit);

/* ---- running ---- */

typedef struct idlesim_result idlesim_result;

/*
 * Replay trace t on machine m through one governor (a name idlesim_governor_resolve
 * accepts), with options o (NULL: the defaults). The references run first on the same
 * input, for the regret (docs/regret.md). Returns NULL with err set on failure (bad
 * records are reported with the trace's file, line and column).
 */
IDLESIM_API idlesim_result *idlesim_run(const idlesim_machine *m, const idlesim_trace *t,
					const char *governor, const idlesim_options *o,
					idlesim_error *err);
IDLESIM_API void idlesim_result_free(idlesim_result *r);

IDLESIM_API const char *idlesim_result_governor(const idlesim_result *r);
IDLESIM_API int idlesim_result_cpus(const idlesim_result *r);
IDLESIM_API int idlesim_result_hz(const idlesim_result *r);
IDLESIM_API int idlesim_result_state_count(const idlesim_result *r);
IDLESIM_API const char *idlesim_result_state_name(const idlesim_result *r, int state);

/* Why an idle entry ended. */
enum idlesim_wake_cause {
	IDLESIM_WAKE_TIMER,
	IDLESIM_WAKE_IRQ,
	IDLESIM_WAKE_IPI,
	IDLESIM_WAKE_TICK, /* the tick, with no work: the governor is asked again */
	IDLESIM_WAKE_POLL, /* the POLL time limit */
	IDLESIM_WAKE_NR
};

/* The kernel's per-state counters (sysfs cpuidle/stateN/usage, time, above, below). */
struct idlesim_state_stats {
	uint64_t usage;
	int64_t time_ns;
	uint64_t above; /* too deep: the idle period was shorter than the target residency */
	uint64_t below; /* too shallow: a deeper state would have fitted */
	int disabled;	/* the state was disabled in the run */
};

/* State `state` of CPU `cpu` (-1: summed over the CPUs). 0, or -1 if out of range. */
IDLESIM_API int idlesim_result_state(const idlesim_result *r, int cpu, int state,
				     struct idlesim_state_stats *out);

struct idlesim_summary {
	int64_t start_ns, end_ns;
	uint64_t idle_entries, above, below, hits; /* hits = entries - above - below */
	double above_pct, below_pct, hits_pct;	   /* of idle_entries */
	double busy_pct;			   /* of cpus x duration */
	uint64_t wakeups[IDLESIM_WAKE_NR];	   /* idle entries ended, by cause */
	/* wake latency: irq and ipi wakeups to the CPU running, nearest-rank percentiles */
	uint64_t lat_samples;
	double lat_mean_ns;
	int64_t lat_p50_ns, lat_p99_ns, lat_max_ns;
	/* the whole machine's, whatever `cpu` is (energy is not split by CPU) */
	double energy_j, idle_energy_j, transition_energy_j, package_energy_j, avg_power_w;
	int has_regret; /* energy minus oracle-energy's, latency minus oracle's (docs/regret.md) */
	double regret_energy_j, regret_energy_pct, regret_package_j, regret_lat_mean_ns;
};

/* The numbers of CPU `cpu` (-1: all of them). 0, or -1 if out of range. */
IDLESIM_API int idlesim_result_summary(const idlesim_result *r, int cpu,
				       struct idlesim_summary *out);

/* One decision of the log (idlesim_options_set_decision_log). */
struct idlesim_decision {
	int64_t time_ns; /* select() */
	int cpu;
	int state;		 /* the governor's choice */
	int stop_tick;		 /* what the governor asked */
	int tick_stopped_before, tick_stopped_after;
	int64_t sleep_length_ns; /* tick_nohz_get_sleep_length(); INT64_MAX: no timer */
	int64_t delta_tick_ns;
	int64_t latency_req_ns;
	int64_t oracle_idle_ns;	 /* the true time to the wakeup; INT64_MAX beyond lookahead */
	int64_t wake_ns;
	enum idlesim_wake_cause cause;
	int64_t residency_ns;	 /* as cpuidle_enter_state() measures it */
	int verdict;		 /* 0 hit, 1 above (too deep), 2 below (too shallow) */
	int first;		 /* the first decision of an idle period */
	int nr_vars;		 /* the governor's own variables: idlesim_result_decision_var */
};

IDLESIM_API size_t idlesim_result_decision_count(const idlesim_result *r);
IDLESIM_API int idlesim_result_decision(const idlesim_result *r, size_t i,
					struct idlesim_decision *out);
/* Variable j of decision i: its key, and a string (*str non-NULL) or a number (*val). The
 * strings live as long as the result. 0, or -1 if out of range. */
IDLESIM_API int idlesim_result_decision_var(const idlesim_result *r, size_t i, int j,
					    const char **key, const char **str, long long *val);

/* The run's configuration record (the "config" object of `idlesim run -f json`, schema in
 * docs/scores.md: governor, tunables, HZ, latency limit, disabled states, wake-latency model,
 * machine and trace with their hashes) as one line of JSON; free it with idlesim_free().
 * NULL only when memory runs out. */
IDLESIM_API char *idlesim_result_config_json(const idlesim_result *r);
/* Frees what the library returned to be freed (idlesim_result_config_json). NULL is ignored. */
IDLESIM_API void idlesim_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
