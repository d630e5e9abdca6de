DCSIM_DATA=. dcsim model --dwarf acraneb2 --case 5x5x80 --gpu geforce-gtx970 --small-domain --d35 --energy-form none
