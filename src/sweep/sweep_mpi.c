/* sweep_mpi.c — a sweep distributed over MPI ranks (see dcsim/sweep_mpi.h, doc/scaling.md).
 *
 * Protocol (MPI_COMM_WORLD or the caller's communicator, two tags):
 *   TAG_RESULT, worker -> rank 0: the results of the worker's last chunk (none in its first
 *     messages), an error if it had one, and a request for the next chunk. Each worker keeps
 *     DEPTH requests outstanding, so a chunk is waiting when it finishes one.
 *   TAG_WORK, rank 0 -> worker: the point indices of a chunk; an empty chunk means "no more".
 * Rank 0 answers every request at once (MPI_Isend); a worker stops when all its requests are
 * answered and the last answer was empty, so rank 0 has heard from every worker when it has sent
 * DEPTH empty answers to each. Rank 0 evaluates chunks too; its OpenMP thread 0 answers requests
 * between its points. A final broadcast gives every rank the job's status. */
#include "dcsim/sweep_mpi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"
#include "sweep/internal.h"
#include "sweep/sweep_fields.h"

enum { TAG_WORK = 7101, TAG_RESULT = 7102, DEPTH = 2 };

int dcsim_sweep_mpi_init(int *rank, int *started, dcsim_error *err) {
  int on = 0, level = 0;
  *rank = 0;
  *started = 0;
  MPI_Initialized(&on);
  if (!on) {
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &level) != MPI_SUCCESS)
      return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "MPI_Init_thread failed");
    *started = 1;
  } else {
    MPI_Query_thread(&level);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  if (level < MPI_THREAD_FUNNELED)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                     "the MPI library offers no MPI_THREAD_FUNNELED (threads beside MPI)");
  return 0;
}

void dcsim_sweep_mpi_finalize(int started) {
  int done = 0;
  MPI_Finalized(&done);
  if (started && !done) MPI_Finalize();
}

/* ---- an error on the wire: its status and the dcsim_error itself (input, line, parameter,
 * index, message: the same bytes on every rank, nothing cut), less its C source location (a
 * pointer into the sending rank) ---- */

typedef struct wire_err {
  int32_t code;
  dcsim_error e;
} wire_err;

static void to_wire(const dcsim_error *e, int code, wire_err *w) {
  memset(w, 0, sizeof *w);
  w->code = code;
  if (!code || !e) return;
  memcpy(&w->e, e, sizeof *e);
  w->e.src_file = NULL;
  w->e.src_line = 0;
}

/* the error of rank `from` into err, naming the rank when it is not 0 */
static int from_wire(const wire_err *w, int from, dcsim_error *err) {
  if (!w->code) return 0;
  if (from)
    DCSIM_ERR(err, w->code, w->e.file, w->e.line, "%.900s (rank %d)", w->e.msg, from);
  else
    DCSIM_ERR(err, w->code, w->e.file, w->e.line, "%s", w->e.msg);
  dcsim_error_param(err, w->e.param[0] ? w->e.param : NULL, w->e.index);
  return w->code;
}

/* rank 0's status to every rank */
static int share_status(MPI_Comm comm, int rank, int rc, dcsim_error *err) {
  wire_err w;
  to_wire(err, rank == 0 ? rc : 0, &w);
  MPI_Bcast(&w, (int)sizeof w, MPI_BYTE, 0, comm);
  if (rank == 0 || !w.code) return rank == 0 ? rc : 0;
  return from_wire(&w, 0, err);
}

/* Every rank built its sweep (and its buffers), from the same definition and input files — the
 * same hash? Else every rank returns the error of the lowest failing rank. */
