/* SPDX-License-Identifier: BSD-3-Clause */
/* dist.c: distributions of a tensor over ranks (dist.h): the generic form (a
 * layout onto rank * local_size + offset), the placements of a device mesh
 * that build one, the text form, and where an element lives. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_impl.h"
#include "tuple_impl.h"

void cl_dist_free(cl_dist_t *dist) {
  if (dist == NULL)
    return;
  if (dist->mode_value != NULL)
    for (int64_t m = 0; m < dist->modes; m++)
      cl_dealloc(dist->mode_value[m]);
  cl_dealloc(dist->mode_value);
  cl_dealloc(dist->replica_value);
  cl_dealloc(dist->extent);
  cl_tuple_free(dist->shape);
  cl_layout_free(dist->layout);
  cl_dealloc(dist);
}

/* ---- the generic form ---- */

/* The extents of a global shape: a positive integer, or a flat tuple of them. */
static cl_status global_extents(const cl_tuple_t *shape, const char *what, cl_dist_t *d) {
  if (cl_tuple_kind(shape) == CL_KIND_INT) {
    d->modes = 1;
  } else if (cl_tuple_kind(shape) == CL_KIND_TUPLE) {
    d->modes = cl_tuple_rank(shape);
  } else {
    return cl_fail(CL_E_TYPE, "a distribution's %s is an integer or a flat tuple of integers", what);
  }
  if (d->modes < 1)
    return cl_fail(CL_E_DOMAIN, "a distribution's %s has at least one mode", what);
  d->extent = cl_alloc(sizeof *d->extent * (size_t)d->modes);
  if (d->extent == NULL)
    return cl_dist_nomem();
  d->size = 1;
  for (int64_t m = 0; m < d->modes; m++) {
    cl_tuple_t *mode = NULL;
    cl_status s = cl_tuple_kind(shape) == CL_KIND_INT ? cl_tuple_copy(shape, &mode) : cl_tuple_get(shape, &m, 1, &mode);
    if (s == CL_OK && cl_tuple_kind(mode) != CL_KIND_INT)
      s = cl_fail(CL_E_TYPE, "mode %lld of a distribution's %s is not an integer", (long long)m, what);
    if (s == CL_OK)
      s = cl_tuple_value(mode, &d->extent[m]);
    cl_tuple_free(mode);
    CL_TRY(s);
    if (d->extent[m] < 1)
      return cl_fail(CL_E_DOMAIN, "extent %lld of a distribution's %s is below 1", (long long)d->extent[m], what);
    CL_TRY(cl_mul(d->size, d->extent[m], &d->size));
  }
  return CL_OK;
}

/* table[x] = mode(x) for x < n, where mode is mode `m` of the layout; the
 * mode must reach n (n < 0: its whole size, which *n_out receives). */
static cl_status mode_table(const cl_layout_t *layout, int64_t m, int64_t n, const char *what, int64_t **table,
                            int64_t *n_out) {
  cl_layout_t *mode = NULL;
  CL_TRY(cl_layout_get(layout, &m, 1, &mode));
  int64_t size = 0;
  cl_status s = cl_layout_size_checked(mode, &size);
  if (s == CL_OK && n < 0)
    n = size;
  *n_out = n;
  if (s == CL_OK && size < n)
    s = cl_fail(CL_E_DOMAIN, "%s %lld of the distribution's layout has %lld indices, fewer than the extent %lld", what,
                (long long)m, (long long)size, (long long)n);
  if (s == CL_OK && (*table = cl_alloc(sizeof **table * (size_t)n)) == NULL)
    s = cl_dist_nomem();
  for (int64_t x = 0; s == CL_OK && x < n; x++)
    s = cl_layout_eval(mode, x, &(*table)[x]);
  cl_layout_free(mode);
  return s;
}

static void table_range(const int64_t *t, int64_t n, int64_t *lo, int64_t *hi) {
  *lo = *hi = t[0];
  for (int64_t x = 1; x < n; x++) {
    *lo = t[x] < *lo ? t[x] : *lo;
    *hi = t[x] > *hi ? t[x] : *hi;
  }
}

/* Every place lies in [0, ranks * local_size): the modes vary independently,
 * so the extreme places are the sums of the modes' extremes. */
