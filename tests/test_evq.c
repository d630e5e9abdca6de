/* test_evq.c — event queue: order (time, prio, FIFO), reschedule, cancel, handle checks, and a
 * randomized run checked against a linear-scan reference. */
#include "dcsim/evq.h"

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

static void test_empty(void) {
  dcsim_evq_t *q = dcsim_evq_new(0);
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

static void test_order(void) {
  dcsim_evq_t *q = dcsim_evq_new(4);
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
    CHECK_INT((long long)pk.seq, (long long)e.seq);
    CHECK_INT(e.kind, 7);
    /* seq is the push order in a fresh queue; payload was 1000 + push index */
    CHECK_INT((long long)e.payload, 1000 + (long long)e.seq);
    CHECK_INT(e.time_ns, in[e.seq].t);
    CHECK_INT(e.prio, in[e.seq].p);
  }
  CHECK_INT(dcsim_evq_pop(q, &e), 0);
  CHECK_INT(err.code, 0); /* untouched on success */
  dcsim_evq_free(q);
}

static void test_fifo_many(void) {
  /* 1000 equal events, pushed through several pool growths, come out in push order */
  dcsim_evq_t *q = dcsim_evq_new(1);
  for (uint32_t i = 0; i < 1000; i++) CHECK_INT(dcsim_evq_push(q, 2385, 1, 0, i, 0, NULL, NULL), 0);
  dcsim_event e;
  int ok = 1;
  for (uint32_t i = 0; i < 1000; i++) {
    dcsim_evq_pop(q, &e);
    if (e.target != i) ok = 0;
  }
  CHECK(ok);
  CHECK(dcsim_evq_bytes(q) >= 1000 * (40 + 4));
  dcsim_evq_free(q);
}

static void test_reschedule(void) {
  dcsim_evq_t *q = dcsim_evq_new(8);
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
  /* a handle survives a reschedule */
  dcsim_evq_push(q, 7, 0, 0, 13, 0, &c, NULL);
  CHECK_INT(dcsim_evq_reschedule(q, c, 70, &err), 0);
  CHECK_INT(dcsim_evq_reschedule(q, c, 700, &err), 0);
  CHECK_INT(dcsim_evq_cancel(q, c, &err), 0);
  CHECK_INT((long long)dcsim_evq_size(q), 0);
  dcsim_evq_free(q);
}

static void test_cancel(void) {
  dcsim_evq_t *q = dcsim_evq_new(0);
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
  dcsim_evq_push(q, 5, 0, 0, 0, 0, &a, NULL);
  CHECK_INT(dcsim_evq_cancel(q, a, &err), 0);
  CHECK_INT(dcsim_evq_pop(q, &e), 0);
  dcsim_evq_free(q);
}

static void test_bad_handles(void) {
  dcsim_evq_t *q = dcsim_evq_new(0);
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
  CHECK_INT(dcsim_evq_reschedule(q, a, 5, &err), DCSIM_ERANGE);

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
  CHECK_INT(dcsim_evq_reschedule(q, b, 1, &err), DCSIM_ERANGE);
  CHECK_INT((long long)dcsim_evq_size(q), 1);

  /* negative times */
  memset(&err, 0, sizeof err);
  CHECK_INT(dcsim_evq_push(q, -1, 0, 0, 0, 0, NULL, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "negative") != NULL);
  CHECK_INT(dcsim_evq_reschedule(q, c, -5, &err), DCSIM_ERANGE);
  CHECK_INT((long long)dcsim_evq_size(q), 1);
  dcsim_evq_pop(q, &e);
  CHECK_INT(e.time_ns, 30); /* failed reschedule left it alone */

  /* a slot reused 63 times: its first handle is still detected as stale; at the 64th reuse the
   * 6-bit generation wraps and the old handle names the new event (the documented limit) */
  dcsim_evh first, cur = 0;
  dcsim_evq_push(q, 1, 0, 0, 0, 0, &first, NULL);
  dcsim_evq_pop(q, NULL);
  int ok = 1;
  for (int i = 0; i < 63; i++) {
    dcsim_evq_push(q, 1, 0, 0, 0, 0, &cur, NULL);
    if (SLOT_OF(cur) != SLOT_OF(first) || cur == first ||
        dcsim_evq_cancel(q, first, NULL) != DCSIM_ERANGE)
      ok = 0;
    dcsim_evq_pop(q, NULL);
  }
  CHECK(ok);
  dcsim_evq_push(q, 1, 0, 0, 0, 0, &cur, NULL);
  CHECK_INT(cur, first);
  dcsim_evq_pop(q, NULL);

  /* NULL queue */
  CHECK_INT(dcsim_evq_push(NULL, 1, 0, 0, 0, 0, NULL, NULL), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_cancel(NULL, 0, NULL), DCSIM_ERANGE);
  CHECK_INT(dcsim_evq_reschedule(NULL, 0, 1, NULL), DCSIM_ERANGE);
  dcsim_evq_free(q);
}

