# Issue 35 item 5: a calibration cell outside what a CPU can do is refused naming its CSV line, and
# nothing is written: a DRAM cell of 1e-300 GB/s (below a thousandth of the datasheet's memory peak;
# it used to be fitted, rms inf %), an L1 cell in MB/s under a GB/s unit without any datasheet (33454
# byte per cycle of one core), a power cell of 1e300 W.
dcsim calibrate cpu tests/data/calibration/implausible-low-dram -o $TMPDIR/p.xml; echo "exit $?"; dcsim calibrate cpu tests/data/calibration/implausible-per-cycle -o $TMPDIR/p.xml; echo "exit $?"; dcsim calibrate cpu tests/data/calibration/implausible-power -o $TMPDIR/p.xml; echo "exit $?"; ls $TMPDIR
# The same rule when likwid-bench output is imported: a run of 0.000001 MByte/s is refused at its line.
L=tests/data/calibration/likwid; mkdir -p $TMPDIR/lk && cp $L/machine.xml $TMPDIR/lk/ && sed '25s/125990.00/0.000001/' $L/load_avx-L1.txt > $TMPDIR/l1.txt && dcsim calibrate import-likwid $TMPDIR/l1.txt -o $TMPDIR/lk 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"; ls $TMPDIR/lk
