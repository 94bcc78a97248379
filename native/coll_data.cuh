// coll_bench's data: the value each rank puts at each index, the value each collective must
// produce there, and the fill / poison / check kernels, for every data type.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "common.cuh"

namespace coll {

// Collectives coll_bench runs (the order of --coll all).
enum Kind { AllReduce, AllGather, ReduceScatter, Broadcast, Alltoall, Sendrecv };

// What a check needs to know to compute the expected value at an output index.
struct CheckSpec {
  int kind, op, rank, nranks, root;
  size_t per;       // elements per rank block (all_gather, reduce_scatter, alltoall)
  double tol;       // allowed absolute error (relative part added for avg)
};

// The input value of `rank` at send index i. Reductions stay exact in every type:
// prod uses one 2 per index (at rank i % n) and 1 elsewhere; the others use 0..3.
__host__ __device__ inline double inputValue(int op, int rank, int nranks, size_t i) {
  if (op == 1) return (int)(i % (size_t)nranks) == rank ? 2.0 : 1.0;
  return (double)((i * 3 + (size_t)rank * 5) % 4);
}

__host__ __device__ inline double reduce(int op, int nranks, size_t i) {
  double acc = inputValue(op, 0, nranks, i);
  for (int r = 1; r < nranks; r++) {
    double v = inputValue(op, r, nranks, i);
    if (op == 0 || op == 4) acc += v;
    else if (op == 1) acc *= v;
    else if (op == 2) acc = acc > v ? acc : v;
    else acc = acc < v ? acc : v;
  }
  return op == 4 ? acc / nranks : acc;
}

// The value output index i of this rank must hold after the collective.
__host__ __device__ inline double expected(const CheckSpec& s, size_t i) {
  switch (s.kind) {
    case AllReduce: return reduce(s.op, s.nranks, i);
    case AllGather: return inputValue(s.op, (int)(i / s.per), s.nranks, i % s.per);
    case ReduceScatter: return reduce(s.op, s.nranks, (size_t)s.rank * s.per + i);
    case Broadcast: return inputValue(s.op, s.root, s.nranks, i);
    case Alltoall: return inputValue(s.op, (int)(i / s.per), s.nranks, (size_t)s.rank * s.per + i % s.per);
    default: return inputValue(s.op, (s.rank + s.nranks - 1) % s.nranks, s.nranks, i);
  }
}

template <typename T> __device__ inline double toD(T v) { return (double)v; }
template <> __device__ inline double toD(__half v) { return (double)__half2float(v); }
template <> __device__ inline double toD(__nv_bfloat16 v) { return (double)__bfloat162float(v); }
template <typename T> __device__ inline T fromD(double v) { return (T)v; }
template <> __device__ inline __half fromD(double v) { return __float2half((float)v); }
template <> __device__ inline __nv_bfloat16 fromD(double v) { return __float2bfloat16((float)v); }

template <typename T>
__global__ void fillKernel(T* p, size_t n, int op, int rank, int nranks) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) p[i] = fromD<T>(inputValue(op, rank, nranks, i));
}

template <typename T>
__global__ void checkKernel(const T* p, size_t n, CheckSpec s, unsigned long long* wrong) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  unsigned long long bad = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    double want = expected(s, i), got = toD<T>(p[i]);
    double err = got - want;
    if (err < 0) err = -err;
    double tol = s.tol * (want < 0 ? -want : want) + s.tol;
    if (!(err <= tol)) bad++;  // NaN (the poison) counts as wrong
  }
  if (bad) atomicAdd(wrong, bad);
}

inline int blocks(size_t n) { return (int)(n / 256 + 1 < 1024 ? n / 256 + 1 : 1024); }

// Writes rank's input values into n elements at p (type by NCCL datatype code).
inline void fill(int dtype, void* p, size_t n, int op, int rank, int nranks, cudaStream_t st) {
#define FILL_CASE(code, T) case code: fillKernel<T><<<blocks(n), 256, 0, st>>>((T*)p, n, op, rank, nranks); break;
  switch (dtype) {
    FILL_CASE(0, int8_t) FILL_CASE(1, uint8_t) FILL_CASE(2, int32_t) FILL_CASE(3, uint32_t) FILL_CASE(4, int64_t)
    FILL_CASE(5, uint64_t) FILL_CASE(6, __half) FILL_CASE(7, float) FILL_CASE(8, double) FILL_CASE(9, __nv_bfloat16)
  }
#undef FILL_CASE
  CUDA_CHECK_LAUNCH();
}

// Adds the number of wrong elements among n at p to *wrong (a device counter).
inline void check(int dtype, const void* p, size_t n, const CheckSpec& s, unsigned long long* wrong, cudaStream_t st) {
#define CHECK_CASE(code, T) case code: checkKernel<T><<<blocks(n), 256, 0, st>>>((const T*)p, n, s, wrong); break;
  switch (dtype) {
    CHECK_CASE(0, int8_t) CHECK_CASE(1, uint8_t) CHECK_CASE(2, int32_t) CHECK_CASE(3, uint32_t) CHECK_CASE(4, int64_t)
    CHECK_CASE(5, uint64_t) CHECK_CASE(6, __half) CHECK_CASE(7, float) CHECK_CASE(8, double) CHECK_CASE(9, __nv_bfloat16)
  }
#undef CHECK_CASE
  CUDA_CHECK_LAUNCH();
}

}  // namespace coll
