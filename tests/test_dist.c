/* SPDX-License-Identifier: BSD-3-Clause */
/* test_dist.c: distributions over ranks and redistribution plans (dist.h).
 *
 * A distribution built from placements puts every element where DTensor's
 * rules, written out here with integer arithmetic, say it lives; a generic
 * distribution where its layout says.  A plan is checked against a
 * brute-force reference: every rank's plan is run on simulated local
 * buffers (pack what the pieces of s list for q, unpack with what q lists
 * from s), and every replica of every element must arrive with its value,
 * nothing else written, the counts between every pair of ranks those of
 * the documented rule (a rank holding the element copies it locally, else
 * replica q mod replicas sends it).  Pairs of every family over 2, 4 and 8
 * ranks.  Then every error path. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static cl_dist_t *dist(const char *text) {
  cl_dist_t *d = NULL;
  cl_status s = cl_dist_parse(text, &d);
  if (s != CL_OK)
    fail_msg("cl_dist_parse(\"%s\") = %d: %s", text, s, cl_last_error());
  return d;
}

static void expect_parse_fails(const char *text, cl_status status) {
  cl_dist_t *d = (cl_dist_t *)1;
  cl_status s = cl_dist_parse(text, &d);
  if (s != status)
    fail_msg("cl_dist_parse(\"%s\") = %d (%s), not %d", text, s, cl_last_error(), status);
  assert_null(d);
  assert_true(strlen(cl_last_error()) > 0);
}

/* ---------------------------------------------------------- placements */

/* DTensor's rules in integers: a mesh dimension m sharding tensor
 * dimension d takes, along d, chunk j = c / block; chunks are dealt over the
 * mesh dims sharding d (the first outermost), rounds after rounds; a
 * Replicate dimension holds everything.  The local block is row-major. */
typedef struct placement_case {
  int modes;
  int64_t extent[2];
  int mesh_rank;
  int64_t mesh[2];
  cl_placement_t p[2];
} placement_case;

static void reference_place(const placement_case *c, const int64_t *crd, const int64_t *mesh_crd, int64_t *rank,
                            int64_t *offset, bool *holds) {
  int64_t block[2], rounds[2], local_extent[2];
  *holds = true;
  for (int d = 0; d < c->modes; d++) {
    int64_t q = 1, kind = -1, param = 0;
    for (int m = 0; m < c->mesh_rank; m++)
      if (c->p[m].kind != CL_PLACE_REPLICATE && c->p[m].dim == d) {
        q *= c->mesh[m];
        kind = c->p[m].kind;
        param = c->p[m].param;
      }
    if (kind == CL_PLACE_BLOCK_CYCLIC) {
      block[d] = param;
      rounds[d] = (c->extent[d] + param * q - 1) / (param * q);
    } else {
      rounds[d] = kind == CL_PLACE_STRIDED_SHARD ? param : 1;
      block[d] = (c->extent[d] + rounds[d] * q - 1) / (rounds[d] * q);
    }
    local_extent[d] = block[d] * rounds[d];
    /* The rank index along d: the mesh coordinates of the sharding dims,
     * row-major; it must be chunk mod q. */
    int64_t chunk = crd[d] / block[d], along = 0;
    for (int m = 0; m < c->mesh_rank; m++)
      if (c->p[m].kind != CL_PLACE_REPLICATE && c->p[m].dim == d)
        along = along * c->mesh[m] + mesh_crd[m];
    if (chunk % q != along)
      *holds = false;
  }
  *rank = 0;
  for (int m = 0; m < c->mesh_rank; m++)
    *rank = *rank * c->mesh[m] + mesh_crd[m];
  *offset = 0;
  for (int d = 0; d < c->modes; d++) {
    int64_t q = 1;
    for (int m = 0; m < c->mesh_rank; m++)
      if (c->p[m].kind != CL_PLACE_REPLICATE && c->p[m].dim == d)
        q *= c->mesh[m];
    int64_t local = crd[d] / (block[d] * q) * block[d] + crd[d] % block[d];
    *offset = *offset * local_extent[d] + local;
  }
}

static cl_dist_t *from_case(const placement_case *c) {
  cl_tuple_t *shape = NULL, *mesh = NULL;
  assert_int_equal(cl_tuple_from_ints(c->extent, c->modes, &shape), CL_OK);
  assert_int_equal(cl_tuple_from_ints(c->mesh, c->mesh_rank, &mesh), CL_OK);
  cl_dist_t *d = NULL;
  cl_status s = cl_dist_from_placements(shape, mesh, c->p, c->mesh_rank, &d);
  if (s != CL_OK)
    fail_msg("cl_dist_from_placements: %d %s", s, cl_last_error());
  cl_tuple_free(shape);
  cl_tuple_free(mesh);
  return d;
}

/* Every element's replicas are exactly the ranks the reference says hold
 * it, at the reference's offsets. */
static void check_placements(const placement_case *c) {
  cl_dist_t *d = from_case(c);
  int64_t ranks = 1, size = 1;
  for (int m = 0; m < c->mesh_rank; m++)
    ranks *= c->mesh[m];
  for (int k = 0; k < c->modes; k++)
    size *= c->extent[k];
  assert_int_equal(cl_dist_ranks(d), ranks);
  assert_int_equal(cl_dist_size(d), size);
  for (int64_t i = 0; i < size; i++) {
    int64_t crd[2] = {i % c->extent[0], c->modes > 1 ? i / c->extent[0] : 0};
    int64_t holders = 0;
    for (int64_t r = 0; r < ranks; r++) {
      int64_t mesh_crd[2] = {c->mesh_rank > 1 ? r / c->mesh[1] : r, c->mesh_rank > 1 ? r % c->mesh[1] : 0};
      int64_t rank, offset;
      bool holds;
      reference_place(c, crd, mesh_crd, &rank, &offset, &holds);
      assert_int_equal(rank, r);
      if (!holds)
        continue;
      bool found = false;
      for (int64_t k = 0; k < cl_dist_replicas(d); k++) {
        int64_t got_rank, got_offset;
        assert_int_equal(cl_dist_locate(d, i, k, &got_rank, &got_offset), CL_OK);
        if (got_rank == r) {
          assert_int_equal(got_offset, offset);
          found = true;
        }
      }
      if (!found)
        fail_msg("element %lld should be on rank %lld", (long long)i, (long long)r);
      holders++;
    }
    assert_int_equal(holders, cl_dist_replicas(d));
  }
  cl_dist_free(d);
}

