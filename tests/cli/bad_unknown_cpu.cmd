DCSIM_DATA=. dcsim model --dwarf spherical-harmonics --case TL159 --cpu no-such-cpu
