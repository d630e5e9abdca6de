/* dcsim/cli.h — the command-line front end: a table of subcommands (git's commands[]) and the
 * option parser they share. main.c only calls dcsim_cli_main(); every subcommand writes results
 * to stdout and returns 0 or a negative DCSIM_E* status with *err filled. */
#ifndef DCSIM_CLI_H
#define DCSIM_CLI_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include "dcsim/budget.h"
#include "dcsim/dwarf.h"
#include "dcsim/engine.h"
#include "dcsim/error.h"
#include "dcsim/format.h"
#include "dcsim/hwprofile.h"

typedef struct dcsim_opt_spec {
  const char *name; /* long name without "--" */
  const char *arg;  /* argument placeholder, NULL for a flag */
  int repeatable;
  const char *help;
} dcsim_opt_spec;

#define DCSIM_MAX_POSITIONAL 4096 /* dcsim merge takes the databases of every shard */
#define DCSIM_MAX_OPTS       32 /* options of one command (checked at build time: cli.c's OPTS_FIT) */
#define DCSIM_MAX_REPEAT     16 /* values of one repeatable option (more: a usage error) */

typedef struct dcsim_args {
  const dcsim_opt_spec *specs;
  size_t n_specs;
  const char *values[DCSIM_MAX_OPTS][DCSIM_MAX_REPEAT]; /* values per spec */
  int argi[DCSIM_MAX_OPTS][DCSIM_MAX_REPEAT]; /* argv index of each value, for error locations */
  int count[DCSIM_MAX_OPTS];
  const char *positional[DCSIM_MAX_POSITIONAL];
  int positional_argi[DCSIM_MAX_POSITIONAL]; /* argv index of each, for error locations */
  int n_positional;
} dcsim_args;

typedef struct dcsim_command {
  const char *name;
  int (*run)(const dcsim_args *a, dcsim_error *err);
  const char *summary;
  const char *usage; /* positional part of the synopsis */
  const dcsim_opt_spec *opts;
  size_t n_opts;
  int min_positional, max_positional;
} dcsim_command;

int dcsim_cli_main(int argc, char **argv);

/* The command table (help, the manual page and the completion script are made from it). */
const dcsim_command *dcsim_cli_commands(size_t *n);
/* The one-letter alias of a long option ('o' for "output"), 0 when it has none. */
char dcsim_cli_short_alias(const char *long_name);
/* dcsim help --man: the manual page (troff, man(7)), doc/dcsim.1 is its output (cli_help.c). */
void dcsim_cli_man(FILE *f);
/* dcsim completion bash: the bash completion script, tools/dcsim.bash its output (cli_help.c). */
void dcsim_cli_completion_bash(FILE *f);

/* A command returns 0, a negative DCSIM_E* status with *err filled (dcsim prints it), or a
 * positive exit status it has already reported itself: DCSIM_CLI_DEADLINE_MISSED (the run wrote
 * its results but missed its --deadline-s), or dcsim_cli_exit_code() of the first failure when a
 * command reports several errors (dcsim validate). doc/cli.md lists the statuses. */
#define DCSIM_CLI_DEADLINE_MISSED 4
int dcsim_cli_exit_code(int status);

/* helpers for subcommands */
const char *dcsim_arg(const dcsim_args *a, const char *name); /* last value or NULL */
int dcsim_arg_index(const dcsim_args *a,
                    const char *name); /* argv index of last value, 0 if none */
int dcsim_arg_flag(const dcsim_args *a, const char *name);
int dcsim_arg_uint(const dcsim_args *a, const char *name, unsigned dflt, unsigned *out,
                   dcsim_error *err);
int dcsim_arg_double(const dcsim_args *a, const char *name, double dflt, double *out,
                     dcsim_error *err);
/* --NAME with a unit a person types (doc/cli.md "Units"): a bare number is in the
 * option's own unit `unit` (as util/units.h spells it: "B/s", "s", "y", "USD/kWh"); a number with a
 * unit of the same kind ("100Gb/s", "48h", "5y", "150USD/MWh") is converted to it, and the value
 * as understood is noted on stderr. Finite and >= 0, else an error naming the option. unit NULL:
 * a plain number only (dcsim_arg_double). */
int dcsim_arg_quantity(const dcsim_args *a, const char *name, const char *unit, double dflt,
                       double *out, dcsim_error *err);
/* --cores N or `all` (the CPU's full node: cores per socket x sockets), default 1: one rule for
 * model, energy and roofline. */
int dcsim_arg_cores(const dcsim_args *a, const dcsim_cpu_profile_t *cpu, unsigned *threads,
                    dcsim_error *err);
/* --format among allowed (a list ended by DCSIM_FMT_END, in the order the error lists them);
 * *out untouched when the option is absent. A name not allowed is DCSIM_EUSAGE, "did you mean". */
int dcsim_arg_format(const dcsim_args *a, const dcsim_format *allowed, dcsim_format *out,
                     dcsim_error *err);
/* --format and --out of a command that may draw: the format is --format's, else the one --out's
 * extension names, else text; a picture (PNG, SVG) needs --out, which must be writable. */
int dcsim_arg_out_format(const dcsim_args *a, const dcsim_format *allowed, dcsim_format *out,
                         dcsim_error *err);
/* --set NAME=NUMBER (repeatable) as bindings of dwarf parameters: names[i] holds the name (NAME at
 * most 63 bytes), the location is "command line" at the argument's index; at most max. */
