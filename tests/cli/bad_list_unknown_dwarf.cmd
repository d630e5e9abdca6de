# dcsim list DWARF of a dwarf that does not exist: the suggestion, exit 1
DCSIM_DATA=. dcsim list acraneb
