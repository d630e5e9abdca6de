dcsim run tests/data/traces/wfc-pegasus.json --wms-file tests/data/wms/bad-missing.xml
