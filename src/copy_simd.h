/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_simd.h: the copy kernels written once for any vector width, included
 * by each instruction set's translation unit (copy_sse2.c, copy_avx2.c,
 * copy_avx512.c) after it defines:
 *
 *   CL_SIMD_FN        the function attributes of the unit (its target)
 *   CL_SIMD_NAME(x)   the unit's name for kernel x (e.g. x##_avx2)
 *   vec               the vector type, VBYTES bytes (16, 32 or 64)
 *   load_lanes(ROW, r, k, c)  a vector whose 16-byte lane L is the 16 bytes
 *                     at ROW(r + L * k) + c, ROW a macro giving a row's
 *                     address (so lanes can come from different rows)
 *   load(p), store(p, v), stream(p, v)   unaligned load, unaligned store,
 *                     non-temporal store (p aligned to VBYTES)
 *   store_lane(p, v, L)  unaligned store of v's 16-byte lane L
 *   unpacklo_N(a, b), unpackhi_N(a, b)   interleave the N-byte elements of the
 *                     low (high) halves of each 16-byte lane of a and b
 *   evens_N(a, b)     in each 16-byte lane, the even-numbered N-bit elements
 *                     of a's lane, then those of b's lane
 *   halves_in_order(v)  the 8-byte halves of v reordered so that those that
 *                     came from a (above) come first, in order, then b's
 *   CL_SIMD_STRIDED   (optional) also define the strided and stashed tiles
 *   CL_SIMD_LINES8    (optional, VBYTES 64) lines_transpose8(v) transposes
 *                     the 8 x 8 elements of 8 bytes in vectors v[0..8)
 *
 * The tile transpose.  A line tile is S x S elements, S = 64 / E for E-byte
 * elements: S source rows of one 64-byte line each in, S destination lines
 * out, so both sides move whole cache lines.  It is cut into groups: the 16
 * bytes at column c of 16/E * LANES source rows (LANES = VBYTES / 16), lane L
 * of vector k holding row k + L * 16/E.  In each lane that is a square of
 * n = 16/E elements, and log2(n) rounds of
 *     w[2k] = unpacklo(v[k], v[k + n/2]),  w[2k+1] = unpackhi(v[k], v[k + n/2])
 * transpose every lane's square at once: writing an element's place as the
 * bits (row, column), each round rotates them left by one, so log2(n) rounds
 * swap row and column.  Vector k then holds destination row c/E + k, its lane
 * L the elements of source rows L * n .. L * n + n - 1: VBYTES contiguous
 * destination bytes.  The lane-crossing part of the transpose is done by the
 * loads, which put different rows in different lanes. */

#define CL_LANES (VBYTES / 16)
#define CL_LINE 64

/* The in-lane transpose of n = 16/E vectors, for each element size. */
#define CL_DEFINE_LANE_TRANSPOSE(E, N)                                               \
  CL_SIMD_FN static inline void CL_SIMD_NAME(lane_transpose##E)(vec *v) {            \
    _Pragma("GCC unroll 4") for (int round = 1; round < 16 / (E); round *= 2) {      \
      vec w[16 / (E)];                                                               \
      _Pragma("GCC unroll 16") for (int k = 0; k < 8 / (E); k++) {                   \
        w[2 * k] = unpacklo_##N(v[k], v[k + 8 / (E)]);                               \
        w[2 * k + 1] = unpackhi_##N(v[k], v[k + 8 / (E)]);                           \
      }                                                                              \
      _Pragma("GCC unroll 16") for (int k = 0; k < 16 / (E); k++) v[k] = w[k];       \
    }                                                                                \
  }
CL_DEFINE_LANE_TRANSPOSE(1, 8)
CL_DEFINE_LANE_TRANSPOSE(2, 16)
CL_DEFINE_LANE_TRANSPOSE(4, 32)
CL_DEFINE_LANE_TRANSPOSE(8, 64)
CL_SIMD_FN static inline void CL_SIMD_NAME(lane_transpose16)(vec *v) { (void)v; }

CL_SIMD_FN static inline void CL_SIMD_NAME(put)(char *p, vec v, bool nt) {
  if (nt)
    stream(p, v);
  else
    store(p, v);
}

