dcsim sweep workflows/sh-tco639.xml --platform workflows/platforms/alaro-hsw-gtx970.xml --gpu tesla-k20m --nodes 1,1
