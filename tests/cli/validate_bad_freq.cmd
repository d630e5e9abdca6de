dcsim validate tests/data/bad/freq-nan.xml tests/data/bad/freq-label.xml; dcsim run tests/data/bad/freq-label.xml
