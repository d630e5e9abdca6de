# a workflow XML stating wms="pegasus" wms-version="4.9.3" with its file sizes
DCSIM_DATA=. dcsim run tests/data/wms/pipeline.xml
