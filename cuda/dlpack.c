/* SPDX-License-Identifier: BSD-3-Clause */
/* dlpack.c: tensors of GPU memory from DLPack.  The view is built as the
 * core builds one of host memory: only the device type differs. */
#include <stdio.h>

#include "cuda_impl.h"

/* DLPack's device types (dlpack.h), the values its ABI fixes. */
enum { DL_CPU = 1, DL_CUDA = 2, DL_CUDA_MANAGED = 13 };

cl_status cl_cuda_tensor_from_dlpack(const cl_dltensor_t *dl, cl_tensor_t **out) {
  if (out == NULL)
    return cl_set_last_error(CL_E_NULL, "cl_cuda_tensor_from_dlpack: argument 'out' is NULL");
  *out = NULL;
  if (dl == NULL)
    return cl_set_last_error(CL_E_NULL, "cl_cuda_tensor_from_dlpack: argument 'dl' is NULL");
  int device = (int)dl->device.device_type;
  if (device != DL_CUDA && device != DL_CUDA_MANAGED) {
    char message[128];
    snprintf(message, sizeof message,
             "cl_cuda_tensor_from_dlpack: device type %d is not GPU memory (kDLCUDA 2, kDLCUDAManaged 13)", device);
    return cl_set_last_error(CL_E_UNSUPPORTED, message);
  }
  cl_dltensor_t host = *dl;
  host.device.device_type = DL_CPU;
  return cl_tensor_from_dlpack(&host, out);
}
