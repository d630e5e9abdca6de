DCSIM_DATA=. dcsim model --dwarf acraneb2 --case 5x5x80 --gpu tesla-k20m --small-domain --d35
# and in the default model it is superseded
DCSIM_DATA=. dcsim model --dwarf acraneb2 --case 5x5x80 --gpu geforce-gtx970 --small-domain