/* Reference: an unsorted array of live events; the first is found by a linear scan. */
typedef struct ref_ev {
  dcsim_event ev;
  dcsim_evh h;
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

static int ref_has_handle(const ref_ev *r, size_t n, dcsim_evh h) {
  for (size_t i = 0; i < n; i++)
    if (r[i].h == h) return 1;
  return 0;
}

static int same_event(const dcsim_event *a, const dcsim_event *b) {
  return a->time_ns == b->time_ns && a->prio == b->prio && a->kind == b->kind &&
         a->target == b->target && a->seq == b->seq && a->payload == b->payload;
}

/* runs: with dcsim_evq_use_runs; lockstep: pushed and replaced times mostly increase, as jobs in
 * lockstep queue them (what the runs are for), else they are random around now. */
static void test_random(int runs, int lockstep) {
  enum { OPS = 100000, MAXLIVE = 4096, DEAD = 64 };
  dcsim_evq_t *q = dcsim_evq_new(3);
  if (runs) CHECK_INT(dcsim_evq_use_runs(q, NULL), 0);
  int64_t last_t = 0;
  long n_replace = 0;
  ref_ev *ref = malloc(MAXLIVE * sizeof *ref);
  dcsim_evh dead[DEAD] = { 0 };
  size_t nref = 0, ndead = 0;
  uint64_t seq = 0; /* the reference's own insertion counter */
  int64_t now = 0;
  long bad_order = 0, bad_size = 0, bad_rc = 0, bad_stale = 0;
  long n_push = 0, n_pop = 0, n_cancel = 0, n_resched = 0, n_stale = 0;
  size_t max_live = 0;
  dcsim_error err;
  for (long op = 0; op < OPS; op++) {
    /* drift the size up and down in waves so the pool grows, shrinks and refills */
    uint32_t wave = (uint32_t)((op / 20000) % 2);
    uint32_t r = rng_below(100);
    uint32_t push_pct = wave ? 55 : 30;
    if (nref == 0 || (r < push_pct && nref < MAXLIVE)) {
      /* narrow time and prio ranges make ties common */
      int64_t t = lockstep && rng_below(8) ? (last_t > now ? last_t : now) + (int64_t)rng_below(3)
                                           : now + (int64_t)rng_below(50);
      last_t = t;
      int32_t p = (int32_t)rng_below(4) - 2;
      uint32_t kind = rng_below(5), target = rng_below(1000);
      uint64_t payload = rng_next();
      dcsim_evh h;
      if (dcsim_evq_push(q, t, p, kind, target, payload, &h, NULL) != 0) bad_rc++;
      if (ref_has_handle(ref, nref, h)) bad_rc++; /* handles of live events are distinct */
      ref[nref].ev = (dcsim_event){ t, p, kind, target, seq++, payload };
      ref[nref].h = h;
      nref++;
      n_push++;
    } else if (r < push_pct + 25) {
      size_t m = ref_min(ref, nref);
      dcsim_event e, pk;
      if (dcsim_evq_peek(q, &pk) != 1 || !same_event(&pk, &ref[m].ev)) bad_order++;
      if (dcsim_evq_pop(q, &e) != 1 || !same_event(&e, &ref[m].ev)) bad_order++;
      if (e.time_ns < now) bad_order++;
      now = e.time_ns; /* simulated time only moves forward */
      dead[ndead++ % DEAD] = ref[m].h;
      ref[m] = ref[--nref];
      n_pop++;
    } else if (r < push_pct + 30) { /* replace the first event: the old handle goes stale */
      size_t m = ref_min(ref, nref);
      now = ref[m].ev.time_ns; /* the replaced event's time: the new one is not earlier */
      int64_t t = lockstep && rng_below(8) ? (last_t > now ? last_t : now) + (int64_t)rng_below(3)
                                           : now + (int64_t)rng_below(50);
      last_t = t;
      int32_t p = (int32_t)rng_below(4) - 2;
      if (dcsim_evq_replace_top(q, t, p, 7, 7, 77, NULL) != 0) bad_rc++;
      dead[ndead++ % DEAD] = ref[m].h;
      ref[m].ev = (dcsim_event){ t, p, 7, 7, seq++, 77 };
      ref[m].h = DCSIM_EVH_NONE; /* no handle: never cancelled or rescheduled below */
      n_replace++;
    } else if (r < push_pct + 35) {
      size_t i = rng_below((uint32_t)nref);
      if (ref[i].h == DCSIM_EVH_NONE) continue;
      if (dcsim_evq_cancel(q, ref[i].h, NULL) != 0) bad_rc++;
      dead[ndead++ % DEAD] = ref[i].h;
      ref[i] = ref[--nref];
      n_cancel++;
    } else if (r < push_pct + 50) {
      size_t i = rng_below((uint32_t)nref);
      if (ref[i].h == DCSIM_EVH_NONE) continue;
      int64_t t = now + (int64_t)rng_below(60);
      if (dcsim_evq_reschedule(q, ref[i].h, t, NULL) != 0) bad_rc++;
      ref[i].ev.time_ns = t;
      ref[i].ev.seq = seq++;
      n_resched++;
    } else if (ndead > 0) {
      /* a recently dead handle must be rejected unless its slot now holds a live event with
       * exactly that handle (generation wrap; cannot happen within 63 reuses) */
      dcsim_evh h = dead[rng_below(ndead < DEAD ? (uint32_t)ndead : DEAD)];
      if (!ref_has_handle(ref, nref, h)) {
        memset(&err, 0, sizeof err);
        int rc = (r & 1) ? dcsim_evq_cancel(q, h, &err) : dcsim_evq_reschedule(q, h, now, &err);
        if (rc != DCSIM_ERANGE || err.code != DCSIM_ERANGE) bad_stale++;
        n_stale++;
      }
    }
    if (dcsim_evq_size(q) != nref) bad_size++;
    if (nref > max_live) max_live = nref;
  }
  /* drain */
  while (nref > 0) {
    size_t m = ref_min(ref, nref);
    dcsim_event e;
    if (dcsim_evq_pop(q, &e) != 1 || !same_event(&e, &ref[m].ev)) bad_order++;
    ref[m] = ref[--nref];
  }
  CHECK_INT(dcsim_evq_pop(q, NULL), 0);
  CHECK_INT(bad_order, 0);
  CHECK_INT(bad_size, 0);
  CHECK_INT(bad_rc, 0);
  CHECK_INT(bad_stale, 0);
  /* the mix really exercised every operation */
  CHECK(n_push > 20000 && n_pop > 10000 && n_cancel > 3000 && n_resched > 5000 && n_stale > 1000);
  CHECK(max_live > 500);
  CHECK(n_replace > 4000);
  fprintf(stderr,
          "random (runs %d, lockstep %d): %ld push, %ld pop, %ld replace, %ld cancel, %ld "
          "reschedule, %ld stale; max %zu live\n",
          runs, lockstep, n_push, n_pop, n_replace, n_cancel, n_resched, n_stale, max_live);
  free(ref);
  dcsim_evq_free(q);
}

int main(void) {
  test_empty();
  test_order();
  test_fifo_many();
  test_reschedule();
  test_cancel();
  test_bad_handles();
  test_random(0, 0);
  test_random(1, 0);
  test_random(1, 1);
  test_random(0, 1);
  CHECK_DONE();
}
