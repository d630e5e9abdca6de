DCSIM_DATA=. dcsim model --dwarf tests/data/bad/malformed-dwarf.xml --cpu xeon-e5-2697v3
