DCSIM_DATA=. dcsim model --dwarf acraneb2 --case 200x200x80 --gpu geforce-gtx970 --host-cpu xeon-e5-2697v3
