# a WfCommons instance recording Pegasus 4.9.3 runs under the pegasus-4 profile by default (doc/wms.md)
DCSIM_DATA=. dcsim run tests/data/traces/wfc-pegasus.json --format json
