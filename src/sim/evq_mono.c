/* evq_mono.c — the monotone event queue of dcsim/evq.h (dcsim_evq_new_monotone): a radix heap on
 * integer times (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the shortest path
 * problem", J. ACM 37(2), 1990) with 4-bit digits, whose buckets are first-in first-out lists of
 * packed records.
 *
 * Every queued record has time >= last (the clock). A record whose time differs from last first
 * in the 4-bit digit of level L (bits 4L..4L+3; L = 0..15) is in bucket 16 L + its digit there
 * (1..255); the records at time == last are in bucket 0, kept as one FIFO per prio. Buckets in
 * index order hold ever later times. A pop takes the head of bucket 0's first non-empty FIFO; when
 * bucket 0 is empty, the lowest non-empty bucket is emptied: last becomes its least time and its
 * records move, in order, to buckets of lower levels. A record thus moves down at most 15 times
 * (about 5 in a hold model of 2 ms spread: 21 bits), each move a sequential copy; with 1-bit
 * digits (the textbook radix heap) it was 11.
 *
 * Why the order is the binary heap's (time, prio, seq): two records with equal times are always
 * in the same bucket (the bucket depends on the time only), a push appends, and emptying a bucket
 * moves its records in their order — so records of equal time stay in push order, and bucket 0
 * splits them by prio. A reschedule or replace_top pushes a new record (a new seq: last among its
 * equals), exactly as the heap orders it.
 *
 * Records live in 4 KiB chunks linked per list; emptied chunks go to a free list and are reused,
 * so memory is the peak of queued records plus at most one partly filled chunk per list. A record
 * takes 16 bytes in bucket 0 (its time is the clock), 20 in the buckets of levels 0-7 (the low 32
 * bits of its time: the others are the clock's) and 24 above. An event
 * pushed with a handle keeps its payload in a handle table entry and its record names the entry
 * and a version: a reschedule bumps the version and pushes a new record, a cancel or pop frees the
 * entry; a record whose version is not its entry's is stale and dropped when met. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/evq.h"
#include "dcsim/strutil.h"
#include "sim/internal.h"

#define MQ_INDEX_MASK ((uint32_t)((UINT32_C(1) << DCSIM_EVQ_INDEX_BITS) - 1))
#define MQ_GEN_MASK   (~MQ_INDEX_MASK)
#define MQ_GEN_ONE    (UINT32_C(1) << DCSIM_EVQ_INDEX_BITS)
#define MQ_LIVE       UINT32_C(1) /* in an entry's gen word: the entry names a queued event */
#define MQ_NIL        UINT32_MAX  /* end of the entries' free list */
#define MQ_PRIOS      256         /* prio -128..127, stored as prio + 128 */
#define MQ_DIGIT      4           /* bits of a time per level of buckets: 16 digits a level */
#define MQ_BUCKETS    256         /* 16 levels x 16 digits; bucket 0 is the FIFOs by prio */
#define MQ_NEAR       8           /* levels 0..7 store the low 32 bits of the time */
#define MQ_HANDLED    (UINT32_C(1) << 24) /* in a record's meta: payload names a handle entry */
#define MQ_KIND_MAX   UINT32_C(0xffff)
#if defined(__GNUC__) /* the hot path of a push, which the compiler would otherwise call */
#define MQ_INLINE __attribute__((always_inline)) inline
#else
#define MQ_INLINE inline
#endif

/* One event, unpacked. In a list it takes 16 bytes in bucket 0's FIFOs (the payload, target and
 * meta: its time is the clock), 20 in buckets of levels below MQ_NEAR (and the low 32 bits of its
 * time: the others are the clock's), 24 elsewhere (and the whole time). */
typedef struct mq_rec {
  uint64_t payload; /* with MQ_HANDLED: version << 32 | handle entry index */
  uint32_t target;
  uint32_t meta; /* prio + 128 (bits 0-7) | kind << 8 (bits 8-23) | MQ_HANDLED */
  int64_t time_ns;
} mq_rec;

