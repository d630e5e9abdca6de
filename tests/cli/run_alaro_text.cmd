dcsim run workflows/alaro.xml
