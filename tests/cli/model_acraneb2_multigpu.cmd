DCSIM_DATA=. dcsim model --dwarf acraneb2 --case alaro-operational --gpu geforce-gtx970 --host-cpu xeon-e5-2697v3 --gpus 4
