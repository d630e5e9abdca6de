# a WfCommons instance is charged its JSON tree (14 bytes per byte of file, doc/robustness.md)
# before jansson reads it: a 4.8 MB instance within --max-memory 50M is refused by run and by
# validate with the figure and the option; the small one of the tests loads under the same limit
python3 -c "
import json
t=[{'name':'t%06d'%i,'id':'t%06d'%i,'children':[],'parents':[],'inputFiles':[],'outputFiles':[]} for i in range(30000)]
e=[{'id':'t%06d'%i,'runtimeInSeconds':1.0,'machines':['m']} for i in range(30000)]
json.dump({'name':'big','schemaVersion':'1.5','workflow':{'specification':{'tasks':t,'files':[]},'execution':{'makespanInSeconds':1,'executedAt':'2026-01-01T00:00:00Z','tasks':e,'machines':[{'nodeName':'m','cpu':{'coreCount':1,'speedInMHz':1000}}]}}},open('$TMPDIR/big.json','w'))"
dcsim validate tests/data/traces/wfc-14.json --max-memory 50M; cd $TMPDIR && dcsim run big.json --max-memory 50M; echo "exit $?"; dcsim validate big.json --max-memory 50M; echo "exit $?"
