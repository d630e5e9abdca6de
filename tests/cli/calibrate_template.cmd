# Issue 26, item 6: `calibrate cpu --template DIR` writes the skeleton of a calibration directory:
# machine.xml, the five tables, the power table and a README, the files of calibration/template-cpu/
# byte for byte (embedded in the binary, so it works from any directory); an empty DIR is taken too.
dcsim calibrate cpu --template $TMPDIR/new/cal | sed "s|$TMPDIR|TMP|g"; echo "exit ${PIPESTATUS[0]}"; ls $TMPDIR/new/cal; diff -r calibration/template-cpu $TMPDIR/new/cal && echo "same files as calibration/template-cpu"; mkdir $TMPDIR/empty && dcsim calibrate cpu --template $TMPDIR/empty --quiet; echo "exit $?"; ls $TMPDIR/empty | wc -l; grep -c FILL $TMPDIR/empty/machine.xml
