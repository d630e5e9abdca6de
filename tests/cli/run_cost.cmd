# Issue 26: dcsim run's cost, of what the jobs held and of the whole centre; without a price for the
# Haswell the cost is unknown and says why; with one (1234.5 USD: a test value, not a price) it is
# known, and the per-job costs of the CSV add up to the JSON's.
dcsim run workflows/alaro.xml | grep '^cost'
dcsim run workflows/alaro.xml --price xeon-e5-2697v3=1234.5 --kwh-price 0.2385 --lifetime-years 3.5 | grep '^cost'
dcsim run workflows/alaro.xml --price xeon-e5-2697v3=1234.5 --format json | sed -n '/"cost": {/,/}/p'
dcsim run workflows/alaro.xml --price xeon-e5-2697v3=1234.5 --format csv | grep -v '^#' | cut -d, -f1,2,18,19
