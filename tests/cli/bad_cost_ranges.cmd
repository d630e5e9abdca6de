# Issue 35 item 5: cost options outside a plausible range are refused naming the option and the range
# (a price of 1e308 gave "inf USD" in text and null in JSON with an empty reason; a lifetime of
# 1e-300 years and a tariff of 1e308 USD/kWh were accepted).
dcsim run workflows/alaro.xml --price xeon-e5-2697v3=1e308; echo "exit $?"
dcsim run workflows/alaro.xml --price xeon-e5-2697v3=1e308 --format json; echo "exit $?"
dcsim run workflows/alaro.xml --price xeon-e5-2697v3=1e-300; echo "exit $?"
dcsim run workflows/alaro.xml --lifetime-years 1e-300; echo "exit $?"
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --kwh-price 1e308 --quiet; echo "exit $?"