static cl_status check_bounds(const cl_dist_t *d) {
  int64_t lo, hi, total_lo, total_hi, capacity;
  table_range(d->replica_value, d->replicas, &total_lo, &total_hi);
  for (int64_t m = 0; m < d->modes; m++) {
    table_range(d->mode_value[m], d->extent[m], &lo, &hi);
    CL_TRY(cl_add(total_lo, lo, &total_lo));
    CL_TRY(cl_add(total_hi, hi, &total_hi));
  }
  CL_TRY(cl_mul(d->ranks, d->local_size, &capacity));
  if (total_lo < 0 || total_hi >= capacity)
    return cl_fail(CL_E_BOUNDS,
                   "the distribution's layout reaches places %lld to %lld, outside the %lld ranks of %lld elements",
                   (long long)total_lo, (long long)total_hi, (long long)d->ranks, (long long)d->local_size);
  return CL_OK;
}

/* The integer leaves of a layout, shape and stride in step (pre-order, the
 * two trees being congruent): *n of them, or *n = -1 when there are more
 * than `cap` or a stride is not an integer. */
static void flat_modes(const cl_layout_t *layout, int64_t *shape, int64_t *stride, int64_t cap, int64_t *n) {
  const cl_node *root = layout->nodes;
  const cl_node *sh = cl_lshape(root), *sh_end = sh + sh->span, *st = cl_lstride(root);
  *n = 0;
  while (sh < sh_end) {
    if (cl_is_tuple(sh)) { /* descend: its first child is the next node in both trees */
      sh++;
      st++;
      continue;
    }
    if (!cl_is_int(sh) || !cl_is_int(st) || *n == cap) {
      *n = -1;
      return;
    }
    shape[*n] = sh->value;
    stride[(*n)++] = st->value;
    sh = cl_next(sh);
    st = cl_next(st);
  }
}

/* Whether the layout is injective by its strides alone: with the modes of
 * size above 1 sorted by |stride|, each |stride| exceeds the span of the
 * smaller ones (sum of (size - 1) * |stride|), so that the largest mode's
 * steps cannot be reached by the others and, by induction, no two
 * coordinates meet.  Sufficient, not necessary: 0 says "not shown". */
static int injective_by_strides(const cl_layout_t *layout) {
  enum { MAX_MODES = 64 };
  int64_t shape[MAX_MODES], stride[MAX_MODES], n = 0, kept = 0;
  flat_modes(layout, shape, stride, MAX_MODES, &n);
  for (int64_t i = 0; i < n; i++)
    if (shape[i] > 1) {
      shape[kept] = shape[i];
      stride[kept++] = stride[i] < 0 ? -stride[i] : stride[i]; /* |INT64_MIN| fails the span check below */
    }
  for (int64_t i = 1; i < kept; i++) /* insertion sort by |stride|: a handful of modes */
    for (int64_t j = i; j > 0 && stride[j] < stride[j - 1]; j--) {
      int64_t s = shape[j], t = stride[j];
      shape[j] = shape[j - 1], stride[j] = stride[j - 1];
      shape[j - 1] = s, stride[j - 1] = t;
    }
  int64_t span = 0, step;
  for (int64_t i = 0; i < kept; i++) {
    if (stride[i] <= span || cl_mul(shape[i] - 1, stride[i], &step) != CL_OK || cl_add(span, step, &span) != CL_OK)
      return 0;
  }
  return n >= 0;
}

/* No two replicas of any element on one rank, when the replica values are
 * at least L apart: two places of one rank differ by less than L. */
static int replicas_on_distinct_ranks(const cl_dist_t *d) {
  int64_t *v = d->replica_value;
  for (int64_t k = 0; k < d->replicas; k++)
    for (int64_t j = 0; j < k; j++)
      if (v[k] - v[j] < d->local_size && v[j] - v[k] < d->local_size)
        return 0;
  return 1;
}

