#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cli_test.sh: end-to-end tests of the `cute-layout` tool (CONTRACT.md's
# `cute-layout eval`): answers, batch mode, error lines, exit statuses, bad
# input of every kind, a 100,000-line batch, and CuTe's answers for the
# int-tuple and layout-basics functions (cute_basics.tsv).
#
# usage: cli_test.sh CUTE_LAYOUT_EXE CUTE_BASICS_TSV
set -u
exe=$1
cases=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/wrap_tool.sh"
exe=$(wrapped_tool "$exe" "$work")
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_output NAME EXPECTED_STATUS EXPECTED_STDOUT -- ARGS...: runs the tool
# with ARGS (stdin from $work/stdin when it exists) and compares.
expect_output() {
  local name=$1 status=$2 want=$3
  shift 4
  local got rc
  if [ -f "$work/stdin" ]; then
    got=$("$exe" "$@" < "$work/stdin" 2>"$work/stderr"; echo "#rc=$?")
  else
    got=$("$exe" "$@" < /dev/null 2>"$work/stderr"; echo "#rc=$?")
  fi
  rc=${got##*#rc=}
  got=${got%#rc=*}
  got=${got%$'\n'}
  if [ "$rc" != "$status" ]; then
    fail "$name: exit status $rc, expected $status (stderr: $(head -c 300 "$work/stderr"))"
  fi
  if [ "$got" != "$want" ]; then
    fail "$name: output differs"
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -20 >&2
  fi
  rm -f "$work/stdin"
}

# ---------------------------------------------------------------- answers
expect_output "issue 2 example" 0 "(2,(2,2)):(4,(2,1))
0 4 2 6 1 5 3 7
6" -- eval 'make_layout((2,(2,2)),(4,(2,1)))' 'print1D((2,(2,2)):(4,(2,1)))' 'crd2idx((1,(1,0)),(2,(2,2)):(4,(2,1)))'

expect_output "print_layout table" 0 "(2,(2,2)):(4,(2,1))
      0   1   2   3 
    +---+---+---+---+
 0  | 0 | 2 | 1 | 3 |
    +---+---+---+---+
 1  | 4 | 6 | 5 | 7 |
    +---+---+---+---+
8:1" -- eval 'print_layout((2,(2,2)):(4,(2,1)))' '8:1'

expect_output "white space and text forms" 0 "(2,3):(1,2)
(8)
()
_
true
false
LayoutRight
(((2,3)):((1,2)),18)" -- eval ' ( 2 , 3 ) : ( 1 , 2 ) ' '(8)' '()' '_' 'congruent((2,3),(4,5))' 'compatible(8,(2,3))' \
  'LayoutRight' 'slice_and_offset((_,(1,1)),((2,3),(2,2)):((1,2),(6,12)))'

# ---------------------------------------------------------------- batch mode
printf '%s\r\n' 'size((2,3))' '' '# a comment' '   ' '  # indented comment' 'rank((2,3))' > "$work/stdin"
printf 'depth((2,(3,4)))' >> "$work/stdin" # no newline at the end
expect_output "batch mode" 0 "6




2
2" -- eval -

printf '%s\n' 'size((2,3))' 'size((2,3)' 'bogus(1)' 'shape_div(3,2)' 'rank(8)' > "$work/stdin"
expect_output "errors do not stop the batch" 1 "6
error: column 11: expected ',' or ')', found the end of the expression
error: column 1: unknown function 'bogus'
error: shape_div: divisibility condition violated: neither 3 % 2 == 0 nor 2 % 3 == 0
1" -- eval -

: > "$work/stdin"
expect_output "empty input" 0 "" -- eval -

# Driven through a pipe by another program (a notebook kernel, an editor
# plugin): write one line, wait for its answer, then write the next.  An
# answer left in the tool's output buffer never comes, and the test fails
# after the timeout instead of hanging.
coproc TOOL { exec "$exe" eval -; }
tool_pid=$TOOL_PID
exec {to_tool}>&"${TOOL[1]}" {from_tool}<&"${TOOL[0]}"
eval "exec ${TOOL[1]}>&- ${TOOL[0]}<&-" # only our copies stay open
while IFS=$'\t' read -r expr want; do
  printf '%s\n' "$expr" >&"$to_tool"
  if ! IFS= read -r -t 30 answer <&"$from_tool"; then
    fail "eval - in a pipe: no answer to '$expr' within 30 s"
    break
  fi
  [ "$answer" = "$want" ] || fail "eval - in a pipe: '$expr' answered '$answer', expected '$want'"
done <<'EOF_CASES'
size((2,3))	6
shape_div(4,0)	error: shape_div: division by zero (4 % 0)
# a comment	
make_layout((2,3),LayoutRight)	(2,3):(3,1)
compositon(8:1,2:1)	error: column 1: unknown function 'compositon'; did you mean 'composition'?
EOF_CASES
exec {to_tool}>&- # the end of its input: the tool exits, with status 1 for the error lines
for _ in $(seq 300); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$tool_pid" 2>/dev/null; then
  fail "eval - in a pipe: still running 30 s after its input ended"
  kill "$tool_pid"
fi
wait "$tool_pid"
rc=$?
[ "$rc" = 1 ] || fail "eval - in a pipe: exit status $rc, expected 1"
exec {from_tool}<&-

# Pictures are built in memory: a huge one is refused at once, not after
# minutes (tests/fuzz/regressions/eval/print-huge-layout).
expect_output "huge picture" 1 "error: print1D: the layout has 1 x 100000000000 entries, more than the 1048576 a picture shows" \
  -- eval 'print1D(100000000000:1)'

# Issue 23: a negative extent means nothing to CuTe; every way a shape comes
# in refuses it (0 is an empty mode, which CuTe allows).
expect_output "negative extents" 1 "error: make_layout: a layout's shape has the negative extent -4; a shape's extents are integers >= 0
error: column 1: a layout's shape has the negative extent -4; a shape's extents are integers >= 0
error: column 6: a layout's shape has the negative extent -3; a shape's extents are integers >= 0
error: compact_col_major: the shape has the negative extent -2; a shape's extents are integers >= 0
error: idx2crd: the shape has the negative extent -4; a shape's extents are integers >= 0
error: tile_to_shape: tile_to_shape's target shape has the negative extent -4; a shape's extents are integers >= 0
error: logical_divide: a layout's shape has the negative extent -2; a shape's extents are integers >= 0
error: complement: the layout has the negative stride -1; complement needs strides >= 0
error: make_layout: a layout's shape must be an int tuple (no '_' or layouts)
0:1" -- eval 'make_layout(-4)' '-4:1' 'size((2,(-3,4)):(1,(2,6)))' 'compact_col_major((-2,3))' 'idx2crd(5,(-4,2))' \
  'tile_to_shape(2:1,(-4,2))' 'logical_divide(8:1,-2)' 'complement(4:-1,8)' 'make_layout((2,_))' 'make_layout(0)'

# ---------------------------------------------------------------- exit statuses
expect_output "one failure among successes" 1 "8
error: column 1: unknown name 'x'
8" -- eval '8' 'x' '8'
"$exe" --help > "$work/help" 2>&1 || fail "--help exits with $?"
grep -q "cute-layout eval" "$work/help" || fail "--help does not describe eval"
"$exe" --version > "$work/version" 2>&1 || fail "--version exits with $?"
grep -q "cute-layout [0-9]" "$work/version" || fail "--version prints no version"

# ---------------------------------------------------------------- a Unix tool
# Usage errors: exit 2, nothing on standard output, a message starting with
# "cute-layout: " on standard error followed by the command's synopsis.
usage_status() { # NAME STDERR_PATTERN -- ARGS...
  local name=$1 pattern=$2 out rc
  shift 3
  out=$("$exe" "$@" 2>"$work/usage.err" < /dev/null)
  rc=$?
  [ "$rc" = 2 ] || fail "$name: exit status $rc, expected 2"
  [ -z "$out" ] || fail "$name: wrote to standard output: $(printf '%s' "$out" | head -c 200)"
  case "$(head -1 "$work/usage.err")" in "cute-layout: "*"$pattern"*) ;;
    *) fail "$name: stderr '$(head -c 300 "$work/usage.err")' does not start 'cute-layout: ...$pattern'" ;; esac
  grep -q '^usage: cute-layout' "$work/usage.err" || fail "$name: no synopsis on stderr"
}
usage_status "no command" "expected a command" --
usage_status "eval without expressions" "eval: expected expressions" -- eval
usage_status "unknown command" "unknown command 'frobnicate'" -- frobnicate
grep -q "did you mean" "$work/usage.err" && fail "frobnicate: a command was suggested: $(head -1 "$work/usage.err")"
usage_status "misspelt command" "unknown command 'evl'; did you mean 'eval'?" -- evl
usage_status "misspelt command 2" "unknown command 'drwa'; did you mean 'draw'?" -- drwa
usage_status "misspelt command 3" "unknown command 'dwar'; did you mean 'draw'?" -- dwar
# A swap of two letters, neighbours or not, is one slip (issue 23).
expect_output "swapped letters" 1 "error: column 1: unknown function 'sezi'; did you mean 'size'?" -- eval 'sezi(8:1)'
usage_status "unknown tool option" "unknown option '--bogus'" -- --bogus eval 8
usage_status "unknown eval option" "eval: unknown option '-x'" -- eval -x 8
usage_status "eval --help with a value" "eval: option '--help' takes no value" -- eval --help=yes
usage_status "ambiguous long option" "option '--' is ambiguous" -- draw '--=x' 8:1
usage_status "functions with an operand" "functions: takes no arguments" -- functions size
usage_status "help for no command" "help: unknown command 'bogus'" -- help bogus
usage_status "help for two commands" "help: expected one COMMAND" -- help eval draw
usage_status "copy --type" "copy: option '--type' needs a value" -- copy 4:1 4:1 --type
usage_status "unknown help option" "help: unknown option '-x'" -- help -x
usage_status "unknown functions option" "functions: unknown option '--all'" -- functions --all
usage_status "option byte" "eval: unknown option byte 0xc3" -- eval $'-\xc3\xa9'
# Failures to read the input or write the output are reported, exit 1.
err=$("$exe" eval - < / 2>&1 >/dev/null)
rc=$?
[ "$rc" = 1 ] && [ "${err#cute-layout: eval: reading standard input: }" != "$err" ] ||
  fail "eval - from a directory: status $rc, '$err'"
