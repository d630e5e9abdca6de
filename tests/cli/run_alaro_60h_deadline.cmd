# ALARO at 2.5 km over a 60 h forecast (2400 steps of 90 s) against a 40-minute operational window: missed, exit 4 (issue 40)
dcsim run workflows/alaro-2.5km-60h.xml --deadline-s 40m
