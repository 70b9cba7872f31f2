// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - the one table that lists every governor, and name lookup.
 *
 * Names carry the kernel release a governor models ("menu@6.19"); reference policies have
 * no version ("oracle"). Lookup is case-insensitive like cpuidle_find_governor(); a bare
 * family name ("menu") means the newest version of that family, compared numerically
 * ("6.19" > "6.6" > "4.18").
 *
 * Besides the built-in table, governors built from kernel files (sim/kgov.c) register at run
 * time with gov_register(). That list is process-wide, like the kernel's governor list and
 * like the loaded modules it points into (dlopen() is process-wide): it only grows, is
 * guarded by a mutex, and an entry never changes once registered, so a simulation running
 * in another thread keeps a valid pointer whatever is loaded next.
 */
#include "governors/governor.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const struct cpuidle_governor gov_oracle;
extern const struct cpuidle_governor gov_oracle_energy;
extern const struct cpuidle_governor gov_shallowest;
extern const struct cpuidle_governor gov_deepest;
extern const struct cpuidle_governor gov_menu_4_18;
extern const struct cpuidle_governor gov_menu_6_1;
extern const struct cpuidle_governor gov_menu_6_6;
extern const struct cpuidle_governor gov_menu_6_12;
extern const struct cpuidle_governor gov_menu_6_19;
extern const struct cpuidle_governor gov_teo_5_1;
extern const struct cpuidle_governor gov_teo_5_14;
extern const struct cpuidle_governor gov_teo_6_12;
extern const struct cpuidle_governor gov_teo_6_19;
extern const struct cpuidle_governor gov_ladder_6_12;

/* Reference policies first, then each kernel family in version order. */
static const struct cpuidle_governor *const governors[] = {
	&gov_oracle,
	&gov_oracle_energy,
	&gov_shallowest,
	&gov_deepest,
	&gov_menu_4_18,
	&gov_menu_6_1,
	&gov_menu_6_6,
	&gov_menu_6_12,
	&gov_menu_6_19,
	&gov_teo_5_1,
	&gov_teo_5_14,
	&gov_teo_6_12,
	&gov_teo_6_19,
	&gov_ladder_6_12,
};

#define GOV_DYNAMIC_MAX 64

static pthread_mutex_t dynamic_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct cpuidle_governor *dynamic[GOV_DYNAMIC_MAX];
static unsigned int nr_dynamic;

int gov_register(const struct cpuidle_governor *g)
{
	int ret = -1;

	pthread_mutex_lock(&dynamic_lock);
	if (nr_dynamic < GOV_DYNAMIC_MAX) {
		dynamic[nr_dynamic++] = g;
		ret = 0;
	}
	pthread_mutex_unlock(&dynamic_lock);
	return ret;
}

unsigned int gov_count(void)
{
	unsigned int n;

	pthread_mutex_lock(&dynamic_lock);
	n = nr_dynamic;
	pthread_mutex_unlock(&dynamic_lock);
	return ARRAY_SIZE(governors) + n;
}

const struct cpuidle_governor *gov_get(unsigned int i)
{
	const struct cpuidle_governor *g = NULL;

	if (i < ARRAY_SIZE(governors))
		return governors[i];
	i -= ARRAY_SIZE(governors);
	pthread_mutex_lock(&dynamic_lock);
	if (i < nr_dynamic)
		g = dynamic[i];
	pthread_mutex_unlock(&dynamic_lock);
	return g;
}

size_t gov_family_len(const char *name)
{
	const char *at = strchr(name, '@');

	return at ? (size_t)(at - name) : strlen(name);
}

/* Compare dotted version strings numerically: <0, 0, >0 like strcmp. */
static int version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		unsigned long x = strtoul(a, (char **)&a, 10);
		unsigned long y = strtoul(b, (char **)&b, 10);

		if (x != y)
			return x < y ? -1 : 1;
		if (*a == '.')
			a++;
		if (*b == '.')
			b++;
		if ((*a && !isdigit((unsigned char)*a)) || (*b && !isdigit((unsigned char)*b)))
			return strcmp(a, b);
	}
	return 0;
}

const struct cpuidle_governor *gov_find(const char *name)
{
	const struct cpuidle_governor *best = NULL;
	size_t len = strlen(name);
	unsigned int i, n = gov_count();

	for (i = 0; i < n; i++) {
		const struct cpuidle_governor *g = gov_get(i);
		const char *gname = g->name;
		size_t flen = gov_family_len(gname);

		if (!strcasecmp(gname, name))
			return g;
		/* A bare family name: keep the newest built-in version (never a loaded file). */
		if (i >= ARRAY_SIZE(governors) || strchr(name, '@') || flen != len ||
		    strncasecmp(gname, name, len))
			continue;
		if (!best || version_cmp(gname + flen + (gname[flen] == '@'),
					 best->name + flen + (best->name[flen] == '@')) > 0)
			best = g;
	}
	return best;
}

int gov_param_index(const struct cpuidle_governor *g, const char *name)
{
	unsigned int i;

	for (i = 0; i < g->nr_params; i++)
		if (!strcasecmp(g->params[i].name, name))
			return (int)i;
	return -1;
}

void cpuidle_explain_add(struct cpuidle_explain *ex, const char *key, const char *str, long long val)
{
	struct cpuidle_explain_item *it;

	if (ex->nr >= CPUIDLE_EXPLAIN_MAX)
		return;
	it = &ex->items[ex->nr++];
	it->key = key;
	it->str = str;
	it->val = val;
}
