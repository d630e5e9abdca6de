/* input/internal.h — helpers shared by the files of the input layer (dwarf.c, hwprofile.c,
 * hwprofile_gpu.c, hwprofile_power.c), the one parser of a CPU datasheet's <measured>, and what
 * calib/ reads a calibration directory through: its machine.xml in typed members
 * (calibmachine.c), its RAPL power table (power_table.c, also read by tools/derive), its
 * per-quantity tables with their plausibility rules (calibdir.c) and the FILL placeholders of a
 * template-made directory (calibtemplate.c). Not a public header. Ownership:
 * the caller frees the document (dcsim__xml_free) and the strings. */
#ifndef DCSIM_INPUT_INTERNAL_H
#define DCSIM_INPUT_INTERNAL_H

#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "dcsim/hwprofile_power.h"
#include "util/csv.h"
#include "util/xmlio.h"

/* What a profile or dwarf loader starts with: the document at path (root element root_name,
 * checked against its schema) and malloc'd copies of path and of the root's name=. */
int dcsim__input_open(const char *path, const char *root_name, dcsim_xml_doc_t **doc,
                      char **path_copy, char **name_copy, dcsim_error *err);

/* Reads <power-spec> and <power-model> under the profile's root (either may be absent) and checks
 * them against the profile's core count per socket and, for basis="fitted", against the measured
 * power it was fitted on (n_energy_tables: the profile's <energy> tables). */
int dcsim__cpu_power_model_load(const dcsim_xml_doc_t *doc, xmlNode *root,
                                unsigned cores_per_socket, size_t n_energy_tables,
                                dcsim_cpu_power_model *m, dcsim_error *err);

/* A CPU or GPU profile's document, the file it came from and its name= and model= (copies; the
 * caller frees them and the document). */
int dcsim__profile_open(const char *path, const char *root_name, dcsim_xml_doc_t **doc,
                        char **path_copy, char **name_copy, char **model_copy, dcsim_error *err);

/* One <measured level=... one-core-bps ghz [socket-bps socket-cores] source> of a CPU profile's
 * <datasheet> into measured[level] (indexed by dcsim_cpu_qty: L1 = 1 .. DRAM = 4), its level in
 * *q_out. Refuses an unknown level, a second one for a level (measured[] starts zeroed), a rate or
 * clock not positive and a socket figure without its core count. The source is borrowed from the
 * document. The one parser of the element: hwprofile.c and calib/import/import_cpu.c use it. */
int dcsim__cpu_measured_parse(const dcsim_xml_doc_t *doc, xmlNode *m,
                              dcsim_cpu_measured_bw measured[5], int *q_out, dcsim_error *err);
/* above-byte and line-byte of a profile's cache <level> (line size positive). */
/* The source attribute of n, copied into *out (the caller frees it). */
int dcsim__profile_dup_source(const dcsim_xml_doc_t *doc, xmlNode *n, char **out, dcsim_error *err);
int dcsim__profile_level_sizes(const dcsim_xml_doc_t *doc, xmlNode *l, const char *name,
                               dcsim_cache_level *cl, dcsim_error *err);

/* A profile's <price usd date source> (dcsim/hwprofile.h): usd <= 0 when absent. */
typedef struct dcsim__price {
  double usd;
  char *date, *source;
} dcsim__price;
int dcsim__price_load(const dcsim_xml_doc_t *doc, xmlNode *root, dcsim__price *pr,
                      dcsim_error *err);
dcsim_hw_price dcsim__price_public(const dcsim__price *pr);
void dcsim__price_release(dcsim__price *pr);

/* ---- the RAPL power table of a calibration directory (power_table.c) ----
 * A CSV with columns frequency, threads ("idle" or a core count), domain (PKG or DRAM), value, unit
 * (W) and optionally source: one row per state and domain, every row at one frequency, at most
 * DCSIM_POWER_MAX_W; an idle state and at least one core count, each with both domains
 * (doc/calibration.md "Power model"). No limit on the number of states. */

/* One state: idle or a core count; its cells as written and as numbers (W), its source (text
 * borrowed from the table's CSV), the CSV line of its first row. */
