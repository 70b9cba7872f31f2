// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_json.c - the reader of JSON scenarios: the content of a native trace as one JSON
 * document (traces/FORMAT.md, "JSON scenarios"), parsed with jansson.
 *
 * A JSON scenario is small by design and is loaded whole (read_all() in sim/trace/trace.c); its
 * text stays in memory so that errors can be located with jsonpos. It shares no parsing with
 * the text reader, only what sim/trace/trace_check.c holds: once its values are out of the
 * document, its records go through the same checks.
 */
#include "sim/trace/trace_int.h"
#include "sim/base/alloc.h"
#include "sim/base/jsonpos.h"

#include <inttypes.h>
#include <jansson.h>
#include <string.h>

static bool json_time_field(enum field f)
{
	return f == F_TIME || f == F_LENGTH || f == F_NEXT_TIMER || f == F_EXPIRY || f == F_PERIOD ||
	       f == F_NEXT_WHEEL;
}

/* A non-negative integer member; *present tells whether it is there. */
static int json_uint(struct trace_reader *r, const struct trace_record *rec, json_t *o,
		     enum field f, int64_t *v, bool *present)
{
	const char *name = trace_field_name(rec->kind, f);
	json_t *j = json_object_get(o, name);

	*present = j != NULL;
	if (!j)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return trace_fail_field(r, rec, f, "%s must be a non-negative integer%s", name,
					json_time_field(f) ? " (ns)" : "");
	*v = json_integer_value(j);
	return 0;
}

static int json_str(struct trace_reader *r, const struct trace_record *rec, json_t *o, enum field f,
		    const char **s, size_t *n)
{
	json_t *j = json_object_get(o, trace_field_name(rec->kind, f));

	if (!json_is_string(j))
		return trace_fail_field(r, rec, f, "%s must be a string: %s",
					trace_field_name(rec->kind, f),
					trace_field_what(rec->kind, f));
	*s = json_string_value(j);
	*n = json_string_length(j);
	return 0;
}

/* The members of a record: known for its kind, and the fixed ones present. */
static int json_members(struct trace_reader *r, const struct trace_record *rec, json_t *o)
{
	const struct kind_info *k = &trace_kinds[rec->kind];
	char path[96], q[200];
	const char *key;
	json_t *v;
	enum field f;

	json_object_foreach(o, key, v)
	{
		if (trace_key_field(rec->kind, FB(F_KIND) | k->fixed | k->keys, key, strlen(key)) ==
		    F_NR) {
			snprintf(path, sizeof(path), "records[%ld].%s", rec->index, key);
			return trace_fail_json(
				r, path, "unknown field '%s' for %s records (expected %s)",
				trace_quote(q, sizeof(q), key, strlen(key)), k->name, k->json_list);
		}
	}
	for (f = F_CPU; f < F_NR; f++) {
		if ((k->fixed & FB(f)) && !json_object_get(o, trace_field_name(rec->kind, f))) {
			snprintf(path, sizeof(path), "records[%ld]", rec->index);
			return trace_fail_json(r, path, "missing field '%s' in %s record",
					       trace_field_name(rec->kind, f), k->name);
		}
	}
	return 0;
}

static int json_cause(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	const char *s = NULL;
	size_t n = 0;
	int cause;
	char q[200];

	if (json_str(r, rec, o, F_CAUSE, &s, &n))
		return -1;
	cause = trace_cause_from(s, n, rec->kind == TRACE_IDLE);
	if (cause < 0)
		return trace_fail_field(r, rec, F_CAUSE, "expected %s, got '%s'",
					trace_field_what(rec->kind, F_CAUSE),
					trace_quote(q, sizeof(q), s, n));
	rec->cause = (enum wake_cause)cause;
	return 0;
}

static int json_id(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	const char *s = NULL;
	size_t n = 0;
	char q[200];

	if (json_str(r, rec, o, F_ID, &s, &n))
		return -1;
	if (!trace_id_valid(s, n))
		return trace_fail_field(r, rec, F_ID, "expected %s, got '%s'",
					trace_field_what(rec->kind, F_ID),
					trace_quote(q, sizeof(q), s, n));
	memcpy(rec->id, s, n + 1);
	return 0;
}

