# a tariff outside the plausible range (150 per kWh: a price per MWh) is refused with the range (issue 40)
dcsim run workflows/alaro.xml --kwh-price 150
