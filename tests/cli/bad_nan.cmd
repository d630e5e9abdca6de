DCSIM_DATA=. dcsim model --dwarf tests/data/bad/dwarf-nan.xml --case one --cpu xeon-e5-2697v3
