# default model: the E5-2697 v3's power rests on datasheet figures (spec), so --strict refuses its energy and accepts the time alone
DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --strict; echo "exit $?"; DCSIM_DATA=. dcsim model --dwarf bifft --case alaro --cpu xeon-e5-2697v3 --strict --energy-form none | sed -n "/^model/,/^energy/p"
