# a unit of another kind (a duration for a bandwidth) is refused with the units the option takes (issue 40)
dcsim model --dwarf spherical-harmonics --case TL159 --cpu xeon-e5-2697v3 --cores 4 --nodes 8 --net-bw-bps 2m
