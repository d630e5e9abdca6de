/* cli.c — subcommand table, option parsing, help and error reporting (see dcsim/cli.h). */
#include "dcsim/cli.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/cost.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "dcsim/numfmt.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "util/units.h"

/* options several commands share word for word */
#define OPT_FORMAT \
  { "format", "text|json|csv", 0, "output format (default text)" }
#define OPT_DEADLINE                                                                         \
  {                                                                                          \
    "deadline-s", "SECONDS", 0,                                                              \
        "each workflow must run within SECONDS (or 90m, 3h) of its start: met or missed is " \
        "reported (run: exit 4; sweep: infeasible); the energy policy plans with it"         \
  }
#define OPT_MAX_TASKS                                                                           \
  {                                                                                             \
    "max-tasks", "N", 0,                                                                        \
        "refuse more work: task instances of a run, dependency edges of a workflow, jobs of a " \
        "trace, 2 per byte of a WfCommons instance (default 100000000)"                         \
  }
#define OPT_MAX_MEMORY                                                                           \
  {                                                                                              \
    "max-memory", "SIZE", 0,                                                                     \
        "refuse a run that needs more memory (a trace's decompressed text counts): bytes or K, " \
        "M, "                                                                                    \
        "G, T (default half of the machine's)"                                                   \
  }
#define OPT_D35 \
  { "d35", NULL, 0, "D3.5's published models exactly (table-only states, the paper's energy data)" }
#define OPT_COST                                                                                 \
  { "price", "NAME=USD", 1,                                                                      \
    "list price of one CPU or GPU of that profile, setting or replacing its own (repeatable)" }, \
      { "kwh-price", "USD", 0,                                                                   \
        "energy price per kWh, 0.01 to 1 USD/kWh, or with its unit: 150USD/MWh (default "        \
        "0.0688: " DCSIM_COST_KWH_SOURCE ")" },                                                  \
  {                                                                                              \
    "lifetime-years", "YEARS", 0,                                                                \
        "lifetime the purchase is amortised over, in years (5 or 5y; default 5)"                 \
  }
#define OPT_STRICT \
  { "strict", NULL, 0, "refuse extrapolated and datasheet-only values (provenance, doc/models.md)" }
#define OPT_THREADING                                                                        \
  {                                                                                          \
    "threading", "measured|ideal", 0,                                                        \
        "the code as measured (the dwarf's thread-scaling law; D3.5's GPU counters) or the " \
        "algorithm done well (per-loop model; GPU kernels in full warps, requested bytes "   \
        "only); default measured (doc/models.md \"Thread scaling\")"                         \
  }
#define OPT_OBJECTIVES                                                     \
  {                                                                        \
    "objectives", "time,energy|time,cost|energy,cost|time,energy,cost", 0, \
        "what the Pareto front is taken over (default time,energy)"        \
  }
#define OPT_SWEEP_ID \
  { "sweep", "ID", 0, "with a database: the sweep to read (default the latest)" }
#define OPT_TITLE \
  { "title", "TEXT", 0, "title of the picture" }

