/* calib_report.c — what `dcsim calibrate` writes of a fit: the fitted profile elements. */
#include <stdio.h>

#include "dcsim/calib_report.h"
#include "dcsim/fit.h"
#include "dcsim/fit_coeffs.h"
#include "util/xmledit.h"

/* The fitted <energy-coefficients> and <power-activity> elements: every text (the CSV's path, the
 * profile's name, --source) through the one XML escaping (dcsim__xml_escape). */
void dcsim_energy_fit_xml(FILE *f, const dcsim_energy_fit *ef, dcsim_fit_method m, const char *csv,
                          const char *cpu, const char *user) {
  fprintf(f,
          "<energy-coefficients pkg-U=\"%.7g\" pkg-S=\"%.7g\" dram-X=\"%.7g\" dram-Y=\"%.7g\" "
          "source=\"",
          ef->pkg_U, ef->pkg_S, ef->dram_X, ef->dram_Y);
  if (user)
    dcsim__xml_escape(f, user);
  else {
    fputs("fitted: dcsim calibrate energy ", f);
    dcsim__xml_escape(f, csv);
    fprintf(f, " (%s) on ", dcsim_fit_method_name(m));
    dcsim__xml_escape(f, cpu);
  }
  fputs("\"/>\n", f);
  if (!ef->has_activity) return;
  fprintf(f, "<power-activity first-core=\"%.4g\" extra-core=\"%.4g\" source=\"", ef->act_first,
          ef->act_extra);
  if (user)
    dcsim__xml_escape(f, user);
  else {
    fputs("fitted: dcsim calibrate energy ", f);
    dcsim__xml_escape(f, csv);
    fputs(" (least squares) against the full-load table of ", f);
    dcsim__xml_escape(f, cpu);
    fprintf(f, "; rms %.3g W, leave-one-out worst %.2f%%", ef->act_stats.rms_w,
            100 * ef->act_stats.loo_max_rel_err);
  }
  fputs("\"/>\n", f);
}
