dcsim validate workflows/wms/pegasus-htcondor.xml tests/data/wms/pipeline.xml tests/data/wms/platform.xml && dcsim validate tests/data/wms/bad-missing.xml
