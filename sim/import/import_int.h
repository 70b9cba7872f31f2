/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * import_int.h - private to the kernel-trace importer; not for other modules.
 *
 * The importer is split by job:
 *   sim/import/import.c        opening, the one or two passes, the record source, the converted
 *                       trace and its header;
 *   sim/import/import_scan.c   format detection, and the first pass's bookkeeping;
 *   sim/import/import_lex.c    the line source (plain text, or the trace-data blocks of an HTML
 *                       file), the line lexer of every text dialect, event names;
 *   sim/import/import_event.c  the payload of each event used, into a struct kevent;
 *   sim/import/import_recon.c  events -> idle periods -> idle opportunities, wake causes, pending
 *                       timers and sleep lengths, the records waiting to be written in order;
 *   sim/import/import_census.c the timer census: per CPU and callback, arms, expiries, cancels,
 *                       periods, timeouts, idle periods ended;
 *   sim/import/import_stats.c  what the recording kernel did: usage/time/above/below of its
 *                       choices, the cpu_idle_miss agreement check;
 *   sim/import/import_datcheck.c  the structure of a trace.dat, checked before libtracecmd;
 *   sim/import/import_dat.c    trace.dat through libtracecmd/libtraceevent;
 *   sim/import/import_report.c the summary, as text or JSON.
 */
#ifndef IDLESIM_IMPORT_INT_H
#define IDLESIM_IMPORT_INT_H

#include "governors/governor.h"
#include "sim/base/common.h"
#include "sim/machine/cpuidle_rules.h"
#include "sim/base/eventq.h"
#include "sim/import/import.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define IMP_MAX_LINE (1 << 20)	     /* a line of a text trace may not be longer */
#define IMP_NAME_MAX 63		     /* longest event name */
#define IMP_MAX_NAMES 4096	     /* distinct event names counted one by one */
#define IMP_MAX_WARNINGS 10	     /* --skip-bad-lines messages kept and printed */
#define IMP_MAX_DISAGREEMENTS 100    /* cpu_idle_miss disagreements listed */
#define IMP_EXIT_STATE 4294967295ULL /* PWR_EVENT_EXIT as printed (u32 -1) */
#define IMP_STALE_NS 1000000000LL    /* a timer overdue by this much was lost: forget it */

/* ---- the events used ---- */

enum kev_type {
	KEV_OTHER = 0,	    /* not used: counted and skipped */
	KEV_CPU_IDLE,	    /* v = state, -1 for the exit */
	KEV_CPU_IDLE_MISS,  /* v = state, KF_BELOW */
	KEV_HRTIMER_START,  /* id, a = expires (hrtimer clock), KF_TICK */
	KEV_HRTIMER_CANCEL, /* id */
	KEV_HRTIMER_EXPIRE, /* id, a = now (hrtimer clock), KF_TICK */
	KEV_TIMER_START,    /* id, a = expiry in trace time, v = the timer's CPU or -1 */
	KEV_TIMER_CANCEL,   /* id */
	KEV_TIMER_EXPIRE,   /* id */
	KEV_TICK_STOP,	    /* v = success */
	KEV_IRQ,	    /* irq_handler_entry; KF_TIMER_IRQ for the clock-event interrupt */
	KEV_SOFTIRQ,	    /* softirq_entry */
	KEV_TIMER_IRQ,	    /* x86 local_timer_entry: the clock-event interrupt */
	KEV_IPI_ENTRY,	    /* ipi_entry, x86 reschedule/call_function entries */
	KEV_IPI_RAISE,	    /* ipi_raise, ipi_send_cpu(mask): v = one target CPU */
	KEV_SCHED_SWITCH,   /* KF_NEXT_IDLE: switch to the idle task */
	KEV_SCHED_WAKEUP,   /* v = target CPU */
	KEV_LOST,	    /* not an event: the trace says events of the CPU were lost here */
	KEV_NR
};

