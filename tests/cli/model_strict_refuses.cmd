# --strict: the same state is refused because its energy rests on an extrapolation; without energy it is accepted
DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --cores 3 --freq 2.5 --strict; echo "exit $?"; DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --cores 3 --freq 2.5 --strict --energy-form none | sed -n "/^model/,/^energy/p"