_Static_assert(sizeof(mq_rec) == 24, "an event record should stay at 24 bytes");

#define MQ_CHUNK_BYTES 4096u

typedef struct mq_chunk {
  struct mq_chunk *next;
  uint32_t head, n; /* bytes [head, n) of b hold records; head > 0 only at the front of a FIFO */
  unsigned char b[MQ_CHUNK_BYTES - sizeof(void *) - 2 * sizeof(uint32_t)];
} mq_chunk;

typedef struct mq_list {
  mq_chunk *first, *last;
} mq_list;

/* The handle of an event pushed with one. */
typedef struct mq_hent {
  uint64_t payload; /* free entry: index of the next free entry (or MQ_NIL) */
  uint32_t target, meta;
  uint32_t ver; /* version of the event's current record; bumped by reschedule and release */
  uint32_t gen; /* generation (high bits, as in the handle) | MQ_LIVE */
} mq_hent;

/* A set of 0..255: four words and which of them are not zero. */
typedef struct mq_set {
  uint64_t w[4];
  unsigned any; /* bit k: w[k] != 0 */
} mq_set;

static inline void mq_set_add(mq_set *s, unsigned i) {
  s->w[i >> 6] |= UINT64_C(1) << (i & 63);
  s->any |= 1u << (i >> 6);
}

static inline void mq_set_del(mq_set *s, unsigned i) {
  if (!(s->w[i >> 6] &= ~(UINT64_C(1) << (i & 63)))) s->any &= ~(1u << (i >> 6));
}

/* The least member, or -1. */
static inline int mq_set_lowest(const mq_set *s) {
  if (!s->any) return -1;
  int k = __builtin_ctz(s->any);
  return k * 64 + __builtin_ctzll(s->w[k]);
}

struct dcsim_evq_mono {
  int64_t last;  /* the clock */
  size_t queued; /* live events */
  int broken;    /* an allocation failed while records were moving */
  int front;     /* the FIFO whose head is the first event (live), -1 when to be found */
  mq_set bmask;  /* bucket b (1..255) is not empty */
  mq_set pmask;  /* bucket 0's FIFO of prio p - 128 is not empty */
  mq_list bucket[MQ_BUCKETS];
  int64_t bmin[MQ_BUCKETS]; /* least time in each bucket */
  mq_list fifo[MQ_PRIOS];
  mq_chunk *free_chunks;
  size_t n_chunks; /* allocated, in lists or free */
  mq_hent *h;
  uint32_t n_h, cap_h, free_h;
};

/* Bytes of a record in bucket b (0: a FIFO). */
static inline uint32_t mq_size(int b) {
  return b == 0 ? 16 : 20 + 4 * (uint32_t)(b >= MQ_NEAR * 16);
}

#define MQ_HIGH32 (~UINT64_C(0xffffffff))

/* A record of a bucket of a level below MQ_NEAR agrees with the clock above bit 31, and the clock
 * keeps those bits while the record is there: it only moves within the lowest non-empty bucket,
 * whose level is lower, or the same with a lower digit. */
static inline void mq_pack(int b, const mq_rec *r, unsigned char *p) {
  memcpy(p, r, 16);
  if (b >> 4 < MQ_NEAR) {
    uint32_t low = (uint32_t)r->time_ns;
    memcpy(p + 16, &low, 4);
  } else {
    memcpy(p + 16, &r->time_ns, 8);
  }
}

static inline void mq_unpack(int64_t last, int b, const unsigned char *p, mq_rec *r) {
  memcpy(r, p, 16);
  if (b == 0) {
    r->time_ns = last;
  } else if (b >> 4 < MQ_NEAR) {
    uint32_t low;
    memcpy(&low, p + 16, 4);
    r->time_ns = (int64_t)(((uint64_t)last & MQ_HIGH32) | low);
  } else {
    memcpy(&r->time_ns, p + 16, 8);
  }
}

