dcsim validate tests/data/bad/deep.xml