static void test_placements_as_dtensor(void **state) {
  (void)state;
  const cl_placement_t R = {CL_PLACE_REPLICATE, 0, 0};
  const cl_placement_t S0 = {CL_PLACE_SHARD, 0, 0}, S1 = {CL_PLACE_SHARD, 1, 0};
  const cl_placement_t SS0 = {CL_PLACE_STRIDED_SHARD, 0, 2}, BC1 = {CL_PLACE_BLOCK_CYCLIC, 1, 2};
  const cl_placement_t BC0 = {CL_PLACE_BLOCK_CYCLIC, 0, 3};
  const cl_placement_t one_d[] = {S0, S1, R, SS0, BC1, BC0};
  const int64_t extents[][2] = {{8, 8}, {6, 10}, {13, 5}, {1, 3}};
  for (size_t e = 0; e < COUNT_OF(extents); e++) {
    for (int64_t P = 1; P <= 8; P *= 2)
      for (size_t i = 0; i < COUNT_OF(one_d); i++) {
        placement_case c = {2, {extents[e][0], extents[e][1]}, 1, {P, 1}, {one_d[i], R}};
        check_placements(&c);
      }
    const cl_placement_t two_d[][2] = {{S0, S1}, {S1, S0}, {S0, R}, {R, S1}, {S0, S0}, {S1, S1}, {R, R}, {BC0, BC1}};
    const int64_t meshes[][2] = {{2, 2}, {2, 4}, {4, 2}, {1, 3}};
    for (size_t m = 0; m < COUNT_OF(meshes); m++)
      for (size_t i = 0; i < COUNT_OF(two_d); i++) {
        placement_case c = {2, {extents[e][0], extents[e][1]}, 2, {meshes[m][0], meshes[m][1]}, {two_d[i][0], two_d[i][1]}};
        check_placements(&c);
      }
  }
}

/* Torch's uneven Shard: 10 over 4 ranks is 3, 3, 3, 1 (blocks of
 * ceil(10/4)); 13 rows over 8 ranks: 2 each for ranks 0-5, 1 for rank 6,
 * none for rank 7. */
static void test_uneven_shards(void **state) {
  (void)state;
  cl_dist_t *d = dist("dist(10, 4, Shard(0))");
  int64_t held[4] = {0};
  for (int64_t i = 0; i < 10; i++) {
    int64_t r, o;
    assert_int_equal(cl_dist_locate(d, i, 0, &r, &o), CL_OK);
    held[r]++;
    assert_int_equal(o, i % 3);
  }
  assert_int_equal(held[0], 3);
  assert_int_equal(held[2], 3);
  assert_int_equal(held[3], 1);
  assert_int_equal(cl_dist_local_size(d), 3);
  cl_dist_free(d);
  d = dist("dist(13, 8, Shard(0))");
  int64_t held8[8] = {0};
  for (int64_t i = 0; i < 13; i++) {
    int64_t r, o;
    assert_int_equal(cl_dist_locate(d, i, 0, &r, &o), CL_OK);
    held8[r]++;
  }
  assert_int_equal(held8[5], 2);
  assert_int_equal(held8[6], 1);
  assert_int_equal(held8[7], 0);
  cl_dist_free(d);
}

/* ScaLAPACK's block-cyclic split: block b of global index i is on rank
 * (i / b) mod P, at local index (i / (b P)) b + i mod b. */
static void test_block_cyclic(void **state) {
  (void)state;
  for (int64_t P = 1; P <= 8; P *= 2)
    for (int64_t b = 1; b <= 5; b++)
      for (int64_t n = 1; n <= 23; n += 3) {
        char text[96];
        snprintf(text, sizeof text, "dist(%lld, %lld, BlockCyclic(0, %lld))", (long long)n, (long long)P, (long long)b);
        cl_dist_t *d = dist(text);
        for (int64_t i = 0; i < n; i++) {
          int64_t r, o;
          assert_int_equal(cl_dist_locate(d, i, 0, &r, &o), CL_OK);
          assert_int_equal(r, (i / b) % P);
          assert_int_equal(o, i / (b * P) * b + i % b);
        }
        cl_dist_free(d);
      }
}

/* The generic form is its layout; the text round-trips. */
static void test_generic_form(void **state) {
  (void)state;
  const char *texts[] = {
      "dist((8,8), 4, 16, ((2,4),8):((1,16),2))",          /* row blocks, stored column-major */
      "dist((8,8), 4, 16, (8,(2,4)):(2,(1,16)))",          /* column blocks */
      "dist((8,8), 4, 32, ((4,2),8,2):((1,64),4,32))",     /* halves on ranks 0-1 and 2-3 */
      "dist((4,6), 2, 12, ((2,2),(3,2)):((1,12),(2,6)))", /* a 2x3 tile dealt as a checkerboard */
      "dist(10, 2, 5, 10:1)",                             /* rank-1, no replica mode */
      "dist((3,2), 1, 8, (3,2):(2,3))",                   /* injective, though its strides interleave */
      "dist((2,3), 2, 4, (2,3):(4,1))",                   /* a row a rank, one place of padding */
  };
  for (size_t t = 0; t < COUNT_OF(texts); t++) {
    cl_dist_t *d = dist(texts[t]);
    cl_layout_t *layout = NULL;
    assert_int_equal(cl_dist_layout(d, &layout), CL_OK);
    cl_tuple_t *shape = NULL;
    assert_int_equal(cl_dist_shape(d, &shape), CL_OK);
    int64_t modes = cl_tuple_rank(shape), L = cl_dist_local_size(d);
    assert_int_equal(cl_layout_rank(layout), modes + 1);
    for (int64_t i = 0; i < cl_dist_size(d); i++)
      for (int64_t k = 0; k < cl_dist_replicas(d); k++) {
        /* The layout evaluated at (c, k) directly. */
        int64_t crd[3], rest = i;
        for (int64_t m = 0; m < modes; m++) {
          int64_t e = 0;
          cl_tuple_t *mode = NULL;
          if (cl_tuple_kind(shape) == CL_KIND_INT)
            assert_int_equal(cl_tuple_value(shape, &e), CL_OK);
          else {
            assert_int_equal(cl_tuple_get(shape, &m, 1, &mode), CL_OK);
            assert_int_equal(cl_tuple_value(mode, &e), CL_OK);
          }
          cl_tuple_free(mode);
          crd[m] = rest % e;
          rest /= e;
        }
        crd[modes] = k;
        cl_tuple_t *c = NULL;
        assert_int_equal(cl_tuple_from_ints(crd, modes + 1, &c), CL_OK);
        int64_t v, r, o;
        assert_int_equal(cl_layout_eval_coord(layout, c, &v), CL_OK);
        assert_int_equal(cl_dist_locate(d, i, k, &r, &o), CL_OK);
        assert_int_equal(r, v / L);
        assert_int_equal(o, v % L);
        cl_tuple_free(c);
      }
    char text[256], again[256];
    int64_t n = cl_dist_format(d, text, sizeof text);
    assert_true(n > 0 && n < (int64_t)sizeof text);
    cl_dist_t *round = dist(text);
    assert_int_equal(cl_dist_format(round, again, sizeof again), n);
    assert_string_equal(text, again);
    cl_dist_free(round);
    cl_tuple_free(shape);
    cl_layout_free(layout);
    cl_dist_free(d);
  }
  /* A layout of more leaves than the stride proof takes (70) is checked
   * place by place, and accepted. */
  char many[512] = "dist(2, 2, 1, ((", *at = many + strlen(many);
  for (int i = 0; i < 69; i++)
    at += sprintf(at, "1,");
  strcat(many, "2)):((");
  at = many + strlen(many);
  for (int i = 0; i < 69; i++)
    at += sprintf(at, "0,");
  strcat(many, "1)))");
  cl_dist_t *wide = dist(many);
  int64_t rank = -1, offset = -1;
  assert_int_equal(cl_dist_locate(wide, 1, 0, &rank, &offset), CL_OK);
  assert_int_equal(rank, 1);
  assert_int_equal(offset, 0);
  cl_dist_free(wide);
  /* Placements format as their layout. */
  cl_dist_t *d = dist("dist((4,4), (2,2), Shard(0), Shard(1))");
  char text[128];
  cl_dist_format(d, text, sizeof text);
  assert_string_equal(text, "dist((4,4), 4, 4, ((2,2),(2,2),(1)):((2,8),(1,4),(0)))");
  assert_int_equal(cl_dist_format(d, NULL, 0), (int64_t)strlen(text));
  cl_dist_free(d);
}

