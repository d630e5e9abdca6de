/* test_evq.c — event queues: order (time, prio, FIFO), reschedule, cancel, handle checks, for
 * the binary heap and the monotone queue alike; the monotone queue's limits; and seeded random
 * operation sequences run on both queues side by side and on a linear-scan reference, which must
 * pop the same events in the same order. */
#include "dcsim/evq.h"
#include "dcsim/lib.h"

#include "check.h"

#include <stdint.h>
#include <stdlib.h>

/* xorshift64*: the test's own deterministic RNG. */
static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t rng_next(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}
static uint32_t rng_below(uint32_t n) { return (uint32_t)((rng_next() >> 32) % n); }

#define SLOT_OF(h) ((h) & ((UINT32_C(1) << DCSIM_EVQ_INDEX_BITS) - 1))

/* mono: a monotone queue, else a binary heap (with a capacity hint) */
static dcsim_evq_t *new_q(int mono, size_t hint) {
  return mono ? dcsim_evq_new_monotone() : dcsim_evq_new(hint);
}

static void test_empty(int mono) {
  dcsim_evq_t *q = new_q(mono, 0);
  CHECK(q != NULL);
  dcsim_event e;
  CHECK_INT(dcsim_evq_pop(q, &e), 0);
  CHECK_INT(dcsim_evq_peek(q, &e), 0);
  CHECK_INT((long long)dcsim_evq_size(q), 0);
  CHECK(dcsim_evq_bytes(q) > 0);
  dcsim_evq_free(q);
  dcsim_evq_free(NULL);
  CHECK_INT((long long)dcsim_evq_size(NULL), 0);
  CHECK_INT(dcsim_evq_pop(NULL, &e), 0);
}

static void test_order(int mono) {
  dcsim_evq_t *q = new_q(mono, 4);
  dcsim_error err = { 0 };
  /* pushed out of order; target = expected rank */
  struct {
    int64_t t;
    int32_t p;
    uint32_t rank;
  } in[] = { { 2385, 0, 7 },  { 1000, 3, 4 }, { 1000, -7, 1 }, { 1000, 0, 2 }, { 99999, -100, 10 },
             { 1000, 0, 3 }, /* same (time, prio) as rank 2: FIFO */
             { 2385, -1, 6 }, { 1001, 5, 5 }, { 2385, 0, 8 },  { 2385, 0, 9 }, { 0, 0, 0 } };
  const uint32_t nin = sizeof in / sizeof in[0];
  for (uint32_t i = 0; i < nin; i++)
    CHECK_INT(dcsim_evq_push(q, in[i].t, in[i].p, 7, in[i].rank, 1000 + i, NULL, &err), 0);
  CHECK_INT((long long)dcsim_evq_size(q), (long long)nin);
  dcsim_event e, pk;
  for (uint32_t r = 0; r < nin; r++) {
    CHECK_INT(dcsim_evq_peek(q, &pk), 1);
    CHECK_INT(dcsim_evq_pop(q, &e), 1);
    CHECK_INT(e.target, r);
    CHECK_INT(pk.target, e.target);
    CHECK_INT((long long)pk.payload, (long long)e.payload);
    CHECK_INT(e.kind, 7);
    uint32_t i = (uint32_t)(e.payload - 1000);            /* push index */
    CHECK_INT((long long)e.seq, mono ? 0 : (long long)i); /* the monotone queue keeps no seq */
    CHECK_INT(e.time_ns, in[i].t);
    CHECK_INT(e.prio, in[i].p);
  }
  CHECK_INT(dcsim_evq_pop(q, &e), 0);
  CHECK_INT(err.code, 0); /* untouched on success */
  dcsim_evq_free(q);
}

