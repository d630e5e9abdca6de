# Issue 35 item 5: a calibration cell outside what a CPU can do is refused naming its CSV line, and
# nothing is written: a DRAM cell of 1e-300 GB/s (below a thousandth of the datasheet's memory peak;
# it used to be fitted, rms inf %), an L1 cell in MB/s under a GB/s unit without any datasheet (33454
# byte per cycle of one core), a power cell of 1e300 W.
dcsim calibrate cpu tests/data/calibration/implausible-low-dram -o $TMPDIR/p.xml; echo "exit $?"; dcsim calibrate cpu tests/data/calibration/implausible-per-cycle -o $TMPDIR/p.xml; echo "exit $?"; dcsim calibrate cpu tests/data/calibration/implausible-power -o $TMPDIR/p.xml; echo "exit $?"; ls $TMPDIR
# The same rule when likwid-bench output is imported: a run of 0.000001 MByte/s is refused at its line.
L=tests/data/calibration/likwid; mkdir -p $TMPDIR/lk && cp $L/machine.xml $TMPDIR/lk/ && sed '25s/125990.00/0.000001/' $L/load_avx-L1.txt > $TMPDIR/l1.txt && dcsim calibrate import-likwid $TMPDIR/l1.txt -o $TMPDIR/lk 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"; ls $TMPDIR/lk
# And when a Kerncraft machine file is imported: a bandwidth in kB/s, 16000 DP flop per cycle.
K=tests/data/calibration/kerncraft; sed 's/load: \[125.99 GB\/s,/load: [125.99 kB\/s,/' $K/HaswellEP_E5-2697v3.yml > $TMPDIR/k1.yml && dcsim calibrate import-kerncraft $TMPDIR/k1.yml -o $TMPDIR/kc1 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
K=tests/data/calibration/kerncraft; sed 's/DP: {total: 16,/DP: {total: 16000,/' $K/HaswellEP_E5-2697v3.yml > $TMPDIR/k2.yml && dcsim calibrate import-kerncraft $TMPDIR/k2.yml -o $TMPDIR/kc2 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"; ls $TMPDIR/kc1 $TMPDIR/kc2 2>&1 | sed "s|$TMPDIR|TMP|"
