# a workflow whose CPU tasks differ: the sweep says what a point's time is
dcsim sweep workflows/bifft-scaling.xml --format csv
