/* evq.c — event queues (see dcsim/evq.h): the API, and its binary heap — a slot pool with an
 * indexed binary heap. The monotone queue is evq_mono.c; every function dispatches to it when the
 * queue is one. */
#include "dcsim/evq.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"
#include "sim/internal.h"

/* Low DCSIM_EVQ_INDEX_BITS bits of a handle: slot index; high bits: generation. The same split is
 * used for a slot's `pos` word: low bits heap position (EVQ_POS_FREE when the slot is free), high
 * bits the slot's current generation. */
#define EVQ_INDEX_MASK ((uint32_t)((UINT32_C(1) << DCSIM_EVQ_INDEX_BITS) - 1))
#define EVQ_GEN_MASK   (~EVQ_INDEX_MASK)
#define EVQ_GEN_ONE    (UINT32_C(1) << DCSIM_EVQ_INDEX_BITS)
#define EVQ_POS_FREE   EVQ_INDEX_MASK /* never a heap position: those are < DCSIM_EVQ_MAX_EVENTS */
#define EVQ_NIL        EVQ_INDEX_MASK /* end of the free list */
#define EVQ_MIN_CAP    16u
/* Below this many queued events the pool fits in the caches and prefetching only costs
 * instructions (about 30 % of a replace_top on a heap of 1000 events). */
#define EVQ_PREFETCH_MIN 16384u

#if defined(__GNUC__)
#define EVQ_PREFETCH(p) __builtin_prefetch((p))
#else
#define EVQ_PREFETCH(p) ((void)(p))
#endif

_Static_assert(DCSIM_EVQ_INDEX_BITS > 0 && DCSIM_EVQ_INDEX_BITS < 32, "index bits");
_Static_assert(DCSIM_EVQ_MAX_EVENTS < EVQ_POS_FREE, "heap positions stay below the marker");

/* One event. 40 bytes; a free slot keeps only `pos` (its generation) and links the free list
 * through `kind`. */
typedef struct evq_slot {
  int64_t time_ns;
  uint64_t seq;
  uint64_t payload;
  int32_t prio;
  uint32_t kind; /* free slot: index of the next free slot, or EVQ_NIL */
  uint32_t target;
  uint32_t pos; /* generation (high bits) | heap position or EVQ_POS_FREE (low bits) */
} evq_slot;

_Static_assert(sizeof(evq_slot) == 40, "an event slot should stay at 40 bytes");
/* so that (size_t)cap * sizeof(evq_slot) never overflows, even with a 32-bit size_t */
_Static_assert((uint64_t)DCSIM_EVQ_MAX_EVENTS * sizeof(evq_slot) <= SIZE_MAX, "pool size fits");

struct dcsim_evq {
  dcsim_evq_mono *mono; /* a monotone queue (evq_mono.c), else NULL and a binary heap: */
  evq_slot *slots;      /* pool; slots [0, nslots) have been used at least once */
  uint32_t *heap;       /* heap[0..n) are slot indices; heap[0] is the first event */
  uint32_t n;           /* events queued */
  uint32_t nslots;      /* high-water mark of the pool: n + length of the free list */
  uint32_t cap;         /* allocated length of slots and of heap */
  uint32_t free_head;   /* first free slot below nslots, or EVQ_NIL */
  uint64_t next_seq;    /* seq of the next push/reschedule */
};

/* (time, prio, seq) of a strictly before b. */
static inline int evq_less(const evq_slot *a, const evq_slot *b) {
  if (a->time_ns != b->time_ns) return a->time_ns < b->time_ns;
  if (a->prio != b->prio) return a->prio < b->prio;
  return a->seq < b->seq;
}

static inline void evq_set_pos(evq_slot *s, uint32_t pos) {
  s->pos = (s->pos & EVQ_GEN_MASK) | pos;
}

/* Puts slot idx into the hole at heap position pos and moves it towards the root. */
static void evq_sift_up(dcsim_evq_t *q, uint32_t pos, uint32_t idx) {
  evq_slot *slots = q->slots;
  uint32_t *heap = q->heap;
  const evq_slot *s = &slots[idx];
  while (pos > 0) {
    uint32_t parent = (pos - 1) / 2;
    uint32_t p = heap[parent];
    if (!evq_less(s, &slots[p])) break;
    heap[pos] = p;
    evq_set_pos(&slots[p], pos);
    pos = parent;
  }
  heap[pos] = idx;
  evq_set_pos(&slots[idx], pos);
}

