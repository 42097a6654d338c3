#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_device_check.sh: the CUDA module's copies on a machine with a GPU, in
# one go: builds with the CUDA module (release), runs test_cuda's GPU test,
# then `cute-layout-bench gpu-random` and `bench/gpu_vs_torch.py` with the
# kernels as built and with CUTELAYOUT_CUDA_TILES=scalar (the element-wise
# tile kernel and the vector kernel where the kernels of 16-byte windows
# would serve: the baseline, in the same run on the same card),
# the `gpu` group (the fixed workloads), test_cuda's GPU test under
# compute-sanitizer's memcheck, and the memory instructions and resources
# of the kernels of 16-byte windows (cuobjdump); then prints a table.
#
#   tools/gpu_device_check.sh [STAGES]   STAGES: build,test,bench,torch,fixed,sanitize,sass (default all)
#
# Logs go to $OUT (or ./gpu-device-out).
set -u
stages=${1:-build,test,bench,torch,fixed,sanitize,sass}
out=${OUT:-gpu-device-out}
mkdir -p "$out"
build=build-gpu-device
note_width=40
source "$(dirname "$0")/device_steps.sh"
# The summary lines of a gpu-random log: min, p10, median, the worst three.
random_summary() {
  grep -hE '^gpu-random/(min|p10|median|worst)' "$out/$1" | awk '{print $1, $(NF-1)}' | sed 's|gpu-random/||' | xargs
}

gpu_release_build

if has test; then
  step "test_cuda gpu" test_gpu.log timeout 240 "$build/tests/test_cuda" gpu
  note "" "$(grep -h 'copies checked\|failures' "$out/test_gpu.log" | xargs)"
fi

if has bench; then
  for run in wide scalar wide-again; do
    tiles=; [ "$run" = scalar ] && tiles=scalar
    step "gpu-random ($run)" random_$run.log env CUTELAYOUT_CUDA_TILES=$tiles timeout 120 \
      "$build/bench/cute-layout-bench" gpu-random
    note "" "$(random_summary random_$run.log)"
  done
fi

if has torch; then
  for run in wide scalar; do
    tiles=; [ "$run" = scalar ] && tiles=scalar
    step "gpu_vs_torch.py ($run)" torch_$run.log env CUTELAYOUT_CUDA_TILES=$tiles PYTHONUNBUFFERED=1 timeout 150 \
      python3 bench/gpu_vs_torch.py
  done
fi

if has fixed; then
  step "gpu (fixed workloads)" fixed.log timeout 120 "$build/bench/cute-layout-bench" gpu
fi

if has sanitize; then
  step "compute-sanitizer memcheck test_cuda" sanitize.log timeout 240 compute-sanitizer --tool memcheck \
    --leak-check full --error-exitcode 1 "$build/tests/test_cuda" gpu 20
  note "" "$(grep -h 'ERROR SUMMARY\|copies checked' "$out/sanitize.log" | xargs)"
fi

if has sass; then
  obj=$(find "$build/cuda" -name 'kernels.cu.o' | head -1)
  cuobjdump -sass "$obj" >"$out/kernels.sass" 2>&1
  cuobjdump -res-usage "$obj" >"$out/kernels.res" 2>&1
  for k in wide_tile_copy rows_copy; do
    for e in 1 2 4; do
      note "$k<$e> memory ops" "$(awk -v f="${k}ILi${e}E" '/Function : / {on = index($0, f) > 0} on' "$out/kernels.sass" |
        grep -oE '\b(LDG|STG|LDS|STS|LD|ST)(\.[A-Z0-9_]+)*' | sort | uniq -c | xargs)"
      note "$k<$e> resources" "$(grep -A1 "${k}ILi${e}E" "$out/kernels.res" | grep -oE 'REG:[0-9]+|STACK:[0-9]+|SHARED:[0-9]+' | xargs)"
    done
  done
fi

# The figures: gpu-random's families (standard error) and the PyTorch table.
for run in wide scalar; do
  [ -e "$out/random_$run.log" ] && grep -h 'family' "$out/random_$run.log" | sed "s|^|$run: |"
done
for run in wide scalar; do
  [ -e "$out/torch_$run.log" ] && grep -hE '^gpu/' "$out/torch_$run.log" | sed "s|^|$run: |"
done
[ -e "$out/random_wide.log" ] && grep -hE '^gpu-random/' "$out/random_wide.log" | sort -k4 -g | head -8
printf '%s\n' "${summary[@]}"
