/* evq.c — the engine's event queue: slot pool + indexed binary heap (see dcsim/evq.h). */
#include "dcsim/evq.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Low DCSIM_EVQ_INDEX_BITS bits of a handle: slot index; high bits: generation. The same split is
 * used for a slot's `pos` word: low bits heap position (EVQ_POS_FREE when the slot is free), high
 * bits the slot's current generation. */
#define EVQ_INDEX_MASK ((uint32_t)((UINT32_C(1) << DCSIM_EVQ_INDEX_BITS) - 1))
#define EVQ_GEN_MASK   (~EVQ_INDEX_MASK)
#define EVQ_GEN_ONE    (UINT32_C(1) << DCSIM_EVQ_INDEX_BITS)
#define EVQ_POS_FREE   EVQ_INDEX_MASK /* never a heap position: those are < DCSIM_EVQ_MAX_EVENTS */
#define EVQ_POS_RUN    (EVQ_INDEX_MASK - 1) /* queued in a run, not in the heap (idem) */
#define EVQ_RUNS       2                    /* sorted runs beside the heap (dcsim_evq_use_runs) */
#define EVQ_NIL        EVQ_INDEX_MASK       /* end of the free list */
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
_Static_assert(DCSIM_EVQ_MAX_EVENTS <= EVQ_POS_RUN,
               "heap positions (< MAX_EVENTS) stay below the markers");

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

/* A sorted run: slot indices a[head .. head+n) in strictly increasing (time, prio, seq). */
typedef struct evq_run {
  uint32_t *a; /* cap_heap entries */
  uint32_t head, n;
} evq_run;

