// p2p_bench: copy latency and bandwidth between GPUs (and from a GPU to itself), with the
// copy engine or an SM kernel, P2P enabled or staged through pinned host memory.
// Every iteration is timed with CUDA events and printed; the data are checked after each size.
// Flags, output format and exit codes: native/README.md.
#include "common.cuh"

#include <algorithm>
#include <utility>

using gc::die;

namespace {

const char* kUsageText =
    "usage: p2p_bench [--gpus LIST] [--pairs all|self|cross|S:D,...] [--tests latency,bw_uni,bw_bi]\n"
    "                 [--p2p enabled,disabled] [--copy ce,sm] [-b SIZE -e SIZE -f N] [-B SIZE -E SIZE -F N]\n"
    "                 [-n ITERS] [-w WARMUP] [-c 0|1] [--latch 0|1]\n"
    "Copies between every ordered pair of the GPUs given and from each GPU to itself; prints one\n"
    "line per iteration (see native/README.md). Exit: 0 ok, 1 data check failed, 2 usage, 3 CUDA error.\n";

struct Opts {
  std::vector<int> gpus;
  std::string pairs = "all";
  std::vector<std::string> tests = {"latency", "bw_uni", "bw_bi"};
  std::vector<std::string> p2p = {"enabled", "disabled"};
  std::vector<std::string> copy = {"ce", "sm"};
  size_t latB = 4, latE = 1 << 20, latF = 2;
  size_t bwB = 64 << 10, bwE = 256 << 20, bwF = 4;
  long iters = 20, warmup = 5, check = 1, latch = 1;
};

Opts parseArgs(int argc, char** argv) {
  Opts o;
  gc::Args a{argc, argv};
  for (; a.i < argc; a.i++) {
    if (a.is("-h", "--help")) std::fputs(kUsageText, stdout), std::exit(0);
    else if (a.is("--gpus")) o.gpus = gc::parseIntList(a.value(), "--gpus");
    else if (a.is("--pairs")) o.pairs = a.value();
    else if (a.is("--tests")) o.tests = gc::parseChoices(a.value(), "latency,bw_uni,bw_bi", "--tests");
    else if (a.is("--p2p")) o.p2p = gc::parseChoices(a.value(), "enabled,disabled", "--p2p");
    else if (a.is("--copy")) o.copy = gc::parseChoices(a.value(), "ce,sm", "--copy");
    else if (a.is("-b")) o.latB = gc::parseSize(a.value(), "-b");
    else if (a.is("-e")) o.latE = gc::parseSize(a.value(), "-e");
    else if (a.is("-f")) o.latF = gc::parseInt(a.value(), "-f");
    else if (a.is("-B")) o.bwB = gc::parseSize(a.value(), "-B");
    else if (a.is("-E")) o.bwE = gc::parseSize(a.value(), "-E");
    else if (a.is("-F")) o.bwF = gc::parseInt(a.value(), "-F");
    else if (a.is("-n")) o.iters = gc::parseInt(a.value(), "-n");
    else if (a.is("-w")) o.warmup = gc::parseInt(a.value(), "-w");
    else if (a.is("-c")) o.check = gc::parseInt(a.value(), "-c");
    else if (a.is("--latch")) o.latch = gc::parseInt(a.value(), "--latch");
    else die(gc::kUsage, "unknown flag '%s' (see -h)", a.flag());
  }
  if (o.iters < 1) die(gc::kUsage, "-n must be at least 1");
  return o;
}

// Ordered (src, dst) pairs from --pairs over the GPUs given.
std::vector<std::pair<int, int>> makePairs(const Opts& o) {
  std::vector<std::pair<int, int>> out;
  if (o.pairs == "all" || o.pairs == "self" || o.pairs == "cross") {
    for (int s : o.gpus)
      for (int d : o.gpus)
        if ((s == d && o.pairs != "cross") || (s != d && o.pairs != "self")) out.push_back({s, d});
    return out;
  }
  for (const std::string& item : gc::splitList(o.pairs.c_str())) {
    size_t colon = item.find(':');
    if (colon == std::string::npos) die(gc::kUsage, "--pairs: '%s' is not S:D", item.c_str());
    int s = (int)gc::parseInt(item.substr(0, colon).c_str(), "--pairs");
    int d = (int)gc::parseInt(item.substr(colon + 1).c_str(), "--pairs");
    out.push_back({s, d});
  }
  return out;
}

// ---------------------------------------------------------------- kernels

__device__ __forceinline__ uint8_t pattern(size_t i, uint32_t seed) {
  uint32_t x = (uint32_t)i * 2654435761u ^ seed ^ (uint32_t)(i >> 32);
  x ^= x >> 15;
  x *= 2246822519u;
  return (uint8_t)(x ^ (x >> 13));
}

__global__ void copyKernel(uint8_t* dst, const uint8_t* src, size_t n) {
  size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
  size_t n16 = n / 16;
  uint4* d4 = reinterpret_cast<uint4*>(dst);
  const uint4* s4 = reinterpret_cast<const uint4*>(src);
  for (size_t i = tid; i < n16; i += stride) d4[i] = s4[i];
  for (size_t i = n16 * 16 + tid; i < n; i += stride) dst[i] = src[i];
}

__global__ void fillKernel(uint8_t* p, size_t n, uint32_t seed, int invert) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    p[i] = invert ? (uint8_t)~pattern(i, seed) : pattern(i, seed);
}

