DCSIM_DATA=. dcsim model --dwarf acraneb2 --case 5x5x80 --gpu tesla-k20m --small-domain
