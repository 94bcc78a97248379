// p2p_bench's copies: the data pattern and the copy / fill / check kernels, one GPU's buffers,
// streams and events, and enqueueing one copy (copy engine or SM kernel, direct or staged
// through pinned host memory), one iteration (one direction or both), or a checked copy.
#pragma once
#include "common.cuh"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace p2p {

// The byte at offset i of the check pattern for `seed`.
__device__ __forceinline__ uint8_t pattern(size_t i, uint32_t seed) {
  uint32_t x = (uint32_t)i * 2654435761u ^ seed ^ (uint32_t)(i >> 32);
  x ^= x >> 15;
  x *= 2246822519u;
  return (uint8_t)(x ^ (x >> 13));
}

static __global__ void copyKernel(uint8_t* dst, const uint8_t* src, size_t n) {
  size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
  size_t n16 = n / 16;
  uint4* d4 = reinterpret_cast<uint4*>(dst);
  const uint4* s4 = reinterpret_cast<const uint4*>(src);
  for (size_t i = tid; i < n16; i += stride) d4[i] = s4[i];
  for (size_t i = n16 * 16 + tid; i < n; i += stride) dst[i] = src[i];
}

static __global__ void fillKernel(uint8_t* p, size_t n, uint32_t seed, int invert) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    p[i] = invert ? (uint8_t)~pattern(i, seed) : pattern(i, seed);
}

// counters[0] += mismatches, counters[1] = min(first mismatching offset).
static __global__ void checkKernel(const uint8_t* p, size_t n, uint32_t seed, unsigned long long* counters) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  unsigned long long bad = 0, first = ~0ull;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    if (p[i] != pattern(i, seed)) bad++, first = first < i ? first : i;
  if (bad) atomicAdd(&counters[0], bad), atomicMin(&counters[1], first);
}

// Buffers, streams and events of one GPU. Slot 0 serves the forward copy, slot 1 the reverse.
struct Gpu {
  int dev = -1, sms = 1;
  uint8_t *send = nullptr, *recv = nullptr, *recv2 = nullptr;
  cudaStream_t stream[2] = {nullptr, nullptr};
  cudaEvent_t mid[2] = {nullptr, nullptr}, done[2] = {nullptr, nullptr};
  unsigned long long* counters = nullptr;
  gc::EventTimer timer;
};

inline int blocksFor(const Gpu& g, size_t n) {
  size_t want = (n / 16 + 255) / 256;
  return (int)std::max<size_t>(1, std::min<size_t>(want, (size_t)g.sms * 4));
}

inline void initGpu(Gpu& g, int dev, size_t maxBytes) {
  g.dev = dev;
  CUDA_CHECK(cudaSetDevice(dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&g.sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaMalloc(&g.send, maxBytes));
  CUDA_CHECK(cudaMalloc(&g.recv, maxBytes));
  CUDA_CHECK(cudaMalloc(&g.recv2, maxBytes));
  CUDA_CHECK(cudaMalloc(&g.counters, 2 * sizeof(unsigned long long)));
  for (int s = 0; s < 2; s++) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream[s], cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.mid[s], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.done[s], cudaEventDisableTiming));
  }
  g.timer.init(dev);
}

// What one measurement does: the mode and whether peer access is on for it.
struct Mode {
  bool p2p;    // enabled (direct) or disabled (staged through the host)
  bool sm;     // SM kernel or copy engine
};

