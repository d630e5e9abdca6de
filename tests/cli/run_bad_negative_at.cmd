dcsim run tests/data/workload/bad-negative.xml --platform workflows/platforms/alaro-hsw-gtx970.xml; echo "exit $?"
