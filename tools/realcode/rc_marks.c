/* rc_marks.c — an LD_PRELOAD module for tools/realcode/measure.sh: it brackets a benchmark
 * driver's own timed region by the process CPU time, without modifying the driver.
 *
 * CLOUDSC's drivers (dwarf-p-cloudsc) time one pass over all columns with their own clock: the
 * Fortran driver through SYSTEM_CLOCK (libgfortran's _gfortran_system_clock_8/_4, called only by
 * its timer module), the C driver through omp_get_wtime(). Their first call opens the timed loop,
 * their last call closes it. This module forwards each call to the real function and, at the
 * first and the last call, reads the process CPU clock (CLOCK_PROCESS_CPUTIME_ID: user + system
 * time of all threads, clock_gettime(2)) and CLOCK_MONOTONIC. At exit it writes one line
 *   calls=N cpu_s=C wall_s=W
 * (C and W: last minus first) to the file named by RC_MARKS_FILE, or nothing when unset or when
 * no timer was called (a shell that starts the driver inherits the preload too).
 * No dcsim code: it runs inside another program. Ownership: nothing is returned to callers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct marks {
  pthread_mutex_t lock;
  long calls;
  double cpu0_s, wall0_s, cpu1_s, wall1_s;
} marks;

/* one process, one record: the module has no other state (it is loaded into a foreign driver) */
static marks rc = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0 };

static double clock_of(clockid_t id) {
  struct timespec ts;
  if (clock_gettime(id, &ts) != 0) return -1;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void mark(void) {
  double cpu_s = clock_of(CLOCK_PROCESS_CPUTIME_ID), wall_s = clock_of(CLOCK_MONOTONIC);
  pthread_mutex_lock(&rc.lock);
  if (rc.calls == 0) {
    rc.cpu0_s = cpu_s;
    rc.wall0_s = wall_s;
  }
  rc.cpu1_s = cpu_s;
  rc.wall1_s = wall_s;
  rc.calls++;
  pthread_mutex_unlock(&rc.lock);
}

static void *next_symbol(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "rc_marks: %s not found after the preload\n", name);
    abort(); /* a driver calling a timer that does not exist cannot go on */
  }
  return f;
}

/* the interposed functions: the same signatures as libgomp's and libgfortran's */
double omp_get_wtime(void);
void _gfortran_system_clock_8(int64_t *count, int64_t *rate, int64_t *max);
void _gfortran_system_clock_4(int32_t *count, int32_t *rate, int32_t *max);

double omp_get_wtime(void) {
  double (*real)(void) = (double (*)(void))next_symbol("omp_get_wtime");
  mark();
  return real();
}

void _gfortran_system_clock_8(int64_t *count, int64_t *rate, int64_t *max) {
  void (*real)(int64_t *, int64_t *, int64_t *) =
      (void (*)(int64_t *, int64_t *, int64_t *))next_symbol("_gfortran_system_clock_8");
  mark();
  real(count, rate, max);
}

void _gfortran_system_clock_4(int32_t *count, int32_t *rate, int32_t *max) {
  void (*real)(int32_t *, int32_t *, int32_t *) =
      (void (*)(int32_t *, int32_t *, int32_t *))next_symbol("_gfortran_system_clock_4");
  mark();
  real(count, rate, max);
}

__attribute__((destructor)) static void rc_marks_write(void) {
  const char *path = getenv("RC_MARKS_FILE");
  if (!path || !*path || rc.calls == 0) return; /* a shell between harness and driver: silent */
  FILE *f = fopen(path, "w");
  if (!f) return;
  fprintf(f, "calls=%ld cpu_s=%.6f wall_s=%.6f\n", rc.calls, rc.cpu1_s - rc.cpu0_s,
          rc.wall1_s - rc.wall0_s);
  fclose(f);
}