static void test_fifo_many(int mono) {
  /* 1000 equal events, pushed through several pool growths, come out in push order */
  dcsim_evq_t *q = new_q(mono, 1);
  for (uint32_t i = 0; i < 1000; i++) CHECK_INT(dcsim_evq_push(q, 2385, 1, 0, i, 0, NULL, NULL), 0);
  dcsim_event e;
  int ok = 1;
  for (uint32_t i = 0; i < 1000; i++) {
    dcsim_evq_pop(q, &e);
    if (e.target != i) ok = 0;
  }
  CHECK(ok);
  CHECK(dcsim_evq_bytes(q) >= 1000 * (mono ? 24 : 40 + 4));
  dcsim_evq_free(q);
}

static void test_reschedule(int mono) {
  dcsim_evq_t *q = new_q(mono, 8);
  dcsim_error err = { 0 };
  dcsim_evh h[5];
  for (uint32_t i = 0; i < 5; i++)
    CHECK_INT(dcsim_evq_push(q, 100 * (i + 1), 0, 0, i, 0, &h[i], &err), 0);
  /* times: 0:100 1:200 2:300 3:400 4:500 */
  CHECK_INT(dcsim_evq_reschedule(q, h[4], 50, &err), 0);  /* earlier: now first */
  CHECK_INT(dcsim_evq_reschedule(q, h[0], 450, &err), 0); /* later */
  CHECK_INT(dcsim_evq_reschedule(q, h[1], 300, &err), 0); /* same time as 2: goes after it */
  dcsim_event e;
  uint32_t want[] = { 4, 2, 1, 3, 0 };
  int64_t want_t[] = { 50, 300, 300, 400, 450 };
  for (int i = 0; i < 5; i++) {
    CHECK_INT(dcsim_evq_pop(q, &e), 1);
    CHECK_INT(e.target, want[i]);
    CHECK_INT(e.time_ns, want_t[i]);
  }
  CHECK_INT(err.code, 0);

  /* reschedule keeps prio: prio -1 moved to a time holding an older prio-0 event still wins */
  dcsim_evh a, b;
  dcsim_evq_push(q, 1000, 0, 0, 10, 0, &a, NULL);
  dcsim_evq_push(q, 5000, -1, 0, 11, 0, &b, NULL);
  CHECK_INT(dcsim_evq_reschedule(q, b, 1000, &err), 0);
  dcsim_evq_pop(q, &e);
  CHECK_INT(e.target, 11);
  CHECK_INT(e.prio, -1);
  /* reschedule to the same time moves it behind its equals */
  dcsim_evh c;
  dcsim_evq_push(q, 1000, 0, 0, 12, 0, &c, NULL);
  CHECK_INT(dcsim_evq_reschedule(q, a, 1000, &err), 0);
  dcsim_evq_pop(q, &e);
  CHECK_INT(e.target, 12);
  dcsim_evq_pop(q, &e);
  CHECK_INT(e.target, 10);
  /* a handle survives a reschedule; its payload and kind too */
  dcsim_evq_push(q, 1007, 0, 3, 13, 2385, &c, NULL);
  CHECK_INT(dcsim_evq_reschedule(q, c, 1070, &err), 0);
  CHECK_INT(dcsim_evq_reschedule(q, c, 1700, &err), 0);
  CHECK_INT(dcsim_evq_peek(q, &e), 1);
  CHECK_INT(e.time_ns, 1700);
  CHECK_INT((long long)e.payload, 2385);
  CHECK_INT(e.kind, 3);
  CHECK_INT(dcsim_evq_cancel(q, c, &err), 0);
  CHECK_INT((long long)dcsim_evq_size(q), 0);
  CHECK_INT(dcsim_evq_pop(q, &e), 0);
  dcsim_evq_free(q);
}

