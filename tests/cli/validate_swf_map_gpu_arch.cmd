# every input kind gets its full load: SWF job maps (bad ids, bounds) and GPU architectures too, not only their schema
dcsim validate tests/data/traces/map.xml tests/data/traces/bad-map.xml tests/data/traces/bad-map-id.xml hw-profiles/gpu-arch/sm_52.xml
