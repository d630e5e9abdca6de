DCSIM_DATA=. dcsim validate tests/data/bad/billion-laughs.xml
