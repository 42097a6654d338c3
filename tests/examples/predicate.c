/* SPDX-License-Identifier: BSD-3-Clause */
/* predicate.c: CUTLASS's predicated epilogue (CuTe's 0y_predication.md) through the C API,
 * README's example of coordinate tensors; tests/meson.build runs it and compares
 * its output with predicate.out. */
#include <stdio.h>
#include <cutelayout/cutelayout.h>

int main(void) {
  cl_tuple_t *shape_mc, *cta_tiler, *cta_coord;
  cl_layout_t *thr;
  cl_tuple_parse("(41,55)", &shape_mc);   /* mC is 41 x 55 */
  cl_tuple_parse("(16,16)", &cta_tiler);
  cl_tuple_parse("(2,3)", &cta_coord);    /* (blockIdx.x, blockIdx.y): the last tiles, partly outside */
  cl_layout_parse("(4,8):(8,1)", &thr);   /* 32 threads */

  /* Tensor cC = make_identity_tensor(shape(mC)): each element is its coordinate. */
  cl_coord_tensor_t *cC, *cta_cC, *tCcC;
  cl_make_identity_tensor(shape_mc, &cC);
  /* The same tiling and partitioning as the data: local_tile, then local_partition. */
  cl_coord_local_tile(cC, cta_tiler, cta_coord, NULL, &cta_cC);
  cl_coord_local_partition(cta_cC, thr, 13, NULL, &tCcC);   /* thread 13 */

  char text[128];
  cl_coord_tensor_format(tCcC, text, sizeof text);
  printf("tCcC = %s\n", text);
  /* for (i ...) if (elem_less(tCcC(i), shape(mC))) ...: the predicate of each element. */
  for (int64_t i = 0; i < cl_layout_size(cl_coord_tensor_layout(tCcC)); i++) {
    cl_tuple_t *crd;
    int in_bounds;
    cl_coord_tensor_eval(tCcC, i, &crd);
    cl_elem_less(crd, shape_mc, &in_bounds);
    cl_tuple_format(crd, text, sizeof text);
    printf("tCcC(%lld) = %-8s %s\n", (long long)i, text, in_bounds ? "in bounds" : "predicated off");
    cl_tuple_free(crd);
  }
  cl_coord_tensor_free(tCcC);
  cl_coord_tensor_free(cta_cC);
  cl_coord_tensor_free(cC);
  cl_layout_free(thr);
  cl_tuple_free(cta_coord);
  cl_tuple_free(cta_tiler);
  cl_tuple_free(shape_mc);
  return 0;
}
