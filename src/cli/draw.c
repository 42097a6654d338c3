/* SPDX-License-Identifier: BSD-3-Clause */
/* draw.c: `cute-layout draw EXPR [--format svg|tex|txt] [--tv M,N] [-o FILE]`
 * (CONTRACT.md): evaluates EXPR with the eval language and draws the layout
 * it gives with render.h; and `draw --side-by-side=composition|copy A B`,
 * the figures of several panels (cl_render_panels).
 *
 * A composed layout `A o offset o B` is drawn as its inner layout B, each
 * cell showing A(offset + B(crd)) (cl_render_composed); a coordinate layout
 * or a coordinate tensor (make_identity_tensor, partitioned or not) as its
 * grid with each cell showing its coordinate (cl_render_coord_tensor).  The txt format of a
 * rank-2 layout or composed layout is exactly what `eval print_layout(EXPR)`
 * prints. */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat, open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "command.h"
#include "eval.h"
#include "fn_atom.h"

static const char draw_help[] =
  "\n"
  "Draws the layout that EXPR evaluates to (a layout, a composed layout or a\n"
  "coordinate tensor, whose cells show their coordinates), or the distribution\n"
  "EXPR = dist(...) writes (each element's rank; docs/distributed.md).\n"
  "\n"
  "  -f, --format=svg|tex|txt\n"
  "                     svg (the default): an SVG picture, cells labelled with\n"
  "                     their index and coloured by it, heavier lines between\n"
  "                     the tiles of hierarchical modes; tex: the same picture\n"
  "                     as a LaTeX/TikZ document (pdflatex FILE.tex); txt:\n"
  "                     print_layout's table\n"
  "      --tv=M,N       read the layout as a thread-value layout (thr,val) -> index\n"
  "                     into an MxN tile (column-major); cells show T{thr}V{val}\n"
  "  -c, --colour=index|bank|thread|value\n"
  "                     what the colours say: the index (the default), its\n"
  "                     shared-memory bank, (index x BYTES / 4) mod 32, where a\n"
  "                     conflict-free row or column has no colour twice; for\n"
  "                     --tv pictures the thread (their default) or the value\n"
  "      --element-bytes=BYTES\n"
  "                     bytes per element for --colour=bank and --banks (default 4)\n"
  "      --banks=TV     the shared-memory banks of a warp-wide load of the thread-\n"
  "                     value layout TV over the layout: cells coloured by bank,\n"
  "                     the title giving bank_conflicts(TV,EXPR,8*BYTES) and the\n"
  "                     instruction with the most wavefronts over its ideal, and\n"
  "                     the cells of its conflict marked (the lanes of a served\n"
  "                     group that ask one bank for different words)\n"
  "      --highlight=I  outline the cell of linear coordinate I (with --tv, of\n"
  "                     tile index I)\n"
  "      --side-by-side=composition|copy\n"
  "                     two expressions A and B; composition: A, B and\n"
  "                     composition(A,B) side by side, --highlight=I outlining\n"
  "                     coordinate I of B and of composition(A,B) and B(I) in A;\n"
  "                     copy: a copy's source A and destination B (of one size),\n"
  "                     --highlight=I outlining element I in both\n"
  "  -o, --output=FILE  write to FILE instead of standard output\n"
  "  -h, --help         this text\n"
  "\n"
  "examples:\n"
  "  cute-layout draw 'logical_divide(make_layout((8,8)),(2,4))' -o tiles.svg\n"
  "  cute-layout draw 'composition(Swizzle(3,3,3),make_layout((8,8),LayoutRight))' -f txt\n"
  "  cute-layout draw '((4,8),2):((2,8),1)' --tv 8,8 -o tv.svg\n"
  "  cute-layout draw 'composition(Swizzle(3,2,3),make_layout((8,32),LayoutRight))' --colour bank\n"
  "  cute-layout draw '(8,64):(64,1)' --banks '((8,4),8):((1,64),8)' --element-bytes 2\n"
  "  cute-layout draw --side-by-side=composition '(6,2):(8,2)' '(4,3):(3,1)' --highlight 5\n"
  "  cute-layout draw --side-by-side=copy '(4,8):(1,4)' '(4,8):(8,1)' --highlight 9\n";

