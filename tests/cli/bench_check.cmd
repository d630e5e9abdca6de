# dcsim bench --check: the first CPU task of workflows/alaro.xml (BiFFT, case alaro, 1 core) predicted with the recorded bench profile (the Emerald Rapids host of device run 2) against the recorded replay of its loops (check.csv); nothing is measured (--from)
DCSIM_DATA=. dcsim bench --from tests/data/bench/recorded --check workflows/alaro.xml