#define KF_TICK 1u	/* timer function is the tick (tick_sched_timer, tick_nohz_handler) */
#define KF_BELOW 2u	/* cpu_idle_miss type=below */
#define KF_TIMER_IRQ 4u /* the interrupt of the per-CPU timer (arch_timer, ...) */
#define KF_NEXT_IDLE 8u /* sched_switch to pid 0 */
#define KF_DEFERRABLE 16u /* timer_start: TIMER_DEFERRABLE in flags */
#define KF_PINNED 32u	  /* timer_start: TIMER_PINNED in flags; hrtimer_start: a PINNED mode */

struct kevent {
	int64_t time_ns;
	int64_t a;	    /* see enum kev_type */
	int64_t timeout_ns; /* KEV_TIMER_START: expires - now at arming (jiffies x tick), ns */
	uint64_t id;	    /* timer address as printed */
	long line;	    /* where it was read (0 for trace.dat) */
	int32_t cpu;	    /* the CPU it happened on (cpu_id for cpu_idle and cpu_idle_miss) */
	int32_t v;
	int32_t fn; /* timer events: the callback, a struct fn_table index; 0 = not printed */
	uint8_t type;
	uint8_t flags;
};

/* ---- event names (import_lex.c) ---- */

struct name_entry {
	uint32_t hash;
	uint8_t type; /* enum kev_type */
	uint8_t len;
	char name[IMP_NAME_MAX + 1];
	uint64_t count; /* events read with this name (second pass) */
};

struct name_table {
	struct name_entry *e; /* open addressing; len 0 = empty slot */
	uint32_t cap, n;
	struct name_entry other;   /* names beyond IMP_MAX_NAMES */
	struct name_entry invalid; /* not a name: a malformed line */
};

int names_init(struct name_table *t);
void names_release(struct name_table *t);
/* The entry of a name, inserted at first sight; &t->invalid if it is not a name (its
 * characters are checked then). NULL only when memory is exhausted. */
struct name_entry *names_lookup(struct name_table *t, const char *s, size_t n);

/* ---- line source (import_lex.c) ---- */

struct linesrc {
	int fd;
	char *buf;
	size_t cap, len, pos;
	bool eof;
	bool html;   /* only the text of <script class="trace-data"> blocks */
	int block;   /* html: 0 outside, 1 block opened, 2 text block, 3 other block */
	long lineno; /* of the line returned last */
	long blocks; /* html: text blocks seen */
};

int linesrc_init(struct linesrc *ls, int fd, bool html);
void linesrc_release(struct linesrc *ls);
int linesrc_rewind(struct linesrc *ls);
/*
 * The next line, without its newline (and \r): 1 with *line and *len set, 0 at the end,
 * -1 on a read error (errno set), -2 for a line longer than IMP_MAX_LINE (skipped; lineno
 * names it), -3 when memory is exhausted.
 */
int linesrc_next(struct linesrc *ls, const char **line, size_t *len);

/* ---- the line lexer (import_lex.c) ---- */

enum lex_result {
	LEX_SKIP,  /* blank, comment or header line */
	LEX_EVENT, /* an event line: struct lexed filled */
	LEX_LOST,  /* "CPU:N [LOST M EVENTS]": lost_cpu set */
	LEX_BAD,   /* malformed: bad_col and bad_msg set */
};

struct lexer {
	enum import_format fmt; /* perf needs "sys:event:" names, the others plain names */
	int declared_cpus;	/* from a header line (#P:N, cpus=N, nrcpus avail), 0 = none */
	bool tracecmd_header;	/* cpus= or version = lines */
	bool ftrace_header;	/* # tracer: */
	bool perf_header;	/* # ======== or # nrcpus, or lines only perf script writes
				 * (PERF_RECORD_*, Intel PT's "instruction trace error") */
	int lost_cpu;
	int bad_col;
	char bad_msg[200];
};

struct lexed {
	const char *line;
	size_t len;
	int cpu;
	const char *cpu_at; /* where the CPU number is */
	int64_t time_ns;
	const char *name; /* event name without its system and colon */
	size_t name_len;
	const char *pay; /* payload: the rest of the line */
	size_t pay_len;
	bool sys_name;	 /* the name was "system:event:" (perf) */
	bool period;	 /* perf: a sample's period came before the name ("1 branches:u:") */
	bool padded;	 /* two or more blanks after the name (trace-cmd) */
	bool flags;	 /* a latency-flags column (d..1. etc.) */
	int frac_digits; /* decimals of the timestamp */
};