/* ---------------------------------------------------------- the two walks */

/* Every rank's plan by the walk of segments is the reference walk's,
 * piece for piece: the same counts, pieces, hash and pattern. */
static void expect_walks_agree(const cl_dist_t *src, const cl_dist_t *dst, const char *what) {
  for (int64_t r = 0; r < cl_dist_ranks(src); r++) {
    cl_dist_plan_t *fast = NULL, *ref = NULL;
    cl_status s = cl_dist_plan_new(src, dst, 4, r, &fast);
    setenv("CUTELAYOUT_DIST_PLAN", "elements", 1);
    cl_status t = cl_dist_plan_new(src, dst, 4, r, &ref);
    unsetenv("CUTELAYOUT_DIST_PLAN");
    if (s != CL_OK || t != CL_OK)
      fail_msg("%s: rank %lld: plans %d and %d: %s", what, (long long)r, s, t, cl_last_error());
    assert_true(cl_dist_plan_hash(fast) == cl_dist_plan_hash(ref));
    assert_int_equal(cl_dist_plan_is_all_to_all(fast), cl_dist_plan_is_all_to_all(ref));
    for (int64_t q = 0; q < cl_dist_ranks(src); q++)
      for (int dir = CL_DIST_SEND; dir <= CL_DIST_RECV; dir++) {
        int64_t elements[2], pieces[2];
        assert_int_equal(cl_dist_plan_peer(fast, q, (cl_dist_direction)dir, &elements[0], &pieces[0]), CL_OK);
        assert_int_equal(cl_dist_plan_peer(ref, q, (cl_dist_direction)dir, &elements[1], &pieces[1]), CL_OK);
        if (elements[0] != elements[1] || pieces[0] != pieces[1])
          fail_msg("%s: rank %lld %s %lld: %lld elements in %lld pieces, the reference %lld in %lld", what,
                   (long long)r, dir == CL_DIST_SEND ? "to" : "from", (long long)q, (long long)elements[0],
                   (long long)pieces[0], (long long)elements[1], (long long)pieces[1]);
        for (int64_t i = 0; i < pieces[0]; i++) {
          int64_t offset[2];
          cl_layout_t *piece[2] = {NULL, NULL};
          assert_int_equal(cl_dist_plan_piece(fast, q, (cl_dist_direction)dir, i, &offset[0], &piece[0]), CL_OK);
          assert_int_equal(cl_dist_plan_piece(ref, q, (cl_dist_direction)dir, i, &offset[1], &piece[1]), CL_OK);
          if (offset[0] != offset[1] || !cl_layout_equal(piece[0], piece[1])) {
            char a[128], b[128];
            cl_layout_format(piece[0], a, sizeof a);
            cl_layout_format(piece[1], b, sizeof b);
            fail_msg("%s: rank %lld peer %lld piece %lld: %lld + %s, the reference %lld + %s", what, (long long)r,
                     (long long)q, (long long)i, (long long)offset[0], a, (long long)offset[1], b);
          }
          cl_layout_free(piece[0]);
          cl_layout_free(piece[1]);
        }
      }
    cl_dist_plan_free(fast);
    cl_dist_plan_free(ref);
  }
}

/* A random placement text over a 1-D or 2-D mesh of P ranks; NULL when
 * the draw splits one dimension by placements of different kinds (which
 * the constructor refuses). */
static bool random_placements(int64_t P, int modes, const char *shape, char *text, size_t cap) {
  int64_t mesh[2] = {P, 1};
  int mesh_rank = 1;
  if (P >= 4 && rnd_below(2)) {
    mesh_rank = 2;
    mesh[0] = rnd_below(2) ? 2 : P / 2;
    mesh[1] = P / mesh[0];
  }
  char p[2][40];
  int kind[2], dim[2], param[2];
  for (int m = 0; m < mesh_rank; m++) {
    kind[m] = (int)rnd_below(4);
    dim[m] = (int)rnd_below(modes);
    param[m] = 1 + (int)rnd_below(kind[m] == 2 ? 3 : 4);
    if (kind[m] == 0)
      snprintf(p[m], sizeof p[m], "Shard(%d)", dim[m]);
    else if (kind[m] == 1)
      snprintf(p[m], sizeof p[m], "Replicate");
    else
      snprintf(p[m], sizeof p[m], "%s(%d,%d)", kind[m] == 2 ? "StridedShard" : "BlockCyclic", dim[m], param[m]);
  }
  if (mesh_rank == 2 && kind[0] != 1 && kind[1] != 1 && dim[0] == dim[1] &&
      (kind[0] != kind[1] || (kind[0] != 0 && param[0] != param[1])))
    return false;
  if (mesh_rank == 1)
    snprintf(text, cap, "dist(%s, %lld, %s)", shape, (long long)P, p[0]);
  else
    snprintf(text, cap, "dist(%s, (%lld,%lld), %s, %s)", shape, (long long)mesh[0], (long long)mesh[1], p[0], p[1]);
  return true;
}

