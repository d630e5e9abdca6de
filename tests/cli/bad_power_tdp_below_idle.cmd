# a profile whose TDP is below its idle package power: one error naming the file and the line of <package>
DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu tests/data/bad/cpu-tdp-below-idle.xml
