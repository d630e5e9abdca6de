# dcsim energy --strict: the 2.6 GHz table carried to 2.0 GHz (other-frequencies="same") is an extrapolation
DCSIM_DATA=. dcsim energy --dwarf spherical-harmonics --cpu xeon-e5-2697v3 --cores 4 --time 36.9 --freq 2.0; DCSIM_DATA=. dcsim energy --dwarf spherical-harmonics --cpu xeon-e5-2697v3 --cores 4 --time 36.9 --freq 2.0 --strict