/* A random tiled layout in the generic form: dimension d is (block, its
 * ranks, rounds), the blocks and rounds of every dimension stored in a
 * random order (compact, some padding at the end of each rank's buffer),
 * the rank factors and a replica factor in another. */
static void random_tiled(int64_t P, int modes, const int64_t *extent, char *text, size_t cap) {
  int64_t ranks[4] = {1, 1, 1, 1}, block[3], rounds[3]; /* ranks[modes]: the replica factor */
  for (int64_t left = P; left > 1; left /= 2)
    ranks[rnd_below(modes + 1)] *= 2;
  int64_t local_order[6], n_local = 0, local_stride[6], L = 1;
  for (int d = 0; d < modes; d++) {
    rounds[d] = 1 + rnd_below(2);
    int64_t cut = ranks[d] * rounds[d];
    block[d] = (extent[d] + cut - 1) / cut + rnd_below(2);
    local_order[n_local++] = 2 * d;
    local_order[n_local++] = 2 * d + 1;
  }
  for (int64_t i = n_local - 1; i > 0; i--) { /* shuffle, then strides in that order */
    int64_t j = rnd_below(i + 1), t = local_order[i];
    local_order[i] = local_order[j];
    local_order[j] = t;
  }
  for (int64_t i = 0; i < n_local; i++) {
    int64_t sub = local_order[i], size = sub % 2 ? rounds[sub / 2] : block[sub / 2];
    local_stride[sub] = L;
    L *= size;
  }
  L += rnd_below(3);
  int64_t rank_order[4] = {0, 1, 2, 3}, rank_stride[4], R = 1;
  for (int64_t i = modes; i > 0; i--) {
    int64_t j = rnd_below(i + 1), t = rank_order[i];
    rank_order[i] = rank_order[j];
    rank_order[j] = t;
  }
  for (int i = 0; i <= modes; i++) {
    rank_stride[rank_order[i]] = R * L;
    R *= ranks[rank_order[i]];
  }
  char shape[64] = "(", layout[400] = "(";
  char strides[200] = "(";
  for (int d = 0; d < modes; d++) {
    char part[96];
    snprintf(part, sizeof part, "%s%lld", d ? "," : "", (long long)extent[d]);
    strcat(shape, part);
    snprintf(part, sizeof part, "(%lld,%lld,%lld),", (long long)block[d], (long long)ranks[d], (long long)rounds[d]);
    strcat(layout, part);
    snprintf(part, sizeof part, "(%lld,%lld,%lld),", (long long)local_stride[2 * d], (long long)rank_stride[d],
             (long long)local_stride[2 * d + 1]);
    strcat(strides, part);
  }
  snprintf(text, cap, "dist(%s), %lld, %lld, %s%lld):%s%lld))", shape, (long long)P, (long long)L, layout,
           (long long)ranks[modes], strides, (long long)rank_stride[modes]);
}

/* ---------------------------------------------------------- plans */

/* Runs the plans of every rank on simulated buffers: returns false when an
 * element arrives wrong, and checks the counts against the rule. */
