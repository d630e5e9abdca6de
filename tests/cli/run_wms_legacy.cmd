# the legacy two-number model selects no WMS model
DCSIM_DATA=. dcsim run tests/data/traces/wfc-pegasus.json --wms-delay-s 2.5 --wms-dispatch-s 1