/* The general check: every place marked in a bitmap, one bit a place. */
static cl_status check_injective_by_places(const cl_dist_t *d) {
  int64_t capacity = d->ranks * d->local_size; /* checked by check_bounds */
  uint8_t *seen = cl_alloc((size_t)(capacity + 7) / 8);
  int64_t *crd = cl_alloc(sizeof *crd * (size_t)d->modes);
  cl_status s = seen == NULL || crd == NULL ? cl_dist_nomem() : CL_OK;
  if (s == CL_OK) {
    memset(seen, 0, (size_t)(capacity + 7) / 8);
    memset(crd, 0, sizeof *crd * (size_t)d->modes);
  }
  for (int64_t i = 0; s == CL_OK && i < d->size; i++, cl_dist_next_coord(d->extent, d->modes, crd)) {
    int64_t base = cl_dist_place(d, crd);
    for (int64_t k = 0; s == CL_OK && k < d->replicas; k++) {
      int64_t v = base + d->replica_value[k];
      if (seen[v / 8] & (1u << (v % 8)))
        s = cl_fail(CL_E_NOT_INJECTIVE, "the distribution's layout puts two elements at rank %lld, offset %lld",
                    (long long)(v / d->local_size), (long long)(v % d->local_size));
      seen[v / 8] |= (uint8_t)(1u << (v % 8));
      for (int64_t j = 0; s == CL_OK && j < k; j++)
        if ((base + d->replica_value[j]) / d->local_size == v / d->local_size)
          s = cl_fail(CL_E_NOT_INJECTIVE, "replicas %lld and %lld of element %lld are both on rank %lld",
                      (long long)j, (long long)k, (long long)i, (long long)(v / d->local_size));
    }
  }
  cl_dealloc(seen);
  cl_dealloc(crd);
  return s;
}

/* No two (element, replica) share a place, and no two replicas of an element
 * share a rank (a rank holds an element once).  The layout's strides prove it
 * for the usual forms (every placement) in time of its modes; any other
 * layout, or any when CUTELAYOUT_DIST_PLAN=elements asks for the reference,
 * is checked place by place, one bit each. */
static cl_status check_injective(const cl_dist_t *d) {
  if (!cl_dist_by_elements() && injective_by_strides(d->layout) && replicas_on_distinct_ranks(d))
    return CL_OK;
  return check_injective_by_places(d);
}

static cl_status dist_build(const cl_tuple_t *shape, int64_t ranks, int64_t local_size, const cl_layout_t *layout,
                            cl_dist_t *d) {
  CL_TRY(global_extents(shape, "global shape", d));
  if (ranks < 1 || local_size < 1)
    return cl_fail(CL_E_DOMAIN, "a distribution needs at least one rank and one element per rank (got %lld, %lld)",
                   (long long)ranks, (long long)local_size);
  d->ranks = ranks;
  d->local_size = local_size;
  CL_TRY(cl_tuple_copy(shape, &d->shape));
  int64_t rank = cl_layout_rank(layout);
  if (rank == d->modes)
    CL_TRY(cl_layout_append(layout, NULL, &d->layout));
  else if (rank == d->modes + 1)
    CL_TRY(cl_layout_copy(layout, &d->layout));
  else
    return cl_fail(CL_E_RANK, "a distribution of a rank-%lld shape needs a layout of rank %lld or %lld, not %lld",
                   (long long)d->modes, (long long)d->modes, (long long)d->modes + 1, (long long)rank);
  d->mode_value = cl_alloc(sizeof *d->mode_value * (size_t)d->modes);
  if (d->mode_value == NULL)
    return cl_dist_nomem();
  memset(d->mode_value, 0, sizeof *d->mode_value * (size_t)d->modes);
  int64_t extent;
  for (int64_t m = 0; m < d->modes; m++)
    CL_TRY(mode_table(d->layout, m, d->extent[m], "mode", &d->mode_value[m], &extent));
  CL_TRY(mode_table(d->layout, d->modes, -1, "replica mode", &d->replica_value, &d->replicas));
  CL_TRY(cl_layout_size_checked(d->layout, &extent)); /* the whole layout's size fits in int64_t */
  CL_TRY(check_bounds(d));
  return check_injective(d);
}

cl_status cl_dist_new(const cl_tuple_t *shape, int64_t ranks, int64_t local_size, const cl_layout_t *layout,
                      cl_dist_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CHECK_NULL(layout);
  cl_dist_t *d = cl_alloc(sizeof *d);
  if (d == NULL)
    return cl_dist_nomem();
  memset(d, 0, sizeof *d);
  cl_status s = dist_build(shape, ranks, local_size, layout, d);
  if (s != CL_OK) {
    cl_dist_free(d);
    return s;
  }
  *out = d;
  return CL_OK;
}

/* ---- placements on a device mesh ---- */

/* How one tensor dimension is split: blocks of `block` elements dealt over
 * the mesh dimensions sharding it, `rounds` times. */
typedef struct dim_split {
  int64_t block, rounds, ranks;
  int kind_set;
  cl_placement_kind kind;
  int64_t param;
} dim_split;

