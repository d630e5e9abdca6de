# --set of a parameter no task's dwarf has
dcsim sweep workflows/alaro.xml --set FOO=1
