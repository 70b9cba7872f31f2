// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_opt.c - the option layer of the command line: how every command reads its arguments.
 *
 * Each command parses its own options with the small re-entrant parser here (--name VALUE,
 * --name=VALUE, -o VALUE, flags), so tests can call idlesim_main() many times in one
 * process; the number and list checks word their errors alike for every command. The run
 * knobs (--hz, --latency-limit-us, --disable, --enable, --topology, --wake-latency, --set)
 * are one ladder, run_knob_opt(), which run, report and compare all take.
 */
#include "sim/cli/cli_opt.h"
#include "sim/base/common.h"
#include "sim/engine/govguard.h"
#include "sim/workload/workloads.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- argument scanning ---- */

/*
 * Whether the loop over argv goes on: arguments left and no error yet. Takes a "--" that
 * ends the options (once) here, so every subcommand's loop accepts it the same way.
 */
bool more(struct args *a)
{
	if (a->err->code != SIM_OK)
		return false;
	if (!a->operands_only && a->i < a->argc && !strcmp(a->argv[a->i], "--")) {
		a->operands_only = true;
		a->i++;
	}
	return a->i < a->argc;
}

/* Whether argv[a->i] is an operand (a file name, "-" for stdin) rather than an option. */
bool operand(const struct args *a)
{
	const char *s = a->argv[a->i];

	return a->operands_only || s[0] != '-' || !strcmp(s, "-");
}

/*
 * If argv[i] is option `name` (with its short form `sname`, may be NULL), take it: for
 * options with a value, *val receives the value of "--name=VALUE", "--name VALUE",
 * "-sVALUE" or "-s VALUE", the forms getopt_long accepts. Short options bundle as with
 * getopt: after a flag, the next letter is another option (-vv, -vj4 = -v -j4, -vo F =
 * -v -o F); a->pos keeps the place in the cluster. (getopt_long itself keeps global
 * state, and tests call idlesim_main() many times in one process.)
 */
/* An option's value may not be empty: no option takes "" (a file, a number, a name). */
static bool empty_value(struct args *a, const char *as_given, const char *val)
{
	if (*val)
		return false;
	sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s %s: the value is empty", a->cmd,
		      as_given);
	a->i = a->argc;
	return true;
}

bool opt(struct args *a, const char *name, const char *sname, const char **val)
{
	const char *s = a->argv[a->i];
	size_t n = strlen(name), at = a->pos ? a->pos : 1;
	bool short_form = false;

	if (a->operands_only)
		return false;
	if (sname && s[0] == '-' && s[1] != '-' && s[at] == sname[1]) {
		if (!val) { /* a flag: on to the cluster's next letter, or the next argument */
			a->pos = s[at + 1] ? at + 1 : 0;
			a->i += !a->pos;
			return true;
		}
		a->pos = 0;
		if (s[at + 1]) { /* -n3, -vn3 */
			*val = s + at + 1;
			a->i++;
			return true;
		}
		s = name; /* the value is the next argument */
		short_form = true;
	} else if (a->pos || strncmp(s, name, n) || (s[n] && s[n] != '=')) {
		return false; /* in a cluster, only short options match */
	}
	if (!val) {
		if (s[n] == '=')
			return false;
		a->i++;
		return true;
	}
	if (s[n] == '=') {
		*val = s + n + 1;
		a->i++;
		empty_value(a, name, *val);
		return true;
	}
	if (a->i + 1 >= a->argc) {
		sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s %s needs a value", a->cmd, name);
		*val = NULL;
		a->i = a->argc;
		return true;
	}
	*val = a->argv[a->i + 1];
	a->i += 2;
	empty_value(a, short_form ? sname : name, *val);
	return true;
}

int bad_option(struct args *a)
{
	if (a->pos)
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				     "%s: unknown option '-%c' in '%s' (see idlesim help %s)",
				     a->cmd, a->argv[a->i][a->pos], a->argv[a->i], a->cmd);
	return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
			     "%s: unknown option or argument '%s' (see idlesim help %s)", a->cmd,
			     a->argv[a->i], a->cmd);
}

