# Issue 26, --objectives time,cost: the Xeon Gold 6148 has no list price in its profile, so its
# points have no cost and are on no front (and the text says which price is missing); --price gives
# one (2385.5 USD here is a test value, not a price). The CSV round trip keeps cost and note.
dcsim sweep workflows/bifft.xml --cpu epyc-7763,xeon-gold-6148 --nodes 1,8 --objectives time,cost --quiet | grep -v sha256
dcsim sweep workflows/bifft.xml --cpu epyc-7763,xeon-gold-6148 --nodes 1,8 --objectives time,cost --price xeon-gold-6148=2385.5 --quiet | grep -v sha256
dcsim sweep workflows/bifft.xml --cpu epyc-7763,xeon-gold-6148 --nodes 1,8 --quiet --format csv > $TMPDIR/s.csv && dcsim pareto $TMPDIR/s.csv --objectives energy,cost --format csv | grep -v '^#'
dcsim sweep workflows/bifft.xml --cpu epyc-7763,xeon-gold-6148 --nodes 1,8 --cores 8,64 --objectives time,energy,cost --price xeon-gold-6148=2385.5 --quiet --format csv | grep -v '^#' | cut -d, -f1-5,9,10,16
