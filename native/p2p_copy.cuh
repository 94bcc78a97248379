// p2p_bench's copies: the data pattern and the copy / fill / check kernels, one GPU's buffers,
// streams and events, and enqueueing one copy (copy engine or SM kernel; direct, staged by the
// driver, or bounced through pinned host memory in chunks), one iteration (one direction or
// both), or a checked iteration.
#pragma once
#include "common.cuh"
#include "p2p_plan.h"

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

// Buffers, streams and events of one GPU. Slot 0 serves the forward copy, slot 1 the reverse;
// stage[slot] takes the host → destination leg of a bounce, so it overlaps the first leg even
// on one GPU.
struct Gpu {
  int dev = -1, sms = 1;
  uint8_t *send = nullptr, *recv = nullptr, *recv2 = nullptr;
  cudaStream_t stream[2] = {nullptr, nullptr}, stage[2] = {nullptr, nullptr};
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
    CUDA_CHECK(cudaStreamCreateWithFlags(&g.stage[s], cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.mid[s], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.done[s], cudaEventDisableTiming));
  }
  g.timer.init(dev);
}

// How a copy travels: direct with peer access (`enabled`), staged by the driver with peer access
// off for the pair (`disabled`: cudaMemcpyPeerAsync, as p2pBandwidthLatencyTest's
// P2P=Disabled), or bounced by the bench through pinned host memory in chunks (`bounce`).
enum Path { Direct, Driver, Bounce };
const char* const kPathNames[] = {"enabled", "disabled", "bounce"};

struct Mode {
  Path path;
  bool sm;        // SM kernel or copy engine
  size_t chunk;   // bounce chunk bytes
};

inline void copyOn(cudaStream_t st, const Gpu& g, uint8_t* dst, const uint8_t* src, size_t n, bool sm, cudaMemcpyKind kind) {
  if (sm) {
    copyKernel<<<blocksFor(g, n), 256, 0, st>>>(dst, src, n);
    CUDA_CHECK_LAUNCH();
  } else {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, n, kind, st));
  }
}

// Enqueues one copy of n bytes a.send -> b.recv (slot 0) or a.send -> b.recv2 (slot 1); all work
// is ordered before later work on a.stream[slot]. `host` is the mapped pinned bounce buffer.
inline void enqueueCopy(Gpu& a, Gpu& b, int slot, size_t n, Mode m, uint8_t* host) {
  uint8_t* dst = slot == 0 ? b.recv : b.recv2;
  cudaStream_t sa = a.stream[slot], sb = b.stage[slot];
  CUDA_CHECK(cudaSetDevice(a.dev));
  if (m.path != Bounce) {
    if (m.sm) copyOn(sa, a, dst, a.send, n, true, cudaMemcpyDefault);
    else CUDA_CHECK(cudaMemcpyPeerAsync(dst, b.dev, a.send, a.dev, n, sa));
    return;
  }
  // Bounce, chunk by chunk: a -> host on a's stream, then host -> b on b's stage stream once
  // that chunk is in host memory, so chunk k+1 leaves a while chunk k enters b.
  for (size_t k = 0, count = chunkCount(n, m.chunk); k < count; k++) {
    size_t off = k * m.chunk, len = chunkBytes(n, m.chunk, k);
    CUDA_CHECK(cudaSetDevice(a.dev));
    copyOn(sa, a, host + off, a.send + off, len, m.sm, cudaMemcpyDeviceToHost);
    CUDA_CHECK(cudaEventRecord(a.mid[slot], sa));
    CUDA_CHECK(cudaSetDevice(b.dev));
    CUDA_CHECK(cudaStreamWaitEvent(sb, a.mid[slot], 0));
    copyOn(sb, b, dst + off, host + off, len, m.sm, cudaMemcpyHostToDevice);
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

// Mismatches of one direction: {count, first offset}.
typedef std::pair<unsigned long long, unsigned long long> Mismatch;

inline void fill(Gpu& g, uint8_t* p, size_t n, uint32_t seed, int invert) {
  CUDA_CHECK(cudaSetDevice(g.dev));
  fillKernel<<<blocksFor(g, n), 256>>>(p, n, seed, invert);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

inline Mismatch countMismatches(Gpu& g, const uint8_t* p, size_t n, uint32_t seed) {
  CUDA_CHECK(cudaSetDevice(g.dev));
  unsigned long long init[2] = {0, ~0ull}, got[2];
  CUDA_CHECK(cudaMemcpy(g.counters, init, sizeof init, cudaMemcpyHostToDevice));
  checkKernel<<<blocksFor(g, n), 256>>>(p, n, seed, g.counters);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(got, g.counters, sizeof got, cudaMemcpyDeviceToHost));
  return {got[0], got[1]};
}

// Checks one iteration as measured: fills each source with its pattern and each destination
// with the complement, runs the iteration once (both directions together when `bidir`), then
// counts each destination's mismatches. out[0]: a -> b, out[1]: b -> a.
inline void checkIteration(Gpu& a, Gpu& b, size_t n, Mode m, bool bidir, uint8_t* host[2], uint32_t seed, Mismatch out[2]) {
  uint32_t seedB = a.dev == b.dev ? seed : seed + 1;  // one GPU has one send buffer
  fill(b, b.recv, n, seed, 1);
  fill(a, a.send, n, seed, 0);
  if (bidir) fill(a, a.recv2, n, seedB, 1), fill(b, b.send, n, seedB, 0);
  enqueueIteration(a, b, n, m, bidir, host);
  CUDA_CHECK(cudaSetDevice(a.dev));
  CUDA_CHECK(cudaStreamSynchronize(a.stream[0]));
  out[0] = countMismatches(b, b.recv, n, seed);
  out[1] = bidir ? countMismatches(a, a.recv2, n, seedB) : Mismatch{0, 0};
}

}  // namespace p2p