typedef enum side_by_side { SIDE_NONE, SIDE_COMPOSITION, SIDE_COPY } side_by_side;

typedef struct draw_args {
  const char *expr[2];         /* EXPR, or A and B of --side-by-side */
  int exprs;
  const char *output;          /* NULL: standard output */
  cl_picture_format format;
  int64_t tile_rows, tile_cols; /* 0: not a TV picture */
  cl_colour_scheme colour;
  int64_t element_bytes;       /* 0: the library's default */
  int64_t highlight;           /* -1: none */
  side_by_side side;
  const char *banks_tv;        /* --banks: the access's TV layout, or NULL */
} draw_args;

/* "M,N", "(M,N)" or "MxN": two positive integers. */
static int parse_tile(const char *text, int64_t *rows, int64_t *cols) {
  const char *p = text;
  bool paren = *p == '(';
  if (paren)
    p++;
  char *end;
  errno = 0;
  long long m = strtoll(p, &end, 10);
  if (end == p || (*end != ',' && *end != 'x') || errno)
    return -1;
  p = end + 1;
  long long n = strtoll(p, &end, 10);
  if (end == p || errno)
    return -1;
  if (paren && *end++ != ')')
    return -1;
  if (*end != '\0' || m < 1 || n < 1)
    return -1;
  *rows = m;
  *cols = n;
  return 0;
}

/* A non-negative integer option value, at most `most`; -1 if it is not one. */
static int64_t parse_count(const char *text, int64_t most) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno || v < 0 || v > most)
    return -1;
  return v;
}

/* The index of `name` in the NULL-terminated `names`, or -1. */
static int choice_of(const char *const *names, const char *name) {
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(names[i], name) == 0)
      return i;
  return -1;
}

static const char *const format_names[] = {"svg", "tex", "txt", NULL};
static const cl_picture_format formats[] = {CL_PICTURE_SVG, CL_PICTURE_TEX, CL_PICTURE_TXT};
static const char *const colour_names[] = {"index", "bank", "thread", "value", NULL};
static const cl_colour_scheme colours[] = {CL_COLOUR_INDEX, CL_COLOUR_BANK, CL_COLOUR_THREAD, CL_COLOUR_VALUE};
static const char *const side_names[] = {"composition", "copy", NULL};
static const side_by_side sides[] = {SIDE_COMPOSITION, SIDE_COPY};

enum { OPT_TV = 256, OPT_ELEMENT_BYTES, OPT_HIGHLIGHT, OPT_SIDE_BY_SIDE, OPT_BANKS };

/* Reads the command line into *a; returns -1 to go on, or the exit status
 * (0 after --help, 2 after a usage error). */
