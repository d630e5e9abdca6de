# 100 overlapping tasks x 49000 steps: the 4.9e8 step-to-step pairs are 9.8e6 edges through barriers; the 4.9e6 tasks are what the budget sees
dcsim validate tests/data/guard/edges-4.9e8.xml --max-tasks 1000000; dcsim run tests/data/guard/edges-4.9e8.xml --max-memory 100M
