# Issue 26, item 9: cores-per-node="all" in a workflow is the node's cores, as --cores all.
dcsim run tests/data/workflow/bifft-cores-all.xml | sed -n '/^what ran/,/^$/p'
dcsim validate tests/data/workflow/bifft-cores-all.xml
