# dcsim bench --compare: the measured ceilings of a recorded bench directory (a 2-minute run on the 16-vCPU Emerald Rapids host of the lent H100, device run 2) beside the catalogue's Xeon Platinum 8480+ datasheet profile; nothing is measured (--from)
DCSIM_DATA=. dcsim bench --from tests/data/bench/recorded --compare xeon-platinum-8480+