static int agree_on_setup(MPI_Comm comm, int rank, int size, dcsim_sweep_t *sw, int rc,
                          dcsim_error *err) {
  char hash[65] = "";
  if (rank == 0 && !rc) snprintf(hash, sizeof hash, "%s", dcsim_sweep_hash(sw));
  MPI_Bcast(hash, (int)sizeof hash, MPI_CHAR, 0, comm);
  if (!rc && hash[0] && strcmp(hash, dcsim_sweep_hash(sw)) != 0)
    rc = DCSIM_ERR(err, DCSIM_EUSAGE, "", 0,
                   "this rank's sweep is not rank 0's (definition or input files differ: hash "
                   "%.12s, rank 0 %.12s); every rank must"
                   " run the same command on the same files",
                   dcsim_sweep_hash(sw), hash);
  int key = rc ? rank : size, first = size;
  MPI_Allreduce(&key, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return 0;
  wire_err w;
  to_wire(err, rc, &w);
  MPI_Bcast(&w, (int)sizeof w, MPI_BYTE, first, comm);
  return from_wire(&w, first, err);
}

/* ---- results on the wire ---- */

typedef struct bytes {
  unsigned char *p;
  size_t n, cap;
  int oom;
} bytes;

static void put(bytes *b, const void *v, size_t n) {
  if (b->oom) return;
  if (DCSIM_GROW(b->p, b->cap, b->n + n)) {
    b->oom = 1;
    return;
  }
  memcpy(b->p + b->n, v, n);
  b->n += n;
}

static void put_cb(void *b, const void *v, size_t n) { put(b, v, n); }

/* header: threads of the sender, status, count; the error when status != 0; then per point its
 * index and its results, the fields of its field table marked RESULT (util/dbschema_sweep.h:
 * feasible, reason, time and energy bit for bit, provenance, cost, ...), by
 * dcsim__sweep_fields_wire_put. (The ranks run one binary on one kind of node: no conversion.) */
static void pack(bytes *b, int32_t threads, int status, const dcsim_error *e,
                 const dcsim_sweep_point *pts, const size_t *idx, size_t n) {
  int32_t h[3] = { threads, status, status ? 0 : (int32_t)n };
  b->n = 0;
  b->oom = 0;
  put(b, h, sizeof h);
  if (status) {
    wire_err w;
    to_wire(e, status, &w);
    put(b, &w, sizeof w);
    return;
  }
  for (size_t k = 0; k < n; k++) {
    const dcsim_sweep_point *p = &pts[idx[k]];
    uint32_t i = (uint32_t)idx[k];
    put(b, &i, sizeof i);
    dcsim__sweep_fields_wire_put(p, put_cb, b);
  }
}

typedef struct reader {
  const unsigned char *p;
  size_t n, at;
  int bad;
} reader;

static void get(reader *r, void *v, size_t n) {
  if (r->bad || r->at + n > r->n) {
    r->bad = 1;
    memset(v, 0, n);
    return;
  }
  memcpy(v, r->p + r->at, n);
  r->at += n;
}

/* Everything the protocol needs is allocated before it starts (dcsim_sweep_mpi_run), so that no
 * rank can leave it for want of memory: a rank that stopped answering would hang the others. */
typedef struct bufs {
  /* rank 0 */
  size_t *pending;  /* the points to hand out, in index order */
  uint32_t *pend32; /* the same, as sent: an answer is a slice of it */
  size_t *idx;      /* indices of a received chunk */
  MPI_Request *req; /* per worker, DEPTH answers in flight */
  unsigned *sent;   /* answers sent per worker */
  bytes in;         /* a received message (grown when needed) */
  /* the other ranks */
  uint32_t *chunk; /* a received chunk (room for every point) */
  size_t *widx;
  bytes out[DEPTH]; /* results in flight, each with room for an error */
} bufs;

static void bufs_release(bufs *b) {
  free(b->pending);
  free(b->pend32);
  free(b->idx);
  free(b->req);
  free(b->sent);
  free(b->in.p);
  free(b->chunk);
  free(b->widx);
  for (int k = 0; k < DEPTH; k++) free(b->out[k].p);
}

static int bufs_init(bufs *b, int rank, int size, size_t np, dcsim_error *err) {
  memset(b, 0, sizeof b[0]);
  if (!np) np = 1;
  int ok = 1;
  if (rank == 0) {
    b->pending = malloc(np * sizeof *b->pending);
    b->pend32 = malloc(np * sizeof *b->pend32);
    b->idx = malloc(np * sizeof *b->idx);
    b->req = malloc((size_t)size * DEPTH * sizeof *b->req);
    b->sent = calloc((size_t)size, sizeof *b->sent);
    b->in.cap = 1 << 16;
    b->in.p = malloc(b->in.cap);
    ok = b->pending && b->pend32 && b->idx && b->req && b->sent && b->in.p;
    for (int k = 0; ok && k < size * DEPTH; k++) b->req[k] = MPI_REQUEST_NULL;
  } else {
    b->chunk = malloc(np * sizeof *b->chunk);
    b->widx = malloc(np * sizeof *b->widx);
    ok = b->chunk && b->widx;
    for (int k = 0; k < DEPTH; k++) {
      b->out[k].cap = 4096; /* a header and an error fit without growing */
      ok = ok && (b->out[k].p = malloc(b->out[k].cap));
    }
  }
  return ok ? 0
            : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory for a sweep of %zu points", np);
}

/* ---- rank 0 ---- */

typedef struct root {
  MPI_Comm comm;
  int size;
  dcsim_sweep_t *sw;
  const dcsim_sweep_run_opts *o;
  bufs *b;
  size_t n_pending, next; /* the next point to hand out */
  size_t done, total;     /* for progress: points done (restored ones included) */
  int empties;            /* empty answers sent: DEPTH per worker ends the run */
  int rc;                 /* the first error (0 = none) */
  dcsim_error err;
} root;

static void root_fail(root *r, int rc, const dcsim_error *e, int from) {
  if (r->rc) return;
  wire_err w;
  to_wire(e, rc, &w);
  if (!e) snprintf(w.e.msg, sizeof w.e.msg, "failed");
  r->rc = from_wire(&w, from, &r->err);
  r->next = r->n_pending; /* hand out nothing more */
}

/* the next chunk for a rank with `threads` threads: guided, large first and small at the end */
static size_t take(root *r, size_t threads, size_t *first) {
  size_t rem = r->n_pending - r->next, cap = r->o->batch ? r->o->batch : 32 * threads;
  size_t c = rem / (2 * (size_t)r->size);
  if (c < threads) c = threads;
  if (c > cap) c = cap;
  if (c > rem) c = rem;
  *first = r->next;
  r->next += c;
  return c;
}

static void root_progress(root *r, size_t extra) {
  const dcsim_sweep_sink *s = r->o->sink;
  if (s && s->progress) s->progress(s->ctx, r->done + extra, r->total);
}

/* stores points idx[0..n-1], just evaluated or received, through the sink */
static void root_store(root *r, const size_t *idx, size_t n) {
  const dcsim_sweep_sink *s = r->o->sink;
  r->done += n;
  if (s && s->batch && n) {
    dcsim_error e;
    memset(&e, 0, sizeof e);
    int rc = s->batch(s->ctx, dcsim_sweep_points(r->sw), idx, n, &e);
    if (rc) root_fail(r, rc, &e, 0);
  }
  root_progress(r, 0);
}

/* one message from a worker: its results, then the answer to its request */
static void root_serve_one(root *r, const MPI_Status *st) {
  bufs *b = r->b;
  int len = 0, src = st->MPI_SOURCE;
  MPI_Get_count(st, MPI_BYTE, &len);
  /* a message that cannot be received cannot be answered: the job cannot go on */
  if (DCSIM_GROW(b->in.p, b->in.cap, (size_t)len)) {
    fprintf(stderr, "dcsim: rank 0: out of memory for a message of %d bytes\n", len);
    MPI_Abort(r->comm, 3);
  }
  MPI_Recv(b->in.p, len, MPI_BYTE, src, TAG_RESULT, r->comm, MPI_STATUS_IGNORE);
  reader rd = { b->in.p, (size_t)len, 0, 0 };
  int32_t h[3];
  get(&rd, h, sizeof h);
  if (h[1]) {
    wire_err w;
    get(&rd, &w, sizeof w);
    if (!r->rc && !rd.bad) {
      r->rc = from_wire(&w, src, &r->err);
      r->next = r->n_pending;
    }
  }
  size_t n = h[1] || h[2] < 0 ? 0 : (size_t)h[2], got = 0;
  for (; got < n && !rd.bad; got++) {
    uint32_t i;
    dcsim_sweep_point pt = { 0 };
    get(&rd, &i, sizeof i);
    int w = rd.bad ? DCSIM_EINTERNAL : dcsim__sweep_fields_wire_get(&pt, rd.p, rd.n, &rd.at);
    if (w == DCSIM_EINTERNAL || i >= r->total) {
      free(pt.reason);
      rd.bad = 1;
      break;
    }
    dcsim_error e2;
    int rc = w ? DCSIM_ERR(&e2, DCSIM_ENOMEM, "", 0, "out of memory")
               : dcsim__sweep_restore_point(r->sw, i, &pt, &e2);
    free(pt.reason);
    if (rc) {
      root_fail(r, rc, &e2, 0);
      break;
    }
    b->idx[got] = i;
  }
  if (rd.bad) {
    dcsim_error e3;
    root_fail(r, DCSIM_ERR(&e3, DCSIM_EINTERNAL, "", 0, "a malformed result message"), &e3, src);
  }
  if (got) root_store(r, b->idx, got);
  /* the answer: the next chunk (a slice of pend32, which does not change), or nothing more */
  size_t first = 0, c = r->rc ? 0 : take(r, h[0] > 0 ? (size_t)h[0] : 1, &first);
  int slot = src * DEPTH + (int)(b->sent[src] % DEPTH);
  MPI_Wait(&b->req[slot], MPI_STATUS_IGNORE); /* the answer this slot held has arrived */
  MPI_Isend(b->pend32 + first, (int)c, MPI_UINT32_T, src, TAG_WORK, r->comm, &b->req[slot]);
  b->sent[src]++;
  if (!c) r->empties++;
}

/* answers the messages that have arrived (wait: at least one) */
static void root_serve(root *r, int wait) {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    if (wait) {
      MPI_Probe(MPI_ANY_SOURCE, TAG_RESULT, r->comm, &st);
      flag = 1;
      wait = 0;
    } else
      MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, r->comm, &flag, &st);
    if (!flag) return;
    root_serve_one(r, &st);
  }
}

