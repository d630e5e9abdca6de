# --d35: D3.5's energy tables and forms (table coverage, borrowed tables, §5.2/§5.3 per-core rules); the default power model has its own cases (power_*.cmd)
dcsim run --d35 tests/data/recorded/fork.xml --format json
