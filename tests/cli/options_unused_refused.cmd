# issue 35: an option a command accepts but would not use here is refused, not silently ignored
dcsim sweep workflows/alaro.xml --nodes 1,2 --quiet --title T --format csv; echo "exit $?"
dcsim sweep workflows/alaro.xml --nodes 1,2 --quiet --format csv > $TMPDIR/s.csv && dcsim pareto $TMPDIR/s.csv --title T; echo "exit $?"
dcsim roofline --cpu xeon-e5-2697v3 --kind classic --format json; echo "exit $?"
dcsim bench --from tests/data/bench/recorded --compare xeon-platinum-8480+ --reps 3; echo "exit $?"
dcsim bench --sampler qbc --quick; echo "exit $?"
