// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - the one table that lists every governor, and name lookup.
 *
 * Names carry the kernel release a governor models ("menu@6.19"); reference policies have
 * no version ("oracle"). Lookup is case-insensitive like cpuidle_find_governor(); a bare
 * family name ("menu") means the newest version of that family, compared numerically
 * ("6.19" > "6.6" > "4.18").
 */
#include "governors/governor.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const struct cpuidle_governor gov_oracle;
extern const struct cpuidle_governor gov_shallowest;
extern const struct cpuidle_governor gov_deepest;
extern const struct cpuidle_governor gov_menu_4_18;
extern const struct cpuidle_governor gov_menu_6_6;
extern const struct cpuidle_governor gov_menu_6_19;
extern const struct cpuidle_governor gov_teo_5_1;
extern const struct cpuidle_governor gov_teo_5_14;
extern const struct cpuidle_governor gov_teo_6_19;

/* Reference policies first, then each kernel family in version order. */
static const struct cpuidle_governor *const governors[] = {
	&gov_oracle,
	&gov_shallowest,
	&gov_deepest,
	&gov_menu_4_18,
	&gov_menu_6_6,
	&gov_menu_6_19,
	&gov_teo_5_1,
	&gov_teo_5_14,
	&gov_teo_6_19,
};

unsigned int gov_count(void)
{
	return ARRAY_SIZE(governors);
}

const struct cpuidle_governor *gov_get(unsigned int i)
{
	return i < ARRAY_SIZE(governors) ? governors[i] : NULL;
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
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(governors); i++) {
		const char *gname = governors[i]->name;
		size_t flen = gov_family_len(gname);

		if (!strcasecmp(gname, name))
			return governors[i];
		if (strchr(name, '@') || flen != len || strncasecmp(gname, name, len))
			continue;
		/* A bare family name: keep the newest version. */
		if (!best || version_cmp(gname + flen + (gname[flen] == '@'),
					 best->name + flen + (best->name[flen] == '@')) > 0)
			best = governors[i];
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