static const dcsim_opt_spec model_opts[] = {
  { "dwarf", "FILE|NAME", 0, "dwarf to model (dwarfs/NAME.xml or a path)" },
  { "case", "NAME", 0, "named case of the dwarf (sets its parameters)" },
  { "set", "NAME=VALUE", 1, "set a dwarf parameter (repeatable; after the case)" },
  { "cpu", "PROFILE", 0, "CPU profile for a CPU dwarf" },
  { "nodes", "N", 0, "number of identical nodes (default 1; D3.5 §4.3 split W/n, Q/n)" },
  { "cores", "N|all", 0, "cores (threads) used per node (default 1; all = the CPU's full node)" },
  { "freq", "GHZ|NAME", 0,
    "CPU frequency: GHz (modelled where the tables lack it), nominal, min, max (highest "
    "non-turbo), turbo or another state label (default nominal)" },
  { "net-bw-bps", "BPS", 0,
    "network bandwidth for the §4.3 communication term: bytes/s, or with a unit: 100Gb/s (bits, "
    "= 1.25e10 B/s), 12.5GB/s (default: perfect overlap)" },
  { "net-latency-s", "S", 0,
    "network latency (Hockney alpha) of the communication patterns: seconds or 1us (default 0)" },
  { "overlap", "F", 0,
    "fraction 0..1 of communication hidden by computation (default: the dwarf's)" },
  { "nodes-scan", "N,N,...", 0,
    "model each node count and mark the balance point (instead of --nodes)" },
  { "gpu", "PROFILE", 0, "GPU profile for a GPU dwarf" },
  { "host-cpu", "PROFILE", 0, "host CPU of the GPU: adds its idle package power (§5.5)" },
  { "small-domain", NULL, 0,
    "GPU: add the fitted launch overhead and occupancy ramp of small domains" },
  { "gpu-power-activity", NULL, 0,
    "GPU: board power from the profile's activity model even where D3.5 measured S (Table 36)" },
  { "gpus", "N", 0,
    "GPU: split the domain over N GPUs of a node, with host-device transfer and halo" },
  { "energy-form", "5.3|5.2|none", 0,
    "energy model (default: node wall power; under --d35 §5.3): §5.3 coefficients or §5.2 with "
    "E_const on the energy table, or none" },
  OPT_FORMAT,
  OPT_THREADING,
  OPT_D35,
  OPT_STRICT,
};
static const dcsim_opt_spec energy_opts[] = {
  { "dwarf", "FILE|NAME", 0,
    "dwarf: its power activity (default) or §5.3 energy coefficients (--d35) apply" },
  { "case", "NAME", 0, "dwarf case whose modelled DRAM bytes the run moves (default model)" },
  { "cpu", "PROFILE", 0, "CPU profile: its power model (default) or energy table (--d35)" },
  { "cores", "N|all", 0, "active cores per node (required; all = the CPU's full node)" },
  { "freq", "GHZ|NAME", 0, "frequency: GHz, nominal, min, max or a label (default nominal)" },
  { "nodes", "N", 0, "number of nodes, each running for TIME (default 1; §5.6 sum)" },
  { "time", "SECONDS", 0, "measured run time (required)" },
  OPT_FORMAT,
  OPT_D35,
  OPT_STRICT,
};
static const dcsim_opt_spec list_opts[] = {
  OPT_FORMAT,
};
static const dcsim_opt_spec validate_opts[] = {
  { "quiet", NULL, 0, "print nothing on success" },
  OPT_MAX_TASKS,
  OPT_MAX_MEMORY,
};
static const dcsim_opt_spec run_opts[] = {
  { "platform", "FILE", 0, "platform to run on (default: the one the workflow/workload names)" },
  { "policy", "NAME", 0,
    "scheduling policy: fcfs, easy, sjf, heft, energy, JOB+TASK (default fcfs+heft)" },
  { "db", "PATH", 0, "SQLite results database (created if missing; one transaction per run)" },
  OPT_FORMAT,
  OPT_DEADLINE,
  { "tasks-csv", "FILE", 0, "write every task (start, end, nodes, energy) to FILE as CSV" },
  { "gantt", "FILE.png|svg", 0, "draw the tasks per node over time (gnuplot)" },
  { "power", "FILE.png|svg", 0,
    "draw the power of the centre and of each node group over time (gnuplot)" },
  { "power-off-after", "SECONDS", 0,
    "switch nodes with <power-states> off after this idle time (default: never)" },
  { "dvfs-slowdown", "FRACTION", 0,
    "DVFS: each CPU task at the least-energy frequency within (1+FRACTION) x its nominal time" },
  { "swf-map", "FILE", 0, "SWF traces: rules mapping jobs to dwarf calls (schemas/swf-map.xsd)" },
  { "wms-delay-s", "SECONDS", 0,
    "WfCommons: workflow-system latency before each task (default 0)" },
  { "wms-dispatch-s", "SECONDS", 0,
    "WfCommons: at most one task start per this many seconds (default 0)" },
  { "io-bw-bps", "BPS", 0,
    "WfCommons: read inputs and write outputs of each task at this rate (default: ignored)" },
  { "wms", "none|pegasus", 0,
    "workflow management system model (default: what the workflow records, else the platform's)" },
  { "wms-file", "FILE", 0,
    "WMS description (default workflows/wms/pegasus-htcondor.xml, schemas/wms.xsd)" },
  { "bucket-s", "SECONDS", 0, "width of the utilisation-over-time buckets (default 3600)" },
  OPT_THREADING,
  OPT_D35,
  OPT_STRICT,
  OPT_MAX_TASKS,
  OPT_MAX_MEMORY,
  { "quiet", NULL, 0, "no progress line on stderr" },
  OPT_COST,
  { "sort", "submit|wait|time|energy|cost", 0,
    "order of the workflow table, text and csv (default submit; unknown values last)" },
};
static const dcsim_opt_spec sweep_opts[] = {
  { "cpu", "P1,P2,...", 0, "CPU profiles for the node groups without GPU" },
  { "gpu", "G1,G2,...", 0, "GPU profiles for the node groups with GPUs" },
  { "gpus", "N1,N2,...", 0,
    "GPUs per GPU node, each GPU task split over them (multi-GPU model, memory checked)" },
  { "host-cpu", "P1,P2,...", 0,
    "CPU profiles of the node groups with GPUs (default: the platform's)" },
  { "nodes", "N1,N2,...", 0, "nodes of every CPU task (ranges A-B allowed)" },
  { "cores", "C1,C2,...", 0,
    "cores per node of every CPU task (ranges A-B allowed; all = each CPU's full node)" },
  { "freq", "F1,F2,...", 0,
    "frequencies of every CPU task: GHz, nominal, min, max, turbo or a label, resolved per CPU "
    "(default: each CPU's nominal)" },
  { "set", "NAME=VALUE", 1,
    "set a dwarf parameter of every task whose dwarf has it (repeatable; one value each)" },
  { "platform", "FILE", 0, "platform (default: the one the workflow names)" },
  { "policy", "NAME", 0, "scheduling policy, as for dcsim run (default fcfs+heft)" },
  OPT_DEADLINE,
  { "db", "PATH", 0, "SQLite database: store each point; an interrupted sweep resumes" },
  OPT_FORMAT,
  { "threads", "N", 0, "OpenMP threads (default OMP_NUM_THREADS or all cores)" },
  { "plot", "FILE.png|svg", 0, "also draw the Pareto plot (gnuplot)" },
  { "heatmap", "FILE.png|svg", 0, "also draw the energy over nodes x cores (gnuplot)" },
  { "title", "TEXT", 0, "title of the pictures" },
  { "quiet", NULL, 0, "no progress bar or resume message on stderr" },
  { "stop-after", "N", 0, "testing: stop after N new points, as if interrupted" },
  OPT_MAX_TASKS,
  OPT_MAX_MEMORY,
  { "shard", "I/N", 0,
    "evaluate only shard I of N (job arrays; needs --db; join with dcsim merge)" },
  { "threading", "measured,ideal", 0,
    "CPU thread-scaling variants, an axis of the design space: the dwarfs' measured laws, the "
    "per-loop model with well-behaved threads, or both (default measured)" },
  OPT_D35,
  OPT_STRICT,
  OPT_COST,
  OPT_OBJECTIVES,
  { "sort", "point|time|energy|cost", 0,
    "order of the points in the table (default point; unknown values last)" },
};
static const dcsim_opt_spec merge_opts[] = {
  { "output", "PATH", 0, "the merged database to write (must not exist)" },
  { "sweep", "HASH", 0, "the sweep to merge when the inputs hold several (its hash or a prefix)" },
};
/* the filters and facets of pareto and heatmap over a sweep's axes (dcsim/sweep_axis.h) */
// clang-format off
#define SWEEP_AXIS_OPTS                                                                         \
  { "gpus", "N1,N2,...", 0, "only the points of these GPUs per GPU node (of sweep --gpus)" },   \
  { "host-cpu", "P1,P2,...", 0,                                                                 \
    "only the points whose GPU nodes have these CPUs (sweep --host-cpu)" },                     \
  { "threading", "measured|ideal", 0, "only the points of this thread-scaling variant" },       \
  { "facet", "gpus|host-cpu|threading", 0,                                                      \
    "one picture per value of the axis: OUT-AXIS-VALUE.png|svg beside OUT" }
