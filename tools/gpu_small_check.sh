#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# gpu_small_check.sh: copies under 1 MiB on a machine with a GPU (issue 27):
# builds the library and its CUDA module (release), then
#   - tools/small_copies.py: GPU time and host cost per copy, ours and PyTorch's,
#     as built and with CUTELAYOUT_CUDA_SMALL=off (the launch path before the
#     small-copy work: the baseline, same card, same session);
#   - ncu: each kernel's duration, grid, block, registers and shared memory;
#   - tools/launch_floor.cu: GPU time per launch by kernel parameter bytes;
#   - test_cuda's GPU test, plain and under compute-sanitizer memcheck.
#   tools/gpu_small_check.sh [STAGES]   STAGES: build,floor,time,ncu,test,sanitize (default all)
# Logs go to $OUT (or ./gpu-small-out).
set -u
stages=${1:-build,floor,time,ncu,test,sanitize}
out=${OUT:-gpu-small-out}
mkdir -p "$out"
build=build-gpu-small
note_width=36
source "$(dirname "$0")/device_steps.sh"
gpu_release_build
if has floor; then
  step "nvcc launch_floor" floor_build.log nvcc -O3 -arch=sm_90 tools/launch_floor.cu -o "$build/launch_floor"
  step "launch_floor" floor.log timeout 60 "$build/launch_floor"
fi
if has time; then
  for run in ${RUNS:-new old}; do
    small=; [ "$run" = old ] && small=off
    step "small_copies ($run)" small_$run.log env CUTELAYOUT_CUDA_SMALL=$small PYTHONUNBUFFERED=1 timeout 150 \
      python3 tools/small_copies.py
  done
fi
if has ncu; then
  for run in ${NCU_RUNS:-new old}; do
    small=; [ "$run" = old ] && small=off
    step "ncu ($run)" ncu_$run.csv env CUTELAYOUT_CUDA_SMALL=$small timeout 200 ncu --clock-control none --nvtx \
      --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic \
      python3 tools/small_copies.py --ncu
  done
fi
if has test; then
  step "test_cuda gpu" test_gpu.log timeout 240 "$build/tests/test_cuda" gpu
  note "" "$(grep -h 'copies checked\|failures' "$out/test_gpu.log" | xargs)"
fi
if has sanitize; then
  step "compute-sanitizer memcheck test_cuda" sanitize.log timeout 240 compute-sanitizer --tool memcheck \
    --leak-check full --error-exitcode 1 "$build/tests/test_cuda" gpu 20
  note "" "$(grep -h 'ERROR SUMMARY\|copies checked' "$out/sanitize.log" | xargs)"
fi
# The figures: each kernel's launches per copy and medians (ncu), then the timings.
for run in new old; do
  [ -e "$out/ncu_$run.csv" ] && python3 - "$out/ncu_$run.csv" "$run" <<'PY'
import csv, collections, re, statistics, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
col = {n: i for i, n in enumerate(rows[0])}
nvtx = [i for i, n in enumerate(rows[0]) if 'Push/Pop' in n][0]
kernels = collections.OrderedDict()
for r in rows[1:]:
    k = kernels.setdefault(r[0], {'range': r[nvtx], 'name': r[col['Kernel Name']][:40], 'grid': r[col['Grid Size']],
                                  'block': r[col['Block Size']]})
    k[r[col['Metric Name']]] = r[col['Metric Value']]
per = collections.OrderedDict()
for k in kernels.values():
    m = re.search(r':([^:]+/(ours|torch)):', k['range'])
    if m:
        per.setdefault((m.group(1), k['name']), []).append(k)
for (rng, name), ks in per.items():
    t = statistics.median(float(k['gpu__time_duration.sum'].replace(',', '')) for k in ks)
    k = ks[0]
    print('ncu-%s %-34s %-40s n%d %6.0f ns grid %s block %s regs %s smem %s+%s' % (
        sys.argv[2], rng, name, len(ks), t, k['grid'], k['block'], k['launch__registers_per_thread'],
        k['launch__shared_mem_per_block_static'], k['launch__shared_mem_per_block_dynamic']))
PY
done
cat "$out"/floor.log 2>/dev/null
for run in new old; do
  [ -e "$out/small_$run.log" ] && grep -h '^small/' "$out/small_$run.log" | sed "s|^|$run: |" | cut -c1-190
done
printf '%s\n' "${summary[@]}"
