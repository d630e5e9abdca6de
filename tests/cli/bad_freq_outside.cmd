DCSIM_DATA=. dcsim model --dwarf spherical-harmonics --case TL159 --cpu xeon-e5-2697v3 --freq 3.0 --d35
