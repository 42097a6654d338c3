/* bench_cute.h: the optional comparison with CuTe C++ (bench_cute.cpp), built
 * only when meson is given -Dcute_dir=/path/to/cutlass (which defines
 * CL_BENCH_CUTE).  No CUTLASS code is part of this project: bench_cute.cpp
 * includes CuTe's headers from that checkout. */
#ifndef CUTELAYOUT_BENCH_CUTE_H
#define CUTELAYOUT_BENCH_CUTE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef CL_BENCH_CUTE
/* Median seconds per layout(i) through CuTe's Layout with run-time integers
 * for the eval workload `name` (rank2, rank4, hier), i cycling over [0, size). */
double bench_cute_eval_s(const char *name, int64_t size);
#endif

#ifdef __cplusplus
}
#endif
#endif
