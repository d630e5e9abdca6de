/* util/clock.h — the clocks of progress lines and measurements (seconds as a double): the one
 * monotonic wall clock, and the process's and the thread's CPU time.
 * Nothing here keeps state. */
#ifndef DCSIM_CLOCK_H
#define DCSIM_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin: only differences mean anything). */
double dcsim__clock_s(void);

/* CPU seconds used by this process (all its threads), and by the calling thread: unlike wall time,
 * not inflated by other processes on the machine. */
double dcsim__clock_cpu_s(void);
double dcsim__clock_thread_cpu_s(void);

#endif
