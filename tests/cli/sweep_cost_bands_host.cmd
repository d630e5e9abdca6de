# Issue 37, items 6-7: a GPU sweep without --host-cpu names the host it used (the platform's
# E5-2697 v3) on every point and in a line, and its missing price names --price and --host-cpu;
# with an EPYC 7763 host (the A100's 10000 USD is a test value, not a price) every point of the
# time,cost sweep has a time band and a cost band, in the text and in the CSV (the awk counts the
# feasible points lacking one: 0).
dcsim sweep workflows/alaro.xml --cpu epyc-7763 --gpu a100-sxm4-80gb --nodes 1,8 --objectives time,cost --price a100-sxm4-80gb=10000 --quiet | grep -v sha256
dcsim sweep workflows/alaro.xml --cpu epyc-7763 --gpu a100-sxm4-80gb --host-cpu epyc-7763 --nodes 1,8 --objectives time,cost --price a100-sxm4-80gb=10000 --quiet | grep -v sha256
dcsim sweep workflows/alaro.xml --cpu epyc-7763 --gpu a100-sxm4-80gb --host-cpu epyc-7763 --nodes 1,2,4,8 --cores 1,all --objectives time,cost --price a100-sxm4-80gb=10000 --quiet --format csv | grep -v '^#' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $(c["feasible"]) == 1 { n++; if ($(c["time_band_low_s"]) == "" || $(c["cost_band_low_usd"]) == "" || $(c["host_cpu"]) == "") bad++ } END { print n " feasible points, " bad + 0 " without a time band, a cost band or a host CPU" }'