/* An unknown option of a command that runs workload model w: name the model's options. */
int bad_model_option(struct args *a, const struct workload *w)
{
	char list[512];
	size_t used = 0;
	unsigned int j;
	int hk, sched;

	if (strncmp(a->argv[a->i], "--", 2))
		return bad_option(a);
	list[0] = '\0';
	/* the timer world's and the scheduler's options go by their first (+ how many more):
	 * the message must fit its 320 bytes; help lists them all */
	hk = workload_param_index(w, "housekeeping-us");
	sched = workload_param_index(w, "placement");
	for (j = 0; j < w->nr_params && used < sizeof(list); j++) {
		if ((hk >= 0 && (int)j > hk && (int)j < hk + WL_HOUSEKEEPING_NR) ||
		    (sched >= 0 && (int)j > sched && (int)j < sched + WL_SCHED_NR))
			continue;
		used += (size_t)snprintf(list + used, sizeof(list) - used, " --%s%s",
					 w->params[j].name,
					 (int)j == hk	   ? " (+6)"
					 : (int)j == sched ? " (+3)"
							   : "");
	}
	return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
			     "%s: unknown option '%s' (workload %s takes%s; see idlesim help %s)",
			     a->cmd, a->argv[a->i], w->name, list, a->cmd);
}

/* A non-negative decimal with up to `decimals` fraction digits, scaled by 10^decimals. */
static int parse_fixed(const char *s, int decimals, int64_t max, int64_t *out)
{
	int64_t v = 0;
	int d = -1;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s == '.' && d < 0) {
			d = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || (d >= 0 && d == decimals))
			return -1;
		if (v > (max - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (*s - '0');
		if (d >= 0)
			d++;
	}
	for (d = d < 0 ? 0 : d; d < decimals; d++) {
		if (v > max / 10)
			return -1;
		v *= 10;
	}
	*out = v;
	return 0;
}

/* v / 10^decimals as a decimal without trailing zeros: 3600000000000 at 9 -> "3600". */
static void fixed_text(char *buf, size_t n, int64_t v, int decimals)
{
	int64_t scale = 1;
	int d, len;

	for (d = 0; d < decimals; d++)
		scale *= 10;
	len = snprintf(buf, n, "%lld", (long long)(v / scale));
	if (v % scale && len > 0 && (size_t)len < n) {
		snprintf(buf + len, n - (size_t)len, ".%0*lld", decimals, (long long)(v % scale));
		for (len = (int)strlen(buf); buf[len - 1] == '0'; len--)
			buf[len - 1] = '\0';
	}
}

/*
 * The accepted range as a user reads it: "1..10000", "at least 1", "0 or more", "more
 * than 0 and at most 3600" (a decimal option whose least value is one unit of its last
 * digit). INT64_MAX / 1000 as the upper bound means none.
 */
static void range_text(char *buf, size_t n, int decimals, int64_t lo, int64_t hi)
{
	char los[32], his[32];
	bool above_zero = decimals && lo == 1;

	fixed_text(los, sizeof(los), lo, decimals);
	fixed_text(his, sizeof(his), hi, decimals);
	if (hi >= INT64_MAX / 1000)
		snprintf(buf, n, "%s%s%s", above_zero ? "more than 0" : lo ? "at least " : "",
			 above_zero ? "" : los, !above_zero && !lo ? " or more" : "");
	else if (above_zero)
		snprintf(buf, n, "more than 0 and at most %s", his);
	else
		snprintf(buf, n, "%s..%s", los, his);
}

/*
 * A number option's value into *out (scaled by 10^decimals), or an error that states the
 * accepted range: "run --hz 100000: must be 1..10000".
 */
