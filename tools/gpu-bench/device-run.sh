#!/bin/bash
# tools/gpu-bench/device-run.sh OUTDIR — builds tools/gpu-bench on a Linux box with CUDA (13) and
# one NVIDIA GPU, runs it, and writes into OUTDIR (at most 7 files, about 3 minutes):
#   bench.csv      gpu-bench's CSV, layout 2 (include/dcsim/import_gpubench.h)
#   power.csv      its NVML power log, every 100 ms, each sample labelled with its phase
#   smi-log.csv    nvidia-smi every 100 ms over the whole run (first rows: before any context)
#   smi-info.csv   the board: name, serial, limits, clocks, driver
#   ncu.csv        Nsight Compute counts of one launch of each phase's kernel (if ncu exists)
#   run.log        what ran, compiler and timings; build errors
# Run from the repository root: tools/gpu-bench/device-run.sh /tmp/out
set -u
O=${1:?usage: device-run.sh OUTDIR}
mkdir -p "$O"
exec > >(tee "$O/run.log") 2>&1
SRC=$(cd "$(dirname "$0")" && pwd)/gpu_bench.cu
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
BIN=$(mktemp -d)/gpu-bench
date -u
nvidia-smi --query-gpu=name,serial,power.limit,power.default_limit,clocks.max.sm,clocks.max.memory,pstate,power.draw,temperature.gpu,driver_version \
  --format=csv > "$O/smi-info.csv"
cat "$O/smi-info.csv"
"$NVCC" --version | tail -2
if ! "$NVCC" -O3 -arch=sm_90 -DDCSIM_HAVE_NVML "$SRC" -o "$BIN" -lnvidia-ml; then
  "$NVCC" -O3 -arch=sm_90 -DDCSIM_HAVE_NVML "$SRC" -o "$BIN" -L/usr/local/cuda/lib64/stubs \
    -L/usr/local/nvidia/lib64 -lnvidia-ml || { echo "build failed"; exit 1; }
fi
nvidia-smi --query-gpu=timestamp,power.draw,utilization.gpu,utilization.memory,clocks.current.sm,clocks.current.memory,pstate,temperature.gpu \
  --format=csv -lms 100 > "$O/smi-log.csv" &
SMI=$!
sleep 2 # a few rows before any CUDA context
S=$(date +%s)
timeout 240 "$BIN" "$O/bench.csv" "$O/power.csv"
echo "gpu-bench rc $? after $(( $(date +%s) - S )) s"
kill "$SMI"
date -u
if command -v ncu > /dev/null; then
  M=gpu__time_duration.sum,smsp__thread_inst_executed.sum,smsp__inst_executed.sum
  M=$M,smsp__sass_thread_inst_executed_op_fp64_pred_on.sum,smsp__sass_thread_inst_executed_op_fp32_pred_on.sum
  M=$M,smsp__sass_thread_inst_executed_op_integer_pred_on.sum,dram__bytes_read.sum,dram__bytes_write.sum
  M=$M,lts__t_bytes.sum,l1tex__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg
  S=$(date +%s)
  timeout 90 ncu --metrics "$M" --csv "$BIN" --profile > "$O/ncu.csv" 2>&1
  echo "ncu rc $? after $(( $(date +%s) - S )) s"
else
  echo "no ncu: ncu.csv not written"
fi
date -u
