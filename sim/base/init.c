// SPDX-License-Identifier: GPL-2.0-only
/*
 * init.c - process-wide set-up: route jansson's allocations through sim/base/alloc.h.
 *
 * jansson keeps its allocator in one global pair of function pointers
 * (json_set_alloc_funcs), so this is the one piece of global state idlesim sets. It is
 * acceptable because:
 *  - the setting is the same for every caller and never changes: it is made once per
 *    process (pthread_once), before the first parse, and later calls do nothing;
 *  - sim_malloc and sim_free are malloc and free underneath, so a jansson object allocated
 *    before the first call (by a program that used jansson earlier) is still freed correctly;
 *  - the only thing sim_malloc adds is the fault-injection switch, and that is thread-local:
 *    a test that makes allocations fail on its own thread does not affect jansson calls made
 *    by other threads.
 * With it, an out-of-memory condition inside json_loads() or json_pack() is injected and
 * counted exactly like one in idlesim's own code (tests/test_alloc.c).
 */
#include "sim/base/init.h"
#include "sim/base/alloc.h"

#include <jansson.h>
#include <pthread.h>

static void *json_alloc(size_t size)
{
	return sim_malloc(size);
}

static void json_release(void *ptr)
{
	sim_free(ptr);
}

static void init_once(void)
{
	json_set_alloc_funcs(json_alloc, json_release);
}

void idlesim_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, init_once);
}