int num_arg(struct args *a, const char *name, const char *val, int decimals, int64_t lo,
	    int64_t hi, int64_t *out)
{
	char range[96];

	if (!val)
		return -1;
	if (!parse_fixed(val, decimals, INT64_MAX / 1000, out) && *out >= lo && *out <= hi)
		return 0;
	range_text(range, sizeof(range), decimals, lo, hi);
	if (*val && val[strspn(val, decimals ? "0123456789." : "0123456789")] == '\0')
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s %s %s: must be %s",
				     a->cmd, name, val, range);
	return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s %s '%s': must be %s, %s",
			     a->cmd, name, val,
			     decimals ? "a number (decimals allowed)" : "an integer", range);
}

int list_add(struct args *a, const char **list, int *n, const char *val, const char *name)
{
	char *p;

	if (!val)
		return -1;
	/* Comma-separated lists are split in place; argv strings are writable. */
	for (p = (char *)val;;) {
		char *comma = strchr(p, ',');

		if (*n >= RUN_MAX_ITEMS)
			return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s: too many %s values",
					     a->cmd, name);
		if (comma)
			*comma = '\0';
		if (!*p)
			return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s %s: empty value",
					     a->cmd, name);
		list[(*n)++] = p;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* Progress bars go to stderr when it is a terminal: never into a pipe or a report. */
bool isatty_stderr(void)
{
	return isatty(STDERR_FILENO) == 1;
}

int finish(struct sim_error *err)
{
	if (err->code == SIM_OK)
		return SIM_EXIT_OK;
	sim_error_print(stderr, err);
	return sim_error_exit_status(err);
}

/* ---- the run knobs ---- */

int set_arg(struct args *a, const char *name, const char *val, struct run_set *sets, int *nr)
{
	struct run_set *s;
	const char *dot, *eq;
	int64_t v;
	bool neg;

	if (!val)
		return -1;
	dot = strchr(val, '.');
	eq = strchr(val, '=');
	if (!dot || !eq || dot > eq || dot == val || eq == dot + 1 ||
	    (size_t)(dot - val) >= sizeof(s->family) || (size_t)(eq - dot - 1) >= sizeof(s->name))
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				     "%s '%s': expected FAMILY.NAME=VALUE, e.g. menu.decay=8", name,
				     val);
	if (*nr >= RUN_MAX_SETS)
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "too many %s options", name);
	neg = eq[1] == '-';
	if (parse_fixed(eq + 1 + neg, 0, INT64_MAX / 1000, &v))
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				     "%s '%s': the value must be an integer", name, val);
	s = &sets[(*nr)++];
	memcpy(s->family, val, (size_t)(dot - val));
	s->family[dot - val] = '\0';
	memcpy(s->name, dot + 1, (size_t)(eq - dot - 1));
	s->name[eq - dot - 1] = '\0';
	s->value = neg ? -v : v;
	return 0;
}

/* --wake-latency worst|typical|measured */
int parse_wake_model(struct args *a, const char *val, enum wake_model *out)
{
	if (!val)
		return -1;
	if (wake_model_parse(val, out))
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				     "%s --wake-latency: '%s' is not worst, typical or measured",
				     a->cmd, val);
	return 0;
}

static int parse_topology(struct args *a, struct run_request *req, const char *val)
{
	int p, c, t;
	char tail;

	if (!val)
		return -1;
	if (sscanf(val, "%dx%dx%d%c", &p, &c, &t, &tail) != 3 || p < 1 || c < 1 || t < 1 ||
	    (long)p * c * t > MACHINE_MAX_CPUS)
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				     "--topology '%s': expected PACKAGESxCORESxTHREADS, e.g. 1x4x2",
				     val);
	req->topology[0] = p;
	req->topology[1] = c;
	req->topology[2] = t;
	return 0;
}

/*
 * The knobs of a run (a struct run_request: run and report fill theirs, compare the one
 * its runs share). Returns whether argv[a->i] was one of them.
 */