// Enqueues one copy of n bytes a.send -> b.recv (slot 0) or a.send -> b.recv2 (slot 1); all work
// is ordered before later work on a.stream[slot]. `host` is the mapped pinned staging buffer.
inline void enqueueCopy(Gpu& a, Gpu& b, int slot, size_t n, Mode m, uint8_t* host) {
  uint8_t* dst = slot == 0 ? b.recv : b.recv2;
  cudaStream_t sa = a.stream[slot], sb = b.stream[slot];
  CUDA_CHECK(cudaSetDevice(a.dev));
  if (m.p2p && !m.sm) {
    CUDA_CHECK(cudaMemcpyPeerAsync(dst, b.dev, a.send, a.dev, n, sa));
    return;
  }
  if (m.p2p && m.sm) {
    copyKernel<<<blocksFor(a, n), 256, 0, sa>>>(dst, a.send, n);
    CUDA_CHECK_LAUNCH();
    return;
  }
  // Staged: a -> pinned host on a's stream, then host -> b on b's stream, then a waits for b.
  if (m.sm) {
    copyKernel<<<blocksFor(a, n), 256, 0, sa>>>(host, a.send, n);
    CUDA_CHECK_LAUNCH();
  } else {
    CUDA_CHECK(cudaMemcpyAsync(host, a.send, n, cudaMemcpyDeviceToHost, sa));
  }
  CUDA_CHECK(cudaEventRecord(a.mid[slot], sa));
  CUDA_CHECK(cudaSetDevice(b.dev));
  CUDA_CHECK(cudaStreamWaitEvent(sb, a.mid[slot], 0));
  if (m.sm) {
    copyKernel<<<blocksFor(b, n), 256, 0, sb>>>(dst, host, n);
    CUDA_CHECK_LAUNCH();
  } else {
    CUDA_CHECK(cudaMemcpyAsync(dst, host, n, cudaMemcpyHostToDevice, sb));
  }
  CUDA_CHECK(cudaEventRecord(b.done[slot], sb));
  CUDA_CHECK(cudaSetDevice(a.dev));
  CUDA_CHECK(cudaStreamWaitEvent(sa, b.done[slot], 0));
}

// One iteration: forward copy a -> b, plus b -> a at the same time when `bidir`.
// Everything is ordered before later work on a.stream[0].
inline void enqueueIteration(Gpu& a, Gpu& b, size_t n, Mode m, bool bidir, uint8_t* host[2]) {
  if (bidir) {
    CUDA_CHECK(cudaSetDevice(a.dev));
    CUDA_CHECK(cudaEventRecord(a.mid[1], a.stream[0]));
    CUDA_CHECK(cudaSetDevice(b.dev));
    CUDA_CHECK(cudaStreamWaitEvent(b.stream[1], a.mid[1], 0));
  }
  enqueueCopy(a, b, 0, n, m, host[0]);
  if (!bidir) return;
  enqueueCopy(b, a, 1, n, m, host[1]);
  CUDA_CHECK(cudaSetDevice(b.dev));
  CUDA_CHECK(cudaEventRecord(b.done[1], b.stream[1]));
  CUDA_CHECK(cudaSetDevice(a.dev));
  CUDA_CHECK(cudaStreamWaitEvent(a.stream[0], b.done[1], 0));
}

// Fills `src` with the pattern, the destination with its complement, copies, then counts the
// destination's mismatches. Returns {mismatches, first offset}.
inline std::pair<unsigned long long, unsigned long long> checkCopy(Gpu& a, Gpu& b, int slot, size_t n, Mode m, uint8_t* host, uint32_t seed) {
  uint8_t* dst = slot == 0 ? b.recv : b.recv2;
  CUDA_CHECK(cudaSetDevice(b.dev));
  fillKernel<<<blocksFor(b, n), 256>>>(dst, n, seed, 1);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaSetDevice(a.dev));
  fillKernel<<<blocksFor(a, n), 256>>>(a.send, n, seed, 0);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  enqueueCopy(a, b, slot, n, m, host);
  CUDA_CHECK(cudaStreamSynchronize(a.stream[slot]));
  CUDA_CHECK(cudaSetDevice(b.dev));
  unsigned long long init[2] = {0, ~0ull}, got[2];
  CUDA_CHECK(cudaMemcpy(b.counters, init, sizeof init, cudaMemcpyHostToDevice));
  checkKernel<<<blocksFor(b, n), 256>>>(dst, n, seed, b.counters);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(got, b.counters, sizeof got, cudaMemcpyDeviceToHost));
  return {got[0], got[1]};
}

}  // namespace p2p
