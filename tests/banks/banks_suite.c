/* SPDX-License-Identifier: BSD-3-Clause */
/* banks_suite.c: the hardware suite of the bank-conflict model
 * (docs/bank-conflicts.md).
 *
 *   banks_suite lanes PAIRS.tsv        the lanes file tools/banks/harness.cu runs
 *   banks_suite check PAIRS.tsv NCU.tsv  the model against measured wavefronts
 *
 * PAIRS.tsv: one (access, shared-memory layout) pair a line, tab-separated:
 * name, instruction (ld st ldsm stsm cpasync), element bits, vector bits (0:
 * the widest), matrices (ldsm/stsm), the TV layout, the shared-memory layout
 * (a layout or a composed layout).  NCU.tsv: name, then the wavefronts ncu
 * counted for the pair's kernel: loads, stores, load and store bank
 * conflicts, cp.async's writes (tools/banks/ncu_table.py).  check prints one line a
 * pair and fails unless the model's count equals the measured one for every
 * pair, and every pair was measured. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

enum { MAX_PAIRS = 512, FIELDS = 7 };

typedef struct pair {
  char name[128];
  char op[16];
  cl_smem_access_t access;
  cl_layout_t *tv;
  cl_layout_t *layout;
  cl_composed_t *composed;
} pair;

static int fail(const char *what, const char *detail) {
  fprintf(stderr, "banks_suite: %s: %s\n", what, detail);
  return 1;
}

static int parse_op(const char *op, cl_smem_op *out) {
  static const struct { const char *name; cl_smem_op op; } ops[] = {
    {"ld", CL_SMEM_LOAD}, {"st", CL_SMEM_STORE}, {"ldsm", CL_SMEM_LDMATRIX}, {"stsm", CL_SMEM_STMATRIX},
    {"cpasync", CL_SMEM_CP_ASYNC},
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(op, ops[i].name) == 0) {
      *out = ops[i].op;
      return 0;
    }
  return 1;
}

/* Splits line at tabs into at most n fields (in place); returns the count. */
static int split_tabs(char *line, char **fields, int n) {
  int count = 0;
  line[strcspn(line, "\r\n")] = '\0';
  for (char *p = line; count < n;) {
    fields[count++] = p;
    char *tab = strchr(p, '\t');
    if (tab == NULL)
      break;
    *tab = '\0';
    p = tab + 1;
  }
  return count;
}

static int read_pair(char *line, pair *p) {
  char *f[FIELDS];
  if (split_tabs(line, f, FIELDS) != FIELDS)
    return fail("a pair needs 7 tab-separated fields", line);
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", f[0]);
  snprintf(p->op, sizeof p->op, "%s", f[1]);
  if (parse_op(f[1], &p->access.op))
    return fail("unknown instruction", f[1]);
  p->access.bits = atoll(f[2]);
  p->access.vector_bits = atoll(f[3]);
  p->access.matrices = atoll(f[4]);
  if (cl_layout_parse(f[5], &p->tv) != CL_OK)
    return fail(f[5], cl_last_error());
  p->access.tv = p->tv;
  cl_status s = strstr(f[6], " o ") ? cl_composed_parse(f[6], &p->composed) : cl_layout_parse(f[6], &p->layout);
  return s == CL_OK ? 0 : fail(f[6], cl_last_error());
}

static int read_pairs(const char *path, pair *pairs, int *n) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return fail(path, "cannot open");
  char line[4096];
  int bad = 0;
  *n = 0;
  while (!bad && fgets(line, sizeof line, f) != NULL) {
    if (line[0] == '#' || line[0] == '\n')
      continue;
    if (*n == MAX_PAIRS)
      bad = fail(path, "too many pairs");
    else if (!(bad = read_pair(line, &pairs[*n])))
      (*n)++;
  }
  fclose(f);
  return bad;
}

static cl_layout_fn_t smem_of(const pair *p) {
  return p->composed != NULL ? cl_layout_fn_composed(p->composed) : cl_layout_fn_of(cl_fn_layout(p->layout));
}

static void release(pair *pairs, int n) {
  for (int i = 0; i < n; i++) {
    cl_layout_free(pairs[i].tv);
    cl_layout_free(pairs[i].layout);
    cl_composed_free(pairs[i].composed);
  }
}

/* The pair's lanes for the harness: its instructions vector by vector, each
 * a line of every thread's byte address (-1: none). */
