# Issue 26, item 6: table cells are checked against the datasheet. A flops cell above threads x
# flop-per-cycle x the highest clock of machine.xml (turbo included; 10 % margin), a DRAM cell above
# twice the memory peak of the sockets its threads use, are refused naming the CSV line, and nothing is
# written. The same tables with D3.5 Table 37's cells pass (calibration/xeon-gold-6148).
dcsim calibrate cpu tests/data/calibration/implausible-peak -o $TMPDIR/p.xml; echo "exit $?"; dcsim calibrate cpu tests/data/calibration/implausible-dram -o $TMPDIR/p.xml; echo "exit $?"; ls $TMPDIR
