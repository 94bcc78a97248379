// coll_bench's data kernels: fill a rank's input and poison, and count the wrong elements of an
// output, for every data type. The values themselves are in coll_values.h.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "coll_values.h"
#include "common.cuh"

namespace coll {

template <typename T> __device__ inline double toD(T v) { return (double)v; }
template <> __device__ inline double toD(__half v) { return (double)__half2float(v); }
template <> __device__ inline double toD(__nv_bfloat16 v) { return (double)__bfloat162float(v); }
template <typename T> __device__ inline T fromI(int v) { return (T)v; }
template <> __device__ inline __half fromI(int v) { return __int2half_rn(v); }
template <> __device__ inline __nv_bfloat16 fromI(int v) { return __int2bfloat16_rn(v); }

template <typename T>
__global__ void fillKernel(T* p, size_t n, int op, int rank, int nranks) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) p[i] = fromI<T>(inputValue(op, rank, nranks, i));
}

template <typename T>
__global__ void checkKernel(const T* p, size_t n, CheckSpec s, unsigned long long* wrong) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  unsigned long long bad = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    if (wrongAt(s, i, toD<T>(p[i]))) bad++;
  if (bad) atomicAdd(wrong, bad);
}

inline int blocks(size_t n) { return (int)(n / 256 + 1 < 1024 ? n / 256 + 1 : 1024); }

// Calls f(T*) with p cast to the element type of `type`.
#define COLL_DISPATCH(type, CALL)                                                                                  \
  switch (type) {                                                                                                  \
    case TInt8: CALL(int8_t); break;                                                                               \
    case TUint8: CALL(uint8_t); break;                                                                             \
    case TInt32: CALL(int32_t); break;                                                                             \
    case TUint32: CALL(uint32_t); break;                                                                           \
    case TInt64: CALL(int64_t); break;                                                                             \
    case TUint64: CALL(uint64_t); break;                                                                           \
    case THalf: CALL(__half); break;                                                                               \
    case TFloat: CALL(float); break;                                                                               \
    case TDouble: CALL(double); break;                                                                             \
    case TBfloat16: CALL(__nv_bfloat16); break;                                                                    \
  }

// Writes rank's input values into n elements at p.
inline void fill(int type, void* p, size_t n, int op, int rank, int nranks, cudaStream_t st) {
#define FILL(T) fillKernel<T><<<blocks(n), 256, 0, st>>>((T*)p, n, op, rank, nranks)
  COLL_DISPATCH(type, FILL)
#undef FILL
  CUDA_CHECK_LAUNCH();
}

// Adds the number of wrong elements among n at p to *wrong (a device counter).
inline void check(const void* p, size_t n, const CheckSpec& s, unsigned long long* wrong, cudaStream_t st) {
#define CHECK(T) checkKernel<T><<<blocks(n), 256, 0, st>>>((const T*)p, n, s, wrong)
  COLL_DISPATCH(s.type, CHECK)
#undef CHECK
  CUDA_CHECK_LAUNCH();
}

}  // namespace coll