static cl_status collect_splits(const int64_t *extent, int64_t modes, const int64_t *mesh, const cl_placement_t *p,
                                int64_t n, dim_split *split) {
  for (int64_t d = 0; d < modes; d++)
    split[d] = (dim_split){1, 1, 1, 0, CL_PLACE_SHARD, 0};
  for (int64_t m = 0; m < n; m++) {
    if (p[m].kind == CL_PLACE_REPLICATE)
      continue;
    if (p[m].kind != CL_PLACE_SHARD && p[m].kind != CL_PLACE_STRIDED_SHARD && p[m].kind != CL_PLACE_BLOCK_CYCLIC)
      return cl_fail(CL_E_DOMAIN, "placement %lld has no kind %d", (long long)m, (int)p[m].kind);
    if (p[m].dim < 0 || p[m].dim >= modes)
      return cl_fail(CL_E_DOMAIN, "placement %lld splits dimension %lld of a rank-%lld tensor", (long long)m,
                     (long long)p[m].dim, (long long)modes);
    int64_t param = p[m].kind == CL_PLACE_SHARD ? 0 : p[m].param;
    if (p[m].kind != CL_PLACE_SHARD && param < 1)
      return cl_fail(CL_E_DOMAIN, "placement %lld has parameter %lld, below 1", (long long)m, (long long)param);
    dim_split *s = &split[p[m].dim];
    if (s->kind_set && (s->kind != p[m].kind || s->param != param))
      return cl_fail(CL_E_UNSUPPORTED, "dimension %lld is split by placements of different kinds or parameters",
                     (long long)p[m].dim);
    s->kind_set = 1;
    s->kind = p[m].kind;
    s->param = param;
    CL_TRY(cl_mul(s->ranks, mesh[m], &s->ranks));
  }
  for (int64_t d = 0; d < modes; d++) {
    dim_split *s = &split[d];
    int64_t cut;
    if (s->kind == CL_PLACE_BLOCK_CYCLIC) { /* blocks of b, as many rounds as needed */
      s->block = s->param;
      CL_TRY(cl_mul(s->block, s->ranks, &cut));
      CL_TRY(cl_ceil_div_int(extent[d], cut, &s->rounds));
    } else { /* Shard: one round; strided: `split factor` rounds */
      s->rounds = s->kind == CL_PLACE_STRIDED_SHARD ? s->param : 1;
      CL_TRY(cl_mul(s->rounds, s->ranks, &cut));
      CL_TRY(cl_ceil_div_int(extent[d], cut, &s->block));
    }
  }
  return CL_OK;
}

/* A layout from two lists of n integers. */
static cl_status layout_of(const int64_t *shape, const int64_t *stride, int64_t n, cl_layout_t **out) {
  cl_tuple_t *s = NULL, *t = NULL;
  cl_status st = cl_tuple_from_ints(shape, n, &s);
  if (st == CL_OK)
    st = cl_tuple_from_ints(stride, n, &t);
  if (st == CL_OK)
    st = cl_layout_make(s, t, out);
  cl_tuple_free(s);
  cl_tuple_free(t);
  return st;
}

/* Drops the modes of extent 1 (they add nothing to a layout's values). */
static int64_t drop_unit_modes(int64_t *shape, int64_t *stride, int64_t n) {
  int64_t kept = 0;
  for (int64_t i = 0; i < n; i++)
    if (shape[i] != 1) {
      shape[kept] = shape[i];
      stride[kept++] = stride[i];
    }
  return kept;
}

/* Mode d: (block, innermost sharding mesh dim, ..., outermost, rounds) with
 * strides (local stride, rank strides * L, block * local stride); the last
 * mode: the replicating mesh dims with their rank strides * L. */
