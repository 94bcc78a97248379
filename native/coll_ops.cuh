// coll_bench's collectives: the per-GPU state, one measured case (collective, type, op,
// placement, element counts), enqueueing it on every local GPU (in a group, or as a captured
// graph), the data check, per-iteration timing and the reduction of values over processes.
#pragma once
#include "coll_data.cuh"
#include "common.cuh"
#include "nccl_loader.cuh"

#include <algorithm>
#include <vector>

namespace coll {

// Bytes per element of each -d type, in the order of coll_bench's type list.
const int kTypeSize[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};

// One local GPU: its rank, communicator, stream, buffers and timer.
struct Dev {
  int gpu = 0, rank = 0;
  nccl::Comm comm = nullptr;
  cudaStream_t stream = nullptr;
  char *send = nullptr, *recv = nullptr;
  unsigned long long* wrong = nullptr;
  double* red = nullptr;
  gc::EventTimer timer;
  cudaGraphExec_t exec = nullptr;
};

// One measured case: collective, type, op, placement, sizes in elements.
struct Case {
  int kind, dtype, op, root, nranks;
  bool inPlace;
  size_t count;       // elements as printed (size / element size)
  size_t sendElems, recvElems, per;
};

inline Case makeCase(int kind, int dtype, int op, int root, int nranks, bool inPlace, size_t bytes) {
  Case c{kind, dtype, op, root, nranks, inPlace, 0, 0, 0, 0};
  size_t t = kTypeSize[dtype], n = bytes / t;
  bool blocked = kind == AllGather || kind == ReduceScatter || kind == Alltoall;
  if (blocked) n -= n % nranks;
  c.count = n, c.per = blocked ? n / nranks : n;
  c.sendElems = kind == AllGather ? c.per : n;
  c.recvElems = kind == ReduceScatter ? c.per : n;
  return c;
}

// In place, the input (all_gather) or the output (reduce_scatter) is this rank's block of the
// one buffer, which holds `count` elements; otherwise input and output are separate buffers.
inline void* sendPtr(const Case& c, Dev& d) {
  if (!c.inPlace) return d.send;
  return d.recv + (c.kind == AllGather ? (size_t)d.rank * c.per * kTypeSize[c.dtype] : 0);
}
inline void* recvPtr(const Case& c, Dev& d) {
  if (!c.inPlace) return d.recv;
  return d.recv + (c.kind == ReduceScatter ? (size_t)d.rank * c.per * kTypeSize[c.dtype] : 0);
}

// Enqueues the collective of one GPU (inside a group when the process has several).
inline void launch(const Case& c, Dev& d) {
  const void* s = sendPtr(c, d);
  void* r = recvPtr(c, d);
  switch (c.kind) {
    case AllReduce: NCCL_CHECK(api.allReduce(s, r, c.count, c.dtype, c.op, d.comm, d.stream)); break;
    case AllGather: NCCL_CHECK(api.allGather(s, r, c.per, c.dtype, d.comm, d.stream)); break;
    case ReduceScatter: NCCL_CHECK(api.reduceScatter(s, r, c.per, c.dtype, c.op, d.comm, d.stream)); break;
    case Broadcast: NCCL_CHECK(api.broadcast(s, r, c.count, c.dtype, c.root, d.comm, d.stream)); break;
    case Alltoall:
      NCCL_CHECK(api.groupStart());
      for (int p = 0; p < c.nranks; p++) {
        size_t off = (size_t)p * c.per * kTypeSize[c.dtype];
        NCCL_CHECK(api.send((const char*)s + off, c.per, c.dtype, p, d.comm, d.stream));
        NCCL_CHECK(api.recv((char*)r + off, c.per, c.dtype, p, d.comm, d.stream));
      }
      NCCL_CHECK(api.groupEnd());
      break;
    default: {
      NCCL_CHECK(api.groupStart());
      NCCL_CHECK(api.send(s, c.count, c.dtype, (d.rank + 1) % c.nranks, d.comm, d.stream));
      NCCL_CHECK(api.recv(r, c.count, c.dtype, (d.rank + c.nranks - 1) % c.nranks, d.comm, d.stream));
      NCCL_CHECK(api.groupEnd());
    }
  }
}

// Runs the collective once on every local GPU (as a graph launch with -G 1).
inline void runAll(const Case& c, std::vector<Dev>& devs, bool graph) {
  if (graph) {
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaGraphLaunch(d.exec, d.stream));
    return;
  }
  NCCL_CHECK(api.groupStart());
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), launch(c, d);
  NCCL_CHECK(api.groupEnd());
}

