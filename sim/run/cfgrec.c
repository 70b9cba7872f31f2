// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfgrec.c - the configuration record of reports (see cfgrec.h): content hashes and the
 * tunables, --set options and disabled states as text and JSON.
 */
#include "sim/run/cfgrec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "sim/trace/trace.h"

uint64_t cfgrec_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

void cfgrec_hex(char buf[17], uint64_t h)
{
	snprintf(buf, 17, "%016llx", (unsigned long long)h);
}

#define CANON_ADD(...)                                                                     \
	do {                                                                               \
		int k_ = snprintf(buf + (used < n ? used : n), used < n ? n - used : 0,    \
				  __VA_ARGS__);                                            \
		used += k_ > 0 ? (size_t)k_ : 0;                                           \
	} while (0)

size_t machine_canon_text(const struct machine *m, char *buf, size_t n)
{
	size_t used = 0;
	int i, k;

	if (n)
		buf[0] = '\0';
	CANON_ADD("driver=%s\ntopology=%d,%d,%d\nactive_core_power_w=%.17g\n"
		  "active_package_power_w=%.17g\nstates=%d\n",
		  m->driver, m->packages, m->cores, m->threads, m->active_core_power_w,
		  m->active_package_power_w, m->state_count);
	if (m->llc_cores) /* several LLCs per package only: other texts are unchanged */
		CANON_ADD("llc_cores=%d\n", m->llc_cores);
	for (i = 0; i < m->nr_core_types; i++) /* hybrid only: uniform texts are unchanged */
		CANON_ADD("core_type=%s,%d,%d,%.17g\n", m->core_types[i].name, m->core_types[i].cores,
			  m->core_types[i].threads, m->core_types[i].active_core_power_w);
	for (i = 0; i < m->state_count; i++) {
		const struct machine_state *s = &m->states[i];

		CANON_ADD("state=%d\nname=%s\nflags=%u\nexit_latency_ns=%lld\n"
			  "target_residency_ns=%lld\ndefault_off=%d\ncore_power_w=%.17g\n"
			  "entry_exit_energy_j=%.17g\npackage_power_w=%.17g\n",
			  i, s->name, s->flags, (long long)s->exit_latency_ns,
			  (long long)s->target_residency_ns, (int)s->default_off, s->core_power_w,
			  s->entry_exit_energy_j, s->package_power_w);
		/* The actual wake latency changes results as much as the table does. */
		if (s->wake.kind != MACHINE_WAKE_WORST)
			CANON_ADD("wake_typical_ns=%lld\n", (long long)s->wake.typical_ns);
		for (k = 0; s->wake.kind == MACHINE_WAKE_DIST && k < s->wake.nr_quantiles; k++)
			CANON_ADD("wake_q=%.17g,%lld\n", s->wake.q_p[k], (long long)s->wake.q_ns[k]);
	}
	return used;
}

uint64_t machine_hash(const struct machine *m)
{
	/* at most CPUIDLE_STATE_MAX states of a few hundred characters each */
	char buf[256 + CPUIDLE_STATE_MAX * (512 + 48 * MACHINE_WAKE_MAX_QUANTILES)];
	size_t len = machine_canon_text(m, buf, sizeof(buf));

	return cfgrec_fnv1a(CFGREC_FNV_OFFSET, buf, len < sizeof(buf) ? len : sizeof(buf) - 1);
}

/*
 * The binary form's hash without reading it all: FNV-1a 64 over its size, its first bytes
 * (magic, version, header and the header's CRC-32: the header is at most 4096 bytes) and
 * its end block, whose CRC-32 covers every byte before it (traces/FORMAT.md, "Binary
 * form"). The file is checked whole by the run that reads it. 0, or -1 when f is not a
 * complete binary trace (then the caller hashes every byte).
 */
