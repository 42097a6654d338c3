#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# copy_cli_test.sh: end-to-end tests of `cute-layout copy` (copy_demo.c): the
# printed tensors, the destination's memory, the plan line, --type, and the
# exit statuses of failures and usage errors.
#
# usage: copy_cli_test.sh CUTE_LAYOUT_EXE
set -u
exe=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/wrap_tool.sh"
exe=$(wrapped_tool "$exe" "$work")
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect NAME STATUS EXPECTED_STDOUT -- ARGS...
expect() {
  local name=$1 status=$2 want=$3
  shift 4
  local got rc
  got=$("$exe" copy "$@" 2>/dev/null)
  rc=$?
  [ "$rc" = "$status" ] || fail "$name: exit status $rc, expected $status"
  [ "$got" = "$want" ] || fail "$name: output
$got
expected
$want"
}

# expect_status NAME STATUS STDERR_PATTERN -- ARGS...
expect_status() {
  local name=$1 status=$2 pattern=$3
  shift 4
  local err rc
  err=$("$exe" copy "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = "$status" ] || fail "$name: exit status $rc, expected $status"
  case "$err" in *"$pattern"*) ;; *) fail "$name: stderr '$err' lacks '$pattern'" ;; esac
}

expect transpose 0 "src (2,4):(1,2):
    0    2    4    6
    1    3    5    7
dst (2,4):(4,1):
    0    2    4    6
    1    3    5    7
dst memory, lowest address first:
    0    2    4    6    1    3    5    7
plan: kernel strided, vector 1 x 4 bytes, modes (4:1<-2,2:4<-1)" -- '(2,4):(1,2)' '(2,4):(4,1)'

# A broadcast source, half-precision elements, expressions for layouts.
expect broadcast-f16 0 "src (2,2):(0,1):
    0.00    1.00
    0.00    1.00
dst (2,2):(1,2):
    0.00    1.00
    0.00    1.00
dst memory, lowest address first:
    0.00    0.00    1.00    1.00
plan: kernel strided, vector 1 x 2 bytes, modes (2:1<-0,2:2<-1)" -- '(2,2):(0,1)' 'make_layout((2,2))' --type float16

# A negative source stride and a gapped destination: the gaps stay zero.
expect reversed-gapped 0 "src 4:-1:
    0
   -1
   -2
   -3
dst 4:2:
    0
   -1
   -2
   -3
dst memory, lowest address first:
    0    0   -1    0   -2    0   -3
plan: kernel strided, vector 1 x 8 bytes, modes (4:2<--1)" -- '4:-1' '4:2' --type int64

# The plan names the transpose kernel for a real transpose.
got=$("$exe" copy '(8,8):(1,8)' '(8,8):(8,1)' | tail -1)
case "$got" in "plan: kernel transpose,"*) ;; *) fail "transpose plan: '$got'" ;; esac

# Every element type: the source holds its offsets 0..7 in that type, so the
# transpose's destination memory reads 0 2 4 6 1 3 5 7 whatever the type (a
# wrong conversion, element size or printed width would change the numbers).
for t in int8 int16 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32 float64; do
  got=$("$exe" copy '(2,4):(1,2)' '(2,4):(4,1)' --type "$t" | sed -n 8p | awk '{ for (i = 1; i <= NF; i++) printf "%s%d", (i > 1 ? " " : ""), $i + 0 }')
  [ "$got" = "0 2 4 6 1 3 5 7" ] || fail "--type $t: destination memory '$got'"
done
# float16: 65504 is the largest finite half; 65536 is past it, so infinity.
got=$("$exe" copy '2:65504' '2:1' --type float16 | sed -n 3p)
[ "$got" = "65504.00" ] || fail "float16 65504: '$got'"
got=$("$exe" copy '2:65536' '2:1' --type float16 | sed -n 3p)
[ "$got" = "     inf" ] || fail "float16 65536: '$got'"

# Tensors whose byte offsets overflow cannot be allocated, either side.
expect_status src-overflow 1 "SRC: integer overflow" -- '2:4611686018427387904' '2:1'
expect_status dst-overflow 1 "DST: integer overflow" -- '2:1' '2:4611686018427387904'
expect_status sizes 1 "SRC has 8 elements, DST 4" -- '8:1' '4:1'
expect_status overlap-dst 1 "not injective" -- '(2,2):(1,2)' '(2,2):(1,0)'
expect_status bad-expression 1 "cute-layout: copy: SRC: column 16: expected" -- 'make_layout((2,' '4:1'
expect_status failing-call 1 "cute-layout: copy: DST: shape_div: division by zero (4 % 0)" -- '4:1' 'make_layout(shape_div(4,0))'
expect_status not-a-layout 1 "cute-layout: copy: SRC: '(2,3)' is not a layout" -- '(2,3)' '6:1'
expect_status missing 2 "cute-layout: copy: expected SRC and DST" --
expect_status extra 2 "cute-layout: copy: expected SRC and DST, got a third layout, '4:1'" -- '4:1' '4:1' '4:1'
# A bad --type lists the valid ones, and suggests the nearest when one is near.
all_types="int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32 or float64"
expect_status bad-type 2 "cute-layout: copy: --type must be $all_types, not 'complex'
usage: cute-layout copy" -- '4:1' '4:1' --type complex
expect_status misspelt-type 2 "--type must be $all_types, not 'flaot32'; did you mean 'float32'?" -- -t flaot32 '4:1' '4:1'
expect_status short-type 2 "--type must be $all_types, not 'int'
" -- '4:1' '4:1' --type=int
expect_status no-type 2 "cute-layout: copy: option '-t' needs a value" -- '4:1' '4:1' -t
expect_status unknown-option 2 "cute-layout: copy: unknown option '--tpye'; did you mean '--type'?" -- '4:1' '4:1' --tpye int8
# Options anywhere, in every form.
for args in "--type float16 (2,2):(0,1) (2,2):(1,2)" "(2,2):(0,1) -tfloat16 (2,2):(1,2)" \
    "(2,2):(0,1) (2,2):(1,2) --type=float16" "-t float16 -- (2,2):(0,1) (2,2):(1,2)" "(2,2):(0,1) (2,2):(1,2) --ty float16"; do
  # shellcheck disable=SC2086 # the words of $args are the arguments
  got=$("$exe" copy $args 2>&1 | sed -n 2p)
  [ "$got" = "    0.00    1.00" ] || fail "copy $args: '$got'"
done
"$exe" copy --help | grep -q "usage: cute-layout copy SRC DST" || fail "copy --help"
"$exe" copy '4:1' '4:1' --help | grep -q "usage: cute-layout copy SRC DST" || fail "copy SRC DST --help"
"$exe" --help | grep -q "copy SRC DST" || fail "--help lists copy"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "all copy CLI tests passed"
