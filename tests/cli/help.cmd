dcsim help