if [ -c /dev/full ]; then
  err=$("$exe" eval 8:1 2>&1 >/dev/full)
  rc=$?
  [ "$rc" = 1 ] && [ "${err#cute-layout: writing standard output: }" != "$err" ] ||
    fail "eval > /dev/full: status $rc, '$err'"
fi
# A usage error anywhere evaluates nothing.
out=$("$exe" eval 8:1 --bogus 2>/dev/null)
[ -z "$out" ] || fail "eval with a bad option evaluated: $out"

# --help and help COMMAND: usage on standard output, exit 0; each command's
# text starts with its synopsis.
for cmd in eval draw copy functions help; do
  "$exe" "$cmd" --help > "$work/help.$cmd" 2> "$work/help.err" || fail "$cmd --help: exit status $?"
  [ -s "$work/help.err" ] && fail "$cmd --help wrote to stderr"
  head -1 "$work/help.$cmd" | grep -q "^usage: cute-layout $cmd" || fail "$cmd --help: $(head -1 "$work/help.$cmd")"
  "$exe" help "$cmd" | cmp -s - "$work/help.$cmd" || fail "help $cmd differs from $cmd --help"
  "$exe" "$cmd" -h | cmp -s - "$work/help.$cmd" || fail "$cmd -h differs from $cmd --help"
done
"$exe" help | cmp -s - "$work/help" || fail "help differs from --help"
"$exe" -h | cmp -s - "$work/help" || fail "-h differs from --help"
"$exe" -V | cmp -s - "$work/version" || fail "-V differs from --version"
# --help wins over operands and evaluates nothing.
[ "$("$exe" eval 'shape_div(4,0)' --help | head -1)" = "usage: cute-layout eval EXPR..." ] || fail "eval EXPR --help"

