# Issue 39: a library error names its parameter; the CLI's table maps it to the option and its place
# on the command line: the second --price (its own occurrence), a --cpu list with a name twice and a
# --set given twice (the occurrence the sweep refused).
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --price epyc-7763=100 --price epyc-7736=5 --quiet
dcsim sweep workflows/bifft.xml --cpu epyc-7763,epyc-7763 --quiet
dcsim sweep workflows/alaro.xml --set ITER=2 --quiet --set ITER=3
