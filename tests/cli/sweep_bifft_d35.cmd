# BiFFT 200x180 (525 fields) on 1-8 nodes x 1, 2, 4 cores under --d35 (D3.5 Fig. 28): §4.3's
# published model only speeds up with cores, so 8 x 4 is the fastest, thriftiest point and the
# knee (the disagreement of the bifft_knee rows of tests/reference/d35-conclusions.csv)
dcsim sweep workflows/bifft.xml --nodes 1,2,4,8 --cores 1,2,4 --d35 --format csv
