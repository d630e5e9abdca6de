DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu xeon-e5-2697v3
