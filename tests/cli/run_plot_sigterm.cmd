# issue 35: SIGTERM while gnuplot draws is answered at once (exit 143, gnuplot killed and reaped,
# no picture, the temporary directory removed); when dcsim itself is killed, gnuplot dies with it
# (PR_SET_PDEATHSIG; a dead gnuplot may stay a zombie until init reaps it). The count at the end:
# the SIGKILLed dcsim's temporary directory, which nothing can remove; the SIGTERMed one is gone
printf '#!/bin/sh\necho $$ > "$GP_PID"\nexec sleep 60\n' > $TMPDIR/gp && chmod +x $TMPDIR/gp; mkdir $TMPDIR/t
for sig in TERM KILL; do export GP_PID=$TMPDIR/gp-$sig.pid; DCSIM_GNUPLOT=$TMPDIR/gp TMPDIR=$TMPDIR/t dcsim run workflows/alaro.xml --gantt $TMPDIR/g.png > /dev/null 2> $TMPDIR/err & p=$!; for i in $(seq 200); do [ -s $GP_PID ] && break; sleep 0.1; done; s=$(date +%s%N); kill -$sig $p; wait $p 2>/dev/null; echo "SIG$sig: exit $?"; e=$(date +%s%N); [ $(( (e - s) / 1000000 )) -lt 1000 ] && echo "answered within a second"; sed "s|$TMPDIR|TMP|" $TMPDIR/err; sleep 0.5; st=$(ps -o stat= -p $(cat $GP_PID)); case "$st" in ""|Z*) echo "no gnuplot left";; *) echo "gnuplot still running";; esac; ls $TMPDIR/g.png 2>&1 | sed "s|$TMPDIR|TMP|"; done; ls $TMPDIR/t | grep -c dcsim-plot
