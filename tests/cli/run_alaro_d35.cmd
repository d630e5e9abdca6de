# D3.5 §6.2 as published (--d35): RAPL domains only, the borrowed i7-4700EQ table (a 2-socket Haswell node idles at 13.68 W); the default is run_alaro_text
dcsim run --d35 workflows/alaro.xml
