#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# run_fuzzer.sh FUZZER RUNS MAX_LEN DICT INPUT_DIR...
#
# A short libFuzzer run for the test suite: a fixed seed and number of runs,
# starting from the committed inputs.  New inputs go to a temporary corpus
# directory (libFuzzer writes into the first one it is given), never into the
# committed ones; a crash input is left in the current directory.
set -eu
fuzzer=$1 runs=$2 max_len=$3 dict=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(-seed=1 -error_exitcode=1 -runs="$runs" -max_len="$max_len" -timeout=30 -print_final_stats=1
      -artifact_prefix="./$(basename "$fuzzer")-")
[ -n "$dict" ] && args+=(-dict="$dict")
"$fuzzer" "${args[@]}" "$work" "$@"
