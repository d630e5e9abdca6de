# --d35: D3.5's energy tables and forms (table coverage, borrowed tables, §5.2/§5.3 per-core rules); the default power model has its own cases (power_*.cmd)
# a state between measured cells: the time is interpolated (D3.5 Tables 25-29), the energy from the table of 2.6 GHz carried to 2.5 GHz (other-frequencies="same") extrapolated
DCSIM_DATA=. dcsim model --d35 --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --cores 3 --freq 2.5 --format json | sed -n '/"model"/,/^  },/p'
