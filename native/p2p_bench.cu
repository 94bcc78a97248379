// p2p_bench: copy latency and bandwidth between GPUs (and from a GPU to itself), with the
// copy engine or an SM kernel; P2P enabled, disabled (staged by the driver) or bounced through
// pinned host memory by the bench. Every sample (a batch of copies between two CUDA events) is
// printed; the data are checked after each size.
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
    "                 [--p2p enabled,disabled,bounce] [--copy ce,sm] [-b SIZE -e SIZE -f N] [-B SIZE -E SIZE -F N]\n"
    "                 [-n ITERS] [-w WARMUP] [-c 0|1] [--latch 0|1] [--batch K] [--chunk SIZE]\n"
    "Copies between every ordered pair of the GPUs given and from each GPU to itself; prints one\n"
    "line per iteration (see native/README.md). Exit: 0 ok, 1 data check failed, 2 usage, 3 CUDA error.\n";

struct Opts {
  std::vector<int> gpus;
  std::string pairs = "all";
  std::vector<std::string> tests = {"latency", "bw_uni", "bw_bi"};
  std::vector<std::string> p2p = {"enabled", "disabled", "bounce"};
  std::vector<std::string> copy = {"ce", "sm"};
  size_t latB = 4, latE = 1 << 20, latF = 2;
  size_t bwB = 64 << 10, bwE = 256 << 20, bwF = 4;
  long iters = 20, warmup = 5, check = 1, latch = 1, batch = 0;
  size_t chunk = 1 << 20;
};

Opts parseArgs(int argc, char** argv) {
  Opts o;
  gc::Args a{argc, argv};
  for (; a.i < argc; a.i++) {
    if (a.is("-h", "--help")) std::fputs(kUsageText, stdout), std::exit(0);
    else if (a.is("--gpus")) o.gpus = gc::parseIntList(a.value(), "--gpus");
    else if (a.is("--pairs")) o.pairs = a.value();
    else if (a.is("--tests")) o.tests = gc::parseChoices(a.value(), "latency,bw_uni,bw_bi", "--tests");
    else if (a.is("--p2p")) o.p2p = gc::parseChoices(a.value(), "enabled,disabled,bounce", "--p2p");
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
    else if (a.is("--batch")) o.batch = gc::parseInt(a.value(), "--batch");
    else if (a.is("--chunk")) o.chunk = gc::parseSize(a.value(), "--chunk");
    else die(gc::kUsage, "unknown flag '%s' (see -h)", a.flag());
  }
  if (o.iters < 1) die(gc::kUsage, "-n must be at least 1");
  if (o.batch > p2p::kMaxBatch) die(gc::kUsage, "--batch %ld: at most %ld", o.batch, p2p::kMaxBatch);
  if (o.chunk == 0 || o.chunk % 16 != 0) die(gc::kUsage, "--chunk %zu: must be a positive multiple of 16 bytes", o.chunk);
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

std::string benchName(const std::string& test) {
  return test == "latency" ? "BenchmarkP2PLatency" : test == "bw_bi" ? "BenchmarkP2PBwBi" : "BenchmarkP2PBwUni";
}

// One timed sample: `batch` iterations between the events, behind the latch when `useLatch`;
// returns seconds per iteration. Sets `useLatch` to false when the latch timed out.
double sample(Bench& B, Gpu& a, Gpu& b, size_t n, Mode m, bool bidir, long batch, bool& useLatch) {
  CUDA_CHECK(cudaSetDevice(a.dev));
  if (useLatch) B.latch.arm(), B.latch.hold(a.stream[0]);
  CUDA_CHECK(cudaEventRecord(a.timer.start, a.stream[0]));
  for (long k = 0; k < batch; k++) p2p::enqueueIteration(a, b, n, m, bidir, B.host);
  CUDA_CHECK(cudaSetDevice(a.dev));
  CUDA_CHECK(cudaEventRecord(a.timer.stop, a.stream[0]));
  if (useLatch) B.latch.release();
  double sec = a.timer.seconds();
  if (useLatch && B.latch.timedOut()) useLatch = false;
  return sec / (double)batch;
}

// --batch K, or (K = 0) the smallest batch whose sample spans p2p::kMinSampleS.
long chooseBatch(Bench& B, Gpu& a, Gpu& b, size_t n, Mode m, bool bidir) {
  if (B.o.batch > 0) return B.o.batch;
  bool useLatch = B.o.latch != 0;
  long batch = 1;
  for (long next; (next = p2p::nextBatch(batch, batch * sample(B, a, b, n, m, bidir, batch, useLatch))) != 0;) batch = next;
  return batch;
}

void measureSize(Bench& B, const std::string& test, int s, int d, size_t n, Mode m, bool peer) {
  Gpu &a = B.gpus[s], &b = B.gpus[d];
  bool bidir = test == "bw_bi", latency = test == "latency";
  for (long i = 0; i < B.o.warmup; i++) p2p::enqueueIteration(a, b, n, m, bidir, B.host);
  CUDA_CHECK(cudaSetDevice(a.dev));
  CUDA_CHECK(cudaStreamSynchronize(a.stream[0]));
  long batch = chooseBatch(B, a, b, n, m, bidir);
  std::string base = benchName(test);
  gc::kv(base, "src", s), gc::kv(base, "dst", d), gc::kv(base, "size", (long long)n);
  gc::kv(base, "p2p", p2p::kPathNames[m.path]), gc::kv(base, "copy", m.sm ? "sm" : "ce");
  gc::kv(base, "peer", peer ? 1 : 0), gc::kv(base, "batch", batch);
  bool useLatch = B.o.latch != 0;
  for (long i = 0; i < B.o.iters; i++) {
    bool held = useLatch;
    double sec = sample(B, a, b, n, m, bidir, batch, useLatch);
    std::string name = base;
    gc::kv(name, "iter", i);
    // The host blocked while enqueueing (a synchronous copy path): the rest of this size runs without the latch.
    if (held && !useLatch)
      std::printf("WARN %s  the latch timed out (the host blocks while enqueueing this copy): this and later iterations of this size include enqueueing\n", name.c_str());
    if (latency) gc::result(name, "%.3f us/op", sec * 1e6);
    else gc::result(name, "%.3f us/op  %.6g GB/s", sec * 1e6, p2p::countedBytes(n, bidir) / sec / 1e9);
  }
  if (B.o.check) {
    p2p::Mismatch r[2];
    p2p::checkIteration(a, b, n, m, bidir, B.host, B.seed++, r);
    for (int slot = 0; slot < 2; slot++) {
      if (r[slot].first == 0) continue;
      B.corrupt = true;
      std::printf("CORRUPT %s  mismatches=%llu/%zu first=%llu direction=%d->%d\n", base.c_str(), r[slot].first, n, r[slot].second,
                  slot == 0 ? s : d, slot == 0 ? d : s);
    }
  }
  std::fflush(stdout);
}
// Turns peer access between s and d on (both ways, where the pair supports it) or off. Called
// per pair, as p2pBandwidthLatencyTest does, so no device ever holds more than the one peer
// connection (PCIe systems allow at most 8 per device).
void setPeer(Bench& B, int s, int d, bool on) {
  if (s == d) return;
  for (int k = 0; k < 2; k++) {
    int from = k == 0 ? s : d, to = k == 0 ? d : s;
    if (!B.canPeer[from][to]) continue;
    CUDA_CHECK(cudaSetDevice(from));
    cudaError_t e = on ? cudaDeviceEnablePeerAccess(to, 0) : cudaDeviceDisablePeerAccess(to);
    if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled) cudaGetLastError();
    else CUDA_CHECK(e);
  }
}