int lex_line(struct lexer *L, const char *p, size_t n, struct lexed *x);
/* lex_line() is lex_fast(), for the common ftrace line (LEX_EVENT, or -1 when the line has
 * another shape), then lex_line_general() for the lines it leaves; both give the same. */
int lex_fast(const struct lexer *L, const char *p, size_t n, struct lexed *x);
int lex_line_general(struct lexer *L, const char *p, size_t n, struct lexed *x);
/* Column (1-based, in characters) of p within line. */
int lex_col(const char *line, const char *p);
/* The lexer's error, as a message for bad_col. */
int lex_bad(struct lexer *L, const char *line, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---- payloads (import_event.c) ---- */

struct fn_table;

struct payload_ctx {
	struct fn_table *fns;		    /* timer callbacks, interned; NULL: noted in fn_at */
	const char *fn_at;		    /* with fns NULL: the callback's name, fn_len long */
	size_t fn_len;
	int64_t tick_ns;		    /* jiffy length, for timer_list expiries */
	int cpus;			    /* CPUs of the trace, for target CPUs */
	int max_named;			    /* the highest CPU a payload named */
	uint64_t mask[TRACE_MAX_CPUS / 64]; /* ipi_raise targets */
	int nr_targets;
};

/*
 * Parse the payload of an event of a used type into ev (time, cpu and type already set).
 * Returns LEX_EVENT, or LEX_BAD with L->bad_* set. For KEV_IPI_RAISE the targets are left in
 * pc->mask (one event is produced per target).
 */
int lex_payload(struct lexer *L, struct payload_ctx *pc, const struct lexed *x, struct kevent *ev);
bool timer_function_is_tick(const char *s, size_t n);
bool irq_name_is_timer(const char *s, size_t n);

/* ---- format detection and the first pass (import_scan.c) ---- */

#define IMPORT_SNIFF_BYTES (64 * 1024) /* detection reads this much */

/* The format of a trace from its first bytes; *event tells whether an event line was seen
 * (the text dialects can also be told by their header lines alone). */
enum import_format import_sniff(const char *buf, size_t n, bool *event);
/* Up to n bytes from fd (fewer at its end), at its position (at < 0) or at byte `at`;
 * -1 on a read error. */
ssize_t import_read_prefix(int fd, char *buf, size_t n, off_t at);

struct scan_cpu {
	bool has_events;
	bool saw_idle;	      /* a cpu_idle event so far */
	bool saw_switch;      /* a sched_switch so far */
	bool starts_idle;     /* its first cpu_idle event is an exit, with no sched_switch before */
	int64_t tick_expires; /* last tick hrtimer expiry armed (hz inference) */
};

#define HZ_CANDIDATES 6

#define HZ_SAMPLE_EVENTS 100000 /* the tick rate is inferred from this many first events */
#define TICK_PHASE_SAMPLES 64	/* tick expiries the jiffy grid's phase is voted from */

/* A tick expiry on the hrtimer clock (CLOCK_MONOTONIC), and the CPU it is of. */
struct tick_sample {
	int64_t at_ns;
	int32_t cpu;
};

/* The jiffy grid of the converted trace (its header's tick_phase), from the tick expiries
 * among the first HZ_SAMPLE_EVENTS events (scan_tick_phase; docs/import.md). */
struct tick_phase {
	bool set;	      /* a phase was found: tick_phase written */
	int64_t ns;	      /* in [0, TICK_NSEC) */
	const char *from;     /* the events it came from, or why there is none */
	int votes, agree;     /* expiries voted on; those giving the phase chosen */
	int64_t offset_ns;    /* trace time - hrtimer clock, added to the expiry */
	bool offset_measured; /* offset_ns from hrtimer_expire_entry (else 0: none) */
};

struct scan {
	int max_cpu; /* highest CPU seen, -1 = none */
	long events; /* noted so far */
	bool any;    /* an event was seen */
	int64_t first_ns, last_ns, max_ns;
	bool has[KEV_NR];
	uint64_t backwards;			     /* events earlier than one before them */
	uint64_t backwards_cpu[TRACE_MAX_CPUS / 64]; /* CPUs where time went backwards */
	uint64_t hz_votes[HZ_CANDIDATES];
	/* the tick's expiries for the phase: hrtimer_start's expires (on the grid), expire_entry's
	 * now (a little after it), and expire_entry's time - now (the clock offset) */
	struct tick_sample tick_start[TICK_PHASE_SAMPLES], tick_now[TICK_PHASE_SAMPLES];
	int64_t tick_offset[TICK_PHASE_SAMPLES];
	int ntick_start, ntick_now, ntick_offset;
	struct scan_cpu *cpu; /* TRACE_MAX_CPUS */
};

int scan_init(struct scan *s);
void scan_release(struct scan *s);
/* Note one event of the first pass: times, order, event groups, CPUs, and the prologue. */
void scan_note(struct scan *s, int cpu, int64_t t, enum kev_type type, int64_t v);
/* The order-dependent part alone, again in feed order once sorted (after scan_reorder). */
void scan_prologue(struct scan *s, int cpu, enum kev_type type, int64_t v);
void scan_reorder(struct scan *s);
/* A tick hrtimer_start (expires) or hrtimer_expire_entry (now, -1 if not printed, at t). */
void scan_note_tick(struct scan *s, int cpu, int64_t expires);
void scan_note_tick_expiry(struct scan *s, int cpu, int64_t t, int64_t now);
int scan_hz(const struct scan *s); /* inferred tick rate, 0 = unknown */
/* The phase of the jiffy grid of TICK_NSEC tick_ns (0: HZ unknown) from the expiries noted. */
void scan_tick_phase(const struct scan *s, int64_t tick_ns, struct tick_phase *out);

/* The kinds of pending timers: hrtimer_* events and timer_* (timer-wheel) events. */
enum { TM_HRTIMER = 0, TM_WHEEL = 1 };

/* ---- the timer census (import_census.c) ---- */

#define IMP_MAX_FUNCTIONS 4096	  /* distinct timer callbacks named one by one */
#define CENSUS_SAMPLES 64	  /* values a median is taken over (a uniform sample beyond) */
#define CENSUS_MAX_TIMERS (1 << 20) /* timers whose callback is remembered, for their cancels */

enum { FN_UNKNOWN = 0, FN_OTHER = 1 }; /* fn_table indices of "(unknown)" and "(other)" */

/* Timer callbacks by name, each with a stable index. */
struct fn_table {
	char **name; /* by index */
	uint32_t n, capn;
	int32_t *hash; /* open addressing, -1 empty */
	uint32_t caph;
};

int fn_init(struct fn_table *t);
void fn_release(struct fn_table *t);
/* The index of callback s[0..n): FN_OTHER beyond IMP_MAX_FUNCTIONS or out of memory. */
int32_t fn_intern(struct fn_table *t, const char *s, size_t n);
const char *fn_name(const struct fn_table *t, int32_t i);

/* The values a median is taken over: every one up to CENSUS_SAMPLES, then a uniform sample
 * of that many (reservoir sampling with a generator of its own: the same trace gives the
 * same sample). */
struct sample_set {
	int64_t *v;
	size_t n, cap;
	uint64_t seen, rng;
};

struct census_row {
	int32_t cpu; /* -1: the machine-wide total of the callback */
	int32_t fn;
	uint8_t kind; /* TM_HRTIMER, TM_WHEEL */
	bool deferrable, pinned;
	uint64_t armed, expired, cancelled, rearmed, idle_ended;
	int64_t last_arm_ns, last_expiry_ns; /* -1: none yet */
	struct sample_set period, arm_gap, timeout;
};

struct census_timer {
	uint64_t id;
	int32_t fn;
	uint8_t kind, used, flags;
};

struct census_cpu {
	bool cancel_pending; /* a cancel waits: the CPU's next timer event may re-arm it */
	uint8_t kind;
	uint64_t id;
	int32_t row;
};

struct census {
	struct fn_table *fns;
	int cpus;
	uint64_t events;
	struct census_row *row;
	size_t nrow, caprow;
	int32_t *rowhash; /* open addressing, -1 empty */
	uint32_t caprowhash;
	struct census_timer *tm; /* open addressing by (kind, id) */
	uint32_t captm, ntm;
	uint64_t unremembered; /* timers beyond CENSUS_MAX_TIMERS */
	struct census_cpu *cpu;
};

int census_init(struct census *C, struct fn_table *fns, int cpus);
void census_release(struct census *C);
/*
 * A timer event (start, cancel, expiry) of `kind`; `timeout_ns`: for a start, expires - now
 * (-1 unknown). *fn: the callback it was counted under. Returns -1 when memory is exhausted.
 */
int census_event(struct census *C, const struct kevent *ev, unsigned kind, int64_t timeout_ns,
		 int32_t *fn);
/* The expiry of callback fn (of kind) ended an idle period of cpu. */
int census_idle_ended(struct census *C, int cpu, unsigned kind, int32_t fn);
/* The end of the trace: cancels still waiting count as cancels. */
int census_finish(struct census *C);
/* The lower median of the values kept (the (n+1)/2-th smallest), -1 if none. */
int64_t sample_median(const struct sample_set *s);

/* ---- reconstruction (import_recon.c) ---- */

enum icause { IC_TICK, IC_TIMER, IC_IRQ, IC_IPI, IC_UNKNOWN, IC_NR };
const char *icause_name(enum icause c);

enum unpaired_reason {
	UNP_START,	   /* exit first: the CPU was idle when the trace started */
	UNP_EXIT_NO_ENTRY, /* exit with no entry before it */
	UNP_DOUBLE_ENTRY,  /* entry followed by another entry */
	UNP_TASK,	   /* a task ran between entry and exit */
	UNP_LOST,	   /* the trace says events were lost */
	UNP_END,	   /* entry at the end of the trace */
	UNP_NR
};
const char *unpaired_reason_name(enum unpaired_reason r);
bool unpaired_is_entry(enum unpaired_reason r);

/* A pending timer noted at the start of an opportunity. */
struct snap_timer {
	int64_t expiry_ns;
	bool wheel;
};

struct rtimer {
	uint64_t id;
	int64_t expiry_ns; /* trace time */
	int32_t cpu;
	int32_t hnext;	      /* hash chain */
	int32_t cprev, cnext; /* the CPU's list */
	uint8_t kind;	      /* TM_HRTIMER, TM_WHEEL (timer_list) */
	uint8_t tick;
	uint8_t used;
};

struct rcpu_stats {
	uint64_t periods;	  /* complete entry -> exit pairs */
	uint64_t opportunities;	  /* records written, after merging (not counting the two below) */
	uint64_t truncated;	  /* idle until the end of the trace: records cut by `end` */
	uint64_t started_idle;	  /* idle when the trace began: records up to the first exit */
	uint64_t idle_throughout; /* CPUs without events: idle for the whole trace */
	uint64_t merged;	  /* periods merged into the one before (no task ran between) */
	uint64_t zero_length, with_next_timer;
	uint64_t hrtimer_first; /* opportunities whose next timer is an hrtimer */
	uint64_t causes[IC_NR], period_causes[IC_NR];
	uint64_t unpaired[UNP_NR];
	uint64_t tick_stop_ok, tick_stop_fail;
	uint64_t outside; /* entries of a state beyond the machine table */
	struct cpuidle_state_usage su[CPUIDLE_STATE_MAX];
};

/* RS_FRESH (one pass): no idle event and no task switch yet; may be idle since the start */
enum rstate { RS_NONE, RS_RUNNING, RS_IDLE, RS_EXITED, RS_FINAL, RS_FRESH };

struct rcpu {
	enum rstate st;
	bool any_event; /* an event (used or not) on this CPU */
	int state;	/* entered state (-1: unknown, idle since the trace began) */
	int64_t entry_ns, exit_ns;
	/* the opportunity under construction */
	bool run_open, run_has_wake;
	bool run_started_idle; /* it began with the trace: it ends at the first exit */
	int64_t run_start, run_wake;
	int64_t run_wake_entry; /* the entry of the period that ended at run_wake */
	int run_periods;
	enum icause run_cause; /* what ended its last period */
	bool run_cause_hr;     /* and it was an hrtimer's expiry */
	bool run_cause_grid;   /* or the tick's or a timer-wheel timer's: fired on a jiffy edge */
	/* what ended the current period */
	bool cause_final, timer_irq, remote;
	bool cause_hr;	    /* cause IC_TIMER from an hrtimer (not a timer-wheel timer) */
	bool cause_grid;    /* cause from the tick's expiry or a timer_expire_entry */
	int32_t cause_fn;   /* the callback of the expiry that decided the cause, -1 none */
	uint8_t cause_kind; /* and its kind */
	enum icause cause;
	/* recorded-governor verdict waiting for a cpu_idle_miss */
	bool verdict_pending;
	int v_state;
	int64_t v_time, v_diff;
	enum cpuidle_verdict v;
	int kernel_v; /* -1 none yet */
	/* timers pending at the start of the opportunity (non-tick), for its sleep length */
	struct snap_timer *snap;
	size_t nsnap, capsnap;
	int32_t timers; /* head of its pending timers */
	struct rcpu_stats s;
	/* for import_hooks: a task ran since the last exit, a tick_stop since then, a tick
	 * expiry during the current entry, and whether its entry was passed on */
	bool ran_task, tick_stop_seen, got_tick, hooked;
	bool stopped_after_last; /* tick_stop_seen as the last entry left it */
	/* the exit waiting for reflect: passed on at the CPU's next entry, task switch or the
	 * end, so that the tick's expiry the interrupt runs after the exit event is seen */
	bool exit_pending;
	int64_t pend_entry_ns, pend_exit_ns;
	int pend_state;
};

struct miss_disagreement {
	int cpu, state;
	int64_t time_ns, residency_ns;
	int kernel, ours; /* enum cpuidle_verdict; -1 = kernel counted nothing */
};

struct miss_check {
	uint64_t events, above, below;
	uint64_t compared, agree, disagree, unmatched;
	struct miss_disagreement list[IMP_MAX_DISAGREEMENTS];
	int nlist;
};

struct out_rec {
	int64_t start_ns, length_ns, next_timer_ns;
	int64_t next_wheel_ns; /* with hr: the earliest timer-wheel timer, -1 none */
	int32_t cpu;
	uint8_t cause;
	bool hr; /* the next timer (for cause timer: the one that woke) is an hrtimer */
};

/* A CPU's finished opportunities waiting to be written: a ring, cap a power of two. */
struct rfifo {
	struct out_rec *r;
	uint32_t head, n, cap;
};

/*
 * The jiffy grid of the converted trace (its header's tick_phase): edges at phase_ns +
 * k * tick_ns; tick_ns 0 when none is known. A record woken by the tick or a timer-wheel
 * timer ends at the last edge at or before its exit when that is less than half a jiffy
 * back and after the entry of the idle period it ended (docs/import.md, "The jiffy grid");
 * the counts say how it went.
 */
struct recon_grid {
	int64_t phase_ns, tick_ns;
	uint64_t moved;		       /* records ended at their edge */
	int64_t max_move_ns;	       /* the largest move back */
	uint64_t past_half;	       /* left: half a jiffy or more after the edge */
	uint64_t edge_not_after_start; /* left: the edge is not after that period's entry */
};

struct recon {
	int cpus;
	bool started;
	int64_t start_ns, end_ns; /* of the trace: first event, latest event */
	int64_t now_ns;		  /* feed time */
	bool merge;		  /* sched_switch recorded: wakeups that ran no task are merged */
	bool idle_events;	  /* the trace has cpu_idle events */
	const struct scan *prologue; /* two passes: what the first pass learned; NULL: one pass */
	struct rcpu *cpu;
	/* pending timers */
	struct rtimer *tm;
	int32_t *hash;
	uint32_t tm_cap, hash_cap, tm_n;
	int32_t tm_free;
	int64_t clock_offset; /* trace time - hrtimer clock, from tick expiries */
	bool have_offset;
	uint64_t stale_timers;
	/* finished opportunities: a queue per CPU in start order, the CPUs' first ones in a
	 * winner tree by (start, cpu) (leaves >= 2, a power of two; key INT64_MAX: none), and
	 * who may still add earlier ones; nwaiting counts them all */
	struct rfifo *fifo;
	int64_t *head_ns;
	uint32_t *win, leaves, nfifo;
	size_t nwaiting, maxwaiting;
	struct eventq *open; /* CPUs with an open opportunity, by its start */
	struct out_rec *pro; /* one pass: records starting at the trace's start, written first */
	size_t npro, cappro;
	bool finished;
	long written;
	/* recorded governor */
	const struct machine *machine;
	struct cpuidle_driver drv;
	uint32_t disabled;
	struct miss_check miss;
	uint64_t remote_wakes;
	struct census census;
	struct recon_grid grid;
	const struct import_hooks *hooks;
	bool timers_known, tick_stop_known;
};

/*
 * Two passes: `s` is what the first pass learned (CPUs idle when the trace began, or with no
 * event), and records come out in (start, CPU) order from the first. One pass (s NULL): CPUs
 * start fresh; records from the trace's start are kept apart (recon_prologue) and written
 * before the others once the trace is read. Both give the same records in the same order.
 * `merge`: the trace records sched_switch. `phase`: the jiffy grid of TICK_NSEC tick_ns that
 * tick and timer-wheel wakeups end on (not set: they end at the recorded exit).
 */
int recon_init(struct recon *R, const struct scan *s, int cpus, const struct import_options *o,
	       bool merge, struct fn_table *fns, const struct tick_phase *phase, int64_t tick_ns);
void recon_release(struct recon *R);
void recon_seen(struct recon *R, int cpu, int64_t t);
int recon_event(struct recon *R, const struct kevent *ev);
int recon_lost(struct recon *R, int cpu, int64_t t);
int recon_finish(struct recon *R);
/* The next record that may be written: 1 with *rec, 0 if none yet. */
int recon_pop(struct recon *R, struct trace_record *rec);
/* One pass, after recon_finish: the i-th record from the trace's start; 0 past the last. */
int recon_prologue(struct recon *R, size_t i, struct trace_record *rec);
void recon_total(const struct recon *R, struct rcpu_stats *sum);

/* ---- recorded governor (import_stats.c) ---- */

void stats_period(struct recon *R, struct rcpu *c, int cpu, int64_t entry, int64_t diff);
void stats_miss_event(struct recon *R, struct rcpu *c, const struct kevent *ev);
void stats_settle(struct recon *R, struct rcpu *c, int cpu);

/* ---- trace.dat: its structure (import_datcheck.c) and libtracecmd (import_dat.c) ---- */

/* A text of the metadata that libtraceevent parses, where it is in the file. */
enum dat_text_kind {
	DAT_HEADER_PAGE,
	DAT_FTRACE_FORMAT,
	DAT_EVENT_FORMAT, /* sys_at: its system's name */
	DAT_KALLSYMS,
	DAT_PRINTK,
	DAT_CMDLINES,
};

struct dat_text {
	uint64_t at, size, sys_at;
	enum dat_text_kind kind;
};

/* What dat_check learned about a sound trace.dat. */
struct dat_layout {
	int version;		/* 6 or 7 */
	bool big;		/* big-endian */
	int long_size;		/* the header's: 4 or 8 */
	int data_cpus;		/* CPUs libtracecmd holds data for: the header's count (6), the
				 * top BUFFER option's highest CPU id + 1 (7) */
	bool compressed;	/* content left unchecked: compressed sections or CPU data */
	uint64_t compressed_at; /* the first such section or CPU data, for messages */
	uint64_t inflated;	/* the CPU data's uncompressed bytes, by its chunk headers */
	struct dat_text *text;	/* the uncompressed metadata texts, in reading order */
	size_t ntext, captext;
};

void dat_layout_release(struct dat_layout *lay);

/*
 * Check the file at `path` as trace-cmd's trace.dat, version 6 or 7, before libtracecmd
 * reads it: 0 with *lay, or -1 with "trace.dat damaged: WHAT (offset N)" (or why it cannot
 * be read) in err. `name` is the file's name in messages.
 */
int dat_check(const char *path, const char *name, struct dat_layout *lay, struct sim_error *err);


struct datsrc;

struct dat_event {
	int cpu;
	int64_t time_ns;
	const char *name;
	size_t name_len;
	long long missed; /* events lost on this CPU before this one; < 0 unknown number */
};

/* Open the trace.dat at path; `name` is the file's name in messages. */
struct datsrc *dat_open(const char *path, const char *name, struct sim_error *err);
void dat_close(struct datsrc *d);
int dat_cpus(const struct datsrc *d);
int dat_rewind(struct datsrc *d, struct sim_error *err);
/* The next event in time order: 1, 0 at the end, -1 with err set. */
int dat_next(struct datsrc *d, struct dat_event *e, struct sim_error *err);
/*
 * The payload of the event returned last as a struct kevent of type `type`. Returns 0, or -1
 * when a field is missing (the summary counts it as a bad event).
 */
int dat_payload(struct datsrc *d, struct payload_ctx *pc, struct kevent *ev);

/* ---- the importer (import.c), for the summary ---- */

struct import_totals {
	uint64_t lines, events, used, skipped, bad_lines, lost_lines, lost_events;
	uint64_t sorted_events; /* used events held in memory to sort them */
};

/*
 * The importer. Two ways through a trace: two passes (import_open, for a record source, whose
 * header must come first), or one pass (the converted file, whose header is written last),
 * which falls back to two passes when the trace holds a surprise (see sim/import/import.c).
 */
struct importer {
	char name[256];
	struct import_options opt;
	enum import_format fmt;
	bool fmt_forced;
	bool one_pass;	 /* this reading is the single pass of import_convert() */
	bool two_passes; /* pass 1 ran: header known before the records */
	int cpus;
	const char *cpus_from;
	int hz;
	const char *hz_from;
	struct tick_phase phase; /* the header's tick_phase and where it came from */
	struct trace_header hdr;
	struct sim_error err;

	int fd;
	struct linesrc ls;
	struct datsrc *dat;
	struct lexer lx;
	struct payload_ctx pc;
	struct name_table names;
	struct fn_table fns; /* timer callbacks */
	struct scan scan;
	struct recon R;
	bool recon_ready;
	struct import_totals t;
	bool has[KEV_NR]; /* event types read in the second (or only) pass */
	int64_t last_ns;  /* time of the last event line (for lost-events markers) */
	int64_t max_ns;	  /* one pass: the latest time so far, to see time going backwards */
	int max_cpu;	  /* one pass: the highest CPU of an event line */
	bool restart;	  /* one pass: a surprise, read again in two passes */
	const char *restart_why;
	bool sorted, done;
	struct kevent *evs; /* sorted mode: every used event */
	size_t nev, capev, iev;
	struct par *par; /* --jobs: the parse threads of this reading, NULL: none */
	char warnings[IMP_MAX_WARNINGS][320];
	int nwarnings;
	char assumption[200];
};

/* ---- the parallel parse of a text trace (import_par.c) ---- */

/* One text line, one event line past its lexing, one line too long (im->ls.lineno), as
 * the reading of a text trace meets them (import.c): 0, or -1 with err set (or im->restart). */
struct par_feed {
	int (*line)(struct importer *im, const char *line, size_t len, bool pass2,
		    struct sim_error *err);
	int (*event)(struct importer *im, struct name_entry *ne, struct kevent *ev, bool pass2,
		     struct sim_error *err);
	int (*long_line)(struct importer *im, bool pass2, struct sim_error *err);
};

/* Start the parse threads at the start of the file (nothing when it is not a regular
 * file, or cannot be sized): -1 when memory or threads are lacking. */
int par_start(struct importer *im, const struct par_feed *feed);
/* Stop them (nothing when none run). */
void par_stop(struct importer *im);
/* The next line or event, as text_step gives it: 1, 0 at the end, -1 with err set. */
int par_step(struct importer *im, bool pass2, struct sim_error *err);

#endif