static mq_chunk *mq_chunk_get(dcsim_evq_mono *m) {
  mq_chunk *c = m->free_chunks;
  if (c) {
    m->free_chunks = c->next;
  } else {
    if (!(c = malloc(sizeof *c))) return NULL;
    m->n_chunks++;
  }
  c->next = NULL;
  c->head = c->n = 0;
  return c;
}

static void mq_chunk_put(dcsim_evq_mono *m, mq_chunk *c) {
  c->next = m->free_chunks;
  m->free_chunks = c;
}

/* A new chunk at the end of list l, with room for one record of `size` bytes at its start: a
 * pointer to it, or NULL (out of memory). */
static unsigned char *mq_room_new(dcsim_evq_mono *m, mq_list *l, uint32_t size) {
  mq_chunk *c = mq_chunk_get(m);
  if (!c) return NULL;
  if (l->last)
    l->last->next = c;
  else
    l->first = c;
  l->last = c;
  c->n = size;
  return c->b;
}

/* Room for one more record of `size` bytes at the end of list l, or NULL (out of memory). */
static inline unsigned char *mq_room(dcsim_evq_mono *m, mq_list *l, uint32_t size) {
  mq_chunk *c = l->last;
  if (__builtin_expect(!c || c->n + size > sizeof c->b, 0)) return mq_room_new(m, l, size);
  unsigned char *p = c->b + c->n;
  c->n += size;
  return p;
}

/* Files record r (time >= last) in its bucket. Returns 0 or DCSIM_ENOMEM. */
static MQ_INLINE int mq_place(dcsim_evq_mono *m, const mq_rec *r) {
  uint64_t x = (uint64_t)r->time_ns ^ (uint64_t)m->last;
  unsigned char *p;
  if (x == 0) {
    uint32_t f = r->meta & 0xffu;
    if (!(p = mq_room(m, &m->fifo[f], 16))) return DCSIM_ENOMEM;
    memcpy(p, r, 16);
    mq_set_add(&m->pmask, f);
    if (m->front > (int)f) m->front = (int)f; /* a known front before it no longer is */
    return 0;
  }
  int level = (63 - __builtin_clzll(x)) / MQ_DIGIT; /* r's digit there is above the clock's */
  int b = level << 4 | (int)(((uint64_t)r->time_ns >> (level * MQ_DIGIT)) & 15u);
  mq_list *l = &m->bucket[b];
  int first = !l->last; /* an emptied bucket holds no chunk */
  if (!(p = mq_room(m, l, mq_size(b)))) return DCSIM_ENOMEM;
  if (first) mq_set_add(&m->bmask, (unsigned)b);
  mq_pack(b, r, p);
  if (r->time_ns < m->bmin[b]) m->bmin[b] = r->time_ns;
  return 0;
}

/* A record of an event with a handle that was since rescheduled, cancelled or popped. */
static int mq_stale(const dcsim_evq_mono *m, const mq_rec *r) {
  if (!(r->meta & MQ_HANDLED)) return 0;
  const mq_hent *e = &m->h[(uint32_t)r->payload];
  return !(e->gen & MQ_LIVE) || e->ver != (uint32_t)(r->payload >> 32);
}

/* Empties bucket b (the lowest non-empty one, bucket 0 being empty): the clock moves to its least
 * time and its live records to lower buckets, in order. Returns 0 or DCSIM_ENOMEM (the queue is
 * then broken: every chunk stays in a list, so it can still be freed). */
static int mq_redistribute(dcsim_evq_mono *m, int b) {
  mq_chunk *c = m->bucket[b].first, *last = m->bucket[b].last;
  const uint32_t size = mq_size(b);
  m->bucket[b] = (mq_list){ NULL, NULL };
  mq_set_del(&m->bmask, (unsigned)b);
  m->last = m->bmin[b]; /* above bit 31 the same as before (see mq_pack) */
  m->bmin[b] = INT64_MAX;
  while (c) {
    for (; c->head < c->n; c->head += size) {
      mq_rec r;
      mq_unpack(m->last, b, c->b + c->head, &r);
      if (mq_stale(m, &r)) continue;
      if (mq_place(m, &r)) {
        m->bucket[b] = (mq_list){ c, last }; /* not in order any more: see m->broken */
        m->broken = 1;
        return DCSIM_ENOMEM;
      }
    }
    mq_chunk *next = c->next;
    mq_chunk_put(m, c);
    c = next;
  }
  return 0;
}

