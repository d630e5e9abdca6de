dcsim run workflows/datacentre-day.xml --max-memory 2X
