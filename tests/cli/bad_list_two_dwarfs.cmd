# dcsim list takes one dwarf at most: exit 2
DCSIM_DATA=. dcsim list acraneb2 bifft
