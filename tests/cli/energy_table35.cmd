# --d35: D3.5's energy tables and forms (table coverage, borrowed tables, §5.2/§5.3 per-core rules); the default power model has its own cases (power_*.cmd)
DCSIM_DATA=. dcsim energy --d35 --dwarf spherical-harmonics --cpu xeon-e5-2640v3 --cores 4 --time 36.9 --format json
