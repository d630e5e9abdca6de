# basis="fitted" without the measured power it was fitted on (no <energy> table) is refused with the reason (issue 40)
DCSIM_DATA=. dcsim validate tests/data/bad/cpu-fitted-no-energy.xml
