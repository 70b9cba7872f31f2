// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - the one table that lists every governor, and name lookup.
 *
 * Names carry the kernel release a governor models ("menu@6.19"); reference policies have
 * no version ("oracle"). Lookup is case-insensitive like cpuidle_find_governor(); a bare
 * family name ("menu") means the newest version of that family, compared numerically
 * ("6.19" > "6.6" > "4.18").
 *
 * The built-in table: the reference policies (reference.c), then the kernel ports, which
 * register as a kernel file does, through cpuidle_register_governor() in an initcall
 * (idlesim_initcall_<file>, see kcompat/include/linux/init.h); the initcalls run once, in
 * the order below, at the first lookup (pthread_once), and each registered governor is copied
 * here with its per-CPU data size as priv_size. Nothing changes after that.
 *
 * Besides the built-in table, governors built from kernel files (sim/run/kgov.c) register at run
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

/* The ports' initcalls (governors/<family>-<version>.c), each family in version order. */
#define BUILTIN_PORTS(X)                                                                           \
	X(menu_4_18) X(menu_5_4) X(menu_6_1) X(menu_6_6) X(menu_6_12) X(menu_6_19)                            \
	X(teo_5_1) X(teo_5_10) X(teo_5_14) X(teo_6_12) X(teo_6_19)                                             \
	X(ladder)                                                                                  \
	X(haltpoll_6_1) X(haltpoll_6_12)

#define DECLARE_INITCALL(id) extern int (*const idlesim_initcall_##id)(void);
BUILTIN_PORTS(DECLARE_INITCALL)
#define LIST_INITCALL(id) &idlesim_initcall_##id,
static int (*const *const port_initcalls[])(void) = { BUILTIN_PORTS(LIST_INITCALL) };

#define NR_REFERENCE 4
#define NR_BUILTIN (NR_REFERENCE + ARRAY_SIZE(port_initcalls))

/* Filled once by builtin_init(): reference policies first, then the ports. */
static const struct cpuidle_governor *governors[NR_BUILTIN];
static struct cpuidle_governor ports[ARRAY_SIZE(port_initcalls)];
static unsigned int nr_governors;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

int idlesim_builtin_register(struct cpuidle_governor *gov, size_t percpu_size)
{
	struct cpuidle_governor *g;

	/* Only from builtin_init(), after the reference policies, within the table. */
	if (!gov || !gov->select || nr_governors < NR_REFERENCE || nr_governors >= NR_BUILTIN)
		return -22; /* -EINVAL */
	g = &ports[nr_governors - NR_REFERENCE];
	*g = *gov;
	g->priv_size = percpu_size;
	governors[nr_governors++] = g;
	return 0;
}

static void builtin_init(void)
{
	size_t i;

	governors[0] = &gov_oracle;
	governors[1] = &gov_oracle_energy;
	governors[2] = &gov_shallowest;
	governors[3] = &gov_deepest;
	nr_governors = NR_REFERENCE;
	/* A port that fails to register is a programming error: tests list every name. */
	for (i = 0; i < ARRAY_SIZE(port_initcalls); i++)
		(*port_initcalls[i])();
}

/* The built-in table, built at the first call. */
static unsigned int builtin_count(void)
{
	pthread_once(&builtin_once, builtin_init);
	return nr_governors;
}

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
	return builtin_count() + n;
}

const struct cpuidle_governor *gov_get(unsigned int i)
{
	const struct cpuidle_governor *g = NULL;
	unsigned int nb = builtin_count();

	if (i < nb)
		return governors[i];
	i -= nb;
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
	unsigned int i, n = gov_count(), nb = builtin_count();

	for (i = 0; i < n; i++) {
		const struct cpuidle_governor *g = gov_get(i);
		const char *gname = g->name;
		size_t flen = gov_family_len(gname);

		if (!strcasecmp(gname, name))
			return g;
		/* A bare family name: keep the newest built-in version (never a loaded file). */
		if (i >= nb || strchr(name, '@') || flen != len ||
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
