DCSIM_DATA=. dcsim model --dwarf bifft --case 200x180_525 --cpu tests/data/bad/cpu-spec-no-dram.xml
