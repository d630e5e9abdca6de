# prices, lifetimes and deadlines with the units people type, each read back on stderr (issue 40)
dcsim run workflows/alaro.xml --price xeon-e5-2697v3=2702 --kwh-price 150USD/MWh --lifetime-years 5y --deadline-s 1h | grep -E '^(cost|deadline)'
