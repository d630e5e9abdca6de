#!/usr/bin/env bash
# tools/setup.sh — installs dcsim's Debian build dependencies (when missing) and builds it in build/.
# Idempotent: safe to run before every command. Needs root (or sudo) only when packages are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# clang + libclang-rt-14-dev: the libFuzzer build (tools/fuzz); clang-format: tools/format.sh --check in CI; libsimgrid-dev: tools/bench/vs-simgrid;
# valgrind: instruction counts (doc/performance.md)
pkgs="build-essential cmake pkg-config libxml2-dev libxml2-utils libsqlite3-dev sqlite3 libgsl-dev libglpk-dev libyaml-dev gnuplot-nox zlib1g-dev libjansson-dev
      clang libclang-rt-14-dev clang-format libsimgrid-dev valgrind"
pkgs="$pkgs libopenmpi-dev openmpi-bin" # for the optional MPI build (-DDCSIM_MPI=ON, doc/scaling.md)
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing" >&2
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $missing >/dev/null
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE="${DCSIM_BUILD_TYPE:-RelWithDebInfo}" ${DCSIM_CMAKE_ARGS:-} >/dev/null
cmake --build build -j"$(nproc)"
