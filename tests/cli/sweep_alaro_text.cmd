# --d35: D3.5's energy tables and forms (table coverage, borrowed tables, §5.2/§5.3 per-core rules); the default power model has its own cases (power_*.cmd)
dcsim sweep --d35 workflows/alaro.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m,tesla-m2070q --nodes 1,2,4,8,16 --freq nominal
