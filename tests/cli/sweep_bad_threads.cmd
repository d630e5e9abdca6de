# the ceiling depends on the machine (4 per online processor, at least 16): written as N here
dcsim sweep workflows/bifft.xml --nodes 1,2 --threads 100000 2>&1 | sed -E 's/at most [0-9]+ on/at most N on/'; exit ${PIPESTATUS[0]}