// clang-format on
static const dcsim_opt_spec pareto_opts[] = {
  { "format", "text|csv|json|svg|png", 0, "output (default text, or the --out file's extension)" },
  { "out", "FILE", 0, "write to FILE instead of stdout (required for svg and png)" },
  OPT_SWEEP_ID,
  OPT_TITLE,
  OPT_OBJECTIVES,
  { "sort", "point|time|energy|cost", 0,
    "order of the points in the table (default time; unknown values last)" },
  SWEEP_AXIS_OPTS,
};
static const dcsim_opt_spec heatmap_opts[] = {
  { "out", "FILE.png|svg", 0, "the picture to write (required)" },
  { "color", "energy|time", 0, "what the colour shows (default energy)" },
  OPT_SWEEP_ID,
  { "cpu", "P1,P2,...", 0, "draw only the panels of these CPU profiles" },
  { "gpu", "G1,G2,...", 0, "draw only the panels of these GPU profiles" },
  { "freq", "F1,F2,...", 0, "draw only the panels of these frequencies" },
  SWEEP_AXIS_OPTS,
  OPT_TITLE,
};
static const dcsim_opt_spec roofline_opts[] = {
  { "cpu", "PROFILE", 0, "CPU profile: peak and L1/L2/L3/DRAM ceilings of its tables" },
  { "gpu", "PROFILE", 0, "GPU profile: double/single precision peaks and memory ceiling" },
  { "cores", "N|all", 0, "CPU: threads of the state (default 1; all = the CPU's full node)" },
  { "freq", "GHZ|NAME", 0,
    "CPU: frequency of the state: GHz, nominal, min, max, turbo (default nominal)" },
  { "dwarf", "FILE|NAME", 0, "place the dwarf's loops or kernels on the roofline" },
  { "case", "NAME", 0, "the dwarf's case" },
  { "kind", "cache-aware|classic", 0, "picture: every memory level (default) or DRAM only" },
  { "format", "text|json|csv|png|svg", 0, "output (default text, or the --out file's extension)" },
  { "out", "FILE", 0, "write to FILE instead of stdout (required for png and svg)" },
};

static const dcsim_opt_spec calibrate_opts[] = {
  { "template", "DIR", 0,
    "cpu: write a commented skeleton calibration directory (tables, machine.xml, power, README) "
    "into DIR, which must be new or empty; fill its FILL values, then calibrate cpu DIR" },
  { "output", "PATH", 0,
    "write the result here (atomically) instead of stdout; import-*: the calibration directory" },
  { "cpu", "PROFILE", 0,
    "loops, energy: CPU profile whose tables P, L1..DRAM or power apply; scaling: the profile "
    "(default: DIR/machine.xml's)" },
  { "dwarf", "FILE", 0,
    "loops, gpu: dwarf file whose loop coefficients or kernel characteristics are replaced (with "
    "-o); scaling: the dwarf (default: DIR's NAME-runs.csv)" },
  { "method", "lad|lsq|endpoints", 0,
    "loops: V,X,Y,Z fit (default lad); energy: U,S,X,Y fit (default lsq)" },
  { "flop-method", "lad|lsq", 0, "loops: U,S fit (default lsq)" },
  { "freq", "GHZ|LABEL", 0,
    "energy: frequency state of the measurements (default nominal); import-likwid: <freq id> of "
    "DIR/machine.xml" },
  { "domain-size", "N", 0,
    "gpu: size N of the profiled domain (D3.5 Table 7) for every export not in a manifest" },
  { "test", "NAME", 0,
    "import-likwid: bandwidth test family (load, copy...); import-kerncraft: kernel (default "
    "load)" },
  { "source", "TEXT", 0, "provenance written with the results (default: the input files)" },
  { "name", "NAME", 0, "gpu with a gpu-bench CSV: name of the profile (default: the device's)" },
  { "quantity", "flops|L1|L2|L3|DRAM", 0, "sampling: the table to sample (default DRAM)" },
  { "budget", "N", 0, "sampling: samples per run (default 64)" },
  { "batch", "N", 0, "sampling: samples per step (default 8)" },
  { "seeds", "N", 0, "sampling: runs per sampler, the median is reported (default 9)" },
  { "seed", "N", 0, "sampling: first seed (default 1)" },
  { "target", "FRACTION", 0, "sampling: mean relative error to reach (default 0.05)" },
  { "sampler", "NAME", 0,
    "sampling: the plan's sampler (default: the one reaching the target first)" },
  { "plot", "FILE.png|svg", 0, "sampling: draw the error against samples (gnuplot)" },
  { "quiet", NULL, 0, "no fit, calibration or import report" },
};

