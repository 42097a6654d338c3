# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the device scripts (tools/*_device_check.sh, gpu_small_check.sh):
# the stages named on the command line, each step's output in its own log
# under $out, and one summary line per step, printed last by the script so
# that the device tool's reply (the output's tail) carries them.
# The script sets `stages` and `out` first, and may set `note_width`.
summary=()
# Whether STAGE is among the comma-separated $stages.
has() { [[ ",$stages," == *",$1,"* ]]; }
# A summary line: a name, then what came of it.
note() { summary+=("$(printf "%-${note_width:-40}s %s" "$1" "$2")"); }
# step NAME LOG COMMAND...: runs COMMAND into $out/LOG, notes its status and time.
step() {
  local name=$1 log=$2 start=$SECONDS
  shift 2
  "$@" >"$out/$log" 2>&1
  local rc=$?
  note "$name" "rc=$rc $((SECONDS - start)) s ($log)"
  return $rc
}

# The one-GPU scripts' start: the GPU, torch and nvcc in $out/machine.txt and
# a summary line; with the stage `build`, a release build with the CUDA module
# in $build; then the Python package pointed at that build's libraries.
gpu_release_build() {
  { nvidia-smi; python3 -c 'import torch; print("torch", torch.__version__)'; nvcc --version; } >"$out/machine.txt" 2>&1
  note "GPU" "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  if has build; then
    step "meson setup (cuda, release)" setup.log meson setup "$build" -Dcuda=enabled -Dweb=disabled -Ddocs=disabled \
      -Dbuildtype=release
    step "ninja" build.log ninja -C "$build"
  fi
  export CUTELAYOUT_LIBRARY=$PWD/$build/src/libcutelayout.so CUTELAYOUT_CUDA_LIBRARY=$PWD/$build/cuda/libcutelayout-cuda.so
}
