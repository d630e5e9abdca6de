# Issue 26, item 2: GPUs per GPU node as a sweep axis (--gpus: each ACRANEB2 call split over the
# node's GPUs by the multi-GPU model, whose memory check makes 1 and 2 GTX 970s infeasible for the
# operational grid) and the GPU node's host CPU (--host-cpu), with the cost of each (the price of
# the E5-2697 v3, 1234.5 USD, is a test value, not a price); the CSV and the database keep them.
dcsim sweep workflows/alaro-operational.xml --gpu geforce-gtx970,a100-sxm4-80gb --gpus 1,2,4 --host-cpu xeon-e5-2697v3,epyc-7763 --price xeon-e5-2697v3=1234.5 --quiet | grep -v sha256
dcsim sweep workflows/alaro-operational.xml --gpu a100-sxm4-80gb --gpus 1,4 --host-cpu epyc-7763 --quiet --db $TMPDIR/g.db --format csv | grep -v '^#' | cut -d, -f1-3,7,8,18,19
dcsim pareto $TMPDIR/g.db --format json | grep -o '"gpus":[0-9]*,"host_cpu":"[^"]*"'
dcsim sweep workflows/alaro.xml --gpus 2,65 --quiet
dcsim sweep workflows/alaro.xml --gpus 0 --quiet
