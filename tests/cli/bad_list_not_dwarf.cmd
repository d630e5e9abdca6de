# dcsim list FILE of a file that is no dwarf: the file and line, exit 1
DCSIM_DATA=. dcsim list hw-profiles/cpu/epyc-7763.xml --format csv
