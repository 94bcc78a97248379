// coll_bench: NCCL collectives over the GPUs of one process (-g / --gpus) or of several
// processes (rank from the launcher's environment, unique id through --bootstrap DIR).
// NCCL is loaded with dlopen (nccl_api.h). Every iteration is timed with CUDA events and
// printed, and the result is checked. Flags, output format and exit codes: native/README.md.
#include "coll_data.cuh"
#include "common.cuh"
#include "nccl_api.h"

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <thread>

using gc::die;

namespace {

const char* kUsageText =
    "usage: coll_bench [--coll LIST|all] [-g N | --gpus LIST] [-b SIZE -e SIZE -f N] [-n ITERS] [-w WARMUP]\n"
    "                  [-c 0|1] [-d TYPES|all] [-o OPS|all] [-r ROOT] [-G 0|1] [--place out,in]\n"
    "                  [--bootstrap DIR] [--bootstrap-timeout S] [--latch 0|1]\n"
    "NCCL collectives with per-iteration times and a data check (see native/README.md).\n"
    "Exit: 0 ok, 1 data check failed, 2 usage, 3 CUDA error, 4 NCCL not found, 5 NCCL error.\n";

const char* kColls = "all_reduce,all_gather,reduce_scatter,broadcast,alltoall,sendrecv";
const char* kCamel[] = {"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Alltoall", "Sendrecv"};
const char* kTypes = "int8,uint8,int32,uint32,int64,uint64,half,float,double,bfloat16";
const int kTypeSize[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2};
const char* kOps = "sum,prod,max,min,avg";

nccl::Api api;

#define NCCL_CHECK(call) ncclCheck((call), #call, __FILE__, __LINE__)
void ncclCheck(nccl::Result r, const char* call, const char* file, int line) {
  if (r == nccl::kSuccess) return;
  die(gc::kNcclError, "%s: NCCL error %d (%s) at %s:%d", call, r, api.getErrorString ? api.getErrorString(r) : "?", gc::srcName(file).c_str(), line);
}

int indexIn(const std::string& item, const char* list) {
  std::vector<std::string> all = gc::splitList(list);
  return (int)(std::find(all.begin(), all.end(), item) - all.begin());
}

struct Opts {
  std::vector<int> colls = {coll::AllReduce}, types = {7}, ops = {0}, gpus;
  std::vector<std::string> places = {"out", "in"};
  long ngpus = 1, iters = 20, warmup = 5, check = 1, root = 0, graph = 0, timeoutS = 120, latch = 1;
  size_t b = 8, e = 128 << 20, f = 2;
  std::string bootstrap;
};

std::vector<int> indices(const char* value, const char* allowed, const char* flag) {
  std::vector<int> out;
  for (const std::string& s : gc::parseChoices(value, allowed, flag)) out.push_back(indexIn(s, allowed));
  return out;
}

Opts parseArgs(int argc, char** argv) {
  Opts o;
  gc::Args a{argc, argv};
  for (; a.i < argc; a.i++) {
    if (a.is("-h", "--help")) std::fputs(kUsageText, stdout), std::exit(0);
    else if (a.is("--coll")) o.colls = indices(a.value(), kColls, "--coll");
    else if (a.is("-g")) o.ngpus = gc::parseInt(a.value(), "-g");
    else if (a.is("--gpus")) o.gpus = gc::parseIntList(a.value(), "--gpus");
    else if (a.is("-b")) o.b = gc::parseSize(a.value(), "-b");
    else if (a.is("-e")) o.e = gc::parseSize(a.value(), "-e");
    else if (a.is("-f")) o.f = gc::parseInt(a.value(), "-f");
    else if (a.is("-n")) o.iters = gc::parseInt(a.value(), "-n");
    else if (a.is("-w")) o.warmup = gc::parseInt(a.value(), "-w");
    else if (a.is("-c")) o.check = gc::parseInt(a.value(), "-c");
    else if (a.is("-d")) o.types = indices(a.value(), kTypes, "-d");
    else if (a.is("-o")) o.ops = indices(a.value(), kOps, "-o");
    else if (a.is("-r")) o.root = gc::parseInt(a.value(), "-r");
    else if (a.is("-G")) o.graph = gc::parseInt(a.value(), "-G");
    else if (a.is("--place")) o.places = gc::parseChoices(a.value(), "out,in", "--place");
    else if (a.is("--bootstrap")) o.bootstrap = a.value();
    else if (a.is("--bootstrap-timeout")) o.timeoutS = gc::parseInt(a.value(), "--bootstrap-timeout");
    else if (a.is("--latch")) o.latch = gc::parseInt(a.value(), "--latch");
    else die(gc::kUsage, "unknown flag '%s' (see -h)", a.flag());
  }
  if (o.iters < 1 || o.ngpus < 1) die(gc::kUsage, "-n and -g must be at least 1");
  gc::sizeSweep(o.b, o.e, o.f);
  return o;
}

// ---------------------------------------------------------------- processes and ranks

struct World {
  int proc = 0, nprocs = 1, local = 0;
};

int envInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

World detectWorld() {
  const char* pairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}, {"SLURM_PROCID", "SLURM_NTASKS"}};
  World w;
  for (auto& p : pairs)
    if (std::getenv(p[0]) && std::getenv(p[1])) {
      w.proc = envInt(p[0], 0), w.nprocs = envInt(p[1], 1);
      break;
    }
  w.local = envInt("OMPI_COMM_WORLD_LOCAL_RANK", envInt("MPI_LOCALRANKID", envInt("SLURM_LOCALID", w.proc)));
  return w;
}