typedef struct dcsim__power_state {
  int idle;
  unsigned cores;
  int line;
  const char *pkg, *dram, *source;
  double pkg_w, dram_w;
} dcsim__power_state;

typedef struct dcsim__power_table {
  char *path;                 /* the CSV read (malloc'd) */
  const char *freq;           /* the one frequency of every row */
  dcsim__power_state *states; /* idle first, then the core counts ascending */
  size_t n_states;
  double pkg_idle_w, dram_idle_w; /* the idle state */
  size_t n;                       /* the loaded states (n_states - 1), as arrays for the fits: */
  unsigned *cores;
  double *pkg_w, *dram_w;
  dcsim_csv_t *csv; /* holds the text */
} dcsim__power_table;

/* An extra check of a state's core count (the calibration directory's hardware threads), called
 * on each row in order; 0 or an error naming path:line. */
typedef int (*dcsim__power_cores_check)(const void *ctx, const char *path, int line, unsigned cores,
                                        dcsim_error *err);

/* Reads the table at path into *T. freq: the frequency every row must have (machine.xml's
 * <energy freq>), or NULL for the first row's; check (may be NULL) gets ctx. Free *T with
 * dcsim__power_table_free whatever the result. */
int dcsim__power_table_load(const char *path, const char *freq, dcsim__power_cores_check check,
                            const void *ctx, dcsim__power_table *T, dcsim_error *err);
void dcsim__power_table_free(dcsim__power_table *T);

/* The DRAM bandwidth (B/s) at each of T's core counts at T's frequency (bw_bps[i] for T->cores[i],
 * 0 where none), from the table CSV at path (columns frequency, threads, value, unit: a rate such
 * as GB/s): the traffic the DRAM power fits divide by. */
int dcsim__power_table_bandwidths(const dcsim__power_table *T, const char *path, double *bw_bps,
                                  dcsim_error *err);

/* Row row's thread count in column col: a whole number 1 to 10^6, else an error naming path:line
 * (the one rule of the calibration tables and the power table). */
int dcsim__csv_threads(const dcsim_csv_t *t, size_t row, size_t col, const char *path,
                       unsigned *out, dcsim_error *err);

/* ---- the per-quantity tables of a calibration directory (calibdir.c) ----
 * flops.csv, L1.csv .. DRAM.csv (machine.xml's <table quantity file>): columns frequency, threads,
 * value, unit (GFLOP/s or flop/s for flops, GB/s or B/s for the others, one unit for every row) and
 * optionally source; one value per thread count and frequency, every thread count at every
 * frequency used, one source per thread count (doc/calibration.md "Calibration tables"). */

/* What machine.xml's datasheet allows a table cell (doc/calibration.md "Plausibility"):
 * a figure that is 0 is absent and its check is not made. */
typedef struct dcsim__calibdir_limits {
  unsigned cores_per_socket, sockets, threads_per_core; /* threads_per_core 0: not given (1) */
  unsigned hw_threads;   /* cores_per_socket x threads per core x sockets */
  double flop_per_cycle; /* <isa flop-per-cycle> of one core */
  double max_ghz;        /* the highest clock of <frequencies>, turbo included */
  double mem_peak_bps;   /* <memory peak-bps> of one socket */
  int scatter;           /* <perf-fit placement="scatter"> */
} dcsim__calibdir_limits;

/* machine.xml's <frequencies> in order: ids, GHz (as numbers and as written), labels (NULL for a
 * plain state), sources (NULL when absent); the strings borrowed from its document. */
typedef struct dcsim__calibdir_freqs {
  int line;   /* <frequencies>' */
  int *lines; /* each <freq>'s */
  const char **ids;
  double *ghz;
  const char **ghz_text;
  const char **labels;
  const char **sources;
  size_t n;
} dcsim__calibdir_freqs;

/* ---- machine.xml of a calibration directory (calibmachine.c) ----
 * The whole manifest (schemas/calibration-machine.xsd) read once and checked into typed members:
 * what calib/import/import_cpu.c and calib/fit/fit_power.c compose a profile from; calib/ walks
 * no XML of it. Strings are borrowed from the document the struct holds and are NULL where an
 * optional attribute or element is absent; a "_text" or unsuffixed attribute string is the value
 * as written, which the profile copies unchanged. line: the element's line in machine.xml (0: the
 * element is absent). */

