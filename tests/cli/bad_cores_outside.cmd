DCSIM_DATA=. dcsim model --dwarf spherical-harmonics --case TL159 --cpu xeon-e5-2697v3 --cores 16 --d35
