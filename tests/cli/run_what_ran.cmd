# Issue 26, item 3: what was simulated — cores (GPUs) per node in use out of those available per
# node group, time and energy per call of each task type (per ALARO step: one BiFFT, one ACRANEB2);
# the CSV ends with the whole centre (allocated = the job rows' sum, idle on unallocated nodes,
# total) and its job rows plus the idle row add up to the JSON's total (696.5 MJ, not 101.9 MJ).
dcsim run workflows/datacentre-day.xml --policy easy | sed -n '/^what ran/,/^$/p;/^task type/,/^$/p'
dcsim run workflows/datacentre-day.xml --policy easy --format csv | grep -v '^#' | grep -E '^name|^centre' | cut -d, -f1,8,20
dcsim run workflows/datacentre-day.xml --policy easy --format csv | grep -v '^#' | awk -F, '$20 == "job" || $20 == "idle" { s += $8 } $20 == "total" { t = $8 } END { printf "job rows + idle row = %.10g J, total row %.10g J\n", s, t }'
dcsim run workflows/datacentre-day.xml --policy easy --format json | grep -E '^  "energy_to_solution_j"'
dcsim run workflows/alaro.xml --format json | sed -n '/"task_types"/,/^  \]/p'