static int parse_args(int argc, char **argv, draw_args *a) {
  static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'},
    {"tv", required_argument, NULL, OPT_TV},
    {"colour", required_argument, NULL, 'c'},
    {"color", required_argument, NULL, 'c'},
    {"element-bytes", required_argument, NULL, OPT_ELEMENT_BYTES},
    {"highlight", required_argument, NULL, OPT_HIGHLIGHT},
    {"side-by-side", required_argument, NULL, OPT_SIDE_BY_SIDE},
    {"banks", required_argument, NULL, OPT_BANKS},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  cli_options o = cli_options_start(argc, argv, "f:c:o:h", longopts);
  const char *arg;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    int i;
    switch (c) {
    case CLI_OPERAND:
      if (a->exprs == 2)
        return usage_error(&command_draw, "expected at most two expressions, got a third one, '%s' (quote each "
                                          "expression)", arg);
      a->expr[a->exprs++] = arg;
      break;
    case 'f':
      if ((i = choice_of(format_names, arg)) < 0)
        return cli_choice_error(&command_draw, "--format", arg, format_names);
      a->format = formats[i];
      break;
    case 'c':
      if ((i = choice_of(colour_names, arg)) < 0)
        return cli_choice_error(&command_draw, "--colour", arg, colour_names);
      a->colour = colours[i];
      break;
    case OPT_ELEMENT_BYTES:
      if ((a->element_bytes = parse_count(arg, (int64_t)1 << 20)) < 1)
        return usage_error(&command_draw, "--element-bytes wants a size in bytes, 1 to 1048576, not '%s'", arg);
      break;
    case OPT_HIGHLIGHT:
      if ((a->highlight = parse_count(arg, INT64_MAX)) < 0)
        return usage_error(&command_draw, "--highlight wants a linear coordinate (0 or more), not '%s'", arg);
      break;
    case OPT_SIDE_BY_SIDE:
      if ((i = choice_of(side_names, arg)) < 0)
        return cli_choice_error(&command_draw, "--side-by-side", arg, side_names);
      a->side = sides[i];
      break;
    case OPT_TV:
      if (parse_tile(arg, &a->tile_rows, &a->tile_cols) != 0)
        return usage_error(&command_draw, "--tv wants the tile as M,N (two positive integers), not '%s'", arg);
      break;
    case OPT_BANKS:
      a->banks_tv = arg;
      break;
    case 'o':
      if (*arg == '\0')
        return usage_error(&command_draw, "--output needs a file name");
      a->output = arg;
      break;
    case 'h': return show_help(&command_draw);
    default: return cli_option_error(&command_draw, &o, c);
    }
  }
  if (a->exprs == 0)
    return usage_error(&command_draw, "expected an expression to draw");
  if (a->side == SIDE_NONE && a->exprs == 2)
    return usage_error(&command_draw, "expected one EXPR, got a second one, '%s' (quote the expression, or draw "
                                      "two with --side-by-side)", a->expr[1]);
  if (a->side != SIDE_NONE && a->exprs != 2)
    return usage_error(&command_draw, "--side-by-side=%s wants two expressions, A and B", side_names[a->side - 1]);
  if (a->side != SIDE_NONE && a->tile_rows > 0)
    return usage_error(&command_draw, "--side-by-side draws grids; it takes no --tv");
  if (a->banks_tv != NULL && (a->side != SIDE_NONE || a->tile_rows > 0 || a->highlight >= 0))
    return usage_error(&command_draw, "--banks draws one shared-memory layout; it takes no --side-by-side, --tv or "
                                      "--highlight");
  return -1;
}

static const char *kind_name(value_kind k) {
  switch (k) {
  case V_TUPLE: return "a tuple or integer";
  case V_BOOL: return "a boolean";
  case V_TAG: return "a tag (LayoutLeft/LayoutRight)";
  case V_SWIZZLE: return "a swizzle (draw composition(Sw, L) instead)";
  case V_TEXT: return "text";
  case V_NAME: return "a name (of a copy operation or an element type)";
  case V_ATOM: return "a copy atom (draw a tiled copy of it: make_tiled_copy)";
  default: return "nothing";
  }
}

/* Writes the picture to the file named output (standard output when NULL);
 * 0, or 1 after a message.  A failed write removes what it left, but only
 * from a regular file: output may name a device or a link to one
 * (/dev/stdout, /dev/full), which must survive. */
static int write_picture(const char *output, const char *picture, size_t len) {
  FILE *f = output ? fopen(output, "wb") : stdout;
  if (f == NULL) {
    return tool_error("draw: cannot write '%s': %s", output, strerror(errno));
  }
  struct stat st;
  bool regular_file = output && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  bool failed = fwrite(picture, 1, len, f) != len || fflush(f) != 0 || ferror(f);
  if (output && fclose(f) != 0)
    failed = true;
  if (failed) {
    tool_error("draw: writing the picture failed: %s", strerror(errno));
    if (regular_file)
      remove(output); /* no partial picture left behind */
    return 1;
  }
  return 0;
}

/* The values drawn: EXPR, or A, B (and composition(A,B)). */
typedef struct drawn {
  value v[3];
  int count;
  char *titles[3];
} drawn;

