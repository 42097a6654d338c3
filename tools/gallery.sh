#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates the picture gallery, docs/gallery/*.svg and docs/gallery.md,
# with `cute-layout draw`.
#
#   tools/gallery.sh [CUTE_LAYOUT]
#
# CUTE_LAYOUT is the tool to use (default: build/src/cli/cute-layout, what
# the README's quick start builds).  Each picture's command is written under
# it in gallery.md, so a reader can make it again or change it.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$root/build/src/cli/cute-layout}
if [ ! -x "$tool" ]; then
  echo "gallery.sh: no cute-layout at $tool (build it, or pass its path)" >&2
  exit 2
fi
out=$root/docs/gallery
mkdir -p "$out"
md=$root/docs/gallery.md

cat > "$md" <<'HEAD'
# Gallery

Pictures drawn by `cute-layout draw` (regenerate them all with
`tools/gallery.sh`; the playground page, [pictures.md](pictures.md#the-playground), draws the same
ones as you type).  Each cell shows the index the layout maps its
coordinate to; by default colour runs from dark (smallest index) to light
(largest) on a perceptually even ramp, and `--colour bank` colours each cell
by its shared-memory bank instead.  Row coordinates are on the left, column
coordinates on top.  Where a mode is hierarchical, heavier lines mark where
an outer coordinate of it changes, so the tiles are visible.  Hover over a
cell in a browser to see its natural (hierarchical) coordinate.
HEAD

# picture NAME CAPTION EXPR [DRAW OPTIONS...]
picture() {
  local name=$1 caption=$2 expr=$3
  shift 3
  "$tool" draw "$expr" "$@" -o "$out/$name.svg"
  {
    printf '\n## %s\n\n' "$caption"
    printf '```console\n$ cute-layout draw %s%s%s' "'" "$expr" "'"
    local arg
    for arg in "$@"; do  # expressions among the options are quoted too
      if [[ $arg =~ ^[-A-Za-z0-9_.,=/]+$ ]]; then printf ' %s' "$arg"; else printf " '%s'" "$arg"; fi
    done
    printf ' -o %s.svg\n```\n\n' "$name"
    printf '%s\n' "$(cat)"
    printf '\n![%s](gallery/%s.svg)\n' "$caption" "$name"
  } >> "$md"
}

picture col_major "Column-major (LayoutLeft)" 'make_layout((4,8))' <<'TEXT'
`(4,8):(1,4)`: going down a column adds 1, going right adds 4, the Fortran
and BLAS order and CuTe's default.
TEXT

picture row_major "Row-major (LayoutRight)" 'make_layout((4,8),LayoutRight)' <<'TEXT'
`(4,8):(8,1)`: going right adds 1, going down adds 8, the C order.
TEXT

picture hierarchical "A hierarchical column mode" 'make_layout((4,(2,4)),(2,(1,8)))' <<'TEXT'
`(4,(2,4)):(2,(1,8))`: 4 rows, and 8 columns in blocks of 2; inside a block
the column step is 1, from block to block it is 8.  The heavier lines show the
blocks of the column mode `(2,4)`.
TEXT

picture swizzle "A swizzled shared-memory layout" \
  'composition(Swizzle(3,0,3),make_layout((8,8),LayoutRight))' <<'TEXT'
`Sw<3,0,3> o 0 o (8,8):(8,1)`: a row-major 8x8 tile of 16-byte chunks (eight
halves each, the `Sw<3,3,3>` layouts of half-precision GEMMs seen in units of
chunks) whose chunk index is XORed with its row, so the eight chunks of a
column land in eight different bank groups and a column read has no bank
conflicts.  Drawn as the inner layout's grid, each cell showing the composed
function's value.
TEXT

picture logical_divide "logical_divide: tiling by (2,4)" 'logical_divide(make_layout((8,8)),(2,4))' <<'TEXT'
`logical_divide((8,8):(1,8), (2,4))` is `((2,4),(4,2)):((1,2),(8,32))`: the
same function as the column-major 8x8 layout, with each mode split into
(inside a tile, which tile).  The heavier lines are the boundaries of the
2x4 tiles.
TEXT

picture zipped_divide "zipped_divide: one tile per column" 'zipped_divide(make_layout((8,8)),(2,4))' <<'TEXT'
`zipped_divide` gathers the tile modes into mode 0 and the rest into mode 1,
`((2,4),(4,2)):((1,8),(2,32))`: column n lists the 8 indices of tile n.
TEXT

picture raked_product "raked_product: a 2x2 tile raked over a 3x4 grid" \
  'raked_product(make_layout((2,2),LayoutRight),make_layout((3,4)))' <<'TEXT'
`raked_product((2,2):(2,1), (3,4):(1,3))` is `((3,2),(4,2)):((4,2),(12,1))`:
the elements of each 2x2 tile are spread out with a period of 3 rows and 4
columns, the interleaving a thread-value layout uses to spread a thread's
values.
TEXT

picture blocked_product "blocked_product: the same tiles kept together" \
  'blocked_product(make_layout((2,2),LayoutRight),make_layout((3,4)))' <<'TEXT'
`blocked_product((2,2):(2,1), (3,4):(1,3))` is `((2,3),(2,4)):((2,4),(1,12))`:
the 2x2 tile repeated as blocks on a 3x4 grid (compare `raked_product`).
TEXT

picture tv_mma "A thread-value layout: an SM80 MMA accumulator" '((4,8),(2,2)):((32,1),(16,8))' --tv 16,8 <<'TEXT'
`((4,8),(2,2)):((32,1),(16,8))` maps (thread, value) to an index of the 16x8
accumulator tile of an SM80 `mma.sync` m16n8: thread `t` holds rows `t/4` and
`t/4+8`, columns `2(t%4)` and `2(t%4)+1`.  Each cell shows which thread holds
it and as which of its values; colour is by thread.
TEXT

picture bank_row_major "Shared memory by bank: row-major, an 8-way conflict" \
  'make_layout((8,32),LayoutRight)' --colour bank <<'TEXT'
Eight rows of 32 floats (128 bytes a row) coloured by shared-memory bank,
`(index x 4 / 4) mod 32`: every row touches all 32 banks once, but every
column is a single bank, so eight threads reading one column wait for each
other (an 8-way bank conflict).
TEXT

picture bank_swizzled "Shared memory by bank: swizzled, conflict-free" \
  'composition(Swizzle(3,2,3),make_layout((8,32),LayoutRight))' --colour bank <<'TEXT'
The same rows through `Sw<3,2,3>`, which XORs the 16-byte chunk of each
element with its row number: each row still touches every bank once, and now
the eight cells of every column have eight different colours, eight banks: a
column read is conflict-free.  This is what the swizzle is for, and what the
index ramp of the plain picture hides.
TEXT

picture tv_mma_value "The MMA accumulators coloured by value" '((4,8),(2,2)):((32,1),(16,8))' --tv 16,8 --colour value <<'TEXT'
The thread-value layout above coloured by value number instead of thread:
each thread's four values `V0`..`V3` sit in the same places of its quad,
two columns side by side and the upper and lower 8-row halves.
TEXT

picture composition "composition(A,B), element by element" \
  '(6,2):(8,2)' '(4,3):(3,1)' --side-by-side=composition --highlight 5 <<'TEXT'
`A`, `B` and `composition(A,B)` side by side, one colour ramp for all:
`composition(A,B)(c) = A(B(c))`.  Coordinate 5 of `B`, `(1,1)`, holds 4;
coordinate 4 of `A` holds 32, and so does coordinate 5 of the composition:
the outlined cells are one element.
TEXT

picture copy_transpose "A copy that transposes, by bank" \
  '(4,8):(1,4)' '(4,8):(8,1)' --side-by-side=copy --colour bank --highlight 9 <<'TEXT'
The source (column-major) and destination (row-major) of a copy,
`destination(i) = source(i)`, coloured by bank: element 9, `(1,2)`, comes
from offset 9 and goes to offset 10.  Reading down a column of the source
and writing it into the destination touches the banks shown.
TEXT

picture tiled_mma "A tiled MMA, as CuTe's print_latex lays it out" \
  'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1))' <<'TEXT'
`SM80_16x8x16_F32F16F16F32_TN` (`mma.sync.m16n8k16`) on 2x2 warps, a 32x16x16
tile: C (M x N) in the middle, A (M x K) at its left, B (N x K) on top, drawn
K x N so that its columns are C's.  Each cell names the first thread and
value that hold it: thread 0 holds rows 0 and 8 of A and C, and each warp
its own 16x8 block of C (docs/atoms.md).
TEXT

echo "wrote $md and $(ls "$out" | wc -l) pictures in $out"
