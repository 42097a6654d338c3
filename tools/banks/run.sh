#!/bin/bash
# run.sh LANES: measures every pair of a lanes file (tests/banks/banks_suite
# lanes) with Nsight Compute on the GPU at hand; writes to $OUT (or ./out):
#   ncu.csv     the raw counters, one kernel a pair, in the file's order
#   order.tsv   launch index and pair name
#   device.txt  the card, driver, nvcc and ncu versions, the date
#   metrics.txt the shared-memory counters this ncu offers
# tools/banks/ncu_table.py turns ncu.csv and order.tsv into tests/banks/ncu_h100.tsv.
set -u
lanes=$1
out=${OUT:-out}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > "$out/device.txt" 2>&1
nvcc -O2 -arch=sm_90a -o /tmp/banks_harness "$here/harness.cu" || exit 1
ncu --query-metrics > "$out/metrics.txt" 2>&1
base=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
extra=$(grep -oE '^(l1tex__data_pipe_lsu_wavefronts_mem_shared[a-z_]*|l1tex__data_bank_conflicts_pipe_lsu_mem_shared[a-z_]*|smsp__sass_inst_executed_op_(shared|ldsm|stsm|ldgsts)[a-z_]*|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts[a-z_]*)' "$out/metrics.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
/tmp/banks_harness "$lanes" > "$out/order.tsv" || exit 1
if ! ncu --metrics "$base,$extra" --csv --print-units base /tmp/banks_harness "$lanes" > "$out/ncu.csv" 2> "$out/ncu.err"; then
  echo "all counters failed; the four base ones only" >&2
  ncu --metrics "$base" --csv --print-units base /tmp/banks_harness "$lanes" > "$out/ncu.csv" 2>> "$out/ncu.err"
fi
wc -l "$out/ncu.csv" "$out/order.tsv"
tail -3 "$out/ncu.err"
