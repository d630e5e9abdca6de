# FV on the K20 (FV §7): the worst case, every access to x misses (192 bytes per tetrahedron, 11.9 GFLOP/s)
dcsim model --dwarf fv-tetra --case no-reuse --gpu tesla-k20m --energy-form none --format json