static void check_plan_pair(const cl_dist_t *src, const cl_dist_t *dst, const char *what) {
  int64_t P = cl_dist_ranks(src), Ls = cl_dist_local_size(src), Ld = cl_dist_local_size(dst);
  int64_t N = cl_dist_size(src);
  int64_t *src_buf = calloc((size_t)(P * Ls), sizeof *src_buf), *dst_buf = calloc((size_t)(P * Ld), sizeof *dst_buf);
  int64_t *counts = calloc((size_t)(P * P), sizeof *counts);
  assert_non_null(src_buf);
  assert_non_null(dst_buf);
  /* Element i's value is i + 1 in every replica; the padding is 0. */
  for (int64_t i = 0; i < N; i++)
    for (int64_t k = 0; k < cl_dist_replicas(src); k++) {
      int64_t r, o;
      assert_int_equal(cl_dist_locate(src, i, k, &r, &o), CL_OK);
      src_buf[r * Ls + o] = i + 1;
    }
  /* The reference counts: the documented choice of the sender. */
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < cl_dist_replicas(dst); j++) {
      int64_t q, o, sender = -1;
      assert_int_equal(cl_dist_locate(dst, i, j, &q, &o), CL_OK);
      for (int64_t k = 0; k < cl_dist_replicas(src); k++) {
        int64_t r;
        assert_int_equal(cl_dist_locate(src, i, k, &r, &o), CL_OK);
        if (r == q)
          sender = r;
      }
      if (sender < 0)
        assert_int_equal(cl_dist_locate(src, i, q % cl_dist_replicas(src), &sender, &o), CL_OK);
      counts[sender * P + q]++;
    }
  cl_dist_plan_t **plan = calloc((size_t)P, sizeof *plan);
  uint64_t hash = 0;
  bool regular = true;
  for (int64_t r = 0; r < P; r++) {
    cl_status s = cl_dist_plan_new(src, dst, 2, r, &plan[r]);
    if (s != CL_OK)
      fail_msg("%s: plan of rank %lld: %d %s", what, (long long)r, s, cl_last_error());
    assert_int_equal(cl_dist_plan_rank(plan[r]), r);
    assert_int_equal(cl_dist_plan_ranks(plan[r]), P);
    assert_int_equal(cl_dist_plan_elem_size(plan[r]), 2);
    if (r == 0)
      hash = cl_dist_plan_hash(plan[r]);
    assert_true(cl_dist_plan_hash(plan[r]) == hash);
  }
  for (int64_t s = 0; s < P; s++)
    for (int64_t q = 0; q < P; q++) {
      if (s != q && (counts[s * P + q] == 0 || counts[s * P + q] != counts[1 % (P * P)]))
        regular = false;
      int64_t sent, received, send_pieces, recv_pieces;
      assert_int_equal(cl_dist_plan_peer(plan[s], q, CL_DIST_SEND, &sent, &send_pieces), CL_OK);
      assert_int_equal(cl_dist_plan_peer(plan[q], s, CL_DIST_RECV, &received, &recv_pieces), CL_OK);
      if (sent != counts[s * P + q] || received != sent)
        fail_msg("%s: %lld -> %lld: %lld sent, %lld received, %lld by the rule", what, (long long)s, (long long)q,
                 (long long)sent, (long long)received, (long long)counts[s * P + q]);
      assert_true(send_pieces <= sent && recv_pieces <= received);
      /* Pack: s's pieces over its source buffer, in order. */
      int64_t *wire = calloc((size_t)sent + 1, sizeof *wire), at = 0;
      for (int64_t p = 0; p < send_pieces; p++) {
        int64_t offset;
        cl_layout_t *l = NULL;
        assert_int_equal(cl_dist_plan_piece(plan[s], q, CL_DIST_SEND, p, &offset, &l), CL_OK);
        for (int64_t j = 0; j < cl_layout_size(l); j++) {
          int64_t x;
          assert_int_equal(cl_layout_eval(l, j, &x), CL_OK);
          assert_true(offset + x >= 0 && offset + x < Ls);
          wire[at++] = src_buf[s * Ls + offset + x];
        }
        cl_layout_free(l);
      }
      assert_int_equal(at, sent);
      /* Unpack: q's pieces over its destination buffer, in the same order. */
      at = 0;
      for (int64_t p = 0; p < recv_pieces; p++) {
        int64_t offset;
        cl_layout_t *l = NULL;
        assert_int_equal(cl_dist_plan_piece(plan[q], s, CL_DIST_RECV, p, &offset, &l), CL_OK);
        for (int64_t j = 0; j < cl_layout_size(l); j++) {
          int64_t x;
          assert_int_equal(cl_layout_eval(l, j, &x), CL_OK);
          assert_true(offset + x >= 0 && offset + x < Ld);
          assert_int_equal(dst_buf[q * Ld + offset + x], 0); /* written once */
          dst_buf[q * Ld + offset + x] = wire[at++];
        }
        cl_layout_free(l);
      }
      free(wire);
    }
  /* Every replica of every element arrived, and nothing else was written. */
  int64_t written = 0;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < cl_dist_replicas(dst); j++) {
      int64_t q, o;
      assert_int_equal(cl_dist_locate(dst, i, j, &q, &o), CL_OK);
      if (dst_buf[q * Ld + o] != i + 1)
        fail_msg("%s: element %lld replica %lld on rank %lld holds %lld", what, (long long)i, (long long)j,
                 (long long)q, (long long)dst_buf[q * Ld + o]);
    }
  for (int64_t x = 0; x < P * Ld; x++)
    written += dst_buf[x] != 0;
  assert_int_equal(written, N * cl_dist_replicas(dst));
  assert_int_equal(cl_dist_plan_is_all_to_all(plan[0]), P > 1 && regular);
  for (int64_t r = 0; r < P; r++)
    cl_dist_plan_free(plan[r]);
  free(plan);
  free(counts);
  free(src_buf);
  free(dst_buf);
}

/* The families over P ranks of a SHAPE tensor, as text. */
static int families(int64_t P, const char *shape, char texts[][128]) {
  int n = 0;
  const char *one_d[] = {"Shard(0)", "Shard(1)", "Replicate", "StridedShard(0,2)", "BlockCyclic(0,2)",
                         "BlockCyclic(1,3)"};
  for (size_t i = 0; i < COUNT_OF(one_d); i++)
    snprintf(texts[n++], 128, "dist(%s, %lld, %s)", shape, (long long)P, one_d[i]);
  if (P >= 4) {
    const char *two_d[] = {"Shard(0), Shard(1)", "Shard(1), Shard(0)", "Shard(0), Replicate", "Replicate, Shard(1)",
                           "Shard(0), Shard(0)", "BlockCyclic(0,2), BlockCyclic(1,1)"};
    for (size_t i = 0; i < COUNT_OF(two_d); i++)
      snprintf(texts[n++], 128, "dist(%s, (2,%lld), %s)", shape, (long long)P / 2, two_d[i]);
  }
  return n;
}

static void test_plans_brute_force(void **state) {
  (void)state;
  const char *shapes[] = {"(8,8)", "(6,10)"};
  for (int64_t P = 2; P <= 8; P *= 2)
    for (size_t sh = 0; sh < COUNT_OF(shapes); sh++) {
      char texts[16][128];
      int n = families(P, shapes[sh], texts);
      /* And a generic tiled layout: row blocks stored column-major. */
      if (strcmp(shapes[sh], "(8,8)") == 0)
        snprintf(texts[n++], 128, "dist((8,8), %lld, %lld, ((%lld,%lld),8):((1,%lld),%lld))", (long long)P,
                 (long long)(64 / P), (long long)(8 / P), (long long)P, (long long)(64 / P), (long long)(8 / P));
      for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
          cl_dist_t *src = dist(texts[a]), *dst = dist(texts[b]);
          char what[300];
          snprintf(what, sizeof what, "%.140s -> %.140s", texts[a], texts[b]);
          check_plan_pair(src, dst, what);
          expect_walks_agree(src, dst, what);
          cl_dist_free(src);
          cl_dist_free(dst);
        }
    }
}

/* Random pairs of every family (placements on 1-D and 2-D meshes, even and
 * uneven, tiled layouts, layouts whose rank boundaries cut rows, where the
 * reference walk plans) over 1 to 3 dimensions and 2, 4 and 8 ranks, the
 * last hundred up to 64 a dimension. */