struct dcsim_evq {
  evq_slot *slots; /* pool; slots [0, nslots) have been used at least once */
  uint32_t *heap;  /* heap[0..n) are slot indices; heap[0] is the first event of the heap */
  uint32_t n;      /* events in the heap */
  uint32_t queued; /* events queued: heap + runs */
  int use_runs;
  int first; /* where the first event is (evq_first), kept by every change */
  evq_run run[EVQ_RUNS];
  uint32_t nslots;    /* high-water mark of the pool: n + length of the free list */
  uint32_t cap_slots; /* allocated length of slots */
  uint32_t cap_heap;  /* allocated length of heap */
  uint32_t free_head; /* first free slot below nslots, or EVQ_NIL */
  uint64_t next_seq;  /* seq of the next push/reschedule */
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

/* Puts slot idx into the hole at heap position pos and moves it towards the leaves. */
static void evq_sift_down(dcsim_evq_t *q, uint32_t pos, uint32_t idx) {
  evq_slot *slots = q->slots;
  uint32_t *heap = q->heap;
  const uint32_t n = q->n;
  const evq_slot *s = &slots[idx];
  for (;;) {
    uint32_t c = 2 * pos + 1; /* pos < 2^26, no overflow */
    if (c >= n) break;
    uint32_t g = 2 * c + 1;
    if (n >= EVQ_PREFETCH_MIN && g + 3 < n) { /* see evq_pop_root */
      EVQ_PREFETCH(&slots[heap[g]]);
      EVQ_PREFETCH(&slots[heap[g + 1]]);
      EVQ_PREFETCH(&slots[heap[g + 2]]);
      EVQ_PREFETCH(&slots[heap[g + 3]]);
    }
    uint32_t ci = heap[c];
    if (c + 1 < n) {
      uint32_t di = heap[c + 1];
      if (evq_less(&slots[di], &slots[ci])) {
        c++;
        ci = di;
      }
    }
    if (!evq_less(&slots[ci], s)) break;
    heap[pos] = ci;
    evq_set_pos(&slots[ci], pos);
    pos = c;
  }
  heap[pos] = idx;
  evq_set_pos(&slots[idx], pos);
}

/* Removes the first event (Wegener's bottom-up deletemin): walk the hole at the root down along
 * the smaller children to a leaf (one comparison per level instead of two), then sift the last
 * element up from there, which is usually short since it came from the bottom. While at a level
 * the slots two levels down are prefetched: with slot indices in the heap every comparison is a
 * random access into the pool, and this overlaps those cache misses. */
static void evq_pop_root(dcsim_evq_t *q) {
  evq_slot *slots = q->slots;
  uint32_t *heap = q->heap;
  const uint32_t n = --q->n; /* heap[n] is the last element, to be re-placed */
  uint32_t hole = 0;
  for (;;) {
    uint32_t c = 2 * hole + 1;
    if (c >= n) break;
    uint32_t g = 2 * c + 1; /* first grandchild */
    if (n >= EVQ_PREFETCH_MIN && g + 3 < n) {
      EVQ_PREFETCH(&slots[heap[g]]);
      EVQ_PREFETCH(&slots[heap[g + 1]]);
      EVQ_PREFETCH(&slots[heap[g + 2]]);
      EVQ_PREFETCH(&slots[heap[g + 3]]);
    }
    uint32_t ci = heap[c];
    if (c + 1 < n) {
      uint32_t di = heap[c + 1];
      if (evq_less(&slots[di], &slots[ci])) {
        c++;
        ci = di;
      }
    }
    heap[hole] = ci;
    evq_set_pos(&slots[ci], hole);
    hole = c;
  }
  if (hole < n) evq_sift_up(q, hole, heap[n]);
}

/* Puts slot idx, whose new key is not before the root's, at the root position (0) of the heap:
 * if it comes before both children it stays at the root (one comparison more than that test);
 * otherwise the hole walks down along the smaller children to a leaf and idx is sifted up from
 * there (bottom-up, one comparison per level instead of two). The engine's replaced event is
 * either the job's next event at the same instant (stays at the root) or one far in the future
 * (goes back near the leaves), so both cases are short. */
static void evq_replace_root(dcsim_evq_t *q, uint32_t idx) {
  evq_slot *slots = q->slots;
  uint32_t *heap = q->heap;
  const uint32_t n = q->n;
  const evq_slot *s = &slots[idx];
  uint32_t c = 1;
  if (c < n) {
    uint32_t ci = heap[c];
    if (c + 1 < n && evq_less(&slots[heap[c + 1]], &slots[ci])) ci = heap[++c];
    if (!evq_less(&slots[ci], s)) c = n; /* idx comes first: it stays at the root */
  }
  if (c >= n) {
    heap[0] = idx;
    evq_set_pos(&slots[idx], 0);
    return;
  }
  uint32_t hole = 0;
  for (;;) { /* bottom-up: the smaller child moves up into the hole */
    c = 2 * hole + 1;
    if (c >= n) break;
    uint32_t g = 2 * c + 1;
    if (n >= EVQ_PREFETCH_MIN && g + 3 < n) {
      EVQ_PREFETCH(&slots[heap[g]]);
      EVQ_PREFETCH(&slots[heap[g + 1]]);
      EVQ_PREFETCH(&slots[heap[g + 2]]);
      EVQ_PREFETCH(&slots[heap[g + 3]]);
    }
    uint32_t ci = heap[c];
    if (c + 1 < n) {
      uint32_t di = heap[c + 1];
      if (evq_less(&slots[di], &slots[ci])) {
        c++;
        ci = di;
      }
    }
    heap[hole] = ci;
    evq_set_pos(&slots[ci], hole);
    hole = c;
  }
  evq_sift_up(q, hole, idx);
}

/* Slot idx, now at heap position pos, has a new key: restore the heap order. */
static void evq_fix(dcsim_evq_t *q, uint32_t pos, uint32_t idx) {
  if (pos > 0 && evq_less(&q->slots[idx], &q->slots[q->heap[(pos - 1) / 2]]))
    evq_sift_up(q, pos, idx);
  else
    evq_sift_down(q, pos, idx);
}

/* ---- sorted runs (dcsim_evq_use_runs) ----
 * Events pushed in increasing order — the engine's common case: jobs in lockstep queue their next
 * events in the order they are handled — are appended to a run in O(1) instead of being sifted
 * through the heap; the first event is the smallest of the heap's root and the runs' heads. An
 * event goes to the first run whose last event comes before it, else to the heap. */

static inline uint32_t run_first(const evq_run *r) { return r->a[r->head]; }

/* Appends idx to a run if one ends before it: 1, else 0. */
static int evq_run_append(dcsim_evq_t *q, uint32_t idx) {
  for (int k = 0; k < EVQ_RUNS; k++) {
    evq_run *r = &q->run[k];
    if (r->n && !evq_less(&q->slots[r->a[r->head + r->n - 1]], &q->slots[idx])) continue;
    if (r->head + r->n == q->cap_heap) { /* at the end of its array: move to the front (head > 0) */
      memmove(r->a, r->a + r->head, (size_t)r->n * sizeof *r->a);
      r->head = 0;
    }
    r->a[r->head + r->n++] = idx;
    evq_set_pos(&q->slots[idx], EVQ_POS_RUN);
    return 1;
  }
  return 0;
}

/* Queues slot idx (its key set, not yet in the heap or a run). */
static void evq_insert(dcsim_evq_t *q, uint32_t idx) {
  if (q->use_runs && evq_run_append(q, idx)) return;
  evq_sift_up(q, q->n++, idx);
}

/* Where the first event is: -1 the heap's root (or an empty queue), else the run. */
static int evq_first(const dcsim_evq_t *q) {
  if (!q->use_runs) return -1;
  int w = -1;
  const evq_slot *best = q->n ? &q->slots[q->heap[0]] : NULL;
  for (int k = 0; k < EVQ_RUNS; k++) {
    const evq_run *r = &q->run[k];
    if (r->n && (!best || evq_less(&q->slots[run_first(r)], best))) {
      best = &q->slots[run_first(r)];
      w = k;
    }
  }
  return w;
}

static void evq_run_pop(evq_run *r) {
  r->head++;
  if (--r->n == 0) r->head = 0;
}

/* Removes slot idx, queued in a run, from it (O(run length): only reschedule and cancel do it). */
static void evq_run_remove(dcsim_evq_t *q, uint32_t idx) {
  for (int k = 0; k < EVQ_RUNS; k++) {
    evq_run *r = &q->run[k];
    for (uint32_t i = 0; i < r->n; i++)
      if (r->a[r->head + i] == idx) {
        memmove(r->a + r->head + i, r->a + r->head + i + 1, (size_t)(r->n - i - 1) * sizeof *r->a);
        if (--r->n == 0) r->head = 0;
        return;
      }
  }
}

/* Returns a slot to the free list and bumps its generation (wrapping in the high bits). */
static void evq_release_slot(dcsim_evq_t *q, uint32_t idx) {
  evq_slot *s = &q->slots[idx];
  s->pos = ((s->pos & EVQ_GEN_MASK) + EVQ_GEN_ONE) | EVQ_POS_FREE;
  s->kind = q->free_head;
  q->free_head = idx;
}

/* Removes the event at heap position pos and frees its slot. */
static void evq_remove_at(dcsim_evq_t *q, uint32_t pos) {
  uint32_t idx = q->heap[pos];
  uint32_t last = q->heap[--q->n];
  if (pos < q->n) evq_fix(q, pos, last);
  evq_release_slot(q, idx);
}

/* Grows the pool (and heap) by doubling. Returns 0 or DCSIM_ENOMEM. */
static int evq_grow(dcsim_evq_t *q, dcsim_error *err) {
  uint32_t cap = q->cap_slots < q->cap_heap ? q->cap_slots : q->cap_heap;
  if (cap >= DCSIM_EVQ_MAX_EVENTS)
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0,
                     "event queue full: %lu events queued, the limit is %lu",
                     (unsigned long)q->queued, (unsigned long)DCSIM_EVQ_MAX_EVENTS);
  uint32_t newcap = cap > DCSIM_EVQ_MAX_EVENTS / 2 ? DCSIM_EVQ_MAX_EVENTS : 2 * cap;
  if (q->cap_slots < newcap) {
    evq_slot *p = realloc(q->slots, (size_t)newcap * sizeof *p);
    if (!p) goto nomem;
    q->slots = p;
    q->cap_slots = newcap;
  }
  if (q->cap_heap < newcap) {
    for (int k = 0; q->use_runs && k < EVQ_RUNS; k++) {
      uint32_t *p = realloc(q->run[k].a, (size_t)newcap * sizeof *p);
      if (!p) goto nomem;
      q->run[k].a = p;
    }
    uint32_t *p = realloc(q->heap, (size_t)newcap * sizeof *p);
    if (!p) goto nomem;
    q->heap = p;
    q->cap_heap = newcap;
  }
  return 0;
nomem:
  return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: cannot grow to %lu events",
                   (unsigned long)newcap);
}