/* The smaller child of the node whose first child is at c (< n) in a heap of n events: its
 * position, its slot in *ci. With slot indices in the heap every comparison is a random access
 * into the pool, so on large heaps the slots two levels down are prefetched meanwhile. */
static inline uint32_t evq_min_child(const dcsim_evq_t *q, uint32_t c, uint32_t n, uint32_t *ci) {
  const uint32_t *heap = q->heap;
  uint32_t g = 2 * c + 1; /* c < 2^26, no overflow */
  if (n >= EVQ_PREFETCH_MIN && g + 3 < n) {
    EVQ_PREFETCH(&q->slots[heap[g]]);
    EVQ_PREFETCH(&q->slots[heap[g + 1]]);
    EVQ_PREFETCH(&q->slots[heap[g + 2]]);
    EVQ_PREFETCH(&q->slots[heap[g + 3]]);
  }
  *ci = heap[c];
  if (c + 1 < n && evq_less(&q->slots[heap[c + 1]], &q->slots[*ci])) *ci = heap[++c];
  return c;
}

/* Puts slot idx into the hole at heap position pos and moves it towards the leaves. */
static void evq_sift_down(dcsim_evq_t *q, uint32_t pos, uint32_t idx) {
  const uint32_t n = q->n;
  const evq_slot *s = &q->slots[idx];
  for (uint32_t c = 2 * pos + 1, ci; c < n; c = 2 * pos + 1) {
    c = evq_min_child(q, c, n, &ci);
    if (!evq_less(&q->slots[ci], s)) break;
    q->heap[pos] = ci;
    evq_set_pos(&q->slots[ci], pos);
    pos = c;
  }
  q->heap[pos] = idx;
  evq_set_pos(&q->slots[idx], pos);
}

/* Walks a hole at the root of a heap of n events down along the smaller children to a leaf,
 * moving each child up into it (Wegener's bottom-up heapsort: one comparison per level instead of
 * two); returns the leaf position where the hole ends. */
static uint32_t evq_hole_down(dcsim_evq_t *q, uint32_t n) {
  uint32_t hole = 0;
  for (uint32_t c = 1, ci; c < n; c = 2 * hole + 1) {
    c = evq_min_child(q, c, n, &ci);
    q->heap[hole] = ci;
    evq_set_pos(&q->slots[ci], hole);
    hole = c;
  }
  return hole;
}

/* Removes the first event: the hole at the root goes down to a leaf, then the last element is
 * sifted up from there, which is usually short since it came from the bottom. */
static void evq_pop_root(dcsim_evq_t *q) {
  const uint32_t n = --q->n; /* heap[n] is the last element, to be re-placed */
  uint32_t hole = evq_hole_down(q, n);
  if (hole < n) evq_sift_up(q, hole, q->heap[n]);
}

/* Puts slot idx, whose new key is not before the root's, at the root of the heap: if it comes
 * before both children it stays there (one comparison more than that test); otherwise the hole
 * goes down to a leaf and idx is sifted up from there. The engine's replaced event is either the
 * job's next event at the same instant (stays at the root) or one far in the future (goes back
 * near the leaves), so both cases are short. */
static void evq_replace_root(dcsim_evq_t *q, uint32_t idx) {
  uint32_t ci = 0;
  if (q->n > 1) evq_min_child(q, 1, q->n, &ci);
  if (q->n < 2 || !evq_less(&q->slots[ci], &q->slots[idx])) {
    q->heap[0] = idx;
    evq_set_pos(&q->slots[idx], 0);
    return;
  }
  evq_sift_up(q, evq_hole_down(q, q->n), idx);
}

/* Slot idx, now at heap position pos, has a new key: restore the heap order. */
static void evq_fix(dcsim_evq_t *q, uint32_t pos, uint32_t idx) {
  if (pos > 0 && evq_less(&q->slots[idx], &q->slots[q->heap[(pos - 1) / 2]]))
    evq_sift_up(q, pos, idx);
  else
    evq_sift_down(q, pos, idx);
}

