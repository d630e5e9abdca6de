# dcsim bench --compare: the measured ceilings of a recorded bench directory (a 20 s run of the development VM, 2 vCPUs, under load) beside the catalogue's Xeon Platinum 8480+ datasheet profile; nothing is measured (--from)
DCSIM_DATA=. dcsim bench --from tests/data/bench/recorded --compare xeon-platinum-8480+
