dcsim roofline --gpu geforce-gtx970 --dwarf acraneb2 --case 200x200x80
