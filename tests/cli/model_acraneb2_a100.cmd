# ALARO's operational ACRANEB2 domain (15.8 GB) fits one A100 80 GB (default architecture model,
# an extrapolated projection); --strict refuses it; --d35 on a GPU without D3.5 characteristics is spec
DCSIM_DATA=. dcsim model --dwarf acraneb2 --case alaro-operational --gpu a100-sxm4-80gb --host-cpu xeon-e5-2697v3
DCSIM_DATA=. dcsim model --dwarf acraneb2 --case alaro-operational --gpu a100-sxm4-80gb --strict --energy-form none 2>&1 | cut -c1-120
DCSIM_DATA=. dcsim model --dwarf acraneb2 --case 200x200x80 --gpu h100-sxm5 --d35 --energy-form none | sed -n "/^model/,/^energy/p"
