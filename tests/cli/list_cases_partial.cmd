# dcsim list DWARF of a dwarf whose case leaves a parameter unset: left out of text and JSON, an
# empty CSV cell
dcsim list tests/data/dwarf/partial-case.xml; dcsim list tests/data/dwarf/partial-case.xml --format csv; dcsim list tests/data/dwarf/partial-case.xml --format json
