# a workflow that states no WMS runs under its platform's (wms="pegasus"); --wms none overrides
DCSIM_DATA=. dcsim run tests/data/wms/plain.xml && DCSIM_DATA=. dcsim run tests/data/wms/plain.xml --wms none --format json | grep time_to_solution