static void test_walks_agree(void **state) {
  (void)state;
  for (int trial = 0; trial < 500; trial++) {
    int64_t P = (int64_t)1 << (1 + rnd_below(3)), extent[3];
    int modes = 1 + (int)rnd_below(3);
    int large = trial >= 400; /* long runs of alike rows, which the walk adds at once */
    char shape[64] = "(", texts[2][512];
    for (int d = 0; d < modes; d++) {
      extent[d] = 1 + rnd_below(modes == 3 ? (large ? 16 : 5) : (large ? 64 : 10));
      char part[24];
      snprintf(part, sizeof part, "%s%lld", d ? "," : "", (long long)extent[d]);
      strcat(shape, part);
    }
    strcat(shape, ")");
    for (int side = 0; side < 2; side++) {
      int64_t family = rnd_below(5);
      if (family == 0) {
        random_tiled(P, modes, extent, texts[side], sizeof texts[side]);
      } else if (family == 1 && modes == 2) { /* row-major, cut every L elements */
        int64_t L = (extent[0] * extent[1] + P - 1) / P;
        snprintf(texts[side], sizeof texts[side], "dist(%s, %lld, %lld, (%lld,%lld):(%lld,1))", shape, (long long)P,
                 (long long)L, (long long)extent[0], (long long)extent[1], (long long)extent[1]);
      } else {
        while (!random_placements(P, modes, shape, texts[side], sizeof texts[side]))
          ;
      }
    }
    cl_dist_t *src = dist(texts[0]), *dst = dist(texts[1]);
    char what[1100];
    snprintf(what, sizeof what, "%s -> %s", texts[0], texts[1]);
    expect_walks_agree(src, dst, what);
    cl_dist_free(src);
    cl_dist_free(dst);
  }
}

/* The constructors' checks by strides accept and refuse what the check of
 * every place does: random layouts, some injective, some not, some out of
 * bounds, with and without replicas. */
static void test_checks_agree(void **state) {
  (void)state;
  for (int trial = 0; trial < 3000; trial++) {
    int64_t n0 = 1 + rnd_below(4), n1 = 1 + rnd_below(4), P = 1 + rnd_below(3), L = 1 + rnd_below(16);
    int64_t stride[4];
    for (int i = 0; i < 4; i++)
      stride[i] = rnd_below(3) ? rnd_below(9) : L * rnd_below(3);
    char text[160];
    snprintf(text, sizeof text, "dist((%lld,%lld), %lld, %lld, ((%lld,2),%lld,%lld):((%lld,%lld),%lld,%lld))",
             (long long)n0, (long long)n1, (long long)P, (long long)L, (long long)n0, (long long)n1,
             (long long)(1 + rnd_below(2)), (long long)stride[0], (long long)stride[1], (long long)stride[2],
             (long long)stride[3]);
    cl_dist_t *fast = NULL, *ref = NULL;
    cl_status s = cl_dist_parse(text, &fast);
    setenv("CUTELAYOUT_DIST_PLAN", "elements", 1);
    cl_status t = cl_dist_parse(text, &ref);
    unsetenv("CUTELAYOUT_DIST_PLAN");
    if (s != t)
      fail_msg("%s: %d by strides, %d by places", text, s, t);
    cl_dist_free(fast);
    cl_dist_free(ref);
  }
}

/* Shard(0) -> Shard(1) is a regular all-to-all of one piece per peer; the
 * pieces are the sub-blocks, as layouts. */
static void test_plan_pieces(void **state) {
  (void)state;
  cl_dist_t *src = dist("dist((8,8), 4, Shard(0))"), *dst = dist("dist((8,8), 4, Shard(1))");
  cl_dist_plan_t *plan = NULL;
  assert_int_equal(cl_dist_plan_new(src, dst, 4, 1, &plan), CL_OK);
  assert_true(cl_dist_plan_is_all_to_all(plan));
  for (int64_t q = 0; q < 4; q++) {
    int64_t elements, pieces, offset;
    assert_int_equal(cl_dist_plan_peer(plan, q, CL_DIST_SEND, &elements, &pieces), CL_OK);
    assert_int_equal(elements, 4);
    assert_int_equal(pieces, 1);
    cl_layout_t *l = NULL;
    /* Rank 1 holds rows 2-3 (a 2x8 row-major block); q wants columns 2q,
     * 2q+1, read row by row (the source's fastest mode first). */
    assert_int_equal(cl_dist_plan_piece(plan, q, CL_DIST_SEND, 0, &offset, &l), CL_OK);
    assert_int_equal(offset, 2 * q);
    cl_layout_t *expected = lay("(2,2):(1,8)");
    assert_true(cl_layout_equal(l, expected));
    cl_layout_free(expected);
    cl_layout_free(l);
    /* Rank 1 receives rows 2q, 2q+1 of its 8x2 column block: 4 elements
     * in a row. */
    assert_int_equal(cl_dist_plan_piece(plan, q, CL_DIST_RECV, 0, &offset, &l), CL_OK);
    assert_int_equal(offset, 4 * q);
    expected = lay("4:1");
    assert_true(cl_layout_equal(l, expected));
    cl_layout_free(expected);
    cl_layout_free(l);
  }
  cl_dist_plan_free(plan);
  /* The same distribution: each rank copies its shard as one piece. */
  assert_int_equal(cl_dist_plan_new(src, src, 4, 2, &plan), CL_OK);
  assert_false(cl_dist_plan_is_all_to_all(plan));
  int64_t elements, pieces;
  assert_int_equal(cl_dist_plan_peer(plan, 2, CL_DIST_SEND, &elements, &pieces), CL_OK);
  assert_int_equal(elements, 16);
  assert_int_equal(pieces, 1);
  assert_int_equal(cl_dist_plan_peer(plan, 1, CL_DIST_SEND, &elements, &pieces), CL_OK);
  assert_int_equal(elements, 0);
  assert_int_equal(pieces, 0);
  cl_dist_plan_free(plan);
  /* Another element size, another plan hash. */
  cl_dist_plan_t *a = NULL, *b = NULL;
  assert_int_equal(cl_dist_plan_new(src, dst, 4, 0, &a), CL_OK);
  assert_int_equal(cl_dist_plan_new(src, dst, 2, 0, &b), CL_OK);
  assert_true(cl_dist_plan_hash(a) != cl_dist_plan_hash(b));
  cl_dist_plan_free(a);
  cl_dist_plan_free(b);
  cl_dist_free(src);
  cl_dist_free(dst);
}

/* ---------------------------------------------------------- errors */

