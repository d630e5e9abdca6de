# issue 25's measured kernels as dwarfs on the measured H100 SXM5 (one synchronous launch per call:
# the launch, the longest thread's latency floor and the waves; board power by activity), and
# ACRANEB2 on the H100 (its own launch cost, no GTX 970 term) and on the H200 (datasheet)
dcsim model --dwarf transt-like --case 20 --gpu h100-sxm5
dcsim model --dwarf stencil7 --case 512 --gpu h100-sxm5 --format json
dcsim model --dwarf acraneb2 --case 5x5x80 --gpu h100-sxm5 | grep -E "^(launch|dwarf |time|energy)"
dcsim model --dwarf acraneb2 --case 200x200x80 --gpu h200 | grep -E "^(launch|dwarf |time|energy)"
