DCSIM_DATA=. dcsim sweep workflows/alaro.xml --cpu xeon-e5-2697v3,pentium-4