static void test_dist_errors(void **state) {
  (void)state;
  cl_dist_t *d = (cl_dist_t *)1;
  cl_tuple_t *shape = tup("(8,8)"), *nested = tup("((2,4),8)"), *mesh = tup("(2,2)");
  cl_layout_t *layout = lay("(8,8):(1,8)");
  cl_placement_t p[2] = {{CL_PLACE_SHARD, 0, 0}, {CL_PLACE_SHARD, 1, 0}};
  assert_int_equal(cl_dist_new(NULL, 1, 64, layout, &d), CL_E_NULL);
  assert_null(d);
  assert_int_equal(cl_dist_new(shape, 1, 64, NULL, &d), CL_E_NULL);
  assert_int_equal(cl_dist_new(shape, 1, 64, layout, NULL), CL_E_NULL);
  assert_int_equal(cl_dist_new(nested, 1, 64, layout, &d), CL_E_TYPE);
  assert_int_equal(cl_dist_new(shape, 0, 64, layout, &d), CL_E_DOMAIN);
  assert_int_equal(cl_dist_new(shape, 1, 0, layout, &d), CL_E_DOMAIN);
  assert_int_equal(cl_dist_from_placements(NULL, mesh, p, 2, &d), CL_E_NULL);
  assert_int_equal(cl_dist_from_placements(shape, NULL, p, 2, &d), CL_E_NULL);
  assert_int_equal(cl_dist_from_placements(shape, mesh, NULL, 2, &d), CL_E_NULL);
  assert_int_equal(cl_dist_from_placements(shape, mesh, p, 1, &d), CL_E_DOMAIN);
  p[1] = (cl_placement_t){(cl_placement_kind)7, 0, 0};
  assert_int_equal(cl_dist_from_placements(shape, mesh, p, 2, &d), CL_E_DOMAIN);
  assert_null(d);
  cl_tuple_t *underscore = NULL;
  assert_int_equal(cl_tuple_underscore(&underscore), CL_OK);
  assert_int_equal(cl_dist_new(underscore, 1, 64, layout, &d), CL_E_TYPE);
  cl_tuple_free(underscore);
  /* A mesh of 65 dimensions is past the limit. */
  int64_t ones[65];
  cl_placement_t many[65];
  for (int i = 0; i < 65; i++) {
    ones[i] = 1;
    many[i] = (cl_placement_t){CL_PLACE_REPLICATE, 0, 0};
  }
  cl_tuple_t *big_mesh = NULL;
  assert_int_equal(cl_tuple_from_ints(ones, 65, &big_mesh), CL_OK);
  assert_int_equal(cl_dist_from_placements(shape, big_mesh, many, 65, &d), CL_E_LIMIT);
  assert_null(d);
  cl_tuple_free(big_mesh);
  cl_tuple_free(shape);
  cl_tuple_free(nested);
  cl_tuple_free(mesh);
  cl_layout_free(layout);
  char text[1024] = "dist(8, 1";
  for (int i = 0; i < 70; i++)
    strcat(text, ", Replicate");
  strcat(text, ")");
  expect_parse_fails(text, CL_E_LIMIT);

  expect_parse_fails("dist((8,8), 2, 32, (8,8,2):(1,8,64))", CL_E_BOUNDS);      /* past the ranks */
  expect_parse_fails("dist((8,8), 2, 32, (8,8):(-1,8))", CL_E_BOUNDS);         /* before rank 0 */
  expect_parse_fails("dist((8,8), 2, 32, (8,8):(1,4))", CL_E_NOT_INJECTIVE);   /* two elements, one place */
  expect_parse_fails("dist(2, 2, 4, (2,2):(1,2))", CL_E_NOT_INJECTIVE);        /* two replicas on rank 0 */
  /* The same, where the strides alone prove nothing and every place is checked. */
  expect_parse_fails("dist((3,2), 1, 8, (3,2):(2,2))", CL_E_NOT_INJECTIVE);     /* (1,0) and (0,1) meet */
  expect_parse_fails("dist(3, 2, 4, (3,2):(1,3))", CL_E_NOT_INJECTIVE);         /* replicas 3 apart, L = 4 */
  expect_parse_fails("dist((8,8), 2, 32, (8,8,2,2):(1,8,0,0))", CL_E_RANK);    /* rank 4 for a 2-D tensor */
  expect_parse_fails("dist((8,8), 2, 32, (8,4):(1,8))", CL_E_DOMAIN);          /* mode 1 short */
  expect_parse_fails("dist((8,0), 2, 32, (8,8):(1,8))", CL_E_DOMAIN);          /* empty extent */
  expect_parse_fails("dist((), 2, 32, 8:1)", CL_E_DOMAIN);                     /* no modes */
  expect_parse_fails("dist(((2,4),8), 2, 32, (8,8):(1,8))", CL_E_TYPE);        /* nested shape */
  expect_parse_fails("dist(8, 2, Shard(1))", CL_E_DOMAIN);                      /* no dimension 1 */
  expect_parse_fails("dist(8, 2, Shard(-1))", CL_E_DOMAIN);
  expect_parse_fails("dist(8, 2, BlockCyclic(0,0))", CL_E_DOMAIN);              /* block 0 */
  expect_parse_fails("dist(8, (2,2), Shard(0))", CL_E_DOMAIN);                  /* one placement, 2-D mesh */
  expect_parse_fails("dist(8, (2,0), Shard(0), Shard(0))", CL_E_DOMAIN);        /* empty mesh dim */
  expect_parse_fails("dist(8, (2,2), Shard(0), BlockCyclic(0,2))", CL_E_UNSUPPORTED);
  expect_parse_fails("dist(8, (2,2), BlockCyclic(0,1), BlockCyclic(0,2))", CL_E_UNSUPPORTED);
  expect_parse_fails("dist(8, (2,(2,2)), Shard(0), Shard(0))", CL_E_TYPE);      /* nested mesh */
  expect_parse_fails("dist(8, 2, Foo)", CL_E_PARSE);
  expect_parse_fails("dist(8, 2, Shard)", CL_E_PARSE);
  expect_parse_fails("dist(8, 2, Shard(0,1))", CL_E_PARSE);
  expect_parse_fails("dist(8, 2, BlockCyclic(0))", CL_E_PARSE);
  expect_parse_fails("dist(8, 2, Replicate(0))", CL_E_PARSE);
  expect_parse_fails("dist(8, 2, Shard(x))", CL_E_PARSE);
  expect_parse_fails("dist(8, 2)", CL_E_PARSE);
  expect_parse_fails("dist 8, 2, Shard(0)", CL_E_PARSE);
  expect_parse_fails("dits(8, 2, Shard(0))", CL_E_PARSE);
  expect_parse_fails("dist(8, 2, Shard(0)", CL_E_PARSE);
  expect_parse_fails("dist(8, 2, Shard(0)) x", CL_E_PARSE);
  expect_parse_fails("dist(8, (2,2), 4, 8:1)", CL_E_PARSE);                     /* ranks not an integer */
  expect_parse_fails("dist(8, 2, (4), 8:1)", CL_E_PARSE);                       /* a tuple is no placement */
  expect_parse_fails("dist(8, 2, 4, 8:1:2)", CL_E_PARSE);
  expect_parse_fails("dist((8, 2, Shard(0))", CL_E_PARSE);
  assert_int_equal(cl_dist_parse(NULL, &d), CL_E_NULL);
  assert_int_equal(cl_dist_parse("dist(8, 2, Shard(0))", NULL), CL_E_NULL);

  /* Spaces between a placement's name and its arguments are allowed. */
  d = dist("dist(8, 2, Shard (0))");
  cl_dist_free(d);
  /* Replicate written with empty parentheses is Replicate. */
  d = dist("dist(8, 2, Replicate())");
  assert_int_equal(cl_dist_replicas(d), 2);
  char small[8];
  int64_t n = cl_dist_format(d, small, sizeof small);
  assert_true(n > (int64_t)sizeof small);
  assert_int_equal((int64_t)strlen(small), (int64_t)sizeof small - 1);
  assert_int_equal(cl_dist_format(NULL, small, sizeof small), CL_E_NULL);
  assert_int_equal(cl_dist_format(d, NULL, 4), CL_E_NULL);
  int64_t r, o;
  assert_int_equal(cl_dist_locate(d, 8, 0, &r, &o), CL_E_DOMAIN);
  assert_int_equal(cl_dist_locate(d, -1, 0, &r, &o), CL_E_DOMAIN);
  assert_int_equal(cl_dist_locate(d, 0, 2, &r, &o), CL_E_DOMAIN);
  assert_int_equal(cl_dist_locate(NULL, 0, 0, &r, &o), CL_E_NULL);
  assert_int_equal(cl_dist_locate(d, 0, 0, NULL, &o), CL_E_NULL);
  assert_int_equal(cl_dist_locate(d, 0, 0, &r, NULL), CL_E_NULL);
  cl_tuple_t *t = (cl_tuple_t *)1;
  cl_layout_t *l = (cl_layout_t *)1;
  assert_int_equal(cl_dist_shape(NULL, &t), CL_E_NULL);
  assert_null(t);
  assert_int_equal(cl_dist_layout(NULL, &l), CL_E_NULL);
  assert_null(l);
  assert_int_equal(cl_dist_shape(d, NULL), CL_E_NULL);
  assert_int_equal(cl_dist_layout(d, NULL), CL_E_NULL);
  assert_int_equal(cl_dist_ranks(NULL), -1);
  assert_int_equal(cl_dist_local_size(NULL), -1);
  assert_int_equal(cl_dist_replicas(NULL), -1);
  assert_int_equal(cl_dist_size(NULL), -1);
  cl_dist_free(d);
  cl_dist_free(NULL);
}