/* rank 0's thread 0, between two of its points: answer the workers, show progress */
static void on_root_tick(void *ctx, size_t k) {
  root *r = ctx;
  root_serve(r, 0);
  root_progress(r, k);
}

static int root_run(root *r, dcsim_error *err) {
  int nt = dcsim__sweep_threads(r->o);
  size_t np = dcsim_sweep_n_points(r->sw);
  r->n_pending = dcsim__sweep_pending(r->sw, r->o->stop_after, r->b->pending);
  for (size_t k = 0; k < r->n_pending; k++) r->b->pend32[k] = (uint32_t)r->b->pending[k];
  r->total = np;
  for (size_t i = 0; i < np; i++) r->done += dcsim_sweep_points(r->sw)[i].done != 0;
  root_progress(r, 0);
  /* rank 0's own chunks, answering the workers between its points */
  while (!r->rc) {
    root_serve(r, 0);
    size_t first = 0, c = take(r, (size_t)nt, &first);
    if (!c) break;
    dcsim_error e;
    memset(&e, 0, sizeof e);
    int rc = dcsim__sweep_eval_batch(r->sw, r->b->pending + first, c, nt, on_root_tick, r, &e);
    if (rc)
      root_fail(r, rc, &e, 0);
    else
      root_store(r, r->b->pending + first, c);
  }
  /* the workers' last chunks */
  while (r->empties < DEPTH * (r->size - 1)) root_serve(r, 1);
  MPI_Waitall(r->size * DEPTH, r->b->req, MPI_STATUSES_IGNORE);
  if (r->rc) {
    if (err) *err = r->err;
    return r->rc;
  }
  if (r->done == np)
    dcsim_sweep_mark_front_on(dcsim_sweep_points(r->sw), np, dcsim_sweep_objectives(r->sw));
  return 0;
}

