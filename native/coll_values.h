// coll_bench's arithmetic, with no CUDA header: the value each rank puts at each index, the
// value each collective must leave there, the check of one output element, the element counts
// of a case and the GPUs a process takes. Host and device code alike (GC_HD), so the host
// compiler can test it (test/native/coll_values_test.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define GC_HD __host__ __device__
#else
#define GC_HD
#endif

namespace coll {

// Collectives coll_bench runs (the order of --coll all).
enum Kind { AllReduce, AllGather, ReduceScatter, Broadcast, Alltoall, Sendrecv };
// Reduction operators (ncclRedOp_t values) and data types (ncclDataType_t values).
enum Op { OpSum = 0, OpProd = 1, OpMax = 2, OpMin = 3, OpAvg = 4 };
enum Type { TInt8, TUint8, TInt32, TUint32, TInt64, TUint64, THalf, TFloat, TDouble, TBfloat16 };

// Bytes per element of each type.
GC_HD inline int typeSize(int type) {
  const int size[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};
  return size[type];
}
// Significand bits of the floating types (0: an integer type).
GC_HD inline int mantissaBits(int type) {
  const int bits[] = {0, 0, 0, 0, 0, 0, 11, 24, 53, 8};
  return bits[type];
}

// Inputs are integers in [0, kRange): a sum over 16 ranks stays at most 16·7 = 112, exact in
// every type (int8 and bfloat16 included).
const int kRange = 8;

// A 32-bit mix of (rank, i) (murmur3's finaliser over both): neighbouring indices, ranks and
// blocks get unrelated values, so a block moved, shifted or taken from another rank is seen.
GC_HD inline uint32_t mix(uint32_t rank, uint64_t i) {
  uint32_t x = (uint32_t)i ^ (uint32_t)(i >> 32) * 0x85ebca6bu ^ (rank + 1) * 0x9e3779b9u;
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  return x ^ (x >> 16);
}

// The input value of `rank` at send index i. prod: 2 at the one rank mix(n, i) picks, 1 at the
// others (the product is 2, exact everywhere, and a missing or repeated rank shows); the other
// operators: mix(rank, i) reduced to [0, kRange).
GC_HD inline int inputValue(int op, int rank, int nranks, size_t i) {
  if (op == OpProd) return (int)(mix(0xffffu, i) % (uint32_t)nranks) == rank ? 2 : 1;
  return (int)(mix((uint32_t)rank, i) % (uint32_t)kRange);
}

// The exact reduction over all ranks at index i (avg: the exact sum; see wrongAt).
GC_HD inline long long reduceExact(int op, int nranks, size_t i) {
  long long acc = inputValue(op, 0, nranks, i);
  for (int r = 1; r < nranks; r++) {
    long long v = inputValue(op, r, nranks, i);
    if (op == OpSum || op == OpAvg) acc += v;
    else if (op == OpProd) acc *= v;
    else if (op == OpMax) acc = acc > v ? acc : v;
    else acc = acc < v ? acc : v;
  }
  return acc;
}

// What a check needs to know to compute the expected value at an output index.
struct CheckSpec {
  int kind, type, op, rank, nranks, root;
  size_t per;  // elements per rank block (all_gather, reduce_scatter, alltoall)
};

// The value output index i of this rank must hold (avg: the exact sum, divided in wrongAt).
GC_HD inline long long expected(const CheckSpec& s, size_t i) {
  switch (s.kind) {
    case AllReduce: return reduceExact(s.op, s.nranks, i);
    case AllGather: return inputValue(s.op, (int)(i / s.per), s.nranks, i % s.per);
    case ReduceScatter: return reduceExact(s.op, s.nranks, (size_t)s.rank * s.per + i);
    case Broadcast: return inputValue(s.op, s.root, s.nranks, i);
    case Alltoall: return inputValue(s.op, (int)(i / s.per), s.nranks, (size_t)s.rank * s.per + i % s.per);
    default: return inputValue(s.op, (s.rank + s.nranks - 1) % s.nranks, s.nranks, i);
  }
}

// True when `got` (the output element read as a double) is wrong at index i. Exact everywhere
// but floating-point avg: integer avg is NCCL's integer quotient of the sum (sum / n, truncated,
// which for these non-negative sums is the floor); floating avg is NCCL's premultiplied sum
// (each input times 1/n in the type, then summed), within (n + 1) roundings of the type. NaN
// (the 0xff poison of a float output) is always wrong; the integer poison reads -1 or the
// type's maximum, never a valid value.
GC_HD inline bool wrongAt(const CheckSpec& s, size_t i, double got) {
  long long want = expected(s, i);
  bool reduces = s.kind == AllReduce || s.kind == ReduceScatter;
  if (!reduces || s.op != OpAvg) return !(got == (double)want);
  if (mantissaBits(s.type) == 0) return !(got == (double)(want / s.nranks));
  double w = (double)want / s.nranks, eps = 1.0;
  for (int b = 0; b < mantissaBits(s.type); b++) eps *= 0.5;
  double tol = (s.nranks + 1) * eps * (w > 1 ? w : 1.0), err = got > w ? got - w : w - got;
  return !(err <= tol);
}

// ---------------------------------------------------------------- case geometry

// The element counts of one case: `count` as printed (size / element size), send and receive
// elements, and the per-rank block of all_gather, reduce_scatter and alltoall, rounded down to
// 16 bytes as nccl-tests does (count = block · nranks for those).
struct Counts {
  size_t count, sendElems, recvElems, per;
};

GC_HD inline Counts caseCounts(int kind, int type, int nranks, size_t bytes) {
  size_t t = (size_t)typeSize(type), n = bytes / t;
  bool blocked = kind == AllGather || kind == ReduceScatter || kind == Alltoall;
  Counts c{n, n, n, n};
  if (blocked) {
    size_t align = 16 / t;
    c.per = n / (size_t)nranks / align * align;
    c.count = c.per * (size_t)nranks;
    c.sendElems = kind == AllGather ? c.per : c.count;
    c.recvElems = kind == ReduceScatter ? c.per : c.count;
  }
  return c;
}

// The byte offset of timed iteration `iter` into buffers of `capacity` bytes when one
// iteration touches `span` bytes: successive iterations use successive disjoint windows (as
// nccl-tests shifts its buffers), so a mid size is not served from L2 by the previous one.
GC_HD inline size_t iterShift(size_t iter, size_t span, size_t capacity) {
  if (span == 0 || span > capacity) return 0;
  size_t windows = capacity / span;
  return span * (iter % windows);
}

// The first of the `ngpus` devices a process at local rank `local` takes among `visible`:
// local·ngpus when that range exists; else the launcher gave each task its own GPUs (srun
// --gpus-per-task), and the process wraps into what it sees: (local·ngpus) mod visible, or 0
// when that range does not fit. -1 when the process sees fewer than ngpus.
GC_HD inline long firstGpu(long local, long ngpus, long visible) {
  if (ngpus > visible) return -1;
  long first = local * ngpus;
  if (first + ngpus <= visible) return first;
  first %= visible;
  return first + ngpus <= visible ? first : 0;
}

}  // namespace coll