static const dcsim_opt_spec bench_opts[] = {
  { "output", "DIR", 0,
    "calibration directory to write (default bench-out): tables, profile, loops, dwarf" },
  { "quick", NULL, 0, "a one-minute run (time budget 60 s unless --time-budget)" },
  { "time-budget", "DURATION", 0,
    "whole run in about this time: 90, 90s, 2m, 1h (default 5m, quick 60s)" },
  { "reps", "N", 0,
    "exactly N repetitions per point (default: 3 to 15, quick 3 to 9, until the spread < 2 %)" },
  { "threads", "N", 0,
    "use N CPUs of the affinity mask (default all); 1, a socket, N and HVS's picks measured" },
  { "cache", "L1=SIZE,L2=SIZE,L3=SIZE", 0,
    "cache sizes by hand (default: sysfs, else CPUID, else sysconf), e.g. L1=48K,L2=2M,L3=105M" },
  { "compare", "CPU", 0, "print the measured ceilings beside a catalogue profile's" },
  { "check", "WORKFLOW", 0,
    "predict the first CPU dwarf of WORKFLOW with the fitted profile against a replay here, "
    "and the real codes measured on this CPU (calibration/realcode) against their times" },
  { "from", "DIR", 0,
    "measure nothing: --compare and --check on the recorded bench directory DIR" },
  { "budget", "N", 0,
    "also map bandwidth over (threads, working set) with N adaptively chosen points (HVS)" },
  { "probe", NULL, 0,
    "also time each kernel called directly (load L1-L3, plain triad DRAM), 1 thread: probe.csv" },
  { "keep-suspect", NULL, 0,
    "keep cells that fail the interference checks (flagged) instead of leaving them out" },
  { "seed", "N", 0, "seed of the adaptive sampling and the gather kernel (default 1)" },
  { "sampler", "NAME", 0,
    "with --budget: hvs (default), hvs-relative, qbc, lhs or random (doc/calibration.md)" },
  { "name", "NAME", 0, "profile name (default: from the CPU model)" },
  { "db", "PATH", 0,
    "SQLite results database: tables bench_runs, bench_points, bench_fits, bench_heldout" },
  { "sysfs-cpu", "DIR", 0,
    "where the CPU cache descriptions are (default /sys/devices/system/cpu)" },
  { "powercap", "DIR", 0, "powercap tree for RAPL (default /sys/class/powercap)" },
  { "quiet", NULL, 0, "no progress lines on stderr" },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* dcsim_args holds DCSIM_MAX_OPTS options of a command: one more option than that in a table is
 * a build error, not an overrun */
#define OPTS_FIT(o) \
  _Static_assert(N_OF(o) <= DCSIM_MAX_OPTS, #o " has more options than dcsim_args holds")
OPTS_FIT(run_opts);
OPTS_FIT(model_opts);
OPTS_FIT(energy_opts);
OPTS_FIT(list_opts);
OPTS_FIT(calibrate_opts);
OPTS_FIT(bench_opts);
OPTS_FIT(validate_opts);
OPTS_FIT(sweep_opts);
OPTS_FIT(pareto_opts);
OPTS_FIT(heatmap_opts);
OPTS_FIT(merge_opts);
OPTS_FIT(roofline_opts);

static const dcsim_command commands[] = {
  { "run", dcsim_cmd_run, "simulate a workflow or workload on a platform", "FILE", run_opts,
    N_OF(run_opts), 1, 1 },
  { "model", dcsim_cmd_model, "predict time and energy of one dwarf run (D3.5 §3-§5)", "",
    model_opts, N_OF(model_opts), 0, 0 },
  { "energy", dcsim_cmd_energy,
    "energy of a run whose time was measured (node wall power; --d35: D3.5 §5.3)", "", energy_opts,
    N_OF(energy_opts), 0, 0 },
  { "list", dcsim_cmd_list,
    "list the profiles, dwarfs, cases and workflows found; with DWARF, its cases and their "
    "parameter values",
    "[DWARF]", list_opts, N_OF(list_opts), 0, 1 },
  { "calibrate", dcsim_cmd_calibrate,
    "make profiles, coefficients and GPU kernel characteristics from measurements (D3.5 "
    "§3.4-§6.1.2)",
    "cpu DIR | cpu --template DIR | loops CSV | energy CSV | scaling DIR|CSV | gpu CSV... | "
    "import-likwid FILE... -o DIR | import-kerncraft FILE.yml -o DIR | sampling PROFILE",
    calibrate_opts, N_OF(calibrate_opts), 1, DCSIM_MAX_POSITIONAL },
  { "bench", dcsim_cmd_bench, "measure this machine: tables, profile, loop fits, held-out error",
    "", bench_opts, N_OF(bench_opts), 0, 0 },
  { "validate", dcsim_cmd_validate, "load and check input files: schema, references, values",
    "FILE...", validate_opts, N_OF(validate_opts), 1, DCSIM_MAX_POSITIONAL },
  { "sweep", dcsim_cmd_sweep, "simulate every combination of CPUs, GPUs, nodes, cores, frequencies",
    "WORKFLOW", sweep_opts, N_OF(sweep_opts), 1, 1 },
  { "pareto", dcsim_cmd_pareto, "Pareto front (time vs energy) of sweep results, with its knee",
    "INPUT", pareto_opts, N_OF(pareto_opts), 1, 1 },
  { "heatmap", dcsim_cmd_heatmap,
    "heat map of sweep results: energy or time over nodes x cores, per hardware + frequency",
    "INPUT", heatmap_opts, N_OF(heatmap_opts), 1, 1 },
  { "merge", dcsim_cmd_merge, "join the databases of a sweep's shards into one", "DB...",
    merge_opts, N_OF(merge_opts), 1, DCSIM_MAX_POSITIONAL },
  { "roofline", dcsim_cmd_roofline,
    "roofline / cache-aware roofline of a profile, with a dwarf's loops", "", roofline_opts,
    N_OF(roofline_opts), 0, 0 },
};

const dcsim_command *dcsim_cli_commands(size_t *n) {
  *n = N_OF(commands);
  return commands;
}

/* the commands dcsim_cli_main() handles itself, beside the table */
static const char *const builtin_names[] = { "help", "version", "completion" };

/* "; did you mean sweep?" for a mistyped command name, else "" */
static void suggest_command(const char *name, char *hint, size_t size) {
  const char *names[N_OF(commands) + N_OF(builtin_names)];
  size_t n = 0;
  for (size_t i = 0; i < N_OF(commands); i++) names[n++] = commands[i].name;
  for (size_t i = 0; i < N_OF(builtin_names); i++) names[n++] = builtin_names[i];
  const char *best = dcsim_suggest(name, names, n);
  snprintf(hint, size, "%s%s%s", best ? "; did you mean " : "", best ? best : "", best ? "?" : "");
}

/* "; did you mean --policy?" for a mistyped option of command c, else "" */
static void suggest_option(const dcsim_command *c, const char *name, char *hint, size_t size) {
  const char *names[DCSIM_MAX_OPTS];
  size_t n = 0;
  for (size_t i = 0; i < c->n_opts && n < DCSIM_MAX_OPTS; i++) names[n++] = c->opts[i].name;
  const char *best = dcsim_suggest(name, names, n);
  snprintf(hint, size, "%s%s%s", best ? "; did you mean --" : "", best ? best : "",
           best ? "?" : "");
}

/* one-letter aliases, valid for every command that has the long option: -o PATH = --output PATH */
static const struct {
  char c;
  const char *name;
} short_opts[] = { { 'o', "output" } };

char dcsim_cli_short_alias(const char *long_name) {
  for (size_t k = 0; k < N_OF(short_opts); k++)
    if (strcmp(short_opts[k].name, long_name) == 0) return short_opts[k].c;
  return 0;
}

static const char *short_alias(const dcsim_command *c, char letter) {
  for (size_t k = 0; k < N_OF(short_opts); k++)
    if (short_opts[k].c == letter)
      for (size_t i = 0; i < c->n_opts; i++)
        if (strcmp(c->opts[i].name, short_opts[k].name) == 0) return short_opts[k].name;
  return NULL;
}

static void usage_all(FILE *f) {
  fprintf(f, "usage: dcsim <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < N_OF(commands); i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "  %-10s %s\n", "help", "show help for a command (help --man: the manual page)");
  fprintf(f, "  %-10s %s\n", "version", "print the version and commit");
  fprintf(f, "  %-10s %s\n", "completion", "print the bash completion script (completion bash)");
  fprintf(f, "\n'dcsim <command> --help' describes a command's options.\n");
}

static void usage_cmd(FILE *f, const dcsim_command *c) {
  fprintf(f, "usage: dcsim %s [options]%s%s\n\n%s\n\noptions:\n", c->name, *c->usage ? " " : "",
          c->usage, c->summary);
  for (size_t i = 0; i < c->n_opts; i++) {
    char sh = 0;
    for (size_t k = 0; k < N_OF(short_opts); k++)
      if (strcmp(short_opts[k].name, c->opts[i].name) == 0) sh = short_opts[k].c;
    /* printed piece by piece, never cut: a left-hand side wider than its column (--objectives
     * LIST) has its line, the help the next one, aligned with the others */
    int w = fprintf(f, "  ");
    if (sh) w += fprintf(f, "-%c, ", sh);
    w += fprintf(f, "--%s%s%s", c->opts[i].name, c->opts[i].arg ? " " : "",
                 c->opts[i].arg ? c->opts[i].arg : "");
    if (w > 28) w = fprintf(f, "\n") - 1;
    fprintf(f, "%*s%s\n", 29 - w, "", c->opts[i].help);
  }
  fprintf(f, "  %-26s %s\n", "--help", "show this help");
}

static int spec_index(const dcsim_args *a, const char *name) {
  for (size_t i = 0; i < a->n_specs; i++)
    if (strcmp(a->specs[i].name, name) == 0) return (int)i;
  return -1;
}

const char *dcsim_arg(const dcsim_args *a, const char *name) {
  int i = spec_index(a, name);
  return i >= 0 && a->count[i] ? a->values[i][a->count[i] - 1] : NULL;
}

int dcsim_arg_index(const dcsim_args *a, const char *name) {
  int i = spec_index(a, name);
  return i >= 0 && a->count[i] ? a->argi[i][a->count[i] - 1] : 0;
}

int dcsim_arg_flag(const dcsim_args *a, const char *name) {
  int i = spec_index(a, name);
  return i >= 0 && a->count[i] > 0;
}

int dcsim_arg_cost(const dcsim_args *a, struct dcsim_cost_opts *o, dcsim_price_set *prices,
                   char names[][64], dcsim_error *err) {
  int rc;
  dcsim_cost_opts_default(o);
  if ((rc = dcsim_arg_quantity(a, "kwh-price", "USD/kWh", DCSIM_COST_KWH_USD, &o->kwh_usd, err)) ||
      (rc = dcsim_arg_quantity(a, "lifetime-years", "years", DCSIM_COST_LIFETIME_YEARS,
                               &o->lifetime_years, err)))
    return rc;
  if (dcsim_arg(a, "kwh-price") &&
      !(o->kwh_usd >= DCSIM_COST_KWH_USD_MIN && o->kwh_usd <= DCSIM_COST_KWH_USD_MAX))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "kwh-price"),
                     "--kwh-price %s: %s USD/kWh is outside the plausible range %s to %s USD/kWh "
                     "(US state averages of 2023: 0.0575 to 0.4239, EIA)%s%s%s",
                     dcsim_arg(a, "kwh-price"), DCSIM_SIG(o->kwh_usd),
                     DCSIM_SIG(DCSIM_COST_KWH_USD_MIN), DCSIM_SIG(DCSIM_COST_KWH_USD_MAX),
                     o->kwh_usd > DCSIM_COST_KWH_USD_MAX ? "; a price per MWh is written " : "",
                     o->kwh_usd > DCSIM_COST_KWH_USD_MAX ? DCSIM_SIG(o->kwh_usd) : "",
                     o->kwh_usd > DCSIM_COST_KWH_USD_MAX ? "USD/MWh" : "");
  int k = spec_index(a, "price");
  for (int i = 0; k >= 0 && i < a->count[k]; i++) {
    const char *s = a->values[k][i], *eq = strchr(s, '=');
    double v;
    if (!eq || eq == s || (size_t)(eq - s) >= 64 || dcsim_parse_double(eq + 1, &v) != 0)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", a->argi[k][i],
                       "--price '%s': expected NAME=USD (a CPU or GPU profile and its price)", s);
    size_t len = (size_t)(eq - s); /* < 64, checked above */
    memcpy(names[i], s, len);
    names[i][len] = '\0';
    prices[i] = (dcsim_price_set){ names[i], v };
    o->n_prices++;
  }
  o->prices = prices;
  return 0;
}

