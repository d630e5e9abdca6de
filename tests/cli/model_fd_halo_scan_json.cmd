DCSIM_DATA=. dcsim model --dwarf fd-acoustic --case order-6 --cpu xeon-e5-2697v2 --cores 24 --energy-form none --net-bw-bps 1.25e10 --net-latency-s 1e-6 --nodes-scan 1,4,16,64 --format json
