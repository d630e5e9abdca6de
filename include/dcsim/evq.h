/* dcsim/evq.h — the engine's event queue: a pool of events ordered by an indexed binary heap.
 *
 * Ownership: dcsim_evq_new() returns a queue the caller frees with dcsim_evq_free() (NULL-safe).
 * The queue owns all event storage; dcsim_event values written by pop/peek are plain copies owned
 * by the caller. Nothing here uses globals: one queue per engine, one engine per thread.
 *
 * Order: events come out by (time_ns, prio, seq), all ascending — earliest time first, then the
 * smaller prio value, then the smaller seq. seq is a per-queue counter taken at every push and
 * every reschedule, so events equal in (time_ns, prio) come out first-in first-out, and the order
 * is fully deterministic (no two queued events share a seq).
 *
 * Storage: each queued event occupies one 40-byte slot of a pool (a free list of slots that grows
 * by doubling with realloc; no malloc per event once the pool is large enough) plus one uint32 in
 * the heap array, which holds slot indices. Each slot stores its own heap position, so reschedule
 * and cancel are O(log n). Targets are ids (uint32), never pointers. Optionally
 * (dcsim_evq_use_runs, the engine's choice) two sorted runs beside the heap take events pushed in
 * increasing order in O(1).
 *
 * Handles (dcsim_evh): a handle names one queued event and stays valid until that event is popped
 * or cancelled; a reschedule keeps it. The handle ENCODES A GENERATION: its low
 * DCSIM_EVQ_INDEX_BITS bits are the slot index, its high 32-DCSIM_EVQ_INDEX_BITS bits the slot's
 * generation, which is bumped every time the slot is freed. The generation costs no memory: it
 * lives in the spare high bits of the slot's heap-position word. A handle whose slot is free, or
 * out of range, or whose generation does not match is rejected with DCSIM_ERANGE — never a crash.
 * Limits of the choice (uint32 handles cannot have both a full 32-bit index and a generation):
 *  - at most DCSIM_EVQ_MAX_EVENTS (2^26-2 = 67,108,862) events queued at once; pushing more fails
 *    with DCSIM_ENOMEM;
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
  uint64_t seq;     /* insertion counter at the last push/reschedule: FIFO among equals */
  uint64_t payload; /* free for the engine (an id, a packed value) */
} dcsim_event;

/* A new empty queue with room for capacity_hint events before it grows (0 is fine).
 * Returns NULL on allocation failure. */
dcsim_evq_t *dcsim_evq_new(size_t capacity_hint);

/* Frees q and every event in it. NULL-safe. */
void dcsim_evq_free(dcsim_evq_t *q);

/* Keeps, beside the heap, two sorted runs (8 bytes more per event of capacity): an event pushed
 * after the last event of a run goes to its end in O(1), the first event is the smallest of the
 * heap's root and the runs' heads. The order of events is unchanged. Events handled in lockstep
 * (jobs of equal shape) then cost O(1) instead of O(log n); reschedule and cancel of an event held
 * in a run cost O(run length). Only on an empty queue (else DCSIM_ERANGE); DCSIM_ENOMEM. */
int dcsim_evq_use_runs(dcsim_evq_t *q, dcsim_error *err);

/* Queues an event. time_ns must be >= 0 (else DCSIM_ERANGE). Fails with DCSIM_ENOMEM when the pool
 * cannot grow (allocation failure, or DCSIM_EVQ_MAX_EVENTS already queued); the queue is then
 * unchanged. On success writes the event's handle to *handle_out when handle_out is not NULL. */
int dcsim_evq_push(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind, uint32_t target,
                   uint64_t payload, dcsim_evh *handle_out, dcsim_error *err);

/* Removes the first event into *out (out may be NULL to drop it). Returns 1, or 0 when empty. */
int dcsim_evq_pop(dcsim_evq_t *q, dcsim_event *out);

/* Copies the first event into *out without removing it. Returns 1, or 0 when empty. */
int dcsim_evq_peek(const dcsim_evq_t *q, dcsim_event *out);

/* Moves a queued event to new_time_ns (>= 0, else DCSIM_ERANGE), earlier or later. It keeps its
 * prio, kind, target, payload and handle, and takes a new seq, so it goes after the events already
 * queued at (new_time_ns, prio). A stale, cancelled or out-of-range handle gives DCSIM_ERANGE. */
/* Replaces the first event by a new one (new seq) in one O(log n) step: pop + push for the common
 * case where handling an event schedules the next one of the same target. The old handle becomes
 * stale. DCSIM_ERANGE on an empty queue or a negative time. */
int dcsim_evq_replace_top(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind,
                          uint32_t target, uint64_t payload, dcsim_error *err);
int dcsim_evq_reschedule(dcsim_evq_t *q, dcsim_evh h, int64_t new_time_ns, dcsim_error *err);

/* Removes a queued event without firing it; its handle becomes stale. Bad handle: DCSIM_ERANGE. */
int dcsim_evq_cancel(dcsim_evq_t *q, dcsim_evh h, dcsim_error *err);

/* Number of queued events (0 for NULL). */
size_t dcsim_evq_size(const dcsim_evq_t *q);

/* Bytes of memory the queue holds (struct, pool and heap capacity), for benchmarks. */
size_t dcsim_evq_bytes(const dcsim_evq_t *q);

#endif
