#!/usr/bin/env bash
# ctest realcode_fit_fixture: `realcode fit` gives back the coefficients the synthetic fixture was
# made with (tests/data/realcode/README.md).
# usage: tests/realcode-fixture.sh REALCODE_BINARY   (run from the source root)
set -euo pipefail
bin=$1
fail=0
check() { # dwarf loop known tolerance
  local got
  got=$("$bin" fit "$1" tests/data/realcode/machines.csv | awk -v l="$2" '$2 == l {split($3, a, "="); print a[2]}')
  if awk -v g="$got" -v k="$3" -v t="$4" 'BEGIN {exit !(g != "" && (g / k - 1 < t) && (k / g - 1 < t))}'; then
    echo "ok $1 $2: $got (known $3)"
  else
    echo "FAIL $1 $2: fit gives '$got', the fixture was made with $3 (tolerance $4)"
    fail=1
  fi
}
check ectrans-global fft 0.113 1e-4
check ectrans-global legendre 0.347 1e-4
check ectrans-global memory 0.452 1e-4
check ectrans-lam transform 0.318 1e-4
check cloudsc columns 0.0413 1e-4
check cloudsc blocks 0.00217 1e-2
exit $fail
