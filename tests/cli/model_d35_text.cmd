# --d35 names the model it ran in the output
DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --d35 | sed -n "/^model/,/^covers/p"
