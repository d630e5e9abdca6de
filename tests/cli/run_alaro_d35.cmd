# The shipped ALARO workflow under --d35 (Haswell, BiFFT on 8 nodes x 1 core, GTX 970): D3.5's
# models exactly, 2858.95 s and 671564 J, the point of the §6 conclusions' ALARO sweep
# (tests/reference/d35-conclusions.csv) that the shipped workflow is
dcsim run workflows/alaro.xml --d35
