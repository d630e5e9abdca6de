dcsim sweep workflows/alaro.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m,tesla-m2070q --nodes 1,2,4,8,16 --freq nominal
