dcsim merge workflows/alaro.xml -o $TMPDIR/all.db
