dcsim sweep workflows/alaro.xml --cores 4-2