/* The library's parameter names (dcsim_error.param) and the options that give them. by_value: the
 * option is repeated once per value, so an error's index is the occurrence it is about. */
static const struct {
  const char *param, *option;
  int by_value;
} param_options[] = {
  { "cpu", "cpu", 0 },         /* dcsim_model_req.cpu */
  { "gpu", "gpu", 0 },         /* dcsim_model_req.gpu */
  { "gpus", "gpus", 0 },       /* dcsim_model_req.gpus */
  { "nodes", "nodes", 0 },     /* dcsim_model_req.nodes, dcsim_sweep_def.nodes */
  { "cores", "cores", 0 },     /* dcsim_model_req.state.threads, dcsim_sweep_def.cores */
  { "overlap", "overlap", 0 }, /* dcsim_model_req.overlap */
  { "time_s", "time", 0 },     /* dcsim_model_energy_at */
  { "gpu_small_domain", "small-domain", 0 },
  { "gpu_power_activity", "gpu-power-activity", 0 },
  { "threading", "threading", 0 },   /* DCSIM_MODEL_HW_THREADS */
  { "threadings", "threading", 0 },  /* dcsim_sweep_def.threadings */
  { "cpu_profiles", "cpu", 0 },      /* dcsim_sweep_def.cpus */
  { "gpu_profiles", "gpu", 0 },      /* dcsim_sweep_def.gpus */
  { "gpu_counts", "gpus", 0 },       /* dcsim_sweep_def.gpu_counts */
  { "host_cpus", "host-cpu", 0 },    /* dcsim_sweep_def.host_cpus */
  { "freqs", "freq", 0 },            /* dcsim_sweep_def.freqs */
  { "sets", "set", 1 },              /* dcsim_sweep_def.sets */
  { "shard", "shard", 0 },           /* dcsim_sweep_set_shard */
  { "objectives", "objectives", 0 }, /* dcsim_sweep_parse_objectives */
  { "policy", "policy", 0 },         /* dcsim_sched_parse_policy */
  { "kwh_usd", "kwh-price", 0 },     /* dcsim_cost_opts */
  { "lifetime_years", "lifetime-years", 0 },
  { "prices", "price", 1 },
  { "quantity", "quantity", 0 },       /* dcsim_sampling_profile_problem */
  { "domain_size", "domain-size", 0 }, /* dcsim_gpu_calib_* */
  { "cache", "cache", 0 },             /* dcsim_bench_parse_cache_spec */
  { "compare_cpu", "compare", 0 },     /* dcsim_bench_opts.compare_cpu */
  { "sort_key", "sort", 0 },           /* dcsim_run_job_order, dcsim_sweep_sorted */
  /* the message names the option (the caller passed it) or the command locates it itself */
  { "picture", NULL, 0 }, /* dcsim_plot_format_of */
  { "path", NULL, 0 },    /* dcsim_path_check_writable */
  { "paths", NULL, 0 },   /* dcsim_gpu_calib_from_exports: the positional exports */
  { "inputs", NULL, 0 },  /* dcsim_sweepdb_merge: the positional databases */
};

