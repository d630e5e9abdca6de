# --wms pegasus on an instance that records no runtime system: the default profile
DCSIM_DATA=. dcsim run tests/data/traces/wfc-15.json --wms pegasus
