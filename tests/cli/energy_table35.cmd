DCSIM_DATA=. dcsim energy --dwarf spherical-harmonics --cpu xeon-e5-2640v3 --cores 4 --time 36.9 --format json