static cl_status placement_modes(const int64_t *mesh, const cl_placement_t *p, int64_t n, const dim_split *split,
                                 int64_t modes, const int64_t *local_stride, int64_t local_size, cl_layout_t **mode) {
  int64_t shape[66], stride[66]; /* block, up to 64 mesh dims (mesh_extents), rounds */
  int64_t rank_stride[64];
  for (int64_t m = n - 1, r = 1; m >= 0; r *= mesh[m], m--)
    rank_stride[m] = r;
  for (int64_t d = 0; d <= modes; d++) {
    int64_t k = 0;
    if (d < modes) {
      shape[k] = split[d].block;
      stride[k++] = local_stride[d];
    }
    for (int64_t m = n - 1; m >= 0; m--) {
      int is_mine = d < modes ? p[m].kind != CL_PLACE_REPLICATE && p[m].dim == d : p[m].kind == CL_PLACE_REPLICATE;
      if (!is_mine)
        continue;
      shape[k] = mesh[m];
      CL_TRY(cl_mul(rank_stride[m], local_size, &stride[k++]));
    }
    if (d < modes) {
      shape[k] = split[d].rounds;
      CL_TRY(cl_mul(split[d].block, local_stride[d], &stride[k++]));
    }
    k = drop_unit_modes(shape, stride, k);
    if (k == 0) {
      shape[k] = 1;
      stride[k++] = 0;
    }
    CL_TRY(layout_of(shape, stride, k, &mode[d]));
  }
  return CL_OK;
}

static cl_status placements_layout(const cl_dist_t *g, const int64_t *mesh, const cl_placement_t *p, int64_t n,
                                   int64_t *local_size, cl_layout_t **out) {
  int64_t modes = g->modes;
  dim_split *split = cl_alloc(sizeof *split * (size_t)modes);
  int64_t *local_stride = cl_alloc(sizeof *local_stride * (size_t)modes);
  cl_layout_t **mode = cl_alloc(sizeof *mode * (size_t)(modes + 1));
  cl_status s = split == NULL || local_stride == NULL || mode == NULL ? cl_dist_nomem() : CL_OK;
  if (mode != NULL)
    memset(mode, 0, sizeof *mode * (size_t)(modes + 1));
  if (s == CL_OK)
    s = collect_splits(g->extent, modes, mesh, p, n, split);
  /* The local block, row-major: the last dimension contiguous. */
  *local_size = 1;
  for (int64_t d = modes - 1; s == CL_OK && d >= 0; d--) {
    int64_t local_extent = 0;
    local_stride[d] = *local_size;
    s = cl_mul(split[d].block, split[d].rounds, &local_extent);
    if (s == CL_OK)
      s = cl_mul(*local_size, local_extent, local_size);
  }
  if (s == CL_OK)
    s = placement_modes(mesh, p, n, split, modes, local_stride, *local_size, mode);
  if (s == CL_OK)
    s = cl_layout_concat((const cl_layout_t *const *)mode, modes + 1, out);
  for (int64_t d = 0; mode != NULL && d <= modes; d++)
    cl_layout_free(mode[d]);
  cl_dealloc(mode);
  cl_dealloc(split);
  cl_dealloc(local_stride);
  return s;
}

static cl_status mesh_extents(const cl_tuple_t *mesh, int64_t n, int64_t *extent, int64_t *ranks) {
  cl_dist_t probe = {0};
  cl_status s = global_extents(mesh, "mesh", &probe);
  if (s == CL_OK && probe.modes != n)
    s = cl_fail(CL_E_DOMAIN, "a mesh of rank %lld takes %lld placements, not %lld",
                (long long)probe.modes, (long long)probe.modes, (long long)n);
  if (s == CL_OK && n <= 64)
    memcpy(extent, probe.extent, sizeof *extent * (size_t)n);
  else if (s == CL_OK)
    s = cl_fail(CL_E_LIMIT, "a mesh of more than 64 dimensions");
  *ranks = probe.size;
  cl_dealloc(probe.extent);
  return s;
}

cl_status cl_dist_from_placements(const cl_tuple_t *shape, const cl_tuple_t *mesh, const cl_placement_t *placements,
                                  int64_t n, cl_dist_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CHECK_NULL(mesh);
  CHECK_NULL(placements);
  int64_t mesh_extent[64], ranks = 0, local_size = 0;
  CL_TRY(mesh_extents(mesh, n, mesh_extent, &ranks));
  cl_dist_t global = {0};
  cl_status s = global_extents(shape, "global shape", &global);
  cl_layout_t *layout = NULL;
  if (s == CL_OK)
    s = placements_layout(&global, mesh_extent, placements, n, &local_size, &layout);
  if (s == CL_OK)
    s = cl_dist_new(shape, ranks, local_size, layout, out);
  cl_dealloc(global.extent);
  cl_layout_free(layout);
  return s;
}

/* ---- text ---- */

