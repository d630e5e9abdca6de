# Issue 26: each bad cost option names the option, with a suggestion for a mistyped profile name.
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --price epyc-7736=100 --quiet
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --price epyc-7763=-5 --quiet
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --price epyc-7763 --quiet
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --kwh-price -1 --quiet
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --lifetime-years 0 --quiet
dcsim sweep workflows/bifft.xml --objectives time --quiet
dcsim sweep workflows/bifft.xml --objectives time,speed --quiet
dcsim run workflows/alaro.xml --price tesla-k20=3000
