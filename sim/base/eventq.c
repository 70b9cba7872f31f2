// SPDX-License-Identifier: GPL-2.0-only
/*
 * eventq.c - the event queue as a binary heap in tournament form, and its naive
 * reference twin.
 *
 * The engine queues a fixed set of items (one per CPU), each at most once, and moves one
 * item at almost every event. A tournament ("winner") tree suits that best: a complete
 * binary tree over the items, stored in an array like any binary heap, where each
 * internal node holds the item that comes first in its subtree, so the root is the
 * minimum. Moving, inserting or removing item i recomputes the log2(n) nodes on the path
 * from its leaf to the root, two comparisons each and no data movement; peeking reads the
 * root. An absent item sorts after everything (time INT64_MAX, which the engine never
 * schedules). Measured on the engine's benchmark, this costs about a third of the
 * instructions of a sift-up/sift-down heap with a position index.
 *
 * The naive queue keeps the entries unsorted and scans them on every peek: O(n), obvious,
 * and the reference the tests compare the tree against.
 */
#include "sim/base/eventq.h"
#include "sim/base/alloc.h"

#include <assert.h>
#include <stdbool.h>

/* Ties are broken by one unsigned key: priority in the top byte, insertion number below. */
#define SEQ_BITS 56
#define ABSENT_TIME INT64_MAX
#define ABSENT_TIE UINT64_MAX

struct eventq {
	enum eventq_impl impl;
	uint32_t nr_items;
	uint32_t leaves; /* power of two >= nr_items */
	uint32_t len;
	uint64_t next_seq;
	int64_t *t_ns;	 /* per item */
	uint64_t *tie;	 /* per item */
	/* small trees: node k < leaves holds the first item of its subtree; win[leaves + i] = i */
	uint32_t *win;
	/* large trees (leaves >= DEEP_LEAVES): the same tree, each node with a copy of its
	 * item's key, so that a level of the path reads one cache line (the two children side
	 * by side), not the items' arrays; node leaves + i is item i */
	struct qnode *node;
	void *node_mem; /* node's allocation: node is aligned to a cache line within it */
};

struct qnode {
	int64_t t_ns;
	uint64_t tie;
	uint32_t item;
	uint32_t pad[3]; /* 32 bytes: two siblings fill one 64-byte line */
};

/*
 * Closed loops on hundreds of CPUs (a leaf per CPU and per agent timer: 2,048 leaves, 11
 * levels at 512 CPUs) spent half their time on the path, waiting for the items' keys,
 * which the CPUs' state keeps pushing out of the caches; there the nodes carry the keys
 * and the path stops early (replay_path_deep()). Small trees keep the compact form, which
 * is faster while everything is cached (docs/speed.md, "Scale with CPUs").
 */
#define DEEP_LEAVES 256

static bool item_before(const struct eventq *q, uint32_t a, uint32_t b)
{
	if (q->t_ns[a] != q->t_ns[b])
		return q->t_ns[a] < q->t_ns[b];
	return q->tie[a] < q->tie[b];
}

static bool node_before(const struct qnode *a, const struct qnode *b)
{
	if (a->t_ns != b->t_ns)
		return a->t_ns < b->t_ns;
	return a->tie < b->tie;
}

/*
 * Large trees stop once a node's first item is the same as before and is not the item
 * that moved: no node above it can change then (the item was not first there, nor can it
 * become so). The whole path would be 11 levels at 512 CPUs.
 */
static void replay_path_deep(struct eventq *q, uint32_t item)
{
	struct qnode *n = q->node;
	uint32_t k;

	n[q->leaves + item].t_ns = q->t_ns[item];
	n[q->leaves + item].tie = q->tie[item];
	for (k = (q->leaves + item) / 2; k >= 1; k /= 2) {
		const struct qnode *a = &n[2 * k], *b = &n[2 * k + 1];
		const struct qnode *w = node_before(b, a) ? b : a;

		if (w->item == n[k].item && w->item != item)
			return;
		n[k] = *w;
	}
}

/*
 * Recompute the path from item's leaf to the root. win[leaves + i] = i for every leaf, so
 * children are read the same way at every level. In small trees the whole path is always
 * replayed: stopping where nothing changes saves little and costs a branch that mispredicts
 * (measured 9 % slower on an 8-CPU replay, no faster on 80 CPUs).
 */
