dcsim sweep workflows/bifft.xml --nodes 1,2,4,8 --cores 1,2,4 --format csv
