dcsim run workflows/alaro.xml --policy lifo