void dcsim_cli_locate_param(const dcsim_args *a, dcsim_error *err) {
  if (!err || err->file[0] || !err->param[0]) return;
  const char *opt = err->param;
  int by_value = 0;
  for (size_t i = 0; i < sizeof param_options / sizeof *param_options; i++)
    if (strcmp(param_options[i].param, err->param) == 0) {
      opt = param_options[i].option;
      by_value = param_options[i].by_value;
    }
  int at = 0, k = opt && opt != err->param ? spec_index(a, opt) : -1;
  if (k >= 0 && by_value && err->index >= 0 && err->index < a->count[k])
    at = a->argi[k][err->index];
  else if (k >= 0)
    at = dcsim_arg_index(a, opt);
  if (opt == err->param) /* not in the table: the parameter's own name */
    dcsim_error_prefix(err, "%s", err->param);
  else if (opt)
    dcsim_error_prefix(err, "--%s", opt);
  dcsim_error_at(err, "command line", at);
}

unsigned dcsim_arg_model_flags(const dcsim_args *a) {
  return (dcsim_arg_flag(a, "d35") ? DCSIM_MODEL_D35 : 0u) |
         (dcsim_arg_flag(a, "strict") ? DCSIM_MODEL_STRICT : 0u);
}

int dcsim_threading_parse(const char *name, unsigned *flags) {
  if (strcmp(name, "measured") == 0)
    *flags = 0;
  else if (strcmp(name, "ideal") == 0)
    *flags = DCSIM_MODEL_HW_THREADS;
  else
    return -1;
  return 0;
}

const char *dcsim_threading_name(unsigned model_flags) {
  return model_flags & DCSIM_MODEL_HW_THREADS ? "ideal" : "measured";
}

int dcsim_arg_threading(const dcsim_args *a, unsigned *flags, dcsim_error *err) {
  const char *v = dcsim_arg(a, "threading");
  unsigned f = 0;
  if (v && dcsim_threading_parse(v, &f))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "threading"),
                     "--threading %s: expected measured or ideal", v);
  *flags |= f;
  return 0;
}

/* a plain number: dcsim_arg_quantity without a unit (one reader of non-negative numbers) */
int dcsim_arg_double(const dcsim_args *a, const char *name, double dflt, double *out,
                     dcsim_error *err) {
  return dcsim_arg_quantity(a, name, NULL, dflt, out, err);
}

/* --cores N or all (the CPU's full node: cores per socket x sockets); model, energy and roofline
 * read it here, sweep its list of them (cli_sweep.c, `all` resolved per CPU). */
int dcsim_arg_cores(const dcsim_args *a, const dcsim_cpu_profile_t *cpu, unsigned *threads,
                    dcsim_error *err) {
  const char *cores = dcsim_arg(a, "cores");
  if (cores && strcmp(cores, "all") == 0) {
    *threads = dcsim_cpu_profile_cores_per_socket(cpu) * dcsim_cpu_profile_sockets(cpu);
    return 0;
  }
  return dcsim_arg_uint(a, "cores", 1, threads, err);
}

/* what a person may write after the number, per kind of the option's unit (doc/cli.md, "Units") */
static const char *unit_examples(dcsim_unit_kind k) {
  switch (k) {
    case DCSIM_UNIT_RATE: return "100Gb/s or 12.5GB/s";
    case DCSIM_UNIT_TIME: return "90s, 2m, 48h or 5y";
    case DCSIM_UNIT_TARIFF: return "0.15USD/kWh or 150USD/MWh";
    case DCSIM_UNIT_BYTES: return "512MB or 2GiB";
    case DCSIM_UNIT_ENERGY: return "2.5MJ or 700kWh";
    default: return NULL;
  }
}

int dcsim_arg_quantity(const dcsim_args *a, const char *name, const char *unit, double dflt,
                       double *out, dcsim_error *err) {
  const char *v = dcsim_arg(a, name);
  if (!v) {
    *out = dflt;
    return 0;
  }
  dcsim_unit_kind want = DCSIM_UNIT_PLAIN, got;
  double unit_scale = 1, x;
  if (unit && dcsim__parse_unit(unit, &want, &unit_scale) != 0)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "command line", 0, "--%s: unknown unit %s", name, unit);
  int plain = dcsim_parse_double(v, &x) == 0;
  if (!plain && (!unit || dcsim__parse_quantity(v, &x, &got) != 0 || got != want)) x = -1;
  if (!(x >= 0) && !unit)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, name),
                     "--%s '%s': expected a finite, non-negative number", name, v);
  if (!(x >= 0))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, name),
                     "--%s '%s': expected a finite, non-negative number (%s, or with its unit: %s)",
                     name, v, unit, unit_examples(want));
  *out = plain ? x : x / unit_scale;
  if (!plain) /* the value as understood: 100Gb/s is 1.25e10 B/s, not 1e11 */
    fprintf(stderr, "dcsim: note: --%s %s read as %s %s\n", name, v, DCSIM_SIG(*out), unit);
  return 0;
}

