#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# explain_cli_test.sh: `cute-layout explain` end to end.  Each explanation's
# steps replay: every "VALUE = EXPRESSION" line is evaluated with
# `cute-layout eval` and must give VALUE, and the last must be what
# `cute-layout eval EXPR` gives.  Then failing operations, the SVG
# pictures, -o, and usage errors.
#
# usage: explain_cli_test.sh CUTE_LAYOUT_EXE
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

# replays EXPR: explains it, evaluates every step's expression in one batch,
# and compares values; the last value must be eval EXPR's answer.
replays() {
  local expr=$1
  if ! "$exe" explain "$expr" > "$work/text" 2> "$work/stderr"; then
    fail "explain '$expr' failed: $(cat "$work/stderr")"
    return
  fi
  # the value lines: four or more spaces, then VALUE = EXPRESSION
  sed -n 's/^ \{4,\}\([^ ]*\) = \(.*\)$/\1\t\2/p' "$work/text" > "$work/steps"
  if [ ! -s "$work/steps" ]; then
    fail "explain '$expr': no steps"
    return
  fi
  cut -f2 "$work/steps" | "$exe" eval - > "$work/replayed" 2>&1
  paste "$work/steps" "$work/replayed" | while IFS=$'\t' read -r value step_expr got; do
    [ "$value" = "$got" ] || echo "explain '$expr': $step_expr gives $got, the step says $value"
  done > "$work/mismatches"
  if [ -s "$work/mismatches" ]; then
    fail "$(cat "$work/mismatches")"
  fi
  local last want
  last=$(tail -n 1 "$work/steps" | cut -f1)
  want=$("$exe" eval "$expr")
  [ "$last" = "$want" ] || fail "explain '$expr' ends in $last, eval gives $want"
}

for expr in \
  'coalesce((2,(1,6)):(1,(7,2)))' \
  'coalesce(make_layout((2,3,4),LayoutRight))' \
  'composition((6,2):(8,2),(4,3):(3,1))' \
  'composition((20,2):(16,4),(5,4):(1,5))' \
  'composition(make_layout((12,8)),(4:1,(2,2):(1,4)))' \
  'composition((4,6):(1,8),8)' \
  'complement((2,2):(1,6),24)' \
  'complement(4:2)' \
  'complement((2,4):(8,1),(8,8))' \
  'right_inverse((2,4):(4,1))' \
  'left_inverse((2,4):(4,1))' \
  'right_inverse((3,2):(2,1))' \
  'logical_divide((4,2,3):(2,1,8),4:2)' \
  'zipped_divide(34:1,8:1)' \
  'zipped_divide(make_layout((12,10)),(8,4))' \
  'tiled_divide(make_layout((8,8)),(2,4))' \
  'flat_divide(make_layout((6,8)),(2:1,(2,2):(1,2)))' \
  'logical_product((2,2):(1,2),(2,3):(1,2))' \
  'zipped_product((2,2):(1,2),(2,2))' \
  'tiled_product(make_layout((2,2)),make_layout((3,4)))' \
  'flat_product(3:1,4:1)' \
  'blocked_product((2,2):(1,2),(3,4):(1,3))' \
  'raked_product((2,2):(1,2),(3,4):(1,3))' \
  'raked_product(4:1,3:1)'; do
  replays "$expr"
done

# A failing operation: the explanation up to the step that fails, exit 1,
# and the reason on standard error.
out=$("$exe" explain 'composition((4,6):(1,8),2:6)' 2> "$work/stderr")
rc=$?
[ "$rc" = 1 ] || fail "a failing composition: exit status $rc, expected 1"
case $out in *"composition((4,6):(1,8),2:6) fails") ;; *) fail "a failing composition does not end with its failing step: $out" ;; esac
grep -q 'stride divisibility condition' "$work/stderr" || fail "a failing composition: stderr says $(cat "$work/stderr")"
"$exe" explain 'complement((2,2):(1,1),8)' > "$work/text" 2> "$work/stderr"
[ $? = 1 ] && grep -q 'non-injective' "$work/stderr" || fail "complement of a non-injective layout: $(cat "$work/stderr")"

# Pictures: one panel per main step with a layout, one <text class="cell">
# per element.
if "$exe" explain 'logical_divide(12:1,4:1)' --format svg > "$work/steps.svg" 2> "$work/stderr"; then
  python3 - "$work/steps.svg" <<'PY' || fail "explain --format svg: $(head -c 300 "$work/steps.svg")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = '{http://www.w3.org/2000/svg}'
panels = [g for g in root.iter(ns + 'g') if g.get('class') == 'panel']
cells = [t for t in root.iter(ns + 'text') if t.get('class') == 'cell']
# cotarget is an integer (no picture); complement 3:4, make_layout (4,3):(1,4),
# composition and the result are layouts of 3, 12, 12 and 12 elements.
assert len(panels) == 4, len(panels)
assert len(cells) == 3 + 12 + 12 + 12, len(cells)
PY
else
  fail "explain --format svg failed: $(cat "$work/stderr")"
fi
"$exe" explain -o "$work/out.txt" 'coalesce(4:1)' && grep -q '^coalesce(4:1)$' "$work/out.txt" || fail "explain -o"

# Usage errors (2) and bad expressions (1).
expect_status() {
  local name=$1 want=$2
  shift 2
  "$exe" "$@" > /dev/null 2> "$work/stderr"
  local rc=$?
  [ "$rc" = "$want" ] || fail "$name: exit status $rc, expected $want ($(cat "$work/stderr"))"
  [ -s "$work/stderr" ] || fail "$name: nothing on stderr"
}
expect_status "no expression" 2 explain
expect_status "two expressions" 2 explain 'coalesce(4:1)' 'coalesce(4:1)'
expect_status "a bad format" 2 explain --format png 'coalesce(4:1)'
expect_status "not a call" 1 explain '4:1'
expect_status "no closing parenthesis" 1 explain 'coalesce(4:1'
expect_status "text after the call" 1 explain 'coalesce(4:1) x'
expect_status "an unknown operation" 1 explain 'transpose(4:1)'
expect_status "three arguments" 1 explain 'composition(4:1,2:1,3:1)'
expect_status "a bad argument" 1 explain 'coalesce(4:)'
expect_status "not a layout" 1 explain 'coalesce((4,2))'
expect_status "a second argument of the wrong kind" 1 explain 'composition(4:1,true)'
expect_status "a second argument it does not take" 1 explain 'coalesce(4:1,2)'
expect_status "scaled-basis strides" 1 explain 'coalesce(make_identity_layout((4,2)))'
expect_status "an unwritable output" 1 explain -o "$work/no/such/dir" 'coalesce(4:1)'
"$exe" explain --help | grep -q 'usage: cute-layout explain' || fail "explain --help"
"$exe" --help | grep -q 'explain EXPR' || fail "cute-layout --help does not list explain"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "explain: all passed"
