/* main.c — the dcsim binary: everything else lives in libdcsim. */
#include "dcsim/cli.h"

int main(int argc, char **argv) { return dcsim_cli_main(argc, argv); }