int dcsim_arg_uint(const dcsim_args *a, const char *name, unsigned dflt, unsigned *out,
                   dcsim_error *err) {
  const char *v = dcsim_arg(a, name);
  if (!v) {
    *out = dflt;
    return 0;
  }
  if (dcsim_parse_uint(v, 1, 10000000, out) != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, name),
                     "--%s '%s': expected a whole number from 1 to 10000000", name, v);
  return 0;
}

int dcsim_arg_sets(const dcsim_args *a, dcsim_binding *b, char (*names)[64], size_t max, size_t *n,
                   dcsim_error *err) {
  *n = 0;
  int k = -1;
  for (size_t i = 0; i < a->n_specs; i++)
    if (strcmp(a->specs[i].name, "set") == 0) k = (int)i;
  for (int i = 0; k >= 0 && i < a->count[k]; i++) {
    const char *s = a->values[k][i];
    const char *eq = strchr(s, '=');
    double v;
    if (!eq || eq == s || (size_t)(eq - s) >= 64 || dcsim_parse_double(eq + 1, &v) != 0)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", a->argi[k][i],
                       "--set '%s': expected NAME=NUMBER", s);
    if (*n == max)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", a->argi[k][i], "more than %zu --set",
                       max);
    memcpy(names[*n], s, (size_t)(eq - s));
    names[*n][eq - s] = '\0';
    b[*n] = (dcsim_binding){ names[*n], v, "command line", a->argi[k][i] };
    (*n)++;
  }
  return 0;
}

int dcsim_arg_out_format(const dcsim_args *a, const dcsim_format *allowed, dcsim_format *fmt,
                         dcsim_error *err) {
  const char *out = dcsim_arg(a, "out");
  *fmt = dcsim_format_of_path(out, allowed, DCSIM_FMT_TEXT);
  int rc = dcsim_arg_format(a, allowed, fmt, err);
  if (rc) return rc;
  if (dcsim_format_is_picture(*fmt) && !out)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "format"),
                     "--format %s needs --out FILE", dcsim_format_name(*fmt));
  return out ? dcsim_path_check_writable(out, "--out", err) : 0;
}

int dcsim_arg_format(const dcsim_args *a, const dcsim_format *allowed, dcsim_format *out,
                     dcsim_error *err) {
  const char *v = dcsim_arg(a, "format");
  if (!v) return 0;
  const char *names[DCSIM_FMT_END + 1];
  size_t n = 0;
  for (; allowed[n] != DCSIM_FMT_END && n < DCSIM_FMT_END; n++) {
    names[n] = dcsim_format_name(allowed[n]);
    if (strcmp(names[n], v) == 0) {
      *out = allowed[n];
      return 0;
    }
  }
  names[n] = NULL;
  char valid[160] = "";
  size_t len = 0;
  for (size_t i = 0; i < n; i++) /* "text, json or csv" */
    len += (size_t)snprintf(valid + len, len < sizeof valid ? sizeof valid - len : 0, "%s%s",
                            i == 0       ? ""
                            : i + 1 == n ? " or "
                                         : ", ",
                            names[i]);
  const char *best = dcsim_suggest(v, names, n);
  return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "format"),
                   "--format '%s': unknown format%s%s%s; expected %s", v,
                   best ? " (did you mean " : "", best ? best : "", best ? "?)" : "", valid);
}

static int parse_args(const dcsim_command *c, int argc, char **argv, int first, dcsim_args *a,
                      int *want_help, dcsim_error *err) {
  memset(a, 0, sizeof *a);
  a->specs = c->opts;
  a->n_specs = c->n_opts;
  for (int i = first; i < argc; i++) {
    const char *s = argv[i];
    if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
      *want_help = 1;
      return 0;
    }
    char shortbuf[64];
    if (s[0] == '-' && s[1] && s[1] != '-') { /* a one-letter alias: -o PATH = --output PATH */
      const char *lng = short_alias(c, s[1]);
      if (!lng)
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i,
                         "unknown option '%s' for 'dcsim %s' (see dcsim %s --help)", s, c->name,
                         c->name);
      snprintf(shortbuf, sizeof shortbuf, "--%s%s%s", lng, s[2] ? "=" : "", s + 2);
      s = shortbuf;
    }
    if (strncmp(s, "--", 2) == 0 && s[2]) {
      char name[64];
      const char *eq = strchr(s + 2, '=');
      size_t nl = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
      if (nl >= sizeof name)
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i, "unknown option '%s'", s);
      memcpy(name, s + 2, nl);
      name[nl] = '\0';
      int k = spec_index(a, name);
      if (k < 0) {
        char hint[96];
        suggest_option(c, name, hint, sizeof hint);
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i,
                         "unknown option '--%s' for 'dcsim %s'%s (see dcsim %s --help)", name,
                         c->name, hint, c->name);
      }
      const char *val = NULL;
      int vi = i;
      if (c->opts[k].arg) {
        if (eq)
          val = eq + 1;
        else if (i + 1 < argc)
          val = argv[vi = ++i];
        else
          return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i, "option '--%s' needs a value (%s)",
                           name, c->opts[k].arg);
      } else if (eq) {
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i, "option '--%s' takes no value",
                         name);
      } else {
        val = "1";
      }
      if (a->count[k] > 0 && !c->opts[k].repeatable)
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i, "option '--%s' given twice", name);
      if (a->count[k] >= DCSIM_MAX_REPEAT)
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i,
                         "option '--%s' given too often (at most %d times)", name,
                         DCSIM_MAX_REPEAT);
      a->values[k][a->count[k]] = val;
      a->argi[k][a->count[k]] = vi;
      a->count[k]++;
    } else {
      if (a->n_positional >= DCSIM_MAX_POSITIONAL)
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", i, "too many arguments");
      a->positional_argi[a->n_positional] = i;
      a->positional[a->n_positional++] = s;
    }
  }
  if (a->n_positional < c->min_positional)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", argc, "'dcsim %s' needs %s", c->name,
                     c->usage);
  if (a->n_positional > c->max_positional)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", argc,
                     "'dcsim %s' takes at most %d argument(s)", c->name, c->max_positional);
  return 0;
}

