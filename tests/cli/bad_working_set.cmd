# The cache rule's input (doc/models.md "Level weights on another CPU"), one defect each: a
# <working-set weights-cpu> that names no CPU profile (with a suggestion), one whose profile gives
# no l3-byte (the rule could not place the working set on it), and a working set negative for the
# case's values
export DCSIM_DATA=.
for f in tests/data/dwarf/bad-wset-unknown-cpu.xml tests/data/dwarf/bad-wset-no-l3.xml; do dcsim validate $f 2>&1; echo "exit $?"; done
dcsim model --dwarf tests/data/dwarf/bad-wset-negative.xml --case c --cpu epyc-9654 2>&1; echo "exit $?"