/* <datasheet><measured>, as written (its figures are in dcsim__calib_machine.ds). */
typedef struct dcsim__cm_measured {
  const char *level, *one_core_bps, *ghz, *socket_bps, *socket_cores, *basis, *source;
} dcsim__cm_measured;

/* <table quantity file source>: file NULL when the quantity has no table. */
typedef struct dcsim__cm_table {
  const char *file, *source;
  int line;
} dcsim__cm_table;

/* <perf-fit><turbo cores ghz source>: a published clock at cores active cores of a socket. */
typedef struct dcsim__cm_turbo {
  unsigned cores;
  double ghz;
  const char *source;
  int line;
} dcsim__cm_turbo;

typedef struct dcsim__cm_spec {
  int line;
  unsigned cores_per_socket, sockets, threads_per_core; /* threads_per_core 0: not given (one) */
  double nominal_ghz;
  double cache_byte[3]; /* l1-byte, l2-byte, l3-byte; 0: not given */
  const char *cores_per_socket_text, *sockets_text, *nominal_ghz_text, *l1_byte, *l2_byte, *l3_byte,
      *isa, *source;
} dcsim__cm_spec;

typedef struct dcsim__cm_datasheet {
  int line;                                    /* 0: no <datasheet> */
  const char *isa_flop_per_cycle, *isa_source; /* <isa>; isa_flop_per_cycle NULL: none */
  const char *mem_peak_bps, *mem_sustained_bps, *mem_source; /* <memory>; peak NULL: none */
  dcsim__cm_measured *measured;                              /* in document order */
  size_t n_measured;
} dcsim__cm_datasheet;

typedef struct dcsim__cm_perf_fit {
  int line; /* 0: no <perf-fit> */
  int scatter;
  const char *placement, *reference, *source;
  dcsim__cm_turbo *turbo; /* in document order */
  size_t n_turbo;
} dcsim__cm_perf_fit;

typedef struct dcsim__cm_energy {
  int line; /* 0: no <energy> */
  const char *file, *freq, *other_frequencies, *borrowed_from, *source;
} dcsim__cm_energy;

/* <power-model>'s <package>, <dram> and <node> (fit NULL: copied, "energy": fitted). */
typedef struct dcsim__cm_package {
  int line;
  const char *idle_w, *awake_w, *core_w, *voltage_slope, *fit, *source;
} dcsim__cm_package;

typedef struct dcsim__cm_dram {
  int line;
  const char *idle_w, *j_per_byte, *fit, *bandwidth, *source;
} dcsim__cm_dram;

typedef struct dcsim__cm_node {
  const char *base_w, *load_overhead, *source;
} dcsim__cm_node;

typedef struct dcsim__cm_power_model {
  int line; /* 0: no <power-model> */
  const char *basis, *source;
  dcsim__cm_package package;
  dcsim__cm_dram dram;
  dcsim__cm_node node;
} dcsim__cm_power_model;

typedef struct dcsim__calib_machine {
  const char *path;     /* machine.xml as given (borrowed from doc) */
  dcsim_xml_doc_t *doc; /* holds every string below */
  int line;             /* the root element's */
  const char *name, *model, *microarch;
  char *comment; /* <comment>'s text (malloc'd; no "--" in it), NULL: none */
  dcsim__cm_spec spec;
  const char *price_usd, *price_date, *price_source; /* <price>; price_usd NULL: none */
  dcsim__cm_datasheet datasheet;
  dcsim_cpu_datasheet ds; /* the datasheet's figures (0 where absent), sources borrowed */
  dcsim__calibdir_freqs fr;
  dcsim__cm_table table[DCSIM_CPU_NQTY]; /* by dcsim_cpu_qty */
  dcsim__cm_perf_fit perf_fit;
  dcsim__cm_energy energy;
  const char *tdp_w, *power_spec_source; /* <power-spec>; tdp_w NULL: none */
  dcsim__cm_power_model power_model;
  dcsim__calibdir_limits lim; /* what the datasheet allows the tables' cells */
} dcsim__calib_machine;