static void drawn_free(drawn *d) {
  for (int k = 0; k < d->count; k++) {
    value_free(&d->v[k]);
    free(d->titles[k]);
  }
}

/* Evaluates `text` into the next value of d, which must be drawable; 0, or
 * 1 after a message. */
static int evaluate(drawn *d, const char *text) {
  value *v = &d->v[d->count];
  cl_status s = eval_expression(text, v);
  d->titles[d->count++] = NULL;
  if (s != CL_OK)
    return tool_error("draw: %s", eval_error_message(s));
  if (v->kind == V_ATOM && d->count == 1 && v->num[0] != A_COPY_ATOM)
    return 0;
  if (v->kind != V_LAYOUT && v->kind != V_COMPOSED && v->kind != V_COORD)
    return tool_error("draw: '%s' is %s, not a layout", text, kind_name(v->kind));
  if (v->kind == V_COORD && d->count > 1)
    return tool_error("draw: '%s' is a coordinate tensor, which is drawn alone", text);
  return 0;
}

static int64_t size_of(const value *v) {
  int64_t size = 0;
  if (v->kind == V_LAYOUT)
    return cl_layout_size(v->layout);
  return cl_composed_size(v->composed, &size) == CL_OK ? size : -1;
}

/* "NAME = TEXT", the title of a side-by-side panel; 0, or 1 after a message. */
static int name_panel(drawn *d, int k, const char *name) {
  char *text = value_format(&d->v[k]);
  size_t n = text ? strlen(name) + strlen(text) + 4 : 0;
  d->titles[k] = text ? malloc(n) : NULL;
  if (d->titles[k] != NULL)
    snprintf(d->titles[k], n, "%s = %s", name, text);
  free(text);
  return d->titles[k] != NULL ? 0 : tool_error("draw: out of memory");
}

/* Side by side: A, B and composition(A,B), evaluated by the eval language
 * as the user would write it; or a copy's source and destination. */
static int evaluate_side_by_side(drawn *d, const draw_args *a) {
  if (evaluate(d, a->expr[0]) || evaluate(d, a->expr[1]))
    return 1;
  if (a->side == SIDE_COPY) {
    if (size_of(&d->v[0]) != size_of(&d->v[1]))
      return tool_error("draw: a copy needs a source and a destination of one size, not %lld and %lld",
                        (long long)size_of(&d->v[0]), (long long)size_of(&d->v[1]));
    return name_panel(d, 0, "source") || name_panel(d, 1, "destination");
  }
  size_t n = strlen(a->expr[0]) + strlen(a->expr[1]) + 16;
  char *call = malloc(n);
  if (call == NULL)
    return tool_error("draw: out of memory");
  snprintf(call, n, "composition(%s,%s)", a->expr[0], a->expr[1]);
  int status = evaluate(d, call);
  free(call);
  return status || name_panel(d, 0, "A") || name_panel(d, 1, "B") || name_panel(d, 2, "A o B");
}

/* The coordinate of A that coordinate c of B lands on, B(c), when it is one
 * of A's (the cells of composition(A,B) and B at c, and of A at B(c), are
 * one element); -1 otherwise. */
static int64_t through(const value *b, const value *a, int64_t c) {
  int64_t at = -1;
  cl_status s = b->kind == V_LAYOUT ? cl_layout_eval(b->layout, c, &at) : cl_composed_eval(b->composed, c, &at);
  return s == CL_OK && at >= 0 && at < size_of(a) ? at : -1;
}

/* --banks: what a warp-wide load of TV over the drawn layout asks of each
 * bank.  The instruction with the most wavefronts over its ideal is named
 * in the title (written to title, cap bytes), and marks[0 .. *nmarks) are
 * the tile indices of every element it asks of the bank that takes the
 * most wavefronts in one of its served groups: the lanes asking that bank
 * (that run of banks, for a vector) for different words, each lane's whole
 * vector (none when the instruction is conflict-free). */
enum { BANK_MARKS_MAX = 32 * 16 };

typedef struct bank_group {
  int64_t first, lanes; /* the lanes served together */
  int64_t slot;         /* the bank run asked for the most words */
  int64_t words;        /* how many */
} bank_group;

