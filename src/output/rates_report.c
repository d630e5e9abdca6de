/* rates_report.c — why a CPU's time band is widened, by borrowed per-core rates or by an
 * unmeasured turbo clock: one wording for `dcsim model`, its node scan, `dcsim run` and `dcsim
 * sweep` (doc/models.md "Per-core rates", "Turbo"). */
#include <stdio.h>
#include <string.h>
#include "dcsim/band_rule.h"
#include "dcsim/hwprofile.h"
#include "dcsim/json.h"
#include "dcsim/numfmt.h"
#include "output/internal.h"

int dcsim__rates_borrowed(const dcsim_cpu_profile_t *cpu) {
  return cpu && dcsim_band_cpu_of(cpu) == DCSIM_BAND_CPU_BORROWED;
}

/* the levels (L1 L2 L3 DRAM ...) of a basis mask, space-separated */
static void levels_text(FILE *f, unsigned levels) {
  const char *sep = "";
  for (int q = DCSIM_CPU_L1; q < DCSIM_CPU_NQTY; q++)
    if (levels & 1u << q) fprintf(f, "%s%s", sep, dcsim_cpu_qty_name((dcsim_cpu_qty)q)), sep = " ";
}

/* whether cpus[i] is borrowed and not named before it in cpus (by profile name) */
static int first_borrowed(const dcsim_cpu_profile_t *const *cpus, size_t i) {
  if (!dcsim__rates_borrowed(cpus[i])) return 0;
  for (size_t k = 0; k < i; k++)
    if (cpus[k] && strcmp(dcsim_cpu_profile_name(cpus[k]), dcsim_cpu_profile_name(cpus[i])) == 0)
      return 0;
  return 1;
}

void dcsim__rates_text(FILE *f, const char *label, const dcsim_cpu_profile_t *const *cpus,
                       size_t n) {
  size_t shown = 0;
  for (size_t i = 0; i < n; i++) {
    if (!first_borrowed(cpus, i)) continue;
    unsigned levels;
    dcsim_rates_basis b = dcsim_cpu_profile_rates_basis(cpus[i], &levels);
    const char *name = dcsim_cpu_profile_name(cpus[i]),
               *on = b == DCSIM_RATES_SIBLING
                         ? "a sibling part's measurements"
                         : "no measurement: the reference CPU's per-cycle rates, an estimate";
    if (shown)
      fprintf(f, "), of %s on %s (", name, on);
    else
      fprintf(f, "%sper-core rates of %s rest on %s (", label, name, on);
    levels_text(f, levels);
    shown++;
  }
  if (shown)
    fprintf(f,
            "; sources in %s): the time band takes the cpu-time spec band twice "
            "(doc/models.md \"Per-core rates\")\n",
            shown > 1 ? "their profiles" : "its profile");
}

void dcsim__rates_csv(FILE *f, const dcsim_cpu_profile_t *const *cpus, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (!first_borrowed(cpus, i)) continue;
    unsigned levels;
    dcsim_rates_basis b = dcsim_cpu_profile_rates_basis(cpus[i], &levels);
    fprintf(f, "# rates_basis %s %s ", dcsim_cpu_profile_name(cpus[i]), dcsim_rates_basis_name(b));
    levels_text(f, levels);
    fputc('\n', f);
  }
}

void dcsim__rates_json(dcsim_json *j, const dcsim_cpu_profile_t *cpu) {
  unsigned levels;
  dcsim_rates_basis b = dcsim_cpu_profile_rates_basis(cpu, &levels);
  dcsim_json_key_str(j, "rates_basis", dcsim_rates_basis_name(b));
  if (b == DCSIM_RATES_OWN) return;
  dcsim_json_key(j, "rates_levels");
  dcsim_json_arr_begin(j);
  for (int q = DCSIM_CPU_L1; q < DCSIM_CPU_NQTY; q++)
    if (levels & 1u << q) dcsim_json_str(j, dcsim_cpu_qty_name((dcsim_cpu_qty)q));
  dcsim_json_arr_end(j);
}

void dcsim__turbo_text(FILE *f, const char *label, const dcsim_cpu_profile_t *cpu, unsigned cores,
                       const char *on, const char *bands) {
  fprintf(f, "%sturbo %s GHz is %s's maximum boost, not a clock measured on ", label,
          DCSIM_SIG(dcsim_cpu_profile_turbo_ghz(cpu)), dcsim_cpu_profile_name(cpu));
  if (cores)
    fprintf(f, "%u active cores", cores);
  else
    fputs(on, f);
  fprintf(f, ": %s the time at the nominal %s GHz", bands,
          DCSIM_SIG(dcsim_cpu_profile_nominal_ghz(cpu)));
}