static void replay_path(struct eventq *q, uint32_t item)
{
	uint32_t k;

	if (q->node) {
		replay_path_deep(q, item);
		return;
	}
	for (k = (q->leaves + item) / 2; k >= 1; k /= 2) {
		uint32_t a = q->win[2 * k], b = q->win[2 * k + 1];

		q->win[k] = item_before(q, b, a) ? b : a;
	}
}

struct eventq *eventq_new(enum eventq_impl impl, uint32_t nr_items)
{
	struct eventq *q = sim_calloc(1, sizeof(*q));
	bool deep;
	uint32_t i;

	if (!q)
		return NULL;
	q->impl = impl;
	q->nr_items = nr_items;
	q->leaves = 2;
	while (q->leaves < nr_items)
		q->leaves *= 2;
	deep = impl == EVENTQ_HEAP && q->leaves >= DEEP_LEAVES;
	/* Padding leaves are items too, always absent. */
	q->t_ns = sim_calloc(q->leaves, sizeof(*q->t_ns));
	q->tie = sim_calloc(q->leaves, sizeof(*q->tie));
	if (deep)
		q->node_mem = sim_malloc(2 * (size_t)q->leaves * sizeof(*q->node) + 64);
	else
		q->win = sim_calloc(2 * (size_t)q->leaves, sizeof(*q->win));
	if (!q->t_ns || !q->tie || (deep ? !q->node_mem : !q->win)) {
		eventq_free(q);
		return NULL;
	}
	if (deep)
		q->node = (struct qnode *)(((uintptr_t)q->node_mem + 63) & ~(uintptr_t)63);
	for (i = 0; i < q->leaves; i++) {
		q->t_ns[i] = ABSENT_TIME;
		q->tie[i] = ABSENT_TIE;
		if (deep)
			q->node[q->leaves + i] = (struct qnode){ ABSENT_TIME, ABSENT_TIE, i, { 0 } };
		else
			q->win[q->leaves + i] = i;
	}
	/* all absent: any child will do */
	for (i = q->leaves - 1; i >= 1; i--)
		if (deep)
			q->node[i] = q->node[2 * i];
		else
			q->win[i] = q->win[2 * i];
	return q;
}

void eventq_free(struct eventq *q)
{
	if (!q)
		return;
	sim_free(q->t_ns);
	sim_free(q->tie);
	sim_free(q->win);
	sim_free(q->node_mem);
	sim_free(q);
}

static bool queued(const struct eventq *q, uint32_t item)
{
	return q->tie[item] != ABSENT_TIE;
}

void eventq_set(struct eventq *q, uint32_t item, int64_t t_ns, int prio)
{
	assert(item < q->nr_items && t_ns != ABSENT_TIME);
	if (!queued(q, item))
		q->len++;
	q->t_ns[item] = t_ns;
	q->tie[item] = ((uint64_t)(uint8_t)prio << SEQ_BITS) | q->next_seq++;
	if (q->impl == EVENTQ_HEAP)
		replay_path(q, item);
}

void eventq_remove(struct eventq *q, uint32_t item)
{
	assert(item < q->nr_items);
	if (!queued(q, item))
		return;
	q->len--;
	q->t_ns[item] = ABSENT_TIME;
	q->tie[item] = ABSENT_TIE;
	if (q->impl == EVENTQ_HEAP)
		replay_path(q, item);
}

int eventq_peek(const struct eventq *q, uint32_t *item, int64_t *t_ns)
{
	uint32_t best, i;

	if (!q->len)
		return 0;
	if (q->impl == EVENTQ_HEAP) {
		best = q->node ? q->node[1].item : q->win[1];
	} else {
		for (best = 0, i = 1; i < q->nr_items; i++)
			if (item_before(q, i, best))
				best = i;
	}
	*item = best;
	*t_ns = q->t_ns[best];
	return 1;
}

int eventq_pop(struct eventq *q, uint32_t *item, int64_t *t_ns)
{
	if (!eventq_peek(q, item, t_ns))
		return 0;
	eventq_remove(q, *item);
	return 1;
}

size_t eventq_len(const struct eventq *q)
{
	return q->len;
}