# Options and operands in any order; -oFILE, -o FILE, --output=FILE,
# --output FILE and abbreviations are one; `--` ends the options; an
# operand that starts with '-' and a digit is a negative number.
"$exe" eval 'print_layout((2,3):(3,1))' > "$work/table.want"
i=0
for args in "-o $work/t.txt (2,3):(3,1) --format txt" "-o$work/t.txt -ftxt (2,3):(3,1)" \
    "--output=$work/t.txt --format=txt (2,3):(3,1)" "(2,3):(3,1) --output $work/t.txt --form txt" \
    "-f txt -- (2,3):(3,1) --out=$work/t.txt"; do
  i=$((i + 1))
  rm -f "$work/t.txt" "$work/t.out"
  # shellcheck disable=SC2086 # the words of $args are the arguments
  "$exe" draw $args > "$work/t.out" 2>&1
  if [ "$i" = 5 ]; then
    # after --, '--out=...' is a second expression
    grep -q "expected one EXPR, got a second one, '--out=" "$work/t.out" || fail "draw $args: $(head -c 200 "$work/t.out")"
    continue
  fi
  cmp -s "$work/t.txt" "$work/table.want" || fail "draw $args: the picture is not print_layout's table"
done
expect_output "negative numbers are operands" 0 "-3
-1
(2,3):(-1,2)" -- eval -3 -1 '(2,3):(-1,2)'
expect_output "options end at --" 1 "8
error: column 2: expected a digit, found '-'" -- eval 8 -- --help
echo 2 > "$work/stdin"
expect_output "- reads standard input where it stands" 0 "1
2
3" -- eval 1 - 3

# Suggestions: the nearest function, only when it is near enough and the
# only one that near.
expect_output "unknown functions" 1 "error: column 1: unknown function 'compositon'; did you mean 'composition'?
error: column 1: unknown function 'make_layuot'; did you mean 'make_layout'?
error: column 10: unknown function 'logical_divid'; did you mean 'logical_divide'?
error: column 1: unknown function 'print1d'; did you mean 'print1D'?
error: column 1: unknown function 'swizzle'; did you mean 'Swizzle'?
error: column 1: unknown function 'siz'; did you mean 'size'?
error: column 1: unknown function 'frobnicate'
error: column 1: unknown function 'x'
error: column 1: unknown function 'make'; did you mean 'take'?
error: layout: argument 1 must be a layout, not an integer
error: column 1: unknown name 'LayoutLeftt'; did you mean 'LayoutLeft'?
error: column 1: 'size' is a function: call it as size(...)" -- eval 'compositon(8:1,2:1)' 'make_layuot((2,3))' \
  'size(8:1,logical_divid(8:1,2))' 'print1d(8:1)' 'swizzle(1,1,1)' 'siz(8)' 'frobnicate(1)' 'x(1)' 'make(1)' \
  'layout(1)' 'LayoutLeftt' 'size'

# Failures name the function that failed: the innermost call, once.
expect_output "failures name the function" 1 "error: shape_div: division by zero (4 % 0)
error: shape_div: division by zero (4 % 0)
error: make_layout: shape and stride are not congruent
error: ceil_div: division by zero (7 / 0)
error: make_swizzle<6,49>: number of bits in Y and Z don't match
error: Swizzle<1,2,0>: abs(SShift) must be >= BBits
error: Swizzle<1,2,0>: abs(SShift) must be >= BBits
error: get: index 5 out of range for rank 2
error: make_ordered_layout: compact_order: the order must be weakly congruent with the shape
error: size: wrong number of arguments (0); usage: size(t) | size(L) | size(C) | size(T)" -- eval 'shape_div(4,0)' \
  'size(make_layout(shape_div(4,0)))' 'make_layout((2,3),(1,2,3))' 'ceil_div(7,0)' 'make_swizzle(6,49)' \
  'Swizzle(1,2,0)' 'Sw<1,2,0>' 'get((1,2),5)' 'make_ordered_layout((2,3),((0,1),2))' 'size()'

# ---------------------------------------------------------------- algebra builtins
# Values from CuTe's documentation (02_layout_algebra.md: complement(4:1,24) is
# 6:4, complement(4:2,24) is (2,3):(1,8)) or from the definitions, one line each.
expect_output "algebra builtins" 1 "6:4
(2,3):(1,8)
2:1
(2,3):(1,8)
3:1
(3,1,1):(1,5,0)
(3,1,4):(1,0,0)
((2,3),(2,2)):((1,2),(2,1))
((2,2),(3,2)):((1,2),(2,1))
((2,2),3,2):((1,2),2,1)
(2,2,3,2):(1,2,2,1)
((2,2),(2,3)):((1,4),(2,8))
((2,2),(2,3)):((1,12),(2,4))
((2,2),(2,3)):((1,12),(2,4))
32:1
1:0
(1,2,6)
(12,1,3)
Sw<2,1,-3>
Sw<2,1,3>
error: make_swizzle<6,49>: number of bits in Y and Z don't match" -- eval \
  'complement(4:1,24)' 'complement(4:2,24)' \
  'complement(4:2)' \
  'complement(4:2,(4,6))' \
  'filter((3,1,4):(1,5,0))' 'filter_zeros((3,1,4):(1,5,0))' \
  'filter((3,1,4):(1,5,0),(_,_))' \
  'logical_product((2,2):(1,2),(3,2))' 'zipped_product((2,2):(1,2),(3,2))' \
  'tiled_product((2,2):(1,2),(3,2))' 'flat_product((2,2):(1,2),(3,2))' \
  'tile_to_shape((2,2):(1,2),(4,6),LayoutLeft)' 'tile_to_shape((2,2):(1,2),(4,6),LayoutRight)' \
  'tile_to_shape((2,2):(1,2),(4,6),(1,0))' \
  'max_common_layout((4,8):(1,4),(4,8):(1,4))' 'max_common_layout((4,8):(1,4),(4,8):(8,1))' \
  'prefix_product((2,3,4))' 'compact_order((2,3,4),(2,0,1))' \
  'make_swizzle(6,48)' 'make_swizzle(48,6)' 'make_swizzle(6,49)'