// Rank 0 writes the unique id to DIR/nccl-unique-id (atomically); the others wait for it.
nccl::UniqueId bootstrapId(const World& w, const Opts& o) {
  nccl::UniqueId id;
  if (w.nprocs == 1) {
    NCCL_CHECK(api.getUniqueId(&id));
    return id;
  }
  if (o.bootstrap.empty()) die(gc::kUsage, "%d processes: --bootstrap DIR is required", w.nprocs);
  std::string path = o.bootstrap + "/nccl-unique-id";
  if (w.proc == 0) {
    NCCL_CHECK(api.getUniqueId(&id));
    std::string tmp = path + ".tmp." + std::to_string(getpid());
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f || std::fwrite(&id, sizeof id, 1, f) != 1 || std::fclose(f) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0)
      die(gc::kNcclError, "bootstrap: cannot write %s", path.c_str());
    return id;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.timeoutS);
  while (std::chrono::steady_clock::now() < deadline) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f) {
      size_t got = std::fread(&id, sizeof id, 1, f);
      std::fclose(f);
      if (got == 1) return id;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  die(gc::kNcclError, "bootstrap: no unique id in %s after %ld s (is rank 0 running?)", path.c_str(), o.timeoutS);
}

// ---------------------------------------------------------------- per-GPU state

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

Case makeCase(int kind, int dtype, int op, int root, int nranks, bool inPlace, size_t bytes) {
  Case c{kind, dtype, op, root, nranks, inPlace, 0, 0, 0, 0};
  size_t t = kTypeSize[dtype], n = bytes / t;
  bool blocked = kind == coll::AllGather || kind == coll::ReduceScatter || kind == coll::Alltoall;
  if (blocked) n -= n % nranks;
  c.count = n, c.per = blocked ? n / nranks : n;
  c.sendElems = kind == coll::AllGather ? c.per : n;
  c.recvElems = kind == coll::ReduceScatter ? c.per : n;
  return c;
}

// In place, the input (all_gather) or the output (reduce_scatter) is this rank's block of the
// one buffer, which holds `count` elements; otherwise input and output are separate buffers.
void* sendPtr(const Case& c, Dev& d) {
  if (!c.inPlace) return d.send;
  return d.recv + (c.kind == coll::AllGather ? (size_t)d.rank * c.per * kTypeSize[c.dtype] : 0);
}
void* recvPtr(const Case& c, Dev& d) {
  if (!c.inPlace) return d.recv;
  return d.recv + (c.kind == coll::ReduceScatter ? (size_t)d.rank * c.per * kTypeSize[c.dtype] : 0);
}

// Enqueues the collective of one GPU (inside a group when the process has several).
void launch(const Case& c, Dev& d) {
  const void* s = sendPtr(c, d);
  void* r = recvPtr(c, d);
  switch (c.kind) {
    case coll::AllReduce: NCCL_CHECK(api.allReduce(s, r, c.count, c.dtype, c.op, d.comm, d.stream)); break;
    case coll::AllGather: NCCL_CHECK(api.allGather(s, r, c.per, c.dtype, d.comm, d.stream)); break;
    case coll::ReduceScatter: NCCL_CHECK(api.reduceScatter(s, r, c.per, c.dtype, c.op, d.comm, d.stream)); break;
    case coll::Broadcast: NCCL_CHECK(api.broadcast(s, r, c.count, c.dtype, c.root, d.comm, d.stream)); break;
    case coll::Alltoall:
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
void runAll(const Case& c, std::vector<Dev>& devs, bool graph) {
  if (graph) {
    for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaGraphLaunch(d.exec, d.stream));
    return;
  }
  NCCL_CHECK(api.groupStart());
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), launch(c, d);
  NCCL_CHECK(api.groupEnd());
}