/* ---- the other ranks ---- */

static void worker_run(MPI_Comm comm, dcsim_sweep_t *sw, const dcsim_sweep_run_opts *o, bufs *b) {
  int nt = dcsim__sweep_threads(o), failed = 0;
  size_t np = dcsim_sweep_n_points(sw);
  MPI_Request req[DEPTH];
  unsigned sends = 0, outstanding = 0;
  /* DEPTH requests without results */
  for (; sends < DEPTH; sends++, outstanding++) {
    pack(&b->out[sends], nt, 0, NULL, NULL, NULL, 0);
    MPI_Isend(b->out[sends].p, (int)b->out[sends].n, MPI_BYTE, 0, TAG_RESULT, comm, &req[sends]);
  }
  while (outstanding) {
    MPI_Status st;
    int m = 0;
    MPI_Recv(b->chunk, (int)np, MPI_UINT32_T, 0, TAG_WORK, comm,
             &st); /* a chunk never has more than every point */
    MPI_Get_count(&st, MPI_UINT32_T, &m);
    outstanding--;
    if (!m) continue; /* nothing more */
    dcsim_error e;
    memset(&e, 0, sizeof e);
    int status = 0;
    for (int k = 0; k < m && !status; k++) {
      if (b->chunk[k] >= np)
        status = DCSIM_ERR(&e, DCSIM_EINTERNAL, "", 0, "point %u out of range", b->chunk[k]);
      b->widx[k] = b->chunk[k];
    }
    if (!failed && !status)
      status = dcsim__sweep_eval_batch(sw, b->widx, (size_t)m, nt, NULL, NULL, &e);
    /* the results, or the error, or (after an error) a bare request: each asks for the next chunk
     */
    bytes *out = &b->out[sends % DEPTH];
    MPI_Wait(&req[sends % DEPTH], MPI_STATUS_IGNORE);
    if (failed)
      pack(out, nt, 0, NULL, NULL, NULL, 0);
    else if (status)
      pack(out, nt, status, &e, NULL, NULL, 0);
    else {
      pack(out, nt, 0, NULL, dcsim_sweep_points(sw), b->widx, (size_t)m);
      if (out->oom)
        pack(out, nt, status = DCSIM_ERR(&e, DCSIM_ENOMEM, "", 0, "out of memory"), &e, NULL, NULL,
             0);
    }
    MPI_Isend(out->p, (int)out->n, MPI_BYTE, 0, TAG_RESULT, comm, &req[sends % DEPTH]);
    sends++;
    outstanding++;
    failed |= status != 0; /* reported once; rank 0 hands out nothing more */
  }
  MPI_Waitall(DEPTH, req, MPI_STATUSES_IGNORE);
}

int dcsim_sweep_mpi_run(MPI_Comm comm, dcsim_sweep_t *sw, int setup_rc,
                        const dcsim_sweep_run_opts *o, dcsim_error *err) {
  static const dcsim_sweep_run_opts dflt = { 0, 0, 0, NULL };
  int rank = 0, size = 1, rc = setup_rc;
  if (!o) o = &dflt;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  bufs b;
  memset(&b, 0, sizeof b);
  if (!rc && size > 1) rc = bufs_init(&b, rank, size, dcsim_sweep_n_points(sw), err);
  if ((rc = agree_on_setup(comm, rank, size, sw, rc, err))) goto out;
  if (size == 1) {
    rc = dcsim_sweep_run(sw, o, err);
    goto out;
  }
  if (rank == 0) {
    root r;
    memset(&r, 0, sizeof r);
    r.comm = comm;
    r.size = size;
    r.sw = sw;
    r.o = o;
    r.b = &b;
    rc = root_run(&r, err);
  } else {
    worker_run(comm, sw, o, &b);
  }
  rc = share_status(comm, rank, rc, err);
out:
  bufs_release(&b);
  return rc;
}
