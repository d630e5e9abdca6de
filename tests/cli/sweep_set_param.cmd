# a dwarf parameter on every task whose dwarf has it: BiFFT with 10 iterations per ALARO step
dcsim sweep workflows/alaro.xml --cpu xeon-e5-2697v3 --gpu geforce-gtx970,tesla-k20m --nodes 1,16 --freq nominal --set ITER=10 --format csv
