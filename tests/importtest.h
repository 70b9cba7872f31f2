/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * importtest.h - what the import tests share: converting a trace in one pass and in two
 * (struct conv), reading the summary's JSON by path, and the ftrace line macros of the
 * small hand traces (tests/test_import.c, tests/test_import_hand.c, tests/test_import_bad.c,
 * tests/test_import_timers.c).
 */
#ifndef IDLESIM_IMPORTTEST_H
#define IDLESIM_IMPORTTEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testbin.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/base/alloc.h"
#include "sim/import/import.h"
#include "sim/machine/machine.h"
#include "sim/trace/trace.h"

#define FIX SRC "/tests/import/"
#define REAL IDLESIM_SHARED_DIR "/traces/real/"

/* ---- helpers ---- */

struct conv {
	int rc;
	struct sim_error err;
	char *trace;   /* the converted file */
	char *records; /* its idle lines */
	char *summary; /* JSON */
	json_t *json;
	unsigned long long bad;
	char warning[320];
};

static inline void conv_free(struct conv *c)
{
	free(c->trace);
	free(c->records);
	free(c->summary);
	json_decref(c->json);
	memset(c, 0, sizeof(*c));
}

/* Convert `path`: in one pass (import_open_convert) or two (import_open, a record source). */
static inline void convert(const char *path, const struct import_options *o, bool two, struct conv *c)
{
	struct import_options def = { 0 };
	size_t tn = 0, sn = 0;
	FILE *tf, *sf;
	struct importer *im;
	json_error_t je;
	char *p, *q;

	memset(c, 0, sizeof(*c));
	tf = open_memstream(&c->trace, &tn);
	sf = open_memstream(&c->summary, &sn);
	im = two ? import_open(path, o ? o : &def, &c->err)
		 : import_open_convert(path, o ? o : &def, &c->err);
	c->rc = -1;
	if (im) {
		c->rc = import_convert(im, tf, &c->err);
		if (!c->rc)
			assert_int_equal(import_write_summary(sf, im, true), 0);
		c->bad = import_bad_lines(im);
		if (import_warning(im, 0))
			snprintf(c->warning, sizeof(c->warning), "%s", import_warning(im, 0));
		import_close(im);
	}
	fclose(tf);
	fclose(sf);
	if (!c->rc)
		c->json = json_loads(c->summary, 0, &je);
	c->records = calloc(1, tn + 1);
	for (p = c->trace, q = c->records; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (!strncmp(p, "idle ", 5)) {
			memcpy(q, p, n);
			q += n;
		}
		p += n;
	}
}

static inline void convert_ok(const char *path, const struct import_options *o, bool two, struct conv *c)
{
	convert(path, o, two, c);
	if (c->rc) {
		sim_error_print(stderr, &c->err);
		fail();
	}
	assert_non_null(c->json);
}

static inline json_int_t ji(json_t *o, const char *path)
{
	char buf[256], *save = NULL, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	if (!json_is_integer(o))
		fail_msg("%s is not an integer", path);
	return json_integer_value(o);
}

static inline const char *js(json_t *o, const char *path)
{
	char buf[256], *save = NULL, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	if (!json_is_string(o))
		fail_msg("%s is not a string", path);
	return json_string_value(o);
}

static inline json_t *jget(json_t *o, const char *path)
{
	char buf[256], *save = NULL, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	return o;
}

static inline bool real_traces(void)
{
	return access(REAL "README.md", R_OK) == 0;
}

static inline int setup(void **state)
{
	(void)state;
	return tmpdir_make("import");
}

static inline int teardown(void **state)
{
	(void)state;
	return tmpdir_remove();
}

/* ---- small hand traces ---- */


#define HDR2 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 9/9   #P:2\n#\n"
#define HDR1 "# tracer: nop\n#\n# entries-in-buffer/entries-written: 9/9   #P:1\n#\n"

static inline void conv_text(const char *text, const struct import_options *o, struct conv *c)
{
	struct conv two;

	convert_ok(write_tmp("t.ftrace", text), o, false, c);
	convert_ok(tmp_path("t.ftrace"), o, true, &two);
	assert_string_equal(c->trace, two.trace);
	conv_free(&two);
}

/* An event line of the idle task (L) or of a task (T) on CPU `cpu` at 1 s + `us` (3 digits). */
#define L(cpu, us, ev, pay) \
	"          <idle>-0       [00" #cpu "] d..1.   1.000" #us ": " ev ": " pay "\n"
#define T(cpu, us, ev, pay) \
	"           taskA-100     [00" #cpu "] d..2.   1.000" #us ": " ev ": " pay "\n"
#define ENTRY(cpu, us, state) L(cpu, us, "cpu_idle", "state=" #state " cpu_id=" #cpu)
#define EXIT(cpu, us) L(cpu, us, "cpu_idle", "state=4294967295 cpu_id=" #cpu)
#define TO_TASK(cpu, us) \
	L(cpu, us, "sched_switch", "prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R " \
				   "==> next_comm=taskA next_pid=100 next_prio=120")
#define TO_IDLE(cpu, us) \
	L(cpu, us, "sched_switch", "prev_comm=taskA prev_pid=100 prev_prio=120 prev_state=S " \
				   "==> next_comm=swapper next_pid=0 next_prio=120")

#endif
