dcsim sweep workflows/bifft.xml --platform tests/data/engine/p4.xml --gpu tesla-k20m
