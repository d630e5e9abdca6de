dcsim run workflows/datacentre-day.xml --max-tasks 8000
