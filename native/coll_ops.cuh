// coll_bench's collectives: the per-GPU state, one measured case (collective, type, op,
// placement, element counts), enqueueing it on every local GPU (in a group, or as captured
// graphs), the data check, the timing of a batch of iterations and the reduction of values over
// processes.
#pragma once
#include "coll_data.cuh"
#include "common.cuh"
#include "nccl_loader.cuh"

#include <algorithm>
#include <vector>

namespace coll {

// One local GPU: its rank, communicator, stream, buffers, events and graphs.
struct Dev {
  int gpu = 0, rank = 0;
  nccl::Comm comm = nullptr;
  cudaStream_t stream = nullptr;
  char *send = nullptr, *recv = nullptr;
  size_t cap = 0;  // bytes of each of send and recv
  unsigned long long* wrong = nullptr;
  double* red = nullptr;
  std::vector<cudaEvent_t> ev;  // iters + 1: timed iteration i runs between ev[i] and ev[i+1]
  std::vector<cudaGraphExec_t> execs;  // one per buffer window (-G 1)
};

// One measured case: collective, type, op, placement, element counts and buffer windows.
struct Case {
  int kind, type, op, root, nranks;
  bool inPlace;
  Counts n;
  size_t span;     // bytes one iteration touches in a buffer
  size_t windows;  // distinct buffer offsets the timed iterations cycle through
};

inline Case makeCase(int kind, int type, int op, int root, int nranks, bool inPlace, size_t bytes, size_t cap, long iters) {
  Case c{kind, type, op, root, nranks, inPlace, caseCounts(kind, type, nranks, bytes), 0, 1};
  size_t t = typeSize(type);
  c.span = (inPlace ? c.n.count : std::max(c.n.sendElems, c.n.recvElems)) * t;
  c.span = (c.span + 255) / 256 * 256;  // keep every window 256-byte aligned
  if (c.span > 0 && c.span <= cap) c.windows = std::min(cap / c.span, (size_t)std::max(1L, iters));
  return c;
}

// The buffers of window w. In place, the input (all_gather) or the output (reduce_scatter) is
// this rank's block of the one buffer, which holds `count` elements; otherwise input and output
// are separate buffers.
inline void* sendPtr(const Case& c, Dev& d, size_t w) {
  char* base = (c.inPlace ? d.recv : d.send) + iterShift(w, c.span, c.span * c.windows);
  if (!c.inPlace) return base;
  return base + (c.kind == AllGather ? (size_t)d.rank * c.n.per * typeSize(c.type) : 0);
}
inline void* recvPtr(const Case& c, Dev& d, size_t w) {
  char* base = d.recv + iterShift(w, c.span, c.span * c.windows);
  return base + (c.inPlace && c.kind == ReduceScatter ? (size_t)d.rank * c.n.per * typeSize(c.type) : 0);
}

// Enqueues the collective of one GPU on window w (inside a group when the process has several).
inline void launch(const Case& c, Dev& d, size_t w) {
  const void* s = sendPtr(c, d, w);
  void* r = recvPtr(c, d, w);
  switch (c.kind) {
    case AllReduce: NCCL_CHECK(api.allReduce(s, r, c.n.count, c.type, c.op, d.comm, d.stream)); break;
    case AllGather: NCCL_CHECK(api.allGather(s, r, c.n.per, c.type, d.comm, d.stream)); break;
    case ReduceScatter: NCCL_CHECK(api.reduceScatter(s, r, c.n.per, c.type, c.op, d.comm, d.stream)); break;
    case Broadcast: NCCL_CHECK(api.broadcast(s, r, c.n.count, c.type, c.root, d.comm, d.stream)); break;
    case Alltoall:
      NCCL_CHECK(api.groupStart());
      for (int p = 0; p < c.nranks; p++) {
        size_t off = (size_t)p * c.n.per * typeSize(c.type);
        NCCL_CHECK(api.send((const char*)s + off, c.n.per, c.type, p, d.comm, d.stream));
        NCCL_CHECK(api.recv((char*)r + off, c.n.per, c.type, p, d.comm, d.stream));
      }
      NCCL_CHECK(api.groupEnd());
      break;
    default: {
      NCCL_CHECK(api.groupStart());
      NCCL_CHECK(api.send(s, c.n.count, c.type, (d.rank + 1) % c.nranks, d.comm, d.stream));
      NCCL_CHECK(api.recv(r, c.n.count, c.type, (d.rank + c.nranks - 1) % c.nranks, d.comm, d.stream));
      NCCL_CHECK(api.groupEnd());
    }
  }
}

// Runs iteration `iter` (window iter mod windows) once on every local GPU (a graph launch with -G 1).
inline void runAll(const Case& c, std::vector<Dev>& devs, bool graph, size_t iter) {
  size_t w = iter % c.windows;
  if (graph) {
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaGraphLaunch(d.execs[w], d.stream));
    return;
  }
  NCCL_CHECK(api.groupStart());
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), launch(c, d, w);
  NCCL_CHECK(api.groupEnd());
}

