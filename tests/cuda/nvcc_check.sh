#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# nvcc_check.sh NVCC INCLUDE_DIR LIBRARY SOURCE: builds SOURCE with nvcc
# (device code for nvcc's default architecture, warnings as errors) against
# the shared LIBRARY and runs its host part.  Exits 77 (skipped) when NVCC is
# empty: nvcc was not found or cannot link this build's library.
set -eu
nvcc=$1 include=$2 libdir=$(dirname "$3") source=$4
if [ -z "$nvcc" ]; then
  echo "nvcc not found: skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$nvcc" -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror \
  -I "$include" "$source" -L "$libdir" -lcutelayout \
  -Xlinker -rpath="$libdir" -o "$work/compiled_device"
"$work/compiled_device"
