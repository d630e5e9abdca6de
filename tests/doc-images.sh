#!/usr/bin/env bash
# doc-images.sh BUILD_DIR — the pictures of doc/img are drawn by dcsim: tools/gen-doc-images.sh
# draws each of them again into a temporary directory; every one must come out as a PNG picture,
# doc/img must hold exactly those pictures, and each must be shown by a page of doc/ or README.md;
# each carries dcsim's version, commit and input hashes in its PNG text chunks, and each
# picture of doc/img has its provenance beside it (NAME.png.json): valid JSON naming
# the picture, the dcsim (version and 40-hex commit) that drew it, a dcsim command that writes it,
# and inputs that exist with the SHA-256 they have now (else the picture is stale: run
# tools/gen-doc-images.sh).
# Skipped (77) without gnuplot.
set -u
build=$1
command -v gnuplot >/dev/null || [ -x /usr/bin/gnuplot ] || { echo "no gnuplot: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash tools/gen-doc-images.sh "$build" "$tmp/img" || { echo "tools/gen-doc-images.sh failed"; exit 1; }
fails=0
for f in "$tmp"/img/*.png; do
  name=$(basename "$f")
  if [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ] || [ "$(stat -c %s "$f")" -lt 10000 ]; then
    echo "$name: not a PNG picture"; fails=$((fails + 1))
  fi
  grep -aq 'tEXtSoftware.dcsim ' "$f" && grep -aq 'tEXtComment.dcsim ' "$f" ||
    { echo "$name: no dcsim provenance in its PNG text chunks"; fails=$((fails + 1)); }
  [ -f "doc/img/$name" ] || { echo "$name: drawn but not in doc/img (run tools/gen-doc-images.sh)"; fails=$((fails + 1)); }
  grep -q "img/$name" README.md doc/*.md || { echo "$name: shown by no page of doc/ or README.md"; fails=$((fails + 1)); }
done
for f in doc/img/*.png; do
  [ -f "$tmp/img/$(basename "$f")" ] || { echo "$f: not drawn by tools/gen-doc-images.sh"; fails=$((fails + 1)); }
  name=$(basename "$f") m=$f.json
  [ -f "$m" ] || { echo "$m: missing (the picture's provenance)"; fails=$((fails + 1)); continue; }
  [ -f "$tmp/img/$name.json" ] || { echo "$name: tools/gen-doc-images.sh writes no provenance"; fails=$((fails + 1)); }
  if command -v jq >/dev/null; then
    jq -e . "$m" >/dev/null 2>&1 || { echo "$m: not JSON"; fails=$((fails + 1)); }
  fi
  grep -q "^  \"picture\": \"$name\",$" "$m" || { echo "$m: does not name $name"; fails=$((fails + 1)); }
  grep -Eq '^  "dcsim": "dcsim [^"]*, commit [0-9a-f]{40}(-dirty)?",$' "$m" ||
    { echo "$m: no dcsim version and commit"; fails=$((fails + 1)); }
  grep -Eq "^  \"command\": \"dcsim .*doc/img/${name%%-*}" "$m" ||
    { echo "$m: no dcsim command writing doc/img"; fails=$((fails + 1)); }
  n_in=0
  while read -r path hash; do
    n_in=$((n_in + 1))
    if [ ! -f "$path" ]; then echo "$m: input $path does not exist"; fails=$((fails + 1))
    elif [ "$(sha256sum "$path" | cut -d' ' -f1)" != "$hash" ]; then
      echo "$m: $path has changed since the picture was drawn: run tools/gen-doc-images.sh"; fails=$((fails + 1))
    fi
  done < <(sed -n 's/^    {"path": "\(.*\)", "sha256": "\([0-9a-f]\{64\}\)"},\{0,1\}$/\1 \2/p' "$m")
  [ "$n_in" -gt 0 ] || { echo "$m: names no input"; fails=$((fails + 1)); }
done
[ "$fails" = 0 ] && echo "doc images: $(ls "$tmp"/img/*.png | wc -l) pictures drawn, all in doc/img and shown, each with its provenance"
exit "$fails"