int dcsim_arg_sets(const dcsim_args *a, dcsim_binding *b, char (*names)[64], size_t max, size_t *n,
                   dcsim_error *err);
/* DCSIM_MODEL_D35 / DCSIM_MODEL_STRICT (dcsim/model.h) from --d35 and --strict. */
unsigned dcsim_arg_model_flags(const dcsim_args *a);
/* --threading measured|ideal: ors DCSIM_MODEL_HW_THREADS into *flags for ideal; a usage error
 * for any other value. */
int dcsim_arg_threading(const dcsim_args *a, unsigned *flags, dcsim_error *err);
/* "measured" -> 0, "ideal" -> DCSIM_MODEL_HW_THREADS; -1 for another name. */
int dcsim_threading_parse(const char *name, unsigned *flags);
/* The variant's name of model flags: "ideal" with DCSIM_MODEL_HW_THREADS, else "measured". */
const char *dcsim_threading_name(unsigned model_flags);
/* --price NAME=USD (repeatable, at most 16), --kwh-price, --lifetime-years into o (dcsim/cost.h);
 * prices and names are the caller's buffers of 16 entries. */
struct dcsim_cost_opts;
struct dcsim_price_set;
int dcsim_arg_cost(const dcsim_args *a, struct dcsim_cost_opts *o, struct dcsim_price_set *prices,
                   char names[][64], dcsim_error *err);
/* An error about a parameter (err->param, set by the library: "kwh_usd", "cpu_profiles") located
 * on the command line: "command line:N: --OPTION: msg", N the argv index of the option (of its
 * index-th value where the option is repeated value by value). The one table from parameter to
 * option is in cli.c; a parameter it lacks keeps its name. Other errors are left as they are. */
void dcsim_cli_locate_param(const dcsim_args *a, dcsim_error *err);

/* SIGINT/SIGTERM: installs (once) a handler that stores the signal number in a flag and returns
 * the flag, for the command to hand to dcsim_engine_set_interrupt()/dcsim_sweep_set_interrupt().
 * The flag is the process's one piece of mutable global state and belongs to the CLI
 * (doc/design.md); a second signal kills the process (the databases survive that:
 * doc/robustness.md). A command stopped this way returns DCSIM_EINTR; dcsim exits with 128 + the
 * signal number (doc/cli.md). */
const volatile sig_atomic_t *dcsim_cli_catch_interrupts(void);
/* The name of the signal caught ("SIGINT"), or NULL when none was. */
const char *dcsim_cli_interrupted_by(void);
/* A command's stages that SIGINT/SIGTERM stop: loading between its steps
 * (dcsim_scenario_opts.stop_loading with dcsim_cli_loading_stop and the struct as its context),
 * planning before each task (stop_planning with dcsim_cli_planning_stop), simulation (the
 * engine's interrupt flag) and output (the command checks the flag before each output). _init
 * installs the handler and reads the test hook DCSIM_TEST_SIGTERM_AT_STEP (doc/robustness.md):
 * N, at the N-th step of loading, or `planning`, `simulation`, `output`, on entering that stage
 * (dcsim_cli_stage), dcsim raises SIGTERM at itself once, so that a test stops a command at a
 * defined point without timing. Another value is refused (DCSIM_EUSAGE). */
enum { DCSIM_CLI_STAGE_PLANNING = 1, DCSIM_CLI_STAGE_SIMULATION, DCSIM_CLI_STAGE_OUTPUT };
typedef struct dcsim_cli_loading {
  const volatile sig_atomic_t *flag; /* dcsim_cli_catch_interrupts() */
  unsigned raise_at;                 /* the hook's step, 0 = none */
  _Atomic int raise_stage;           /* the hook's stage (DCSIM_CLI_STAGE_*), 0 = none */
  unsigned steps;                    /* steps asked so far */
} dcsim_cli_loading;
int dcsim_cli_loading_init(dcsim_cli_loading *l, dcsim_error *err);
int dcsim_cli_loading_stop(void *loading);
/* The test hook on entering a stage: SIGTERM raised when it is the hook's (the first time only,
 * whichever thread asks). */
void dcsim_cli_stage(dcsim_cli_loading *l, int stage);
/* stop_planning's answer (thread-safe): the hook's planning stage, then the flag. */
int dcsim_cli_planning_stop(void *loading);

/* subcommands (cli_*.c) */
/* The resource budget of run, sweep and validate (dcsim/budget.h) from --max-tasks N (default
 * DCSIM_BUDGET_DEFAULT_WORK) and --max-memory SIZE (bytes or a number and K, M, G, T; default half
 * of this machine's memory). */
int dcsim_cli_budget(const dcsim_args *a, dcsim_budget *b, dcsim_error *err);
/* 0 when a run of size sz fits b, else the refusal naming input, both figures, the limit and the
 * option that raises it. */
int dcsim_cli_check_size(const dcsim_budget *b, const dcsim_run_size *sz, const char *input,
                         dcsim_error *err);

int dcsim_cmd_model(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_energy(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_list(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_validate(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_run(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_calibrate(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_bench(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_sweep(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_pareto(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_heatmap(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_roofline(const dcsim_args *a, dcsim_error *err);
int dcsim_cmd_merge(const dcsim_args *a, dcsim_error *err);

#endif