void captureGraphs(const Case& c, std::vector<Dev>& devs) {
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
void initData(const Case& c, std::vector<Dev>& devs) {
  size_t t = kTypeSize[c.dtype];
  for (Dev& d : devs) {
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaMemsetAsync(d.recv, 0xff, (c.inPlace ? c.count : c.recvElems) * t, d.stream));
    coll::fill(c.dtype, sendPtr(c, d), c.sendElems, c.op, d.rank, c.nranks, d.stream);
  }
  for (Dev& d : devs) CUDA_CHECK(cudaSetDevice(d.gpu)), CUDA_CHECK(cudaStreamSynchronize(d.stream));
}

// Number of wrong output elements over the local GPUs after one checked run.
double countWrong(const Case& c, std::vector<Dev>& devs, bool graph) {
  initData(c, devs);
  runAll(c, devs, graph);
  double avgTol = c.dtype <= 5 ? 1.0 : 0.02;
  double wrong = 0;
  for (Dev& d : devs) {
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaMemsetAsync(d.wrong, 0, sizeof(unsigned long long), d.stream));
    coll::CheckSpec s{c.kind, c.op, d.rank, c.nranks, c.root, c.per, c.op == 4 ? avgTol : 0.0};
    coll::check(c.dtype, recvPtr(c, d), c.recvElems, s, d.wrong, d.stream);
    unsigned long long w = 0;
    CUDA_CHECK(cudaMemcpyAsync(&w, d.wrong, sizeof w, cudaMemcpyDeviceToHost, d.stream));
    CUDA_CHECK(cudaStreamSynchronize(d.stream));
    wrong += (double)w;
  }
  return wrong;
}

gc::Latch latch;