# complement(4:2) takes cosize 7 as the cotarget: 2 holes, nothing past 8.
# A shape cotarget counts by its size.  filter drops stride-0 and size-1
# modes; filter_zeros makes stride-0 modes size 1; with a profile, modes past
# it are kept (CuTe's transform_layout).  The zipped, tiled and flat products
# regroup the modes of logical_product.  LayoutRight is the order (1,0).  Two
# equal column-major layouts share all 32 elements, a transpose none.
# prefix_product is exclusive; compact_order gives stride 1 to order 0.
# make_swizzle<Y,Z>: Y = 0b110 below Z = 0b110000 is a negative shift.

expect_output "argument errors" 1 "error: ceil_div: argument 1 must be an integer or a tuple, not a boolean
error: ceil_div: argument 1 must be an integer or a tuple, not a layout tag
error: ceil_div: argument 1 must be an integer or a tuple, not a swizzle
error: ceil_div: argument 1 must be an integer or a tuple, not a composed layout
error: ceil_div: argument 1 must be an integer or a tuple, not a picture
error: get: argument 2 must be an integer, not '_'
error: make_swizzle: argument 1 must be an integer, not a boolean
error: complement: argument 2 must be an integer or a tuple, not a boolean
8:1
8:2" -- eval 'ceil_div(true,2)' 'ceil_div(LayoutLeft,2)' 'ceil_div(Sw<1,1,1>,2)' \
  'ceil_div(composition(Sw<1,1,1>,0,4:1),2)' 'ceil_div(print1D(2:1),2)' 'get((1,2),_)' 'make_swizzle(true,1)' \
  'complement(4:2,true)' 'get((8:1,2),0)' 'get((3,(8:2,4)),1,0)'

# `cute-layout functions` lists each builtin once, and each listed name is one
# the evaluator knows (called without arguments it complains about those).
"$exe" functions > "$work/functions" || fail "functions: exit status $?"
sed 's/^  //; s/(.*//' "$work/functions" > "$work/names"
[ "$(wc -l < "$work/names")" -gt 40 ] || fail "functions: only $(wc -l < "$work/names") listed"
[ -z "$(sort "$work/names" | uniq -d)" ] || fail "functions: listed twice: $(sort "$work/names" | uniq -d | head -3)"
grep -qx complement "$work/names" || fail "functions: complement not listed"
sed 's/$/()/' "$work/names" | "$exe" eval - > "$work/names.out"
if grep -q "unknown function" "$work/names.out"; then
  fail "functions lists a name eval does not know: $(paste "$work/names" "$work/names.out" | grep 'unknown function' | head -3)"
fi

# ---------------------------------------------------------------- draw: usage and output
# Usage errors exit 2 with a message; a value that is no layout, or an output
# that cannot be written, exits 1 and leaves no file behind -- but a device
# named by -o (through a link here) is never removed.
draw_status() { # NAME STATUS STDERR_PATTERN -- ARGS...
  local name=$1 status=$2 pattern=$3 err rc
  shift 4
  err=$("$exe" draw "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = "$status" ] || fail "draw $name: exit status $rc, expected $status ($err)"
  case "$err" in *"$pattern"*) ;; *) fail "draw $name: stderr '$err' lacks '$pattern'" ;; esac
}
draw_status "-o without a file" 2 "cute-layout: draw: option '-o' needs a value" -- 8:1 -o
draw_status "--output= empty" 2 "cute-layout: draw: --output needs a file name" -- 8:1 --output=
draw_status "unknown option" 2 "cute-layout: draw: unknown option '--bogus'" -- 8:1 --bogus
draw_status "misspelt option" 2 "unknown option '--fromat'; did you mean '--format'?" -- 8:1 --fromat txt
draw_status "ambiguous value" 2 "--format must be svg, tex or txt, not 'text'" -- 8:1 --format text
draw_status "misspelt value" 2 "--format must be svg, tex or txt, not 'svgg'; did you mean 'svg'?" -- 8:1 -f svgg
draw_status "no such value" 2 "--format must be svg, tex or txt, not 'png'" -- 8:1 -fpng
draw_status "second expression" 2 "expected one EXPR, got a second one, '4:1'" -- 8:1 4:1
draw_status "third expression" 2 "expected at most two expressions, got a third one, '2:1'" -- 8:1 4:1 2:1
draw_status "misspelt colour" 2 "--colour must be index, bank, thread or value, not 'bnak'; did you mean 'bank'?" -- 8:1 -c bnak
draw_status "colour by thread" 1 "colour by thread needs a thread-value picture" -- 8:1 --color=thread
draw_status "colour by value, txt" 1 "colour by value needs a thread-value picture" -- '(2,4):(4,1)' -c value -f txt
draw_status "element bytes 0" 2 "--element-bytes wants a size in bytes, 1 to 1048576, not '0'" -- 8:1 --element-bytes=0
draw_status "element bytes 2^20+1" 2 "not '1048577'" -- 8:1 --element-bytes 1048577
draw_status "element bytes text" 2 "not '4B'" -- 8:1 --element-bytes 4B
draw_status "negative highlight" 2 "--highlight wants a linear coordinate (0 or more), not '-1'" -- 8:1 --highlight=-1
draw_status "highlight outside" 1 "the highlighted coordinate 8 is outside the 1x8 grid" -- 8:1 --highlight 8
draw_status "highlight outside the tile" 1 "outside the 4x2 tile" -- '(4,2):(2,1)' --tv 4,2 --highlight 8
draw_status "side by side of one" 2 "--side-by-side=copy wants two expressions, A and B" -- --side-by-side=copy 8:1
draw_status "side by side, no such" 2 "--side-by-side must be composition or copy, not 'compose'" -- --side-by-side=compose 8:1 8:1
draw_status "side by side, tv" 2 "--side-by-side draws grids; it takes no --tv" -- --side-by-side=copy 8:1 8:1 --tv 2,4
draw_status "copy of two sizes" 1 "a copy needs a source and a destination of one size, not 8 and 4" -- --side-by-side=copy 8:1 4:1
# Distributions (docs/distributed.md): each cell its rank; bad text and
# pictures a distribution has not are refused.
draw_status "dist, bad placement" 1 "'Foo' is not a placement" -- 'dist((4,6), 2, Foo)'
draw_status "dist, overlapping layout" 1 "puts two elements at rank 0" -- 'dist(8, 2, 4, 8:0)' -f txt
draw_status "dist, tv" 1 "a distribution has no thread-value" -- 'dist(8, 2, Shard(0))' --tv 2,4
expect_output "draw a block-cyclic distribution" 0 "rank of each element (2 ranks, 1 replica)
rank 1: one row, cell n shows L(n)
      0   1   2   3   4   5   6   7 
    +---+---+---+---+---+---+---+---+
 0  | 0 | 0 | 1 | 1 | 0 | 0 | 1 | 1 |
    +---+---+---+---+---+---+---+---+" -- draw ' dist (8, 2, BlockCyclic(0,2))' -f txt
