# Issue 39: a CPU profile whose name is longer than a sweep point holds (63 bytes) is refused, naming
# the profile file; it was cut and then shown, priced and looked up as another name.
dcsim sweep workflows/bifft.xml --cpu tests/data/sweep/long-name-cpu.xml --quiet
