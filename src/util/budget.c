/* budget.c — the resource budget of a simulation (see dcsim/budget.h). */
#include "dcsim/budget.h"

#include <stdio.h>

#include "dcsim/numfmt.h"

void dcsim_human_bytes(uint64_t bytes, char *buf, size_t size) {
  static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };
  double v = (double)bytes;
  int k = 0;
  while (v >= 1024 && k < 5) {
    v /= 1024;
    k++;
  }
  snprintf(buf, size, "%.3g %s", v, unit[k]);
}

void dcsim_budget_hint(const dcsim_budget *b, int memory, dcsim_error *err) {
  if (!memory)
    dcsim_error_suffix(err, " (--max-tasks N raises it)");
  else if (b && b->machine_bytes)
    dcsim_error_suffix(err, " (half of this machine's %.3g GiB; --max-memory SIZE raises it)",
                       (double)b->machine_bytes / 1073741824.0);
  else
    dcsim_error_suffix(err, " (--max-memory SIZE raises it)");
}

int dcsim_budget_work(const dcsim_budget *b, uint64_t work, const char *prefix, const char *what,
                      const char *path, int line, dcsim_error *err) {
  if (!b || !b->max_work || work <= b->max_work) return 0;
  int rc = DCSIM_ERR(err, DCSIM_ERANGE, path, line, "%s %llu %s; the limit is %llu", prefix,
                     (unsigned long long)work, what, (unsigned long long)b->max_work);
  dcsim_budget_hint(b, 0, err);
  return rc;
}

int dcsim_budget_bytes(const dcsim_budget *b, uint64_t bytes, const char *prefix, const char *path,
                       int line, dcsim_error *err) {
  if (!b || !b->max_bytes || bytes <= b->max_bytes) return 0;
  dcsim_num_text need, most;
  dcsim_human_bytes(bytes, need.s, sizeof need.s);
  dcsim_human_bytes(b->max_bytes, most.s, sizeof most.s);
  int rc = DCSIM_ERR(err, DCSIM_ERANGE, path, line, "%s need about %s of memory; the limit is %s",
                     prefix, need.s, most.s);
  dcsim_budget_hint(b, 1, err);
  return rc;
}