static void test_cancel(int mono) {
  dcsim_evq_t *q = new_q(mono, 0);
  dcsim_error err = { 0 };
  dcsim_evh h[20];
  for (uint32_t i = 0; i < 20; i++) dcsim_evq_push(q, (i * 7919) % 20, 0, 0, i, 0, &h[i], NULL);
  /* (i*7919)%20 is a permutation of 0..19 */
  for (uint32_t i = 0; i < 20; i += 3) CHECK_INT(dcsim_evq_cancel(q, h[i], &err), 0);
  CHECK_INT((long long)dcsim_evq_size(q), 13);
  dcsim_event e;
  int64_t last = -1;
  int n = 0, ok = 1;
  while (dcsim_evq_pop(q, &e)) {
    if (e.time_ns <= last || e.target % 3 == 0) ok = 0;
    last = e.time_ns;
    n++;
  }
  CHECK(ok);
  CHECK_INT(n, 13);
  CHECK_INT(err.code, 0);
  /* cancel the only event, the root, the last */
  dcsim_evh a;
  dcsim_evq_push(q, 25, 0, 0, 0, 0, &a, NULL);
  CHECK_INT(dcsim_evq_cancel(q, a, &err), 0);
  CHECK_INT(dcsim_evq_pop(q, &e), 0);
  dcsim_evq_free(q);
}

