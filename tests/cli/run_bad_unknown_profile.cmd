DCSIM_DATA=. dcsim run tests/data/run/bad-unknown-profile.xml --db $TMPDIR/r.db; echo "exit $?"; test -e $TMPDIR/r.db && echo "database written" || echo "no database written"
