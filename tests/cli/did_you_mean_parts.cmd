# Issue 26, item 9: a part of a profile name (the model number, the family member) suggests the
# profiles that contain it.
DCSIM_DATA=. dcsim model --dwarf acraneb2 --case alaro --gpu v100
DCSIM_DATA=. dcsim model --dwarf acraneb2 --case alaro --gpu k20
DCSIM_DATA=. dcsim model --dwarf acraneb2 --case alaro --gpu gtx970
DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu 8480
DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu gold-6148