/* The signal flag: the process's one piece of mutable global state, owned here (doc/design.md).
 * Only the handler writes it; the engine and the sweep poll it through a pointer. */
static volatile sig_atomic_t interrupt_signal;

static void on_interrupt(int sig) { interrupt_signal = sig; }

const volatile sig_atomic_t *dcsim_cli_catch_interrupts(void) {
  static int installed;
  if (!installed) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_RESETHAND; /* a second signal takes the default action */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    installed = 1;
  }
  return &interrupt_signal;
}

const char *dcsim_cli_interrupted_by(void) {
  return interrupt_signal == SIGINT    ? "SIGINT"
         : interrupt_signal == SIGTERM ? "SIGTERM"
         : interrupt_signal            ? "a signal"
                                       : NULL;
}

int dcsim_cli_loading_init(dcsim_cli_loading *l, dcsim_error *err) {
  static const char hook[] = "DCSIM_TEST_SIGTERM_AT_STEP";
  static const char *const stages[] = { "planning", "simulation", "output" };
  const char *v = getenv(hook);
  memset(l, 0, sizeof *l);
  int stage = 0;
  for (int k = 0; v && k < 3; k++)
    if (strcmp(v, stages[k]) == 0) stage = DCSIM_CLI_STAGE_PLANNING + k;
  atomic_init(&l->raise_stage, stage);
  if (v && !stage && dcsim_parse_uint(v, 1, 1000000, &l->raise_at))
    return DCSIM_ERR(err, DCSIM_EUSAGE, hook, 0,
                     "'%s': expected a step of loading from 1 to 1000000, planning, simulation or "
                     "output (a test hook, doc/robustness.md)",
                     v);
  l->flag = dcsim_cli_catch_interrupts();
  return 0;
}

void dcsim_cli_stage(dcsim_cli_loading *l, int stage) {
  int expected = stage; /* once, whichever thread comes first: a second SIGTERM would kill dcsim
                         * (SA_RESETHAND) */
  if (l && atomic_load(&l->raise_stage) == stage &&
      atomic_compare_exchange_strong(&l->raise_stage, &expected, 0))
    raise(SIGTERM); /* the handler sets the flag before raise returns */
}

int dcsim_cli_planning_stop(void *loading) {
  dcsim_cli_loading *l = loading;
  dcsim_cli_stage(l, DCSIM_CLI_STAGE_PLANNING);
  return *l->flag != 0;
}

int dcsim_cli_loading_stop(void *loading) {
  dcsim_cli_loading *l = loading;
  if (++l->steps == l->raise_at) raise(SIGTERM); /* the test hook: the handler sets the flag */
  return *l->flag != 0;
}

/* Exit codes (doc/cli.md): 0 success, 1 bad input data, 2 bad command-line use, 3 I/O, database
 * or internal failure, 4 results written but the run missed its --deadline-s, 128 + N stopped by
 * signal N (130 SIGINT, 143 SIGTERM). */
int dcsim_cli_exit_code(int status) {
  if (status > 0) return status; /* chosen and reported by the command */
  switch (status) {
    case 0: return 0;
    case DCSIM_EINTR: return 128 + (interrupt_signal ? (int)interrupt_signal : SIGINT);
    case DCSIM_EUSAGE: return 2;
    case DCSIM_EPARSE:
    case DCSIM_ESCHEMA:
    case DCSIM_EREF:
    case DCSIM_ERANGE: return 1;
    default: return 3;
  }
}

/* dcsim help [COMMAND | --man] */
static int help_command(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "help") == 0) {
    if (strcmp(argv[2], "--man") == 0) {
      dcsim_cli_man(stdout);
      return fflush(stdout) == 0 ? 0 : 3;
    }
    for (size_t i = 0; i < N_OF(commands); i++)
      if (strcmp(commands[i].name, argv[2]) == 0) {
        usage_cmd(stdout, &commands[i]);
        return 0;
      }
    char hint[64];
    suggest_command(argv[2], hint, sizeof hint);
    fprintf(stderr, "dcsim: command line:2: unknown command '%s'%s\n", argv[2], hint);
    return 2;
  }
  usage_all(stdout);
  return 0;
}

int dcsim_cli_main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) {
    fprintf(stderr, "dcsim: cannot initialise SQLite\n");
    return 1;
  }
  dcsim_error err;
  memset(&err, 0, sizeof err);
  int status = 0;
  if (argc < 2) {
    usage_all(stderr);
    return 2;
  }
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0)
    return help_command(argc, argv);
  if (strcmp(name, "version") == 0 || strcmp(name, "--version") == 0) {
    printf("dcsim %s, commit %s\n", dcsim_version(), dcsim_commit());
    return 0;
  }
  if (strcmp(name, "completion") == 0) {
    if (argc == 3 && strcmp(argv[2], "bash") == 0) {
      dcsim_cli_completion_bash(stdout);
      return fflush(stdout) == 0 ? 0 : 3;
    }
    fprintf(stderr, "dcsim: command line:2: 'dcsim completion' takes the shell: bash\n");
    return 2;
  }
  const dcsim_command *c = NULL;
  for (size_t i = 0; i < N_OF(commands); i++)
    if (strcmp(commands[i].name, name) == 0) c = &commands[i];
  if (!c) {
    char hint[64];
    suggest_command(name, hint, sizeof hint);
    fprintf(stderr, "dcsim: command line:1: unknown command '%s'%s (see dcsim help)\n", name, hint);
    return 2;
  }
  dcsim_args *args = calloc(1, sizeof *args);
  if (!args) {
    fprintf(stderr, "dcsim: out of memory\n");
    return 3;
  }
  int help = 0;
  status = parse_args(c, argc, argv, 2, args, &help, &err);
  if (!status && help) {
    usage_cmd(stdout, c);
    free(args);
    return 0;
  }
  if (!status) status = c->run(args, &err);
  if (status < 0) dcsim_cli_locate_param(args, &err);
  free(args);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    if (status >= 0)
      status = DCSIM_ERR(&err, DCSIM_EIO, "stdout", 0, "write error: %s", strerror(errno));
  }
  if (status < 0) {
    char buf[2048];
    dcsim_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "dcsim: %s\n", buf);
  }
  return dcsim_cli_exit_code(status);
}
