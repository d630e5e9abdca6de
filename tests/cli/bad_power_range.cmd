# Issue 35 item 5: a profile's power figure beyond any hardware (a node base power of 1e300 W gave an
# energy of inf J and a cost of inf USD, exit 0) is refused naming the file, line and attribute.
DCSIM_DATA=. dcsim model --dwarf bifft --case 200x180_525 --cpu tests/data/bad/cpu-power-1e300.xml
