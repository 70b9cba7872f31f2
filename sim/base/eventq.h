/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * eventq.h - the engine's event queue.
 *
 * Items are small integers (the engine uses one item per CPU: the next thing that happens
 * to that CPU), each queued at most once. Total order, documented because results depend
 * on it: earlier time first; at equal times, lower priority value first; then the item
 * scheduled (or rescheduled) earlier first. Every eventq_set() takes a new insertion
 * number, so the order is a pure function of the sequence of calls.
 *
 * Two implementations with identical behaviour: a binary heap in tournament form (each
 * node holds the first item of its subtree; O(log n) set and remove, O(1) peek), and a
 * deliberately naive unsorted array scanned on every peek (O(n)), kept as the reference
 * that tests compare the heap against.
 */
#ifndef IDLESIM_EVENTQ_H
#define IDLESIM_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

enum eventq_impl {
	EVENTQ_HEAP,
	EVENTQ_NAIVE,
};

struct eventq;

/* A queue for items 0..nr_items-1. Returns NULL if memory is exhausted. */
struct eventq *eventq_new(enum eventq_impl impl, uint32_t nr_items);
void eventq_free(struct eventq *q);

/* Queue `item` at (t_ns, prio), or move it there if it is queued already. Priorities are
 * 0..255; up to 2^56 calls are ordered by insertion. */
void eventq_set(struct eventq *q, uint32_t item, int64_t t_ns, int prio);
/* Take `item` out of the queue if it is queued. */
void eventq_remove(struct eventq *q, uint32_t item);
/* The first item and its time; returns 0 if the queue is empty. */
int eventq_peek(const struct eventq *q, uint32_t *item, int64_t *t_ns);
/* Remove and return the first item; returns 0 if the queue is empty. */
int eventq_pop(struct eventq *q, uint32_t *item, int64_t *t_ns);
size_t eventq_len(const struct eventq *q);

#endif