/* Returns a slot to the free list and bumps its generation (wrapping in the high bits). */
static void evq_release_slot(dcsim_evq_t *q, uint32_t idx) {
  evq_slot *s = &q->slots[idx];
  s->pos = ((s->pos & EVQ_GEN_MASK) + EVQ_GEN_ONE) | EVQ_POS_FREE;
  s->kind = q->free_head;
  q->free_head = idx;
}

/* Grows the pool and the heap by doubling. Returns 0 or DCSIM_ENOMEM. */
static int evq_grow(dcsim_evq_t *q, dcsim_error *err) {
  if (q->cap >= DCSIM_EVQ_MAX_EVENTS)
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0,
                     "event queue full: %lu events queued, the limit is %lu", (unsigned long)q->n,
                     (unsigned long)DCSIM_EVQ_MAX_EVENTS);
  uint32_t newcap = q->cap > DCSIM_EVQ_MAX_EVENTS / 2 ? DCSIM_EVQ_MAX_EVENTS : 2 * q->cap;
  if (DCSIM_RESIZE(q->slots, newcap) || DCSIM_RESIZE(q->heap, newcap))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: cannot grow to %lu events",
                     (unsigned long)newcap);
  q->cap = newcap;
  return 0;
}

/* Checks handle h and returns its slot index in *idx_out. Returns 0 or DCSIM_ERANGE. */
static int evq_lookup(const dcsim_evq_t *q, dcsim_evh h, const char *what, uint32_t *idx_out,
                      dcsim_error *err) {
  uint32_t idx = h & EVQ_INDEX_MASK;
  if (idx >= q->nslots) return dcsim__evq_bad_handle(err, what, h, q->nslots, 0);
  uint32_t pos = q->slots[idx].pos;
  if ((pos & EVQ_INDEX_MASK) == EVQ_POS_FREE || (pos & EVQ_GEN_MASK) != (h & EVQ_GEN_MASK))
    return dcsim__evq_bad_handle(err, what, h, q->nslots, 1);
  *idx_out = idx;
  return 0;
}

int dcsim__evq_bad_handle(dcsim_error *err, const char *what, dcsim_evh h, uint32_t n, int stale) {
  if (stale)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "%s: event handle 0x%08lx is stale (its event was popped or cancelled)", what,
                     (unsigned long)h);
  return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                   "%s: event handle 0x%08lx is out of range (slot %lu, the pool has %lu)", what,
                   (unsigned long)h, (unsigned long)(h & EVQ_INDEX_MASK), (unsigned long)n);
}

static void evq_copy_out(const evq_slot *s, dcsim_event *out) {
  out->time_ns = s->time_ns;
  out->prio = s->prio;
  out->kind = s->kind;
  out->target = s->target;
  out->seq = s->seq;
  out->payload = s->payload;
}

dcsim_evq_t *dcsim_evq_new(size_t capacity_hint) {
  uint32_t cap = capacity_hint < EVQ_MIN_CAP            ? EVQ_MIN_CAP
                 : capacity_hint > DCSIM_EVQ_MAX_EVENTS ? DCSIM_EVQ_MAX_EVENTS
                                                        : (uint32_t)capacity_hint;
  dcsim_evq_t *q = calloc(1, sizeof *q);
  if (!q) return NULL;
  q->slots = malloc((size_t)cap * sizeof *q->slots);
  q->heap = malloc((size_t)cap * sizeof *q->heap);
  if (!q->slots || !q->heap) {
    dcsim_evq_free(q);
    return NULL;
  }
  q->cap = cap;
  q->free_head = EVQ_NIL;
  return q;
}

dcsim_evq_t *dcsim_evq_new_monotone(void) {
  dcsim_evq_t *q = calloc(1, sizeof *q);
  if (q && !(q->mono = dcsim__evq_mono_new())) {
    free(q);
    q = NULL;
  }
  return q;
}

void dcsim_evq_free(dcsim_evq_t *q) {
  if (!q) return;
  dcsim__evq_mono_free(q->mono);
  free(q->slots);
  free(q->heap);
  free(q);
}

