# 4.9e8 dependency edges from a block after a block: refused by run, validate and sweep before anything is expanded
dcsim run tests/data/guard/after-4.9e8.xml; dcsim validate tests/data/guard/after-4.9e8.xml; dcsim sweep tests/data/guard/after-4.9e8.xml --nodes 1,2
