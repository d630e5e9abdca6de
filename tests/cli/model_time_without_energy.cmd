# Issue 26, item 4: a time answer is not blocked by a missing energy model. The E5-2670 has no power
# data and D3.5's E5-2697 v3 energy table stops at 4 cores: the time is printed, the energy marked
# unavailable with the reason, exit 0 (text, JSON, CSV); --strict refuses.
dcsim model --dwarf fv-tetra --case W500000 --cpu xeon-e5-2670 --cores 8 | grep -v sha256
dcsim model --dwarf spherical-harmonics --case TCO639 --cpu xeon-e5-2697v3 --cores 14 --d35 --format json | grep -E '^  "(time_s|energy_j|energy_unavailable)"'
dcsim model --dwarf spherical-harmonics --case TCO639 --cpu xeon-e5-2697v3 --cores 14 --d35 --format csv | grep -E '^# energy|^total'
dcsim model --dwarf spherical-harmonics --case TCO639 --cpu hw-profiles/cpu/xeon-e5-2697v3.xml --cores 14 --d35 --strict
