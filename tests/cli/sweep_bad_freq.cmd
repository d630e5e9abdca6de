dcsim sweep workflows/alaro.xml --freq 3.1GHz,fast