/* Lanes served together, as banks.h says for ld.shared, and the unit a lane
 * asks (a word, or its whole vector). */
static int64_t served_lanes(int64_t bytes) { return bytes >= 16 ? 8 : bytes == 8 ? 16 : 32; }
static int64_t unit_of(int64_t bytes) { return bytes < 4 ? 4 : bytes; }

/* The served group of instruction i with the most distinct units asked of
 * one bank run. */
static bank_group worst_group(const cl_bank_report_t *r, int64_t i, int64_t bytes, int64_t elem_bytes) {
  int64_t unit = unit_of(bytes), slots = 128 / unit;
  bank_group worst = {0, 0, -1, 0};
  for (int64_t first = 0; first < 32; first += served_lanes(bytes))
    for (int64_t slot = 0; slot < slots; slot++) {
      int64_t units[32], n = 0;
      for (int64_t l = first; l < first + served_lanes(bytes); l++) {
        int64_t tile, offset;
        cl_bank_report_lane(r, i, l, &tile, &offset);
        int64_t u = offset * elem_bytes / unit;
        bool seen = false;
        for (int64_t k = 0; k < n; k++)
          seen = seen || units[k] == u;
        if (tile >= 0 && u % slots == slot && !seen)
          units[n++] = u;
      }
      if (n > worst.words)
        worst = (bank_group){first, served_lanes(bytes), slot, n};
    }
  return worst;
}

static cl_status mark_group(const cl_layout_t *tv, const cl_bank_report_t *r, const cl_bank_instruction_t *in,
                            int64_t i, int64_t elem_bytes, int64_t *marks, int64_t *nmarks) {
  *nmarks = 0;
  bank_group g = worst_group(r, i, in->bytes, elem_bytes);
  if (g.words < 2)
    return CL_OK;
  int64_t unit = unit_of(in->bytes), vector = in->bytes / elem_bytes, threads;
  cl_layout_t *thread_mode = NULL;
  int64_t mode = 0;
  TRY(cl_layout_get(tv, &mode, 1, &thread_mode));
  cl_status s = cl_layout_size_checked(thread_mode, &threads);
  cl_layout_free(thread_mode);
  TRY(s);
  for (int64_t l = g.first; l < g.first + g.lanes; l++) {
    int64_t tile, offset;
    cl_bank_report_lane(r, i, l, &tile, &offset);
    if (tile < 0 || (offset * elem_bytes / unit) % (128 / unit) != g.slot)
      continue;
    for (int64_t e = 0; e < vector && *nmarks < BANK_MARKS_MAX; e++) {
      int64_t t = in->warp * 32 + l, v = in->index * vector + e;
      TRY(cl_layout_eval(tv, t + threads * v, &marks[(*nmarks)++]));
    }
  }
  return CL_OK;
}

static cl_status bank_view(const value *smem, const char *tv_text, int64_t bytes, char *title, size_t cap,
                           int64_t *marks, int64_t *nmarks) {
  value tv = {V_NONE};
  TRY(eval_expression(tv_text, &tv));
  if (tv.kind != V_LAYOUT) {
    value_free(&tv);
    return cli_fail(CL_E_TYPE, "--banks wants a thread-value layout, not '%s'", tv_text);
  }
  cl_smem_access_t access = {tv.layout, 8 * bytes, CL_SMEM_LOAD, 0, 0};
  cl_layout_fn_t fn = smem->kind == V_COMPOSED ? cl_layout_fn_composed(smem->composed)
                                              : cl_layout_fn_of(cl_fn_layout(smem->layout));
  cl_bank_report_t *r = NULL;
  cl_status s = cl_bank_conflicts(&access, fn, &r);
  if (s != CL_OK) {
    value_free(&tv);
    return s;
  }
  int64_t w, i, worst = 0;
  cl_bank_report_totals(r, &w, &i);
  cl_bank_instruction_t in, top = {0, 0, 0, 0, 0};
  for (int64_t k = 0; k < cl_bank_report_count(r); k++) {
    cl_bank_report_instruction(r, k, &in);
    if (k == 0 || in.wavefronts - in.ideal > top.wavefronts - top.ideal) {
      top = in;
      worst = k;
    }
  }
  snprintf(title, cap, "bank_conflicts = (%lld,%lld); warp %lld, vector %lld: %lld wavefronts (ideal %lld)",
           (long long)w, (long long)i, (long long)top.warp, (long long)top.index, (long long)top.wavefronts,
           (long long)top.ideal);
  s = mark_group(tv.layout, r, &top, worst, bytes, marks, nmarks);
  cl_bank_report_free(r);
  value_free(&tv);
  return s;
}