static int write_lanes(const pair *p, FILE *out) {
  cl_bank_report_t *r = NULL;
  if (cl_bank_conflicts(&p->access, smem_of(p), &r) != CL_OK)
    return fail(p->name, cl_last_error());
  int64_t count = cl_bank_report_count(r), warps = 0, end = 0;
  cl_bank_instruction_t in = {0};
  for (int64_t i = 0; i < count; i++) {
    cl_bank_report_instruction(r, i, &in);
    warps = in.warp + 1;
    for (int64_t lane = 0; lane < 32; lane++) {
      int64_t offset;
      cl_bank_report_lane(r, i, lane, NULL, &offset);
      int64_t last = (offset + 1) * (p->access.bits / 8) + in.bytes;
      end = last > end ? last : end;
    }
  }
  int64_t vectors = warps > 0 ? count / warps : 0;
  char op[16];
  snprintf(op, sizeof op, "%s%s", p->op, p->access.matrices ? (p->access.matrices == 1 ? "1" : p->access.matrices == 2 ? "2" : "4") :
           (p->access.op == CL_SMEM_LDMATRIX || p->access.op == CL_SMEM_STMATRIX) ? "4" : "");
  fprintf(out, "pair %s %s %lld %lld %lld %lld\n", p->name, op, (long long)in.bytes, (long long)(warps * 32),
          (long long)vectors, (long long)((end + 127) / 128 * 128));
  for (int64_t k = 0; k < vectors; k++) {
    for (int64_t w = 0; w < warps; w++)
      for (int64_t lane = 0; lane < 32; lane++) {
        int64_t offset;
        cl_bank_report_lane(r, w * vectors + k, lane, NULL, &offset);
        fprintf(out, "%s%lld", w + lane ? " " : "", (long long)(offset < 0 ? -1 : offset * (p->access.bits / 8)));
      }
    fputc('\n', out);
  }
  cl_bank_report_free(r);
  return 0;
}

typedef struct measured {
  char name[128];
  long long ld, st, ldgsts;
} measured;

static int read_measured(const char *path, measured *m, int *n) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return fail(path, "cannot open");
  char line[1024];
  *n = 0;
  while (fgets(line, sizeof line, f) != NULL && *n < MAX_PAIRS) {
    char *fields[6];
    if (line[0] == '#' || line[0] == '\n' || split_tabs(line, fields, 6) != 6)
      continue;
    snprintf(m[*n].name, sizeof m[*n].name, "%s", fields[0]);
    m[*n].ld = atoll(fields[1]);
    m[*n].st = atoll(fields[2]);
    m[*n].ldgsts = atoll(fields[5]);
    (*n)++;
  }
  fclose(f);
  return 0;
}

/* The model's wavefronts for the pair against ncu's: its load counter for
 * ld and ldmatrix, its store counter for st and stmatrix, and for cp.async
 * the shared wavefronts no op_ counter claims (ncu_table.py). */
static int check_pair(const pair *p, const measured *m, int nm) {
  const measured *found = NULL;
  for (int i = 0; i < nm; i++)
    if (strcmp(m[i].name, p->name) == 0)
      found = &m[i];
  if (found == NULL)
    return fail(p->name, "not measured");
  cl_bank_report_t *r = NULL;
  if (cl_bank_conflicts(&p->access, smem_of(p), &r) != CL_OK)
    return fail(p->name, cl_last_error());
  int64_t w, ideal;
  cl_bank_report_totals(r, &w, &ideal);
  cl_bank_report_free(r);
  bool load = p->access.op == CL_SMEM_LOAD || p->access.op == CL_SMEM_LDMATRIX;
  long long got = p->access.op == CL_SMEM_CP_ASYNC ? found->ldgsts : load ? found->ld : found->st;
  printf("%-28s %-8s model %5lld ideal %5lld ncu %5lld %s\n", p->name, p->op, (long long)w, (long long)ideal, got,
         got == w ? "ok" : "MISMATCH");
  return got == w ? 0 : 1;
}

int main(int argc, char **argv) {
  static pair pairs[MAX_PAIRS];
  static measured m[MAX_PAIRS];
  int n = 0, nm = 0, bad = 0;
  if (argc < 3 || (strcmp(argv[1], "lanes") != 0 && strcmp(argv[1], "check") != 0) ||
      (strcmp(argv[1], "check") == 0 && argc != 4)) {
    fprintf(stderr, "usage: banks_suite lanes PAIRS.tsv | banks_suite check PAIRS.tsv NCU.tsv\n");
    return 2;
  }
  if (read_pairs(argv[2], pairs, &n)) {
    release(pairs, n);
    return 1;
  }
  if (strcmp(argv[1], "lanes") == 0) {
    for (int i = 0; i < n && !bad; i++)
      bad = write_lanes(&pairs[i], stdout);
  } else {
    if (read_measured(argv[3], m, &nm)) {
      release(pairs, n);
      return 1;
    }
    for (int i = 0; i < n; i++)
      bad |= check_pair(&pairs[i], m, nm);
    printf("%d pairs, %s\n", n, bad ? "the model disagrees with ncu" : "the model agrees with ncu on every one");
  }
  release(pairs, n);
  return bad;
}
