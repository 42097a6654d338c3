/* SPDX-License-Identifier: BSD-3-Clause */
/* cutelayout.h: the umbrella header of cute-layout, NVIDIA CuTe's layout
 * algebra as a C library.  Include this one header. */
#ifndef CUTELAYOUT_CUTELAYOUT_H
#define CUTELAYOUT_CUTELAYOUT_H

#include "common.h"
#include "tuple.h"
#include "layout.h"
#include "algebra.h"
#include "explain.h"
#include "eval.h"
#include "compiled.h"
#include "text.h"
#include "render.h"
#include "swizzle.h"
#include "tensor.h"
#include "coord_tensor.h"
#include "atom.h"
#include "banks.h"
#include "dist.h"

#endif
