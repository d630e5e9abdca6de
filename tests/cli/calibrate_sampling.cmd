# ASK's protocol on the E5-2697v3's DRAM table: which (frequency, cores) states to measure
dcsim calibrate sampling xeon-e5-2697v3 --quantity DRAM
