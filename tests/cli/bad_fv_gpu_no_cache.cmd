# FV on a GPU profile without <cache-hierarchy>
DCSIM_DATA=. dcsim model --dwarf fv-tetra --case W140 --gpu geforce-gtx970 --energy-form none
