dcsim run tests/data/engine/backfill.xml --policy easy --format json
