/* dcsim/evq.h — event queues: a pool of events in (time, prio, insertion) order, in one of two
 * implementations behind one API.
 *
 * Ownership: dcsim_evq_new() and dcsim_evq_new_monotone() return a queue the caller frees with
 * dcsim_evq_free() (NULL-safe). The queue owns all event storage; dcsim_event values written by
 * pop/peek are plain copies owned by the caller. Nothing here uses globals: one queue per engine,
 * one engine per thread.
 *
 * Order: events come out by (time_ns, prio, seq), all ascending — earliest time first, then the
 * smaller prio value, then the one pushed (or rescheduled) first: events equal in (time_ns, prio)
 * come out first-in first-out, and the order is fully deterministic. Both implementations give
 * the same events in the same order for the same operations (tests/test_evq.c runs them side by
 * side).
 *
 * The indexed binary heap (dcsim_evq_new): any times >= 0, in any order; each queued event
 * occupies one 40-byte slot of a pool (a free list of slots that grows by doubling with realloc)
 * plus one uint32 in the heap array, which holds slot indices; each slot stores its own heap
 * position, so reschedule and cancel are O(log n). It serves the schedulers that are not
 * simulations (dcsim/sched.h keeps node readiness in it) and is the reference the monotone queue
 * is tested against.
 *
 * The monotone queue (dcsim_evq_new_monotone): the engine's. Simulated time never goes back, so
 * no event is ever pushed before the queue's CLOCK — the time of the first event the last pop,
 * peek or replace_top returned (0 before any). The queue exploits it: a radix heap (Ahuja,
 * Mehlhorn, Orlin and Tarjan, J. ACM 37(2), 1990) on the integer times with first-in first-out
 * buckets, O(1) push and amortised O(log C) pop (C: the span of queued times), every access
 * sequential. An event without a handle costs 24 bytes (records in 4 KiB chunks); one pushed with
 * a handle costs 24 more (a handle table entry) and its cancellation or reschedule leaves its old
 * record behind until the clock reaches it. Its restrictions, each refused with DCSIM_ERANGE and
 * the queue unchanged: a time before the clock (push, reschedule, replace_top), a prio outside
 * -128..127, a kind above 65535. pop and peek may reorganise it (peek takes a non-const queue),
 * and report seq 0: the order is that of the binary heap all the same.
 *
 * Handles (dcsim_evh): a handle names one queued event and stays valid until that event is popped
 * or cancelled; a reschedule keeps it. The handle ENCODES A GENERATION: its low
 * DCSIM_EVQ_INDEX_BITS bits are the slot index, its high 32-DCSIM_EVQ_INDEX_BITS bits the slot's
 * generation, which is bumped every time the slot is freed. A handle whose slot is free, or out
 * of range, or whose generation does not match is rejected with DCSIM_ERANGE — never a crash.
 * Limits of the choice (uint32 handles cannot have both a full 32-bit index and a generation):
 *  - at most DCSIM_EVQ_MAX_EVENTS (2^26-2 = 67,108,862) events queued at once in a binary heap,
 *    and as many events with handles in a monotone queue (events without handles: no limit but
 *    memory); pushing more fails with DCSIM_ENOMEM;
 *  - a stale handle is always detected until its slot has been reused 2^6 = 64 times; after that
 *    it may alias a newer event in the same slot (the generation wraps). Callers should still
 *    forget a handle when its event pops (set it to DCSIM_EVH_NONE).
 * DCSIM_EVH_NONE is never a valid handle. */
#ifndef DCSIM_EVQ_H
#define DCSIM_EVQ_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"

typedef struct dcsim_evq dcsim_evq_t;

/* Handle of a queued event: stable until the event is popped or cancelled (see above). */
typedef uint32_t dcsim_evh;

#define DCSIM_EVQ_INDEX_BITS 26
#define DCSIM_EVQ_MAX_EVENTS ((uint32_t)((UINT32_C(1) << DCSIM_EVQ_INDEX_BITS) - 2))
#define DCSIM_EVH_NONE       UINT32_MAX /* "no event": rejected by reschedule/cancel */

/* A popped or peeked event (a plain value). */
typedef struct dcsim_event {
  int64_t time_ns;  /* when it fires, integer nanoseconds, >= 0 */
  int32_t prio;     /* tie-break at equal time: smaller comes first */
  uint32_t kind;    /* what happens (meaning is the engine's) */
  uint32_t target;  /* id of the object it happens to */
  uint64_t seq;     /* binary heap: insertion counter at the last push/reschedule (FIFO among
                       equals); monotone queue: 0 */
  uint64_t payload; /* free for the engine (an id, a packed value) */
} dcsim_event;

/* A new empty binary heap with room for capacity_hint events before it grows (0 is fine).
 * Returns NULL on allocation failure. */
dcsim_evq_t *dcsim_evq_new(size_t capacity_hint);

/* A new empty monotone queue (see above), its clock at 0. Returns NULL on allocation failure. */
dcsim_evq_t *dcsim_evq_new_monotone(void);

/* Frees q and every event in it. NULL-safe. */
void dcsim_evq_free(dcsim_evq_t *q);

/* Queues an event. time_ns must be >= 0 (and, in a monotone queue, not before its clock) else
 * DCSIM_ERANGE. Fails with DCSIM_ENOMEM when the queue cannot grow (allocation failure, or
 * DCSIM_EVQ_MAX_EVENTS already queued with handles); the queue is then unchanged. On success
 * writes the event's handle to *handle_out when handle_out is not NULL. */
int dcsim_evq_push(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind, uint32_t target,
                   uint64_t payload, dcsim_evh *handle_out, dcsim_error *err);

/* Removes the first event into *out (out may be NULL to drop it). Returns 1, or 0 when empty;
 * a monotone queue that cannot allocate while it reorganises returns DCSIM_ENOMEM and refuses
 * every later operation the same way. */
int dcsim_evq_pop(dcsim_evq_t *q, dcsim_event *out);

/* Copies the first event into *out without removing it. Returns as dcsim_evq_pop. */
int dcsim_evq_peek(dcsim_evq_t *q, dcsim_event *out);

/* Replaces the first event by a new one (new seq): pop + push in one step for the common case
 * where handling an event schedules the next one of the same target (binary heap: one O(log n)
 * sift). The old handle becomes stale. DCSIM_ERANGE on an empty queue or a bad time. */
int dcsim_evq_replace_top(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind,
                          uint32_t target, uint64_t payload, dcsim_error *err);

/* Moves a queued event to new_time_ns (>= 0, and not before a monotone queue's clock, else
 * DCSIM_ERANGE), earlier or later. It keeps its prio, kind, target, payload and handle, and takes
 * a new seq, so it goes after the events already queued at (new_time_ns, prio). A stale,
 * cancelled or out-of-range handle gives DCSIM_ERANGE. */
int dcsim_evq_reschedule(dcsim_evq_t *q, dcsim_evh h, int64_t new_time_ns, dcsim_error *err);

/* Removes a queued event without firing it; its handle becomes stale. Bad handle: DCSIM_ERANGE. */
int dcsim_evq_cancel(dcsim_evq_t *q, dcsim_evh h, dcsim_error *err);

/* Number of queued events (0 for NULL). */
size_t dcsim_evq_size(const dcsim_evq_t *q);

/* Bytes of memory the queue holds (struct, pool and index capacity), for benchmarks. */
size_t dcsim_evq_bytes(const dcsim_evq_t *q);

#endif
