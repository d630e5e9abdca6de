DCSIM_DATA=. dcsim validate tests/data/validate/bad-formula.xml
