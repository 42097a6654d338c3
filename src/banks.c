/* SPDX-License-Identifier: BSD-3-Clause */
/* banks.c: the shared-memory bank-conflict model (banks.h).
 *
 * One pure function at the bottom, cl_bank_count: the wavefronts of one
 * instruction from its lanes' byte addresses.  Above it, an access (a TV
 * layout) over a shared-memory layout becomes instructions (cl_bank_plan),
 * and a report lists each one's count. */
#include <string.h>

#include <cutelayout/compiled.h>
#include <cutelayout/eval.h>

#include "banks_impl.h"

/* ------------------------------------------------------------ one instruction */

/* The lanes served together: NVIDIA's shared memory moves 128 bytes a
 * wavefront, so a warp of 8-byte accesses is served a half-warp at a time and
 * one of 16-byte accesses (ldmatrix's rows included) a quarter-warp. */
static int64_t served_group(cl_smem_op op, int64_t bytes) {
  if (op == CL_SMEM_LDMATRIX || op == CL_SMEM_STMATRIX)
    return 8;
  return bytes >= 16 ? 8 : bytes == 8 ? 16 : CL_WARP;
}

static bool width_of_op(cl_smem_op op, int64_t bytes) {
  switch (op) {
  case CL_SMEM_LOAD:
  case CL_SMEM_STORE:
    return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
  case CL_SMEM_LDMATRIX:
  case CL_SMEM_STMATRIX:
    return bytes == 16;
  case CL_SMEM_CP_ASYNC:
    return bytes == 4 || bytes == 8 || bytes == 16;
  }
  return false;
}

/* Distinct values among ids[0..n), sorted in place (n <= 32). */
static int64_t sort_unique(int64_t *ids, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    int64_t w = ids[i], j = i;
    for (; j > 0 && ids[j - 1] > w; j--)
      ids[j] = ids[j - 1];
    ids[j] = w;
  }
  int64_t distinct = 0;
  for (int64_t i = 0; i < n; i++)
    if (distinct == 0 || ids[distinct - 1] != ids[i])
      ids[distinct++] = ids[i];
  return distinct;
}

/* Whether lanes that name the same word share one read or write of it:
 * ld.shared, st.shared, ldmatrix and stmatrix do; each lane of cp.async
 * writes its own bytes, so 32 lanes that write one word take 32 wavefronts
 * (measured on an H100: docs/bank-conflicts.md). */
static bool lanes_share_words(cl_smem_op op) { return op != CL_SMEM_CP_ASYNC; }

/* One served group of n lanes: the most words asked of any bank (its
 * wavefronts) and the words asked in all.  A lane of 4 bytes or more asks
 * an aligned run of banks, so the group is counted in units of its width
 * (a 16-byte unit is 4 words in 4 banks): two lanes ask different words of
 * a bank exactly when they ask different units of the same unit slot. */
static void count_group(const int64_t *lanes, int64_t n, int64_t bytes, bool share, int64_t *wavefronts,
                        int64_t *words_out) {
  int64_t unit = bytes < CL_BANK_BYTES ? CL_BANK_BYTES : bytes;
  int64_t slots = CL_BANKS * CL_BANK_BYTES / unit;
  int64_t units[2 * CL_WARP];
  int64_t nunits = 0;
  for (int64_t l = 0; l < n; l++)
    if (lanes[l] >= 0)
      units[nunits++] = lanes[l] / unit;
  int64_t asked = share ? sort_unique(units, nunits) : nunits;
  int64_t per_slot[CL_BANKS] = {0};
  int64_t most = 0;
  for (int64_t i = 0; i < asked; i++) {
    int64_t in_slot = ++per_slot[units[i] % slots];
    most = in_slot > most ? in_slot : most;
  }
  *wavefronts = most;
  *words_out = asked * (unit / CL_BANK_BYTES);
}

/* Whether the lanes that take part all name one address (or none does). */
static bool uniform(const int64_t *lanes, int64_t n) {
  int64_t address = -1;
  for (int64_t l = 0; l < n; l++)
    if (lanes[l] >= 0 && address >= 0 && lanes[l] != address)
      return false;
    else if (lanes[l] >= 0)
      address = lanes[l];
  return true;
}

