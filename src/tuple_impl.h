/* SPDX-License-Identifier: BSD-3-Clause */
/* tuple_impl.h: the IntTuple arena shared by every module of the library.
 *
 * A tree is stored as its nodes in pre-order in one array.  Each node records
 * how many nodes its subtree spans, so the first child of node n is n+1, the
 * next sibling of a child c is c + c->span, and copying a subtree is one
 * memcpy.  A layout is a CL_KIND_LAYOUT node followed by its shape subtree and
 * its stride subtree; a tuple of layouts nests such nodes as leaves.  A scaled
 * basis (CuTe's ScaledBasis, `1@0@1`) is a CL_KIND_BASIS node followed by the
 * nodes of its path, so that it too is one leaf spanning several nodes: walk
 * leaves with cl_next, never node by node.
 *
 * Results are built with a cl_builder: a growable node array with a sticky
 * status, so that algorithms append nodes without checking every step and
 * look at the status once at the end. */
#ifndef CUTELAYOUT_TUPLE_IMPL_H
#define CUTELAYOUT_TUPLE_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cutelayout/common.h"
#include "cutelayout/tuple.h"

typedef struct cl_node {
  int64_t value;  /* CL_KIND_INT: the integer; CL_KIND_BASIS: the scale; CL_NODE_PATH: an index; otherwise 0 */
  int32_t span;   /* nodes in this subtree, itself included */
  int16_t rank;   /* children: a tuple's elements, 2 for a layout, a basis's path length, 0 for other leaves */
  uint8_t kind;   /* cl_kind */
  uint8_t depth;  /* CuTe's depth of the subtree (layout: depth of its shape) */
} cl_node;

/* The handle behind both cl_tuple_t and cl_layout_t: one allocation. */
struct cl_tuple {
  int32_t count;
  int32_t reserved;
  cl_node nodes[];
};
struct cl_layout {
  int32_t count;
  int32_t plan;    /* tag of the evaluation plan stored after the nodes (eval_plan.c); 0: none */
  cl_node nodes[]; /* nodes[0] is the CL_KIND_LAYOUT root */
};

/* The nodes after a CL_KIND_BASIS node: its path, one index each, in CuTe's
 * order (E<1,0> is 1 then 0).  Not a public kind: no walk that goes leaf by
 * leaf ever meets one. */
#define CL_NODE_PATH 0x40

/* ---- walking ---- */
static inline bool cl_is_int(const cl_node *n) { return n->kind == CL_KIND_INT; }
static inline bool cl_is_basis(const cl_node *n) { return n->kind == CL_KIND_BASIS; }
static inline bool cl_is_tuple(const cl_node *n) { return n->kind == CL_KIND_TUPLE; }
static inline bool cl_is_leaf(const cl_node *n) { return n->kind != CL_KIND_TUPLE; }
static inline const cl_node *cl_first(const cl_node *n) { return n + 1; }
static inline const cl_node *cl_next(const cl_node *c) { return c + c->span; }
/* CuTe's rank: a leaf counts as rank 1. */
static inline int64_t cl_rank_of(const cl_node *n) { return cl_is_tuple(n) ? n->rank : 1; }
/* Element i of a tuple (i < rank); a leaf is its own element 0. */
const cl_node *cl_child(const cl_node *n, int64_t i);
/* A layout node's shape and stride. */
static inline const cl_node *cl_lshape(const cl_node *l) { return l + 1; }
static inline const cl_node *cl_lstride(const cl_node *l) { return cl_next(l + 1); }

