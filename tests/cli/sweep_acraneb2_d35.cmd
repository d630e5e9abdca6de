# ACRANEB2 (the ALARO case) on the three GPUs of D3.5 under --d35: the times of §6.2 (10.65,
# 10.83, 10.57 s) behind the conclusions checker's acraneb2_spread and acraneb2_least_energy rows
dcsim sweep workflows/acraneb2.xml --gpu geforce-gtx970,tesla-k20m,tesla-m2070q --d35 --format csv
