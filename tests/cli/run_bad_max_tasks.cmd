dcsim run workflows/datacentre-day.xml --max-tasks 1e3.5
