dcsim sweep workflows/alaro.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --nodes 4 --cores 4,5 --freq nominal,2.6,turbo --format json
