# a calibration table whose cell is not a number: the error names the file and line
mkdir -p $TMPDIR/m && cp calibration/xeon-gold-6148/* $TMPDIR/m/ && sed -i 's/^2.4,4,494.43/2.4,4,49x/' $TMPDIR/m/L1.csv && dcsim calibrate cpu $TMPDIR/m 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit status ${PIPESTATUS[0]}"