/* Adds a group's wavefronts and its ideal, its words over 32 rounded up. */
static void add_group(const int64_t *lanes, int64_t n, int64_t bytes, bool share, int64_t *wavefronts,
                      int64_t *ideal) {
  int64_t w, words;
  count_group(lanes, n, bytes, share, &w, &words);
  *wavefronts += w;
  *ideal += (words + CL_BANKS - 1) / CL_BANKS;
}

void cl_bank_count(cl_smem_op op, const int64_t lanes[CL_WARP], int64_t bytes, int64_t *wavefronts, int64_t *ideal) {
  int64_t group = served_group(op, bytes);
  bool share = lanes_share_words(op);
  /* A 64- or 128-bit ld.shared whose two neighbouring groups (the half-warps
   * of a 64-bit load, quarter-warps 0-1 and 2-3 of a 128-bit one) each read
   * one address is served as one group: a broadcast of 16 bytes to a whole
   * warp takes 2 wavefronts, not 4 (measured on an H100). */
  bool pairs = op == CL_SMEM_LOAD && bytes >= 8;
  *wavefronts = 0;
  *ideal = 0;
  for (int64_t first = 0; first < CL_WARP; first += pairs ? 2 * group : group) {
    if (pairs && uniform(lanes + first, group) && uniform(lanes + first + group, group)) {
      add_group(lanes + first, 2 * group, bytes, share, wavefronts, ideal);
      continue;
    }
    add_group(lanes + first, group, bytes, share, wavefronts, ideal);
    if (pairs)
      add_group(lanes + first + group, group, bytes, share, wavefronts, ideal);
  }
}

cl_status cl_smem_wavefronts(cl_smem_op op, const int64_t *lanes, int64_t bytes, int64_t *wavefronts,
                             int64_t *ideal) {
  CHECK_NULL(lanes);
  if (!width_of_op(op, bytes))
    return cl_fail(CL_E_DOMAIN, "cl_smem_wavefronts: %lld-byte accesses are not an instruction of this kind",
                   (long long)bytes);
  for (int64_t l = 0; l < CL_WARP; l++)
    if (lanes[l] < -1 || (lanes[l] >= 0 && lanes[l] % bytes != 0))
      return cl_fail(CL_E_DOMAIN, "cl_smem_wavefronts: lane %lld's address %lld is not a multiple of %lld bytes",
                     (long long)l, (long long)lanes[l], (long long)bytes);
  int64_t w, i;
  cl_bank_count(op, lanes, bytes, &w, &i);
  if (wavefronts != NULL)
    *wavefronts = w;
  if (ideal != NULL)
    *ideal = i;
  return CL_OK;
}

/* ------------------------------------------------------------- the plan */

/* The largest access of any instruction, and of the inputs we lay out. */
enum { CL_VECTOR_BITS_MAX = 128 };
#define CL_BANK_VALUES_MAX ((int64_t)1 << 24)

static cl_status smem_size(cl_layout_fn_t smem, int64_t *size) {
  if (smem.composed != NULL)
    return cl_composed_size(smem.composed, size);
  if (smem.fn.kind == CL_FN_LAYOUT && smem.fn.layout != NULL) {
    if (cl_layout_is_coordinate(smem.fn.layout))
      return cl_fail(CL_E_TYPE, "bank_conflicts: the shared-memory layout has coordinate strides, not offsets");
    return cl_layout_size_checked(smem.fn.layout, size);
  }
  if (smem.fn.kind == CL_FN_SWIZZLE)
    return cl_fail(CL_E_TYPE, "bank_conflicts: a bare swizzle is not a shared-memory layout (compose it with one)");
  return cl_fail(CL_E_NULL, "bank_conflicts: no shared-memory layout");
}

static cl_status smem_at(cl_layout_fn_t smem, int64_t i, int64_t *offset) {
  return smem.composed != NULL ? cl_composed_eval(smem.composed, i, offset) : cl_layout_eval(smem.fn.layout, i, offset);
}

/* The offsets of the tile indices tile[0..n) (each checked inside the
 * domain first).  A layout's offsets come from one pass over its domain
 * when that is not much larger than the access (cl_layout_eval_range's
 * odometer, no division per element), a swizzled layout's from its compiled
 * form; anything else is evaluated index by index. */
