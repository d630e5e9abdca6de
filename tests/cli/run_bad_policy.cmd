dcsim run workflows/alaro.xml --policy sjf
