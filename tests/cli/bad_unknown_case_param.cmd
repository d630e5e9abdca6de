DCSIM_DATA=. dcsim model --dwarf tests/data/bad/dwarf-unknown-set.xml --case one --cpu xeon-e5-2697v3