/* Where a tile finds its rows: source row r's line at TILE_SRC(r), the
 * destination row c's at TILE_DST(c).  Each tile is defined (below) with
 * tables of row pointers, for rows anywhere (line_tile), and where the set
 * asks for it with evenly spaced rows (strided_tile), which spares the
 * loads of 2 S row pointers a tile (with AVX-512 on Sapphire Rapids the
 * 4096 x 4096 byte transpose runs 8% faster). */

/* The n x groups vectors v, destination rows c/E .. c/E + n - 1, stored. */
#define CL_TILE_PUT(E)                                                                                   \
  _Pragma("GCC unroll 16") for (int k = 0; k < n; k++)                                                   \
    _Pragma("GCC unroll 4") for (int g = 0; g < groups; g++)                                             \
      CL_SIMD_NAME(put)(TILE_DST(c / (E) + k) + g * VBYTES, v[g][k], nt);

/* One line tile (r, c < S).  The groups of one 16-byte column of the source
 * lines give n destination rows; the 64 / VBYTES groups along the rows are
 * all transposed before anything is stored, so each destination line is
 * written by consecutive stores, which streaming stores combine into one
 * line write.  (For 1-byte elements in 32- or 16-byte vectors that holds
 * more vectors than there are registers, and the compiler keeps some in L1;
 * storing each group as it comes instead leaves half-written lines to be
 * flushed apart, 10 times slower on Sapphire Rapids.) */
