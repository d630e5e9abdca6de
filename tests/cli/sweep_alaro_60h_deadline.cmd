# which hardware runs the 60 h ALARO forecast at 2.5 km within the 40-minute window: 512 EPYC 9654 nodes with four H100 fit, with four A100 not (issue 40, doc/workloads.md)
dcsim sweep workflows/alaro-2.5km-60h.xml --cpu epyc-9654 --gpu a100-sxm4-80gb,h100-sxm5 --gpus 4 --nodes 512 --cores all --deadline-s 40m --quiet --threads 2
