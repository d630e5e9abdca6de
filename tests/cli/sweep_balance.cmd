dcsim sweep tests/data/sweep/sh-comm.xml --nodes 1,2,4,8,16,32,64,128,256 --cores 1,4
