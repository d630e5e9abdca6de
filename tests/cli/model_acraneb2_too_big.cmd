DCSIM_DATA=. dcsim model --dwarf acraneb2 --case alaro-operational --gpu tesla-k20m