/* Checks handle h and returns its slot index in *idx_out. Returns 0 or DCSIM_ERANGE. */
static int evq_lookup(const dcsim_evq_t *q, dcsim_evh h, const char *what, uint32_t *idx_out,
                      dcsim_error *err) {
  uint32_t idx = h & EVQ_INDEX_MASK;
  if (idx >= q->nslots)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "%s: event handle 0x%08lx is out of range (slot %lu, the pool has %lu)", what,
                     (unsigned long)h, (unsigned long)idx, (unsigned long)q->nslots);
  uint32_t pos = q->slots[idx].pos;
  if ((pos & EVQ_INDEX_MASK) == EVQ_POS_FREE || (pos & EVQ_GEN_MASK) != (h & EVQ_GEN_MASK))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "%s: event handle 0x%08lx is stale (its event was popped or cancelled)", what,
                     (unsigned long)h);
  *idx_out = idx;
  return 0;
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
  q->cap_slots = q->cap_heap = cap;
  q->free_head = EVQ_NIL;
  q->first = -1;
  return q;
}

void dcsim_evq_free(dcsim_evq_t *q) {
  if (!q) return;
  free(q->slots);
  free(q->heap);
  for (int k = 0; k < EVQ_RUNS; k++) free(q->run[k].a);
  free(q);
}

