dcsim run workflows/alaro-operational.xml --format json