/* The top-level arguments of "dist( ... )": their starts and lengths. */
static cl_status split_args(const char *text, const char **arg, size_t *len, int *n) {
  const char *p = text;
  while (isspace((unsigned char)*p))
    p++;
  if (strncmp(p, "dist", 4) != 0)
    return cl_fail(CL_E_PARSE, "column %d: a distribution is written dist(...)", (int)(p - text) + 1);
  p += 4;
  while (isspace((unsigned char)*p))
    p++;
  if (*p != '(')
    return cl_fail(CL_E_PARSE, "column %d: expected '('", (int)(p - text) + 1);
  const char *start = ++p;
  int depth = 0;
  *n = 0;
  for (; *p != '\0'; p++) {
    if (*p == '(')
      depth++;
    else if ((*p == ',' && depth == 0) || (*p == ')' && depth == 0)) {
      if (*n == 66)
        return cl_fail(CL_E_LIMIT, "more than 66 arguments to dist(...)");
      arg[*n] = start;
      len[(*n)++] = (size_t)(p - start);
      start = p + 1;
      if (*p == ')')
        break;
    } else if (*p == ')')
      depth--;
  }
  if (*p != ')')
    return cl_fail(CL_E_PARSE, "column %d: expected ')' closing dist(", (int)(p - text) + 1);
  for (p++; isspace((unsigned char)*p); p++)
    ;
  if (*p != '\0')
    return cl_fail(CL_E_PARSE, "column %d: text after the distribution", (int)(p - text) + 1);
  return CL_OK;
}

/* A NUL-terminated copy of len bytes, white space trimmed. */
static char *arg_text(const char *arg, size_t len) {
  while (len > 0 && isspace((unsigned char)*arg))
    arg++, len--;
  while (len > 0 && isspace((unsigned char)arg[len - 1]))
    len--;
  char *s = cl_alloc(len + 1);
  if (s != NULL) {
    memcpy(s, arg, len);
    s[len] = '\0';
  }
  return s;
}

static cl_status parse_int_arg(const char *text, int64_t *value) {
  cl_tuple_t *t = NULL;
  CL_TRY(cl_tuple_parse(text, &t));
  cl_status s = cl_tuple_kind(t) == CL_KIND_INT ? cl_tuple_value(t, value)
                                                 : cl_fail(CL_E_PARSE, "'%s' is not an integer", text);
  cl_tuple_free(t);
  return s;
}

/* Shard(d), Replicate, StridedShard(d,s), BlockCyclic(d,b). */
static cl_status parse_placement(const char *text, cl_placement_t *p) {
  static const struct {
    const char *name;
    cl_placement_kind kind;
    int args;
  } names[] = {{"Replicate", CL_PLACE_REPLICATE, 0},
               {"Shard", CL_PLACE_SHARD, 1},
               {"StridedShard", CL_PLACE_STRIDED_SHARD, 2},
               {"BlockCyclic", CL_PLACE_BLOCK_CYCLIC, 2}};
  size_t name_len = strcspn(text, "( \t");
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strlen(names[i].name) != name_len || strncmp(text, names[i].name, name_len) != 0)
      continue;
    const char *rest = text + name_len;
    while (isspace((unsigned char)*rest))
      rest++;
    *p = (cl_placement_t){names[i].kind, 0, 0};
    if (names[i].args == 0 && (*rest == '\0' || strcmp(rest, "()") == 0))
      return CL_OK;
    int64_t v[2] = {0, 0};
    char tail = 0;
    if (names[i].args == 1 && sscanf(rest, "(%lld ) %c", (long long *)&v[0], &tail) == 1 && strchr(rest, ',') == NULL) {
      p->dim = v[0];
      return CL_OK;
    }
    if (names[i].args == 2 && sscanf(rest, "(%lld ,%lld ) %c", (long long *)&v[0], (long long *)&v[1], &tail) == 2) {
      p->dim = v[0];
      p->param = v[1];
      return CL_OK;
    }
    return cl_fail(CL_E_PARSE, "'%s': %s takes %d integer argument%s", text, names[i].name, names[i].args,
                   names[i].args == 1 ? "" : "s");
  }
  return cl_fail(CL_E_PARSE, "'%s' is not a placement (Shard(d), Replicate, StridedShard(d,s), BlockCyclic(d,b))",
                 text);
}