static cl_status offsets_of(cl_layout_fn_t smem, const int64_t *tile, int64_t n, int64_t domain, int64_t *offset) {
  if (smem.composed == NULL && domain <= 4 * n + 1024) {
    int64_t *table = cl_alloc((size_t)(domain > 0 ? domain : 1) * sizeof *table);
    if (table == NULL)
      return cl_fail(CL_E_NOMEM, "bank_conflicts: out of memory");
    cl_status s = cl_layout_eval_range(smem.fn.layout, 0, domain, table);
    for (int64_t i = 0; i < n && s == CL_OK; i++)
      offset[i] = table[tile[i]];
    cl_dealloc(table);
    return s;
  }
  cl_compiled_layout_t compiled;
  if (smem.composed != NULL && cl_composed_compile(smem.composed, &compiled) == CL_OK) {
    for (int64_t i = 0; i < n; i++)
      offset[i] = cl_compiled_eval(&compiled, tile[i]);
    return CL_OK;
  }
  for (int64_t i = 0; i < n; i++)
    CL_TRY(smem_at(smem, tile[i], &offset[i]));
  return CL_OK;
}

/* Every value's tile index and offset. */
static cl_status lay_out_values(const cl_layout_t *tv, cl_layout_fn_t smem, cl_bank_plan *p) {
  int64_t domain, n = p->threads * p->values;
  CL_TRY(smem_size(smem, &domain));
  CL_TRY(cl_layout_eval_range(tv, 0, n, p->tile));
  for (int64_t i = 0; i < n; i++)
    if (p->tile[i] < 0 || p->tile[i] >= domain)
      return cl_fail(CL_E_DOMAIN, "bank_conflicts: thread %lld's value %lld is tile index %lld, outside the "
                     "shared-memory layout's %lld indices", (long long)(i % p->threads), (long long)(i / p->threads),
                     (long long)p->tile[i], (long long)domain);
  CL_TRY(offsets_of(smem, p->tile, n, domain, p->offset));
  for (int64_t i = 0; i < n; i++)
    if (p->offset[i] < 0)
      return cl_fail(CL_E_DOMAIN, "bank_conflicts: tile index %lld has the negative offset %lld",
                     (long long)p->tile[i], (long long)p->offset[i]);
  return CL_OK;
}

/* Whether every thread's values, taken `vector` at a time, are contiguous
 * and aligned runs of offsets: then each run is one access of vector
 * elements. */
static bool vectors_fit(const cl_bank_plan *p, int64_t vector) {
  if (p->values % vector != 0)
    return false;
  for (int64_t t = 0; t < p->threads; t++)
    for (int64_t v = 0; v < p->values; v += vector) {
      int64_t first = p->offset[t + p->threads * v];
      if (first % vector != 0)
        return false;
      for (int64_t k = 1; k < vector; k++)
        if (p->offset[t + p->threads * (v + k)] != first + k)
          return false;
    }
  return true;
}

/* The widest power-of-two vector, at most `most` elements, that
 * vectors_fit takes, in one pass over the values: a vector of V elements
 * fits when V divides the values, every position v where a thread's run of
 * consecutive offsets breaks (and v = 0), and the offset there; the runs in
 * between are then whole, aligned vectors. */
static int64_t widest_vector(const cl_bank_plan *p, int64_t most) {
  if (p->threads == 0 || p->values == 0)
    return most; /* no values: any vector fits */
  uint64_t must_divide = (uint64_t)p->values | (uint64_t)most;
  for (int64_t t = 0; t < p->threads; t++)
    must_divide |= (uint64_t)p->offset[t];
  for (int64_t v = 1; v < p->values; v++) {
    const int64_t *now = &p->offset[p->threads * v], *before = now - p->threads;
    for (int64_t t = 0; t < p->threads; t++)
      if (now[t] != before[t] + 1)
        must_divide |= (uint64_t)v | (uint64_t)now[t];
  }
  return (int64_t)(must_divide & -must_divide);
}