/* iowait and load, optional on idle, wake and busy records. */
static int json_iowait_load(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	json_t *j = json_object_get(o, "load");
	bool present;
	int64_t v = 0; /* set by json_uint() when present; gcc -O2 cannot see it */
	double x;

	if (json_uint(r, rec, o, F_IOWAIT, &v, &present) ||
	    (present && trace_check_iowait(r, rec, v)))
		return -1;
	if (!j)
		return 0;
	if (!json_is_number(j))
		return trace_fail_field(r, rec, F_LOAD, "load must be a number");
	x = json_number_value(j);
	if (!(x >= 0 && x < LOAD_LIMIT))
		return trace_fail_field(r, rec, F_LOAD, "load %g is out of range (0 <= load < %d)",
					x, LOAD_LIMIT);
	/* x * 2048 is exact in binary; adding a half and truncating rounds halves up */
	rec->load = (unsigned long)(x * LOAD_ONE + 0.5);
	rec->has_load = true;
	return 0;
}

/* resched, optional on idle, timer and wake records: the integer 0 or 1. */
/* An optional 0-or-1 field (resched, deferrable), checked as its text would be. */
static int json_01(struct trace_reader *r, struct trace_record *rec, json_t *o, enum field f,
		   int (*check)(struct trace_reader *, struct trace_record *, const char *, size_t))
{
	const char *name = trace_field_name(rec->kind, f);
	json_t *j = json_object_get(o, name);
	char buf[32];

	if (!j)
		return 0;
	if (!json_is_integer(j))
		return trace_fail_field(r, rec, f, "%s must be the integer 0 or 1", name);
	snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(j));
	return check(r, rec, buf, strlen(buf));
}

static int json_resched(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	return json_01(r, rec, o, F_RESCHED, trace_check_resched);
}

/* deferrable and global, optional on timer records */
static int json_timer_flags(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	return json_01(r, rec, o, F_DEFERRABLE, trace_check_deferrable) ||
	       json_01(r, rec, o, F_GLOBAL, trace_check_global);
}

/* timer (idle) or kind (timer records), optional: the string "hrtimer" or "wheel". */
static int json_tkind(struct trace_reader *r, struct trace_record *rec, json_t *o,
		      unsigned int *seen)
{
	const char *s = NULL;
	size_t n = 0;

	if (!json_object_get(o, trace_field_name(rec->kind, F_TKIND)))
		return 0;
	*seen |= FB(F_TKIND);
	return json_str(r, rec, o, F_TKIND, &s, &n) || trace_check_tkind(r, rec, s, n) ? -1 : 0;
}

static int json_kind(struct trace_reader *r, struct trace_record *rec, json_t *o)
{
	json_t *t = json_object_get(o, "type");
	char path[96], q[200];
	enum word w;

	snprintf(path, sizeof(path), "records[%ld]", rec->index);
	if (!json_is_object(o))
		return trace_fail_json(r, path, "a record must be an object");
	if (!t)
		return trace_fail_json(r, path,
				       "missing field 'type' (idle, timer, cancel, wake or busy)");
	if (!json_is_string(t))
		return trace_fail_field(
			r, rec, F_KIND,
			"type must be a string (idle, timer, cancel, wake or busy)");
	w = json_string_length(t) ? trace_classify(json_string_value(t), json_string_length(t))
				  : W_NONE;
	if (w > W_BUSY)
		return trace_fail_field(
			r, rec, F_KIND,
			"unknown record '%s' (expected idle, timer, cancel, wake or busy)",
			trace_quote(q, sizeof(q), json_string_value(t), json_string_length(t)));
	rec->kind = (enum trace_kind)w;
	return 0;
}

