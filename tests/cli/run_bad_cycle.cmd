dcsim run tests/data/workflow/bad-cycle.xml --db $TMPDIR/r.db; echo "exit $?"; test -e $TMPDIR/r.db && echo "database written" || echo "no database written"
