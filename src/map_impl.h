/* SPDX-License-Identifier: BSD-3-Clause */
/* map_impl.h: the one interface for "anything that maps a coordinate to a
 * value": a layout, a composed layout A o offset o B (on B's domain), and
 * whatever else later gets a domain and a value at each coordinate.
 *
 * A map has a domain, a shape whose linear coordinates 0 .. size-1 it takes
 * (colexicographic, as CuTe's idx2crd splits them), a value at each, and a
 * text.  The printers (print_layout, print1D) and the pictures of render.h
 * are written once against it, so a new kind of function needs only its
 * cl_fnmap to be printed and drawn.  Values are integers, or, for a
 * coordinate-valued map (a layout with scaled-basis strides), coordinates:
 * then `at` is NULL and `value` gives them. */
#ifndef CUTELAYOUT_MAP_IMPL_H
#define CUTELAYOUT_MAP_IMPL_H

#include <stdbool.h>

#include "sink_impl.h"
#include "tuple_impl.h"

typedef struct cl_fnmap {
  const cl_node *shape; /* the domain */
  const void *self;     /* the function, passed to the callbacks */
  /* The value at linear coordinate i of the domain, 0 <= i < size. */
  cl_status (*at)(const void *self, int64_t i, int64_t *value);
  /* The function's canonical text. */
  void (*text)(const void *self, cl_sink *o);
  /* CuTe's cosize, which sets print_layout's column width. */
  cl_status (*cosize)(const void *self, int64_t *out);
  /* The values are a C++ unsigned int (a composed layout after upcast or
   * downcast): print_layout shows int(value), as its %d does. */
  bool int_cells;
  /* A coordinate-valued map's value at i, appended to b as CuTe computes it
   * (an integer, a scaled basis or an arithmetic tuple); NULL for an
   * integer-valued map. */
  void (*value)(const void *self, int64_t i, cl_builder *b);
} cl_fnmap;

/* The map of a layout: L(i) on L's shape (layout.c). */
cl_fnmap cl_fnmap_of_layout(const cl_layout_t *layout);

/* The map's text in a fresh string (cl_dealloc), or NULL when out of memory. */
char *cl_fnmap_text(const cl_fnmap *m);

/* CuTe's print_layout and print1D of a map (render.c), into a sink; they
 * return the sink's cl_sink_finish, or a failure before anything is written. */
int64_t cl_print_layout_map(const cl_fnmap *m, cl_sink *o);
int64_t cl_print_1d_map(const cl_fnmap *m, cl_sink *o);

#endif
