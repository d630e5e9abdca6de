# FV on both sockets (FV §8): the 500,000-tetrahedron instance stays in the two L3s, the x vector crosses QPI
dcsim model --dwarf fv-tetra --case W140 --cpu xeon-e5-2670 --cores 16 --energy-form none