draw_status "composition of a swizzle" 1 "'Sw<3,3,3>' is a swizzle" -- --side-by-side=composition 'Sw<3,3,3>' '(8,8):(8,1)'
draw_status "failing composition" 1 "cute-layout: draw: composition: shape divisibility condition" -- --side-by-side=composition '(6,2):(2,1)' '(4,2):(2,1)'
draw_status "failing B" 1 "cute-layout: draw: " -- --side-by-side=composition '8:1' 'make_layout('
draw_status "no expression" 2 "expected an expression to draw" -- -f txt
draw_status "bad tile" 2 "--tv wants the tile as M,N" -- 8:1 --tv=0,4
draw_status "failing expression" 1 "cute-layout: draw: shape_div: division by zero (4 % 0)" -- 'make_layout(shape_div(4,0))'
draw_status "boolean" 1 "'true' is a boolean, not a layout" -- true
draw_status "tag" 1 "is a tag (LayoutLeft/LayoutRight), not a layout" -- LayoutRight
draw_status "swizzle" 1 "draw composition(Sw, L) instead" -- 'Sw<3,3,3>'
draw_status "text" 1 "is text, not a layout" -- 'print1D(8:1)'
draw_status "swizzle inside" 1 "inner function is a swizzle, which has no grid" -- 'composition((8,8):(8,1),0,Sw<1,1,1>)'
draw_status "unwritable" 1 "cute-layout: draw: cannot write '$work/no/such/dir.svg'" -- 8:1 -o "$work/no/such/dir.svg"
draw_status "swizzle innermost" 1 "inner function is a swizzle, which has no grid" -- '(4,4):(4,1) o 0 o 16:1 o 0 o Sw<1,1,1>'
# bank_conflicts and swizzle_search in the eval language (banks.h; the numbers
# are derived in docs/bank-conflicts.md): a plain and a swizzled layout, the
# search, and each argument that is not what the function takes.
while IFS=$'\t' read -r expr want; do
  got=$("$exe" eval "$expr" 2>&1)
  case $got in "$want"*) ;; *) fail "eval $expr: got '$got', want '$want'" ;; esac
done <<'EOF_BANKS'
bank_conflicts(((8,4),8):((1,64),8), (8,64):(64,1), 16)	(32,4)
bank_conflicts(((8,4),8):((1,64),8), composition(Swizzle(3,3,3),(8,64):(64,1)), 16)	(4,4)
bank_conflicts((32,1):(33,0), 4096:1, 32)	(1,1)
swizzle_search((8,64):(64,1), 16, ((8,4),8):((1,64),8))	Sw<3,3,3> o 0 o (8,64):(64,1)
swizzle_search((32,32):(32,1), 32, (32,32):(1,32), (32,32):(32,1))	Sw<3,2,3> o 0 o (32,32):(32,1)
swizzle_search(128:1, 32, (32,4):(4,1))	Sw<0,0,0> o 0 o 128:1
bank_conflicts((32,1):(1,0), 16:1, 32)	error: bank_conflicts: thread 16's value 0 is tile index 16, outside
bank_conflicts((32,1):(1,0), 64:1, 12)	error: bank_conflicts: elements of 12 bits
bank_conflicts(32:1, 64:1, 32)	error: bank_conflicts: a TV layout has rank 2
bank_conflicts((32,1):(1,0), Sw<1,1,1>, 32)	error:
bank_conflicts((32,1):(1,0), 64:1, (1,2))	error:
swizzle_search(composition(Swizzle(1,1,1),64:1), 32, (32,1):(1,0))	error:
swizzle_search(64:1, 32, (1,2))	error:
swizzle_search(64:1, 32, (32,1):(1,0), (32,1):(2,0))	Sw<1,0,5> o 0 o 64:1
swizzle_search_padded((32,32):(32,1), 32, (32,1):(32,0), ((2,2,2,2,2),1):((33,1,4,8,16),0))	(32,32):(33,1)
swizzle_search_padded((8,64):(64,1), 16, ((8,4),8):((1,64),8))	Sw<3,3,3> o 0 o (8,64):(64,1)
swizzle_search_padded(4096:1, 32, (32,1):(0,0))	Sw<0,0,0> o 0 o 4096:1
swizzle_search_padded(64:1, 32, (1,2))	error: swizzle_search_padded: argument 3 must be a layout
swizzle_search_padded(8:1, 12, (8,1):(1,0))	error: swizzle_search_padded: bank_conflicts: elements of 12 bits
bank_conflicts(make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N,half_t),make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1),(32,32,16))), (32,16):(16,1))	(32,16)
bank_conflicts(make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N,half_t),make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1),(32,32,16))), composition(Swizzle(3,3,3),(32,16):(64,1)))	(16,16)
bank_conflicts(make_tiled_copy_C(copy_atom(SM90_U32x4_STSM_N,half_t),make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1),(32,32,16))), (32,32):(32,1))	(64,16)
bank_conflicts(make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t),(16,8):(8,1),(1,8)), (16,64):(64,1))	(16,16)
bank_conflicts(8:1, 8:1)	error: bank_conflicts: with two arguments, argument 1 must be a tiled copy
EOF_BANKS