// Times each iteration: the maximum over local GPUs of their start..stop event times.
// `timedOut` is 1 + the iteration whose latch gave up (0: never); later ones run without it.
std::vector<double> timeIterations(const Case& c, std::vector<Dev>& devs, bool graph, long warmup, long iters, bool useLatch, long& timedOut) {
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
void reduceAcrossProcs(std::vector<double>& v, int op, std::vector<Dev>& devs) {
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

double busFactor(int kind, int n) {
  if (kind == coll::AllReduce) return 2.0 * (n - 1) / n;
  if (kind == coll::Broadcast || kind == coll::Sendrecv) return 1.0;
  return (double)(n - 1) / n;
}

struct Bench {
  Opts o;
  World w;
  std::vector<Dev> devs;
  int nranks = 1;
  bool corrupt = false;
};

void measure(Bench& B, const Case& c) {
  bool graph = B.o.graph != 0;
  if (graph) captureGraphs(c, B.devs);
  initData(c, B.devs);
  long timedOut = 0;
  std::vector<double> times = timeIterations(c, B.devs, graph, B.o.warmup, B.o.iters, B.o.latch != 0, timedOut);
  std::vector<double> wrong = {B.o.check ? countWrong(c, B.devs, graph) : 0.0};
  if (B.w.nprocs > 1) reduceAcrossProcs(times, 2, B.devs), reduceAcrossProcs(wrong, 0, B.devs);
  for (Dev& d : B.devs)
    if (d.exec) CUDA_CHECK(cudaGraphExecDestroy(d.exec)), d.exec = nullptr;
  if (B.w.proc != 0) return;
  size_t bytes = c.count * kTypeSize[c.dtype];
  bool reduces = c.kind == coll::AllReduce || c.kind == coll::ReduceScatter;
  std::string base = std::string("BenchmarkNccl") + kCamel[c.kind];
  gc::kv(base, "ranks", c.nranks), gc::kv(base, "size", (long long)bytes), gc::kv(base, "count", (long long)c.count);
  gc::kv(base, "type", gc::splitList(kTypes)[c.dtype]), gc::kv(base, "redop", reduces ? gc::splitList(kOps)[c.op] : "none");
  gc::kv(base, "root", c.kind == coll::Broadcast ? c.root : -1), gc::kv(base, "place", c.inPlace ? "in" : "out");
  gc::kv(base, "graph", graph ? 1 : 0);
  if (timedOut > 0) std::printf("WARN %s  the latch timed out at iteration %ld (the host blocks while enqueueing): from there on the times include enqueueing\n", base.c_str(), timedOut - 1);
  for (size_t i = 0; i < times.size(); i++) {
    std::string name = base;
    gc::kv(name, "iter", (long long)i);
    double algbw = (double)bytes / times[i] / 1e9;
    gc::result(name, "%.3f us/op  %.6g algGB/s  %.6g busGB/s", times[i] * 1e6, algbw, algbw * busFactor(c.kind, c.nranks));
  }
  if (B.o.check) {
    gc::result(base, "%.0f wrong", wrong[0]);
    if (wrong[0] > 0) B.corrupt = true, std::printf("CORRUPT %s  wrong=%.0f\n", base.c_str(), wrong[0]);
  }
  std::fflush(stdout);
}

void setupDevs(Bench& B) {
  size_t maxBytes = (gc::sizeSweep(B.o.b, B.o.e, B.o.f).back() + 255) / 256 * 256;
  std::vector<int> gpus = B.o.gpus;
  if (gpus.empty())
    for (long j = 0; j < B.o.ngpus; j++) gpus.push_back((int)(B.w.local * B.o.ngpus + j));
  gc::checkGpus(gpus, gc::deviceCount());
  B.nranks = B.w.nprocs * (int)gpus.size();
  B.devs.resize(gpus.size());
  for (size_t j = 0; j < gpus.size(); j++) {
    Dev& d = B.devs[j];
    d.gpu = gpus[j], d.rank = B.w.proc * (int)gpus.size() + (int)j;
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc(&d.send, maxBytes));
    CUDA_CHECK(cudaMalloc(&d.recv, maxBytes));
    CUDA_CHECK(cudaMalloc(&d.wrong, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d.red, (B.o.iters + 1) * sizeof(double)));
    d.timer.init(d.gpu);
  }
  if (B.o.root >= B.nranks) die(gc::kUsage, "-r %ld: there are only %d ranks", B.o.root, B.nranks);
  if (B.w.proc == 0) gc::printCudaConfig(gpus);
}

void initComms(Bench& B, const nccl::UniqueId& id) {
  NCCL_CHECK(api.groupStart());
  for (Dev& d : B.devs) CUDA_CHECK(cudaSetDevice(d.gpu)), NCCL_CHECK(api.commInitRank(&d.comm, B.nranks, id, d.rank));
  NCCL_CHECK(api.groupEnd());
}

void loadNccl(bool print) {
  std::string tried, error;
  if (!nccl::load(api, tried, error)) {
    if (!error.empty()) die(gc::kNcclMissing, "NCCL library unusable: %s", error.c_str());
    die(gc::kNcclMissing, "NCCL library not found; tried: %s (set NCCL_LIBRARY to libnccl.so.2, or NCCL_HOME, or pip install nvidia-nccl-cu12)", tried.c_str());
  }
  if (!print) return;
  gc::config("nccl-library", "%s", api.path.c_str());
  gc::config("nccl-version", "%d", api.version);
  gc::config("nccl-version-string", "%s", nccl::versionString(api.version).c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  gc::progName() = "coll_bench";
  Bench B;
  B.o = parseArgs(argc, argv);
  B.w = detectWorld();
  if (B.w.proc == 0) gc::printHeader("coll_bench");
  loadNccl(B.w.proc == 0);
  setupDevs(B);
  if (B.o.latch) latch.init();
  initComms(B, bootstrapId(B.w, B.o));
  if (B.w.proc == 0) {
    gc::config("nprocs", "%d", B.w.nprocs), gc::config("nranks", "%d", B.nranks);
    gc::config("iters", "%ld", B.o.iters), gc::config("warmup", "%ld", B.o.warmup), gc::config("check", "%ld", B.o.check);
    gc::config("graph", "%ld", B.o.graph), gc::config("timer", "cuda-events"), gc::config("latch", "%ld", B.o.latch);
  }
  std::vector<size_t> sizes = gc::sizeSweep(B.o.b, B.o.e, B.o.f);
  for (int kind : B.o.colls) {
    bool reduces = kind == coll::AllReduce || kind == coll::ReduceScatter;
    std::vector<int> ops = reduces ? B.o.ops : std::vector<int>{0};
    for (int dtype : B.o.types)
      for (int op : ops)
        for (size_t bytes : sizes)
          for (const std::string& place : B.o.places) {
            if (place == "in" && (kind == coll::Alltoall || kind == coll::Sendrecv)) continue;
            Case c = makeCase(kind, dtype, op, (int)B.o.root, B.nranks, place == "in", bytes);
            if (c.count == 0) continue;
            measure(B, c);
          }
  }
  for (Dev& d : B.devs) NCCL_CHECK(api.commDestroy(d.comm));
  return B.corrupt ? gc::kCorrupt : gc::kOk;
}
