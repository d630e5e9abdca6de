# Issue 35 item 5: bench --from refuses a recorded number no measurement gives, naming the line, instead
# of printing "inf -nan%": a replay of 1e308 s in check.csv, a flops cell of 1e-300 GFLOP/s, a
# dispersion of 1e308 (the recorded directory copied, one number changed each time).
R=$TMPDIR/r; cp -r tests/data/bench/recorded $R && sed -i 's/,0.75081,/,1e308,/' $R/check.csv && DCSIM_DATA=. dcsim bench --from $R --check workflows/alaro.xml 2>&1 >/dev/null | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
R=$TMPDIR/s; cp -r tests/data/bench/recorded $R && sed -i '6s/,79.3401,/,1e-300,/' $R/flops.csv && DCSIM_DATA=. dcsim bench --from $R --compare xeon-platinum-8480+ 2>&1 >/dev/null | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
R=$TMPDIR/t; cp -r tests/data/bench/recorded $R && sed -i '6s/,0.0017,/,1e308,/' $R/flops.csv && DCSIM_DATA=. dcsim bench --from $R --compare xeon-platinum-8480+ 2>&1 >/dev/null | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