# --banks: the title counts a warp's ldmatrix-like rows over the plain rows
# (8 rows of 128 bytes in one bank group: 32 wavefronts, ideal 4) and over
# CuTe's 128-byte swizzle (conflict-free); the plain picture outlines a
# conflicting cell, the swizzled one none; cells are coloured by bank.
rows='((8,4),8):((1,64),8)'
"$exe" draw '(8,64):(64,1)' --banks "$rows" --element-bytes 2 > "$work/banks.svg" || fail "draw --banks: exit status $?"
grep -q 'bank_conflicts = (32,4); warp 0, vector 0: 32 wavefronts (ideal 4)' "$work/banks.svg" || fail "draw --banks: title"
# every cell of the conflicting group is marked: lanes 0-7 read rows 0-7's first 16 bytes, 8 halves each
[ "$(grep '<g class="marks"' "$work/banks.svg" | grep -o '<rect' | wc -l)" = 64 ] ||
  fail "draw --banks: not the 64 cells of the conflicting quarter-warp marked"
"$exe" draw '(8,64):(64,1)' --banks "$rows" --element-bytes 2 --format txt > "$work/banks.txt"
grep -q '^marked (\*): 64 cells$' "$work/banks.txt" || fail "draw --banks txt: the marks' note"
marked=$(awk '/^ *[0-9]+  \|/ { n = split($0, c, "|"); for (k = 2; k < n; k++) if (c[k] ~ /\*/) printf "%d,%d ", $1, k - 2 }' "$work/banks.txt")
want=$(for m in 0 1 2 3 4 5 6 7; do for n in 0 1 2 3 4 5 6 7; do printf '%d,%d ' $m $n; done; done)
[ "$marked" = "$want" ] || fail "draw --banks txt: marked cells '$marked', want rows 0-7, columns 0-7"
# a 32-way conflict marks the whole column; a 2-way one the two words of bank 0
"$exe" draw '(32,32):(32,1)' --banks '(32,1):(1,0)' --format txt > "$work/column.txt"
[ "$(grep -c '| *\*[0-9]* |' "$work/column.txt")" = 32 ] || fail "draw --banks: a column read's 32 cells not marked"
grep -q 'warp 0, vector 0: 32 wavefronts (ideal 1)' "$work/column.txt" || fail "draw --banks: a column read's title"
"$exe" draw '64:1' --banks '(32,1):(2,0)' --format txt > "$work/stride2.txt"
[ "$(grep -o '\*[0-9][0-9]*' "$work/stride2.txt" | tr '\n' ' ')" = '*0 *32 ' ] || fail "draw --banks: stride 2 marks"
grep -q 'bank' "$work/banks.svg" || fail "draw --banks: no note on the bank colours"
"$exe" draw 'composition(Swizzle(3,3,3),(8,64):(64,1))' --banks "$rows" --element-bytes 2 > "$work/banks_sw.svg" ||
  fail "draw --banks swizzled: exit status $?"
grep -q 'bank_conflicts = (4,4)' "$work/banks_sw.svg" || fail "draw --banks swizzled: title"
grep -q 'class="marks"' "$work/banks_sw.svg" && fail "draw --banks swizzled: a cell marked"
draw_status "banks, not a layout" 1 "--banks wants a thread-value layout, not '(1,2)'" -- 64:1 --banks '(1,2)'
draw_status "banks, bad TV" 1 "cute-layout: draw: " -- 64:1 --banks 'make_layout('
draw_status "banks, outside" 1 "outside the shared-memory layout's 8 indices" -- 8:1 --banks '(32,1):(1,0)'
draw_status "banks with tv" 2 "--banks draws one shared-memory layout" -- 64:1 --banks '(32,1):(1,0)' --tv 8,8
draw_status "banks of a coordinate tensor" 1 "no thread-value, highlighted or bank picture" -- 'make_identity_tensor((4,4))' --banks '(16,1):(1,0)'

# A composed layout nested in another (CuTe's composition of a swizzled layout
# with its inverse): the swizzle twice is the identity on (4,4):(1,4)'s grid.
"$exe" draw -f txt 'Sw<1,0,2> o 0 o Sw<1,0,2> o 0 o (4,4):(1,4)' > "$work/nested.txt" || fail "draw nested: exit status $?"
grep -q '^ 2  |  2 |  6 | 10 | 14 |$' "$work/nested.txt" || fail "draw nested: row 2 is not 2 6 10 14"
"$exe" draw --help | grep -q "usage: cute-layout draw EXPR" || fail "draw --help"
"$exe" draw -- 8:1 --format=svg > /dev/null 2>&1 && fail "draw --: options after it are expressions"
"$exe" draw --format=txt -o "$work/row.txt" 8:2 || fail "draw --format= -o: exit status $?"
grep -q '| 12 | 14 |$' "$work/row.txt" || fail "draw -o: the txt picture of 8:2 does not end with L(6)=12, L(7)=14"
if [ -c /dev/full ]; then
  ln -s /dev/full "$work/full"
  draw_status "full device" 1 "writing the picture failed" -- 8:1 --format txt -o "$work/full"
  [ -L "$work/full" ] || fail "draw: a failed write removed the link -o named"
fi
# A picture that cannot be made leaves the file -o names as it was.
echo keep > "$work/kept.svg"
draw_status "too large for -o" 1 "a picture shows" -- '(2048,2048):(1,2048)' -o "$work/kept.svg"
[ "$(cat "$work/kept.svg" 2>/dev/null)" = keep ] || fail "draw: a failed picture changed the file -o names"

