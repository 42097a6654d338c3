#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# atoms_draw_test.sh: `cute-layout draw` of tiled MMAs and tiled copies: one
# <text class="cell"> per cell of A (M x K), B (N x K, drawn K x N above C)
# and C (M x N), or of the copy's source and destination tiles side by
# side; TikZ too; a large SM90 tiled MMA under 2 MiB; a copy atom alone is
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
# print_latex's arrangement: panels A (M x K = 32x16), B drawn K x N (16x16)
# above C (M x N = 32x16), B's cells as wide as C's and in C's columns.
panels=$(grep -o '<g class="panel" data-rows="[0-9]*" data-cols="[0-9]*"' "$work/mma.svg" | grep -o '[0-9]*' | tr '\n' ' ')
[ "$panels" = "32 16 16 16 32 16 " ] || fail "tiled MMA: panels (rows cols) $panels"
grep -q 'drawn transposed: row k, column n' "$work/mma.svg" || fail "tiled MMA: B not drawn transposed"
"$exe" draw 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1))' --format tex -o "$work/mma.tex" ||
  fail "tiled MMA TikZ"
[ "$(grep -c 'begin{scope}\[shift' "$work/mma.tex")" = 3 ] || fail "tiled MMA TikZ: not three panels"
# A 128x256x16 SM90 tiled MMA of 256 threads (38912 cells) stays under 2 MiB,
# every cell one <text class="cell">.
big='make_tiled_mma(SM90_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>,(2,1,1))'
"$exe" draw "$big" -o "$work/big.svg" || fail "128x256x16 tiled MMA draw"
size=$(wc -c < "$work/big.svg")
[ "$size" -lt 2097152 ] || fail "128x256x16 tiled MMA: $size bytes, not under 2 MiB"
[ "$(cells "$work/big.svg")" = $((128 * 16 + 16 * 256 + 128 * 256)) ] || fail "128x256x16 tiled MMA: $(cells "$work/big.svg") cells"
grep -q '>T255V127</text>' "$work/big.svg" || fail "128x256x16 tiled MMA: no T255V127"
# Its K extended to 64 by the permutation: 2^22 (thr,val) pairs in B (the
# 128 threads of a warpgroup all reach each element), still drawn.
"$exe" draw "make_tiled_mma(SM90_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>,(2,1,1),(_,_,64))" \
  -o "$work/big64.svg" || fail "128x256x64 tiled MMA draw"
[ "$(cells "$work/big64.svg")" = $((128 * 64 + 64 * 256 + 128 * 256)) ] || fail "128x256x64 tiled MMA: $(cells "$work/big64.svg") cells"
"$exe" draw 'SM70_8x8x4_F32F16F16F32_NT' -o "$work/atom.svg" || fail "MMA atom draw"
[ "$(cells "$work/atom.svg")" = $((32 + 32 + 64)) ] || fail "MMA atom: $(cells "$work/atom.svg") cells"
"$exe" draw 'make_tiled_copy(copy_atom(UniversalCopy<uint128_t>,half_t),(32,8):(8,1),(1,8))' -o "$work/copy.svg" ||
  fail "tiled copy draw"
[ "$(cells "$work/copy.svg")" = $((2 * 32 * 64)) ] || fail "tiled copy: $(cells "$work/copy.svg") cells"
# source and destination side by side: one band of panels, same top
tops=$(grep -o '<text class="title" x="[0-9]*" y="[0-9]*"' "$work/copy.svg" | grep -o 'y="[0-9]*"' | sort -u | wc -l)
[ "$tops" = 1 ] || fail "tiled copy: source and destination not side by side"
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

# The catalog for pickers: every MMA name draws, one line per name.
"$exe" functions --atoms > "$work/catalog" || fail "functions --atoms"
for family in mma copy type smem; do
  grep -q "^$family " "$work/catalog" || fail "functions --atoms: no $family names"
done
[ "$(grep -c -v -E '^(mma|copy|type|smem) [^ ]+$' "$work/catalog")" = 0 ] || fail "functions --atoms: a line not 'FAMILY NAME'"
grep -qx 'mma SM80_16x8x16_F32F16F16F32_TN' "$work/catalog" || fail "functions --atoms: no SM80_16x8x16_F32F16F16F32_TN"
first=$(grep -m1 '^mma SM90' "$work/catalog" | cut -d' ' -f2)
"$exe" eval "tile_shape(make_tiled_mma($first))" > /dev/null || fail "functions --atoms: $first does not evaluate"
grep -q '^type half_t$' "$work/catalog" || fail "functions --atoms: no half_t"

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "atoms draw: all checks passed"
