# a results database of dcsim run holds no sweep
dcsim run workflows/alaro.xml --db $TMPDIR/run.db > /dev/null && (dcsim merge $TMPDIR/run.db -o $TMPDIR/all.db; echo "exit $?") 2>&1 | sed "s#$TMPDIR#TMP#g"