static const char *op_name(cl_smem_op op) {
  static const char *const names[] = {"ld.shared", "st.shared", "ldmatrix", "stmatrix", "cp.async"};
  return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

/* The elements each lane moves at once: the widest fitting vector, or the
 * one the access names (ldmatrix and stmatrix: a 16-byte row). */
static cl_status choose_vector(const cl_smem_access_t *a, cl_bank_plan *p) {
  int64_t bits = a->vector_bits;
  if (a->op == CL_SMEM_LDMATRIX || a->op == CL_SMEM_STMATRIX) {
    if (bits != 0 && bits != 128)
      return cl_fail(CL_E_DOMAIN, "bank_conflicts: %s rows are 128 bits, not %lld", op_name(a->op), (long long)bits);
    bits = 128;
  }
  if (bits != 0) {
    if (bits % a->bits != 0 || bits > CL_VECTOR_BITS_MAX || (bits & (bits - 1)) != 0)
      return cl_fail(CL_E_DOMAIN, "bank_conflicts: a %lld-bit vector of %lld-bit elements is no access",
                     (long long)bits, (long long)a->bits);
    if (!vectors_fit(p, bits / a->bits))
      return cl_fail(CL_E_DOMAIN, "bank_conflicts: each thread's values are not contiguous, aligned runs of %lld "
                     "bits in shared memory, as %s needs", (long long)bits, op_name(a->op));
    p->vector = bits / a->bits;
  } else {
    p->vector = widest_vector(p, CL_VECTOR_BITS_MAX / a->bits);
  }
  if (!width_of_op(a->op, p->vector * p->elem_bytes))
    return cl_fail(CL_E_DOMAIN, "bank_conflicts: %s does not move %lld bytes a thread",
                   op_name(a->op), (long long)(p->vector * p->elem_bytes));
  return CL_OK;
}

static cl_status check_access(const cl_smem_access_t *a) {
  if (a->bits != 8 && a->bits != 16 && a->bits != 32 && a->bits != 64 && a->bits != 128)
    return cl_fail(CL_E_DOMAIN, "bank_conflicts: elements of %lld bits (the model takes 8, 16, 32, 64 or 128)",
                   (long long)a->bits);
  if ((unsigned)a->op > CL_SMEM_CP_ASYNC)
    return cl_fail(CL_E_DOMAIN, "bank_conflicts: unknown instruction kind %d", (int)a->op);
  bool matrix = a->op == CL_SMEM_LDMATRIX || a->op == CL_SMEM_STMATRIX;
  if (matrix ? !(a->matrices == 0 || a->matrices == 1 || a->matrices == 2 || a->matrices == 4) : a->matrices != 0)
    return cl_fail(CL_E_DOMAIN, "bank_conflicts: %lld matrices (ldmatrix and stmatrix take 1, 2 or 4; other "
                   "instructions 0)", (long long)a->matrices);
  if (cl_layout_rank(a->tv) != 2)
    return cl_fail(CL_E_RANK, "bank_conflicts: a TV layout has rank 2, (thread, value), not %lld",
                   (long long)cl_layout_rank(a->tv));
  if (cl_layout_is_coordinate(a->tv))
    return cl_fail(CL_E_TYPE, "bank_conflicts: the TV layout has coordinate strides, not tile indices");
  return CL_OK;
}

static cl_status mode_size(const cl_layout_t *tv, int64_t mode, int64_t *size) {
  cl_layout_t *m = NULL;
  CL_TRY(cl_layout_get(tv, &mode, 1, &m));
  cl_status s = cl_layout_size_checked(m, size);
  cl_layout_free(m);
  return s;
}

void cl_bank_plan_release(cl_bank_plan *plan) {
  cl_dealloc(plan->tile);
  cl_dealloc(plan->offset);
  plan->tile = plan->offset = NULL;
}

static cl_status plan_fill(const cl_smem_access_t *access, cl_layout_fn_t smem, cl_bank_plan *p) {
  CL_TRY(mode_size(access->tv, 0, &p->threads));
  CL_TRY(mode_size(access->tv, 1, &p->values));
  int64_t n;
  CL_TRY(cl_mul(p->threads, p->values, &n));
  if (n > CL_BANK_VALUES_MAX)
    return cl_fail(CL_E_LIMIT, "bank_conflicts: %lld values in one access (at most %lld)", (long long)n,
                   (long long)CL_BANK_VALUES_MAX);
  p->tile = cl_alloc((size_t)(n > 0 ? n : 1) * sizeof *p->tile);
  p->offset = cl_alloc((size_t)(n > 0 ? n : 1) * sizeof *p->offset);
  if (p->tile == NULL || p->offset == NULL)
    return cl_fail(CL_E_NOMEM, "bank_conflicts: out of memory");
  CL_TRY(lay_out_values(access->tv, smem, p));
  CL_TRY(choose_vector(access, p));
  return CL_OK;
}

cl_status cl_bank_plan_make(const cl_smem_access_t *access, cl_layout_fn_t smem, cl_bank_plan *out) {
  CHECK_NULL(access);
  CHECK_NULL(access->tv);
  CHECK_NULL(out);
  memset(out, 0, sizeof *out);
  CL_TRY(check_access(access));
  out->op = access->op;
  out->elem_bytes = access->bits / 8;
  bool matrix = access->op == CL_SMEM_LDMATRIX || access->op == CL_SMEM_STMATRIX;
  out->lanes = matrix ? 8 * (access->matrices == 0 ? 4 : access->matrices) : CL_WARP;
  cl_status s = plan_fill(access, smem, out);
  if (s != CL_OK)
    cl_bank_plan_release(out);
  return s;
}

int64_t cl_bank_plan_warps(const cl_bank_plan *plan) { return (plan->threads + CL_WARP - 1) / CL_WARP; }

int64_t cl_bank_plan_vectors(const cl_bank_plan *plan) { return plan->values / plan->vector; }

/* ------------------------------------------------------------- the report */

struct cl_bank_report {
  int64_t count;
  cl_bank_instruction_t *instructions;
  int64_t *tile;   /* count x 32: each lane's first tile index, -1 for none */
  int64_t *offset; /* count x 32: its element offset */
  int64_t wavefronts, ideal;
};

void cl_bank_report_free(cl_bank_report_t *report) {
  if (report == NULL)
    return;
  cl_dealloc(report->instructions);
  cl_dealloc(report->tile);
  cl_dealloc(report->offset);
  cl_dealloc(report);
}

static cl_status report_alloc(int64_t count, cl_bank_report_t **out) {
  cl_bank_report_t *r = cl_alloc(sizeof *r);
  if (r == NULL)
    return cl_fail(CL_E_NOMEM, "bank_conflicts: out of memory");
  memset(r, 0, sizeof *r);
  size_t n = (size_t)(count > 0 ? count : 1);
  r->count = count;
  r->instructions = cl_alloc(n * sizeof *r->instructions);
  r->tile = cl_alloc(n * CL_WARP * sizeof *r->tile);
  r->offset = cl_alloc(n * CL_WARP * sizeof *r->offset);
  if (r->instructions == NULL || r->tile == NULL || r->offset == NULL) {
    cl_bank_report_free(r);
    return cl_fail(CL_E_NOMEM, "bank_conflicts: out of memory");
  }
  *out = r;
  return CL_OK;
}

/* Instruction (w, k) of the plan into slot i of the report. */
static void report_instruction(const cl_bank_plan *p, int64_t w, int64_t k, int64_t i, cl_bank_report_t *r) {
  int64_t bytes = p->vector * p->elem_bytes;
  int64_t addresses[CL_WARP];
  for (int64_t lane = 0; lane < CL_WARP; lane++) {
    int64_t value = cl_bank_plan_value(p, w, k, lane);
    r->tile[i * CL_WARP + lane] = value < 0 ? -1 : p->tile[value];
    r->offset[i * CL_WARP + lane] = value < 0 ? -1 : p->offset[value];
    addresses[lane] = value < 0 ? -1 : p->offset[value] * p->elem_bytes;
  }
  cl_bank_instruction_t *in = &r->instructions[i];
  in->warp = w;
  in->index = k;
  in->bytes = bytes;
  cl_bank_count(p->op, addresses, bytes, &in->wavefronts, &in->ideal);
  r->wavefronts += in->wavefronts;
  r->ideal += in->ideal;
}

cl_status cl_bank_conflicts(const cl_smem_access_t *access, cl_layout_fn_t smem, cl_bank_report_t **out) {
  CHECK_OUT(out);
  cl_bank_plan p;
  CL_TRY(cl_bank_plan_make(access, smem, &p));
  int64_t warps = cl_bank_plan_warps(&p), vectors = cl_bank_plan_vectors(&p);
  cl_bank_report_t *r = NULL;
  cl_status s = report_alloc(warps * vectors, &r);
  if (s == CL_OK)
    for (int64_t w = 0; w < warps; w++)
      for (int64_t k = 0; k < vectors; k++)
        report_instruction(&p, w, k, w * vectors + k, r);
  cl_bank_plan_release(&p);
  *out = r;
  return s;
}

/* ------------------------------------------------------------- tiled copies */

/* The access a copy atom's instruction makes of shared memory, and which
 * side of the copy that is. */
static void access_of_atom(const cl_copy_atom_t *atom, cl_smem_access_t *access, cl_copy_side *side) {
  cl_copy_kind kind = cl_copy_atom_kind(atom);
  static const cl_smem_op ops[] = {CL_SMEM_LOAD, CL_SMEM_LDMATRIX, CL_SMEM_STMATRIX, CL_SMEM_CP_ASYNC};
  access->op = (unsigned)kind < 4 ? ops[kind] : CL_SMEM_LOAD;
  *side = kind == CL_COPY_STMATRIX || kind == CL_COPY_CP_ASYNC ? CL_COPY_DST : CL_COPY_SRC;
  access->bits = cl_copy_atom_value_bits(atom);
  int64_t moved = cl_copy_atom_access_bits(atom, *side);
  /* a width an instruction has; AutoVectorizingCopy's whole tile is not one */
  access->vector_bits = moved >= access->bits && moved <= 128 && (moved & (moved - 1)) == 0 ? moved : 0;
  access->matrices = 0;
  if (kind == CL_COPY_LDMATRIX || kind == CL_COPY_STMATRIX) {
    /* each matrix puts one 32-bit register in every thread */
    int64_t registers = cl_copy_atom_access_bits(atom, kind == CL_COPY_LDMATRIX ? CL_COPY_DST : CL_COPY_SRC) / 32;
    access->matrices = registers == 1 || registers == 2 || registers == 4 ? registers : 4;
    access->vector_bits = 128;
  }
}

cl_status cl_bank_conflicts_tiled_copy(const cl_tiled_copy_t *copy, cl_layout_fn_t smem, cl_bank_report_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(copy);
  cl_copy_atom_t *atom = NULL;
  CL_TRY(cl_tiled_copy_atom(copy, &atom));
  cl_smem_access_t access;
  cl_copy_side side;
  access_of_atom(atom, &access, &side);
  cl_copy_atom_free(atom);
  cl_layout_t *tv = NULL;
  CL_TRY(cl_tiled_copy_side_tv(copy, side, &tv));
  access.tv = tv;
  cl_status s = cl_bank_conflicts(&access, smem, out);
  cl_layout_free(tv);
  return s;
}

int64_t cl_bank_report_count(const cl_bank_report_t *report) {
  CHECK_NULL(report);
  return report->count;
}

cl_status cl_bank_report_instruction(const cl_bank_report_t *report, int64_t i, cl_bank_instruction_t *out) {
  CHECK_NULL(report);
  CHECK_NULL(out);
  if (i < 0 || i >= report->count)
    return cl_fail(CL_E_DOMAIN, "cl_bank_report_instruction: instruction %lld of %lld", (long long)i,
                   (long long)report->count);
  *out = report->instructions[i];
  return CL_OK;
}

cl_status cl_bank_report_lane(const cl_bank_report_t *report, int64_t i, int64_t lane, int64_t *tile_index,
                              int64_t *offset) {
  CHECK_NULL(report);
  if (i < 0 || i >= report->count || lane < 0 || lane >= CL_WARP)
    return cl_fail(CL_E_DOMAIN, "cl_bank_report_lane: lane %lld of instruction %lld (of %lld instructions, 32 lanes)",
                   (long long)lane, (long long)i, (long long)report->count);
  if (tile_index != NULL)
    *tile_index = report->tile[i * CL_WARP + lane];
  if (offset != NULL)
    *offset = report->offset[i * CL_WARP + lane];
  return CL_OK;
}

cl_status cl_bank_report_totals(const cl_bank_report_t *report, int64_t *wavefronts, int64_t *ideal) {
  CHECK_NULL(report);
  if (wavefronts != NULL)
    *wavefronts = report->wavefronts;
  if (ideal != NULL)
    *ideal = report->ideal;
  return CL_OK;
}