# ---------------------------------------------------------------- bad input
# Every line is an error line, in order, and nothing crashes.
deep_parens=$(printf '(%.0s' $(seq 1 5000))
deep_calls=$(printf 'size(%.0s' $(seq 1 5000))
long_tuple="($(printf '1,%.0s' $(seq 1 100000))1)"
{
  printf '%s\n' '(' ')' '(1,,2)' '1:' ':1' '(2,3):(1)' '(2,3):(1,2,3)' '9223372036854775808' \
    '-9223372036854775809' 'size()' 'size(1,2)' 'make_layout(_)' 'get((1,2),5)' 'get((1,2))' \
    'crd2idx((1,2,3),(2,3):(1,2))' 'slice((1,2,3),(2,3):(1,2))' 'print_layout(8:1)' 'print1D((2,3))' \
    'zip(():())' 'group((2,3):(1,2),2,1)' 'take((2,3):(1,2),1,1)' 'select((2,3):(1,2),2)' \
    'make_ordered_layout((2,3),((0,1),2))' 'idx2crd(5,(0,3))' 'ceil_div(7,0)' 'size((9223372036854775807,2))' \
    'unflatten((1,2,3),(0,0))' 'LayoutLeft:1' 'Sw<' '8 8' '"8"' 'size((2,3)' \
    "$deep_parens" "$deep_calls" "$long_tuple"
  printf 'size((2,\0003))\n'
  printf '8\0003\n'
  printf '\377\376(1,2)\n'
} > "$work/bad"
"$exe" eval - < "$work/bad" > "$work/bad.out" 2>"$work/bad.err"
rc=$?
[ "$rc" = 1 ] || fail "bad input: exit status $rc, expected 1 ($(head -c 300 "$work/bad.err"))"
want_lines=$(wc -l < "$work/bad")
[ "$(wc -l < "$work/bad.out")" = "$want_lines" ] || fail "bad input: $(wc -l < "$work/bad.out") output lines for $want_lines"
if grep -nv '^error: ' "$work/bad.out" | head -5 | grep -q .; then
  fail "bad input gave a value: $(grep -nv '^error: ' "$work/bad.out" | head -5)"
fi
if grep -q . "$work/bad.err"; then
  fail "bad input wrote to stderr: $(head -c 300 "$work/bad.err")"
fi
paste "$work/bad" "$work/bad.out" | awk -f "$(dirname "$0")/error_names.awk" > "$work/names.diff" ||
  fail "bad input: $(cat "$work/names.diff")"

# ---------------------------------------------------------------- a large batch
# 100,000 lines stream through with memory bounded by the longest line.
for n in 10000 100000; do
  awk -v n="$n" 'BEGIN {
    for (i = 0; i < n; i++) {
      k = i % 5
      if (k == 0) printf "make_layout((%d,(2,%d)),(%d,(7,1)))\n", i % 9 + 1, i % 5 + 1, i % 50 + 2
      else if (k == 1) print "print1D((2,(2,2)):(4,(2,1)))"
      else if (k == 2) print "crd2idx((1,(1,0)),(2,(2,2)):(4,(2,1)))"
      else if (k == 3) print "# comment"
      else print "slice((_,(1,_)),((2,3),(4,5)):((1,2),(6,24)))"
    }
  }' > "$work/big$n"
done
"$exe" eval - < "$work/big100000" > "$work/big.out" || fail "large batch: exit status $?"
[ "$(wc -l < "$work/big.out")" = 100000 ] || fail "large batch: $(wc -l < "$work/big.out") output lines"
[ "$(sed -n 2p "$work/big.out")" = "0 4 2 6 1 5 3 7" ] || fail "large batch: wrong second line"
[ "$(sed -n 99999p "$work/big.out")" = "" ] || fail "large batch: comment line not echoed as empty"
[ "$(sed -n 100000p "$work/big.out")" = "((2,3),5):((1,2),24)" ] || fail "large batch: wrong last line"
# Peak memory must not grow with the number of lines (skipped where GNU time
# is missing, under AddressSanitizer, whose quarantine holds freed memory, and
# under a wrapper such as valgrind, whose own memory would be measured).
if [ -x /usr/bin/time ] && [ -z "${CUTE_LAYOUT_TOOL_WRAPPER:-}" ] && ! grep -q __asan_init "$exe" 2>/dev/null; then
  rss() { /usr/bin/time -f '%M' "$exe" eval - < "$1" 2>&1 >/dev/null | tail -1; }
  small=$(rss "$work/big10000")
  large=$(rss "$work/big100000")
  if [ "$large" -gt $((small + 2048)) ]; then
    fail "large batch: peak memory grew from ${small} KiB (10,000 lines) to ${large} KiB (100,000 lines)"
  fi
fi

# ---------------------------------------------------------------- near INT64_MAX
# Answers that just fit are exact; one step further is an overflow error, never
# a wrapped value (docs/c-api.md, "Limits").
expect_output "near INT64_MAX" 1 "9223372030926249001
error: size: integer overflow in 3037000500 * 3037000500
error: size: integer overflow in 4294967296 * 4294967296
-9223372036854775808
error: product: integer overflow in -2 * -4611686018427387904
-9223372036854775808
error: column 1: integer does not fit in 64 bits
error: column 6: integer does not fit in 64 bits
9223372036854775807
error: cosize: integer overflow in 9223372036854775807 + 1
9223372036854775807
error: crd2idx: integer overflow in 2 + 9223372036854775806
(1,4611686018427387903)
error: crd2idx: integer overflow in 4611686018427387904 * 2
(1,2)
error: compact_col_major: integer overflow in 2 * 4611686018427387904
error: complement: integer overflow in 9223372036854775807 + 2
error: logical_product: integer overflow in 4294967296 * 4294967296
(2147483648,2147483648):(1,2147483648)
error: left_inverse: integer overflow in 2 * 4611686018427387904
9223372036854775807
((4):(1),-9223372036854775807)
0 9223372036854775807
error: print1D: integer overflow in 1 + 9223372036854775807" -- eval \
  'size((3037000499,3037000499))' 'size((3037000500,3037000500))' 'size((4294967296,4294967296))' \
  'product((2,-4611686018427387904))' 'product((-2,-4611686018427387904))' '-9223372036854775808' \
  '9223372036854775808' 'size(-9223372036854775809)' 'cosize(2:9223372036854775806)' 'cosize(2:9223372036854775807)' \
  'crd2idx(3,(2,2):(1,9223372036854775806))' 'crd2idx(3,(2,2):(2,9223372036854775806))' \
  'idx2crd(9223372036854775807,(2,4611686018427387904))' 'crd2idx((1,4611686018427387904),(2,4611686018427387904))' \
  'compact_col_major((2,2305843009213693952))' 'compact_col_major((2,4611686018427387904,2))' \
  'complement(2:1,9223372036854775807)' 'logical_product(4294967296:1,4294967296:1)' \
  'logical_product(2147483648:1,2147483648:1)' 'left_inverse(4611686018427387904:2)' \
  'max_common_vector(9223372036854775807:1,9223372036854775807:1)' \
  'slice_and_offset((1,_),(2,4):(-9223372036854775807,1))' 'print1D(2:9223372036854775807)' \
  'print1D((2,2):(1,9223372036854775807))'

