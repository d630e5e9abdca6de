# Issue 26, item 5: `dcsim model` without a network leaves BiFFT's communication out and says so;
# with the shipped platforms' network it gives the time `dcsim sweep` (and run) gives for the same
# task (0.81959 s on 4096 Gold 6148 nodes, one core each); beyond min(NX, NY) = 180 nodes the
# domain is split finer than its grid, and a note says so.
dcsim model --dwarf bifft --case 200x180_525 --cpu xeon-gold-6148 --nodes 4096 --cores 1 | grep '^time'
dcsim model --dwarf bifft --case 200x180_525 --cpu xeon-gold-6148 --nodes 4096 --cores 1 --net-bw-bps 1.25e10 --net-latency-s 1e-6 | grep '^time'
dcsim sweep workflows/bifft.xml --cpu xeon-gold-6148 --nodes 4096 --format csv --quiet | grep -v '^#' | cut -d, -f1-7
dcsim model --dwarf bifft --case 200x180_525 --cpu xeon-gold-6148 --nodes 128 --cores 1 --net-bw-bps 1.25e10 | grep '^time'
