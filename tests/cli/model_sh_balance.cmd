DCSIM_DATA=. dcsim model --dwarf spherical-harmonics --case TL159 --cpu xeon-e5-2697v3 --cores 4 --net-bw-bps 1.25e9 --net-latency-s 5e-5 --overlap 0 --nodes-scan 1,2,4,8,16,32,64,128
