# a GPU profile from tools/gpu-bench output (synthetic, tests/data/gpubench/README.md) and an
# nvidia-smi power log: the report, the profile, and that it validates and models ACRANEB2
D=tests/data/gpubench
dcsim calibrate gpu $D/gtx970-bench.csv $D/gtx970-power.csv --name bench-gtx970 -o $TMPDIR/bench-gtx970.xml | sed "s|$TMPDIR|TMP|" && cat $TMPDIR/bench-gtx970.xml && dcsim validate $TMPDIR/bench-gtx970.xml | sed "s|$TMPDIR|TMP|" && dcsim model --dwarf acraneb2 --case 200x200x80 --gpu $TMPDIR/bench-gtx970.xml --energy-form none | sed "s|$TMPDIR|TMP|" | grep -E "^(gpu|dwarf |time)"
# without a power log the bench's own NVML rows give the power
dcsim calibrate gpu $D/gtx970-bench.csv --quiet | grep "<power"
