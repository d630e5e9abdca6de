DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu tests/data/bad/cpu-measured-bad-basis.xml