// Captures one graph per buffer window on every local GPU.
inline void captureGraphs(const Case& c, std::vector<Dev>& devs) {
  for (size_t w = 0; w < c.windows; w++) {
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaStreamBeginCapture(d.stream, cudaStreamCaptureModeThreadLocal));
    runAll(c, devs, false, w);
    for (Dev& d : devs) {
      cudaGraph_t g;
      cudaGraphExec_t exec;
      CUDA_CHECK(cudaSetDevice(d.gpu));
      CUDA_CHECK(cudaStreamEndCapture(d.stream, &g));
      CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
      CUDA_CHECK(cudaGraphDestroy(g));
      d.execs.push_back(exec);
    }
  }
}

inline void destroyGraphs(std::vector<Dev>& devs) {
  for (Dev& d : devs) {
    for (cudaGraphExec_t e : d.execs) CUDA_CHECK(cudaGraphExecDestroy(e));
    d.execs.clear();
  }
}

// Waits for every local GPU's stream (times and counts are only read after this).
inline void syncAll(std::vector<Dev>& devs) {
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaStreamSynchronize(d.stream));
}

// Poisons the output (0xff bytes: NaN, -1 or the maximum) and writes each local rank's input, in window 0.
inline void initData(const Case& c, std::vector<Dev>& devs) {
  size_t t = typeSize(c.type);
  for (Dev& d : devs) {
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaMemsetAsync(d.recv, 0xff, (c.inPlace ? c.n.count : c.n.recvElems) * t, d.stream));
    fill(c.type, sendPtr(c, d, 0), c.n.sendElems, c.op, d.rank, c.nranks, d.stream);
  }
  syncAll(devs);
}

// Number of wrong output elements over the local GPUs after one checked run (window 0).
inline double countWrong(const Case& c, std::vector<Dev>& devs, bool graph) {
  initData(c, devs);
  runAll(c, devs, graph, 0);
  std::vector<unsigned long long> w(devs.size(), 0);
  for (size_t k = 0; k < devs.size(); k++) {
    Dev& d = devs[k];
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaMemsetAsync(d.wrong, 0, sizeof(unsigned long long), d.stream));
    CheckSpec s{c.kind, c.type, c.op, d.rank, c.nranks, c.root, c.n.per};
    check(recvPtr(c, d, 0), c.n.recvElems, s, d.wrong, d.stream);
    CUDA_CHECK(cudaMemcpyAsync(&w[k], d.wrong, sizeof w[k], cudaMemcpyDeviceToHost, d.stream));
  }
  syncAll(devs);
  double wrong = 0;
  for (unsigned long long x : w) wrong += (double)x;
  return wrong;
}

// Times `iters` iterations as one batch: behind the latch (held once), one untimed iteration
// lines the ranks of every process up, then the timed iterations run back to back with an event
// after each; iteration i's time is the maximum over local GPUs of ev[i] → ev[i+1]. So host
// wake-up and enqueue jitter between processes never enter a time. `timedOut` is true when the
// latch gave up (the host blocked while enqueueing): the first times then include enqueueing.
inline std::vector<double> timeIterations(const Case& c, std::vector<Dev>& devs, bool graph, long warmup, long iters, gc::Latch& latch, bool useLatch, bool& timedOut) {
  for (long i = 0; i < warmup; i++) runAll(c, devs, graph, (size_t)i);
  syncAll(devs);
  if (useLatch) {
    latch.arm();
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), latch.hold(d.stream);
  }
  runAll(c, devs, graph, 0);
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaEventRecord(d.ev[0], d.stream));
  for (long i = 0; i < iters; i++) {
    runAll(c, devs, graph, (size_t)i);
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaEventRecord(d.ev[i + 1], d.stream));
  }
  if (useLatch) latch.release();
  syncAll(devs);
  timedOut = useLatch && latch.timedOut();
  std::vector<double> times(iters, 0.0);
  for (Dev& d : devs) {
    CUDA_CHECK(cudaSetDevice(d.gpu));
    for (long i = 0; i < iters; i++) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, d.ev[i], d.ev[i + 1]));
      times[i] = std::max(times[i], ms * 1e-3);
    }
  }
  return times;
}

// Combines per-process values over all processes through NCCL: op 2 = max, 0 = sum. Every copy
// and memset is on the device's own stream, ordered before the all-reduce, and every local
// stream is synchronised before the result is read.
inline void reduceAcrossProcs(std::vector<double>& v, int op, std::vector<Dev>& devs) {
  size_t bytes = v.size() * sizeof(double);
  for (size_t k = 0; k < devs.size(); k++) {
    Dev& d = devs[k];
    CUDA_CHECK(cudaSetDevice(d.gpu));
    if (k == 0) CUDA_CHECK(cudaMemcpyAsync(d.red, v.data(), bytes, cudaMemcpyHostToDevice, d.stream));
    else CUDA_CHECK(cudaMemsetAsync(d.red, 0, bytes, d.stream));
  }
  NCCL_CHECK(api.groupStart());
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), NCCL_CHECK(api.allReduce(d.red, d.red, v.size(), nccl::Float64, op, d.comm, d.stream));
  NCCL_CHECK(api.groupEnd());
  CUDA_CHECK(cudaSetDevice(devs[0].gpu));
  CUDA_CHECK(cudaMemcpyAsync(v.data(), devs[0].red, bytes, cudaMemcpyDeviceToHost, devs[0].stream));
  syncAll(devs);
}

inline double busFactor(int kind, int n) {
  if (kind == AllReduce) return 2.0 * (n - 1) / n;
  if (kind == Broadcast || kind == Sendrecv) return 1.0;
  return (double)(n - 1) / n;
}

}  // namespace coll
