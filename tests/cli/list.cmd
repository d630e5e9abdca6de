DCSIM_DATA=. dcsim list
