# Issue 37 item 3, the cache rule (doc/models.md "Level weights on another CPU"): BiFFT's ALARO working set (184 MB) lives in the E5-2697 v3's DRAM, where D3.5 measured its level weights, but fits the 2 x 384 MiB of L3 of a full EPYC 9654 node: all of its DRAM weight moves to L3 (the weights line says so; the time was 1.28 s with the E5's weights) and the time is extrapolated at best. On the E5-2697 v3 itself nothing moves and no weights line is printed; on 8 nodes (23 MB each, which the E5's own L3 holds) nothing moves on the EPYC either.
export DCSIM_DATA=.
dcsim model --dwarf bifft --case alaro --cpu epyc-9654 --cores all --threading ideal --energy-form none | sed -n '/^model/,/^energy/p'
dcsim model --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --cores all --threading ideal --energy-form none | sed -n '/^model/,/^energy/p'
dcsim model --dwarf bifft --case alaro --cpu epyc-9654 --nodes 8 --cores all --threading ideal --energy-form none | sed -n '/^model/,/^energy/p'
dcsim model --dwarf bifft --case alaro --cpu epyc-9654 --cores all --threading ideal --energy-form none --format json | grep -E '"(time_s|weights)"' | head -2