// Why (test, s, d, mode) cannot run, or nullptr.
const char* skipReason(const Bench& B, const std::string& test, int s, int d, Mode m) {
  bool canPeer = s == d || (B.canPeer[s][d] && (test != "bw_bi" || B.canPeer[d][s]));
  if (m.path == p2p::Direct && m.sm && !canPeer) return "no peer access between the GPUs, so an SM kernel cannot reach the other GPU";
  if (m.path == p2p::Driver && s == d) return "a copy inside one GPU never leaves it with peer access off; p2p=bounce measures the host-staged path on one GPU";
  if (m.path == p2p::Driver && m.sm) return "an SM kernel cannot reach another GPU with peer access off; p2p=bounce stages SM copies through the host";
  return nullptr;
}

void runPair(Bench& B, int s, int d) {
  for (const std::string& path : B.o.p2p) {
    Mode base{path == "enabled" ? p2p::Direct : path == "disabled" ? p2p::Driver : p2p::Bounce, false, B.o.chunk};
    bool on = base.path == p2p::Direct;
    setPeer(B, s, d, on);
    for (const std::string& test : B.o.tests) {
      bool bw = test != "latency";
      std::vector<size_t> sizes = bw ? gc::sizeSweep(B.o.bwB, B.o.bwE, B.o.bwF) : gc::sizeSweep(B.o.latB, B.o.latE, B.o.latF);
      for (const std::string& copy : B.o.copy) {
        Mode m = base;
        m.sm = copy == "sm";
        if (const char* why = skipReason(B, test, s, d, m)) {
          std::string name = benchName(test);
          gc::kv(name, "src", s), gc::kv(name, "dst", d), gc::kv(name, "p2p", path), gc::kv(name, "copy", copy);
          std::printf("SKIP %s  %s\n", name.c_str(), why);
          continue;
        }
        bool peer = on && (s == d || (B.canPeer[s][d] && (test != "bw_bi" || B.canPeer[d][s])));
        for (size_t n : sizes) measureSize(B, test, s, d, n, m, peer);
      }
    }
    if (on) setPeer(B, s, d, false);
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
  gc::config("batch", B.o.batch ? "%ld" : "auto (a sample spans at least 20 us)", B.o.batch);
  gc::config("bounce-chunk", "%zu", B.o.chunk);
  gc::config("bandwidth", "size/time per direction, also inside one GPU (p2pBandwidthLatencyTest counts 2x that on its diagonal)");
  setup(B, count);
  std::fflush(stdout);
  for (auto& p : pairs) runPair(B, p.first, p.second);
  return B.corrupt ? gc::kCorrupt : gc::kOk;
}