static void test_bad_handles(int mono) {
  dcsim_evq_t *q = new_q(mono, 0);
  dcsim_error err;
  dcsim_evh a, b;
  CHECK_INT(dcsim_evq_push(q, 10, 0, 0, 1, 0, &a, NULL), 0);
  CHECK_INT(dcsim_evq_push(q, 20, 0, 0, 2, 0, &b, NULL), 0);

  memset(&err, 0, sizeof err);
  CHECK_INT(dcsim_evq_cancel(q, DCSIM_EVH_NONE, &err), DCSIM_ERANGE);
  CHECK_INT(err.code, DCSIM_ERANGE);
  CHECK(strstr(err.msg, "out of range") != NULL);
  CHECK_INT(dcsim_evq_reschedule(q, 12345, 5, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_reschedule(q, a + 2, 5, NULL), DCSIM_ERANGE); /* never-used slot */

  /* popped: stale, slot free */
  dcsim_event e;
  dcsim_evq_pop(q, &e);
  CHECK_INT(e.target, 1);
  memset(&err, 0, sizeof err);
  CHECK_INT(dcsim_evq_cancel(q, a, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "stale") != NULL);
  CHECK_INT(dcsim_evq_reschedule(q, a, 15, &err), DCSIM_ERANGE);

  /* slot reused by a new event: the old handle is still stale, the new one differs */
  dcsim_evh c;
  CHECK_INT(dcsim_evq_push(q, 30, 0, 0, 3, 0, &c, NULL), 0);
  CHECK(c != a);
  CHECK_INT(SLOT_OF(c), SLOT_OF(a)); /* same slot */
  CHECK_INT(dcsim_evq_cancel(q, a, &err), DCSIM_ERANGE);
  CHECK_INT((long long)dcsim_evq_size(q), 2);

  /* cancelled: stale; cancelling twice fails */
  CHECK_INT(dcsim_evq_cancel(q, b, NULL), 0);
  CHECK_INT(dcsim_evq_cancel(q, b, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_reschedule(q, b, 11, &err), DCSIM_ERANGE);
  CHECK_INT((long long)dcsim_evq_size(q), 1);

  /* negative times */
  memset(&err, 0, sizeof err);
  CHECK_INT(dcsim_evq_push(q, -1, 0, 0, 0, 0, NULL, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "negative") != NULL);
  CHECK_INT(dcsim_evq_reschedule(q, c, -5, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_replace_top(q, -5, 0, 0, 0, 0, &err), DCSIM_ERANGE);
  CHECK_INT((long long)dcsim_evq_size(q), 1);
  dcsim_evq_pop(q, &e);
  CHECK_INT(e.time_ns, 30); /* failed reschedule left it alone */
  CHECK_INT(dcsim_evq_replace_top(q, 40, 0, 0, 0, 0, &err), DCSIM_ERANGE); /* empty */
  CHECK(strstr(err.msg, "empty") != NULL);

  /* a slot reused 63 times: its first handle is still detected as stale; at the 64th reuse the
   * 6-bit generation wraps and the old handle names the new event (the documented limit) */
  dcsim_evh first, cur = 0;
  dcsim_evq_push(q, 100, 0, 0, 0, 0, &first, NULL);
  dcsim_evq_pop(q, NULL);
  int ok = 1;
  for (int i = 0; i < 63; i++) {
    dcsim_evq_push(q, 100, 0, 0, 0, 0, &cur, NULL);
    if (SLOT_OF(cur) != SLOT_OF(first) || cur == first ||
        dcsim_evq_cancel(q, first, NULL) != DCSIM_ERANGE)
      ok = 0;
    dcsim_evq_pop(q, NULL);
  }
  CHECK(ok);
  dcsim_evq_push(q, 100, 0, 0, 0, 0, &cur, NULL);
  CHECK_INT(cur, first);
  dcsim_evq_pop(q, NULL);

  /* NULL queue */
  CHECK_INT(dcsim_evq_push(NULL, 1, 0, 0, 0, 0, NULL, NULL), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_cancel(NULL, 0, NULL), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_reschedule(NULL, 0, 1, NULL), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_replace_top(NULL, 1, 0, 0, 0, 0, NULL), DCSIM_ERANGE);
  dcsim_evq_free(q);
}

/* The monotone queue refuses what it cannot order, and stays unchanged; the binary heap takes
 * the same calls. */
static void test_monotone_limits(void) {
  dcsim_evq_t *m = dcsim_evq_new_monotone(), *h = dcsim_evq_new(0);
  dcsim_error err;
  dcsim_evh hm, hh;
  dcsim_event e;
  CHECK_INT(dcsim_evq_push(m, 500, 0, 0, 1, 0, &hm, NULL), 0);
  CHECK_INT(dcsim_evq_push(m, 700, 0, 0, 2, 0, NULL, NULL), 0);
  CHECK_INT(dcsim_evq_push(h, 500, 0, 0, 1, 0, &hh, NULL), 0);
  CHECK_INT(dcsim_evq_push(m, 300, 0, 0, 3, 0, NULL, NULL), 0); /* nothing returned yet: ok */
  CHECK_INT(dcsim_evq_peek(m, &e), 1);                          /* the clock is now 300 */
  CHECK_INT(e.time_ns, 300);
  memset(&err, 0, sizeof err);
  CHECK_INT(dcsim_evq_push(m, 299, 0, 0, 4, 0, NULL, &err), DCSIM_ERANGE);
  CHECK_STR(err.msg,
            "event push: time 299 ns is before the queue's clock, 300 ns (a monotone "
            "queue)");
  CHECK_INT(dcsim_evq_push(h, 299, 0, 0, 4, 0, NULL, NULL), 0);
  CHECK_INT(dcsim_evq_reschedule(m, hm, 100, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "event reschedule: time 100 ns is before the queue's clock") != NULL);
  CHECK_INT(dcsim_evq_replace_top(m, 200, 0, 0, 0, 0, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_push(m, 300, 128, 0, 4, 0, NULL, &err), DCSIM_ERANGE);
  CHECK_STR(err.msg, "event push: prio 128 is outside -128..127 (a monotone queue)");
  CHECK_INT(dcsim_evq_push(m, 300, -129, 0, 4, 0, NULL, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_push(m, 300, 0, 65536, 4, 0, NULL, &err), DCSIM_ERANGE);
  CHECK_STR(err.msg, "event push: kind 65536 is above 65535 (a monotone queue)");
  CHECK_INT(dcsim_evq_replace_top(m, 300, 0, 65536, 0, 0, &err), DCSIM_ERANGE);
  CHECK_INT((long long)dcsim_evq_size(m), 3);
  /* the extremes of prio and kind, and the clock itself, are fine */
  CHECK_INT(dcsim_evq_push(m, 300, 127, 65535, 5, 0, NULL, NULL), 0);
  CHECK_INT(dcsim_evq_push(m, 300, -128, 0, 6, UINT64_MAX, NULL, NULL), 0);
  CHECK_INT(dcsim_evq_pop(m, &e), 1);
  CHECK_INT(e.target, 6);
  CHECK_INT(e.prio, -128);
  CHECK(e.payload == UINT64_MAX);
  CHECK_INT(dcsim_evq_pop(m, &e), 1);
  CHECK_INT(e.target, 3);
  CHECK_INT(dcsim_evq_pop(m, &e), 1);
  CHECK_INT(e.target, 5);
  CHECK_INT(e.kind, 65535);
  CHECK_INT(e.prio, 127);
  /* times up to the engine's bound (2^62) and a reschedule far ahead */
  CHECK_INT(dcsim_evq_push(m, INT64_C(1) << 62, 0, 0, 7, 0, NULL, NULL), 0);
  CHECK_INT(dcsim_evq_reschedule(m, hm, INT64_C(1) << 61, NULL), 0);
  CHECK_INT(dcsim_evq_pop(m, &e), 1);
  CHECK_INT(e.target, 2);
  CHECK_INT(dcsim_evq_pop(m, &e), 1);
  CHECK_INT(e.target, 1);
  CHECK_INT(e.time_ns, INT64_C(1) << 61);
  CHECK_INT(dcsim_evq_pop(m, &e), 1);
  CHECK_INT(e.time_ns, INT64_C(1) << 62);
  CHECK_INT(dcsim_evq_pop(m, &e), 0);
  dcsim_evq_free(m);
  dcsim_evq_free(h);
}

/* Reference: an unsorted array of live events; the first is found by a linear scan. Each event
 * carries the handles the two queues gave it. */
typedef struct ref_ev {
  dcsim_event ev;
  dcsim_evh h, hm; /* binary heap's, monotone queue's; DCSIM_EVH_NONE: none */
} ref_ev;

static int ref_before(const dcsim_event *a, const dcsim_event *b) {
  if (a->time_ns != b->time_ns) return a->time_ns < b->time_ns;
  if (a->prio != b->prio) return a->prio < b->prio;
  return a->seq < b->seq;
}

static size_t ref_min(const ref_ev *r, size_t n) {
  size_t m = 0;
  for (size_t i = 1; i < n; i++)
    if (ref_before(&r[i].ev, &r[m].ev)) m = i;
  return m;
}

static int ref_has_handle(const ref_ev *r, size_t n, dcsim_evh h, int mono) {
  for (size_t i = 0; i < n; i++)
    if ((mono ? r[i].hm : r[i].h) == h) return 1;
  return 0;
}

/* the same event; seq too unless mono (the monotone queue reports 0) */
static int same_event(const dcsim_event *a, const dcsim_event *b, int mono) {
  return a->time_ns == b->time_ns && a->prio == b->prio && a->kind == b->kind &&
         a->target == b->target && (mono || a->seq == b->seq) && a->payload == b->payload;
}

/* Times of a random sequence. mode 0: random around now (ties common); 1: lockstep — pushed and
 * replaced times mostly increase, as jobs in lockstep queue them; 2: wide — gaps from 1 ns to
 * 2^40 ns, so records cross many buckets of the monotone queue. */
static int64_t rand_time(int mode, int64_t now, int64_t *last_t) {
  int64_t t;
  if (mode == 1 && rng_below(8))
    t = (*last_t > now ? *last_t : now) + (int64_t)rng_below(3);
  else if (mode == 2 && rng_below(4))
    t = now + (int64_t)(rng_next() >> (24 + rng_below(40)));
  else
    t = now + (int64_t)rng_below(50);
  *last_t = t;
  return t;
}

typedef struct rand_stats {
  long bad_order, bad_size, bad_rc, bad_stale;
  long push, pop, replace, cancel, resched, stale;
  size_t max_live;
} rand_stats;

/* Pops the first event from both queues and checks it against the reference. */
static void rand_pop(dcsim_evq_t *q, dcsim_evq_t *m, ref_ev *ref, size_t *nref, int64_t *now,
                     dcsim_evh *dead, dcsim_evh *deadm, size_t *ndead, rand_stats *st) {
  size_t k = ref_min(ref, *nref);
  dcsim_event e, em, pk;
  if (dcsim_evq_peek(q, &pk) != 1 || !same_event(&pk, &ref[k].ev, 0)) st->bad_order++;
  if (dcsim_evq_peek(m, &pk) != 1 || !same_event(&pk, &ref[k].ev, 1)) st->bad_order++;
  if (dcsim_evq_pop(q, &e) != 1 || !same_event(&e, &ref[k].ev, 0)) st->bad_order++;
  if (dcsim_evq_pop(m, &em) != 1 || !same_event(&em, &ref[k].ev, 1)) st->bad_order++;
  if (e.time_ns < *now) st->bad_order++;
  *now = e.time_ns; /* simulated time only moves forward */
  dead[*ndead % 64] = ref[k].h;
  deadm[(*ndead)++ % 64] = ref[k].hm;
  ref[k] = ref[--*nref];
  st->pop++;
}

/* One random operation on both queues and the reference. */
static void rand_op(dcsim_evq_t *q, dcsim_evq_t *m, int mode, long op, ref_ev *ref, size_t *nref,
                    uint64_t *seq, int64_t *now, int64_t *last_t, dcsim_evh *dead, dcsim_evh *deadm,
                    size_t *ndead, rand_stats *st) {
  enum { MAXLIVE = 4096 };
  /* drift the size up and down in waves so the pools grow, shrink and refill */
  uint32_t push_pct = (op / 20000) % 2 ? 55 : 30, r = rng_below(100);
  if (*nref == 0 || (r < push_pct && *nref < MAXLIVE)) {
    int64_t t = rand_time(mode, *now, last_t);
    int32_t p = (int32_t)rng_below(4) - 2; /* narrow time and prio ranges make ties common */
    uint32_t kind = rng_below(5), target = rng_below(1000);
    uint64_t payload = rng_next();
    int with_handle = rng_below(4) != 0; /* the monotone queue stores the others differently */
    dcsim_evh h = DCSIM_EVH_NONE, hm = DCSIM_EVH_NONE;
    if (dcsim_evq_push(q, t, p, kind, target, payload, with_handle ? &h : NULL, NULL) ||
        dcsim_evq_push(m, t, p, kind, target, payload, with_handle ? &hm : NULL, NULL))
      st->bad_rc++;
    if (with_handle && (ref_has_handle(ref, *nref, h, 0) || ref_has_handle(ref, *nref, hm, 1)))
      st->bad_rc++; /* handles of live events are distinct */
    ref[*nref] = (ref_ev){ { t, p, kind, target, (*seq)++, payload }, h, hm };
    ++*nref;
    st->push++;
  } else if (r < push_pct + 25) {
    rand_pop(q, m, ref, nref, now, dead, deadm, ndead, st);
  } else if (r < push_pct + 30) { /* replace the first event: the old handle goes stale */
    size_t k = ref_min(ref, *nref);
    *now = ref[k].ev.time_ns; /* the replaced event's time: the new one is not earlier */
    int64_t t = rand_time(mode, *now, last_t);
    int32_t p = (int32_t)rng_below(4) - 2;
    if (dcsim_evq_replace_top(q, t, p, 7, 7, 77, NULL) ||
        dcsim_evq_replace_top(m, t, p, 7, 7, 77, NULL))
      st->bad_rc++;
    dead[*ndead % 64] = ref[k].h;
    deadm[(*ndead)++ % 64] = ref[k].hm;
    ref[k] = (ref_ev){ { t, p, 7, 7, (*seq)++, 77 }, DCSIM_EVH_NONE, DCSIM_EVH_NONE };
    st->replace++;
  } else if (r < push_pct + 35) {
    size_t i = rng_below((uint32_t)*nref);
    if (ref[i].h == DCSIM_EVH_NONE) return;
    if (dcsim_evq_cancel(q, ref[i].h, NULL) || dcsim_evq_cancel(m, ref[i].hm, NULL)) st->bad_rc++;
    dead[*ndead % 64] = ref[i].h;
    deadm[(*ndead)++ % 64] = ref[i].hm;
    ref[i] = ref[--*nref];
    st->cancel++;
  } else if (r < push_pct + 50) {
    size_t i = rng_below((uint32_t)*nref);
    if (ref[i].h == DCSIM_EVH_NONE) return;
    int64_t t = rand_time(mode, *now, last_t) + (int64_t)rng_below(10);
    if (dcsim_evq_reschedule(q, ref[i].h, t, NULL) || dcsim_evq_reschedule(m, ref[i].hm, t, NULL))
      st->bad_rc++;
    ref[i].ev.time_ns = t;
    ref[i].ev.seq = (*seq)++;
    st->resched++;
  } else if (*ndead > 0) {
    /* a recently dead handle must be rejected unless its slot now holds a live event with
     * exactly that handle (generation wrap; cannot happen within 63 reuses) */
    uint32_t k = rng_below(*ndead < 64 ? (uint32_t)*ndead : 64);
    for (int mono = 0; mono < 2; mono++) {
      dcsim_evh h = mono ? deadm[k] : dead[k];
      if (h == DCSIM_EVH_NONE || ref_has_handle(ref, *nref, h, mono)) continue;
      dcsim_error err = { 0 };
      dcsim_evq_t *x = mono ? m : q;
      int rc = (r & 1) ? dcsim_evq_cancel(x, h, &err) : dcsim_evq_reschedule(x, h, *now, &err);
      if (rc != DCSIM_ERANGE || err.code != DCSIM_ERANGE) st->bad_stale++;
      st->stale++;
    }
  }
}

static void test_random(int mode) {
  enum { OPS = 100000 };
  dcsim_evq_t *q = dcsim_evq_new(3), *m = dcsim_evq_new_monotone();
  ref_ev *ref = malloc(4096 * sizeof *ref);
  dcsim_evh dead[64], deadm[64];
  size_t nref = 0, ndead = 0;
  uint64_t seq = 0; /* the reference's own insertion counter */
  int64_t now = 0, last_t = 0;
  rand_stats st = { 0 };
  for (long op = 0; op < OPS; op++) {
    rand_op(q, m, mode, op, ref, &nref, &seq, &now, &last_t, dead, deadm, &ndead, &st);
    if (dcsim_evq_size(q) != nref || dcsim_evq_size(m) != nref) st.bad_size++;
    if (nref > st.max_live) st.max_live = nref;
  }
  while (nref > 0) rand_pop(q, m, ref, &nref, &now, dead, deadm, &ndead, &st); /* drain */
  CHECK_INT(dcsim_evq_pop(q, NULL), 0);
  CHECK_INT(dcsim_evq_pop(m, NULL), 0);
  CHECK_INT(st.bad_order, 0);
  CHECK_INT(st.bad_size, 0);
  CHECK_INT(st.bad_rc, 0);
  CHECK_INT(st.bad_stale, 0);
  /* the mix really exercised every operation */
  CHECK(st.push > 20000 && st.pop > 10000 && st.cancel > 2000 && st.resched > 4000 &&
        st.stale > 1000 && st.replace > 4000);
  CHECK(st.max_live > 500);
  fprintf(stderr,
          "random (mode %d): %ld push, %ld pop, %ld replace, %ld cancel, %ld reschedule, %ld "
          "stale; max %zu live; monotone queue %zu bytes\n",
          mode, st.push, st.pop, st.replace, st.cancel, st.resched, st.stale, st.max_live,
          dcsim_evq_bytes(m));
  free(ref);
  dcsim_evq_free(q);
  dcsim_evq_free(m);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  for (int mono = 0; mono < 2; mono++) {
    test_empty(mono);
    test_order(mono);
    test_fifo_many(mono);
    test_reschedule(mono);
    test_cancel(mono);
    test_bad_handles(mono);
  }
  test_monotone_limits();
  for (int mode = 0; mode < 3; mode++) test_random(mode);
  CHECK_DONE();
}
