dcsim run workflows/alaro.xml --format json