/* Reads machine.xml at path (checked against its schema) into *m: the root's name, model and
 * microarch; <comment> (refused with "--" in it); <spec>'s counts (1 to 10^6 hardware threads);
 * the datasheet's figures (dcsim__cpu_measured_parse for each <measured>); the frequencies (each
 * id once); the tables (each quantity once); <perf-fit> and its turbo bins; <energy freq> (one of
 * the frequency ids); power-spec and power-model as written; and the cells' limits. Errors name
 * machine.xml:LINE and the element. Release *m with dcsim__calib_machine_release whatever the
 * result. */
int dcsim__calib_machine_load(const char *path, dcsim__calib_machine *m, dcsim_error *err);
void dcsim__calib_machine_release(dcsim__calib_machine *m);

/* ---- the FILL placeholders of a directory made from the template (calibtemplate.c) ----
 * A placeholder is a machine.xml attribute value or element text, or a cell of a CSV file
 * machine.xml names (<table file>, <energy file>, <dram bandwidth>, each once), that is FILL or
 * starts with "FILL:" (dcsim/import_template.h). fn gets each element or CSV line holding any:
 * their count there, path:line and what to fill ("<table quantity=\"L1\"> FILL in source" or
 * "FILL in value, source"), in file order. machine.xml (mpath, in dir) is parsed without its
 * schema; nothing is reported when it cannot be read or parsed (its loader says why), nor for a
 * CSV file that cannot be read (its table reader says why). */
typedef void (*dcsim__calibdir_placeholder_fn)(void *ctx, size_t count, const char *path, int line,
                                               const char *what);
void dcsim__calibdir_placeholders(const char *dir, const char *mpath,
                                  dcsim__calibdir_placeholder_fn fn, void *ctx);

/* threads within lim's hardware threads (lim may be NULL: no check); an error naming path:line. */
int dcsim__calibdir_threads_ok(const char *path, int line, unsigned threads,
                               const dcsim__calibdir_limits *lim, dcsim_error *err);

/* A table cell (qty flops, L1, L2, L3 or DRAM; v in flop/s or B/s; cell and unit its text
 * for the message) per core in use, min(threads, cores), and per cycle at ghz must lie within
 * 10^-3 to 10^3 flop or byte (calibdir.c gives the figures); ghz_from says where ghz comes from.
 * The one rule of calibrate cpu, the likwid-bench and Kerncraft importers and bench --from; an
 * error naming path:line otherwise. */
int dcsim__calibdir_cell_per_cycle(const char *path, int line, const char *qty, const char *cell,
                                   const char *unit, unsigned threads, unsigned cores, double ghz,
                                   const char *ghz_from, double v, dcsim_error *err);

/* One table as a grid: the distinct thread counts ascending x the frequencies some row uses. */
typedef struct dcsim__calibdir_table {
  char *path;       /* the CSV read (malloc'd) */
  const char *qty;  /* the caller's */
  const char *unit; /* the first row's, the same in every row */
  double scale;     /* unit to flop/s or B/s: 1e9 for GFLOP/s and GB/s, else 1 */
  unsigned *th;     /* nt thread counts, ascending */
  size_t nt;
  size_t *freq_of; /* nf frequency columns: the index into the caller's ids of each */
  size_t nf;
  const char **cells;      /* nt x nf values as written (row-major by thread count) */
  const char **row_source; /* per thread count: the source of its rows ("" if none) */
  dcsim_csv_t *csv;        /* holds the text */
} dcsim__calibdir_table;

/* Reads the table of quantity qty at path into *T: every row's unit, thread count (within lim),
 * value (positive, plausible against lim; lim may be NULL) and frequency (one of the n_ids ids of
 * machine.xml's <frequencies>), then the grid. Errors name path:line with the messages of
 * doc/calibration.md. Free *T with dcsim__calibdir_table_free whatever the result. */
int dcsim__calibdir_table_load(const char *path, const char *qty, const char *const *ids,
                               size_t n_ids, const dcsim__calibdir_limits *lim,
                               dcsim__calibdir_table *T, dcsim_error *err);
void dcsim__calibdir_table_free(dcsim__calibdir_table *T);

#endif
