#!/usr/bin/env bash
# doc-images.sh BUILD_DIR — the pictures of doc/img are drawn by dcsim: tools/gen-doc-images.sh
# draws each of them again into a temporary directory; every one must come out as a PNG picture,
# doc/img must hold exactly those pictures, and each must be shown by a page of doc/ or README.md;
# each carries dcsim's version, commit and input hashes in its PNG text chunks (issue 26).
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
    { echo "$name: no dcsim provenance in its PNG text chunks (issue 26)"; fails=$((fails + 1)); }
  [ -f "doc/img/$name" ] || { echo "$name: drawn but not in doc/img (run tools/gen-doc-images.sh)"; fails=$((fails + 1)); }
  grep -q "img/$name" README.md doc/*.md || { echo "$name: shown by no page of doc/ or README.md"; fails=$((fails + 1)); }
done
for f in doc/img/*.png; do
  [ -f "$tmp/img/$(basename "$f")" ] || { echo "$f: not drawn by tools/gen-doc-images.sh"; fails=$((fails + 1)); }
done
[ "$fails" = 0 ] && echo "doc images: $(ls "$tmp"/img | wc -l) pictures drawn, all in doc/img and shown"
exit "$fails"