# ---------------------------------------------------------------- limits
# Pictures of more than CL_PICTURE_MAX_CELLS entries are refused at once (they
# used to be printed entry by entry, for hours).
for e in 'print1D(1099511627776:1)' 'print_layout((1048576,1048576):(1,1048576))' \
    'print_layout((0,4611686018427387904):(1,1))' 'print1D(composition(Sw<3,3,3>,0,1099511627776:1))'; do
  got=$(timeout 10 "$exe" eval "$e" 2>&1)
  rc=$?
  [ "$rc" = 1 ] && [ "${got#error: }" != "$got" ] && [ "${got#*more than the 1048576 a picture shows}" != "$got" ] ||
    fail "picture limit: $e gave status $rc and '$(printf '%s' "$got" | head -c 200)'"
done
got=$(timeout 10 "$exe" draw '(1048576,1048576):(1,1048576)' --format txt 2>&1 >/dev/null)
rc=$?
[ "$rc" = 1 ] && [ "${got#*a picture shows}" != "$got" ] || fail "draw limit: status $rc, '$(printf '%s' "$got" | head -c 200)'"

# Deep nesting: an argument (100,000 parentheses or calls; an argument is at
# most 128 KiB on Linux) and a line of a million, each an error line at once.
deep_arg=$(head -c 100000 /dev/zero | tr '\0' '(')
calls_arg=$(for i in $(seq 1 20000); do printf 'size('; done)
expect_output "deep arguments" 1 "error: column 257: expression nested deeper than 256 levels
error: column 1281: expression nested deeper than 256 levels" -- eval "$deep_arg" "$calls_arg"

# Lines of 100 MB through one batch: a million-element tuple, a run of digits,
# a line of spaces, all longer than the 16 MiB `eval -` reads; then a million
# parentheses, the longest line it reads and one a byte longer.  Each is
# answered in bounded time and memory, and the batch goes on.  The time is CPU
# seconds of the tool (the generators may be slow); the memory bound is
# checked where GNU time is present, not under AddressSanitizer (its shadow
# and quarantine); neither is checked under a wrapper such as valgrind.
{
  printf '('
  yes '1,' | head -c 150000000 | tr -d '\n'
  printf '1)\n'
  head -c 100000000 /dev/zero | tr '\0' '9'
  echo
  head -c 100000000 /dev/zero | tr '\0' ' '
  echo
  head -c 1000000 /dev/zero | tr '\0' '('
  echo
  head -c 16777208 /dev/zero | tr '\0' ' '
  echo 'size(8)'
  head -c 16777209 /dev/zero | tr '\0' ' '
  echo 'size(8)'
  echo 'size((2,3))'
} > "$work/huge"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f '%U %S %M' -o "$work/huge.time" "$exe" eval - < "$work/huge" > "$work/huge.out" 2> "$work/huge.err"
else
  "$exe" eval - < "$work/huge" > "$work/huge.out" 2> "$work/huge.err"
fi
rc=$?
too_long="error: the line is longer than 16777215 bytes, the longest expression 'eval -' reads"
want="$too_long
$too_long
$too_long
error: column 257: expression nested deeper than 256 levels
8
$too_long
6"
[ "$rc" = 1 ] || fail "100 MB lines: exit status $rc ($(head -c 300 "$work/huge.err"))"
[ "$(cat "$work/huge.out")" = "$want" ] || fail "100 MB lines: output $(head -c 400 "$work/huge.out")"
if [ -s "$work/huge.time" ] && [ -z "${CUTE_LAYOUT_TOOL_WRAPPER:-}" ]; then
  read -r user sys rss < <(tail -1 "$work/huge.time") # after GNU time's exit status line
  awk -v u="$user" -v s="$sys" 'BEGIN { exit !(u + s < 10) }' ||
    fail "100 MB lines: ${user}s user + ${sys}s system, more than 10 s"
  if ! grep -q __asan_init "$exe" 2>/dev/null && [ "$rss" -gt 65536 ]; then
    fail "100 MB lines: peak memory ${rss} KiB, more than 64 MiB"
  fi
fi
rm -f "$work/huge" "$work/huge.out"

# ---------------------------------------------------------------- CuTe's answers
# All but print_layout in one batch; each print_layout on its own.
grep -v '^#' "$cases" | grep -v '^$' > "$work/cases"
grep -v '^print_layout' "$work/cases" > "$work/batch"
cut -f1 "$work/batch" > "$work/batch.in"
"$exe" eval - < "$work/batch.in" > "$work/batch.out"
paste "$work/batch" "$work/batch.out" | awk -F'\t' '
  { want = $2; got = $3
    ok = (want == "error") ? (substr(got, 1, 7) == "error: ") : (got == want)
    if (!ok) { bad++; if (bad <= 20) printf "  %s\n    CuTe: %s\n    ours: %s\n", $1, want, got } }
  END { if (bad) { printf "%d of %d differ from CuTe\n", bad, NR; exit 1 } }' > "$work/diff" ||
  fail "CuTe answers: $(cat "$work/diff")"
[ "$(wc -l < "$work/batch.out")" = "$(wc -l < "$work/batch")" ] || fail "CuTe answers: output line count"
paste "$work/batch" "$work/batch.out" | awk -f "$(dirname "$0")/error_names.awk" > "$work/names.diff" ||
  fail "error messages: $(cat "$work/names.diff")"
while IFS=$'\t' read -r expr want; do
  got=$("$exe" eval "$expr" 2>&1)
  if [ "$want" = error ]; then
    case $got in error:*) ;; *) fail "$expr: CuTe rejects it, ours: $got" ;; esac
  else
    want=${want//\\n/$'\n'}
    [ "$got" = "${want%$'\n'}" ] || fail "$expr: table differs from CuTe's"
  fi
done < <(grep '^print_layout' "$work/cases")

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all checks passed"
