# issue 40: a --price may name a CPU only --host-cpu brings in (the GPU nodes' CPU); it was refused as no profile of the run, a dead end for pricing a GPU node
dcsim sweep workflows/alaro-operational.xml --cpu epyc-7763 --gpu geforce-gtx970 --host-cpu epyc-9654 --nodes 8 --price epyc-9654=10000 --objectives time,cost --quiet --format csv | grep -v '^#' | cut -d, -f1-6,16,17,25,26