// counters[0] += mismatches, counters[1] = min(first mismatching offset).
__global__ void checkKernel(const uint8_t* p, size_t n, uint32_t seed, unsigned long long* counters) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  unsigned long long bad = 0, first = ~0ull;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
    if (p[i] != pattern(i, seed)) bad++, first = first < i ? first : i;
  if (bad) atomicAdd(&counters[0], bad), atomicMin(&counters[1], first);
}

// ---------------------------------------------------------------- per-GPU resources

// Buffers, streams and events of one GPU. Slot 0 serves the forward copy, slot 1 the reverse.
struct Gpu {
  int dev = -1, sms = 1;
  uint8_t *send = nullptr, *recv = nullptr, *recv2 = nullptr;
  cudaStream_t stream[2] = {nullptr, nullptr};
  cudaEvent_t mid[2] = {nullptr, nullptr}, done[2] = {nullptr, nullptr};
  unsigned long long* counters = nullptr;
  gc::EventTimer timer;
};

int blocksFor(const Gpu& g, size_t n) {
  size_t want = (n / 16 + 255) / 256;
  return (int)std::max<size_t>(1, std::min<size_t>(want, (size_t)g.sms * 4));
}

void initGpu(Gpu& g, int dev, size_t maxBytes) {
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
void enqueueCopy(Gpu& a, Gpu& b, int slot, size_t n, Mode m, uint8_t* host) {
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
void enqueueIteration(Gpu& a, Gpu& b, size_t n, Mode m, bool bidir, uint8_t* host[2]) {
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
std::pair<unsigned long long, unsigned long long> checkCopy(Gpu& a, Gpu& b, int slot, size_t n, Mode m, uint8_t* host, uint32_t seed) {
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

struct Bench {
  Opts o;
  std::vector<Gpu> gpus;  // indexed by device number
  uint8_t* host[2] = {nullptr, nullptr};
  std::vector<std::vector<int>> canPeer;
  bool corrupt = false;
  uint32_t seed = 0x9e3779b9u;
  gc::Latch latch;
};

void measureSize(Bench& B, const char* test, int s, int d, size_t n, Mode m, bool peer) {
  Gpu &a = B.gpus[s], &b = B.gpus[d];
  bool bidir = std::strcmp(test, "bw_bi") == 0, latency = std::strcmp(test, "latency") == 0;
  std::string base = latency ? "BenchmarkP2PLatency" : bidir ? "BenchmarkP2PBwBi" : "BenchmarkP2PBwUni";
  gc::kv(base, "src", s), gc::kv(base, "dst", d), gc::kv(base, "size", (long long)n);
  gc::kv(base, "p2p", m.p2p ? "enabled" : "disabled"), gc::kv(base, "copy", m.sm ? "sm" : "ce");
  gc::kv(base, "peer", peer ? 1 : 0);
  for (long i = 0; i < B.o.warmup; i++) enqueueIteration(a, b, n, m, bidir, B.host);
  CUDA_CHECK(cudaStreamSynchronize(a.stream[0]));
  bool useLatch = B.o.latch != 0;
  for (long i = 0; i < B.o.iters; i++) {
    CUDA_CHECK(cudaSetDevice(a.dev));
    if (useLatch) B.latch.arm(), B.latch.hold(a.stream[0]);
    CUDA_CHECK(cudaEventRecord(a.timer.start, a.stream[0]));
    enqueueIteration(a, b, n, m, bidir, B.host);
    CUDA_CHECK(cudaSetDevice(a.dev));
    CUDA_CHECK(cudaEventRecord(a.timer.stop, a.stream[0]));
    if (useLatch) B.latch.release();
    double sec = a.timer.seconds();
    std::string name = base;
    gc::kv(name, "iter", i);
    if (useLatch && B.latch.timedOut()) {
      // The host blocked while enqueueing (a synchronous copy path): time the rest of this size without the latch.
      std::printf("WARN %s  the latch timed out (the host blocks while enqueueing this copy): this and later iterations of this size include enqueueing\n", name.c_str());
      useLatch = false;
    }
    if (latency) gc::result(name, "%.3f us/op", sec * 1e6);
    else gc::result(name, "%.3f us/op  %.6g GB/s", sec * 1e6, (bidir ? 2.0 : 1.0) * (double)n / sec / 1e9);
  }
  if (B.o.check) {
    for (int slot = 0; slot < (bidir ? 2 : 1); slot++) {
      auto r = slot == 0 ? checkCopy(a, b, 0, n, m, B.host[0], B.seed++) : checkCopy(b, a, 1, n, m, B.host[1], B.seed++);
      if (r.first == 0) continue;
      B.corrupt = true;
      std::printf("CORRUPT %s  mismatches=%llu/%zu first=%llu direction=%d->%d\n", base.c_str(), r.first, n, r.second,
                  slot == 0 ? s : d, slot == 0 ? d : s);
    }
  }
  std::fflush(stdout);
}

void runPair(Bench& B, int s, int d) {
  for (const std::string& test : B.o.tests) {
    bool bw = test != "latency";
    std::vector<size_t> sizes = bw ? gc::sizeSweep(B.o.bwB, B.o.bwE, B.o.bwF) : gc::sizeSweep(B.o.latB, B.o.latE, B.o.latF);
    for (const std::string& p2p : B.o.p2p) {
      for (const std::string& copy : B.o.copy) {
        Mode m{p2p == "enabled", copy == "sm"};
        bool peer = m.p2p && (s == d || (B.canPeer[s][d] && (test != "bw_bi" || B.canPeer[d][s])));
        if (m.p2p && m.sm && !peer) {
          std::string name = test == "latency" ? "BenchmarkP2PLatency" : test == "bw_bi" ? "BenchmarkP2PBwBi" : "BenchmarkP2PBwUni";
          gc::kv(name, "src", s), gc::kv(name, "dst", d), gc::kv(name, "p2p", "enabled"), gc::kv(name, "copy", "sm");
          std::printf("SKIP %s  no peer access between GPU %d and GPU %d, so an SM kernel cannot reach the other GPU\n", name.c_str(), s, d);
          continue;
        }
        for (size_t n : sizes) measureSize(B, test.c_str(), s, d, n, m, peer);
      }
    }
  }
}

size_t maxBytes(const Opts& o) {
  size_t m = 0;
  for (const std::string& t : o.tests) {
    std::vector<size_t> sizes = t == "latency" ? gc::sizeSweep(o.latB, o.latE, o.latF) : gc::sizeSweep(o.bwB, o.bwE, o.bwF);
    m = std::max(m, sizes.back());
  }
  return m;
}

void setup(Bench& B, int count) {
  size_t maxN = maxBytes(B.o);
  B.gpus.resize(count);
  B.canPeer.assign(count, std::vector<int>(count, 0));
  for (int g : B.o.gpus) initGpu(B.gpus[g], g, maxN);
  for (int s : B.o.gpus)
    for (int d : B.o.gpus) {
      if (s == d) continue;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&B.canPeer[s][d], s, d));
      char key[48];
      std::snprintf(key, sizeof key, "peer.%d.%d", s, d);
      gc::config(key, "%d", B.canPeer[s][d]);
      if (!B.canPeer[s][d]) continue;
      CUDA_CHECK(cudaSetDevice(s));
      cudaError_t e = cudaDeviceEnablePeerAccess(d, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
      else CUDA_CHECK(e);
    }
  for (int k = 0; k < 2; k++) CUDA_CHECK(cudaHostAlloc(&B.host[k], maxN, cudaHostAllocPortable | cudaHostAllocMapped));
  B.latch.init();
}

}  // namespace

int main(int argc, char** argv) {
  gc::progName() = "p2p_bench";
  Bench B;
  B.o = parseArgs(argc, argv);
  (void)maxBytes(B.o);  // size flags are checked before any CUDA call
  int count = gc::deviceCount();
  if (B.o.gpus.empty())
    for (int g = 0; g < count; g++) B.o.gpus.push_back(g);
  gc::checkGpus(B.o.gpus, count);
  std::vector<std::pair<int, int>> pairs = makePairs(B.o);
  for (auto& p : pairs)
    if (std::find(B.o.gpus.begin(), B.o.gpus.end(), p.first) == B.o.gpus.end() ||
        std::find(B.o.gpus.begin(), B.o.gpus.end(), p.second) == B.o.gpus.end())
      die(gc::kUsage, "--pairs: %d:%d uses a GPU outside --gpus", p.first, p.second);
  gc::printHeader("p2p_bench");
  gc::printCudaConfig(B.o.gpus);
  gc::config("iters", "%ld", B.o.iters);
  gc::config("warmup", "%ld", B.o.warmup);
  gc::config("check", "%ld", B.o.check);
  gc::config("timer", "cuda-events");
  gc::config("latch", "%ld", B.o.latch);
  setup(B, count);
  std::fflush(stdout);
  for (auto& p : pairs) runPair(B, p.first, p.second);
  return B.corrupt ? gc::kCorrupt : gc::kOk;
}