#define CL_DEFINE_LINE_TILE(NAME, E) CL_DEFINE_TILE_COLUMNS(NAME, E, CL_LINE)
#define CL_DEFINE_TILE_COLUMNS(NAME, E, COLS)                                                            \
  CL_SIMD_FN static void CL_SIMD_NAME(NAME##E)(TILE_PARAMS, bool nt) {                                   \
    enum { n = 16 / (E), groups = CL_LINE / VBYTES, rows = VBYTES / (E) };                               \
    _Pragma("GCC unroll 4") for (int c = 0; c < (COLS); c += 16) {                                       \
      vec v[groups][n];                                                                                  \
      _Pragma("GCC unroll 4") for (int g = 0; g < groups; g++) {                                         \
        _Pragma("GCC unroll 16") for (int k = 0; k < n; k++)                                             \
          v[g][k] = load_lanes(TILE_SRC, g * rows + k, n, c);                                            \
        CL_SIMD_NAME(lane_transpose##E)(v[g]);                                                           \
      }                                                                                                  \
      CL_TILE_PUT(E)                                                                                     \
    }                                                                                                    \
  }

/* Prefetches into L2 the line at s of n rows ss apart, in each of K
 * blocks of rows `block` apart. */
CL_SIMD_FN static inline void CL_SIMD_NAME(fetch_rows)(const char *s, ptrdiff_t ss, int K, ptrdiff_t block, int n) {
  for (int u = 0; u < K; u++)
    for (int k = 0; k < n; k++)
      __builtin_prefetch(s + u * block + k * ss, 0, 2);
}

/* Stashed tiles: line tiles the other way round, for 1- and 2-byte
 * elements with evenly spaced rows, run in strips, one tile high
 * (stashed_strip), two (stashed_pair) or four (stashed_quad).  Each group
 * of n source rows is loaded as whole lines and transposed in-lane into a
 * stash of S lines on the stack, whose row q + k then holds, in its 16
 * bytes at c, destination row c/E + k's elements from source rows q .. q +
 * n - 1; load_lanes from the stash put those pieces side by side.  The
 * line tile above reads each source line in 64/16 pieces at different
 * times instead, and with S >= 32 rows that share an L1 set (rows a
 * multiple of 4 KiB apart, 12 ways) every piece comes from L2 again; and a
 * pair of line tiles would store each destination row's two lines 64
 * stores apart, where streaming stores want them together. */
#define CL_STASH_ROW(r) (stash + (r) * CL_LINE)
#define CL_DEFINE_STASHED(E)                                                                             \
  /* Source rows q .. q + n - 1 into the same rows of the stash. */                                     \
  CL_SIMD_FN static inline void CL_SIMD_NAME(stash_rows##E)(char *stash, const char *s, ptrdiff_t ss, int q) { \
    enum { n = 16 / (E) };                                                                               \
    _Pragma("GCC unroll 4") for (int h = 0; h < CL_LINE; h += VBYTES) {                                  \
      vec v[n];                                                                                          \
      /* One pointer walks the rows (hidden from the compiler, which would                              \
       * otherwise keep n row addresses per group and spill them). */                                   \
      const char *row = s + q * ss + h;                                                                  \
      _Pragma("GCC unroll 16") for (int k = 0; k < n; k++) {                                             \
        v[k] = load(row);                                                                                \
        row += ss;                                                                                       \
        __asm__("" : "+r"(row));                                                                         \
      }                                                                                                  \
      CL_SIMD_NAME(lane_transpose##E)(v);                                                                \
      _Pragma("GCC unroll 16") for (int k = 0; k < n; k++) store(stash + (q + k) * CL_LINE + h, v[k]);   \
    }                                                                                                    \
  }                                                                                                      \
  /* Destination rows c/E .. c/E + n - 1 (TILE_DST) from K stashes, those   \
   * of K tiles stacked along the destination rows: each row's K lines are   \
   * stored one after the other. */                                         \
  CL_SIMD_FN static inline void CL_SIMD_NAME(unstash_rows##E)(char *d, ptrdiff_t ds, const char *stashes, int K, \
                                                              int c, bool nt) {                          \
    enum { n = 16 / (E), groups = CL_LINE / VBYTES, rows = VBYTES / (E), S = CL_LINE / (E) };           \
    _Pragma("GCC unroll 16") for (int k = 0; k < n; k++)                                                 \
      _Pragma("GCC unroll 4") for (int u = 0; u < K; u++) {                                              \
        const char *stash = stashes + u * S * CL_LINE;                                                   \
        vec v[groups];                                                                                   \
        _Pragma("GCC unroll 4") for (int g = 0; g < groups; g++)                                         \
          v[g] = load_lanes(CL_STASH_ROW, g * rows + k, n, c);                                           \
        _Pragma("GCC unroll 4") for (int g = 0; g < groups; g++)                                         \
          CL_SIMD_NAME(put)(TILE_DST(c / (E) + k) + u * CL_LINE + g * VBYTES, v[g], nt);                 \
      }                                                                                                  \
  }                                                                                                      \
  /* `tiles` columns of K stacked stashed tiles side by side along the                                  \
   * source rows (column t from s + 64 t, its tile u from source row u S on,                            \
   * to d + S t ds + 64 u), software-pipelined: the next column's groups                                \
   * are stashed between this one's groups of stores, so loads and stores                               \
   * stay interleaved as in a plain copy instead of coming in bursts.  The                              \
   * stashes are hidden from the compiler, which would keep them in                                     \
   * registers and move their pieces with lane extracts: shuffles, the                                  \
   * cost they save.  With fetch, the K S rows after these get their lines                              \
   * of the next column prefetched into L2 beside each group. */                                        \
  CL_SIMD_FN static inline void CL_SIMD_NAME(stashed_tiles##E)(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, \
                                                               int64_t tiles, int K, bool fetch, bool nt) { \
    enum { n = 16 / (E), S = CL_LINE / (E) };                                                            \
    _Alignas(CL_LINE) char lines[2][4 * S * CL_LINE]; /* this column's stashes, the next one's: K <= 4 */ \
    for (int u = 0; u < K; u++)                                                                          \
      _Pragma("GCC unroll 4") for (int q = 0; q < S; q += n)                                             \
        CL_SIMD_NAME(stash_rows##E)(lines[0] + u * S * CL_LINE, s + u * S * ss, ss, q);                  \
    for (int64_t t = 0; t < tiles; t++) {                                                                \
      char *stash = lines[t % 2], *next = lines[(t + 1) % 2];                                            \
      __asm__("" : "+r"(stash), "+r"(next) : : "memory");                                                \
      for (int p = 0; p < S / n; p++) {                                                                  \
        if (t + 1 < tiles) {                                                                             \
          for (int u = 0; u < K; u++)                                                                    \
            CL_SIMD_NAME(stash_rows##E)(next + u * S * CL_LINE, s + u * S * ss + (t + 1) * CL_LINE, ss, p * n); \
          if (fetch)                                                                                     \
            CL_SIMD_NAME(fetch_rows)(s + (K * S + p * n) * ss + t * CL_LINE, ss, K, S * ss, n);          \
        }                                                                                                \
        CL_SIMD_NAME(unstash_rows##E)(d + t * S * ds, ds, stash, K, p * 16, nt);                         \
      }                                                                                                  \
    }                                                                                                    \
  }                                                                                                      \
  CL_SIMD_FN static void CL_SIMD_NAME(stashed_strip##E)(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, \
                                                        int64_t tiles, bool fetch, bool nt) {            \
    CL_SIMD_NAME(stashed_tiles##E)(d, ds, s, ss, tiles, 1, fetch, nt);                                   \
  }                                                                                                      \
  CL_SIMD_FN static void CL_SIMD_NAME(stashed_pair##E)(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, \
                                                       int64_t tiles, bool fetch, bool nt) {             \
    CL_SIMD_NAME(stashed_tiles##E)(d, ds, s, ss, tiles, 2, fetch, nt);                                   \
  }                                                                                                      \
  CL_SIMD_FN static void CL_SIMD_NAME(stashed_quad##E)(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, \
                                                       int64_t tiles, bool fetch, bool nt) {             \
    CL_SIMD_NAME(stashed_tiles##E)(d, ds, s, ss, tiles, 4, fetch, nt);                                   \
  }

/* Where a vector is a whole line and the set transposes 8 of them as 8 x 8
 * elements of 8 bytes (lines_transpose8), a tile of 8-byte elements loads
 * each source line whole, once, transposes in registers and stores whole
 * lines; the line tile reads each source line in four 16-byte pieces (on
 * Sapphire Rapids, in six processes each, the float64 permutation 256^3
 * ran 1.00-1.03x faster this way, the 4096 x 4096 float64 transpose
 * 1.02-1.04x). */
#ifdef CL_SIMD_LINES8
#define CL_DEFINE_TILE8(NAME)                                                                            \
  CL_SIMD_FN static void CL_SIMD_NAME(NAME##8)(TILE_PARAMS, bool nt) {                                   \
    vec v[8];                                                                                            \
    _Pragma("GCC unroll 8") for (int r = 0; r < 8; r++) v[r] = load(TILE_SRC(r));                       \
    lines_transpose8(v);                                                                                 \
    _Pragma("GCC unroll 8") for (int c = 0; c < 8; c++) CL_SIMD_NAME(put)(TILE_DST(c), v[c], nt);        \
  }
#else
#define CL_DEFINE_TILE8(NAME) CL_DEFINE_LINE_TILE(NAME, 8)
#endif

#define CL_DEFINE_LINE_TILES(NAME)                                                                       \
  CL_DEFINE_LINE_TILE(NAME, 1)                                                                           \
  CL_DEFINE_LINE_TILE(NAME, 2)                                                                           \
  CL_DEFINE_LINE_TILE(NAME, 4)                                                                           \
  CL_DEFINE_TILE8(NAME)                                                                                  \
  CL_DEFINE_LINE_TILE(NAME, 16)

#define TILE_PARAMS char *const *d, size_t doff, const char *const *s, size_t soff
#define TILE_SRC(r) (s[r] + soff)
#define TILE_DST(c) (d[c] + doff)
CL_DEFINE_LINE_TILES(line_tile)
/* Short tiles (copy_kernels.h): one 16-byte column of a line tile. */
CL_DEFINE_TILE_COLUMNS(short_tile, 1, 16)
CL_DEFINE_TILE_COLUMNS(short_tile, 2, 16)
CL_DEFINE_TILE_COLUMNS(short_tile, 4, 16)
CL_DEFINE_TILE_COLUMNS(short_tile, 8, 16)
#undef TILE_PARAMS
#undef TILE_SRC
#undef TILE_DST

/* The strided and stashed tiles only where CL_SIMD_STRIDED asks for them:
 * the compiler spills a strided tile's row addresses, and in AVX2 and SSE2
 * that made it slower than reading them from the strip's tables (on
 * Sapphire Rapids, the 4096 x 4096 byte transpose 0.91-0.97x). */
#ifdef CL_SIMD_STRIDED
#define TILE_PARAMS char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss
#define TILE_SRC(r) (s + (r) * ss)
#define TILE_DST(c) (d + (c) * ds)
CL_DEFINE_LINE_TILES(strided_tile)
CL_DEFINE_STASHED(1)
CL_DEFINE_STASHED(2)
#undef TILE_PARAMS
#undef TILE_SRC
#undef TILE_DST
#endif

/* A narrow tile, for 1- and 2-byte elements going to a staging buffer: 16
 * source rows (one line of each) in, 64/E destination rows of 16*E bytes
 * out.  A line tile of such elements reads 64/E source rows at once, more
 * streams than the processor follows; a staging buffer needs no whole lines.
 * Vector k of a group holds VBYTES bytes of one row, its lanes being
 * neighbouring columns, so after the in-lane transpose lane L of vector k is
 * the piece of destination row (c + 16 L)/E + k. */
#define CL_DEFINE_NARROW_TILE(E)                                                                         \
  CL_SIMD_FN static void CL_SIMD_NAME(narrow_tile##E)(char *const *d, size_t doff, const char *const *s, size_t soff, bool nt) { \
    enum { n = 16 / (E) };                                                                               \
    (void)nt;                                                                                            \
    _Pragma("GCC unroll 4") for (int c = 0; c < CL_LINE; c += VBYTES) {                                  \
      _Pragma("GCC unroll 2") for (int g = 0; g < (E); g++) {                                            \
        vec v[n];                                                                                        \
        _Pragma("GCC unroll 16") for (int k = 0; k < n; k++)                                             \
          v[k] = load(s[g * n + k] + soff + c);                                                          \
        CL_SIMD_NAME(lane_transpose##E)(v);                                                              \
        _Pragma("GCC unroll 16") for (int k = 0; k < n; k++)                                             \
          _Pragma("GCC unroll 2") for (int L = 0; L < CL_LANES; L++)                                     \
            store_lane(d[(c + 16 * L) / (E) + k] + doff + g * 16, v[k], L);                              \
      }                                                                                                  \
    }                                                                                                    \
  }
CL_DEFINE_NARROW_TILE(1)
CL_DEFINE_NARROW_TILE(2)

/* Every other element (cl_compact_fn): two vectors of the source make one
 * of the destination.  A pair of vectors ends with the odd element after
 * its last even one, so it is loaded only where an element follows it. */
#define CL_DEFINE_COMPACT(E, N)                                                                          \
  CL_SIMD_FN static void CL_SIMD_NAME(compact##E)(char *d, const char *s, int64_t n, bool more) {        \
    enum { per = VBYTES / (E) };                                                                         \
    int64_t w = 0;                                                                                       \
    for (; w + per < n + more; w += per) {                                                               \
      const char *from = s + 2 * w * (E);                                                                \
      store(d + w * (E), halves_in_order(evens_##N(load(from), load(from + VBYTES))));                   \
    }                                                                                                    \
    for (; w < n; w++)                                                                                   \
      memcpy(d + w * (E), s + 2 * w * (E), (E));                                                         \
  }
CL_DEFINE_COMPACT(1, 8)
CL_DEFINE_COMPACT(2, 16)
CL_DEFINE_COMPACT(4, 32)
CL_DEFINE_COMPACT(8, 64)

/* n bytes from s to d, d aligned to a line and n a multiple of the line:
 * streaming stores, whole lines. */
CL_SIMD_FN static void CL_SIMD_NAME(stream_lines)(char *d, const char *s, size_t n) {
  for (size_t k = 0; k < n; k += CL_LINE)
    _Pragma("GCC unroll 4") for (int v = 0; v < CL_LINE; v += VBYTES)
      stream(d + k + v, load(s + k + v));
}

#undef CL_DEFINE_LANE_TRANSPOSE
#undef CL_TILE_PUT
#undef CL_DEFINE_LINE_TILE
#undef CL_DEFINE_TILE_COLUMNS
#undef CL_DEFINE_COMPACT
#undef CL_STASH_ROW
#undef CL_DEFINE_STASHED
#undef CL_DEFINE_TILE8
#undef CL_DEFINE_LINE_TILES
#undef CL_DEFINE_NARROW_TILE