static int json_record(struct trace_reader *r, struct trace_record *rec)
{
	json_t *o = json_array_get(r->records, (size_t)r->nrec);
	unsigned int seen = 0;
	bool present;
	int64_t v = 0; /* set by json_uint() when present; gcc -O2 cannot see it */
	int rc = 0;

	trace_record_init(r, rec, TRACE_IDLE);
	if (json_kind(r, rec, o) || trace_check_family(r, rec) || json_members(r, rec, o))
		return -1;
	if (json_uint(r, rec, o, F_CPU, &v, &present) || trace_check_cpu(r, rec, v) ||
	    json_uint(r, rec, o, F_TIME, &rec->time_ns, &present) || trace_check_time(r, rec))
		return -1;
	switch (rec->kind) {
	case TRACE_IDLE:
		rc = json_uint(r, rec, o, F_LENGTH, &rec->length_ns, &present) ||
		     trace_check_length(r, rec) || json_cause(r, rec, o) ||
		     json_uint(r, rec, o, F_NEXT_TIMER, &rec->next_timer_ns, &present);
		if (present)
			seen |= FB(F_NEXT_TIMER);
		rc = rc || json_tkind(r, rec, o, &seen) ||
		     json_uint(r, rec, o, F_NEXT_WHEEL, &rec->next_wheel_ns, &present);
		if (present)
			seen |= FB(F_NEXT_WHEEL);
		rc = rc || json_uint(r, rec, o, F_KEEP_TICK, &rec->keep_tick_ns, &present) ||
		     json_uint(r, rec, o, F_SLACK, &rec->slack_ns, &present) ||
		     json_iowait_load(r, rec, o) || json_resched(r, rec, o);
		break;
	case TRACE_TIMER:
		rc = json_id(r, rec, o) ||
		     json_uint(r, rec, o, F_EXPIRY, &rec->expiry_ns, &present) ||
		     json_uint(r, rec, o, F_PERIOD, &v, &present) ||
		     (present && trace_check_period(r, rec, v)) || json_resched(r, rec, o) ||
		     json_tkind(r, rec, o, &seen) || json_timer_flags(r, rec, o) ||
		     json_uint(r, rec, o, F_SLACK, &rec->slack_ns, &present);
		break;
	case TRACE_CANCEL:
		rc = json_id(r, rec, o);
		break;
	case TRACE_WAKE:
		rc = json_cause(r, rec, o) || json_iowait_load(r, rec, o) ||
		     json_resched(r, rec, o);
		break;
	case TRACE_BUSY:
		rc = json_uint(r, rec, o, F_LENGTH, &rec->length_ns, &present) ||
		     trace_check_length(r, rec) || json_iowait_load(r, rec, o);
		break;
	}
	if (rc)
		return -1;
	return trace_check_record(r, rec, seen);
}

int trace_json_next(struct trace_reader *r, struct trace_record *rec)
{
	if (!r->records || (size_t)r->nrec >= json_array_size(r->records))
		return 0;
	return json_record(r, rec) ? -1 : 1;
}

/* An integer header member in [lo, hi] (a time if hi is SIM_TIME_MAX_NS); absent leaves *v
 * alone. */
static int json_hdr_int(struct trace_reader *r, const char *name, int64_t lo, int64_t hi,
			int64_t *v, bool *present)
{
	json_t *j = json_object_get(r->root, name);

	*present = j != NULL;
	if (!j)
		return 0;
	if (hi == SIM_TIME_MAX_NS && (!json_is_integer(j) || json_integer_value(j) < 0))
		return trace_fail_json(r, name, "%s must be a non-negative integer (ns)", name);
	if (!json_is_integer(j))
		return trace_fail_json(r, name,
				       "%s must be an integer (%" PRId64 " to %" PRId64 ")", name,
				       lo, hi);
	*v = json_integer_value(j);
	if (*v < lo || *v > hi)
		return trace_fail_json(
			r, name, "%s %" PRId64 " is out of range (%" PRId64 " to %" PRId64 ")",
			name, *v, lo, hi);
	return 0;
}

/*
 * machine (a word) and source (a line of text): held to what the text form can say, so that
 * a scenario converted to text reads back the same.
 */
static int json_hdr_str(struct trace_reader *r, const char *name, bool word, char *out, size_t size)
{
	json_t *j = json_object_get(r->root, name);
	const char *s = json_string_value(j);
	size_t i, n = json_string_length(j);

	if (!j)
		return 0;
	if (!json_is_string(j))
		return trace_fail_json(r, name, "%s must be a string", name);
	if (n >= size)
		return trace_fail_json(r, name, "the %s is longer than %zu bytes", name, size - 1);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f || (word && s[i] == ' '))
			return trace_fail_json(r, name, "the %s must be %s", name,
					       word ? "one word" : "one line of text");
	if (word && (!n || s[0] == '#'))
		return trace_fail_json(r, name, "the %s must be one word", name);
	memcpy(out, s, n + 1);
	return 0;
}

