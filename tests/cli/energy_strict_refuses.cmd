# --d35: D3.5's energy tables and forms (table coverage, borrowed tables, §5.2/§5.3 per-core rules); the default power model has its own cases (power_*.cmd)
# dcsim energy --strict: the 2.6 GHz table carried to 2.0 GHz (other-frequencies="same") is an extrapolation
DCSIM_DATA=. dcsim energy --d35 --dwarf spherical-harmonics --cpu xeon-e5-2697v3 --cores 4 --time 36.9 --freq 2.0; DCSIM_DATA=. dcsim energy --d35 --dwarf spherical-harmonics --cpu xeon-e5-2697v3 --cores 4 --time 36.9 --freq 2.0 --strict
