# --d35: D3.5's energy tables and forms (table coverage, borrowed tables, §5.2/§5.3 per-core rules); the default power model has its own cases (power_*.cmd)
# --strict: the same state is refused because its energy rests on an extrapolation; without energy it is accepted
DCSIM_DATA=. dcsim model --d35 --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --cores 3 --freq 2.5 --strict; echo "exit $?"; DCSIM_DATA=. dcsim model --d35 --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --cores 3 --freq 2.5 --strict --energy-form none | sed -n "/^model/,/^energy/p"