/* A tiled MMA's A, B and C, or a tiled copy's source and destination, as
 * thread-value panels on their tiles. */
static int64_t render_atom(const value *v, const draw_args *a, cl_picture_options *opt, FILE *f) {
  if (a->tile_rows != 0 || a->highlight >= 0 || a->banks_tv != NULL)
    return cli_fail(CL_E_DOMAIN, "a tiled MMA or copy is drawn on its own tiles: no --tv, --highlight or --banks");
  atom_panels p;
  cl_status s = cli_atom_panels(v, &p);
  if (s != CL_OK) {
    cli_atom_panels_free(&p);
    return s;
  }
  char *title = value_format(v);
  cl_picture_panel panels[3];
  for (int k = 0; k < p.count; k++)
    panels[k] = (cl_picture_panel){p.layout[k], NULL, p.title[k], p.rows[k], p.cols[k], -1};
  opt->title = title;
  /* A tiled MMA as CuTe's print_latex lays it out; a copy side by side. */
  opt->arrangement = p.count == 3 ? CL_PANELS_MMA : CL_PANELS_ROW;
  int64_t n = cl_render_panels_file(panels, (size_t)p.count, opt, f);
  free(title);
  cli_atom_panels_free(&p);
  return n;
}

/* The picture, in memory (into *picture). */
static int64_t render(const drawn *d, const draw_args *a, FILE *f) {
  cl_picture_options opt = CL_PICTURE_OPTIONS_INIT;
  opt.format = a->format;
  opt.colour = a->colour;
  opt.element_bytes = a->element_bytes;
  if (d->v[0].kind == V_COORD) {
    if (a->tile_rows != 0 || a->highlight >= 0 || a->banks_tv != NULL)
      return cli_fail(CL_E_DOMAIN, "a coordinate tensor has no thread-value, highlighted or bank picture");
    return cl_render_coord_tensor_file(d->v[0].ctensor, &opt, f);
  }
  if (d->v[0].kind == V_ATOM)
    return render_atom(&d->v[0], a, &opt, f);
  cl_picture_panel panels[3];
  for (int k = 0; k < d->count; k++) {
    const value *v = &d->v[k];
    panels[k] = (cl_picture_panel){v->kind == V_LAYOUT ? v->layout : NULL,
                                   v->kind == V_COMPOSED ? v->composed : NULL,
                                   d->titles[k], a->tile_rows, a->tile_cols, a->highlight};
  }
  char banks_title[192];
  int64_t marks[BANK_MARKS_MAX];
  if (a->banks_tv != NULL) {
    int64_t bytes = a->element_bytes > 0 ? a->element_bytes : 4;
    TRY(bank_view(&d->v[0], a->banks_tv, bytes, banks_title, sizeof banks_title, marks, &opt.mark_count));
    opt.marks = marks;
    panels[0].title = banks_title;
    opt.colour = CL_COLOUR_BANK;
    opt.element_bytes = bytes;
  }
  if (a->side == SIDE_COMPOSITION) {
    opt.title = "composition(A,B)(c) = A(B(c))";
    panels[0].highlight = a->highlight < 0 ? -1 : through(&d->v[1], &d->v[0], a->highlight);
  } else if (a->side == SIDE_COPY) {
    opt.title = "copy: destination(i) = source(i)";
  }
  return cl_render_panels_file(panels, (size_t)d->count, &opt, f);
}