static void test_plan_errors(void **state) {
  (void)state;
  cl_dist_t *a = dist("dist((8,8), 4, Shard(0))"), *b = dist("dist((8,4), 4, Shard(0))");
  cl_dist_t *c = dist("dist((8,8), 2, Shard(0))");
  cl_dist_plan_t *plan = (cl_dist_plan_t *)1;
  assert_int_equal(cl_dist_plan_new(a, b, 4, 0, &plan), CL_E_RANK);
  assert_null(plan);
  assert_true(strstr(cl_last_error(), "(8,4)") != NULL);
  assert_int_equal(cl_dist_plan_new(a, c, 4, 0, &plan), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_new(a, a, 4, 4, &plan), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_new(a, a, 4, -1, &plan), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_new(a, a, 0, 0, &plan), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_new(NULL, a, 4, 0, &plan), CL_E_NULL);
  assert_int_equal(cl_dist_plan_new(a, NULL, 4, 0, &plan), CL_E_NULL);
  assert_int_equal(cl_dist_plan_new(a, a, 4, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_dist_plan_new(a, a, 4, 0, &plan), CL_OK);
  int64_t e, n, offset;
  cl_layout_t *l = (cl_layout_t *)1;
  assert_int_equal(cl_dist_plan_peer(plan, 4, CL_DIST_SEND, &e, &n), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_peer(plan, -1, CL_DIST_SEND, &e, &n), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_peer(plan, 0, (cl_dist_direction)2, &e, &n), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_peer(NULL, 0, CL_DIST_SEND, &e, &n), CL_E_NULL);
  assert_int_equal(cl_dist_plan_peer(plan, 0, CL_DIST_SEND, NULL, &n), CL_E_NULL);
  assert_int_equal(cl_dist_plan_peer(plan, 0, CL_DIST_SEND, &e, NULL), CL_E_NULL);
  assert_int_equal(cl_dist_plan_piece(plan, 0, CL_DIST_SEND, 1, &offset, &l), CL_E_DOMAIN);
  assert_null(l);
  assert_int_equal(cl_dist_plan_piece(plan, 0, CL_DIST_SEND, -1, &offset, &l), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_piece(plan, 9, CL_DIST_RECV, 0, &offset, &l), CL_E_DOMAIN);
  assert_int_equal(cl_dist_plan_piece(NULL, 0, CL_DIST_SEND, 0, &offset, &l), CL_E_NULL);
  assert_int_equal(cl_dist_plan_piece(plan, 0, CL_DIST_SEND, 0, NULL, &l), CL_E_NULL);
  assert_int_equal(cl_dist_plan_piece(plan, 0, CL_DIST_SEND, 0, &offset, NULL), CL_E_NULL);
  assert_int_equal(cl_dist_plan_ranks(NULL), -1);
  assert_int_equal(cl_dist_plan_rank(NULL), -1);
  assert_int_equal(cl_dist_plan_elem_size(NULL), 0);
  assert_int_equal(cl_dist_plan_is_all_to_all(NULL), 0);
  assert_true(cl_dist_plan_hash(NULL) == 0);
  cl_dist_plan_free(plan);
  cl_dist_plan_free(NULL);
  cl_dist_free(a);
  cl_dist_free(b);
  cl_dist_free(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_placements_as_dtensor), cmocka_unit_test(test_uneven_shards),
      cmocka_unit_test(test_block_cyclic),          cmocka_unit_test(test_generic_form),
      cmocka_unit_test(test_plans_brute_force),     cmocka_unit_test(test_walks_agree),
      cmocka_unit_test(test_checks_agree),
      cmocka_unit_test(test_plan_pieces),
      cmocka_unit_test(test_dist_errors),           cmocka_unit_test(test_plan_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