int housekeeping_names(struct args *a, const char *v, char (*names)[COMPARE_WORLD_LEN], int *nr)
{
	size_t n;

	for (*nr = 0;; v += n + 1) {
		n = strcspn(v, ",");
		if (*nr == COMPARE_MAX_WORLDS || !n || n >= COMPARE_WORLD_LEN)
			return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
					     "%s --housekeeping: a list of 1 to %d preset names (%s)",
					     a->cmd, COMPARE_MAX_WORLDS, workload_preset_names());
		snprintf(names[(*nr)++], COMPARE_WORLD_LEN, "%.*s", (int)n, v);
		if (!v[n])
			return 0;
	}
}

/* --governor-timeout SECONDS: the limit of one call into a governor file (govguard.h). */
void governor_timeout_arg(struct args *a, const char *v, int64_t *timeout_ns)
{
	if (govguard_parse_timeout(v, timeout_ns))
		sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
			      "%s --governor-timeout: '%s' is not a number of seconds from 0 to "
			      "86400 (0: no limit)", a->cmd, v);
}

bool run_knob_opt(struct args *a, struct run_request *req)
{
	const char *v;
	int64_t n;

	if (opt(a, "--hz", NULL, &v)) {
		if (!num_arg(a, "--hz", v, 0, 1, 10000, &n))
			req->hz = (int)n;
	} else if (opt(a, "--latency-limit-us", NULL, &v)) {
		if (!num_arg(a, "--latency-limit-us", v, 0, 0, 2000000000, &n))
			req->latency_req_ns = n * SIM_NS_PER_US;
	} else if (opt(a, "--disable", NULL, &v)) {
		list_add(a, req->disable, &req->nr_disable, v, "--disable");
	} else if (opt(a, "--enable", NULL, &v)) {
		list_add(a, req->enable, &req->nr_enable, v, "--enable");
	} else if (opt(a, "--topology", NULL, &v)) {
		parse_topology(a, req, v);
	} else if (opt(a, "--wake-latency", NULL, &v)) {
		parse_wake_model(a, v, &req->wake_model);
	} else if (opt(a, "--set", NULL, &v)) {
		set_arg(a, "--set", v, req->sets, &req->nr_sets);
	} else if (opt(a, "--governor-timeout", NULL, &v)) {
		governor_timeout_arg(a, v, &req->gov_timeout_ns);
	} else {
		return false;
	}
	return true;
}

/* ---- the command line, for the header of what a command writes ---- */

void command_line(char *buf, size_t n, int argc, char **argv)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && used < n; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--output=", 9))
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? " " : "idlesim ", argv[i]);
	}
}

int option_unused(struct args *a, bool given, const char *option, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (!given || a->err->code != SIM_OK)
		return given ? -1 : 0;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0, "%s %s: %s", a->cmd, option, why);
}

int wl_param_arg(struct args *a, const struct workload *w, int k, const char *name,
		 const char *val, int64_t *out)
{
	const char *num = workload_param_word(w, k, val);

	if (!num)
		return sim_error_set(a->err, SIM_ERR_INPUT, "", 0, 0,
				     "%s %s '%s': %s or %s", a->cmd, name, val,
				     workload_param_value_word(w, k, 0),
				     workload_param_value_word(w, k, 1));
	return num_arg(a, name, num, 0, 0, INT64_MAX / 1000, out);
}

const char *find_workload_arg(int argc, char **argv)
{
	const char *w = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			w = argv[++i];
		else if (!strncmp(argv[i], "--workload=", 11))
			w = argv[i] + 11;
	}
	return w;
}

int wl_param_take(struct args *a, const struct workload *w, char name[WL_OPT_NAME],
		  const char **val)
{
	const char *s = a->argv[a->i];
	size_t n;
	int k;

	if (strncmp(s, "--", 2))
		return -1;
	n = strcspn(s + 2, "=");
	if (n >= WL_OPT_NAME - 2)
		return -1;
	snprintf(name, WL_OPT_NAME, "--%.*s", (int)n, s + 2);
	k = workload_param_index(w, name + 2);
	if (k < 0 || !opt(a, name, NULL, val))
		return -1;
	return k;
}
