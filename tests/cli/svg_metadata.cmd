# Issue 26, item 10: an SVG carries what made it in its <title> (version and commit) and <desc>
# (the caption: version, commit, sweep and input hashes) in place of gnuplot's. Needs gnuplot.
dcsim sweep workflows/bifft.xml --nodes 1,2 --quiet --format csv > $TMPDIR/s.csv && dcsim pareto $TMPDIR/s.csv --out $TMPDIR/f.svg && grep -o '<title>[^<]*</title>' $TMPDIR/f.svg | head -1 && grep -o '<desc>[^<]*</desc>' $TMPDIR/f.svg | head -1 | sed 's/s.csv [0-9a-f]\{12\}/s.csv HASH/; s/([0-9a-f]\{12\}\(-dirty\)\?)/(COMMIT)/'
