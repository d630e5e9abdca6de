/* util/clock.h — the one monotonic clock of progress lines and measurements (seconds as a double).
 * Nothing here keeps state. */
#ifndef DCSIM_CLOCK_H
#define DCSIM_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin: only differences mean anything). */
double dcsim__clock_s(void);

#endif
