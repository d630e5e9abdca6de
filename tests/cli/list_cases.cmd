# dcsim list DWARF: the cases of one dwarf with the parameter values each sets (issue 26; the
# bash completion of --case reads the CSV)
DCSIM_DATA=. dcsim list acraneb2; DCSIM_DATA=. dcsim list dwarfs/transt-like.xml --format csv; DCSIM_DATA=. dcsim list fd-vti --format json