/* ---- distributions: `draw 'dist(...)'` ---- */

/* The rank that holds element i (its first replica): the map of the
 * identity layout over the global shape, so that each cell shows, and is
 * coloured by, its rank. */
static cl_status rank_of(void *ctx, int64_t i, int64_t *out) {
  int64_t offset;
  return cl_dist_locate(ctx, i, 0, out, &offset);
}

static int is_dist_text(const char *expr) {
  while (*expr == ' ' || *expr == '\t')
    expr++;
  return strncmp(expr, "dist", 4) == 0 && strchr(expr, '(') != NULL &&
         strspn(expr + 4, " \t") == (size_t)(strchr(expr, '(') - expr - 4);
}

/* A distribution drawn over its global shape, each cell its rank. */
static int64_t render_dist(const char *text, const draw_args *a, FILE *f) {
  if (a->tile_rows != 0 || a->highlight >= 0 || a->banks_tv != NULL)
    return cli_fail(CL_E_DOMAIN, "a distribution has no thread-value, highlighted or bank picture");
  cl_dist_t *dist = NULL;
  cl_tuple_t *shape = NULL;
  cl_layout_t *grid = NULL;
  int64_t n = cl_dist_parse(text, &dist);
  if (n == CL_OK)
    n = cl_dist_shape(dist, &shape);
  if (n == CL_OK)
    n = cl_layout_make_left(shape, &grid);
  if (n == CL_OK) {
    char title[96];
    snprintf(title, sizeof title, "rank of each element (%lld ranks, %lld replica%s)", (long long)cl_dist_ranks(dist),
             (long long)cl_dist_replicas(dist), cl_dist_replicas(dist) == 1 ? "" : "s, the first drawn");
    cl_picture_options opt = CL_PICTURE_OPTIONS_INIT;
    opt.format = a->format;
    opt.colour = a->colour;
    opt.title = title;
    opt.map = rank_of;
    opt.map_ctx = dist;
    n = cl_render_layout_file(grid, &opt, f);
  }
  cl_layout_free(grid);
  cl_tuple_free(shape);
  cl_dist_free(dist);
  return n;
}

static int run_draw(int argc, char **argv) {
  draw_args a = {{NULL, NULL}, 0, NULL, CL_PICTURE_SVG, 0, 0, CL_COLOUR_AUTO, 0, -1, SIDE_NONE, NULL};
  int status = parse_args(argc, argv, &a);
  if (status >= 0)
    return status;
  drawn d = {.count = 0};
  int dist = a.side == SIDE_NONE && is_dist_text(a.expr[0]);
  status = dist ? 0 : a.side == SIDE_NONE ? evaluate(&d, a.expr[0]) : evaluate_side_by_side(&d, &a);
  if (status != 0) {
    drawn_free(&d);
    return status;
  }
  /* The picture is made in memory first: a layout too large to draw, or any
   * other failure to make it, leaves the file -o names untouched. */
  char *picture = NULL;
  size_t picture_len = 0;
  FILE *mem = open_memstream(&picture, &picture_len);
  cli_clear_error();
  int64_t n = mem == NULL ? cli_fail(CL_E_NOMEM, "out of memory")
              : dist      ? render_dist(a.expr[0], &a, mem)
                          : render(&d, &a, mem);
  drawn_free(&d);
  if (mem != NULL && fclose(mem) != 0 && n >= 0)
    n = cli_fail(CL_E_NOMEM, "out of memory");
  if (n < 0) {
    tool_error("draw: %s", eval_error_message((cl_status)n));
    free(picture);
    return 1;
  }
  status = write_picture(a.output, picture, picture_len);
  free(picture);
  return status;
}

const command command_draw = {
  "draw", run_draw,
  "usage: cute-layout draw EXPR [--format svg|tex|txt] [--tv M,N] [--colour SCHEME] [--banks TV] [-o FILE]\n"
  "       cute-layout draw --side-by-side=composition|copy A B [OPTIONS]\n",
  draw_help,
  "draw EXPR        a picture of a layout: SVG, TikZ or a table\n",
};