static cl_status parse_args(char **arg, int n, cl_dist_t **out) {
  if (n < 3)
    return cl_fail(CL_E_PARSE, "dist(...) takes a shape, then ranks, local size and layout, or a mesh and placements");
  cl_tuple_t *shape = NULL, *mesh = NULL;
  cl_layout_t *layout = NULL;
  cl_placement_t placement[64];
  int64_t ranks = 0, local_size = 0;
  cl_status s = cl_tuple_parse(arg[0], &shape);
  int generic = n == 4 && strchr(arg[3], ':') != NULL && isdigit((unsigned char)arg[2][0]);
  if (s == CL_OK && generic) {
    s = parse_int_arg(arg[1], &ranks);
    if (s == CL_OK)
      s = parse_int_arg(arg[2], &local_size);
    if (s == CL_OK)
      s = cl_layout_parse(arg[3], &layout);
    if (s == CL_OK)
      s = cl_dist_new(shape, ranks, local_size, layout, out);
  } else if (s == CL_OK) {
    for (int i = 2; /* at most 64 placements: split_args takes 66 arguments */ s == CL_OK && i < n; i++)
      s = parse_placement(arg[i], &placement[i - 2]);
    if (s == CL_OK)
      s = cl_tuple_parse(arg[1], &mesh);
    if (s == CL_OK)
      s = cl_dist_from_placements(shape, mesh, placement, n - 2, out);
  }
  cl_tuple_free(shape);
  cl_tuple_free(mesh);
  cl_layout_free(layout);
  return s;
}

cl_status cl_dist_parse(const char *text, cl_dist_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(text);
  const char *start[66];
  size_t len[66];
  char *arg[66];
  int n = 0;
  CL_TRY(split_args(text, start, len, &n));
  cl_status s = CL_OK;
  for (int i = 0; i < n; i++)
    if ((arg[i] = arg_text(start[i], len[i])) == NULL)
      s = cl_dist_nomem();
  if (s == CL_OK)
    s = parse_args(arg, n, out);
  for (int i = 0; i < n; i++)
    cl_dealloc(arg[i]);
  return s;
}

int64_t cl_dist_format(const cl_dist_t *dist, char *buf, size_t cap) {
  if (dist == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_dist_format: NULL argument");
  int64_t shape_len = cl_tuple_format(dist->shape, NULL, 0);
  int64_t layout_len = cl_layout_format(dist->layout, NULL, 0);
  char *shape = cl_alloc((size_t)shape_len + 1), *layout = cl_alloc((size_t)layout_len + 1);
  int64_t n = CL_OK;
  if (shape == NULL || layout == NULL) {
    n = cl_dist_nomem();
  } else {
    cl_tuple_format(dist->shape, shape, (size_t)shape_len + 1);
    cl_layout_format(dist->layout, layout, (size_t)layout_len + 1);
    n = snprintf(buf, cap, "dist(%s, %lld, %lld, %s)", shape, (long long)dist->ranks, (long long)dist->local_size,
                 layout);
  }
  cl_dealloc(shape);
  cl_dealloc(layout);
  return n;
}

/* ---- queries ---- */

int64_t cl_dist_ranks(const cl_dist_t *dist) { return dist != NULL ? dist->ranks : -1; }
int64_t cl_dist_local_size(const cl_dist_t *dist) { return dist != NULL ? dist->local_size : -1; }
int64_t cl_dist_replicas(const cl_dist_t *dist) { return dist != NULL ? dist->replicas : -1; }
int64_t cl_dist_size(const cl_dist_t *dist) { return dist != NULL ? dist->size : -1; }

cl_status cl_dist_shape(const cl_dist_t *dist, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(dist);
  return cl_tuple_copy(dist->shape, out);
}

cl_status cl_dist_layout(const cl_dist_t *dist, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(dist);
  return cl_layout_copy(dist->layout, out);
}

cl_status cl_dist_locate(const cl_dist_t *dist, int64_t i, int64_t replica, int64_t *rank, int64_t *offset) {
  CHECK_NULL(dist);
  CHECK_NULL(rank);
  CHECK_NULL(offset);
  if (i < 0 || i >= dist->size || replica < 0 || replica >= dist->replicas)
    return cl_fail(CL_E_DOMAIN, "element %lld, replica %lld of a distribution of %lld elements and %lld replicas",
                   (long long)i, (long long)replica, (long long)dist->size, (long long)dist->replicas);
  int64_t v = dist->replica_value[replica];
  for (int64_t m = 0; m < dist->modes; m++) { /* i's colexicographic digits */
    v += dist->mode_value[m][i % dist->extent[m]];
    i /= dist->extent[m];
  }
  *rank = v / dist->local_size;
  *offset = v % dist->local_size;
  return CL_OK;
}
