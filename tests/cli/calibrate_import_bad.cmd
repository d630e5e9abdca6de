# bad likwid-bench output and Kerncraft files: every error names the file and line
L=tests/data/calibration/likwid K=tests/data/calibration/kerncraft
mkdir -p $TMPDIR/lk && cp $L/machine.xml $TMPDIR/lk/
dcsim calibrate import-likwid $L/bad-no-mbyte.txt -o $TMPDIR/lk 2>&1; echo "exit status $?"
dcsim calibrate import-likwid $L/bad-not-likwid.txt -o $TMPDIR/lk 2>&1; echo "exit status $?"
dcsim calibrate import-likwid $L/load_avx-L1.txt $L/copy_avx-L1.txt -o $TMPDIR/lk 2>&1; echo "exit status $?"
dcsim calibrate import-likwid $L/load_avx-L1.txt -o $TMPDIR/none 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit status ${PIPESTATUS[0]}"
dcsim calibrate import-likwid $L/load_avx-L1.txt 2>&1; echo "exit status $?"
dcsim calibrate import-kerncraft $K/bad-syntax.yml -o $TMPDIR/kc 2>&1; echo "exit status $?"
dcsim calibrate import-kerncraft $K/bad-clock.yml -o $TMPDIR/kc 2>&1; echo "exit status $?"
dcsim calibrate import-kerncraft $K/HaswellEP_E5-2697v3.yml --test triad -o $TMPDIR/kc 2>&1; echo "exit status $?"
dcsim calibrate import-kerncraft $K/HaswellEP_E5-2697v3.yml $K/bad-clock.yml -o $TMPDIR/kc 2>&1; echo "exit status $?"
