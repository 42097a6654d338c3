#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The host-copy figures of one processor, as README's copy table and
# docs/host-copies.md give them: a release build (no tests, no CUDA, no web
# page), the calibration from an empty cache, then `cute-layout-bench copy`,
# `copy-random` twice (the spread) and `copy-threads`.  Used on machines other
# than the build machine (the GPU machine's host, through the device tool):
#
#     bash tools/host_copy_bench.sh [OUTDIR]
#
# Each group's output goes to OUTDIR/<group>.txt; the summary lines are
# printed last.
set -euo pipefail
out=${1:-${OUT:-/tmp/host-copy-bench}}
mkdir -p "$out"
build=$(mktemp -d)
cache=$(mktemp -d)
export XDG_CACHE_HOME=$cache
{
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|L[23])' || true
  uptime
} | tee "$out/machine.txt"
meson setup "$build" --buildtype=release -Dtests=disabled -Dcuda=disabled -Dnccl=disabled -Dweb=disabled \
  -Ddocs=disabled -Dpython=disabled >/dev/null
ninja -C "$build" bench/cute-layout-bench >/dev/null
bench=$build/bench/cute-layout-bench
$bench copy > "$out/copy.txt"
$bench copy-random > "$out/copy-random-1.txt"
$bench copy-random > "$out/copy-random-2.txt"
$bench copy-threads > "$out/copy-threads.txt"
$bench copy-bound > "$out/copy-bound.txt"
cat "$cache"/cute-layout/copy-wisdom > "$out/wisdom.txt" 2>/dev/null || true
echo "==== summary"
cat "$out/copy.txt" "$out/copy-threads.txt"
grep -E 'best|library' "$out/copy-bound.txt"
grep -E 'min|p10|median|worst|family' "$out"/copy-random-*.txt || tail -n 8 "$out"/copy-random-*.txt