/* The head record of bucket 0's FIFO f, unpacked. */
static void mq_head(const dcsim_evq_mono *m, int f, mq_rec *r) {
  const mq_chunk *c = m->fifo[f].first;
  mq_unpack(m->last, 0, c->b + c->head, r);
}

/* Drops the head record of FIFO f. An emptied FIFO keeps its one chunk, rewound. When f held
 * the first event and its next record has no handle (so is live), that record is the first. */
static void mq_fifo_drop(dcsim_evq_mono *m, int f) {
  mq_list *l = &m->fifo[f];
  mq_chunk *c = l->first;
  int was_front = m->front == f;
  m->front = -1;
  if ((c->head += 16) >= c->n) {
    if (c == l->last) {
      c->head = c->n = 0;
      mq_set_del(&m->pmask, (unsigned)f);
      return;
    }
    l->first = c->next;
    mq_chunk_put(m, c);
    c = l->first;
  }
  uint32_t meta;
  memcpy(&meta, c->b + c->head + 12, sizeof meta);
  if (was_front && !(meta & MQ_HANDLED)) m->front = f;
}

/* mq_front when the first event is not known: the first live head of bucket 0's FIFOs, after
 * emptying buckets into them as needed. */
static int mq_find_front(dcsim_evq_mono *m, int *f, mq_rec *r) {
  while (m->queued) {
    *f = mq_set_lowest(&m->pmask);
    if (*f >= 0) {
      mq_head(m, *f, r);
      if (!mq_stale(m, r)) {
        m->front = *f;
        return 1;
      }
      mq_fifo_drop(m, *f);
      continue;
    }
    int b = mq_set_lowest(&m->bmask), rc = b < 0 ? 0 : mq_redistribute(m, b);
    if (b < 0 || rc) return rc; /* (live events are in a bucket: b >= 0) */
  }
  return 0;
}

/* Finds the first live event: writes the index of its FIFO in bucket 0 to *f and the event to
 * *r. Returns 1, 0 when the queue is empty, or DCSIM_ENOMEM. */
static inline int mq_front(dcsim_evq_mono *m, int *f, mq_rec *r) {
  if (m->broken) return DCSIM_ENOMEM;
  if (m->front < 0) return mq_find_front(m, f, r);
  mq_head(m, *f = m->front, r); /* found by the last peek, and nothing queued before it since */
  return 1;
}

/* Frees handle entry i: its handle and its records go stale. */
static void mq_release(dcsim_evq_mono *m, uint32_t i) {
  mq_hent *e = &m->h[i];
  e->gen = (e->gen & MQ_GEN_MASK) + MQ_GEN_ONE; /* wraps in the high bits; not live */
  e->ver++;
  e->payload = m->free_h;
  m->free_h = i;
}

static void mq_copy_out(const dcsim_evq_mono *m, const mq_rec *r, dcsim_event *out) {
  out->time_ns = r->time_ns;
  out->prio = (int32_t)(r->meta & 0xffu) - 128;
  out->kind = (r->meta >> 8) & MQ_KIND_MAX;
  out->target = r->target;
  out->seq = 0;
  out->payload = (r->meta & MQ_HANDLED) ? m->h[(uint32_t)r->payload].payload : r->payload;
}

/* Checks a time for a push, reschedule or replace. Returns 0 or DCSIM_ERANGE. */
static inline int mq_check_time(const dcsim_evq_mono *m, int64_t t, const char *what,
                                dcsim_error *err) {
  if (t < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "%s: time %lld ns is negative", what, (long long)t);
  if (t < m->last)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "%s: time %lld ns is before the queue's clock, %lld ns (a monotone queue)",
                     what, (long long)t, (long long)m->last);
  return 0;
}

