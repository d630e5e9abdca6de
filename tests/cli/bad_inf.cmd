DCSIM_DATA=. dcsim model --dwarf spherical-harmonics --case TL159 --cpu tests/data/bad/cpu-inf.xml
