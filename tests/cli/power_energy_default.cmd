# dcsim energy, default model: node wall power of a measured BiFFT run (D3.5 Table 38: 117.72 s on one core); its DRAM traffic from the model's bytes; the same under --d35 (§5.3, D3.5 Tables 42-43: EMDRAM 1.40 W x 117.72 s, the refit of issue 19)
DCSIM_DATA=. dcsim energy --dwarf bifft --case 200x180_525 --cpu xeon-e5-2697v3 --cores 1 --time 117.72; DCSIM_DATA=. dcsim energy --dwarf bifft --cpu xeon-e5-2697v3 --cores 1 --time 117.72 --d35
# --cores all: the CPU's full node (2 x 96 cores of the EPYC 9654, its datasheet power model), JSON
DCSIM_DATA=. dcsim energy --dwarf bifft --case alaro --cpu epyc-9654 --cores all --time 43.51330766 --format json | grep -E '"(cores|node_power_w|energy_j|model)"'