/* Packs prio and kind into a record's meta. Returns 0 or DCSIM_ERANGE. */
static inline int mq_meta(int32_t prio, uint32_t kind, uint32_t *meta, const char *what,
                          dcsim_error *err) {
  if (prio < -128 || prio > 127)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "%s: prio %ld is outside -128..127 (a monotone queue)", what, (long)prio);
  if (kind > MQ_KIND_MAX)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "%s: kind %lu is above %lu (a monotone queue)", what,
                     (unsigned long)kind, (unsigned long)MQ_KIND_MAX);
  *meta = (uint32_t)(prio + 128) | kind << 8;
  return 0;
}

/* A free handle entry. Returns its index, or MQ_NIL when the table cannot grow. */
static uint32_t mq_entry_new(dcsim_evq_mono *m) {
  if (m->free_h != MQ_NIL) {
    uint32_t i = m->free_h;
    m->free_h = (uint32_t)m->h[i].payload;
    return i;
  }
  if (m->n_h == m->cap_h) {
    if (m->cap_h >= DCSIM_EVQ_MAX_EVENTS) return MQ_NIL;
    uint32_t cap = m->cap_h < 16                         ? 16
                   : m->cap_h > DCSIM_EVQ_MAX_EVENTS / 2 ? DCSIM_EVQ_MAX_EVENTS
                                                         : 2 * m->cap_h;
    if (DCSIM_RESIZE(m->h, cap)) return MQ_NIL;
    m->cap_h = cap;
  }
  m->h[m->n_h] = (mq_hent){ 0, 0, 0, 0, 0 }; /* generation 0 */
  return m->n_h++;
}

dcsim_evq_mono *dcsim__evq_mono_new(void) {
  dcsim_evq_mono *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  for (int b = 0; b < MQ_BUCKETS; b++) m->bmin[b] = INT64_MAX;
  m->free_h = MQ_NIL;
  m->front = -1;
  return m;
}

static void mq_list_free(mq_list *l) {
  for (mq_chunk *c = l->first, *next; c; c = next) {
    next = c->next;
    free(c);
  }
}

void dcsim__evq_mono_free(dcsim_evq_mono *m) {
  if (!m) return;
  for (int b = 0; b < MQ_BUCKETS; b++) mq_list_free(&m->bucket[b]);
  for (int p = 0; p < MQ_PRIOS; p++) mq_list_free(&m->fifo[p]);
  mq_list l = { m->free_chunks, NULL };
  mq_list_free(&l);
  free(m->h);
  free(m);
}

int dcsim__evq_mono_push(dcsim_evq_mono *m, int64_t time_ns, int32_t prio, uint32_t kind,
                         uint32_t target, uint64_t payload, dcsim_evh *handle_out,
                         dcsim_error *err) {
  mq_rec r = { payload, target, 0, time_ns };
  int rc = mq_check_time(m, time_ns, "event push", err);
  if (!rc) rc = mq_meta(prio, kind, &r.meta, "event push", err);
  if (rc) return rc;
  if (m->broken) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: out of memory");
  uint32_t i = MQ_NIL;
  if (handle_out) {
    if ((i = mq_entry_new(m)) == MQ_NIL)
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0,
                       "event queue: cannot hold more than %lu events with handles",
                       (unsigned long)m->cap_h);
    mq_hent *e = &m->h[i];
    e->payload = payload;
    e->target = target;
    e->meta = r.meta;
    e->ver++;
    r.payload = (uint64_t)e->ver << 32 | i;
    r.meta |= MQ_HANDLED;
  }
  if (mq_place(m, &r)) {
    if (i != MQ_NIL) mq_release(m, i);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: out of memory");
  }
  m->queued++;
  if (i != MQ_NIL) {
    m->h[i].gen |= MQ_LIVE;
    *handle_out = (m->h[i].gen & MQ_GEN_MASK) | i;
  }
  return 0;
}

