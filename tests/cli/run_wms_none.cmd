# --wms none: the bare replay of the same instance (its file sizes then ignored)
DCSIM_DATA=. dcsim run tests/data/traces/wfc-pegasus.json --wms none