int dcsim_evq_use_runs(dcsim_evq_t *q, dcsim_error *err) {
  if (!q || q->queued)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "event queue: runs are chosen while the queue is empty");
  for (int k = 0; k < EVQ_RUNS; k++) {
    uint32_t *p = realloc(q->run[k].a, (size_t)q->cap_heap * sizeof *p);
    if (!p) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: out of memory");
    q->run[k].a = p;
    q->run[k].head = q->run[k].n = 0;
  }
  q->use_runs = 1;
  return 0;
}

int dcsim_evq_push(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind, uint32_t target,
                   uint64_t payload, dcsim_evh *handle_out, dcsim_error *err) {
  if (!q) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event push: no queue");
  if (time_ns < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event push: time %lld ns is negative",
                     (long long)time_ns);
  uint32_t idx = 0;
  if (q->free_head != EVQ_NIL) {
    idx = q->free_head;
    q->free_head = q->slots[idx].kind;
  } else {
    if (q->nslots >= q->cap_slots || q->nslots >= q->cap_heap) {
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
  evq_insert(q, idx);
  q->queued++;
  q->first = evq_first(q);
  if (handle_out) *handle_out = (s->pos & EVQ_GEN_MASK) | idx;
  return 0;
}

int dcsim_evq_peek(const dcsim_evq_t *q, dcsim_event *out) {
  if (!q || q->queued == 0) return 0;
  int w = q->first;
  if (out) evq_copy_out(&q->slots[w < 0 ? q->heap[0] : run_first(&q->run[w])], out);
  return 1;
}

int dcsim_evq_pop(dcsim_evq_t *q, dcsim_event *out) {
  if (!q || q->queued == 0) return 0;
  int w = q->first;
  uint32_t idx = w < 0 ? q->heap[0] : run_first(&q->run[w]);
  if (out) evq_copy_out(&q->slots[idx], out);
  if (w < 0)
    evq_pop_root(q);
  else
    evq_run_pop(&q->run[w]);
  evq_release_slot(q, idx);
  q->queued--;
  q->first = evq_first(q);
  return 1;
}

int dcsim_evq_replace_top(dcsim_evq_t *q, int64_t time_ns, int32_t prio, uint32_t kind,
                          uint32_t target, uint64_t payload, dcsim_error *err) {
  if (!q || q->queued == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event queue: replace_top on an empty queue");
  if (time_ns < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event queue: negative time %lld ns",
                     (long long)time_ns);
  int w = q->first;
  uint32_t idx = w < 0 ? q->heap[0] : run_first(&q->run[w]);
  evq_slot *sl = &q->slots[idx];
  /* a new event in the old slot: bump the generation so the old handle reads as stale */
  sl->pos = ((sl->pos & EVQ_GEN_MASK) + EVQ_GEN_ONE) | 0;
  sl->time_ns = time_ns;
  sl->prio = prio;
  sl->kind = kind;
  sl->target = target;
  sl->payload = payload;
  sl->seq = q->next_seq++;
  if (w >= 0) { /* from the head of a run to wherever it now belongs */
    evq_run_pop(&q->run[w]);
    evq_insert(q, idx);
  } else if (q->use_runs && evq_run_append(q, idx)) {
    evq_pop_root(q); /* moves the heap's other events up over the root, which idx has left */
  } else {
    evq_replace_root(q, idx);
  }
  q->first = evq_first(q);
  return 0;
}

int dcsim_evq_reschedule(dcsim_evq_t *q, dcsim_evh h, int64_t new_time_ns, dcsim_error *err) {
  if (!q) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event reschedule: no queue");
  uint32_t idx = 0;
  int rc = evq_lookup(q, h, "event reschedule", &idx, err);
  if (rc) return rc;
  if (new_time_ns < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event reschedule: time %lld ns is negative",
                     (long long)new_time_ns);
  evq_slot *s = &q->slots[idx];
  s->time_ns = new_time_ns;
  s->seq = q->next_seq++;
  if ((s->pos & EVQ_INDEX_MASK) == EVQ_POS_RUN) {
    evq_run_remove(q, idx);
    evq_insert(q, idx);
  } else {
    evq_fix(q, s->pos & EVQ_INDEX_MASK, idx);
  }
  q->first = evq_first(q);
  return 0;
}

int dcsim_evq_cancel(dcsim_evq_t *q, dcsim_evh h, dcsim_error *err) {
  if (!q) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event cancel: no queue");
  uint32_t idx = 0;
  int rc = evq_lookup(q, h, "event cancel", &idx, err);
  if (rc) return rc;
  uint32_t pos = q->slots[idx].pos & EVQ_INDEX_MASK;
  if (pos == EVQ_POS_RUN) {
    evq_run_remove(q, idx);
    evq_release_slot(q, idx);
  } else {
    evq_remove_at(q, pos);
  }
  q->queued--;
  q->first = evq_first(q);
  return 0;
}

size_t dcsim_evq_size(const dcsim_evq_t *q) { return q ? q->queued : 0; }

size_t dcsim_evq_bytes(const dcsim_evq_t *q) {
  if (!q) return 0;
  return sizeof *q + (size_t)q->cap_slots * sizeof(evq_slot) +
         (size_t)q->cap_heap * sizeof(uint32_t) * (q->use_runs ? 1 + EVQ_RUNS : 1);
}
