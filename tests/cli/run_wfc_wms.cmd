dcsim run tests/data/traces/wfc-15.json --wms-delay-s 2.5 --wms-dispatch-s 1 --io-bw-bps 1e5
