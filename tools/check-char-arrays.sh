#!/usr/bin/env bash
# tools/check-char-arrays.sh [--list] [ROOT] — counts the fixed char arrays of src/
# and fails when there are more than the ceiling below, so the number cannot grow back.
#
# Counted: every declarator of a char array of fixed size in a declaration, a struct field or a
# parameter — `char buf[64]`, each of `char a[8], b[16]`, `char names[16][64]` (once),
# `char (*names)[64]` and `char names[][64]` (arrays of fixed-width names). Not counted: arrays
# of pointers (`char *v[4]`), `const char` arrays (literals, which hold no input), `unsigned char`
# byte buffers (digests), and comments. --list prints each one as FILE:LINE: NAME.
#
# Lower the ceiling when you remove arrays; hold names and paths as allocated strings (dcsim_str,
# dcsim_path_in; dcsim/strutil.h), not in fixed buffers that cut them.
set -euo pipefail
ceiling=101
list=0
if [ "${1:-}" = --list ]; then list=1; shift; fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
mapfile -t files < <(find src -name '*.[ch]' | LC_ALL=C sort)
out=$(perl -ne '
  if (eof) { close ARGV; }
  next if m{^\s*(\*|//|/\*)};
  my $l = $_;
  $l =~ s{/\*.*?\*/}{}g; $l =~ s{//.*}{}; $l =~ s{"(?:\\.|[^"\\])*"}{""}g;
  while ($l =~ m#(?<![\w*])(const\s+|unsigned\s+|signed\s+)?char\s+([^;{=)]*(?:\)\s*\[[^\]]*\][^;{=)]*)?)#g) {
    next if defined $1 && $1 !~ /signed\s+$/ && $1 =~ /const/;
    next if defined $1 && $1 =~ /unsigned/;
    my $decl = $2;
    # each declarator: NAME[...] or (*NAME)[...], not *NAME[...] (pointers)
    while ($decl =~ m{(?:^|,)\s*(?:\(\s*\*\s*(\w+)\s*\)|(\w+))\s*\[}g) {
      my $name = defined $1 ? $1 : $2;
      print "$ARGV:$.: $name\n";
    }
  }
' "${files[@]}")
n=$(printf '%s' "$out" | grep -c . || true)
if [ "$list" = 1 ]; then printf '%s\n' "$out"; fi
echo "char-arrays: $n fixed char arrays in src (ceiling $ceiling)"
if [ "$n" -gt "$ceiling" ]; then
  echo "char-arrays: more than $ceiling: hold the new text in a dcsim_str or an allocated string" >&2
  exit 1
fi