int dcsim_evq_push(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind, uint32_t target,
                   uint64_t payload, dcsim_evh *handle_out, dcsim_error *err) {
  if (!q) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event push: no queue");
  if (q->mono)
    return dcsim__evq_mono_push(q->mono, time_ns, prio, kind, target, payload, handle_out, err);
  if (time_ns < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event push: time %lld ns is negative",
                     (long long)time_ns);
  uint32_t idx = 0;
  if (q->free_head != EVQ_NIL) {
    idx = q->free_head;
    q->free_head = q->slots[idx].kind;
  } else {
    if (q->nslots >= q->cap) {
      int rc = evq_grow(q, err);
      if (rc) return rc;
    }
    idx = q->nslots++;
    q->slots[idx].pos = EVQ_POS_FREE; /* generation 0 */
  }
  evq_slot *s = &q->slots[idx];
  s->time_ns = time_ns;
  s->seq = q->next_seq++;
  s->payload = payload;
  s->prio = prio;
  s->kind = kind;
  s->target = target;
  evq_sift_up(q, q->n++, idx);
  if (handle_out) *handle_out = (s->pos & EVQ_GEN_MASK) | idx;
  return 0;
}

int dcsim_evq_peek(dcsim_evq_t *q, dcsim_event *out) {
  if (q && q->mono) return dcsim__evq_mono_peek(q->mono, out);
  if (!q || q->n == 0) return 0;
  if (out) evq_copy_out(&q->slots[q->heap[0]], out);
  return 1;
}

int dcsim_evq_pop(dcsim_evq_t *q, dcsim_event *out) {
  if (q && q->mono) return dcsim__evq_mono_pop(q->mono, out);
  if (!q || q->n == 0) return 0;
  uint32_t idx = q->heap[0];
  if (out) evq_copy_out(&q->slots[idx], out);
  evq_pop_root(q);
  evq_release_slot(q, idx);
  return 1;
}

int dcsim_evq_replace_top(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind,
                          uint32_t target, uint64_t payload, dcsim_error *err) {
  if (q && q->mono)
    return dcsim__evq_mono_replace_top(q->mono, time_ns, prio, kind, target, payload, err);
  if (!q || q->n == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event queue: replace_top on an empty queue");
  if (time_ns < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event replace: time %lld ns is negative",
                     (long long)time_ns);
  uint32_t idx = q->heap[0];
  evq_slot *sl = &q->slots[idx];
  /* a new event in the old slot: bump the generation so the old handle reads as stale */
  sl->pos = (sl->pos & EVQ_GEN_MASK) + EVQ_GEN_ONE;
  sl->time_ns = time_ns;
  sl->prio = prio;
  sl->kind = kind;
  sl->target = target;
  sl->payload = payload;
  sl->seq = q->next_seq++;
  evq_replace_root(q, idx);
  return 0;
}

int dcsim_evq_reschedule(dcsim_evq_t *q, dcsim_evh h, int64_t new_time_ns, dcsim_error *err) {
  if (!q) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event reschedule: no queue");
  if (q->mono) return dcsim__evq_mono_reschedule(q->mono, h, new_time_ns, err);
  uint32_t idx = 0;
  int rc = evq_lookup(q, h, "event reschedule", &idx, err);
  if (rc) return rc;
  if (new_time_ns < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event reschedule: time %lld ns is negative",
                     (long long)new_time_ns);
  evq_slot *s = &q->slots[idx];
  s->time_ns = new_time_ns;
  s->seq = q->next_seq++;
  evq_fix(q, s->pos & EVQ_INDEX_MASK, idx);
  return 0;
}

int dcsim_evq_cancel(dcsim_evq_t *q, dcsim_evh h, dcsim_error *err) {
  if (!q) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event cancel: no queue");
  if (q->mono) return dcsim__evq_mono_cancel(q->mono, h, err);
  uint32_t idx = 0;
  int rc = evq_lookup(q, h, "event cancel", &idx, err);
  if (rc) return rc;
  uint32_t pos = q->slots[idx].pos & EVQ_INDEX_MASK, last = q->heap[--q->n];
  if (pos < q->n) evq_fix(q, pos, last);
  evq_release_slot(q, idx);
  return 0;
}

size_t dcsim_evq_size(const dcsim_evq_t *q) {
  return !q ? 0 : q->mono ? dcsim__evq_mono_size(q->mono) : q->n;
}

size_t dcsim_evq_bytes(const dcsim_evq_t *q) {
  if (!q) return 0;
  if (q->mono) return sizeof *q + dcsim__evq_mono_bytes(q->mono);
  return sizeof *q + (size_t)q->cap * (sizeof(evq_slot) + sizeof(uint32_t));
}
