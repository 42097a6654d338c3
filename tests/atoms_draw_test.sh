#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# atoms_draw_test.sh: `cute-layout draw` of tiled MMAs and tiled copies: one
# <text class="cell"> per cell of A (M x K), B (N x K) and C (M x N), or of
# the copy's source and destination tiles; TikZ too; a copy atom alone is
# no picture.
#
# usage: atoms_draw_test.sh CUTE_LAYOUT_EXE
set -u
exe=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/wrap_tool.sh"
exe=$(wrapped_tool "$exe" "$work")
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

cells() { grep -o '<text class="cell"' "$1" | wc -l; }

"$exe" draw 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1))' -o "$work/mma.svg" || fail "tiled MMA draw"
# tile (32,16,16): A 32x16, B 16x16, C 32x16
[ "$(cells "$work/mma.svg")" = 1280 ] || fail "tiled MMA: $(cells "$work/mma.svg") cells, not 1280"
grep -q 'T0V0' "$work/mma.svg" || fail "tiled MMA: no T0V0 label"
"$exe" draw 'SM70_8x8x4_F32F16F16F32_NT' -o "$work/atom.svg" || fail "MMA atom draw"
[ "$(cells "$work/atom.svg")" = $((32 + 32 + 64)) ] || fail "MMA atom: $(cells "$work/atom.svg") cells"
"$exe" draw 'make_tiled_copy(copy_atom(UniversalCopy<uint128_t>,half_t),(32,8):(8,1),(1,8))' -o "$work/copy.svg" ||
  fail "tiled copy draw"
[ "$(cells "$work/copy.svg")" = $((2 * 32 * 64)) ] || fail "tiled copy: $(cells "$work/copy.svg") cells"
"$exe" draw 'make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N,half_t),make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1)))' \
  --format tex -o "$work/copy.tex" || fail "tiled copy TikZ"
grep -q 'tikzpicture' "$work/copy.tex" || fail "tiled copy TikZ: no tikzpicture"
if "$exe" draw 'copy_atom(SM75_U32x4_LDSM_N,half_t)' > "$work/out" 2> "$work/err"; then
  fail "a copy atom alone drew a picture"
fi
grep -q 'copy atom' "$work/err" || fail "a copy atom alone: $(cat "$work/err")"
if "$exe" draw 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1))' --tv 4,4 > "$work/out" 2> "$work/err"; then
  fail "a tiled MMA took --tv"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "atoms draw: all checks passed"
