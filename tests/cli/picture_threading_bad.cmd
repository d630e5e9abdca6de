# issue 40 item 2: --threading of pareto and heatmap is measured or ideal
dcsim sweep workflows/alaro-operational.xml --cpu epyc-7763 --gpu geforce-gtx970 --gpus 4,8 --host-cpu epyc-7763,xeon-gold-6148 --nodes 8 --quiet --format csv > $TMPDIR/s.csv; mkdir $TMPDIR/w; mv $TMPDIR/s.csv $TMPDIR/w; cd $TMPDIR/w; dcsim pareto s.csv --threading fast; dcsim heatmap s.csv --out h.png --threading 2
