// p2p_bench: copy latency and bandwidth between GPUs (and from a GPU to itself), with the
// copy engine or an SM kernel, P2P enabled or staged through pinned host memory.
// Every iteration is timed with CUDA events and printed; the data are checked after each size.
// Flags, output format and exit codes: native/README.md.
#include "common.cuh"
#include "p2p_copy.cuh"

#include <algorithm>
#include <utility>

using gc::die;
using p2p::Gpu;
using p2p::Mode;

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
  for (long i = 0; i < B.o.warmup; i++) p2p::enqueueIteration(a, b, n, m, bidir, B.host);
  CUDA_CHECK(cudaStreamSynchronize(a.stream[0]));
  bool useLatch = B.o.latch != 0;
  for (long i = 0; i < B.o.iters; i++) {
    CUDA_CHECK(cudaSetDevice(a.dev));
    if (useLatch) B.latch.arm(), B.latch.hold(a.stream[0]);
    CUDA_CHECK(cudaEventRecord(a.timer.start, a.stream[0]));
    p2p::enqueueIteration(a, b, n, m, bidir, B.host);
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
      auto r = slot == 0 ? p2p::checkCopy(a, b, 0, n, m, B.host[0], B.seed++) : p2p::checkCopy(b, a, 1, n, m, B.host[1], B.seed++);
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
  for (int g : B.o.gpus) p2p::initGpu(B.gpus[g], g, maxN);
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
