#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# dist_device_check.sh: the NCCL executor on a machine with several GPUs of
# one host, in one go: builds with the CUDA module and NCCL, runs test_nccl's
# GPU test on 2 and on all GPUs, the Python random-pairs check under torchrun
# on 2 and on all GPUs, and bench/dist_vs_dtensor.py on all GPUs (16384 and
# 8192; with 4 GPUs it includes the 2x2 mesh), then prints a table.
#
#   tools/dist_device_check.sh [STAGES]      STAGES: build,test,python,bench (default all)
#
# BASELINE_NCCL_CU=FILE (an earlier nccl/nccl.cu): builds it as a second
# libcutelayout-nccl against this build's libraries, and the bench runs
# Shard(0)->Shard(1) at 16384 with it and with this tree's in turn (two
# runs each), so that the two are compared on the same machine; the first
# 16384 run of this tree also profiles (DIST_BENCH_PROFILE, trace in $OUT).
#
# Logs go to $OUT (or ./dist-device-out).  NVLink multicast stays off
# (KINDS.md of the device tool: it can take the host's GPUs out of service).
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
stages=${1:-build,test,python,bench}
out=${OUT:-dist-device-out}
mkdir -p "$out"
build=build-dist-device
note_width=44
source "$(dirname "$0")/device_steps.sh"

ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
{ nvidia-smi -L; nvidia-smi topo -m; python3 -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())'; } \
  >"$out/machine.txt" 2>&1
note "GPUs" "$ngpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)"

# NCCL's header and library: /usr/local/cuda's, else the pip package's.
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ ! -e /usr/local/cuda/include/nccl.h ]; then
  nccl_dir=$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))' 2>/dev/null ||
             python3 -c 'import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])')
  mkdir -p /tmp/nccl-link && ln -sf "$nccl_dir"/lib/libnccl.so.2 /tmp/nccl-link/libnccl.so
  export CPATH="$nccl_dir/include${CPATH:+:$CPATH}" LIBRARY_PATH="/tmp/nccl-link${LIBRARY_PATH:+:$LIBRARY_PATH}"
  export LD_LIBRARY_PATH="$nccl_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  note "NCCL from" "$nccl_dir"
fi

if has build; then
  step "meson setup (cuda, nccl)" setup.log meson setup "$build" -Dcuda=enabled -Dnccl=enabled -Dweb=disabled \
    -Dbench=disabled -Ddocs=disabled -Dbuildtype=release
  # Only what the checks load: the NCCL library, test_nccl, the Python package.
  step "ninja" build.log ninja -C "$build" tests/test_nccl nccl/libcutelayout-nccl.so.1.0.0 \
    $(ninja -C "$build" -t targets all | grep -oE '^bindings/python/[^:]*' | grep -v '\.p/')
  if [ -n "${BASELINE_NCCL_CU:-}" ]; then
    mkdir -p "$build/baseline"
    step "nvcc baseline nccl.cu" baseline.log nvcc -std=c++17 -O3 -shared -Xcompiler -fPIC \
      -gencode arch=compute_90,code=sm_90 -Iinclude -Icuda/include -Inccl/include -Icuda -Isrc \
      "$BASELINE_NCCL_CU" -o "$build/baseline/libcutelayout-nccl.so.1" -L"$build/cuda" -L"$build/src" \
      -lcutelayout-cuda -lcutelayout -lnccl -Xlinker -rpath="$PWD/$build/cuda:$PWD/$build/src"
  fi
fi
export PYTHONPATH=$PWD/$build/bindings/python
export CUTELAYOUT_NCCL_LIBRARY=$PWD/$build/nccl/libcutelayout-nccl.so.1

if has test; then
  step "test_nccl gpu, 2 GPUs" nccl_gpu2.log env CUDA_VISIBLE_DEVICES=0,1 "$build/tests/test_nccl" gpu
  note "" "$(grep -h 'redistributions on' "$out/nccl_gpu2.log")"
  if [ "$ngpu" -gt 2 ]; then
    step "test_nccl gpu, $ngpu GPUs" nccl_gpu$ngpu.log "$build/tests/test_nccl" gpu
    note "" "$(grep -h 'redistributions on' "$out/nccl_gpu$ngpu.log")"
  fi
fi

if has python; then
  for n in 2 "$ngpu"; do
    [ "$n" -le "$ngpu" ] || continue
    step "gpu_redistribute.py, $n GPUs" py_gpu$n.log torchrun --nproc_per_node="$n" tests/dist/gpu_redistribute.py 30
    note "" "$(grep -h 'gpu-redistribute:' "$out/py_gpu$n.log")"
    [ "$n" = "$ngpu" ] && break
  done
fi

bench() { # log, size, environment...
  local log=$1 size=$2
  shift 2
  step "dist_vs_dtensor.py $size, $ngpu GPUs ($log)" "$log" \
    env "$@" torchrun --nproc_per_node="$ngpu" bench/dist_vs_dtensor.py "$size" 20
}
if has bench && [ -n "${BASELINE_NCCL_CU:-}" ]; then
  baseline=$PWD/$build/baseline/libcutelayout-nccl.so.1
  bench bench_16384.log 16384 DIST_BENCH_PROFILE="$out/trace_16384.json"
  bench bench_16384_baseline.log 16384 DIST_BENCH_CASES=s01 CUTELAYOUT_NCCL_LIBRARY="$baseline"
  bench bench_16384_again.log 16384 DIST_BENCH_CASES=s01,blockcyclic
  bench bench_16384_baseline_again.log 16384 DIST_BENCH_CASES=s01 CUTELAYOUT_NCCL_LIBRARY="$baseline"
  bench bench_8192.log 8192
elif has bench; then
  # 16384 twice: the spread between two runs of the same code.
  bench bench_16384.log 16384 DIST_BENCH_CHUNKS=2,4,8
  bench bench_8192.log 8192 DIST_BENCH_CHUNKS=2,4,8
  bench bench_16384_again.log 16384 DIST_BENCH_CHUNKS=2,4,8
fi

for f in "$out"/bench_*.log; do
  [ -e "$f" ] && { echo "== $f"; grep -E '^\||^ratio|^host|bf16 over' "$f"; }
done
echo "== summary"
printf '%s\n' "${summary[@]}"
