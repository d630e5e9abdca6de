# Issue 26, item 6: `calibrate cpu` loads the profile it made before writing it: a <package> without
# idle-w and awake-w (the manifest's schema lets it through) is refused naming the manifest and
# both missing attributes at once, and nothing is written; a copied directory whose relative reference= broke says which file to fix.
dcsim calibrate cpu tests/data/calibration/package-no-awake -o $TMPDIR/p.xml; echo "exit $?"; ls $TMPDIR
dcsim calibrate cpu tests/data/calibration/bad-reference -o $TMPDIR/p.xml