static int json_hdr_keys(struct trace_reader *r)
{
	static const char *const keys[] = {"format", "version", "cpus",	  "hz",	    "machine",
					   "start",  "end",	"source", "records",
					   "tick_phase"};
	const char *key;
	json_t *v;
	size_t i;
	char q[200];

	json_object_foreach(r->root, key, v)
	{
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(key, keys[i]))
				break;
		if (i == sizeof(keys) / sizeof(keys[0]))
			return trace_fail_json(
				r, key,
				"unknown field '%s' (expected format, version, cpus, hz, "
				"machine, start, end, source, tick_phase or records)",
				trace_quote(q, sizeof(q), key, strlen(key)));
	}
	return 0;
}

int trace_json_header(struct trace_reader *r)
{
	struct trace_header *h = &r->hdr;
	json_error_t je;
	char msg[4 * JSON_ERROR_TEXT_LENGTH];
	unsigned long failures;
	json_t *j;
	int64_t v = 0;
	bool present;

	failures = sim_alloc_failures();
	r->root = json_loadb(r->buf, r->len, JSON_REJECT_DUPLICATES, &je);
	/* jansson may report a failed allocation as a syntax error: trust the allocator */
	if (!r->root && sim_alloc_failures() != failures)
		return trace_fail_nomem(r);
	if (!r->root)
		return trace_fail(r, je.line, je.column, "%s",
				  jsonpos_clean_message(msg, sizeof(msg), je.text));
	if (!json_is_object(r->root))
		return trace_fail_json(r, "", "a JSON scenario must be an object");
	if (json_hdr_keys(r))
		return -1;
	j = json_object_get(r->root, "format");
	if (!j)
		return trace_fail_json(r, "", "not an idlesim scenario: missing \"format\": \"%s\"",
				       TRACE_MAGIC);
	if (!json_is_string(j) || strcmp(json_string_value(j), TRACE_MAGIC))
		return trace_fail_json(
			r, "format", "not an idlesim scenario: format must be \"%s\"", TRACE_MAGIC);
	j = json_object_get(r->root, "version");
	if (!j)
		return trace_fail_json(r, "", "missing \"version\": %d", TRACE_VERSION);
	if (!json_is_integer(j))
		return trace_fail_json(r, "version", "version must be an integer");
	if (json_integer_value(j) != TRACE_VERSION)
		return trace_fail_json(r, "version",
				       "unsupported trace format version %" JSON_INTEGER_FORMAT
				       " (this idlesim reads v%d)",
				       json_integer_value(j), TRACE_VERSION);
	h->version = TRACE_VERSION;
	if (json_hdr_int(r, "cpus", 1, TRACE_MAX_CPUS, &v, &present))
		return -1;
	if (!present)
		return trace_fail_json(r, "", "missing field 'cpus' (the number of CPUs, 1 to %d)",
				       TRACE_MAX_CPUS);
	h->cpus = (int)v;
	if (json_hdr_int(r, "hz", 1, HZ_MAX, &v, &present))
		return -1;
	h->hz = present ? (int)v : 0;
	if (json_hdr_int(r, "start", 0, SIM_TIME_MAX_NS, &h->start_ns, &h->has_start) ||
	    json_hdr_int(r, "end", 0, SIM_TIME_MAX_NS, &h->end_ns, &h->has_end) ||
	    json_hdr_int(r, "tick_phase", 0, SIM_TIME_MAX_NS, &h->tick_phase_ns,
			 &h->has_tick_phase) ||
	    json_hdr_str(r, "machine", true, h->machine, sizeof(h->machine)) ||
	    json_hdr_str(r, "source", false, h->source, sizeof(h->source)))
		return -1;
	r->records = json_object_get(r->root, "records");
	if (r->records && !json_is_array(r->records))
		return trace_fail_json(r, "records", "records must be an array");
	return trace_header_done(r);
}
