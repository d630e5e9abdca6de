dcsim run workflows/datacentre-day.xml --max-memory 2M --db $TMPDIR/r.db; rc=$?; test ! -e $TMPDIR/r.db && exit $rc
