/* sim/internal.h — helpers shared by files of src/sim. Not part of the public API.
 *
 * The monotone event queue (evq_mono.c) behind dcsim/evq.h's dcsim_evq_new_monotone(): evq.c
 * checks the queue pointer and dispatches to these; their contracts are those of the dcsim_evq_*
 * functions of the same names. */
#ifndef DCSIM_SIM_INTERNAL_H
#define DCSIM_SIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/evq.h"

typedef struct dcsim_evq_mono dcsim_evq_mono;

dcsim_evq_mono *dcsim__evq_mono_new(void);
void dcsim__evq_mono_free(dcsim_evq_mono *m);
int dcsim__evq_mono_push(dcsim_evq_mono *m, int64_t time_ns, int32_t prio, uint32_t kind,
                         uint32_t target, uint64_t payload, dcsim_evh *handle_out,
                         dcsim_error *err);
int dcsim__evq_mono_pop(dcsim_evq_mono *m, dcsim_event *out);
int dcsim__evq_mono_peek(dcsim_evq_mono *m, dcsim_event *out);
int dcsim__evq_mono_replace_top(dcsim_evq_mono *m, int64_t time_ns, int32_t prio, uint32_t kind,
                                uint32_t target, uint64_t payload, dcsim_error *err);
int dcsim__evq_mono_reschedule(dcsim_evq_mono *m, dcsim_evh h, int64_t new_time_ns,
                               dcsim_error *err);
int dcsim__evq_mono_cancel(dcsim_evq_mono *m, dcsim_evh h, dcsim_error *err);
size_t dcsim__evq_mono_size(const dcsim_evq_mono *m);
size_t dcsim__evq_mono_bytes(const dcsim_evq_mono *m);

/* The error of a handle that names no queued event, worded alike by both queues: out of range of
 * a pool of n slots, or (stale) its event was popped or cancelled. Returns DCSIM_ERANGE. */
int dcsim__evq_bad_handle(dcsim_error *err, const char *what, dcsim_evh h, uint32_t n, int stale);

#endif