/* Removes the first event r, the head of FIFO f, freeing its handle entry. */
static void mq_drop_front(dcsim_evq_mono *m, int f, const mq_rec *r) {
  if (r->meta & MQ_HANDLED) mq_release(m, (uint32_t)r->payload);
  mq_fifo_drop(m, f);
  m->queued--;
}

int dcsim__evq_mono_pop(dcsim_evq_mono *m, dcsim_event *out) {
  mq_rec r;
  int f = 0, rc = mq_front(m, &f, &r);
  if (rc != 1) return rc;
  if (out) mq_copy_out(m, &r, out);
  mq_drop_front(m, f, &r);
  return 1;
}

int dcsim__evq_mono_peek(dcsim_evq_mono *m, dcsim_event *out) {
  mq_rec r;
  int f = 0, rc = mq_front(m, &f, &r);
  if (rc == 1 && out) mq_copy_out(m, &r, out);
  return rc;
}

int dcsim__evq_mono_replace_top(dcsim_evq_mono *m, int64_t time_ns, int32_t prio, uint32_t kind,
                                uint32_t target, uint64_t payload, dcsim_error *err) {
  mq_rec old;
  int f = 0, rc = mq_front(m, &f, &old);
  if (rc < 0) return DCSIM_ERR(err, rc, "", 0, "event queue: out of memory");
  if (rc == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "event queue: replace_top on an empty queue");
  mq_rec r = { payload, target, 0, time_ns };
  if ((rc = mq_check_time(m, time_ns, "event replace", err)) ||
      (rc = mq_meta(prio, kind, &r.meta, "event replace", err)))
    return rc;
  /* the new record first (it never moves the head's chunk), then the old head goes */
  if (mq_place(m, &r)) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: out of memory");
  m->queued++;
  mq_drop_front(m, f, &old);
  return 0;
}

/* Checks handle h: its entry index in *i. Returns 0 or DCSIM_ERANGE. */
static int mq_lookup(const dcsim_evq_mono *m, dcsim_evh h, const char *what, uint32_t *i,
                     dcsim_error *err) {
  uint32_t idx = h & MQ_INDEX_MASK;
  if (idx >= m->n_h) return dcsim__evq_bad_handle(err, what, h, m->n_h, 0);
  uint32_t g = m->h[idx].gen;
  if (!(g & MQ_LIVE) || (g & MQ_GEN_MASK) != (h & MQ_GEN_MASK))
    return dcsim__evq_bad_handle(err, what, h, m->n_h, 1);
  *i = idx;
  return 0;
}

int dcsim__evq_mono_reschedule(dcsim_evq_mono *m, dcsim_evh h, int64_t new_time_ns,
                               dcsim_error *err) {
  uint32_t i = 0;
  int rc = mq_lookup(m, h, "event reschedule", &i, err);
  if (!rc) rc = mq_check_time(m, new_time_ns, "event reschedule", err);
  if (rc) return rc;
  if (m->broken) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: out of memory");
  mq_hent *e = &m->h[i];
  mq_rec r = { (uint64_t)(e->ver + 1) << 32 | i, e->target, e->meta | MQ_HANDLED, new_time_ns };
  if (mq_place(m, &r)) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "event queue: out of memory");
  e->ver++; /* the old record is stale from now on */
  m->front = -1;
  return 0;
}

int dcsim__evq_mono_cancel(dcsim_evq_mono *m, dcsim_evh h, dcsim_error *err) {
  uint32_t i = 0;
  int rc = mq_lookup(m, h, "event cancel", &i, err);
  if (rc) return rc;
  mq_release(m, i); /* its record stays, stale, until the clock reaches it */
  m->queued--;
  m->front = -1;
  return 0;
}

size_t dcsim__evq_mono_size(const dcsim_evq_mono *m) { return m->queued; }

size_t dcsim__evq_mono_bytes(const dcsim_evq_mono *m) {
  return sizeof *m + m->n_chunks * sizeof(mq_chunk) + (size_t)m->cap_h * sizeof(mq_hent);
}
