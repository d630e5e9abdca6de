# reading a WfCommons instance is charged to --max-tasks before it is parsed, 2 tasks per byte (issue 35: 10^6 tasks took 23.6 s of CPU): refused with the figure
dcsim run tests/data/traces/wfc-15.json --max-tasks 1000