inline void captureGraphs(const Case& c, std::vector<Dev>& devs) {
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaStreamBeginCapture(d.stream, cudaStreamCaptureModeThreadLocal));
  runAll(c, devs, false);
  for (Dev& d : devs) {
    cudaGraph_t g;
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaStreamEndCapture(d.stream, &g));
    CUDA_CHECK(cudaGraphInstantiate(&d.exec, g, 0));
    CUDA_CHECK(cudaGraphDestroy(g));
  }
}

// Poisons the output and writes the input values of each local rank.
inline void initData(const Case& c, std::vector<Dev>& devs) {
  size_t t = kTypeSize[c.dtype];
  for (Dev& d : devs) {
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaMemsetAsync(d.recv, 0xff, (c.inPlace ? c.count : c.recvElems) * t, d.stream));
    fill(c.dtype, sendPtr(c, d), c.sendElems, c.op, d.rank, c.nranks, d.stream);
  }
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaStreamSynchronize(d.stream));
}

// Number of wrong output elements over the local GPUs after one checked run.
inline double countWrong(const Case& c, std::vector<Dev>& devs, bool graph) {
  initData(c, devs);
  runAll(c, devs, graph);
  double avgTol = c.dtype <= 5 ? 1.0 : 0.02;
  double wrong = 0;
  for (Dev& d : devs) {
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaMemsetAsync(d.wrong, 0, sizeof(unsigned long long), d.stream));
    CheckSpec s{c.kind, c.op, d.rank, c.nranks, c.root, c.per, c.op == 4 ? avgTol : 0.0};
    check(c.dtype, recvPtr(c, d), c.recvElems, s, d.wrong, d.stream);
    unsigned long long w = 0;
    CUDA_CHECK(cudaMemcpyAsync(&w, d.wrong, sizeof w, cudaMemcpyDeviceToHost, d.stream));
    CUDA_CHECK(cudaStreamSynchronize(d.stream));
    wrong += (double)w;
  }
  return wrong;
}

// Times each iteration: the maximum over local GPUs of their start..stop event times. With
// `useLatch` each iteration is held behind `latch` until it is fully enqueued.
// `timedOut` is 1 + the iteration whose latch gave up (0: never); later ones run without it.
inline std::vector<double> timeIterations(const Case& c, std::vector<Dev>& devs, bool graph, long warmup, long iters, gc::Latch& latch, bool useLatch, long& timedOut) {
  for (long i = 0; i < warmup; i++) runAll(c, devs, graph);
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaStreamSynchronize(d.stream));
  std::vector<double> times;
  for (long i = 0; i < iters; i++) {
    if (useLatch) latch.arm();
    for (Dev& d : devs) {
      CUDA_CHECK(cudaSetDevice(d.gpu));
      if (useLatch) latch.hold(d.stream);
      CUDA_CHECK(cudaEventRecord(d.timer.start, d.stream));
    }
    runAll(c, devs, graph);
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaEventRecord(d.timer.stop, d.stream));
    if (useLatch) latch.release();
    double worst = 0;
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), worst = std::max(worst, d.timer.seconds());
    times.push_back(worst);
    if (useLatch && latch.timedOut()) timedOut = i + 1, useLatch = false;  // the host blocked: no latch from here on
  }
  return times;
}

// Combines per-process values over all processes through NCCL: op 2 = max, 0 = sum.
inline void reduceAcrossProcs(std::vector<double>& v, int op, std::vector<Dev>& devs) {
  size_t bytes = v.size() * sizeof(double);
  for (size_t k = 0; k < devs.size(); k++) {
    CUDA_CHECK(cudaSetDevice(devs[k].gpu));
    if (k == 0) CUDA_CHECK(cudaMemcpy(devs[k].red, v.data(), bytes, cudaMemcpyHostToDevice));
    else CUDA_CHECK(cudaMemset(devs[k].red, 0, bytes));
  }
  NCCL_CHECK(api.groupStart());
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), NCCL_CHECK(api.allReduce(d.red, d.red, v.size(), nccl::Float64, op, d.comm, d.stream));
  NCCL_CHECK(api.groupEnd());
  CUDA_CHECK(cudaSetDevice(devs[0].gpu));
  CUDA_CHECK(cudaStreamSynchronize(devs[0].stream));
  CUDA_CHECK(cudaMemcpy(v.data(), devs[0].red, bytes, cudaMemcpyDeviceToHost));
}

inline double busFactor(int kind, int n) {
  if (kind == AllReduce) return 2.0 * (n - 1) / n;
  if (kind == Broadcast || kind == Sendrecv) return 1.0;
  return (double)(n - 1) / n;
}

}  // namespace coll
