// coll_bench: NCCL collectives over the GPUs of one process (-g / --gpus) or of several
// processes (rank from the launcher's environment, unique id through --bootstrap DIR).
// NCCL is loaded with dlopen (nccl_api.h). Every iteration is timed with CUDA events and
// printed, and the result is checked. Flags, output format and exit codes: native/README.md.
#include "coll_ops.cuh"
#include "coll_world.cuh"
#include "common.cuh"
#include "nccl_loader.cuh"

#include <unistd.h>
#include <algorithm>

using coll::api;
using coll::Case;
using coll::Dev;
using coll::World;
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
const char* kOps = "sum,prod,max,min,avg";

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

gc::Latch latch;

struct Bench {
  Opts o;
  World w;
  std::vector<Dev> devs;
  int nranks = 1;
  bool corrupt = false;
};

void measure(Bench& B, const Case& c) {
  bool graph = B.o.graph != 0;
  if (graph) coll::captureGraphs(c, B.devs);
  coll::initData(c, B.devs);
  bool timedOut = false;
  std::vector<double> times = coll::timeIterations(c, B.devs, graph, B.o.warmup, B.o.iters, latch, B.o.latch != 0, timedOut);
  std::vector<double> wrong = {B.o.check ? coll::countWrong(c, B.devs, graph) : 0.0, timedOut ? 1.0 : 0.0};
  if (B.w.nprocs > 1) coll::reduceAcrossProcs(times, 2, B.devs), coll::reduceAcrossProcs(wrong, 0, B.devs);
  coll::destroyGraphs(B.devs);
  if (B.w.proc != 0) return;
  size_t bytes = c.n.count * coll::typeSize(c.type);
  bool reduces = c.kind == coll::AllReduce || c.kind == coll::ReduceScatter;
  std::string base = std::string("BenchmarkNccl") + kCamel[c.kind];
  gc::kv(base, "ranks", c.nranks), gc::kv(base, "size", (long long)bytes), gc::kv(base, "count", (long long)c.n.count);
  gc::kv(base, "type", gc::splitList(kTypes)[c.type]), gc::kv(base, "redop", reduces ? gc::splitList(kOps)[c.op] : "none");
  gc::kv(base, "root", c.kind == coll::Broadcast ? c.root : -1), gc::kv(base, "place", c.inPlace ? "in" : "out");
  gc::kv(base, "graph", graph ? 1 : 0);
  if (wrong[1] > 0) std::printf("WARN %s  the latch timed out on %.0f process(es) (the host blocked while enqueueing the batch): the first iterations include enqueueing\n", base.c_str(), wrong[1]);
  for (size_t i = 0; i < times.size(); i++) {
    std::string name = base;
    gc::kv(name, "iter", (long long)i);
    double algbw = (double)bytes / times[i] / 1e9;
    gc::result(name, "%.3f us/op  %.6g algGB/s  %.6g busGB/s", times[i] * 1e6, algbw, algbw * coll::busFactor(c.kind, c.nranks));
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
  int count = gc::deviceCount();
  if (gpus.empty()) {
    long first = coll::firstGpu(B.w.local, B.o.ngpus, count);
    if (first < 0) die(gc::kUsage, "-g %ld: this process sees only %d GPU(s)", B.o.ngpus, count);
    for (long j = 0; j < B.o.ngpus; j++) gpus.push_back((int)(first + j));
  }
  gc::checkGpus(gpus, count);
  B.nranks = B.w.nprocs * (int)gpus.size();
  B.devs.resize(gpus.size());
  for (size_t j = 0; j < gpus.size(); j++) {
    Dev& d = B.devs[j];
    d.gpu = gpus[j], d.rank = B.w.proc * (int)gpus.size() + (int)j;
    CUDA_CHECK(cudaSetDevice(d.gpu));
    CUDA_CHECK(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc(&d.send, maxBytes));
    CUDA_CHECK(cudaMalloc(&d.recv, maxBytes));
    CUDA_CHECK(cudaMemset(d.send, 0, maxBytes));
    CUDA_CHECK(cudaMemset(d.recv, 0, maxBytes));
    d.cap = maxBytes;
    CUDA_CHECK(cudaMalloc(&d.wrong, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d.red, (B.o.iters + 1) * sizeof(double)));
    d.ev.resize(B.o.iters + 1);
    for (cudaEvent_t& e : d.ev) CUDA_CHECK(cudaEventCreate(&e));
  }
  if (B.o.root >= B.nranks) die(gc::kUsage, "-r %ld: there are only %d ranks", B.o.root, B.nranks);
  if (B.w.proc == 0) gc::printCudaConfig(gpus);
}

void initComms(Bench& B, const nccl::UniqueId& id) {
  NCCL_CHECK(api.groupStart());
  for (Dev& d : B.devs) CUDA_CHECK(cudaSetDevice(d.gpu)), NCCL_CHECK(api.commInitRank(&d.comm, B.nranks, id, d.rank));
  NCCL_CHECK(api.groupEnd());
}

}  // namespace

int main(int argc, char** argv) {
  gc::progName() = "coll_bench";
  Bench B;
  B.o = parseArgs(argc, argv);
  B.w = coll::detectWorld();
  if (B.w.proc == 0) gc::printHeader("coll_bench");
  coll::loadNccl(B.w.proc == 0);
  bool reduces = std::find(B.o.colls.begin(), B.o.colls.end(), coll::AllReduce) != B.o.colls.end() ||
                 std::find(B.o.colls.begin(), B.o.colls.end(), coll::ReduceScatter) != B.o.colls.end();
  if (reduces && std::find(B.o.ops.begin(), B.o.ops.end(), coll::OpAvg) != B.o.ops.end() && api.version < 21000)
    die(gc::kNcclMissing, "-o avg needs NCCL 2.10 or later; %s is NCCL %s", api.path.c_str(), nccl::versionString(api.version).c_str());
  nccl::UniqueId id = coll::bootstrapId(B.w, B.o.bootstrap, B.o.timeoutS);
  setupDevs(B);
  if (B.o.latch) latch.init();
  initComms(B, id);
  // Every rank has joined, so every rank has read the id: the file goes, and cannot go stale.
  if (B.w.nprocs > 1 && B.w.proc == 0) unlink(coll::idPath(B.o.bootstrap).c_str());
  if (B.w.proc == 0) {
    gc::config("nprocs", "%d", B.w.nprocs), gc::config("nranks", "%d", B.nranks);
    gc::config("iters", "%ld", B.o.iters), gc::config("warmup", "%ld", B.o.warmup), gc::config("check", "%ld", B.o.check);
    gc::config("graph", "%ld", B.o.graph), gc::config("timer", "cuda-events"), gc::config("latch", "%ld", B.o.latch);
    gc::config("timing", "batch");
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
            Case c = coll::makeCase(kind, dtype, op, (int)B.o.root, B.nranks, place == "in", bytes, B.devs[0].cap, B.o.iters);
            if (c.n.count == 0) continue;
            measure(B, c);
          }
  }
  for (Dev& d : B.devs) NCCL_CHECK(api.commDestroy(d.comm));
  nccl::unload(api);
  return B.corrupt ? gc::kCorrupt : gc::kOk;
}
