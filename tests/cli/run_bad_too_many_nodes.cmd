dcsim run tests/data/run/bad-too-many-nodes.xml --db $TMPDIR/r.db; echo "exit $?"; test -e $TMPDIR/r.db && echo "database written" || echo "no database written"
