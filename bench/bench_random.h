/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_random.h: the seeded drawing shared by the -random groups (C and
 * CUDA C++): the same workloads on every machine and every run. */
#ifndef CUTELAYOUT_BENCH_RANDOM_H
#define CUTELAYOUT_BENCH_RANDOM_H

#include <stdbool.h>
#include <stdint.h>

/* splitmix64. */
typedef struct bench_rng {
  uint64_t state;
} bench_rng;

static inline uint64_t bench_rng_next(bench_rng *r) {
  uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline int64_t bench_rng_range(bench_rng *r, int64_t lo, int64_t hi) {
  return lo + (int64_t)(bench_rng_next(r) % (uint64_t)(hi - lo + 1));
}

static inline bool bench_is_prime(int64_t n) {
  if (n < 2)
    return false;
  for (int64_t d = 2; d * d <= n; d++)
    if (n % d == 0)
      return false;
  return true;
}

/* An extent near x, at most `most` (>= 12), of one of three kinds chosen at
 * random: a power of two, an odd number, a prime. */
static inline int64_t bench_extent_near(bench_rng *r, int64_t x, int64_t most) {
  if (x > most - 10)
    x = most - 10;
  if (x < 2)
    x = 2;
  switch (bench_rng_next(r) % 3) {
  case 0: {
    int64_t p = 2;
    while (p * 2 <= x + x / 3 && p * 2 <= most)
      p *= 2;
    return p;
  }
  case 1:
    return x < 3 ? 3 : x | 1;
  default:
    while (!bench_is_prime(x))
      x++;
    return x;
  }
}

/* The short name of an element size in workload names. */
static inline const char *bench_elem_name(int64_t bytes) {
  switch (bytes) {
  case 1: return "u8";
  case 2: return "f16";
  case 4: return "f32";
  case 8: return "f64";
  default: return "c128";
  }
}

#endif
