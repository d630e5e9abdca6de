DCSIM_DATA=. dcsim run tests/data/run/bad-unknown-dwarf.xml --db $TMPDIR/r.db; echo "exit $?"; test -e $TMPDIR/r.db && echo "database written" || echo "no database written"