#define CL_FOR_EACH_CHILD(c, n) \
  for (const cl_node *c = cl_first(n), *c##_end_ = (n) + (n)->span; c < c##_end_; c = cl_next(c))

/* ---- errors ---- */
/* Records a detail message for cl_last_error() and returns status. */
cl_status cl_fail(cl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void cl_clear_error(void);

#define CL_TRY(expr)                     \
  do {                                   \
    cl_status cl_try_status_ = (expr);   \
    if (cl_try_status_ != CL_OK)         \
      return cl_try_status_;             \
  } while (0)

/* CL_E_NULL for argument `arg` of function `func`, which the message names
 * only when it is public (a static helper's name means nothing to a user). */
cl_status cl_fail_null(const char *func, const char *arg);

/* Argument checks at the top of public functions: a NULL argument is
 * CL_E_NULL; an out-parameter is cleared first so no failure leaves it set. */
#define CHECK_NULL(p) \
  do { if ((p) == NULL) return cl_fail_null(__func__, #p); } while (0)
#define CHECK_OUT(p) \
  do { CHECK_NULL(p); *(p) = NULL; } while (0)

/* ---- memory (through the allocator hook) ---- */
void *cl_alloc(size_t size);
void *cl_realloc(void *ptr, size_t size);
void cl_dealloc(void *ptr);

/* ---- checked arithmetic ---- */
static inline cl_status cl_mul(int64_t a, int64_t b, int64_t *r) {
  return __builtin_mul_overflow(a, b, r) ? cl_fail(CL_E_OVERFLOW, "integer overflow in %lld * %lld", (long long)a, (long long)b) : CL_OK;
}
static inline cl_status cl_add(int64_t a, int64_t b, int64_t *r) {
  return __builtin_add_overflow(a, b, r) ? cl_fail(CL_E_OVERFLOW, "integer overflow in %lld + %lld", (long long)a, (long long)b) : CL_OK;
}
static inline cl_status cl_sub(int64_t a, int64_t b, int64_t *r) {
  return __builtin_sub_overflow(a, b, r) ? cl_fail(CL_E_OVERFLOW, "integer overflow in %lld - %lld", (long long)a, (long long)b) : CL_OK;
}
/* C's truncating division, refusing b == 0 and INT64_MIN / -1. */
cl_status cl_div(int64_t a, int64_t b, int64_t *r);
cl_status cl_mod(int64_t a, int64_t b, int64_t *r);
cl_status cl_ceil_div_int(int64_t a, int64_t b, int64_t *r);
int64_t cl_gcd(int64_t a, int64_t b);

/* ---- limits ---- */
/* A picture (a table, a list, a grid) of rows x cols entries: CL_E_LIMIT
 * naming `what` when an axis or the whole exceeds CL_PICTURE_MAX_CELLS.  An
 * empty axis counts as one entry: the other axis is still written out (a
 * table with no rows still has its column header). */
cl_status cl_check_picture(int64_t rows, int64_t cols, const char *what);

/* ---- the builder ---- */
#define CL_BUILDER_INLINE 64
typedef struct cl_builder {
  cl_node *nodes;
  int32_t count, cap;
  cl_status status; /* first failure; every later append is ignored */
  cl_node inline_nodes[CL_BUILDER_INLINE];
} cl_builder;

void cl_b_init(cl_builder *b);
void cl_b_release(cl_builder *b);
/* Makes the builder fail with status (if it has not already). */
void cl_b_set_error(cl_builder *b, cl_status status);
void cl_b_int(cl_builder *b, int64_t value);
void cl_b_underscore(cl_builder *b);
/* A scaled basis: `scale` on the path of n indices (n >= 1), or on the path
 * of the basis leaf `like` (cl_b_basis_like). */
void cl_b_basis(cl_builder *b, int64_t scale, const int64_t *path, int64_t n);
void cl_b_basis_like(cl_builder *b, int64_t scale, const cl_node *like);
/* Opens a tuple (or layout) node and returns its position; the nodes appended
 * until the matching cl_b_close are its children. */
int32_t cl_b_open(cl_builder *b, cl_kind kind);
void cl_b_close(cl_builder *b, int32_t at);
/* Appends a copy of a subtree. */
void cl_b_copy(cl_builder *b, const cl_node *subtree);
/* Appends a copy of each child of n (its elements, spliced in). */
void cl_b_copy_children(cl_builder *b, const cl_node *n);
/* The built tree, copied into a fresh handle (one allocation). */
cl_status cl_b_finish_tuple(cl_builder *b, cl_tuple_t **out);
cl_status cl_b_finish_layout(cl_builder *b, cl_layout_t **out);
static inline const cl_node *cl_b_root(const cl_builder *b) { return b->count ? b->nodes : NULL; }
/* Runs `f`-style code that builds exactly one tree into a temporary builder
 * and hands it out as a tuple: the common tail of the public functions. */

/* A layout built as two trees, its shape and its stride, mode by mode. */
typedef struct cl_lbuilder {
  cl_builder shape, stride;
} cl_lbuilder;
void cl_lb_init(cl_lbuilder *lb);
void cl_lb_release(cl_lbuilder *lb);
/* Opens a tuple mode in both trees; close with cl_lb_close. */
typedef struct { int32_t shape_at, stride_at; } cl_lb_mark;
cl_lb_mark cl_lb_open(cl_lbuilder *lb);
void cl_lb_close(cl_lbuilder *lb, cl_lb_mark m);
void cl_lb_leaf(cl_lbuilder *lb, int64_t shape, int64_t stride);
/* Appends a (sub-)layout given by its shape and stride subtrees. */
void cl_lb_copy(cl_lbuilder *lb, const cl_node *shape, const cl_node *stride);
cl_status cl_lb_status(const cl_lbuilder *lb);
cl_status cl_lb_finish(cl_lbuilder *lb, cl_layout_t **out);

/* ---- handles from trees ---- */
cl_status cl_tuple_from_tree(const cl_node *root, cl_tuple_t **out);
cl_status cl_layout_from_trees(const cl_node *shape, const cl_node *stride, cl_layout_t **out);
static inline const cl_node *cl_troot(const cl_tuple_t *t) { return t->nodes; }
static inline const cl_node *cl_lroot(const cl_layout_t *l) { return l->nodes; }

/* ---- tree algorithms used across modules (tuple.c, stride.c) ---- */
bool cl_tree_equal(const cl_node *a, const cl_node *b);
bool cl_tree_all_int(const cl_node *n); /* only integer leaves */
bool cl_tree_stride_leaves(const cl_node *n); /* only integer and scaled-basis leaves: a stride */
bool cl_tree_congruent(const cl_node *a, const cl_node *b);
/* a's tuple structure is a prefix of b's: a leaf of a may stand for a subtree of b. */
bool cl_tree_weakly_congruent(const cl_node *a, const cl_node *b);
/* Requires an int tuple: CL_E_TYPE naming `what` otherwise. */
cl_status cl_require_int_tuple(const cl_node *n, const char *what);
/* Requires a shape, an int tuple of extents >= 0: CL_E_TYPE naming `what`
 * for a non-integer leaf, CL_E_DOMAIN for a negative extent. */
cl_status cl_require_shape(const cl_node *n, const char *what);
/* Requires cl_require_shape of the shape of every layout in the tree (a
 * layout, or a tuple holding layouts such as a tiler).  Every handle is
 * checked so when it is made, whatever made it. */
cl_status cl_require_layout_shapes(const cl_node *root);
cl_status cl_tree_product(const cl_node *n, int64_t *out);
/* CuTe's depth; CL_E_DOMAIN when the tree holds an empty tuple. */
cl_status cl_tree_depth(const cl_node *n, int64_t *out);
cl_status cl_tree_inner_product(const cl_node *a, const cl_node *b, int64_t *out);
int64_t cl_tree_leaf_count(const cl_node *n);
/* Leaves in pre-order, stored into out[0..leaf_count). */
void cl_tree_leaves(const cl_node *n, const cl_node **out);
void cl_b_flatten(cl_builder *b, const cl_node *n);
void cl_b_shape_div(cl_builder *b, const cl_node *a, const cl_node *d);
void cl_b_ceil_div(cl_builder *b, const cl_node *a, const cl_node *d);
void cl_b_elem_scale(cl_builder *b, const cl_node *a, const cl_node *s);
void cl_b_prefix_product(cl_builder *b, const cl_node *a, int64_t init);
/* Unflatten: fold the leaves of flat (in order) into the profile of `profile`;
 * *next is the index of the next unused flat leaf. */
void cl_b_unflatten(cl_builder *b, const cl_node *const *flat, int64_t nflat, int64_t *next, const cl_node *profile);
void cl_b_compact_major(cl_builder *b, const cl_node *shape, bool row_major, int64_t current);
void cl_b_compact_order(cl_builder *b, const cl_node *shape, const cl_node *order);
cl_status cl_tree_crd2idx(const cl_node *crd, const cl_node *shape, const cl_node *stride, int64_t *out);
/* layout(i) on (shape, stride) for an integer i. */
cl_status cl_tree_eval(const cl_node *shape, const cl_node *stride, int64_t i, int64_t *out);
cl_status cl_tree_crd2idx_shape(const cl_node *crd, const cl_node *shape, int64_t *out);
/* crd2idx(crd, shape, stride) as a value: an integer, a scaled basis or an
 * arithmetic tuple, as CuTe computes it for strides holding scaled bases
 * (and the index for integer strides). */
void cl_b_crd2value(cl_builder *b, const cl_node *crd, const cl_node *shape, const cl_node *stride);
/* CuTe's dice(crd, t): the parts of t at the integer positions of crd
 * (layout.c); a layout is diced as its shape and its stride. */
void cl_b_dice(cl_builder *b, const cl_node *crd, const cl_node *t);
/* CuTe's coshape of a layout whose strides hold scaled bases (layout.c). */
void cl_b_coordinate_coshape(cl_builder *b, const cl_node *shape, const cl_node *stride);
void cl_b_idx2crd(cl_builder *b, const cl_node *idx, const cl_node *shape);
void cl_b_idx2crd_strided(cl_builder *b, const cl_node *idx, const cl_node *shape, const cl_node *stride);

/* ---- scaled bases and arithmetic tuples (basis.c) ---- */
/* Two bases on the same path (their scales aside). */
bool cl_basis_same(const cl_node *a, const cl_node *b);
/* Does the tree hold a scaled basis anywhere? */
bool cl_tree_has_basis(const cl_node *n);
/* c times a stride leaf (an integer or a scaled basis): CuTe's Int<c> * d. */
void cl_b_scale_leaf(cl_builder *b, int64_t c, const cl_node *leaf);
/* CuTe's as_arithmetic_tuple: bases become nested tuples (3@1 is (0,3)). */
void cl_b_as_arith(cl_builder *b, const cl_node *v);
/* CuTe's x + y on values (integers, bases, arithmetic tuples): CL_E_TYPE for
 * a nonzero integer added to a basis or a tuple. */
void cl_b_value_add(cl_builder *b, const cl_node *x, const cl_node *y);

/* CuTe's coprofile of a layout with this stride: the zeros shaped like its
 * values, repeat_like(as_arithmetic_tuple(sum(stride)), 0); an integer 0
 * for integer strides.  The builder fails (CL_E_TYPE) where CuTe cannot sum
 * the strides. */
void cl_b_coprofile(cl_builder *out, const cl_node *stride);

/* A forest: values built one after the other in one builder, for sums in a
 * given order.  cl_forest_sum(f, at) replaces the last two trees, the first
 * of which starts at `at`, by their sum (cl_b_value_add), built in the
 * scratch builder so that no tree is read while its builder grows.
 * cl_forest_finish appends the forest's first tree (its result, when one
 * tree is left) to b, or passes its failure on, and releases the forest. */
typedef struct cl_forest {
  cl_builder trees, scratch;
} cl_forest;
void cl_forest_init(cl_forest *f);
void cl_forest_sum(cl_forest *f, int32_t at);
void cl_forest_finish(cl_forest *f, cl_builder *b);

/* The canonical text of a tree, snprintf-style (text.c). */
int64_t cl_format_tree(const cl_node *root, char *buf, size_t cap);
/* The same text, into a sink (sink_impl.h). */
struct cl_sink;
void cl_sink_tree(struct cl_sink *o, const cl_node *root);

/* Tuple views of integers for internal calls with a literal. */
typedef struct { cl_node node; } cl_int_node;
static inline cl_int_node cl_int_leaf(int64_t v) {
  cl_int_node n = {{v, 1, 0, CL_KIND_INT, 0}};
  return n;
}

#endif