static int itb_hash(FILE *f, uint64_t *h)
{
	unsigned char b[4096 + 32], tail[13];
	struct stat st;
	size_t k, n;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size < 64 ||
	    fseeko(f, 0, SEEK_SET))
		return -1;
	n = st.st_size < (off_t)sizeof(b) ? (size_t)st.st_size : sizeof(b);
	if (fread(b, 1, n, f) != n || memcmp(b, TRACE_BIN_MAGIC, 8) ||
	    fseeko(f, st.st_size - (off_t)sizeof(tail), SEEK_SET) ||
	    fread(tail, 1, sizeof(tail), f) != sizeof(tail) || tail[0] != 'E')
		return -1;
	*h = cfgrec_fnv1a(CFGREC_FNV_OFFSET, b, n);
	for (k = 0; k < 8; k++)
		b[k] = (unsigned char)((uint64_t)st.st_size >> (8 * k));
	*h = cfgrec_fnv1a(*h, b, 8);
	*h = cfgrec_fnv1a(*h, tail, sizeof(tail));
	return 0;
}

int cfgrec_file_hash(const char *path, uint64_t *h, struct sim_error *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char b[65536];
	size_t k;

	*h = CFGREC_FNV_OFFSET;
	if (!f)
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "cannot open: %s",
				     strerror(errno));
	if (!itb_hash(f, h)) {
		fclose(f);
		return 0;
	}
	*h = CFGREC_FNV_OFFSET;
	rewind(f);
	while ((k = fread(b, 1, sizeof(b), f)) > 0)
		*h = cfgrec_fnv1a(*h, b, k);
	if (ferror(f)) {
		fclose(f);
		return sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "read error: %s",
				     strerror(errno));
	}
	fclose(f);
	return 0;
}

bool cfgrec_set_applies(const struct run_set *s, const struct cpuidle_governor *g)
{
	size_t flen = gov_family_len(g->name);

	return strlen(s->family) == flen && !strncasecmp(s->family, g->name, flen) &&
	       gov_param_index(g, s->name) >= 0;
}

void cfgrec_tunables_text(char *buf, size_t n, const struct cpuidle_governor *g,
			  const long long *params)
{
	size_t used = 0;
	unsigned int i;

	if (n)
		buf[0] = '\0';
	if (!g->nr_params)
		CANON_ADD("none");
	for (i = 0; i < g->nr_params; i++)
		CANON_ADD("%s%s=%lld", i ? " " : "", g->params[i].name,
			  params ? params[i] : g->params[i].def);
	/* A kernel file's governor (sim/run/kgov.c): which file, and which build of it. */
	if (strstr(g->name, "@file:") && g->summary)
		CANON_ADD(" (%s)", g->summary);
}

json_t *cfgrec_tunables_json(const struct cpuidle_governor *g, const long long *params)
{
	json_t *o = json_object();
	unsigned int i;

	for (i = 0; i < g->nr_params; i++)
		json_object_set_new(o, g->params[i].name,
				    json_integer(params ? params[i] : g->params[i].def));
	return o;
}

int cfgrec_applied_sets(const struct run_set *sets, int n, const struct cpuidle_governor *g,
			struct run_set out[RUN_MAX_SETS])
{
	int i, k = 0;

	for (i = 0; i < n && k < RUN_MAX_SETS; i++)
		if (g && cfgrec_set_applies(&sets[i], g))
			out[k++] = sets[i];
	return k;
}

json_t *cfgrec_sets_json(const struct run_set *sets, int n)
{
	json_t *a = json_array();
	char s[128];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(s, sizeof(s), "%s.%s=%lld", sets[i].family, sets[i].name, sets[i].value);
		json_array_append_new(a, json_string(s));
	}
	return a;
}

void cfgrec_sets_text(char *buf, size_t len, const struct run_set *sets, int nr)
{
	size_t used = 0, n = len;
	int i;

	if (n)
		buf[0] = '\0';
	if (!nr)
		CANON_ADD("none");
	for (i = 0; i < nr; i++)
		CANON_ADD("%s%s.%s=%lld", i ? " " : "", sets[i].family, sets[i].name,
			  sets[i].value);
}

void cfgrec_disabled_text(char *buf, size_t n, const struct machine *m, uint32_t mask)
{
	size_t used = 0;
	int i, k = 0;

	if (n)
		buf[0] = '\0';
	for (i = 0; i < m->state_count; i++)
		if (mask & (1u << i))
			CANON_ADD("%s%s", k++ ? "," : "", m->states[i].name);
	if (!k)
		CANON_ADD("none");
}
